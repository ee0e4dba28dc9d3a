package format

import (
	"strconv"
	"time"

	"github.com/twice-cli/twice/catalyst"
)

// Spans shows durations measured between a history's timestamps (how long
// an attempt took, a backoff, ELAPSED, an offset from the start) no more
// exactly than the source recorded them. Where the stamps are whole seconds
// (the Dapr CLI's JSON truncates them), a span between two of them is known
// only to within a second either way: 1s between two stamps is anything from
// a hundredth of a second to 1.99 s. There a span is shown in whole seconds
// marked "~" ("~30s", "~2.5m"), and a span under the resolution as "<1s";
// Legend says so once, where the table is drawn.
//
// The zero Spans is for exact stamps: it shows what Duration shows.
type Spans struct {
	// Resolution is the step of the stamps the spans are measured between
	// (catalyst.History.TimeResolution); 0 when they are exact.
	Resolution time.Duration
}

// SpansOf returns the Spans for durations measured between h's stamps.
func SpansOf(h *catalyst.History) Spans {
	if h == nil {
		return Spans{}
	}
	return Spans{Resolution: h.TimeResolution}
}

// Coarse reports whether the stamps are too coarse for Duration's
// precision (whole seconds or coarser), so that spans are marked.
func (s Spans) Coarse() bool { return s.Resolution >= time.Second }

// Duration shows a span of d: Duration(d) for exact stamps; "~30s",
// "~-3s", "~2.5m", or "<1s" for a span under the resolution, for coarse
// ones.
func (s Spans) Duration(d time.Duration) string { return string(s.AppendDuration(nil, d)) }

// AppendDuration appends s.Duration(d) to buf.
func (s Spans) AppendDuration(buf []byte, d time.Duration) []byte {
	if !s.Coarse() {
		return AppendDuration(buf, d)
	}
	if d > -s.Resolution && d < s.Resolution {
		// Both stamps in one step: the span is under it, in either order.
		return appendUnder(buf, s.Resolution)
	}
	buf = append(buf, '~')
	return appendWhole(buf, d, s.Resolution)
}

// Offset shows d as a signed offset from a reference instant: Offset(d)
// for exact stamps; "~+30s", "~-3s", or "+<1s" within one step of the
// reference, for coarse ones.
func (s Spans) Offset(d time.Duration) string {
	if !s.Coarse() {
		return Offset(d)
	}
	if d > -s.Resolution && d < s.Resolution {
		return string(appendUnder([]byte{'+'}, s.Resolution))
	}
	buf := []byte{'~'}
	if d > 0 {
		buf = append(buf, '+')
	}
	return string(appendWhole(buf, d, s.Resolution))
}

// Legend is the one line said where spans of a coarse source are shown,
// or "" for exact stamps.
func (s Spans) Legend() string {
	if !s.Coarse() {
		return ""
	}
	if s.Resolution == time.Second {
		return "times in this source are whole seconds: every span is ±1s (~30s is 29–31s; <1s is under a second)"
	}
	step := Duration(s.Resolution)
	return "times in this source are whole steps of " + step + ": every span is ±" + step
}

// appendUnder writes "<1s" for a resolution of a second: a span shorter
// than one step.
func appendUnder(buf []byte, res time.Duration) []byte {
	buf = append(buf, '<')
	if res == time.Second {
		return append(buf, "1s"...)
	}
	return AppendDuration(buf, res)
}

// appendWhole writes d without a fraction finer than the resolution:
// whole seconds under a minute ("30s"), Duration's own units above, whose
// one decimal of a minute is already coarser than a second.
func appendWhole(buf []byte, d, res time.Duration) []byte {
	if d < 0 {
		buf = append(buf, '-')
		d = -d
	}
	d = d.Round(res)
	if d < time.Minute {
		buf = strconv.AppendInt(buf, int64(d/time.Second), 10)
		return append(buf, 's')
	}
	return AppendDuration(buf, d)
}
