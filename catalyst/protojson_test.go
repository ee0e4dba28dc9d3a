package catalyst

import (
	"testing"
	"time"
)

// The examples of research/history-format.md §3, decoded event by event.
func TestProtoJSONExamples(t *testing.T) {
	tests := []struct {
		file   string
		run    Run
		events []string
	}{
		{
			file: "protojson-a-simple.json",
			run: Run{ID: "order-1001", AppID: "orders", Workflow: "OrderWorkflow", Status: "ORCHESTRATION_STATUS_COMPLETED",
				ExecutionID: "0b6c9a3e-52d1-4f0e-9a8b-1c2d3e4f5a6b"},
			events: []string{
				`WorkflowStarted id=-1 ts=2026-08-20T10:00:00.512Z`,
				`ExecutionStarted id=-1 ts=2026-08-20T10:00:00.498Z name=OrderWorkflow exec=0b6c9a3e-52d1-4f0e-9a8b-1c2d3e4f5a6b inst=order-1001 payload=present:{"orderId":1001}`,
				// No eventId key: the first action is 0.
				`TaskScheduled id=0 ts=2026-08-20T10:00:00.53Z name=ReserveStock exec=5f1c0e2a-7b3d-4c8e-9f10-2a3b4c5d6e7f payload=present:{"orderId":1001} router=orders->`,
				`WorkflowStarted id=-1 ts=2026-08-20T10:00:00.94Z`,
				// No taskScheduledId key: the completion of task 0.
				`TaskCompleted id=-1 ts=2026-08-20T10:00:00.921Z exec=5f1c0e2a-7b3d-4c8e-9f10-2a3b4c5d6e7f payload=present:{"reserved":true} router=orders->`,
				`ExecutionCompleted id=1 ts=2026-08-20T10:00:00.955Z payload=present:"ok" router=orders-> status=ORCHESTRATION_STATUS_COMPLETED`,
			},
		},
		{
			file: "protojson-b-retries.json",
			run: Run{ID: "A-7731", Workflow: "order_workflow", Status: "ORCHESTRATION_STATUS_COMPLETED",
				ExecutionID: "c1d2e3f4-0000-4000-8000-000000007731"},
			events: []string{
				`WorkflowStarted id=-1 ts=2026-08-20T09:14:03.201Z`,
				`ExecutionStarted id=-1 ts=2026-08-20T09:14:03.187Z name=order_workflow exec=c1d2e3f4-0000-4000-8000-000000007731 inst=A-7731 payload=present:{"order_id":"A-7731"}`,
				`TaskScheduled id=0 ts=2026-08-20T09:14:03.24Z name=charge_card exec=8a4f2c71-3b9e-4d05-a6c2-91e07f5d3b18 payload=present:{"order_id":"A-7731","amount_cents":4999}`,
				`WorkflowStarted id=-1 ts=2026-08-20T09:14:04.01Z`,
				`TaskFailed id=-1 ts=2026-08-20T09:14:03.998Z exec=8a4f2c71-3b9e-4d05-a6c2-91e07f5d3b18 failure0=ConnectionError|POST https://pay.example/charges: 503 Service Unavailable|"  File \"/app/activities.py\", line 41, in charge_card\n    resp.raise_for_status()\n"|false`,
				`TimerCreated id=1 ts=2026-08-20T09:14:04.031Z fire=2026-08-20T09:14:09.01Z origin=activityRetry:8a4f2c71-3b9e-4d05-a6c2-91e07f5d3b18`,
				`WorkflowStarted id=-1 ts=2026-08-20T09:14:09.052Z`,
				`TimerFired id=-1 ts=2026-08-20T09:14:09.041Z timer=1 fire=2026-08-20T09:14:09.01Z`,
				`TaskScheduled id=2 ts=2026-08-20T09:14:09.07Z name=charge_card exec=8a4f2c71-3b9e-4d05-a6c2-91e07f5d3b18 payload=present:{"order_id":"A-7731","amount_cents":4999}`,
				`WorkflowStarted id=-1 ts=2026-08-20T09:14:09.655Z`,
				`TaskFailed id=-1 ts=2026-08-20T09:14:09.64Z sched=2 exec=8a4f2c71-3b9e-4d05-a6c2-91e07f5d3b18 failure0=ConnectionError|POST https://pay.example/charges: 503 Service Unavailable|"  File \"/app/activities.py\", line 41, in charge_card\n    resp.raise_for_status()\n"|false`,
				`TimerCreated id=3 ts=2026-08-20T09:14:09.671Z fire=2026-08-20T09:14:19.655Z origin=activityRetry:8a4f2c71-3b9e-4d05-a6c2-91e07f5d3b18`,
				`WorkflowStarted id=-1 ts=2026-08-20T09:14:19.69Z`,
				`TimerFired id=-1 ts=2026-08-20T09:14:19.681Z timer=3 fire=2026-08-20T09:14:19.655Z`,
				`TaskScheduled id=4 ts=2026-08-20T09:14:19.702Z name=charge_card exec=8a4f2c71-3b9e-4d05-a6c2-91e07f5d3b18 payload=present:{"order_id":"A-7731","amount_cents":4999}`,
				`WorkflowStarted id=-1 ts=2026-08-20T09:14:20.115Z`,
				`TaskCompleted id=-1 ts=2026-08-20T09:14:20.101Z sched=4 exec=8a4f2c71-3b9e-4d05-a6c2-91e07f5d3b18 payload=present:{"charge_id":"ch_3PqZ"}`,
				`ExecutionCompleted id=5 ts=2026-08-20T09:14:20.13Z payload=present:{"status":"paid"} status=ORCHESTRATION_STATUS_COMPLETED`,
			},
		},
		{
			file: "protojson-c-timeout-race.json",
			run: Run{ID: "q-42", Workflow: "quote_workflow", Status: "ORCHESTRATION_STATUS_COMPLETED",
				ExecutionID: "e0a1b2c3-d4e5-4f60-8a7b-8c9d0e1f2a3b"},
			events: []string{
				`WorkflowStarted id=-1 ts=2026-08-20T11:00:00.1Z`,
				`ExecutionStarted id=-1 ts=2026-08-20T11:00:00.09Z name=quote_workflow exec=e0a1b2c3-d4e5-4f60-8a7b-8c9d0e1f2a3b inst=q-42`,
				`TaskScheduled id=0 ts=2026-08-20T11:00:00.12Z name=fetch_quote exec=11111111-aaaa-4bbb-8ccc-000000000001`,
				`TimerCreated id=1 ts=2026-08-20T11:00:00.121Z fire=2026-08-20T11:00:30.1Z origin=createTimer:`,
				`WorkflowStarted id=-1 ts=2026-08-20T11:00:30.14Z`,
				`TimerFired id=-1 ts=2026-08-20T11:00:30.131Z timer=1 fire=2026-08-20T11:00:30.1Z`,
				`TaskScheduled id=2 ts=2026-08-20T11:00:30.16Z name=fetch_quote exec=22222222-aaaa-4bbb-8ccc-000000000002`,
				`WorkflowStarted id=-1 ts=2026-08-20T11:00:41.02Z`,
				`TaskCompleted id=-1 ts=2026-08-20T11:00:41.004Z exec=11111111-aaaa-4bbb-8ccc-000000000001 payload=present:{"price":17.5}`,
				`WorkflowStarted id=-1 ts=2026-08-20T11:00:42.31Z`,
				`TaskCompleted id=-1 ts=2026-08-20T11:00:42.297Z sched=2 exec=22222222-aaaa-4bbb-8ccc-000000000002 payload=present:{"price":17.9}`,
				`ExecutionCompleted id=3 ts=2026-08-20T11:00:42.33Z payload=present:{"price":17.9} status=ORCHESTRATION_STATUS_COMPLETED`,
			},
		},
		{
			file: "protojson-d-child-retry.json",
			run: Run{ID: "order-1001", Workflow: "OrderWorkflow", Status: "ORCHESTRATION_STATUS_COMPLETED",
				ExecutionID: "9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a"},
			events: []string{
				`WorkflowStarted id=-1 ts=2026-08-20T12:00:00.01Z`,
				`ExecutionStarted id=-1 ts=2026-08-20T12:00:00.001Z name=OrderWorkflow exec=9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a inst=order-1001`,
				`ChildWorkflowCreated id=0 ts=2026-08-20T12:00:00.03Z name=ShipOrder inst=order-1001:0000 payload=present:{"orderId":1001}`,
				`WorkflowStarted id=-1 ts=2026-08-20T12:00:01.5Z`,
				`ChildWorkflowFailed id=-1 ts=2026-08-20T12:00:01.48Z failure0=*errors.errorString|carrier API unavailable|""|false`,
				`TimerCreated id=1 ts=2026-08-20T12:00:01.52Z name=ShipOrder-retry fire=2026-08-20T12:00:03.5Z origin=childWorkflowRetry:order-1001:0000`,
				`WorkflowStarted id=-1 ts=2026-08-20T12:00:03.54Z`,
				`TimerFired id=-1 ts=2026-08-20T12:00:03.53Z timer=1 fire=2026-08-20T12:00:03.5Z`,
				`ChildWorkflowCreated id=2 ts=2026-08-20T12:00:03.56Z name=ShipOrder inst=order-1001:0002 payload=present:{"orderId":1001} retryParent=order-1001:0000`,
				`WorkflowStarted id=-1 ts=2026-08-20T12:00:05.9Z`,
				`ChildWorkflowCompleted id=-1 ts=2026-08-20T12:00:05.88Z sched=2 payload=present:{"tracking":"1Z999"}`,
				`ExecutionCompleted id=3 ts=2026-08-20T12:00:05.92Z status=ORCHESTRATION_STATUS_COMPLETED`,
			},
		},
		{
			file: "protojson-e-external-event.json",
			run: Run{ID: "appr-7", Workflow: "ApprovalMonitor", Status: StatusRunning,
				ExecutionID: "aa00bb11-cc22-4d33-8e44-ff5566778899"},
			events: []string{
				`WorkflowStarted id=-1 ts=2026-08-20T13:00:00.05Z`,
				`ExecutionStarted id=-1 ts=2026-08-20T13:00:00.04Z name=ApprovalMonitor exec=aa00bb11-cc22-4d33-8e44-ff5566778899 inst=appr-7 payload=present:{"round":1}`,
				`TimerCreated id=0 ts=2026-08-20T13:00:00.07Z name=approval fire=2026-08-21T13:00:00.05Z origin=externalEvent:approval`,
				`WorkflowStarted id=-1 ts=2026-08-20T13:07:12.4Z`,
				`EventRaised id=-1 ts=2026-08-20T13:07:12.38Z name=approval payload=present:{"approved":true}`,
				`TimerCreated id=1 ts=2026-08-20T13:07:12.42Z fire=2026-08-20T13:12:12.4Z origin=createTimer:`,
				`WorkflowStarted id=-1 ts=2026-08-20T13:12:12.45Z`,
				`TimerFired id=-1 ts=2026-08-20T13:12:12.441Z timer=1 fire=2026-08-20T13:12:12.4Z`,
			},
		},
		{
			file: "protojson-e-next-generation.json",
			run: Run{ID: "appr-7", Workflow: "ApprovalMonitor", Status: StatusRunning,
				ExecutionID: "5d6e7f80-91a2-4b3c-8d4e-5f60718293a4"},
			events: []string{
				`WorkflowStarted id=-1 ts=2026-08-20T13:12:12.47Z`,
				`ExecutionStarted id=-1 ts=2026-08-20T13:12:12.47Z name=ApprovalMonitor exec=5d6e7f80-91a2-4b3c-8d4e-5f60718293a4 inst=appr-7 payload=present:{"round":2}`,
				`TimerCreated id=0 ts=2026-08-20T13:12:12.48Z name=approval fire=2026-08-21T13:12:12.45Z origin=externalEvent:approval`,
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			h, err := decodeFile(t, tt.file)
			if err != nil {
				t.Fatal(err)
			}
			checkEvents(t, h, tt.events)
			checkRunIDs(t, h, tt.run)
			if h.Format != FormatProtoJSON || h.Lossy || h.UnknownFields != 0 {
				t.Errorf("format %s lossy %v unknown %d", h.Format, h.Lossy, h.UnknownFields)
			}
			if h.Run.DataSharing.Filtered || len(h.Withheld()) != 0 {
				t.Errorf("Dapr's own protojson has no data-sharing filter: %+v, %d withheld", h.Run.DataSharing, len(h.Withheld()))
			}
			if h.Run.Provenance.Location != tt.file {
				t.Errorf("provenance %+v", h.Run.Provenance)
			}
		})
	}
}

