package review_test

import (
	"context"
	"strings"
	"testing"

	"github.com/twice-cli/twice/detect/review"
	"github.com/twice-cli/twice/detect/review/langs"
	"github.com/twice-cli/twice/detect/review/python"
)

// exactCases are corpus cases that must match their want lines exactly
// (every hazard found, none more), not only count toward the corpus's
// precision and recall: each pins one pattern learned from public code
// (issue 21), so a regression on it fails by name.
var exactCases = []string{
	"testdata/corpus/go/gr21_ddl_fresh_name",
	"testdata/corpus/go/gr21_4xx_after_5xx_retry",
	"testdata/corpus/python/p90_r21_policy_across_helpers.py",
	"testdata/corpus/csharp/c55_r21_page_record",
	"testdata/corpus/go/gr21_marshalled_entity",
	"testdata/corpus/csharp/c56_f21_read_handler_fresh_id",
	"testdata/corpus/csharp/c57_f21_write_handler_fresh_id",
	"testdata/corpus/python/p76_f21_insert_keyed_by_checked_id.py",
	"testdata/corpus/python/p77_f21_insert_fresh_after_check.py",
}

func TestCorpusExactCases(t *testing.T) {
	byPath := map[string]corpusCase{}
	for _, c := range loadCorpus(t) {
		byPath[c.path] = c
	}
	for _, p := range exactCases {
		c, ok := byPath[p]
		if !ok {
			t.Errorf("%s is not in the corpus", p)
			continue
		}
		if c.lang == review.LangPython {
			if ok, _ := python.Available(); !ok {
				t.Logf("%s: skipped, no Python parser", p)
				continue
			}
		}
		rep, err := review.Review(context.Background(), []string{c.path}, langs.Options())
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		got := map[expectation]bool{}
		for _, h := range rep.Hazards {
			e := expectation{h.File, h.Line, h.Rule}
			got[e] = true
			if !c.want[e] {
				t.Errorf("%s: unexpected %s at line %d: %s", p, h.Rule, h.Line, h.Message)
			}
		}
		for e := range c.want {
			if !got[e] {
				t.Errorf("%s: missed %s at line %d", p, e.rule, e.line)
			}
		}
		if strings.HasSuffix(p, "gr21_ddl_fresh_name") {
			// CREATE USER named from the input refuses a repeat; the
			// formatted text alone is not a second statement.
			for _, a := range rep.Activities {
				if a.Name == "ProvisionLogin" && len(a.Guards) != 1 {
					t.Errorf("ProvisionLogin: %d guards, want the one CREATE USER: %+v", len(a.Guards), a.Guards)
				}
				if a.Name == "ProvisionSchema" && len(a.Guards) != 0 {
					t.Errorf("ProvisionSchema claims a guard for a fresh name: %+v", a.Guards)
				}
			}
		}
		if strings.HasSuffix(p, "p76_f21_insert_keyed_by_checked_id.py") {
			// The INSERT binds the id its check read by, from the input:
			// the table's key refuses the repeat's row.
			for _, a := range rep.Activities {
				if a.Name == "open_ticket" && len(a.Guards) != 1 {
					t.Errorf("open_ticket: %d guards, want the INSERT keyed by the checked id: %+v", len(a.Guards), a.Guards)
				}
			}
		}
		if strings.HasSuffix(p, "p77_f21_insert_fresh_after_check.py") {
			for _, a := range rep.Activities {
				if len(a.Guards) != 0 {
					t.Errorf("%s claims a guard: %+v", a.Name, a.Guards)
				}
			}
		}
	}
}
