package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/safetext/hostiletest"
)

// The documented JSON shape (docs/json-output.md),
// as strict structs: decoding with DisallowUnknownFields fails on any key
// the documentation does not name. Pointers mark the keys that may be
// omitted; required keys are checked separately.

type jsonDoc struct {
	Runs    []jsonRun  `json:"runs"`
	Summary *jsonFleet `json:"summary"`
}

type jsonRun struct {
	Source        jsonSource      `json:"source"`
	Format        string          `json:"format"`
	Lossy         *bool           `json:"lossy"`
	TimeResMS     *int64          `json:"time_resolution_ms"`
	UnknownFields int             `json:"unknown_fields"`
	Run           jsonRunInfo     `json:"run"`
	Events        []jsonEvent     `json:"events"`
	Withheld      []jsonWithheld  `json:"withheld"`
	Link          string          `json:"link"`
	Invocations   []jsonInv       `json:"invocations"`
	Findings      []jsonFinding   `json:"findings"`
	SkippedChecks []jsonSkipCheck `json:"skipped_checks"`
}

type jsonSource struct {
	Surface  string `json:"surface"`
	Location string `json:"location"`
	Endpoint string `json:"endpoint"`
	Recorded *struct {
		Surface     string `json:"surface"`
		Producer    string `json:"producer"`
		CapturedAt  string `json:"captured_at"`
		Truncated   bool   `json:"truncated"`
		Description string `json:"description"`
	} `json:"recorded"`
}

type jsonRunInfo struct {
	ID               string `json:"id"`
	AppID            string `json:"app_id"`
	Workflow         string `json:"workflow"`
	Status           string `json:"status"`
	StatusNormalized string `json:"status_normalized"`
	CreatedAt        string `json:"created_at"`
	UpdatedAt        string `json:"updated_at"`
	ExecutionID      string `json:"execution_id"`
	Project          *struct {
		Name string `json:"name"`
		UID  string `json:"uid"`
	} `json:"project"`
	DataSharing *struct {
		Level    *string `json:"level"`
		Filtered *bool   `json:"filtered"`
		Inferred *bool   `json:"inferred"`
	} `json:"data_sharing"`
	Input          *jsonPayload `json:"input"`
	Output         *jsonPayload `json:"output"`
	CustomStatus   *jsonPayload `json:"custom_status"`
	FailureMessage string       `json:"failure_message"`
	ParentID       string       `json:"parent_id"`
	RerunOf        *struct {
		ID          string `json:"id"`
		FromEventID *int   `json:"from_event_id"`
	} `json:"rerun_of"`
	Link string `json:"link"` // run lists only
}

type jsonPayload struct {
	Field string  `json:"field"`
	State string  `json:"state"`
	Value *string `json:"value"`
}

type jsonFailure struct {
	Type         string       `json:"type"`
	Message      string       `json:"message"`
	StackTrace   string       `json:"stack_trace"`
	NonRetriable *bool        `json:"non_retriable"`
	Inner        *jsonFailure `json:"inner"`
}

type jsonEvent struct {
	Index           *int   `json:"index"`
	EventID         *int   `json:"event_id"`
	Type            string `json:"type"`
	Timestamp       string `json:"timestamp"`
	Name            string `json:"name"`
	ScheduledID     *int   `json:"scheduled_id"`
	TaskExecutionID string `json:"task_execution_id"`
	ExecutionID     string `json:"execution_id"`
	TimerID         *int   `json:"timer_id"`
	FireAt          string `json:"fire_at"`
	Origin          *struct {
		Kind string `json:"kind"`
		ID   string `json:"id"`
	} `json:"origin"`
	InstanceID string       `json:"instance_id"`
	Failure    *jsonFailure `json:"failure"`
	Router     *struct {
		Source string `json:"source"`
		Target string `json:"target"`
	} `json:"router"`
	Payload               *jsonPayload `json:"payload"`
	WireType              string       `json:"wire_type"`
	Raw                   string       `json:"raw"`
	WorkflowStatus        string       `json:"workflow_status"`
	RetryParentInstanceID string       `json:"retry_parent_instance_id"`
	RerunParentInstanceID string       `json:"rerun_parent_instance_id"`
	ParentInstanceID      string       `json:"parent_instance_id"`
	ParentName            string       `json:"parent_name"`
	StallReason           string       `json:"stall_reason"`
	StallDescription      string       `json:"stall_description"`
	Version               string       `json:"version"`
}

