package langs

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/twice-cli/twice/detect/review"
	"github.com/twice-cli/twice/detect/review/csharp"
	"github.com/twice-cli/twice/detect/review/python"
)

// TestUnreviewedLanguagesAreNamed reviews a tree of Go, Python and C#:
// every language this build cannot parse (Python and C# without cgo) is
// counted and named with why, never silently dropped; the others are
// reviewed.
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
	for _, l := range []struct {
		lang      review.Lang
		available func() (bool, string)
	}{{review.LangPython, python.Available}, {review.LangCSharp, csharp.Available}} {
		ok, why := l.available()
		switch {
		case ok && rep.Files[l.lang] != 1:
			t.Errorf("%s files reviewed: %d, want 1", l.lang, rep.Files[l.lang])
		case ok && rep.Unavailable[l.lang] != "":
			t.Errorf("%s is parsed by this build, yet reported as not reviewed: %q", l.lang, rep.Unavailable[l.lang])
		case !ok && !strings.Contains(rep.Unavailable[l.lang], "1 "+l.lang.Title()+" file(s) not reviewed"):
			t.Errorf("a build without cgo must count the %s file it did not review; got %q", l.lang, rep.Unavailable[l.lang])
		case !ok && !strings.Contains(rep.Unavailable[l.lang], why):
			t.Errorf("a build without cgo must say why %s was not reviewed; got %q", l.lang, rep.Unavailable[l.lang])
		case !ok && !strings.Contains(why, "cgo"):
			t.Errorf("the reason %q does not name cgo", why)
		}
	}
}

// TestEveryLanguageIsWired: every language of review.Langs has its name,
// its files' extension (which LangOfFile reads back), and either a
// front-end in Options or the reason this build cannot parse it; and
// every front-end reads a language of the list.
func TestEveryLanguageIsWired(t *testing.T) {
	opts := Options()
	fronts := map[review.Lang]review.Frontend{}
	for _, fe := range opts.Frontends {
		if !slices.Contains(review.Langs(), fe.Lang()) {
			t.Errorf("front-end of %q: the language is not in review.Langs (detect/review/ir.go)", fe.Lang())
		}
		fronts[fe.Lang()] = fe
	}
	for _, l := range review.Langs() {
		if l.Title() == string(l) || l.Title() == "" {
			t.Errorf("%q has no name as people write it", l)
		}
		if l.Ext() == "" || review.LangOfFile("x"+l.Ext()) != l {
			t.Errorf("%q: extension %q does not read back as the language", l, l.Ext())
		}
		fe, ok := fronts[l]
		if _, why := opts.Unavailable[l]; !ok && !why {
			t.Errorf("%q has neither a front-end in langs.Options nor a reason it is unavailable", l)
		}
		if ok && !fe.Match("x"+l.Ext()) {
			t.Errorf("%q: its front-end does not match its own extension %q", l, l.Ext())
		}
	}
}
