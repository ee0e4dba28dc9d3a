package detect

import (
	"strings"
	"testing"
)

// TestCatalogueEntriesAreComplete: every finding has an id, a title, a
// short name, a default severity, a doc and a check, and no two share an
// id or a short name.
func TestCatalogueEntriesAreComplete(t *testing.T) {
	ids, shorts := map[FindingID]bool{}, map[string]bool{}
	for _, c := range Checks() {
		if c.ID == "" || c.Title == "" || c.Short == "" || c.Doc == "" || c.Severity == SeverityNone {
			t.Errorf("%q: an entry needs an id, title, short name, doc and default severity: %+v", c.ID, c)
		}
		if c.invocation == nil && c.run == nil {
			t.Errorf("%s: no check raises it", c.ID)
		}
		if ids[c.ID] || shorts[c.Short] {
			t.Errorf("%s: its id or short name %q is another finding's", c.ID, c.Short)
		}
		ids[c.ID], shorts[c.Short] = true, true
		if strings.ContainsAny(c.Doc+c.Title, "`*|\n") {
			t.Errorf("%s: the doc and title are plain one-line text (the help and a README table cell show them): %q", c.ID, c.Doc)
		}
		if got, ok := CheckOf(c.ID); !ok || got.ID != c.ID {
			t.Errorf("CheckOf(%s) = %v, %v", c.ID, got.ID, ok)
		}
	}
	if _, ok := CheckOf("no-such-finding"); ok {
		t.Error("CheckOf found an id twice does not raise")
	}
}

// TestChecksIsACopy: the catalogue a caller gets cannot change the one
// Analyze runs.
func TestChecksIsACopy(t *testing.T) {
	cs := Checks()
	cs[0].ID, cs[0].invocation = "changed", nil
	if c := Checks()[0]; c.ID == "changed" || c.invocation == nil {
		t.Fatal("changing Checks' result changed the catalogue")
	}
}

// TestCorpusRaisesEveryFinding: each finding of the catalogue is raised
// by at least one case of the corpus, at its default severity in at least
// one of them, and Analyze raises no finding the catalogue does not list.
// A finding added without a corpus case fails here.
func TestCorpusRaisesEveryFinding(t *testing.T) {
	raised := map[FindingID]map[Severity]bool{}
	for _, c := range corpusCases() {
		r := Analyze(decodeCorpusFile(t, c.file()), Options{})
		for _, f := range r.Findings {
			if _, ok := CheckOf(f.ID); !ok {
				t.Errorf("%s: finding %q is not in the catalogue", c.file(), f.ID)
			}
			if raised[f.ID] == nil {
				raised[f.ID] = map[Severity]bool{}
			}
			raised[f.ID][f.Severity] = true
		}
	}
	for _, c := range Checks() {
		switch {
		case raised[c.ID] == nil:
			t.Errorf("no corpus case raises %s: add one (testdata/corpus, corpusCases)", c.ID)
		case !raised[c.ID][c.Severity]:
			t.Errorf("no corpus case raises %s at its default severity %s (raised at %v)", c.ID, c.Severity, raised[c.ID])
		}
	}
}
