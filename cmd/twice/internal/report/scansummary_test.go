package report

import (
	"bytes"
	"encoding/json"
	"github.com/twice-cli/twice/tui/format"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/detect"
)

// runWith returns an analysis of a one-event run with the given findings'
// severities.
func runWith(id, location string, sevs ...detect.Severity) Analysis {
	run := catalyst.Run{ID: id, AppID: "app", Workflow: "wf-" + id, Status: "completed",
		Provenance: catalyst.Provenance{Surface: catalyst.SurfaceFile, Location: location}}
	h := catalyst.NewHistory(run, catalyst.Event{Type: catalyst.EventExecutionStarted, ID: -1, Timestamp: at(0)})
	rep := &detect.Report{}
	for _, s := range sevs {
		rep.Findings = append(rep.Findings, detect.Finding{ID: detect.FindingDuplicateSideEffect, Severity: s, Activity: "A"})
	}
	return Analysis{History: h, Report: rep}
}

// TestScanSummaryText: a scan of several runs begins with one line per run,
// the most severe first (ties in the order given), with its finding count,
// workflow and file; then the histories not read, each named once.
func TestScanSummaryText(t *testing.T) {
	runs := []Analysis{
		runWith("clean", "a.json"),
		runWith("medium", "b.json", detect.SeverityMedium),
		runWith("high-one", "c.json", detect.SeverityHigh),
		runWith("high-two", "d.json", detect.SeverityHigh, detect.SeverityLow),
		runWith("clean-two", "e.json"),
	}
	notRead := []NotRead{
		{Source: "f.json", Err: "f.json: history: invalid JSON at byte 2"},
		{Source: "g.json", Err: "permission denied"},
	}
	out := render(t, func(b *bytes.Buffer) error {
		return WriteScanSummaryText(b, runs, notRead, textOptions(format.ISO, false))
	})
	lines := strings.Split(out, "\n")
	if want := "Scan summary: 5 runs, 3 with findings; 4 findings (2 high, 1 medium, 1 low); 2 not read"; lines[0] != want {
		t.Errorf("headline %q, want %q", lines[0], want)
	}
	if !strings.Contains(lines[1], "WORST") || !strings.Contains(lines[1], "FINDINGS") || !strings.Contains(lines[1], "SOURCE") {
		t.Errorf("no column heading: %q", lines[1])
	}
	order := []string{"high-two", "high-one", "medium", "clean", "clean-two"}
	for i, id := range order {
		l := lines[2+i]
		if f := strings.Fields(l); len(f) < 6 || f[3] != id {
			t.Fatalf("summary line %d is %q, want run %s (most severe first, ties in order)", i, l, id)
		}
	}
	if f := strings.Fields(lines[2]); f[0] != "▲" || f[1] != "high" || f[2] != "2" || f[4] != "wf-high-two" || f[5] != "d.json" {
		t.Errorf("first line %q: want worst, findings, run, workflow, source", lines[2])
	}
	if !strings.Contains(out, "Not read: 2") {
		t.Errorf("the histories not read are not listed:\n%s", out)
	}
	if strings.Count(out, "f.json") != 1 {
		t.Errorf("f.json is named %d times, want once (its error names it):\n%s", strings.Count(out, "f.json"), out)
	}
	if !strings.Contains(out, "  g.json: permission denied") {
		t.Errorf("an error that does not name its file is not prefixed with it:\n%s", out)
	}
}

