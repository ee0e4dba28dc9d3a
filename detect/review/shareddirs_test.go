package review

import (
	"strings"
	"testing"
)

// TestSharedDirs: the leading folders two slash paths share, file names
// not counted, and no allocation (it runs for every call site against
// every activity of the name it calls).
func TestSharedDirs(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"a.py", "a.py", 0},
		{"x/a.py", "x/b.py", 1},
		{"x/y/a.py", "x/y/a.py", 2},
		{"x/y/a.py", "x/z/a.py", 1},
		{"x/y", "x/y/a.py", 1},
		{"x/a.py", "y/a.py", 0},
		{"/r/x/a.py", "/r/x/b.py", 3},
		{"x//a.py", "x//b.py", 2},
		{"", "", 0},
	} {
		if got := sharedDirs(tc.a, tc.b); got != tc.want {
			t.Errorf("sharedDirs(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
	if n := testing.AllocsPerRun(100, func() { sharedDirs("copy1/svc/a.py", "copy2/svc/b.py") }); n != 0 {
		t.Errorf("sharedDirs allocates %v times", n)
	}
}

// TestEndsWithPart is strings.HasSuffix(s, sep+part) without building
// the string.
func TestEndsWithPart(t *testing.T) {
	for _, tc := range []struct {
		s    string
		sep  byte
		part string
		want bool
	}{
		{"a.b.c", '.', "c", true},
		{"a.b.c", '.', "b.c", true},
		{"a.bc", '.', "c", false},
		{"c", '.', "c", false},
		{".c", '.', "c", true},
		{"x/", '/', "", true},
		{"", '/', "", false},
		{"example.com/shop/billing", '/', "billing", true},
		{"example.com/shop/billing", '/', "shop", false},
	} {
		if got, want := endsWithPart(tc.s, tc.sep, tc.part), strings.HasSuffix(tc.s, string(tc.sep)+tc.part); got != tc.want || got != want {
			t.Errorf("endsWithPart(%q, %q, %q) = %v, want %v", tc.s, tc.sep, tc.part, got, tc.want)
		}
	}
}