// checkRunIDs compares the identifying fields of a decoded run.
func checkRunIDs(t *testing.T, h *History, want Run) {
	t.Helper()
	got := h.Run
	if got.ID != want.ID || got.AppID != want.AppID || got.Workflow != want.Workflow ||
		got.Status != want.Status || got.ExecutionID != want.ExecutionID || got.ParentID != want.ParentID {
		t.Errorf("run = {ID:%q App:%q Workflow:%q Status:%q Exec:%q Parent:%q}\nwant {ID:%q App:%q Workflow:%q Status:%q Exec:%q Parent:%q}",
			got.ID, got.AppID, got.Workflow, got.Status, got.ExecutionID, got.ParentID,
			want.ID, want.AppID, want.Workflow, want.Status, want.ExecutionID, want.ParentID)
	}
}

func TestProtoJSONRunTimesAndPayloads(t *testing.T) {
	h, err := decodeFile(t, "protojson-b-retries.json")
	if err != nil {
		t.Fatal(err)
	}
	// Created is the executionStarted's time (earlier than the first
	// workflowStarted); updated is the latest time in the history.
	if want := time.Date(2026, 8, 20, 9, 14, 3, 187e6, time.UTC); !h.Run.CreatedAt.Equal(want) {
		t.Errorf("CreatedAt %v, want %v", h.Run.CreatedAt, want)
	}
	if want := time.Date(2026, 8, 20, 9, 14, 20, 130e6, time.UTC); !h.Run.UpdatedAt.Equal(want) {
		t.Errorf("UpdatedAt %v, want %v", h.Run.UpdatedAt, want)
	}
	if h.Run.Input.Text() != `{"order_id":"A-7731"}` || h.Run.Output.Text() != `{"status":"paid"}` {
		t.Errorf("run payloads %q %q", h.Run.Input.Text(), h.Run.Output.Text())
	}
	// Payloads stay in wire form until asked for.
	lit, ok := h.At(2).Payload.WireLiteral()
	if !ok || lit != `"{\"order_id\":\"A-7731\",\"amount_cents\":4999}"` {
		t.Errorf("wire literal %q, %v", lit, ok)
	}
}

