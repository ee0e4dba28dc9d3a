package review_test

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/twice-cli/twice/detect/review"
	"github.com/twice-cli/twice/detect/review/csharp"
	"github.com/twice-cli/twice/detect/review/langs"
	"github.com/twice-cli/twice/detect/review/python"
)

// TestDiscovery reviews each case under testdata/discovery (a small tree
// written the way real services register their activities) and checks
// every line of its want.txt:
//
//	activity NAME PATH [inferred]   reviewed, defined in PATH (relative to the case)
//	workflow NAME PATH [inferred]
//	unresolved NAME REASON          listed as not reviewed, with why
//	none-unresolved                 nothing listed as not reviewed
//
// Each case is reviewed from its own folder and from the package's
// folder above it (a review that starts elsewhere resolves the same).
func TestDiscovery(t *testing.T) {
	pyOK, _ := python.Available()
	csOK, _ := csharp.Available()
	dirs, _ := filepath.Glob("testdata/discovery/*")
	if len(dirs) == 0 {
		t.Fatal("no discovery cases")
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			switch {
			case strings.Contains(dir, "_py_") && !pyOK:
				t.Skip("no Python parser in this build")
			case strings.Contains(dir, "_cs_") && !csOK:
				t.Skip("no C# parser in this build")
			}
			abs, err := filepath.Abs(dir)
			if err != nil {
				t.Fatal(err)
			}
			for _, root := range []string{dir, abs} {
				rep, err := review.Review(context.Background(), []string{root}, langs.Options())
				if err != nil {
					t.Fatal(err)
				}
				checkDiscovery(t, root, rep, readWant(t, filepath.Join(dir, "want.txt")))
			}
		})
	}
}

func readWant(t *testing.T, p string) [][]string {
	t.Helper()
	fh, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	var out [][]string
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		out = append(out, strings.Fields(line))
	}
	return out
}

func checkDiscovery(t *testing.T, root string, rep *review.Report, want [][]string) {
	t.Helper()
	rel := func(p string) string {
		r, err := filepath.Rel(root, filepath.FromSlash(p))
		if err != nil {
			return p
		}
		return filepath.ToSlash(r)
	}
	for _, w := range want {
		switch w[0] {
		case "activity", "workflow":
			inferred := len(w) > 3 && w[3] == "inferred"
			found := false
			var got []string
			if w[0] == "activity" {
				for _, a := range rep.Activities {
					got = append(got, a.Name+"@"+rel(a.File)+" "+a.Discovered)
					if a.Name == w[1] && !a.Unresolved && rel(a.File) == w[2] && (a.Discovered == review.DiscoveredInferred) == inferred {
						found = true
					}
				}
			} else {
				for _, a := range rep.Workflows {
					got = append(got, a.Name+"@"+rel(a.File)+" "+a.Discovered)
					if a.Name == w[1] && a.File != "" && rel(a.File) == w[2] && (a.Discovered == review.DiscoveredInferred) == inferred {
						found = true
					}
				}
			}
			if !found {
				t.Errorf("%s: %s %s in %s (inferred %v) not reviewed; got %v; unresolved %v", root, w[0], w[1], w[2], inferred, got, rep.Unresolved)
			}
		case "unresolved":
			reason := strings.Join(w[2:], " ")
			found := false
			for _, u := range rep.Unresolved {
				if u.Name == w[1] && u.Reason == reason && u.File != "" && u.Line > 0 {
					found = true
				}
			}
			if !found {
				t.Errorf("%s: %s not listed as unresolved (%s); got %v", root, w[1], reason, rep.Unresolved)
			}
		case "none-unresolved":
			if len(rep.Unresolved) > 0 {
				t.Errorf("%s: listed as not reviewed: %v", root, rep.Unresolved)
			}
		default:
			t.Fatalf("want.txt: unknown line %v", w)
		}
	}
}
