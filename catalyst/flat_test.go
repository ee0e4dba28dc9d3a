package catalyst

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

func TestFlatBareList(t *testing.T) {
	h, err := decodeFile(t, "catalyst-flat-list.json")
	if err != nil {
		t.Fatal(err)
	}
	checkEvents(t, h, []string{
		`ExecutionStarted id=-1 ts=2026-08-22T02:00:04Z name=NightlyReconcile exec=ex-1 inst=recon-2026-08-22 payload=withheld:`,
		`TaskScheduled id=5 ts=2026-08-22T02:00:05Z name=charge_card exec=a1b2 payload=withheld: router=recon->`,
		`TaskFailed id=-1 ts=2026-08-22T02:00:06Z sched=5 exec=a1b2 failure0=ConnectionError|timeout|"  File \"/app/a.py\", line 41"|false`,
		`TimerCreated id=7 ts=2026-08-22T02:00:06.5Z name=charge_card-retry fire=2026-08-22T02:00:11Z origin=activityRetry:a1b2`,
		`TimerFired id=-1 ts=2026-08-22T02:00:11.1Z timer=7 fire=2026-08-22T02:00:11Z`,
		`TaskScheduled id=9 ts=2026-08-22T02:00:11.2Z name=charge_card exec=a1b2 payload=withheld:`,
		`TaskCompleted id=-1 ts=2026-08-22T02:00:12Z sched=9 exec=a1b2 payload=withheld:`,
	})
	checkRunIDs(t, h, Run{ID: "recon-2026-08-22", AppID: "recon", Workflow: "NightlyReconcile", Status: StatusRunning, ExecutionID: "ex-1"})
	if h.Format != FormatCatalyst || h.Lossy {
		t.Errorf("format %s lossy %v", h.Format, h.Lossy)
	}
	// No level reported, and no payload anywhere: metadata, inferred, and
	// the words say so.
	if ds := h.Run.DataSharing; !ds.Filtered || ds.Level != LevelMetadata || !ds.Inferred {
		t.Errorf("data sharing %+v", ds)
	}
	if n := len(h.Withheld()); n != 4 {
		t.Errorf("%d withheld payloads, want 4 (ES input, two task inputs, one output)", n)
	}
	if !strings.Contains(h.Run.DataSharing.PayloadText(h.At(1).Payload), "(metadata, inferred)") {
		t.Errorf("withheld text %q", h.Run.DataSharing.PayloadText(h.At(1).Payload))
	}
	if h.Run.Input.State != PayloadWithheld {
		t.Errorf("run input %v, want withheld", h.Run.Input.State)
	}
}

func TestFlatEnvelopeWithRunMetadata(t *testing.T) {
	h, err := decodeFile(t, "catalyst-flat-envelope.json")
	if err != nil {
		t.Fatal(err)
	}
	checkEvents(t, h, []string{
		`ExecutionStarted id=-1 ts=2026-08-22T02:00:04Z name=NightlyReconcile payload=withheld: parent=nightly-root parentName=Root`,
		// "kind": "timer_created" (snake_case) and an external-event origin.
		`TimerCreated id=0 ts=2026-08-22T02:00:05Z name=approval fire=2026-08-22T02:10:05Z origin=externalEvent:approval`,
		`TimerCreated id=1 ts=2026-08-22T02:00:05Z fire=2026-08-22T02:01:05Z origin=createTimer:`,
		`ChildWorkflowCreated id=2 ts=2026-08-22T02:00:06Z name=Settle inst=recon-2026-08-22:0002 payload=withheld: router=recon->settle retryParent=recon-2026-08-22:0000 rerunParent=recon-2026-08-21`,
		`TimerCreated id=3 ts=2026-08-22T02:00:07Z name=Settle-retry fire=2026-08-22T02:00:09Z origin=childWorkflowRetry:recon-2026-08-22:0000`,
		`ExecutionStalled id=-1 ts=2026-08-22T02:00:08Z stall=PAYLOAD_SIZE_EXCEEDED stallText=payload over 95% of 4194304 bytes`,
		// A raw JSON payload is kept as its text; a quoted one is unquoted.
		`TaskScheduled id=4 ts=2026-08-22T02:00:09Z name=audit payload=present:{"raw":true} version=2`,
		`TaskCompleted id=-1 ts=2026-08-22T02:00:10Z sched=4 payload=present:"done"`,
		`EntityLocked id=-1 ts=2026-08-22T02:00:11Z raw={"event_id":-1,"event_type":"EntityLocked","timestamp":"2026-08-22T02:00:11Z","lock_set":["a"]}`,
		`ExecutionCompleted id=5 ts=2026-08-22T02:04:41Z payload=withheld: status=ORCHESTRATION_STATUS_COMPLETED`,
	})
	// The reported status wins over the one the events imply.
	checkRunIDs(t, h, Run{ID: "recon-2026-08-22", AppID: "recon", Workflow: "NightlyReconcile", Status: "COMPLETED", ParentID: "nightly-root"})
	if h.Run.Project.Name != "default" {
		t.Errorf("project %+v", h.Run.Project)
	}
	if !h.Run.CreatedAt.Equal(time.Date(2026, 8, 22, 2, 0, 4, 0, time.UTC)) ||
		!h.Run.UpdatedAt.Equal(time.Date(2026, 8, 22, 2, 4, 41, 0, time.UTC)) {
		t.Errorf("times %v %v", h.Run.CreatedAt, h.Run.UpdatedAt)
	}
	if ds := h.Run.DataSharing; !ds.Filtered || ds.Level != LevelMetadata {
		t.Errorf("data sharing %+v", ds)
	}
	if got := h.Run.DataSharing.PayloadText(h.At(0).Payload); !strings.Contains(got, "(metadata)") {
		t.Errorf("withheld text %q does not name the level", got)
	}
	// unknownTopKey, lock_set, and EventId (keys match case-sensitively).
	if h.UnknownFields != 3 {
		t.Errorf("UnknownFields = %d, want 3", h.UnknownFields)
	}
}

