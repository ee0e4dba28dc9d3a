package detect

import (
	"testing"
	"time"
)

func TestClipAndID(t *testing.T) {
	if got := clip("abcdef", 3); got != "abc…" {
		t.Errorf("clip = %q", got)
	}
	if got := clip("a\x1b[2Jb", 10); got != `a\x1b[2Jb` {
		t.Errorf("clip = %q", got)
	}
	var l line
	if got := l.id("8a4f2c71-3b9e-4d05").done(); got != "8a4f2c71…" {
		t.Errorf("id = %q", got)
	}
	if got := l.id("\u202eabc").done(); got != `\u202eabc` {
		t.Errorf("id = %q", got)
	}
}

// TestLineKeepsItsMeasure: a fact's span or size is a value at its place
// in the words, with the history's resolution; text with no measure is
// words only; a second measure in one line, which no check writes, is not
// lost.
func TestLineKeepsItsMeasure(t *testing.T) {
	l := line{res: time.Second}
	f := l.str("attempt 1 failed after ").dur(30 * time.Second).str(": timeout").fact()
	if before, after := f.Parts(); before != "attempt 1 failed after " || after != ": timeout" {
		t.Errorf("parts %q, %q", before, after)
	}
	if d, res, ok := f.Span(); !ok || d != 30*time.Second || res != time.Second {
		t.Errorf("span %v at %v (%v)", d, res, ok)
	}
	if g := l.str("input is ").size(96 << 10).fact(); g.Kind != MeasureSize || g.Value != 96<<10 || g.Resolution != 0 {
		t.Errorf("size fact %+v", g)
	}
	if g := l.str("words only").fact(); g != Words("words only") {
		t.Errorf("a fact of words is %+v", g)
	}
	if g := l.str("a ").dur(time.Second).str(" then ").dur(2 * time.Second).fact(); factText(g) != "a {1s} then 2s" {
		t.Errorf("a second measure: %q", factText(g))
	}
	if s := l.str("advice ").dur(time.Second).done(); s != "advice " {
		t.Errorf("done = %q", s)
	}
	if g := l.str("next").fact(); g != Words("next") {
		t.Errorf("done left a measure behind: %+v", g)
	}
}
