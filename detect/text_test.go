package detect

import (
	"testing"
	"time"
)

func TestFmtDuration(t *testing.T) {
	tests := []struct {
		d    time.Duration
		want string
	}{
		{350 * time.Millisecond, "350 ms"},
		{999*time.Millisecond + 600*time.Microsecond, "1.0 s"},
		{30 * time.Second, "30.0 s"},
		{59*time.Second + 970*time.Millisecond, "1.0 min"},
		{150 * time.Second, "2.5 min"},
		{time.Hour - 2*time.Millisecond, "1.0 h"},
		{3 * time.Hour, "3.0 h"},
		{-2 * time.Second, "-2.0 s"},
	}
	for _, tt := range tests {
		if got := fmtDuration(tt.d); got != tt.want {
			t.Errorf("fmtDuration(%v) = %q, want %q", tt.d, got, tt.want)
		}
	}
}

func TestFmtBytesAndClip(t *testing.T) {
	if got := fmtBytes(100 << 10); got != "100 KiB" {
		t.Errorf("fmtBytes = %q", got)
	}
	if got := fmtBytes(3<<20 + 512<<10); got != "3.5 MiB" {
		t.Errorf("fmtBytes = %q", got)
	}
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
}
