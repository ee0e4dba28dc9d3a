package format

import (
	"strconv"
	"time"

	"github.com/twice-cli/twice/catalyst"
)

// OutOfRangeText is what a span to an instant twice cannot hold (before
// 1678, after 2261) shows instead of a measure.
const OutOfRangeText = "out of range"

// Spans shows durations measured between a history's instants (how long
// an attempt took, a backoff, ELAPSED, an offset from the start) no more
// exactly than the source recorded them (catalyst.History.Span measures
// them):
//
//   - from the engine's own times, as Duration shows them;
//   - rebuilt by the decoder from a finer record than the printed times
//     (the Dapr CLI prints whole seconds, but each row's elapsed from the
//     exact times), to the digit the span's error allows: "748.0ms",
//     "2.06s", or "0.75s" for 748 ms known to ±5 ms;
//   - known only between whole-second printed times (a row with no
//     elapsed, a fireAt, a clock reading against a row), within a second
//     either way: 1s between two stamps is anything from a hundredth of a
//     second to 1.99 s. There a span is shown in whole seconds marked "~"
//     ("~30s", "~2.5m"), and a span under the resolution as "<1s".
//
// Legend says which, once, where the table is drawn. The zero Spans is for
// exact stamps.
type Spans struct {
	// Resolution is the step of the source's printed times
	// (catalyst.History.TimeResolution); 0 when they are exact.
	Resolution time.Duration
	// h measures spans between its instants; nil: a span is measured as
	// between printed times of Resolution.
	h *catalyst.History
}

// SpansOf returns the Spans for durations measured between h's instants.
func SpansOf(h *catalyst.History) Spans {
	if h == nil {
		return Spans{}
	}
	return Spans{Resolution: h.TimeResolution, h: h}
}

// History is the history whose spans s measures (nil for a Spans made
// without one).
func (s Spans) History() *catalyst.History { return s.h }

// Coarse reports whether the source's printed times are too coarse for
// Duration's precision (whole seconds or coarser), so that some spans
// are marked "~".
func (s Spans) Coarse() bool { return s.Resolution >= time.Second }

// Rebuilt reports whether some spans were rebuilt from a finer record than
// the printed times (catalyst.History.RebuiltSpans).
func (s Spans) Rebuilt() bool { return s.h != nil && s.h.RebuiltSpans() }

// Span measures the span from one of the history's instants to another.
func (s Spans) Span(from, to catalyst.Stamp) catalyst.Span {
	if from.OutOfRange() || to.OutOfRange() {
		return catalyst.Span{OutOfRange: true}
	}
	if s.h != nil {
		return s.h.Span(from, to)
	}
	d := to.Sub(from)
	if s.Resolution <= 0 {
		return catalyst.Span{D: d}
	}
	return catalyst.Span{D: d, Err: s.Resolution, Step: s.Resolution}
}

// Between shows the span from one of the history's instants to another:
// Show(Span(from, to)).
func (s Spans) Between(from, to catalyst.Stamp) string { return s.Show(s.Span(from, to)) }

// BetweenTimes is Between for times (a run's CreatedAt and UpdatedAt).
func (s Spans) BetweenTimes(from, to time.Time) string {
	return s.Between(catalyst.StampOf(from), catalyst.StampOf(to))
}

// Show shows a measured span: Duration(D) when exact; to the digit its
// error allows when rebuilt ("748.0ms", "0.75s"); "~30s", "~-3s",
// "~2.5m", or "<1s" for a span under the step, when known only between
// printed times.
func (s Spans) Show(sp catalyst.Span) string { return string(s.AppendShow(nil, sp)) }

// AppendShow appends Show(sp) to buf.
func (s Spans) AppendShow(buf []byte, sp catalyst.Span) []byte {
	switch {
	case sp.OutOfRange:
		return append(buf, OutOfRangeText...)
	case sp.Exact():
		return AppendDuration(buf, sp.D)
	case sp.Rebuilt():
		return appendWithin(buf, sp.D, sp.Err)
	}
	d, step := sp.D, sp.Step
	if d > -step && d < step {
		// Both stamps in one step: the span is under it, in either order.
		return appendUnder(buf, step)
	}
	buf = append(buf, '~')
	return appendWhole(buf, d, step)
}

// OffsetOf shows a measured span as a signed offset from a reference
// instant: Offset(D) when exact; "+748.0ms" when rebuilt; "~+30s",
// "~-3s", or "+<1s" within one step of the reference when known only
// between printed times.
func (s Spans) OffsetOf(sp catalyst.Span) string {
	switch {
	case sp.OutOfRange:
		return OutOfRangeText
	case sp.Exact():
		return Offset(sp.D)
	case sp.Rebuilt():
		if sp.D < 0 {
			return string(appendWithin(nil, sp.D, sp.Err))
		}
		return string(appendWithin([]byte{'+'}, sp.D, sp.Err))
	}
	d, step := sp.D, sp.Step
	if d > -step && d < step {
		return string(appendUnder([]byte{'+'}, step))
	}
	buf := []byte{'~'}
	if d > 0 {
		buf = append(buf, '+')
	}
	return string(appendWhole(buf, d, step))
}

// Offset shows the span from the reference instant base to s as a signed
// offset: OffsetOf(Span(base, s)).
func (s Spans) Offset(base, at catalyst.Stamp) string { return s.OffsetOf(s.Span(base, at)) }