func TestProtoJSONOldKeys(t *testing.T) {
	h, err := decodeFile(t, "protojson-old-keys.json")
	if err != nil {
		t.Fatal(err)
	}
	checkEvents(t, h, []string{
		`WorkflowStarted id=-1 ts=2026-03-01T08:00:00.01Z`,
		`ExecutionStarted id=-1 ts=2026-03-01T08:00:00.001Z name=ShipOrder exec=77aa inst=order-1001:0000 payload=present:{"orderId":1001} parent=order-1001 parentName=OrderWorkflow`,
		`ChildWorkflowCreated id=0 ts=2026-03-01T08:00:00.03Z name=PackBox inst=order-1001:0000:0000 payload=present:{} router=orders->packing version=v2`,
		`WorkflowStarted id=-1 ts=2026-03-01T08:00:01.5Z version=v3`,
		`ChildWorkflowFailed id=-1 ts=2026-03-01T08:00:01.48Z failure0=*errors.errorString|carrier API unavailable|""|false failure1=TimeoutError|dial timeout|""|true`,
		`ChildWorkflowCreated id=1 ts=2026-03-01T08:00:01.52Z name=PackBox inst=order-1001:0000:0001 payload=present:{} router=orders->packing`,
		`ChildWorkflowCompleted id=-1 ts=2026-03-01T08:00:02Z sched=1 payload=present:"boxed" router=orders->packing`,
		`EventSent id=2 ts=2026-03-01T08:00:02.1Z name=shipped inst=billing-7 payload=present:{"box":1}`,
		`EventRaised id=-1 ts=2026-03-01T08:00:03Z name=approval payload=present:true`,
		`ExecutionSuspended id=-1 ts=2026-03-01T08:00:04Z payload=present:"maintenance"`,
		`ExecutionResumed id=-1 ts=2026-03-01T08:00:05Z`,
		// protojson omits the enum's zero value, PATCH_MISMATCH.
		`ExecutionStalled id=-1 ts=2026-03-01T08:00:06Z stall=PATCH_MISMATCH stallText=patch p2 is not in this build`,
		`ExecutionCompleted id=3 ts=2026-03-01T08:00:07Z failure0=TaskFailedError|ship order failed|"at ShipOrder()\n  line 3"|false status=ORCHESTRATION_STATUS_FAILED`,
	})
	checkRunIDs(t, h, Run{ID: "order-1001:0000", AppID: "orders", Workflow: "ShipOrder",
		Status: "ORCHESTRATION_STATUS_FAILED", ExecutionID: "77aa", ParentID: "order-1001"})
	if h.Run.FailureMessage != "ship order failed" || h.UnknownFields != 0 {
		t.Errorf("failure %q, unknown fields %d", h.Run.FailureMessage, h.UnknownFields)
	}
	if !h.Run.Status.Is(StatusFailed) {
		t.Errorf("status %q does not normalise to failed", h.Run.Status)
	}
	// Routers with the same pair are one value.
	if h.At(2).Router != h.At(5).Router || h.At(5).Router != h.At(6).Router {
		t.Error("routers with the same pair are not shared")
	}
}

