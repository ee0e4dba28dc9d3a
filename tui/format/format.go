// Package format is where twice turns model values into words and cells,
// for every screen and document it writes: durations in the Dapr CLI's
// units, instants in the chosen time format, the cut of long text, width-
// aware fitting and wrapping, payloads, an event's DETAILS cell and its
// JSON, the glyph-and-word marks of severities, statuses and outcomes, and
// the tones and alert levels those marks are coloured by.
//
// The interactive view (tui/...) and the command line's text, Markdown and
// JSON (cmd/twice/internal/report) both use it, so a time, a cut or a mark
// reads the same everywhere. It holds no styling: it imports neither Bubble
// Tea nor lipgloss (the view's styles map its tones and alerts to colours),
// so the command line's writers do not link the view's styling.
//
// Every function that takes history text sanitizes it (safetext) before it
// measures or cuts it; functions that take already-safe text say so.
package format

import (
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// Duration shows d in the Dapr CLI's units (ns, µs, ms, s, m, h), so that
// durations read as they do in `dapr workflow history`, and in days from 48
// hours on (the CLI has no day unit; ages of saved runs need one). Negative
// durations keep their sign.
func Duration(d time.Duration) string {
	return string(AppendDuration(nil, d))
}

// AppendDuration appends Duration(d) to buf.
func AppendDuration(buf []byte, d time.Duration) []byte {
	if d < 0 {
		buf = append(buf, '-')
		d = -d
	}
	switch {
	case d == 0:
		return append(buf, "0s"...)
	case d < time.Microsecond:
		buf = strconv.AppendInt(buf, int64(d), 10)
		return append(buf, "ns"...)
	case d < time.Millisecond:
		buf = strconv.AppendFloat(buf, float64(d)/float64(time.Microsecond), 'f', 1, 64)
		return append(buf, "µs"...)
	case d < time.Second:
		buf = strconv.AppendFloat(buf, float64(d)/float64(time.Millisecond), 'f', 1, 64)
		return append(buf, "ms"...)
	case d < time.Minute:
		buf = strconv.AppendFloat(buf, d.Seconds(), 'f', 2, 64)
		return append(buf, 's')
	case d < time.Hour:
		buf = strconv.AppendFloat(buf, d.Minutes(), 'f', 1, 64)
		return append(buf, 'm')
	case d < 48*time.Hour:
		buf = strconv.AppendFloat(buf, d.Hours(), 'f', 1, 64)
		return append(buf, 'h')
	}
	// Ages of saved runs: "691.5h" is harder to read than "28.8d".
	buf = strconv.AppendFloat(buf, d.Hours()/24, 'f', 1, 64)
	return append(buf, 'd')
}

// Width returns the display width of safe text (escape sequences, which only
// styling adds, count as zero).
func Width(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf || s[i] == 0x1b {
			return ansi.StringWidth(s)
		}
	}
	return len(s)
}

// Fit cuts safe text to at most w columns, ending in "…" when it was cut.
// It never splits an escape sequence or a wide character.
func Fit(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if long := 8*w + 256; len(s) > long && strings.IndexByte(s, 0x1b) < 0 {
		// Measuring a megabyte-long name on every frame costs most of a
		// second; no character is wider than two columns, so a plain
		// string's first 8w bytes hold more than w columns. (Styled text
		// is left whole: a cut would drop its closing sequence.)
		for !utf8.RuneStart(s[long]) {
			long--
		}
		s = s[:long]
		if Width(s) <= w {
			// Only zero-width characters could make it fit: it was cut.
			return ansi.Truncate(s, w-1, "") + "…"
		}
	}
	if Width(s) <= w {
		return s
	}
	return ansi.Truncate(s, w, "…")
}

// Pad fits safe text to exactly w columns, padding with spaces on the right.
func Pad(s string, w int) string {
	s = Fit(s, w)
	if n := w - Width(s); n > 0 {
		return s + strings.Repeat(" ", n)
	}
	return s
}

// PadLeft fits safe text to exactly w columns, aligned right.
func PadLeft(s string, w int) string {
	s = Fit(s, w)
	if n := w - Width(s); n > 0 {
		return strings.Repeat(" ", n) + s
	}
	return s
}

// Wrap breaks one line of safe text into lines of at most w columns, at
// spaces (a hyphenated id stays whole); a word wider than a line is broken
// where it must be; a link is moved to a line of its own, and broken only
// when wider than that (WrapHanging).
func Wrap(s string, w int) []string {
	if w <= 0 {
		return nil
	}
	if Width(s) <= w {
		return []string{s}
	}
	return WrapHanging(s, w, w)
}

