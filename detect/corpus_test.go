package detect

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/twice-cli/twice/catalyst"
)

// corpusCase is one file of testdata/corpus: a scenario written in one
// format, and what Analyze must find in it once decoded. Expectations are
// the scenario's unless the case says otherwise, for what a format cannot
// carry (the Dapr CLI prints no child instance ids; Dapr ≤1.17 recorded no
// timer origins; Catalyst at the metadata level shares no payloads).
type corpusCase struct {
	scenario string
	format   corpusFormat
	invs     []wantInv     // nil: the scenario's
	findings []wantFinding // nil: the scenario's (see noFindings)
	noFinds  bool          // expect no findings at all
}

func (c corpusCase) file() string { return c.scenario + "." + string(c.format) + ".json" }

// corpusCases lists the corpus. Fixture-format cases are in
// corpus_fixture_test.go.
func corpusCases() []corpusCase {
	inferredDotnet := []wantInv{{"ChargeCard", 3, LinkInferred, OutcomeCompleted}}
	return []corpusCase{
		// Dapr ≥1.18 protojson.
		{scenario: "go-success", format: fmtProtoJSON},
		{scenario: "python-retry-503", format: fmtProtoJSON},
		{scenario: "go-retry-deadline-email", format: fmtProtoJSON},
		{scenario: "race-fetch-quote", format: fmtProtoJSON},
		{scenario: "race-charge-late", format: fmtProtoJSON},
		{scenario: "race-charge-running", format: fmtProtoJSON},
		{scenario: "child-retry-go", format: fmtProtoJSON},
		{scenario: "child-retry-origin", format: fmtProtoJSON},
		{scenario: "dotnet-per-attempt-ids", format: fmtProtoJSON},
		{scenario: "declined-retried", format: fmtProtoJSON},
		{scenario: "nonretriable-retried", format: fmtProtoJSON},
		{scenario: "shared-retry-policy", format: fmtProtoJSON},
		{scenario: "terminated-mid-charge", format: fmtProtoJSON},
		{scenario: "running-overdue", format: fmtProtoJSON},
		{scenario: "stalled-payload", format: fmtProtoJSON},
		{scenario: "large-output", format: fmtProtoJSON},
		{scenario: "fanout-50-clean", format: fmtProtoJSON},
		{scenario: "fanout-dotnet-retries", format: fmtProtoJSON},
		{scenario: "readonly-timeout-retry", format: fmtProtoJSON},
		{scenario: "idempotent-delete-retry", format: fmtProtoJSON},
		{scenario: "safe-429-retry", format: fmtProtoJSON},
		{scenario: "unclassified-retry", format: fmtProtoJSON},
		{scenario: "duplicate-completion", format: fmtProtoJSON},
		{scenario: "late-completion-after-retry", format: fmtProtoJSON},
		{scenario: "redelivered-failed-then-completed", format: fmtProtoJSON},
		{scenario: "continue-as-new-generations", format: fmtProtoJSON},
		{scenario: "hostile-names", format: fmtProtoJSON},
		{scenario: "external-event-timeout-in-failure-turn", format: fmtProtoJSON},
		{scenario: "clean-order-workflow", format: fmtProtoJSON},

		// Dapr ≤1.17 protojson keys: no timer origins.
		{scenario: "go-dapr116-named-timers", format: fmtProtoJSONOld},
		{scenario: "go-dapr115-no-ids", format: fmtProtoJSONOld},
		{scenario: "dapr115-sleep-new-address", format: fmtProtoJSONOld},
		{scenario: "python-legacy-reused-eventid", format: fmtProtoJSONOld},
		{scenario: "child-dotnet-order", format: fmtProtoJSONOld},
		{scenario: "user-timer-after-failure-pre118", format: fmtProtoJSONOld},
		{scenario: "fanout-50-legacy-retries", format: fmtProtoJSONOld},
		{scenario: "dotnet-per-attempt-ids", format: fmtProtoJSONOld, invs: inferredDotnet},

		// Catalyst flattened events at the metadata level.
		{scenario: "python-retry-503", format: fmtCatalyst},
		{scenario: "dotnet-per-attempt-ids", format: fmtCatalyst},
		{scenario: "shared-retry-policy", format: fmtCatalyst},
		{scenario: "terminated-mid-charge", format: fmtCatalyst},
		{scenario: "child-retry-origin", format: fmtCatalyst},
		{scenario: "race-charge-late", format: fmtCatalyst},
		{scenario: "duplicate-completion", format: fmtCatalyst},
		{scenario: "stalled-payload", format: fmtCatalyst},
		{scenario: "clean-order-workflow", format: fmtCatalyst},
		{scenario: "fanout-dotnet-retries", format: fmtCatalyst},
		{scenario: "readonly-timeout-retry", format: fmtCatalyst},
		{scenario: "go-retry-deadline-email", format: fmtCatalystList},
		{scenario: "child-reused-python", format: fmtCatalystList},
		{scenario: "declined-retried", format: fmtCatalystList},

		// dapr workflow history -o json.
		{scenario: "python-retry-503", format: fmtDaprCLI},
		{scenario: "go-retry-deadline-email", format: fmtDaprCLI},
		{scenario: "race-fetch-quote", format: fmtDaprCLI},
		{scenario: "dotnet-per-attempt-ids", format: fmtDaprCLI},
		{scenario: "fanout-50-legacy-retries", format: fmtDaprCLI},
		{scenario: "nonretriable-retried", format: fmtDaprCLI},
		{scenario: "terminated-mid-charge", format: fmtDaprCLI},
		{scenario: "shared-retry-policy", format: fmtDaprCLI},
		{scenario: "child-retry-go", format: fmtDaprCLI,
			invs: []wantInv{{"ShipOrder", 2, LinkInferred, OutcomeCompleted}}},
	}
}

