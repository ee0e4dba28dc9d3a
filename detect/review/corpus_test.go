package review_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/twice-cli/twice/detect/review"
	"github.com/twice-cli/twice/detect/review/csharp"
	"github.com/twice-cli/twice/detect/review/langs"
	"github.com/twice-cli/twice/detect/review/python"
)

// The corpus (testdata/corpus) holds small activity and orchestrator
// files, Go, Python and C#, written the way the SDKs' samples and real
// services write them. Each expected hazard is marked on its line:
//
//	// want: rule-id[, rule-id]        (Go, C#)
//	# want: rule-id                    (Python)
//
// A file that is one of the seed's "already idempotent — nothing to do"
// shapes says "corpus: negative" and names the rules it must not trigger
// with "negative-for:". Each Go and C# case is a directory (Go: its own
// package; C#: its own project, files in subfolders too); each Python
// case one file.

var (
	wantRe   = regexp.MustCompile(`(?://|#)\s*want:\s*([a-z, -]+)`)
	negForRe = regexp.MustCompile(`(?://|#)\s*negative-for:\s*([a-z, -]+)`)
)

type expectation struct {
	file string
	line int
	rule review.RuleID
}

type corpusCase struct {
	path     string // a Go directory or a Python file
	lang     review.Lang
	want     map[expectation]bool
	negative bool
	negFor   []review.RuleID
}

func loadCorpus(t *testing.T) []corpusCase {
	t.Helper()
	var cases []corpusCase
	goDirs, _ := filepath.Glob("testdata/corpus/go/*")
	pyFiles, _ := filepath.Glob("testdata/corpus/python/*.py")
	csDirs, _ := filepath.Glob("testdata/corpus/csharp/*")
	for _, p := range append(append(goDirs, pyFiles...), csDirs...) {
		c := corpusCase{path: p, want: map[expectation]bool{}, lang: review.LangGo}
		files := []string{p}
		switch {
		case strings.HasSuffix(p, ".py"):
			c.lang = review.LangPython
		case strings.Contains(filepath.ToSlash(p), "/csharp/"):
			c.lang = review.LangCSharp
			files = nil
			_ = filepath.WalkDir(p, func(f string, d os.DirEntry, err error) error {
				if err == nil && strings.HasSuffix(f, ".cs") {
					files = append(files, f)
				}
				return err
			})
		default:
			files, _ = filepath.Glob(filepath.Join(p, "*.go"))
		}
		for _, f := range files {
			fh, err := os.Open(f)
			if err != nil {
				t.Fatal(err)
			}
			sc := bufio.NewScanner(fh)
			for n := 1; sc.Scan(); n++ {
				line := sc.Text()
				if m := wantRe.FindStringSubmatch(line); m != nil {
					for _, r := range strings.Split(m[1], ",") {
						c.want[expectation{filepath.ToSlash(f), n, review.RuleID(strings.TrimSpace(r))}] = true
					}
				}
				if strings.Contains(line, "corpus: negative") {
					c.negative = true
				}
				if m := negForRe.FindStringSubmatch(line); m != nil {
					for _, r := range strings.Split(m[1], ",") {
						c.negFor = append(c.negFor, review.RuleID(strings.TrimSpace(r)))
					}
				}
			}
			fh.Close()
		}
		cases = append(cases, c)
	}
	return cases
}

// TestCorpus reviews every corpus case and prints precision and recall
// over (file, line, rule), per rule, per language and in total; each must
// be at least 0.9, and every already-idempotent negative must produce
// nothing. A build without cgo reviews the Go cases only.
const minCorpus = 60

// minPerLanguage is the fewest cases each language's corpus holds.
const minPerLanguage = 20

