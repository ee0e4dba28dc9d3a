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
	"github.com/twice-cli/twice/detect/review/langs"
	"github.com/twice-cli/twice/detect/review/python"
)

// The corpus (testdata/corpus) holds small activity and orchestrator
// files, Go and Python, written the way the SDKs' samples and real services
// write them. Each expected hazard is marked on its line:
//
//	// want: rule-id[, rule-id]        (Go)
//	# want: rule-id                    (Python)
//
// A file that is one of the seed's "already idempotent — nothing to do"
// shapes says "corpus: negative" and names the rules it must not trigger
// with "negative-for:". Each Go case is a directory (its own package);
// each Python case one file.

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
	for _, p := range append(goDirs, pyFiles...) {
		c := corpusCase{path: p, want: map[expectation]bool{}, lang: review.LangGo}
		files := []string{p}
		if strings.HasSuffix(p, ".py") {
			c.lang = review.LangPython
		} else {
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
// over (file, line, rule), per rule and in total; both must be at least
// 0.9, and every already-idempotent negative must produce nothing.
const minCorpus = 60

func TestCorpus(t *testing.T) {
	if ok, why := python.Available(); !ok {
		t.Skip("the corpus has Python cases: " + why)
	}
	cases := loadCorpus(t)
	if len(cases) < minCorpus {
		t.Fatalf("the corpus has %d cases, want at least 60", len(cases))
	}
	type counts struct{ tp, fp, fn int }
	per := map[review.RuleID]*counts{}
	get := func(r review.RuleID) *counts {
		if per[r] == nil {
			per[r] = &counts{}
		}
		return per[r]
	}
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
		got := map[expectation]bool{}
		for _, h := range rep.Hazards {
			got[expectation{h.File, h.Line, h.Rule}] = true
		}
		for e := range got {
			if c.want[e] {
				get(e.rule).tp++
			} else {
				get(e.rule).fp++
				t.Logf("false positive %s:%d %s", e.file, e.line, e.rule)
			}
		}
		for e := range c.want {
			if !got[e] {
				get(e.rule).fn++
				t.Logf("missed %s:%d %s", e.file, e.line, e.rule)
			}
		}
		if c.negative && len(rep.Hazards) > 0 {
			t.Errorf("%s is already idempotent (the seed: nothing to do), yet twice reports %d hazard(s): %v", c.path, len(rep.Hazards), rep.Hazards[0].Message)
		}
	}
	var rules []string
	for r := range per {
		rules = append(rules, string(r))
	}
	sort.Strings(rules)
	var total counts
	var b strings.Builder
	fmt.Fprintf(&b, "%-24s %4s %4s %4s %9s %6s\n", "rule", "tp", "fp", "fn", "precision", "recall")
	for _, r := range rules {
		c := per[review.RuleID(r)]
		total.tp, total.fp, total.fn = total.tp+c.tp, total.fp+c.fp, total.fn+c.fn
		fmt.Fprintf(&b, "%-24s %4d %4d %4d %9.2f %6.2f\n", r, c.tp, c.fp, c.fn, ratio(c.tp, c.tp+c.fp), ratio(c.tp, c.tp+c.fn))
	}
	p, r := ratio(total.tp, total.tp+total.fp), ratio(total.tp, total.tp+total.fn)
	fmt.Fprintf(&b, "%-24s %4d %4d %4d %9.2f %6.2f  (%d cases)\n", "all", total.tp, total.fp, total.fn, p, r, len(cases))
	t.Log("\n" + b.String())
	if p < 0.9 || r < 0.9 {
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
// negative case in Go and in Python.
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
		for _, l := range []review.Lang{review.LangGo, review.LangPython} {
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
