package report

import (
	"bytes"
	"encoding/json"
	"github.com/twice-cli/twice/tui/format"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/detect"
)

// realSourceAnalysis decodes and analyses one history of detect's
// real-source suite (detect/testdata/realsource: written by the Dapr CLI's
// row code and by durabletask-go's protojson; see detect/realsource_test.go).
func realSourceAnalysis(t *testing.T, source, scenario string) Analysis {
	t.Helper()
	path := filepath.Join("..", "..", "..", "..", "detect", "testdata", "realsource", source, scenario+".json")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	h, err := catalyst.Decode(bytes.NewReader(b), catalyst.DecodeOptions{
		Provenance: catalyst.Provenance{Surface: catalyst.SurfaceFile, Location: scenario + ".json"}})
	if err != nil {
		t.Fatal(err)
	}
	return Analysis{History: h, Report: detect.Analyze(h, detect.Options{})}
}

// renderAll writes a as JSON (decoded), text and Markdown.
func renderAll(t *testing.T, a Analysis) (doc jsonDoc, text, markdown string) {
	t.Helper()
	opts := Options{Now: func() time.Time { return time.Date(2026, 8, 21, 9, 0, 0, 0, time.UTC) }, Events: true,
		TimeFormat: format.ISO}
	var j, x, m bytes.Buffer
	if err := WriteJSON(&j, []Analysis{a}, opts); err != nil {
		t.Fatal(err)
	}
	if err := WriteText(&x, a, opts); err != nil {
		t.Fatal(err)
	}
	if err := WriteMarkdown(&m, []Analysis{a}, opts); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(j.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	return doc, x.String(), m.String()
}

// TestRenderersSayWhatTheSourceDoesNotCarry: an id or payload the Dapr
// CLI does not print is absent (never 0 or "none") in JSON, and text and
// Markdown say it is not in this format; an outcome no row ties to its
// call says why in every renderer.
func TestRenderersSayWhatTheSourceDoesNotCarry(t *testing.T) {
	a := realSourceAnalysis(t, "dapr-cli-v1.16.4", "parallel-children")
	doc, text, md := renderAll(t, a)
	run := doc.Runs[0]
	for _, ev := range run.Events {
		switch ev.Type {
		case "ChildWorkflowFailed", "ChildWorkflowCompleted":
			if ev.ScheduledID != nil {
				t.Errorf("%s: scheduled_id %d written, but the CLI v1.16 row prints none", ev.Type, *ev.ScheduledID)
			}
		case "ChildWorkflowCreated":
			if ev.Payload == nil || ev.Payload.State != "not-in-format" {
				t.Errorf("ChildWorkflowCreated payload = %+v, want state not-in-format", ev.Payload)
			}
		}
	}
	for _, inv := range run.Invocations {
		at := inv.Attempts[0]
		if at.Outcome != "unknown" || at.OutcomeLink != "" || !strings.Contains(at.OutcomeReason, "not known") {
			t.Errorf("%s: outcome %q link %q reason %q, want unknown with the reason", inv.Name, at.Outcome,
				at.OutcomeLink, at.OutcomeReason)
		}
	}
	// Markdown has no event table.
	if !strings.Contains(text, "scheduledId=not in this format") || !strings.Contains(text, "not in this format (") {
		t.Errorf("text does not say an id and a payload are not in this format:\n%s", text)
	}
	// Both calls' outcomes are recorded, one completion and one failure,
	// without saying which is whose: neither call is said to have no
	// outcome, and the unknown-outcome findings are possible, not observed.
	unknown := 0
	for _, f := range run.Findings {
		if f.ID == "unknown-outcome" {
			unknown++
			if f.Confidence != "possible" {
				t.Errorf("%s: unknown-outcome %q, want possible: an outcome may be recorded", f.Activity, f.Confidence)
			}
		}
	}
	if unknown != 2 {
		t.Errorf("%d unknown-outcome findings, want one per child call", unknown)
	}
	for name, out := range map[string]string{"text": text, "markdown": md} {
		if !strings.Contains(out, "the ChildWorkflowCompleted at event 4 and the ChildWorkflowFailed at event 6 carry "+
			"no scheduled id") || !strings.Contains(out, "which call each closes is not known") {
			t.Errorf("%s does not say why the outcomes are unknown:\n%s", name, out)
		}
		if strings.Contains(out, "no outcome recorded") || strings.Contains(out, "has no recorded outcome") {
			t.Errorf("%s says a call whose outcome may be recorded has none:\n%s", name, out)
		}
		if strings.Contains(out, "scheduledId=0") {
			t.Errorf("%s shows an id the source did not give as 0:\n%s", name, out)
		}
	}
	for _, f := range run.Findings {
		for _, ev := range f.Evidence {
			if strings.Contains(ev.Fact, "no recorded outcome") {
				t.Errorf("JSON evidence says a call whose outcome may be recorded has none: %q", ev.Fact)
			}
		}
	}

	// CLI v1.18: ShipA's failure is tied by inference, and every renderer
	// says so.
	a = realSourceAnalysis(t, "dapr-cli-v1.17.0", "parallel-children")
	doc, text, md = renderAll(t, a)
	at := doc.Runs[0].Invocations[0].Attempts[0]
	if doc.Runs[0].Invocations[0].Name != "ShipA" || at.Outcome != "failed" || at.OutcomeLink != "inferred" ||
		!strings.Contains(at.OutcomeReason, "only child workflow call") {
		t.Errorf("ShipA attempt = %+v, want failed, inferred, with the reason", at)
	}
	for name, out := range map[string]string{"text": text, "markdown": md} {
		if !strings.Contains(out, "outcome inferred: the ChildWorkflowFailed") {
			t.Errorf("%s does not say ShipA's outcome was inferred:\n%s", name, out)
		}
	}
}

// TestRenderersNameARerunsSource: a rerun's history is not shown as the
// run it was copied from, nor linked to it.
func TestRenderersNameARerunsSource(t *testing.T) {
	a := realSourceAnalysis(t, "protojson-durabletask-go-v0.12.1", "rerun")
	doc, text, md := renderAll(t, a)
	run := doc.Runs[0].Run
	if run.ID != "" || doc.Runs[0].Link != "" {
		t.Errorf("run id %q, link %q: the rerun is shown as its source", run.ID, doc.Runs[0].Link)
	}
	if run.RerunOf == nil || run.RerunOf.ID != "order-5005" || run.RerunOf.FromEventID == nil || *run.RerunOf.FromEventID != 1 {
		t.Errorf("rerun_of = %+v, want order-5005 from event 1", run.RerunOf)
	}
	// The fork is eventId 1, the ChargeCard TaskScheduled: the fifth
	// event (event 5 counting from 0 as every "event N" does), not event 1.
	for name, out := range map[string]string{"text": text, "markdown": md} {
		if !strings.Contains(out, "rerun of order-5005 from eventId 1 (event 5)") {
			t.Errorf("%s does not say it is a rerun of order-5005 from eventId 1 (event 5):\n%s", name, out)
		}
		if strings.Contains(out, "workflows/orders/order-5005") {
			t.Errorf("%s links the rerun to its source run:\n%s", name, out)
		}
	}
}
