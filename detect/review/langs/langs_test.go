package langs

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/twice-cli/twice/detect/review"
	"github.com/twice-cli/twice/detect/review/python"
)

// TestUnreviewedLanguagesAreNamed reviews a tree of Go, Python and C#:
// every language this build cannot parse is counted and named with why,
// never silently dropped; the others are reviewed.
func TestUnreviewedLanguagesAreNamed(t *testing.T) {
	dir := t.TempDir()
	for name, src := range map[string]string{
		"a.go":  "package main\n",
		"b.py":  "x = 1\n",
		"c.cs":  "class C {}\n",
		"d.txt": "not source\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	rep, err := review.Review(context.Background(), []string{dir}, Options())
	if err != nil {
		t.Fatal(err)
	}
	if rep.Files[review.LangGo] != 1 {
		t.Errorf("Go files reviewed: %d, want 1", rep.Files[review.LangGo])
	}
	if !strings.Contains(rep.Unavailable[review.LangCSharp], "1 csharp file(s) not reviewed") {
		t.Errorf("C#: %q", rep.Unavailable[review.LangCSharp])
	}
	ok, why := python.Available()
	switch {
	case ok && rep.Files[review.LangPython] != 1:
		t.Errorf("Python files reviewed: %d, want 1", rep.Files[review.LangPython])
	case !ok && !strings.Contains(rep.Unavailable[review.LangPython], why):
		t.Errorf("a build without cgo must say why Python was not reviewed; got %q", rep.Unavailable[review.LangPython])
	case !ok && !strings.Contains(why, "cgo"):
		t.Errorf("the reason %q does not name cgo", why)
	}
}