// WrapHanging breaks safe text into lines of at most first columns (the
// first line) and rest columns (the others), at spaces. A word wider than
// its line is broken where it must be; a link (http:// or https://) that
// fits on a line is never split: it moves to a line of its own. A link
// wider than a line gets lines of its own, broken only at the width and
// never cut, so it can be read whole.
func WrapHanging(s string, first, rest int) []string {
	if strings.IndexByte(s, 0x1b) >= 0 && strings.Contains(s, " ") {
		// Styled prose (a label and its value): ansi.Wrap keeps each
		// line's styling whole.
		// A path wider than a line breaks after a slash, so its file:line
		// stays whole.
		lines := strings.Split(ansi.Wrap(s, max(min(first, rest), 1), "/"), "\n")
		for i, l := range lines {
			lines[i] = Fit(l, max(min(first, rest), 1)) // a wide character cannot be split: never overflow
		}
		return lines
	}
	var out []string
	var cur strings.Builder
	curW := 0
	room := func() int {
		if len(out) == 0 {
			return max(first, 1)
		}
		return max(rest, 1)
	}
	flush := func() {
		out = append(out, cur.String())
		cur.Reset()
		curW = 0
	}
	for _, word := range strings.Split(s, " ") {
		w := Width(word)
		switch {
		case curW > 0 && curW+1+w <= room():
			cur.WriteByte(' ')
			cur.WriteString(word)
			curW += 1 + w
			continue
		case curW == 0 && w <= room():
			cur.WriteString(word)
			curW = w
			continue
		}
		if curW > 0 {
			flush()
		}
		if w <= room() {
			cur.WriteString(word)
			curW = w
			continue
		}
		if isLink(word) {
			// Wider than a line: whole, on lines of its own, broken only
			// at the width (a cut link could not be read anywhere).
			for _, part := range strings.Split(ansi.Hardwrap(word, room(), true), "\n") {
				out = append(out, Fit(part, room()))
			}
			continue
		}
		// A word wider than a line: broken where it must be (a wide
		// character is never split); a path after its slashes, so that
		// its last part (file:line:col) is never broken.
		parts := strings.Split(ansi.Hardwrap(word, room(), true), "\n")
		if strings.Contains(word, "/") {
			parts = breakAfterSlashes(word, room())
		}
		for i, part := range parts {
			part = Fit(part, room())
			if i == len(parts)-1 && Width(part) < room() {
				// The last part begins a line the next words may join.
				cur.WriteString(part)
				curW = Width(part)
				break
			}
			out = append(out, part)
		}
	}
	if curW > 0 || len(out) == 0 {
		flush()
	}
	return out
}

// breakAfterSlashes breaks a path wider than w into lines of at most w
// columns, each ending after a slash where it can: a part wider than a
// line alone (a long file name) is broken at the width.
func breakAfterSlashes(word string, w int) []string {
	var out []string
	cur := ""
	for _, seg := range strings.SplitAfter(word, "/") {
		if cur != "" && Width(cur)+Width(seg) > w {
			out = append(out, cur)
			cur = ""
		}
		if Width(seg) > w {
			parts := strings.Split(ansi.Hardwrap(seg, w, true), "\n")
			out = append(out, parts[:len(parts)-1]...)
			seg = parts[len(parts)-1]
		}
		cur += seg
	}
	return append(out, cur)
}

// isLink reports whether a word (possibly styled) is a web link.
func isLink(word string) bool {
	return strings.Contains(word, "https://") || strings.Contains(word, "http://")
}

// ExpandTabs replaces tabs with spaces up to the next multiple of four
// columns, so that widths are exact.
func ExpandTabs(s string) string {
	if !strings.ContainsRune(s, '\t') {
		return s
	}
	var b strings.Builder
	col := 0
	for _, r := range s {
		switch r {
		case '\t':
			n := 4 - col%4
			b.WriteString("    "[:n])
			col += n
		case '\n':
			b.WriteRune(r)
			col = 0
		default:
			b.WriteRune(r)
			col++
		}
	}
	return b.String()
}

// Plural returns "1 event" or "1,000 events".
func Plural(n int, word string) string {
	s := Count(n) + " " + word
	if n != 1 {
		s += "s"
	}
	return s
}

// Count formats n with thousands separators ("1,000,000").
func Count(n int) string {
	s := strconv.Itoa(n)
	if n < 0 || len(s) <= 3 {
		return s
	}
	var b strings.Builder
	lead := len(s) % 3
	if lead > 0 {
		b.WriteString(s[:lead])
	}
	for i := lead; i < len(s); i += 3 {
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(s[i : i+3])
	}
	return b.String()
}

// TruncateLeft drops n columns from the left of safe text, marking the cut
// with "…".
func TruncateLeft(s string, n int) string {
	if n <= 0 {
		return s
	}
	return ansi.TruncateLeft(s, n, "…")
}

// LineShowBytes caps how much of one single-line value (a name, an id, an
// error type) the detail pane lays out; the rest is counted, not wrapped.
const LineShowBytes = 4 << 10

// CapLine cuts safe single-line text to at most LineShowBytes, at a
// character boundary, saying how much was left out. A megabyte-long name
// would otherwise be wrapped into thousands of lines on every key press.
func CapLine(s string) string { return CapTail(s, LineShowBytes) }

// CapTail cuts a line of safe text to about n bytes, at a character
// boundary, saying how much was left out — when its styling (escape
// sequences) all lies within the first n bytes, so that no closing sequence
// is cut off. Other lines are returned whole.
func CapTail(s string, n int) string {
	if len(s) <= n || strings.LastIndexByte(s, 0x1b) >= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + " … " + ShownOf(cut, len(s))
}

// ShownOf says how much of a cut text is shown: "shown 16,384 of 70,000
// bytes".
func ShownOf(shown, total int) string {
	return "shown " + Count(shown) + " of " + Count(total) + " bytes"
}