func TestFlatFullLevelWithholdsNothing(t *testing.T) {
	h, err := decodeFile(t, "catalyst-flat-full.json")
	if err != nil {
		t.Fatal(err)
	}
	checkEvents(t, h, []string{
		`ExecutionStarted id=-1 ts=2026-08-22T02:00:04Z name=W inst=w-1 payload=present:{"a":1}`,
		`TaskScheduled id=0 ts=2026-08-22T02:00:05Z name=send_email exec=x1`,
		`TaskCompleted id=-1 ts=2026-08-22T02:00:06Z payload=empty:`,
	})
	if ds := h.Run.DataSharing; !ds.Filtered || ds.Level != LevelFull || len(h.Withheld()) != 0 {
		t.Errorf("data sharing %+v, %d withheld", ds, len(h.Withheld()))
	}
	if h.Run.AppID != "mailer" || h.Run.ID != "w-1" {
		t.Errorf("run %q %q", h.Run.AppID, h.Run.ID)
	}
}

func TestFlatTypeKeySpellings(t *testing.T) {
	for _, doc := range []string{
		`[{"event_type":"TaskScheduled"}]`, `[{"type":"taskScheduled"}]`, `[{"eventType":"task_scheduled"}]`,
		`[{"kind":"TASK_SCHEDULED"}]`, `{"history":[{"type":"TaskScheduled"}]}`,
		`{"events":[{"event_type":"TaskScheduled"}],"run_id":"r"}`,
	} {
		h, err := decodeSettled(doc)
		if err != nil {
			t.Errorf("%s: %v", doc, err)
			continue
		}
		if h.Format != FormatCatalyst || h.Len() != 1 || h.At(0).Type != EventTaskScheduled {
			t.Errorf("%s: format %s, %d events, type %v", doc, h.Format, h.Len(), h.At(0).Type)
		}
	}
}

func TestFlatPayloadForms(t *testing.T) {
	tests := []struct {
		value string
		state PayloadState
		text  string
	}{
		{`"{\"a\":1}"`, PayloadPresent, `{"a":1}`},
		{`{"a":1}`, PayloadPresent, `{"a":1}`},
		{`[1, 2]`, PayloadPresent, `[1, 2]`},
		{`42`, PayloadPresent, `42`},
		{`""`, PayloadEmpty, ``},
		{`null`, PayloadWithheld, ``},
	}
	for _, tt := range tests {
		doc := `[{"type":"TaskScheduled","input":` + tt.value + `}]`
		h, err := decodeSettled(doc)
		if err != nil {
			t.Errorf("%s: %v", tt.value, err)
			continue
		}
		p := h.At(0).Payload
		if p.State != tt.state || p.Text() != tt.text {
			t.Errorf("input %s: %v %q; want %v %q", tt.value, p.State, p.Text(), tt.state, tt.text)
		}
	}
}

func TestFlatPayloadFollowsTheType(t *testing.T) {
	// An input on a completion and an output on a schedule are not its
	// payload; the event's own field is absent. A payload is present, so
	// the level is full (inferred) and the absent one is none, not withheld.
	h, err := decodeSettled(`[
		{"type":"TaskCompleted","input":"\"in\"","result":"\"out\""},
		{"type":"TaskScheduled","output":"\"out\""},
		{"type":"TimerFired","input":"\"in\""}]`)
	if err != nil {
		t.Fatal(err)
	}
	if p := h.At(0).Payload; p.Text() != `"out"` {
		t.Errorf("completion payload %q", p.Text())
	}
	if p := h.At(1).Payload; p.State != PayloadNone {
		t.Errorf("schedule payload %v, want none", p.State)
	}
	if ds := h.Run.DataSharing; ds.Level != LevelFull || !ds.Inferred {
		t.Errorf("data sharing %+v, want full (inferred)", ds)
	}
	if p := h.At(2).Payload; p.State != PayloadNone {
		t.Errorf("timer payload %v, want none (timers carry none)", p.State)
	}
}