type jsonWithheld struct {
	EventIndex *int   `json:"event_index"`
	EventID    *int   `json:"event_id"`
	Field      string `json:"field"`
	Reason     string `json:"reason"`
	Level      string `json:"level"`
}

type jsonInv struct {
	Kind             string        `json:"kind"`
	Name             string        `json:"name"`
	Key              string        `json:"key"`
	LinkRule         string        `json:"link_rule"`
	Class            string        `json:"class"`
	Outcome          string        `json:"outcome"`
	Severity         string        `json:"severity"`
	Start            string        `json:"start"`
	End              string        `json:"end"`
	DurationMS       float64       `json:"duration_ms"`
	ReusedInstanceID bool          `json:"reused_instance_id"`
	OpenRetry        *jsonTimer    `json:"open_retry"`
	Findings         []int         `json:"findings"`
	Attempts         []jsonAttempt `json:"attempts"`
}

type jsonAttempt struct {
	Number             *int       `json:"number"`
	ScheduledEvent     *int       `json:"scheduled_event"`
	ScheduledID        *int       `json:"scheduled_id"`
	ExecutionID        string     `json:"execution_id"`
	InstanceID         string     `json:"instance_id"`
	Link               string     `json:"link"`
	Outcome            string     `json:"outcome"`
	OutcomeEvent       *int       `json:"outcome_event"`
	OutcomeLink        string     `json:"outcome_link"`
	OutcomeReason      string     `json:"outcome_reason"`
	ExtraOutcomeEvents []int      `json:"extra_outcome_events"`
	Start              string     `json:"start"`
	End                string     `json:"end"`
	DurationMS         float64    `json:"duration_ms"`
	BackoffMS          float64    `json:"backoff_ms"`
	ErrorType          string     `json:"error_type"`
	ErrorMessage       string     `json:"error_message"`
	NonRetriable       bool       `json:"non_retriable"`
	FailureClass       string     `json:"failure_class"`
	RetryTimer         *jsonTimer `json:"retry_timer"`
}

type jsonTimer struct {
	CreatedEvent *int   `json:"created_event"`
	FiredEvent   *int   `json:"fired_event"`
	FireAt       string `json:"fire_at"`
	Link         string `json:"link"`
}

type jsonFinding struct {
	ID              string `json:"id"`
	Severity        string `json:"severity"`
	Confidence      string `json:"confidence"`
	Activity        string `json:"activity"`
	Invocation      string `json:"invocation"`
	InvocationIndex *int   `json:"invocation_index"`
	Attempts        []int  `json:"attempts"`
	Evidence        []struct {
		Event   *int   `json:"event"`
		EventID *int   `json:"event_id"`
		Fact    string `json:"fact"`
	} `json:"evidence"`
	Explanation string `json:"explanation"`
	Advice      string `json:"advice"`
}

type jsonSkipCheck struct {
	Check      string `json:"check"`
	Invocation string `json:"invocation"`
	Reason     string `json:"reason"`
	Level      string `json:"level"`
}