// wireFormat is the catalyst.Format a corpus format decodes as.
func (f corpusFormat) wireFormat() catalyst.Format {
	switch f {
	case fmtCatalyst, fmtCatalystList:
		return catalyst.FormatCatalyst
	case fmtDaprCLI:
		return catalyst.FormatDaprCLI
	}
	return catalyst.FormatProtoJSON
}

// decodeCorpusFile reads one corpus file with catalyst.Decode and settles
// its data-sharing level as the file source does.
func decodeCorpusFile(t *testing.T, name string) *catalyst.History {
	t.Helper()
	path := filepath.Join("testdata", "corpus", name)
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("%v (regenerate with -update-corpus)", err)
	}
	defer f.Close()
	h, err := catalyst.Decode(f, catalyst.DecodeOptions{
		Provenance: catalyst.Provenance{Surface: catalyst.SurfaceFile, Location: path}})
	if err != nil {
		t.Fatalf("decoding %s: %v", name, err)
	}
	h.SettleDataSharing(catalyst.LevelSources{})
	return h
}

// expectations returns the scenario's expectations with the case's
// overrides applied.
func (c corpusCase) expectations(sc scenario) scenario {
	if c.invs != nil {
		sc.invs = c.invs
	}
	if c.findings != nil {
		sc.findings = c.findings
	}
	if c.noFinds {
		sc.findings = nil
	}
	return sc
}

func scenarioByName(t *testing.T, name string) scenario {
	t.Helper()
	for _, sc := range scenarios() {
		if sc.name == name {
			return sc
		}
	}
	t.Fatalf("no scenario %q", name)
	return scenario{}
}

func TestCorpus(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "corpus", "*.json"))
	listed := make(map[string]bool)
	for _, c := range append(corpusCases(), fixtureCorpusCases()...) {
		listed[c.file()] = true
	}
	for _, f := range files {
		if !listed[filepath.Base(f)] {
			t.Errorf("%s is in the corpus but in no table", f)
		}
	}
	if len(listed) < 30 {
		t.Errorf("the corpus holds %d histories; it should hold at least 30", len(listed))
	}
	for _, c := range corpusCases() {
		t.Run(c.file(), func(t *testing.T) {
			h := decodeCorpusFile(t, c.file())
			if h.Format != c.format.wireFormat() {
				t.Fatalf("decoded as %s, want %s", h.Format, c.format.wireFormat())
			}
			r := Analyze(h, Options{})
			checkScenario(t, c.expectations(scenarioByName(t, c.scenario)), r)
			checkInvariants(t, h, r)
			if c.format.wireFormat() == catalyst.FormatCatalyst {
				checkWithheldChecks(t, h, r)
			}
		})
	}
}

// checkWithheldChecks: a metadata-level history says which checks payloads
// kept from running, naming the level, and never treats a withheld payload
// as empty.
func checkWithheldChecks(t *testing.T, h *catalyst.History, r *Report) {
	t.Helper()
	if !h.Run.DataSharing.Withholds() {
		t.Fatalf("a Catalyst history at metadata level does not withhold: %+v", h.Run.DataSharing)
	}
	found := false
	for _, s := range r.Skipped {
		if s.Check == "payload size" {
			found = true
			// The level as reported, or unknown (a bare list reports none),
			// and the reason says which.
			if s.Level != h.Run.DataSharing.Level ||
				!strings.Contains(s.Reason, h.Run.DataSharing.WithheldText()) {
				t.Errorf("payload size skipped: %+v (sharing %+v)", s, h.Run.DataSharing)
			}
		}
	}
	if !found && len(r.Invocations) > 0 {
		t.Errorf("no skipped payload-size check: %+v", r.Skipped)
	}
}

// TestCorpusFormatsAgree: the same scenario decoded from every format it is
// written in gives the same invocations and findings, up to what a format
// cannot carry.
func TestCorpusFormatsAgree(t *testing.T) {
	byScenario := make(map[string][]corpusCase)
	for _, c := range corpusCases() {
		byScenario[c.scenario] = append(byScenario[c.scenario], c)
	}
	for name, cases := range byScenario {
		if len(cases) < 2 {
			continue
		}
		t.Run(name, func(t *testing.T) {
			var want string
			var from string
			for _, c := range cases {
				if c.format == fmtProtoJSONOld {
					continue // no origins: links differ by design
				}
				r := dropPayloadFindings(Analyze(decodeCorpusFile(t, c.file()), Options{}))
				got := summaryOf(r, true)
				if want == "" {
					want, from = got, c.file()
					continue
				}
				if got != want {
					t.Errorf("%s:\n%s\ndiffers from %s:\n%s", c.file(), got, from, want)
				}
			}
		})
	}
}
