package detect

import "time"

// Fact is one line of evidence: its words, and the one measure it may
// state (a span of time between two of the history's stamps, a size) kept
// as a value, with its place in the words. detect states facts; one
// presenter (tui/format.Fact) words every measure, so a span reads the same
// in a finding's evidence as everywhere else twice shows one ("30.52s",
// "~30s", "<1s"). The zero Fact has no words.
//
// A Fact is comparable: two facts are the same when their words and
// measure are.
type Fact struct {
	// Text is the words, safe for one line. A measure's words go at byte
	// At of Text.
	Text string
	// Value is the measure: a span in nanoseconds (MeasureSpan) or a size
	// in bytes (MeasureSize).
	Value int64
	// Resolution is, for a span, the step of the stamps it was measured
	// between (catalyst.Traits.TimeResolution): the span is known only to
	// within it either way. 0: exact.
	Resolution time.Duration
	At         int32
	// Kind says what the measure is; MeasureNone for a fact of words only.
	Kind MeasureKind
}

// MeasureKind says what a fact's measure is.
type MeasureKind int8

// Measures a fact states.
const (
	// MeasureNone: the fact is words only.
	MeasureNone MeasureKind = iota
	// MeasureSpan: a duration between two of the history's stamps.
	MeasureSpan
	// MeasureSize: a payload's size in bytes.
	MeasureSize
)

// Words returns a fact of words only.
func Words(text string) Fact { return Fact{Text: text} }

// Span returns the span the fact states and the resolution it is known
// to; ok is false when it states none.
func (f Fact) Span() (d, resolution time.Duration, ok bool) {
	if f.Kind != MeasureSpan {
		return 0, 0, false
	}
	return time.Duration(f.Value), f.Resolution, true
}

// Size returns the size in bytes the fact states; ok is false when it
// states none.
func (f Fact) Size() (bytes int64, ok bool) {
	if f.Kind != MeasureSize {
		return 0, false
	}
	return f.Value, true
}

// Parts returns the words before and after the fact's measure (all of
// them before, when it states none).
func (f Fact) Parts() (before, after string) {
	if f.Kind == MeasureNone || f.At < 0 || int(f.At) > len(f.Text) {
		return f.Text, ""
	}
	return f.Text[:f.At], f.Text[f.At:]
}