type jsonFleet struct {
	Query struct {
		Project  string `json:"project"`
		AppID    string `json:"app_id"`
		Workflow string `json:"workflow"`
		Status   string `json:"status"`
		Since    string `json:"since"`
		Until    string `json:"until"`
	} `json:"query"`
	RunsListed       *int   `json:"runs_listed"`
	Partial          bool   `json:"partial"`
	PartialReason    string `json:"partial_reason"`
	RunsScanned      *int   `json:"runs_scanned"`
	RunsWithFindings *int   `json:"runs_with_findings"`
	Concurrency      int    `json:"concurrency"`
	Activities       []struct {
		Name      string         `json:"name"`
		Findings  int            `json:"findings"`
		Runs      int            `json:"runs"`
		Worst     string         `json:"worst"`
		ByFinding map[string]int `json:"by_finding"`
	} `json:"activities"`
	WorstRuns []struct {
		ID       string `json:"id"`
		AppID    string `json:"app_id"`
		Workflow string `json:"workflow"`
		Status   string `json:"status"`
		Worst    string `json:"worst"`
		Findings int    `json:"findings"`
		Link     string `json:"link"`
	} `json:"worst_runs"`
	NotRead []struct {
		ID    string `json:"id"`
		AppID string `json:"app_id"`
		Error string `json:"error"`
	} `json:"not_read"`
}

// decodeStrict decodes one JSON value with unknown keys forbidden and
// nothing after it.
func decodeStrict(t *testing.T, data []byte, v any) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		t.Fatalf("output does not match the documented shape: %v\n%.2000s", err, data)
	}
	if _, err := dec.Token(); err != io.EOF {
		t.Fatalf("trailing data after the document: %v", err)
	}
}

// checkRequired fails on a run object missing a key the documentation
// always writes.
func checkRequired(t *testing.T, r *jsonRun) {
	t.Helper()
	if r.Source.Surface == "" || r.Format == "" || r.Lossy == nil || r.TimeResMS == nil || r.Run.ID == "" || r.Run.DataSharing == nil ||
		r.Run.DataSharing.Level == nil || r.Run.DataSharing.Filtered == nil || r.Run.DataSharing.Inferred == nil ||
		r.Run.Input == nil || r.Run.Output == nil || r.Run.StatusNormalized == "" ||
		r.Events == nil || r.Withheld == nil || r.Invocations == nil || r.Findings == nil || r.SkippedChecks == nil {
		t.Errorf("run object lacks a required key: %+v", r)
	}
	for i, e := range r.Events {
		if e.Index == nil || *e.Index != i || e.EventID == nil || e.Type == "" || e.Timestamp == "" {
			t.Errorf("event %d lacks index, event_id, type or timestamp: %+v", i, e)
		}
		if e.Payload != nil && (e.Payload.Field == "" || e.Payload.State == "") {
			t.Errorf("event %d payload lacks field or state", i)
		}
	}
	for _, inv := range r.Invocations {
		if inv.Kind == "" || inv.Name == "" || inv.Key == "" || inv.LinkRule == "" || inv.Class == "" || inv.Outcome == "" || len(inv.Attempts) == 0 {
			t.Errorf("invocation lacks a required key: %+v", inv)
		}
		for _, a := range inv.Attempts {
			if a.Number == nil || a.ScheduledEvent == nil || a.ScheduledID == nil || a.Link == "" || a.Outcome == "" {
				t.Errorf("attempt lacks a required key: %+v", a)
			}
		}
	}
	for _, f := range r.Findings {
		if f.ID == "" || f.Severity == "" || f.Confidence == "" || f.Activity == "" || f.Attempts == nil || f.Evidence == nil {
			t.Errorf("finding lacks a required key: %+v", f)
		}
	}
}