// TestScanSummaryMarkdown: the same summary as a Markdown table, history
// text escaped, ending with a rule before the runs.
func TestScanSummaryMarkdown(t *testing.T) {
	runs := []Analysis{runWith("a_1", "x.json"), runWith("b", "y|z.json", detect.SeverityHigh)}
	out := render(t, func(b *bytes.Buffer) error {
		return WriteScanSummaryMarkdown(b, runs, []NotRead{{RunID: "r*1", AppID: "app", Source: "r*1", Err: "not found"}}, textOptions(format.ISO, false))
	})
	for _, want := range []string{
		"## Scan summary: 2 runs, 1 with findings; 1 finding (1 high); 1 not read",
		"| ▲ high | 1 (1 high) | b | wf-b | y\\|z.json |",
		"| · none | 0 | a\\_1 | wf-a\\_1 | x.json |",
		"- run r\\*1 (app app): not found",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
	if strings.Index(out, "| b |") > strings.Index(out, "| a\\_1 |") {
		t.Errorf("the high run is not listed first:\n%s", out)
	}
	if !strings.HasSuffix(out, "\n---\n\n") {
		t.Errorf("the summary does not end with a rule:\n%q", out)
	}
}

// TestJSONStreamNotRead: a scan that could not read some histories lists
// them under not_read, in JSON and as a last line of JSON Lines; a scan
// that read everything has no not_read.
func TestJSONStreamNotRead(t *testing.T) {
	nr := NotRead{Source: "bad.json", Err: "bad.json: history: invalid JSON"}
	out := render(t, func(b *bytes.Buffer) error {
		s := NewJSONStream(b, Options{Now: testNow})
		s.Run(runWith("ok", "ok.json"))
		s.NotRead(nr)
		s.NotRead(NotRead{Source: "r1", RunID: "r1", AppID: "payments", Err: "run r1 not found"})
		return s.Close(nil)
	})
	var doc struct {
		Runs    []json.RawMessage `json:"runs"`
		NotRead []struct {
			Source, ID, Error string
			AppID             string `json:"app_id"`
		} `json:"not_read"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(doc.Runs) != 1 || len(doc.NotRead) != 2 {
		t.Fatalf("%d runs, %d not read; want 1 and 2:\n%s", len(doc.Runs), len(doc.NotRead), out)
	}
	if n := doc.NotRead[0]; n.Source != "bad.json" || n.Error != nr.Err || n.ID != "" {
		t.Errorf("not_read[0] = %+v", n)
	}
	if n := doc.NotRead[1]; n.ID != "r1" || n.AppID != "payments" {
		t.Errorf("not_read[1] = %+v, want the run's id and app", n)
	}

	lines := render(t, func(b *bytes.Buffer) error {
		s := NewJSONLStream(b, Options{Now: testNow})
		s.Run(runWith("ok", "ok.json"))
		s.NotRead(nr)
		return s.Close(nil)
	})
	ls := strings.Split(strings.TrimSpace(lines), "\n")
	if len(ls) != 2 || !strings.HasPrefix(ls[1], `{"not_read":[{"source":"bad.json"`) {
		t.Errorf("JSON Lines: want the run, then one not_read line:\n%s", lines)
	}

	clean := render(t, func(b *bytes.Buffer) error {
		return WriteJSON(b, []Analysis{runWith("ok", "ok.json")}, Options{Now: testNow})
	})
	if strings.Contains(clean, "not_read") {
		t.Errorf("not_read written when every history was read:\n%s", clean)
	}
}

// TestUnknownEventTypeIsNeverAKnownName: an event kept as unknown whose
// wire name is a known type's in another spelling (protojson keyed
// "TaskScheduled") is "Unknown" in JSON with its name in wire_type, and
// "Unknown(TaskScheduled)" in the events table, never a TaskScheduled row.
func TestUnknownEventTypeIsNeverAKnownName(t *testing.T) {
	run := catalyst.Run{ID: "r", AppID: "a", Status: "running"}
	h := catalyst.NewHistory(run,
		catalyst.Event{Type: catalyst.EventExecutionStarted, ID: -1, Timestamp: at(0)},
		catalyst.Event{Type: catalyst.EventUnknown, ID: 3, Timestamp: at(time.Second),
			Detail: &catalyst.EventDetail{TypeName: "TaskScheduled", Raw: `{"TaskScheduled":{"name":"Charge"}}`}},
		catalyst.Event{Type: catalyst.EventUnknown, ID: -1, Timestamp: at(2 * time.Second)},
	)
	a := Analysis{History: h, Report: &detect.Report{}}
	js := render(t, func(b *bytes.Buffer) error { return WriteJSON(b, []Analysis{a}, Options{Now: testNow}) })
	var doc struct {
		Runs []struct {
			Events []struct {
				Type     string `json:"type"`
				WireType string `json:"wire_type"`
			} `json:"events"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(js), &doc); err != nil {
		t.Fatal(err)
	}
	ev := doc.Runs[0].Events
	if ev[1].Type != "Unknown" || ev[1].WireType != "TaskScheduled" {
		t.Errorf("unknown event written as type %q wire_type %q, want Unknown and TaskScheduled", ev[1].Type, ev[1].WireType)
	}
	if ev[2].Type != "Unknown" || ev[2].WireType != "" {
		t.Errorf("nameless unknown event written as %+v", ev[2])
	}
	text := render(t, func(b *bytes.Buffer) error { return WriteText(b, a, textOptions(format.ISO, true)) })
	if !strings.Contains(text, "  1  Unknown(TaskScheduled)  ") {
		t.Errorf("the unknown event's row does not say Unknown(TaskScheduled):\n%s", text)
	}
	if !strings.Contains(text, "  2  Unknown  ") {
		t.Errorf("a nameless unknown event's row does not say Unknown:\n%s", text)
	}
	for _, l := range strings.Split(text, "\n") {
		if f := strings.Fields(l); len(f) > 1 && f[1] == "TaskScheduled" {
			t.Errorf("a row shows the unknown event as TaskScheduled: %q", l)
		}
	}
}

// regexpNegative finds a negative ELAPSED cell.
var regexpNegative = regexp.MustCompile(`\s-[0-9.]+(ns|µs|ms|s)\s`)

// TestNegativeElapsedIsExplainedOnce: an event table with a negative
// ELAPSED says why, once, under the table; one without says nothing.
func TestNegativeElapsedIsExplainedOnce(t *testing.T) {
	run := catalyst.Run{ID: "r", AppID: "a", Status: "completed"}
	h := catalyst.NewHistory(run,
		catalyst.Event{Type: catalyst.EventExecutionStarted, ID: -1, Timestamp: at(0)},
		catalyst.Event{Type: catalyst.EventTaskScheduled, ID: 0, Name: "A", Timestamp: at(10 * time.Millisecond)},
		catalyst.Event{Type: catalyst.EventWorkflowStarted, ID: -1, Timestamp: at(100 * time.Millisecond)},
		catalyst.Event{Type: catalyst.EventTaskCompleted, ID: -1, Timestamp: at(80 * time.Millisecond)},
		catalyst.Event{Type: catalyst.EventWorkflowStarted, ID: -1, Timestamp: at(200 * time.Millisecond)},
		catalyst.Event{Type: catalyst.EventTimerFired, ID: -1, Timestamp: at(190 * time.Millisecond)},
		catalyst.Event{Type: catalyst.EventExecutionCompleted, ID: 1, Timestamp: at(220 * time.Millisecond)},
	)
	text := render(t, func(b *bytes.Buffer) error {
		return WriteText(b, Analysis{History: h, Report: &detect.Report{}}, textOptions(format.ISO, true))
	})
	if !regexpNegative.MatchString(text) {
		t.Fatalf("no negative ELAPSED shown:\n%s", text)
	}
	if n := strings.Count(text, negativeElapsedNote); n != 1 {
		t.Errorf("the note appears %d times, want once:\n%s", n, text)
	}
	if i, j := strings.Index(text, negativeElapsedNote), strings.LastIndex(text, "ExecutionCompleted"); i < j {
		t.Errorf("the note is not under the table:\n%s", text)
	}

	// The sample's events are stamped in order.
	text = render(t, func(b *bytes.Buffer) error { return WriteText(b, sampleAnalysis(), textOptions(format.ISO, true)) })
	if regexpNegative.MatchString(text) || strings.Contains(text, "negative ELAPSED") {
		t.Errorf("the note is printed with no negative ELAPSED:\n%s", text)
	}
}

// TestDurationOfARunningRunSaysSoFar: a run that has not ended shows its
// duration as so far, with when its last event was; an ended run shows a
// plain duration.
func TestDurationOfARunningRunSaysSoFar(t *testing.T) {
	for _, tc := range []struct {
		status catalyst.Status
		tf     format.TimeFormat
		want   string
	}{
		// A saved file's run that had not ended ran at least that long
		// (to its capture, when the file records one).
		{"running", format.ISO, "Duration      ≥16.12s: still running when saved (last event 2026-08-21T14:02:27.120Z)\n"},
		{"ORCHESTRATION_STATUS_SUSPENDED", format.Relative, "Duration      ≥16.12s: still running when saved (last event 2.5m ago)\n"},
		{"pending", format.ISO, "still running when saved (last event"},
		{"COMPLETED", format.ISO, "Duration      16.12s\n"},
		{"failed", format.ISO, "Duration      16.12s\n"},
	} {
		a := sampleAnalysis()
		a.History.Run.Status = tc.status
		text := render(t, func(b *bytes.Buffer) error { return WriteText(b, a, textOptions(tc.tf, false)) })
		if !strings.Contains(text, tc.want) {
			t.Errorf("%s: want %q in:\n%s", tc.status, tc.want, text)
		}
		if tc.status.IsEnded() && (strings.Contains(text, "so far") || strings.Contains(text, "still running")) {
			t.Errorf("%s: an ended run's duration says it is still running", tc.status)
		}
	}
}

// TestDurationOfASavedRunRunsToItsCapture: a run still running when it was
// saved has run at least until it was saved, not only until its last
// event (issue 22: a history captured 6 h after its last event read
// "16.12s so far" while its evidence said "no outcome for 6 h"); a live
// run's runs to now.
func TestDurationOfASavedRunRunsToItsCapture(t *testing.T) {
	a := sampleAnalysis()
	run := &a.History.Run
	run.Status = "running"
	run.Provenance.Recorded = &catalyst.Recording{CapturedAt: run.UpdatedAt.Add(6 * time.Hour)}
	text := render(t, func(b *bytes.Buffer) error { return WriteText(b, a, textOptions(format.ISO, false)) })
	if want := "Duration      ≥6.0h: still running when saved"; !strings.Contains(text, want) {
		t.Errorf("want %q in:\n%s", want, text)
	}
	run.Provenance = catalyst.Provenance{Surface: catalyst.SurfaceCatalystMCP}
	opts := textOptions(format.ISO, false)
	text = render(t, func(b *bytes.Buffer) error { return WriteText(b, a, opts) })
	if want := "Duration      " + format.Duration(opts.now().Sub(run.CreatedAt)) + " so far"; !strings.Contains(text, want) {
		t.Errorf("live: want %q in:\n%s", want, text)
	}
}
