package detect

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/fixtures"
)

// fixtureCorpusCases lists the corpus files in the twice saved-history
// format, read with fixtures.Open. The envelopes say they were captured on
// 2026-12-02, long after the scenarios ran: an attempt of a running run that
// had no outcome by then is overdue.
func fixtureCorpusCases() []corpusCase {
	return []corpusCase{
		{scenario: "python-retry-503", format: fmtFixture},
		{scenario: "dotnet-per-attempt-ids", format: fmtFixture},
		{scenario: "hostile-names", format: fmtFixture},
		{scenario: "clean-order-workflow", format: fmtFixture},
		{scenario: "running-recent", format: fmtFixture, findings: []wantFinding{
			{FindingUnknownOutcome, SeverityMedium, ConfidencePossible, "SendEmail"}}},
		{scenario: "shared-retry-policy", format: fmtFixtureFlat},
		{scenario: "terminated-mid-charge", format: fmtFixtureFlat},
	}
}

func TestFixtureCorpus(t *testing.T) {
	for _, c := range fixtureCorpusCases() {
		t.Run(c.file(), func(t *testing.T) {
			h, err := fixtures.Open(filepath.Join("testdata", "corpus", c.file()), fixtures.OpenOptions{})
			if err != nil {
				t.Fatalf("%v (regenerate with -update-corpus)", err)
			}
			want := catalyst.FormatProtoJSON
			if c.format == fmtFixtureFlat {
				want = catalyst.FormatCatalyst
			}
			if h.Format != want || h.Run.Provenance.Recorded == nil {
				t.Fatalf("format %s, recorded %v", h.Format, h.Run.Provenance.Recorded)
			}
			r := Analyze(h, Options{})
			checkScenario(t, c.expectations(scenarioByName(t, c.scenario)), r)
			checkInvariants(t, h, r)
			if c.format == fmtFixtureFlat {
				checkWithheldChecks(t, h, r)
			}
		})
	}
}

// TestBundledDemos analyses every demo the fixtures package ships and checks
// that each one's story is what Analyze finds (an independent set of
// histories, written by another hand).
func TestBundledDemos(t *testing.T) {
	want := map[string]FindingID{
		"payment-timeout": FindingDuplicateSideEffect,
		"email-503":       FindingDuplicateSideEffect,
		"dotnet-retry":    FindingDuplicateSideEffect,
		"card-declined":   FindingRetriedPermanentFailure,
		"child-retried":   FindingChildWorkflowRetried,
		"worker-crash":    FindingUnknownOutcome,
		// Clean or harmless at medium and above:
		"lookup-retried":    "",
		"metadata-withheld": "",
		"clean-run":         "",
		// The twins (twice diff): fixed, nothing to flag.
		"payment-timeout-fixed":  "",
		"card-declined-no-retry": "",
	}
	demos := fixtures.Demos()
	if len(demos) == 0 {
		t.Skip("no bundled demos")
	}
	for _, d := range demos {
		t.Run(d.Name, func(t *testing.T) {
			h, err := fixtures.OpenDemo(d.Name, fixtures.OpenOptions{})
			if err != nil {
				t.Fatal(err)
			}
			r := Analyze(h, Options{})
			checkInvariants(t, h, r)
			id, known := want[d.Name]
			if !known {
				return
			}
			var top FindingID
			for _, f := range r.Findings {
				if f.Severity >= SeverityMedium {
					top = f.ID
					break
				}
			}
			if top != id {
				t.Errorf("most severe finding %q, want %q:\n%s", top, id, describe(r))
			}
			if h.Run.DataSharing.Withholds() && len(r.Invocations) > 0 {
				ok := false
				for _, s := range r.Skipped {
					ok = ok || s.Check == "payload size" && strings.Contains(s.Reason, "data-sharing level")
				}
				if !ok {
					t.Errorf("withheld payloads but no skipped check naming the level: %+v", r.Skipped)
				}
			}
		})
	}
}