func TestWriteJSONShape(t *testing.T) {
	a := sampleAnalysis()
	out := render(t, func(b *bytes.Buffer) error { return WriteJSON(b, []Analysis{a}, Options{}) })
	var doc jsonDoc
	decodeStrict(t, []byte(out), &doc)
	if len(doc.Runs) != 1 {
		t.Fatalf("got %d runs, want 1", len(doc.Runs))
	}
	r := &doc.Runs[0]
	checkRequired(t, r)
	if r.Run.ID != "welcome-u-20931" || r.Run.AppID != "notifier" || r.Run.Status != "COMPLETED" || r.Run.StatusNormalized != "completed" ||
		r.Run.CreatedAt != "2026-08-21T14:02:11Z" || r.Run.UpdatedAt != "2026-08-21T14:02:27.12Z" || r.Run.Project.Name != "default" {
		t.Errorf("run facts are wrong: %+v", r.Run)
	}
	if *r.Run.DataSharing.Level != "metadata" || !*r.Run.DataSharing.Filtered || *r.Run.DataSharing.Inferred {
		t.Errorf("data sharing is wrong: %+v", r.Run.DataSharing)
	}
	if r.Run.Input.State != "withheld" || r.Run.Input.Value != nil {
		t.Errorf("run input = %+v, want withheld with no value", r.Run.Input)
	}
	if r.Link != "https://catalyst.diagrid.io/workflows/notifier/welcome-u-20931?project=default" {
		t.Errorf("link = %q", r.Link)
	}
	if len(r.Events) != 15 || len(r.Withheld) != 7 {
		t.Fatalf("got %d events and %d withheld, want 15 and 7", len(r.Events), len(r.Withheld))
	}
	if w := r.Withheld[0]; *w.EventIndex != 0 || *w.EventID != -1 || w.Field != "input" || w.Level != "metadata" ||
		!strings.Contains(w.Reason, "data-sharing level (metadata)") {
		t.Errorf("first withheld entry = %+v", w)
	}
	// taskCompleted points at eventId 0: scheduled_id is written although it is 0.
	if e := r.Events[3]; e.ScheduledID == nil || *e.ScheduledID != 0 || e.Payload == nil || e.Payload.Field != "output" || e.Payload.State != "withheld" {
		t.Errorf("event 3 = %+v", e)
	}
	if e := r.Events[8]; e.Origin == nil || e.Origin.Kind != "activityRetry" || e.Origin.ID != "b7e4c019-5a2d-4f63-9e8b-2d1f6c7a3e95" ||
		e.FireAt != "2026-08-21T14:02:26.368Z" || *e.EventID != 2 {
		t.Errorf("timer event = %+v", e)
	}
	if e := r.Events[1]; e.ScheduledID != nil || e.TimerID != nil || e.Payload != nil || e.Name != "" {
		t.Errorf("workflowStarted carries absent values: %+v", e)
	}
	if e := r.Events[6]; e.Failure == nil || e.Failure.Type != "*url.Error" || e.Failure.NonRetriable == nil {
		t.Errorf("failure = %+v", e.Failure)
	}
	inv := r.Invocations[1]
	if inv.Name != "SendEmail" || inv.Severity != "high" || len(inv.Attempts) != 2 || inv.Findings[0] != 0 {
		t.Errorf("invocation = %+v", inv)
	}
	a2 := inv.Attempts[1]
	if *a2.Number != 2 || *a2.ScheduledEvent != 11 || *a2.ScheduledID != 3 || *a2.OutcomeEvent != 12 || a2.DurationMS != 664.2 ||
		a2.BackoffMS != 5073.4 || a2.RetryTimer == nil || *a2.RetryTimer.CreatedEvent != 8 || *a2.RetryTimer.FiredEvent != 9 || a2.RetryTimer.Link != "by-origin" {
		t.Errorf("attempt 2 = %+v", a2)
	}
	if a1 := inv.Attempts[0]; a1.ErrorType != "*url.Error" || a1.FailureClass != "transient-ambiguous" || a1.BackoffMS != 0 || a1.RetryTimer != nil {
		t.Errorf("attempt 1 = %+v", a1)
	}
	f := r.Findings[0]
	if f.ID != "duplicate-side-effect" || f.Severity != "high" || f.Confidence != "probable" || len(f.Evidence) != 2 ||
		*f.Evidence[1].Event != 11 || *f.Evidence[1].EventID != 3 || *f.InvocationIndex != 1 {
		t.Errorf("finding = %+v", f)
	}
	if len(r.SkippedChecks) != 1 || r.SkippedChecks[0].Level != "metadata" {
		t.Errorf("skipped checks = %+v", r.SkippedChecks)
	}
}