// TestDecodeOnlyRecordsTheLevel: a decode records the level the history
// reports (or a filtered unknown one) and withholds nothing, for Catalyst
// events bare and wrapped in an MCP result, and for Dapr CLI rows in an MCP
// result (which Catalyst filtered); settled, the same histories come out
// withheld.
func TestDecodeOnlyRecordsTheLevel(t *testing.T) {
	events := `[{"event_id":-1,"event_type":"ExecutionStarted","timestamp":"2026-08-20T09:00:00Z","name":"W"},` +
		`{"event_id":0,"event_type":"TaskScheduled","timestamp":"2026-08-20T09:00:01Z","name":"A"}]`
	mcp := func(doc string) string {
		text, _ := json.Marshal(doc)
		return `{"content":[{"type":"text","text":` + string(text) + `}]}`
	}
	for _, c := range []struct {
		name, doc string
		level     Level
	}{
		{"reported level", `{"run_id":"r","data_sharing_level":"metadata","history":` + events + `}`, LevelMetadata},
		{"no level", events, LevelUnknown},
		{"MCP result", mcp(events), LevelUnknown},
		{"Dapr CLI rows in an MCP result", mcp(`[{"namespace":"default","appID":"orders","play":0,"type":"ExecutionStarted",` +
			`"name":"W","timestamp":"2026-08-20T09:00:00Z","elapsed":"1ms","status":"RUNNING","details":null},` +
			`{"namespace":"default","appID":"orders","play":1,"type":"TaskScheduled","name":"A","eventId":0,` +
			`"timestamp":"2026-08-20T09:00:01Z","elapsed":"1ms","status":"RUNNING","details":null}]`), LevelUnknown},
	} {
		h, err := Decode(strings.NewReader(c.doc), DecodeOptions{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if ds := h.Run.DataSharing; !ds.Filtered || ds.Level != c.level || ds.Inferred {
			t.Errorf("%s: decoded data sharing %+v, want filtered, level %q, not inferred", c.name, ds, c.level)
		}
		if n := len(h.Withheld()); n != 0 || h.Run.Input.State == PayloadWithheld {
			t.Errorf("%s: the decode withheld %d payloads (run input %s)", c.name, n, h.Run.Input.State)
		}
		h.SettleDataSharing(LevelSources{})
		if n := len(h.Withheld()); n != 2 {
			t.Errorf("%s: settled, %d payloads withheld, want 2", c.name, n)
		}
	}
}

// TestFlatInnerFailures: Catalyst flattens TaskFailureDetails.innerFailure
// (dapr/durabletask-protobuf protos/orchestration.proto: innerFailure is a
// TaskFailureDetails, field 4) into failure_details_inner_failure_… keys,
// one "inner_failure_" per level. The chain decodes as protojson's does.
func TestFlatInnerFailures(t *testing.T) {
	flat := `[{"event_type":"TaskFailed","event_id":-1,"timestamp":"2026-08-22T02:00:06Z","task_scheduled_id":5,` +
		`"failure_details_error_type":"*errors.errorString","failure_details_error_message":"gateway 503",` +
		`"failure_details_inner_failure_error_type":"*net.OpError",` +
		`"failure_details_inner_failure_error_message":"read tcp: i/o timeout",` +
		`"failure_details_inner_failure_stack_trace":"net.(*conn).Read",` +
		`"failure_details_inner_failure_inner_failure_error_type":"syscall.Errno",` +
		`"failure_details_inner_failure_inner_failure_error_message":"ETIMEDOUT",` +
		`"failure_details_inner_failure_inner_failure_is_non_retriable":true}]`
	proto := `{"events":[{"eventId":-1,"timestamp":"2026-08-22T02:00:06Z","taskFailed":{"taskScheduledId":5,` +
		`"failureDetails":{"errorType":"*errors.errorString","errorMessage":"gateway 503","innerFailure":{` +
		`"errorType":"*net.OpError","errorMessage":"read tcp: i/o timeout","stackTrace":"net.(*conn).Read",` +
		`"innerFailure":{"errorType":"syscall.Errno","errorMessage":"ETIMEDOUT","isNonRetriable":true}}}}}]}`
	hf, err := Decode(strings.NewReader(flat), DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	hp, err := Decode(strings.NewReader(proto), DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if hf.UnknownFields != 0 {
		t.Errorf("%d unknown fields: the inner failures were counted, not decoded", hf.UnknownFields)
	}
	got, want := summary(hf.At(0)), summary(hp.At(0))
	if got != want || !strings.Contains(got, "ETIMEDOUT") {
		t.Errorf("flattened chain\n got  %s\n want %s", got, want)
	}
	dup := strings.Replace(flat, `}]`, `,"failure_details_inner_failure_error_type":"again"}]`, 1)
	if _, err := Decode(strings.NewReader(dup), DecodeOptions{}); err == nil || !strings.Contains(err.Error(), "twice") {
		t.Errorf("a repeated inner failure key: %v, want an error", err)
	}
}
