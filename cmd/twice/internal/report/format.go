package report

import (
	"time"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/tui/format"
)

// payloadTrim is how many characters of a payload the one-line views show,
// as the Dapr CLI does.
const payloadTrim = 120

// formatInstant prints t in the chosen format (ISO to the millisecond);
// "-" when absent.
func formatInstant(t time.Time, f format.TimeFormat, now time.Time) string {
	return format.When(t, f, now)
}

// humanize prints a duration in the Dapr CLI's units (ns, µs, ms, s, m,
// h), as the interactive view does; a negative duration keeps its sign.
func humanize(d time.Duration) string { return format.Duration(d) }

// line sanitizes history text for a single-line field; "-" when empty.
func line(s string) string { return format.Line(s) }

// trimmed sanitizes s for one line and cuts it to n characters plus "…".
func trimmed(s string, n int) string { return format.Clip(s, n) }

// payloadCell describes a payload in a header line or a table's cell: as
// payloadLine, but a withheld one says only "withheld" (what that means is
// said once, in the data-sharing line or the table's legend).
func payloadCell(p catalyst.Payload, d catalyst.DataSharing) string {
	return format.PayloadCell(p, d, payloadTrim)
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