// TestWriteJSONRoundTrips checks that every hostile string survives the
// trip through JSON unchanged (invalid UTF-8 becomes U+FFFD per byte).
func TestWriteJSONRoundTrips(t *testing.T) {
	for _, s := range append(hostiletest.Corpus(false), hostiletest.Sample{Name: "joined", Value: hostiletest.Joined()}) {
		a := hostileAnalysis(s.Value)
		out := render(t, func(b *bytes.Buffer) error { return WriteJSON(b, []Analysis{a}, Options{}) })
		var doc jsonDoc
		decodeStrict(t, []byte(out), &doc)
		want := string([]rune(s.Value))
		r := doc.Runs[0]
		checks := map[string][2]string{
			"run.id":          {r.Run.ID, want + "id"},
			"run.workflow":    {r.Run.Workflow, want + "wf"},
			"run.failure":     {r.Run.FailureMessage, want + "failure"},
			"run.input":       {deref(r.Run.Input.Value), want + "in"},
			"event name":      {r.Events[2].Name, want + "name2"},
			"present payload": {deref(r.Events[0].Payload.Value), want + "payload"},
			"quoted payload":  {deref(r.Events[3].Payload.Value), want + "quoted"},
			"failure message": {r.Events[6].Failure.Message, want + "msg"},
			"stack trace":     {r.Events[6].Failure.StackTrace, want + "stack\n\tat x"},
			"inner failure":   {r.Events[6].Failure.Inner.Message, want + "innermsg"},
			"origin":          {r.Events[8].Origin.ID, want + "origin"},
			"raw":             {r.Events[14].Raw, want + "raw"},
			"finding fact":    {r.Findings[0].Evidence[0].Fact, want + "1.50s" + "fact" + want},
			"advice":          {r.Findings[0].Advice, want + "advice"},
			"invocation key":  {r.Invocations[0].Key, want + "key"},
			"skipped reason":  {r.SkippedChecks[0].Reason, want + "reason"},
		}
		for name, c := range checks {
			if c[0] != c[1] {
				t.Errorf("%s: %s did not round-trip: got %.60q, want %.60q", s.Name, name, c[0], c[1])
			}
		}
		if v, bad := hostiletest.FindUnsafe(out, false); bad {
			t.Errorf("%s: JSON carries raw %U at %d", s.Name, v.Rune, v.Offset)
		}
	}
}

// TestWriteJSONLongStrings writes a 1 MiB name, message and payload.
func TestWriteJSONLongStrings(t *testing.T) {
	long := strings.Repeat("A", 1<<20)
	a := sampleAnalysis()
	e := a.History.At(6)
	e.Failure = &catalyst.Failure{Message: long}
	a.History.At(5).Name = long
	a.History.At(2).Payload = catalyst.PresentPayload(long)
	out := render(t, func(b *bytes.Buffer) error { return WriteJSON(b, []Analysis{a}, Options{}) })
	var doc jsonDoc
	decodeStrict(t, []byte(out), &doc)
	ev := doc.Runs[0].Events
	if ev[6].Failure.Message != long || ev[5].Name != long || deref(ev[2].Payload.Value) != long {
		t.Errorf("a 1 MiB string did not round-trip")
	}
}

func deref(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}

func TestWriteJSONLOneRunPerLine(t *testing.T) {
	a, b := sampleAnalysis(), sampleAnalysis()
	b.History.Run.ID = "second"
	out := render(t, func(w *bytes.Buffer) error { return WriteJSONL(w, []Analysis{a, b}, Options{}) })
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 1<<20)
	var ids []string
	for sc.Scan() {
		var r jsonRun
		decodeStrict(t, sc.Bytes(), &r)
		checkRequired(t, &r)
		ids = append(ids, r.Run.ID)
	}
	if strings.Join(ids, ",") != "welcome-u-20931,second" {
		t.Errorf("lines hold runs %v", ids)
	}
}

