package format

import (
	"strconv"
	"strings"

	"github.com/twice-cli/twice/catalyst/safetext"
	"github.com/twice-cli/twice/detect"
)

// Fact words one line of a finding's evidence: detect's words, with the
// measure the fact states said as twice says it everywhere: a span as
// Spans does for its resolution ("30.52s", "~30s", "<1s"), a size as Bytes
// ("96 KiB"). detect's words are already safe for one line.
func Fact(f detect.Fact) string {
	if f.Kind == detect.MeasureNone {
		return f.Text
	}
	return string(AppendFact(nil, f))
}

// Facts words one side of a change between two runs: its facts as Fact
// words them, joined by commas, and "none" when there are none.
func Facts(fs []detect.Fact) string {
	if len(fs) == 0 {
		return "none"
	}
	parts := make([]string, len(fs))
	for i, f := range fs {
		parts[i] = Fact(f)
	}
	return strings.Join(parts, ", ")
}

// AppendFact appends Fact(f) to b.
func AppendFact(b []byte, f detect.Fact) []byte {
	before, after := f.Parts()
	b = append(b, before...)
	b = appendMeasure(b, f)
	return append(b, after...)
}

// AppendFactJSON appends Fact(f) as a JSON string literal, escaped as
// safetext.AppendJSON escapes it, without building the string: escaping is
// rune by rune, and a measure's words (digits, units, "~", "<", "µ") need
// none.
func AppendFactJSON(b []byte, f detect.Fact) []byte {
	before, after := f.Parts()
	b = safetext.AppendJSON(b, before)
	if f.Kind == detect.MeasureNone {
		return b
	}
	b = appendMeasure(b[:len(b)-1], f) // within the literal: its closing quote goes
	n := len(b)
	b = safetext.AppendJSON(b, after)
	return append(b[:n], b[n+1:]...) // and so does the second literal's opening one
}

// appendMeasure words the measure f states, if any.
func appendMeasure(b []byte, f detect.Fact) []byte {
	if sp, ok := f.Span(); ok {
		return Spans{}.AppendShow(b, sp)
	}
	if n, ok := f.Size(); ok {
		return AppendBytes(b, n)
	}
	return b
}

// Bytes says a size: "512 B", "96 KiB" (whole KiB, rounded down), "3.2 MiB".
func Bytes(n int64) string { return string(AppendBytes(nil, n)) }

// AppendBytes appends Bytes(n) to b.
func AppendBytes(b []byte, n int64) []byte {
	switch {
	case n < 1<<10:
		return append(strconv.AppendInt(b, n, 10), " B"...)
	case n < 1<<20:
		return append(strconv.AppendInt(b, n>>10, 10), " KiB"...)
	}
	return append(strconv.AppendFloat(b, float64(n)/(1<<20), 'f', 1, 64), " MiB"...)
}
