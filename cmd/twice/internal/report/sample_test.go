package report

import (
	"encoding/json"
	"strconv"
	"time"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/detect"
)

// t0 is the sample run's start.
var t0 = time.Date(2026, 8, 21, 14, 2, 11, 0, time.UTC)

// testNow is the injected clock of every test.
var testNow = func() time.Time { return time.Date(2026, 8, 21, 14, 5, 0, 0, time.UTC) }

func at(d time.Duration) catalyst.Stamp { return catalyst.StampOf(t0.Add(d)) }

// sampleAnalysis is research/dapr-cli-json.md Example 2 as Catalyst returns
// it at the metadata level: SendEmail times out, the retry succeeds; every
// payload is withheld. The report is what detect would say about it.
func sampleAnalysis() Analysis {
	run := catalyst.Run{
		ID: "welcome-u-20931", AppID: "notifier", Workflow: "WelcomeWorkflow", Status: "COMPLETED",
		CreatedAt: t0, UpdatedAt: t0.Add(16120 * time.Millisecond),
		ExecutionID: "3e9b1c55-6f0a-4d2e-8b71-0c4a9e6d2f13",
		Project:     catalyst.Project{Name: "default"},
		Provenance:  catalyst.Provenance{Surface: catalyst.SurfaceFile, Location: "welcome.json"},
	}
	router := &catalyst.Router{Source: "notifier"}
	render, send := "0f6a2d4e-91c3-4b8a-a5d7-3c2e1b9f8a60", "b7e4c019-5a2d-4f63-9e8b-2d1f6c7a3e95"
	fail := &catalyst.Failure{Type: "*url.Error", Message: `Post "https://mail-api.example.com/v3/send": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`}
	h := catalyst.NewHistory(run,
		catalyst.Event{Type: catalyst.EventExecutionStarted, ID: -1, Name: "WelcomeWorkflow", InstanceID: run.ID, ExecutionID: run.ExecutionID, Timestamp: at(0)},
		catalyst.Event{Type: catalyst.EventWorkflowStarted, ID: -1, Timestamp: at(12400 * time.Microsecond)},
		catalyst.Event{Type: catalyst.EventTaskScheduled, ID: 0, Name: "RenderTemplate", ExecutionID: render, Router: router, Timestamp: at(35700 * time.Microsecond)},
		catalyst.Event{Type: catalyst.EventTaskCompleted, ID: -1, ScheduledID: 0, ExecutionID: render, Router: router, Timestamp: at(293400 * time.Microsecond)},
		catalyst.Event{Type: catalyst.EventWorkflowStarted, ID: -1, Timestamp: at(307 * time.Millisecond)},
		catalyst.Event{Type: catalyst.EventTaskScheduled, ID: 1, Name: "SendEmail", ExecutionID: send, Router: router, Timestamp: at(324500 * time.Microsecond)},
		catalyst.Event{Type: catalyst.EventTaskFailed, ID: -1, ScheduledID: 1, ExecutionID: send, Failure: fail, Router: router, Timestamp: at(10354500 * time.Microsecond)},
		catalyst.Event{Type: catalyst.EventWorkflowStarted, ID: -1, Timestamp: at(10367700 * time.Microsecond)},
		catalyst.Event{Type: catalyst.EventTimerCreated, ID: 2, Name: "SendEmail-retry", FireAt: at(15368 * time.Millisecond), Origin: catalyst.OriginActivityRetry, OriginID: send, Router: router, Timestamp: at(10388 * time.Millisecond)},
		catalyst.Event{Type: catalyst.EventTimerFired, ID: -1, TimerID: 2, FireAt: at(15368 * time.Millisecond), Timestamp: at(15398 * time.Millisecond)},
		catalyst.Event{Type: catalyst.EventWorkflowStarted, ID: -1, Timestamp: at(15409500 * time.Microsecond)},
		catalyst.Event{Type: catalyst.EventTaskScheduled, ID: 3, Name: "SendEmail", ExecutionID: send, Router: router, Timestamp: at(15427900 * time.Microsecond)},
		catalyst.Event{Type: catalyst.EventTaskCompleted, ID: -1, ScheduledID: 3, ExecutionID: send, Router: router, Timestamp: at(16092100 * time.Microsecond)},
		catalyst.Event{Type: catalyst.EventWorkflowStarted, ID: -1, Timestamp: at(16106300 * time.Microsecond)},
		catalyst.Event{Type: catalyst.EventExecutionCompleted, ID: 4, Router: router, Timestamp: at(16120600 * time.Microsecond),
			Detail: &catalyst.EventDetail{WorkflowStatus: "COMPLETED"}},
	)
	h.Format = catalyst.FormatCatalyst
	h.ApplyDataSharing(catalyst.DataSharing{Filtered: true, Level: catalyst.LevelMetadata})

	rep := &detect.Report{
		Invocations: []detect.Invocation{
			{
				Kind: detect.KindActivity, Name: "RenderTemplate", Key: render, LinkRule: detect.LinkFirst,
				Class: detect.ClassUnknown, Outcome: detect.OutcomeCompleted, Start: at(35700 * time.Microsecond), End: at(293400 * time.Microsecond),
				Attempts: []detect.Attempt{{Number: 1, Scheduled: 2, ScheduledID: 0, ExecutionID: render, Link: detect.LinkFirst,
					Outcome: detect.OutcomeCompleted, OutcomeEvent: 3, Start: at(35700 * time.Microsecond), End: at(293400 * time.Microsecond)}},
			},
			{
				Kind: detect.KindActivity, Name: "SendEmail", Key: send, LinkRule: detect.LinkByID,
				Class: detect.ClassSideEffect, Outcome: detect.OutcomeCompleted, Start: at(324500 * time.Microsecond), End: at(16092100 * time.Microsecond),
				Findings: []int{0},
				Attempts: []detect.Attempt{
					{Number: 1, Scheduled: 5, ScheduledID: 1, ExecutionID: send, Link: detect.LinkFirst, Outcome: detect.OutcomeFailed, OutcomeEvent: 6,
						Start: at(324500 * time.Microsecond), End: at(10354500 * time.Microsecond), Failure: fail, FailureClass: detect.FailureAmbiguous},
					{Number: 2, Scheduled: 11, ScheduledID: 3, ExecutionID: send, Link: detect.LinkByID, Outcome: detect.OutcomeCompleted, OutcomeEvent: 12,
						Start: at(15427900 * time.Microsecond), End: at(16092100 * time.Microsecond), BackoffBefore: 5073400 * time.Microsecond,
						RetryTimer: &detect.RetryTimer{Created: 8, Fired: 9, FireAt: at(15368 * time.Millisecond), Link: detect.LinkByOrigin}},
				},
			},
		},
		Findings: []detect.Finding{{
			ID: detect.FindingDuplicateSideEffect, Severity: detect.SeverityHigh, Confidence: detect.ConfidenceProbable,
			Activity: "SendEmail", Invocation: send, InvocationIndex: 1, Attempts: []int{1, 2},
			Evidence: []detect.Evidence{
				{Event: 6, EventID: -1, Fact: spanFact("attempt 1 (event 5) failed after ", 10030*time.Millisecond,
					": context deadline exceeded — the email may have been sent")},
				{Event: 11, EventID: 3, Fact: detect.Words("attempt 2 (event 11) ran and completed")},
			},
			Explanation: "SendEmail timed out and was run again: the first message may have been sent, so the user may have two.",
			Advice:      "Dedupe key recorded in the same transaction as the send, or a provider-side key.",
		}},
		Skipped: []detect.SkippedCheck{{Check: "identical inputs", Invocation: send,
			Reason: "payloads withheld at the metadata data-sharing level", Level: catalyst.LevelMetadata}},
	}
	return Analysis{History: h, Report: rep}
}