func TestJSONStreamWithFleetSummary(t *testing.T) {
	for _, lines := range []bool{false, true} {
		var buf bytes.Buffer
		fleet := NewFleet(catalyst.RunQuery{Project: "default", Status: catalyst.StatusFailed}, 0)
		var s *JSONStream
		if lines {
			s = NewJSONLStream(&buf, Options{})
		} else {
			s = NewJSONStream(&buf, Options{})
		}
		a := sampleAnalysis()
		s.Run(a)
		fleet.Add(a, "")
		fleet.Listed = 2
		fleet.AddFailure(catalyst.Run{ID: "gone", AppID: "notifier"}, io.ErrUnexpectedEOF)
		if err := s.Close(fleet); err != nil {
			t.Fatal(err)
		}
		var summary *jsonFleet
		if lines {
			parts := strings.Split(strings.TrimSpace(buf.String()), "\n")
			if len(parts) != 2 {
				t.Fatalf("JSONL has %d lines, want 2", len(parts))
			}
			var last struct {
				Summary *jsonFleet `json:"summary"`
			}
			decodeStrict(t, []byte(parts[1]), &last)
			summary = last.Summary
		} else {
			var doc jsonDoc
			decodeStrict(t, buf.Bytes(), &doc)
			summary = doc.Summary
		}
		if summary == nil || *summary.RunsListed != 2 || *summary.RunsScanned != 1 || *summary.RunsWithFindings != 1 ||
			len(summary.Activities) != 1 || summary.Activities[0].ByFinding["duplicate-side-effect"] != 1 ||
			len(summary.WorstRuns) != 1 || summary.WorstRuns[0].Link == "" || len(summary.NotRead) != 1 ||
			summary.NotRead[0].Error != "unexpected EOF" || summary.Query.Status != "failed" {
			t.Errorf("lines=%v: summary = %+v", lines, summary)
		}
	}
}

func TestRunListJSON(t *testing.T) {
	a := sampleAnalysis()
	list := catalyst.RunList{Runs: []catalyst.Run{a.History.Run, {ID: "x y", AppID: "notifier"}}, Partial: true, Reason: "stopped after 50 pages"}
	out := render(t, func(b *bytes.Buffer) error { return WriteRunListJSON(b, list, Options{}) })
	var doc struct {
		Runs    []jsonRunInfo `json:"runs"`
		Partial bool          `json:"partial"`
		Reason  string        `json:"reason"`
	}
	decodeStrict(t, []byte(out), &doc)
	if len(doc.Runs) != 2 || !doc.Partial || doc.Reason != list.Reason {
		t.Fatalf("run list = %+v", doc)
	}
	if doc.Runs[0].Link == "" || doc.Runs[1].Link != "" {
		t.Errorf("links: %q (want one) and %q (want none: the id is not plain)", doc.Runs[0].Link, doc.Runs[1].Link)
	}
}

// failingWriter fails after n bytes.
type failingWriter struct{ n int }

func (w *failingWriter) Write(p []byte) (int, error) {
	if len(p) > w.n {
		return 0, io.ErrShortWrite
	}
	w.n -= len(p)
	return len(p), nil
}

func TestWriteErrorsAreReturned(t *testing.T) {
	a := sampleAnalysis()
	writers := map[string]func(io.Writer) error{
		"json":     func(w io.Writer) error { return WriteJSON(w, []Analysis{a}, Options{}) },
		"text":     func(w io.Writer) error { return WriteText(w, a, Options{Events: true}) },
		"markdown": func(w io.Writer) error { return WriteMarkdown(w, []Analysis{a}, Options{}) },
	}
	for name, write := range writers {
		if err := write(&failingWriter{n: 10}); err == nil {
			t.Errorf("%s: a failing writer gave no error", name)
		}
	}
}