func TestCorpus(t *testing.T) {
	all := loadCorpus(t)
	if len(all) < minCorpus {
		t.Fatalf("the corpus has %d cases, want at least %d", len(all), minCorpus)
	}
	parsed := map[review.Lang]bool{review.LangGo: true}
	parsed[review.LangPython], _ = python.Available()
	parsed[review.LangCSharp], _ = csharp.Available()
	var cases []corpusCase
	perLang := map[review.Lang]int{}
	for _, c := range all {
		perLang[c.lang]++
		if parsed[c.lang] {
			cases = append(cases, c)
		} else {
			t.Logf("%s: skipped, this build has no %s parser", c.path, c.lang.Title())
		}
	}
	for _, l := range []review.Lang{review.LangGo, review.LangPython, review.LangCSharp} {
		if perLang[l] < minPerLanguage {
			t.Errorf("the %s corpus has %d cases, want at least %d", l.Title(), perLang[l], minPerLanguage)
		}
	}
	type counts struct{ tp, fp, fn int }
	per := map[string]*counts{}
	get := func(k string) *counts {
		if per[k] == nil {
			per[k] = &counts{}
		}
		return per[k]
	}
	byLang := map[review.Lang]*counts{}
	for _, c := range cases {
		rep, err := review.Review(context.Background(), []string{c.path}, langs.Options())
		if err != nil {
			t.Fatalf("%s: %v", c.path, err)
		}
		if len(rep.Skipped) > 0 {
			t.Errorf("%s: skipped %v", c.path, rep.Skipped)
		}
		if len(rep.Activities) == 0 {
			t.Errorf("%s: no activity found", c.path)
		}
		for _, a := range rep.Activities {
			if a.Unresolved {
				t.Errorf("%s: activity %s is registered but its function %s was not found", c.path, a.Name, a.Func)
			}
		}
		if byLang[c.lang] == nil {
			byLang[c.lang] = &counts{}
		}
		lc := byLang[c.lang]
		got := map[expectation]bool{}
		for _, h := range rep.Hazards {
			got[expectation{h.File, h.Line, h.Rule}] = true
		}
		for e := range got {
			if c.want[e] {
				get(string(e.rule)).tp++
				lc.tp++
			} else {
				get(string(e.rule)).fp++
				lc.fp++
				t.Logf("false positive %s:%d %s", e.file, e.line, e.rule)
			}
		}
		for e := range c.want {
			if !got[e] {
				get(string(e.rule)).fn++
				lc.fn++
				t.Logf("missed %s:%d %s", e.file, e.line, e.rule)
			}
		}
		if c.negative && len(rep.Hazards) > 0 {
			t.Errorf("%s is already idempotent (the seed: nothing to do), yet twice reports %d hazard(s): %v", c.path, len(rep.Hazards), rep.Hazards[0].Message)
		}
		for _, r := range c.negFor {
			for _, h := range rep.Hazards {
				if h.Rule == r {
					t.Errorf("%s must not trigger %s, yet twice reports it at %s:%d: %s", c.path, r, h.File, h.Line, h.Message)
				}
			}
		}
	}
	var rules []string
	for r := range per {
		rules = append(rules, r)
	}
	sort.Strings(rules)
	var total counts
	var b strings.Builder
	line := func(name string, c counts, extra string) {
		fmt.Fprintf(&b, "%-24s %4d %4d %4d %9.2f %6.2f%s\n", name, c.tp, c.fp, c.fn, ratio(c.tp, c.tp+c.fp), ratio(c.tp, c.tp+c.fn), extra)
	}
	fmt.Fprintf(&b, "%-24s %4s %4s %4s %9s %6s\n", "rule", "tp", "fp", "fn", "precision", "recall")
	for _, r := range rules {
		c := per[r]
		total.tp, total.fp, total.fn = total.tp+c.tp, total.fp+c.fp, total.fn+c.fn
		line(r, *c, "")
	}
	for _, l := range []review.Lang{review.LangGo, review.LangPython, review.LangCSharp} {
		if c := byLang[l]; c != nil {
			line("("+l.Title()+")", *c, fmt.Sprintf("  (%d cases)", perLang[l]))
			if p, r := ratio(c.tp, c.tp+c.fp), ratio(c.tp, c.tp+c.fn); p < 0.9 || r < 0.9 {
				t.Errorf("%s: precision %.2f, recall %.2f: both must be at least 0.9", l.Title(), p, r)
			}
		}
	}
	line("all", total, fmt.Sprintf("  (%d cases)", len(cases)))
	t.Log("\n" + b.String())
	if p, r := ratio(total.tp, total.tp+total.fp), ratio(total.tp, total.tp+total.fn); p < 0.9 || r < 0.9 {
		t.Errorf("precision %.2f, recall %.2f: both must be at least 0.9", p, r)
	}
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 1
	}
	return float64(a) / float64(b)
}

// TestCorpusCoversEveryRule checks that every rule has a positive and a
// negative case in Go, in Python and in C#.
func TestCorpusCoversEveryRule(t *testing.T) {
	cases := loadCorpus(t)
	pos := map[string]bool{}
	neg := map[string]bool{}
	for _, c := range cases {
		for e := range c.want {
			pos[string(c.lang)+"/"+string(e.rule)] = true
		}
		for _, r := range c.negFor {
			neg[string(c.lang)+"/"+string(r)] = true
		}
	}
	for _, rule := range review.Rules() {
		for _, l := range []review.Lang{review.LangGo, review.LangPython, review.LangCSharp} {
			k := string(l) + "/" + string(rule.ID)
			if !pos[k] {
				t.Errorf("no %s case where %s must fire", l, rule.ID)
			}
			if !neg[k] {
				t.Errorf("no %s case where %s must not fire (negative-for)", l, rule.ID)
			}
		}
	}
}

// TestEveryRowIsExercised checks that every row of every library table
// (lib_*.go) answers a question about some corpus case: a library's
// knowledge is added with a case that shows it.
func TestEveryRowIsExercised(t *testing.T) {
	if ok, why := python.Available(); !ok {
		t.Skip(why)
	}
	if ok, why := csharp.Available(); !ok {
		t.Skip(why)
	}
	used := map[string]bool{}
	for _, c := range loadCorpus(t) {
		rep, err := review.Review(context.Background(), []string{c.path}, langs.Options())
		if err != nil {
			t.Fatalf("%s: %v", c.path, err)
		}
		for _, r := range review.RowsUsed(rep) {
			used[r] = true
		}
	}
	missing := 0
	for _, r := range review.RowNames() {
		if !used[r] {
			missing++
			t.Errorf("no corpus case exercises %s", r)
		}
	}
	if missing > 0 {
		t.Logf("%d of %d rows are not exercised", missing, len(review.RowNames()))
	}
}
