package report

import (
	"time"
	"unicode/utf8"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/safetext"
	"github.com/twice-cli/twice/tui/format"
)

// TimeFormat chooses how text and Markdown output print instants.
type TimeFormat int

// Time formats. JSON always writes RFC 3339 with nanoseconds, in UTC.
const (
	// TimeISO prints RFC 3339 in UTC with milliseconds (the default when
	// piped: stable and sortable).
	TimeISO TimeFormat = iota
	// TimeRelative prints how long ago ("2.1h ago"), the default on a
	// terminal.
	TimeRelative
)

// ParseTimeFormat parses "iso" or "relative".
func ParseTimeFormat(s string) (TimeFormat, bool) {
	switch s {
	case "iso":
		return TimeISO, true
	case "relative":
		return TimeRelative, true
	}
	return TimeISO, false
}

// String returns "iso" or "relative".
func (f TimeFormat) String() string {
	if f == TimeRelative {
		return "relative"
	}
	return "iso"
}

// payloadTrim is how many characters of a payload the one-line views show,
// as the Dapr CLI does.
const payloadTrim = 120

// isoMillis is the text output's ISO layout.
const isoMillis = "2006-01-02T15:04:05.000Z07:00"

// formatInstant prints t in the chosen format; "-" when absent.
func formatInstant(t time.Time, f TimeFormat, now time.Time) string {
	if t.IsZero() {
		return "-"
	}
	if f == TimeRelative {
		return relative(now.Sub(t))
	}
	return t.UTC().Format(isoMillis)
}

// formatStamp is formatInstant for a Stamp; a timer that never fires prints
// "never".
func formatStamp(s catalyst.Stamp, f TimeFormat, now time.Time) string {
	if s.IsNever() {
		return "never"
	}
	return formatInstant(s.Time(), f, now)
}

// relative says how long ago an instant was ("2.1h ago", "in 5.0m").
func relative(d time.Duration) string {
	if d < 0 {
		return "in " + humanize(-d)
	}
	if d < time.Second {
		return "just now"
	}
	return humanize(d) + " ago"
}

// humanize prints a duration in the Dapr CLI's units (ns, µs, ms, s, m,
// h), as the interactive view does; a negative duration keeps its sign.
func humanize(d time.Duration) string { return format.Duration(d) }

// line sanitizes history text for a single-line field; "-" when empty.
func line(s string) string {
	if s == "" {
		return "-"
	}
	return safetext.Line(s)
}

// trimmed sanitizes s for one line and cuts it to n characters plus "…".
func trimmed(s string, n int) string {
	s = safetext.Line(s)
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i, count := 0, 0
	for i = range s {
		if count == n {
			break
		}
		count++
	}
	return s[:i] + "…"
}

// payloadLine describes a payload on one line: its text, sanitized and cut
// to payloadTrim characters, or the words for why there is none (withheld
// names the data-sharing level; it is never shown as empty).
func payloadLine(p catalyst.Payload, d catalyst.DataSharing) string {
	if p.Has() {
		return trimmed(p.Text(), payloadTrim)
	}
	// The words embed the reported level, which is source text too.
	return safetext.Line(d.PayloadText(p))
}

// width is the display width of sanitized text.
func width(s string) int { return format.Width(s) }

// fit cuts sanitized text to at most w columns, ending in "…" when cut.
func fit(s string, w int) string { return format.Fit(s, w) }

// pad appends s and spaces up to w columns.
func pad(buf []byte, s string, w int) []byte {
	buf = append(buf, s...)
	for n := width(s); n < w; n++ {
		buf = append(buf, ' ')
	}
	return buf
}

// plural returns "1 event" or "1,000 events".
func plural(n int, word string) string { return format.Plural(n, word) }