// hostile replaces every string a history or a report can carry with s
// (suffixed, so fields stay distinguishable).
func hostileAnalysis(s string) Analysis {
	a := sampleAnalysis()
	h := a.History
	r := &h.Run
	r.ID, r.AppID, r.Workflow, r.ExecutionID = s+"id", s+"app", s+"wf", s+"exec"
	r.Status = catalyst.Status(s + "status")
	r.FailureMessage = s + "failure"
	r.ParentID = s + "parent"
	r.Project = catalyst.Project{Name: s + "project", UID: s + "uid"}
	r.Provenance = catalyst.Provenance{Surface: catalyst.SurfaceCatalystMCP, Location: s + "loc", Endpoint: s + "host",
		Recorded: &catalyst.Recording{Producer: s + "producer", Description: s + "description", CapturedAt: t0}}
	r.Input, r.Output, r.CustomStatus = catalyst.PresentPayload(s+"in"), catalyst.PresentPayload(s+"out"), catalyst.PresentPayload(s+"cs")
	r.DataSharing.Level = catalyst.Level(s + "level")
	for i, e := range h.All() {
		e.Name = s + "name" + strconv.Itoa(i)
		if e.ExecutionID != "" {
			e.ExecutionID = s + "exec"
		}
		e.InstanceID = s + "instance"
		e.OriginID = s + "origin"
		if e.Type.PayloadField() != "" {
			if i%2 == 0 {
				e.Payload = catalyst.PresentPayload(s + "payload")
			} else {
				e.Payload = catalyst.QuotedPayload(jsonLiteral(s + "quoted"))
			}
		}
		if e.Failure != nil {
			e.Failure = &catalyst.Failure{Type: s + "type", Message: s + "msg", StackTrace: s + "stack\n\tat x",
				Inner: &catalyst.Failure{Type: s + "inner", Message: s + "innermsg"}}
		}
		if e.Router != nil {
			e.Router = &catalyst.Router{Source: s + "src", Target: s + "dst"}
		}
		e.Detail = &catalyst.EventDetail{TypeName: s + "wire", Raw: s + "raw", WorkflowStatus: catalyst.Status(s), ParentInstanceID: s + "pid",
			ParentName: s + "pname", StallReason: s + "sr", StallDescription: s + "sd", Version: s + "v",
			RetryParentInstanceID: s + "rp", RerunParentInstanceID: s + "rr"}
	}
	h.Append(catalyst.Event{Type: catalyst.EventUnknown, ID: -1, Name: s + "unknown",
		Detail: &catalyst.EventDetail{TypeName: s + "Mystery", Raw: `{"x":"` + s + `"}`}, Timestamp: at(17 * time.Second)})
	h.Append(catalyst.Event{Type: catalyst.EventExecutionStalled, ID: -1,
		Detail: &catalyst.EventDetail{StallReason: s + "reason", StallDescription: s + "desc"}, Timestamp: at(18 * time.Second)})
	rep := a.Report
	for i := range rep.Invocations {
		inv := &rep.Invocations[i]
		inv.Name, inv.Key = s+"invname", s+"key"
		for j := range inv.Attempts {
			att := &inv.Attempts[j]
			att.ExecutionID, att.InstanceID = s+"aexec", s+"ainst"
			if att.Failure != nil {
				att.Failure = &catalyst.Failure{Type: s + "atype", Message: s + "amsg"}
			}
		}
	}
	for i := range rep.Findings {
		f := &rep.Findings[i]
		f.Activity, f.Invocation, f.Explanation, f.Advice = s+"activity", s+"inv", s+"explanation", s+"advice"
		for j := range f.Evidence {
			// The span between two hostile halves: its words go in between.
			f.Evidence[j].Fact = spanFact(s, 1500*time.Millisecond, "fact"+s)
		}
	}
	for i := range rep.Skipped {
		rep.Skipped[i].Check, rep.Skipped[i].Reason, rep.Skipped[i].Invocation = s+"check", s+"reason", s+"inv"
	}
	return a
}

// jsonLiteral returns s as a JSON string literal, as a decoder keeps a
// payload in its wire form.
func jsonLiteral(s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// spanFact is a fact stating a span d between exact stamps, between the
// words before and after.
func spanFact(before string, d time.Duration, after string) detect.Fact {
	return detect.Fact{Text: before + after, At: int32(len(before)), Kind: detect.MeasureSpan, Value: int64(d)}
}