func TestProtoJSONEdgeCases(t *testing.T) {
	h, err := decodeFile(t, "protojson-edge.json")
	if err != nil {
		t.Fatal(err)
	}
	checkEvents(t, h, []string{
		`WorkflowStarted id=-1 ts=2026-08-20T08:00:00.5Z`,
		`ExecutionStarted id=-1 ts=2026-08-20T08:00:00.498123456Z name=EdgeWorkflow exec=e1 inst=edge-1`,
		`TaskScheduled id=0 ts=2026-08-20T08:00:00.53Z name=NoInput exec=t0`,
		`TaskScheduled id=1 ts=2026-08-20T08:00:00.531Z name=EmptyInput exec=t1 payload=empty:`,
		`TaskScheduled id=2 ts=2026-08-20T08:00:00.532Z name=NullInput exec=t2`,
		`TaskScheduled id=-1 ts=2026-08-20T08:00:00.533Z name=MinusOne exec=t3 payload=present:"x"`,
		`entityOperationCalled id=-1 ts=2026-08-20T08:00:00.6Z router=edge-app-> raw={"eventId":-1,"timestamp":"2026-08-20T08:00:00.600Z","entityOperationCalled":{"requestId":"r1","operation":"add"},"router":{"sourceAppID":"edge-app"}}`,
		`TimerCreated id=4 ts=2026-08-20T08:00:00.7Z name=approval fire=never origin=externalEvent:approval`,
		`TimerCreated id=5 ts=2026-08-20T08:00:00.701Z fire=2026-08-20T08:05:00Z origin=createTimer:`,
		`TimerCreated id=6 ts=2026-08-20T08:00:00.702Z fire=2026-08-20T08:05:01Z`,
		`TimerFired id=-1 ts=2026-08-20T08:05:00.1Z timer=5 fire=2026-08-20T08:05:00Z`,
		`TimerFired id=-1 ts=2026-08-20T08:05:00.2Z fire=2026-08-20T08:05:00Z`,
		`TaskCompleted id=-1 ts=2026-08-20T08:05:00.3Z exec=t0`,
		`DetachedWorkflowCreated id=-1 ts=2026-08-20T08:05:00.4Z inst=side-1`,
		`ExecutionCompleted id=7 ts=2026-08-20T08:05:01Z payload=present:{"ok":false} status=ORCHESTRATION_STATUS_FAILED`,
	})
	if h.At(6).Type != EventUnknown || h.At(6).Detail.TypeName != "entityOperationCalled" {
		t.Errorf("unknown type kept as %v %+v", h.At(6).Type, h.At(6).Detail)
	}
	// futureField in a taskScheduled, and the top-level nextPageToken and extra.
	if h.UnknownFields != 3 {
		t.Errorf("UnknownFields = %d, want 3", h.UnknownFields)
	}
	if h.Run.AppID != "edge-app" {
		t.Errorf("app id from the first router: %q", h.Run.AppID)
	}
}
