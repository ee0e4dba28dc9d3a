package detect

import (
	"testing"
	"time"

	"github.com/twice-cli/twice/catalyst"
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

// TestWholeIDs: a copy for a ticket gives back whole the ids the findings'
// wording abbreviates, and only those one id begins with.
func TestWholeIDs(t *testing.T) {
	const a = "8a4f2c71-3b9e-4d05-a6c2-91e07f5d3b18"
	const b = "8a4f2c71-ffff-4d05-a6c2-91e07f5d3b18" // shares a's abbreviation
	const c = "c7d1e2f3-4a5b-4c6d-8e7f-0a1b2c3d4e5f"
	var l line
	advice := l.str("key the charge on task_execution_id ").id(a).str(" — stable; the first call's was ").id(c).str(".").done()
	for _, tc := range []struct {
		name string
		text string
		ids  []string
		want string
	}{
		{"both whole", advice, []string{a, c, "short"}, "key the charge on task_execution_id " + a + " — stable; the first call's was " + c + "."},
		{"ambiguous stays cut", advice, []string{a, b, c}, "key the charge on task_execution_id 8a4f2c71… — stable; the first call's was " + c + "."},
		{"unknown stays cut", advice, []string{c}, "key the charge on task_execution_id 8a4f2c71… — stable; the first call's was " + c + "."},
		{"no ellipsis", "nothing cut", []string{a}, "nothing cut"},
		{"part of a longer word", "x8a4f2c71… and …", []string{a}, "x8a4f2c71… and …"},
		{"at the start", "8a4f2c71… first", []string{a}, a + " first"},
		{"multibyte before", "é8a4f2c71…", []string{a}, "é" + a},
	} {
		if got := WholeIDs(tc.text, tc.ids); got != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, tc.want)
		}
	}
	// A fact keeps its measure where it was, between its words.
	g := l.str("attempt 2 of ").id(a).str(" ran ").spanOf(catalyst.Span{D: 2 * time.Second}).str(" after ").id(c).fact()
	w := g.WholeIDs([]string{a, c})
	if before, after := w.Parts(); before != "attempt 2 of "+a+" ran " || after != " after "+c {
		t.Errorf("fact parts %q | %q", before, after)
	}
	if sp, ok := w.Span(); !ok || sp.D != 2*time.Second {
		t.Errorf("the measure was lost: %+v", w)
	}
}

// TestLineKeepsItsMeasure: a fact's span or size is a value at its place
// in the words, with how well the history knows the span (its resolution,
// or the error of one rebuilt from the Dapr CLI's elapsed column); text
// with no measure is words only; a second measure in one line, which no
// check writes, is not lost.
func TestLineKeepsItsMeasure(t *testing.T) {
	var l line
	whole := func(d time.Duration) catalyst.Span { return catalyst.Span{D: d, Err: time.Second, Step: time.Second} }
	f := l.str("attempt 1 failed after ").spanOf(whole(30 * time.Second)).str(": timeout").fact()
	if before, after := f.Parts(); before != "attempt 1 failed after " || after != ": timeout" {
		t.Errorf("parts %q, %q", before, after)
	}
	if sp, ok := f.Span(); !ok || sp != whole(30*time.Second) {
		t.Errorf("span %+v (%v)", sp, ok)
	}
	rebuilt := catalyst.Span{D: 748 * time.Millisecond, Err: 50 * time.Microsecond}
	if sp, ok := l.str("failed after ").spanOf(rebuilt).fact().Span(); !ok || sp != rebuilt {
		t.Errorf("a rebuilt span %+v (%v), want %+v", sp, ok, rebuilt)
	}
	if g := l.str("input is ").size(96 << 10).fact(); g.Kind != MeasureSize || g.Value != 96<<10 || g.Resolution != 0 {
		t.Errorf("size fact %+v", g)
	}
	if g := l.str("words only").fact(); g != Words("words only") {
		t.Errorf("a fact of words is %+v", g)
	}
	if g := l.str("a ").spanOf(whole(time.Second)).str(" then ").spanOf(whole(2 * time.Second)).fact(); factText(g) != "a {1s} then 2s" {
		t.Errorf("a second measure: %q", factText(g))
	}
	if s := l.str("advice ").spanOf(whole(time.Second)).done(); s != "advice " {
		t.Errorf("done = %q", s)
	}
	if g := l.str("next").fact(); g != Words("next") {
		t.Errorf("done left a measure behind: %+v", g)
	}
}
