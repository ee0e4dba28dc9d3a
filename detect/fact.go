package detect

import (
	"time"

	"github.com/twice-cli/twice/catalyst"
)

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
	// Resolution is, for a span measured between printed stamps, their
	// step (catalyst.Traits.TimeResolution): the span is known only to
	// within it either way. 0: exact, or rebuilt (Err).
	Resolution time.Duration
	// Err is, for a span, how far it may be off either way
	// (catalyst.Span.Err): 0 when exact, Resolution when measured between
	// printed stamps, less for one the decoder rebuilt from the Dapr
	// CLI's elapsed column.
	Err time.Duration
	At  int32
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

// Span returns the span the fact states and how well it is known; ok is
// false when it states none.
func (f Fact) Span() (sp catalyst.Span, ok bool) {
	if f.Kind != MeasureSpan {
		return catalyst.Span{}, false
	}
	sp = catalyst.Span{D: time.Duration(f.Value), Err: f.Err, Step: f.Resolution}
	if sp.Step > 0 {
		// Measured between printed stamps: known to their step.
		sp.Err = max(sp.Err, sp.Step)
	}
	return sp, true
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