// finest is the shortest span the history's times can tell apart: the
// resolution of its printed times, or nothing where some were rebuilt.
func (s Spans) finest() time.Duration {
	if s.Rebuilt() {
		return 0
	}
	return s.Resolution
}

// axisOffset shows d, an instant's offset on a time axis drawn from the
// history's times, as an offset: exactly where they are exact; where some
// were rebuilt (the axis places them where the decoder put them), no finer
// than the largest error of a rebuilt span; as between printed times where
// none were.
func (s Spans) axisOffset(d time.Duration) string {
	switch {
	case s.Rebuilt():
		return s.OffsetOf(catalyst.Span{D: d, Err: s.h.RebuiltErr()})
	case s.Coarse():
		return s.OffsetOf(catalyst.Span{D: d, Err: s.Resolution, Step: s.Resolution})
	}
	return Offset(d)
}

// Printed is a time of the history as its source printed it
// (catalyst.History.Printed): a rebuilt time is shown to its printed
// second, never finer than the source knew the instant.
func (s Spans) Printed(t time.Time) time.Time {
	if s.h == nil {
		return t
	}
	return s.h.PrintedTime(t)
}

// Legend is the one line said where spans of a coarse source are shown,
// or "" for exact stamps.
func (s Spans) Legend() string {
	if !s.Coarse() {
		return ""
	}
	if s.Rebuilt() {
		return "times in this source are whole seconds; spans are rebuilt from its elapsed column, to the digit shown, " +
			"except those marked ~: ±1s (~30s is 29–31s; <1s is under a second)"
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

// withinLevel is the i-th way appendWithin writes a span under a minute,
// finest first (0 to withinLevels-1): a unit and a number of decimals,
// whose last digit is the level's quantum.
func withinLevel(i int) (unit time.Duration, suffix string, decimals int) {
	switch i {
	case 0:
		return time.Nanosecond, "ns", 0
	case 1:
		return time.Microsecond, "µs", 1
	case 2:
		return time.Microsecond, "µs", 0
	case 3:
		return time.Millisecond, "ms", 2
	case 4:
		return time.Millisecond, "ms", 1
	case 5:
		return time.Millisecond, "ms", 0
	case 6:
		return time.Second, "s", 2
	}
	return time.Second, "s", 1
}

// withinLevels is how many levels withinLevel has.
const withinLevels = 8

// appendWithin writes d, known to within err, in Duration's units but with
// no digit finer than err: it starts where Duration would ("748.0ms",
// "2.06s") and drops digits, moving to a larger unit when none is left,
// until the last digit's unit is at least err ("748ms" within a
// millisecond, "0.75s" within 10 ms). A minute and over, Duration's one
// decimal of a minute is coarser than any rebuilt span's error
// (catalyst.History.Span keeps them under a tenth of a second).
func appendWithin(buf []byte, d, err time.Duration) []byte {
	a := d
	if a < 0 {
		a = -a
	}
	var i int
	switch {
	case a >= time.Minute:
		return AppendDuration(buf, d)
	case a == 0 && err <= time.Nanosecond:
		return append(buf, "0s"...)
	case a < time.Microsecond:
		i = 0
	case a < time.Millisecond:
		i = 1
	case a < time.Second:
		i = 4
	default:
		i = 6
	}
	// The finest level from i whose last digit is at least err (the
	// last level always is: a rebuilt span's error is under 100 ms).
	for ; i < withinLevels-1; i++ {
		unit, _, decimals := withinLevel(i)
		for range decimals {
			unit /= 10
		}
		if unit >= err {
			break
		}
	}
	unit, suffix, decimals := withinLevel(i)
	if d < 0 {
		buf = append(buf, '-')
	}
	if unit == time.Nanosecond {
		buf = strconv.AppendInt(buf, int64(a), 10)
	} else {
		buf = strconv.AppendFloat(buf, float64(a)/float64(unit), 'f', decimals, 64)
	}
	return append(buf, suffix...)
}

// OutOfRangeNote says which of a history's timestamps twice cannot hold
// (before 1678, after 2261), each as given: `event 3's timestamp
// "1500-01-01T00:00:00Z", the run's lastUpdatedAt "3000-01-01T00:00:00Z":
// outside 1678 to 2261, which twice holds; spans to them are out of
// range`. "" when there are none. The texts are untrusted (sanitize).
func OutOfRangeNote(h *catalyst.History) string {
	notes := h.OutOfRange()
	if len(notes) == 0 {
		return ""
	}
	var b []byte
	for i, n := range notes {
		if i == 5 {
			b = append(b, ", and "...)
			b = strconv.AppendInt(b, int64(len(notes)-5), 10)
			b = append(b, " more"...)
			break
		}
		if i > 0 {
			b = append(b, ", "...)
		}
		if n.Event < 0 {
			b = append(b, "the run's "...)
		} else {
			b = append(b, "event "...)
			b = strconv.AppendInt(b, int64(n.Event), 10)
			b = append(b, "'s "...)
		}
		b = append(b, n.Field...)
		b = append(b, ' ')
		b = strconv.AppendQuote(b, n.Text)
	}
	return string(b) + ": outside 1678 to 2261, which twice holds; spans to them are " + OutOfRangeText
}
