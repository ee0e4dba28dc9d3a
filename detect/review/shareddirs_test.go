package review

import "testing"

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
