package detect

// The histories of the real-source suite (realsource_test.go), built from
// the engine's own types: durabletask-go v0.14.0 api/protos (generated from
// dapr/durabletask-protobuf protos/history_events.proto and
// orchestration.proto), in the event sequences the engine appends them in
// (dapr/durabletask-go v0.14.0 backend/runtimestate/applier.go; a rerun's
// fork, dapr/dapr v1.17.0 and v1.18.0
// pkg/actors/targets/workflow/orchestrator/fork/fork.go and rerun.go).
// Each scenario says where its sequence comes from.

import (
	"time"

	"github.com/dapr/durabletask-go/api/protos"
	"google.golang.org/protobuf/types/known/timestamppb"
	"google.golang.org/protobuf/types/known/wrapperspb"
)

// rsScenario is one history as the engine stores it.
type rsScenario struct {
	name string
	// instance is the run's instance id, app its app id (what a user
	// asking for the history names).
	instance, app string
	events        []*protos.HistoryEvent
}

// rsClock hands out increasing timestamps with sub-second parts, as the
// engine stamps events (time.Now at each append).
type rsClock struct{ t time.Time }

func newRSClock() *rsClock {
	return &rsClock{t: time.Date(2026, 8, 20, 10, 0, 0, 123456789, time.UTC)}
}

// after advances the clock by d and returns the new instant.
func (c *rsClock) after(d time.Duration) *timestamppb.Timestamp {
	c.t = c.t.Add(d)
	return timestamppb.New(c.t)
}

func rsStr(s string) *wrapperspb.StringValue { return wrapperspb.String(s) }
func rsPtr[T any](v T) *T                    { return &v }

func rsRouter(source string) *protos.TaskRouter { return &protos.TaskRouter{SourceAppID: source} }

func rsWorkflowStarted(c *rsClock) *protos.HistoryEvent {
	return &protos.HistoryEvent{EventId: -1, Timestamp: c.after(7 * time.Millisecond),
		EventType: &protos.HistoryEvent_WorkflowStarted{WorkflowStarted: &protos.WorkflowStartedEvent{}}}
}

func rsExecutionStarted(c *rsClock, name, instance, execution, input, app string) *protos.HistoryEvent {
	es := &protos.ExecutionStartedEvent{Name: name,
		WorkflowInstance: &protos.WorkflowInstance{InstanceId: instance, ExecutionId: rsStr(execution)}}
	if input != "" {
		es.Input = rsStr(input)
	}
	return &protos.HistoryEvent{EventId: -1, Timestamp: c.after(3 * time.Millisecond), Router: rsRouter(app),
		EventType: &protos.HistoryEvent_ExecutionStarted{ExecutionStarted: es}}
}

func rsTaskScheduled(c *rsClock, id int32, name, input, execID, app string) *protos.HistoryEvent {
	return &protos.HistoryEvent{EventId: id, Timestamp: c.after(11 * time.Millisecond), Router: rsRouter(app),
		EventType: &protos.HistoryEvent_TaskScheduled{TaskScheduled: &protos.TaskScheduledEvent{
			Name: name, Input: rsStr(input), TaskExecutionId: execID}}}
}

func rsTaskCompleted(c *rsClock, d time.Duration, scheduled int32, result, execID string) *protos.HistoryEvent {
	return &protos.HistoryEvent{EventId: -1, Timestamp: c.after(d),
		EventType: &protos.HistoryEvent_TaskCompleted{TaskCompleted: &protos.TaskCompletedEvent{
			TaskScheduledId: scheduled, Result: rsStr(result), TaskExecutionId: execID}}}
}

func rsTaskFailed(c *rsClock, d time.Duration, scheduled int32, f *protos.TaskFailureDetails, execID string) *protos.HistoryEvent {
	return &protos.HistoryEvent{EventId: -1, Timestamp: c.after(d),
		EventType: &protos.HistoryEvent_TaskFailed{TaskFailed: &protos.TaskFailedEvent{
			TaskScheduledId: scheduled, FailureDetails: f, TaskExecutionId: execID}}}
}

func rsTimerCreated(c *rsClock, id int32, name string, wait time.Duration, app string) (*protos.HistoryEvent, *protos.TimerCreatedEvent) {
	ts := c.after(5 * time.Millisecond)
	tc := &protos.TimerCreatedEvent{FireAt: timestamppb.New(ts.AsTime().Add(wait))}
	if name != "" {
		tc.Name = rsPtr(name)
	}
	return &protos.HistoryEvent{EventId: id, Timestamp: ts, Router: rsRouter(app),
		EventType: &protos.HistoryEvent_TimerCreated{TimerCreated: tc}}, tc
}

func rsTimerFired(c *rsClock, created *protos.HistoryEvent) *protos.HistoryEvent {
	fireAt := created.GetTimerCreated().GetFireAt()
	c.t = fireAt.AsTime().Add(9 * time.Millisecond)
	return &protos.HistoryEvent{EventId: -1, Timestamp: timestamppb.New(c.t),
		EventType: &protos.HistoryEvent_TimerFired{TimerFired: &protos.TimerFiredEvent{
			FireAt: fireAt, TimerId: created.EventId}}}
}

func rsChildCreated(c *rsClock, id int32, name, instance, input, app string) *protos.HistoryEvent {
	return &protos.HistoryEvent{EventId: id, Timestamp: c.after(4 * time.Millisecond), Router: rsRouter(app),
		EventType: &protos.HistoryEvent_ChildWorkflowInstanceCreated{ChildWorkflowInstanceCreated: &protos.ChildWorkflowInstanceCreatedEvent{
			Name: name, InstanceId: instance, Input: rsStr(input)}}}
}

func rsExecutionCompleted(c *rsClock, id int32, status protos.OrchestrationStatus, result string, f *protos.TaskFailureDetails, app string) *protos.HistoryEvent {
	ec := &protos.ExecutionCompletedEvent{WorkflowStatus: status, FailureDetails: f}
	if result != "" {
		ec.Result = rsStr(result)
	}
	return &protos.HistoryEvent{EventId: id, Timestamp: c.after(6 * time.Millisecond), Router: rsRouter(app),
		EventType: &protos.HistoryEvent_ExecutionCompleted{ExecutionCompleted: ec}}
}

// rsGatewayFailure is a Go SDK activity failure with a stack trace and the
// error that caused it (TaskFailureDetails.innerFailure).
func rsGatewayFailure() *protos.TaskFailureDetails {
	return &protos.TaskFailureDetails{
		ErrorType:    "*errors.errorString",
		ErrorMessage: "payment gateway returned 503 Service Unavailable",
		StackTrace:   rsStr("main.ChargeCard\n\t/app/activities.go:41"),
		InnerFailure: &protos.TaskFailureDetails{
			ErrorType:    "*net.OpError",
			ErrorMessage: "read tcp 10.0.0.7:443: i/o timeout",
			InnerFailure: &protos.TaskFailureDetails{ErrorType: "syscall.Errno", ErrorMessage: "ETIMEDOUT"},
		},
	}
}

// rsScenarios returns every history of the suite.
func rsScenarios() []rsScenario {
	all := []rsScenario{
		rsActivityRetry(), rsParallelChildren(), rsChildRetry(), rsLifecycle(), rsContinueAsNew(),
		rsContinueAsNewEvent(), rsRerun(), rsCrossAppChild(),
		rsStalled("stalled-patch-mismatch", protos.StalledReason_PATCH_MISMATCH, "patch \"v2-charge\" is not in this build"),
		rsStalled("stalled-version-not-available", protos.StalledReason_VERSION_NOT_AVAILABLE, "version \"3\" is not registered"),
		rsStalled("stalled-payload-size-exceeded", protos.StalledReason_PAYLOAD_SIZE_EXCEEDED, "result of 5242880 bytes exceeds the 4194304-byte limit"),
	}
	for _, sc := range all {
		rsEngineStamps(sc.events)
	}
	return all
}

// rsEngineStamps gives each turn's workflowStarted the instant its turn
// began, after the inbox events it consumed were stamped: the engine
// appends workflowStarted first, then those events, which carry the
// earlier time they happened at (so the Dapr CLI's sort by time moves
// them before it).
func rsEngineStamps(events []*protos.HistoryEvent) {
	for i, e := range events {
		if e.GetWorkflowStarted() == nil {
			continue
		}
		j := i + 1
		for j < len(events) && rsInbox(events[j]) {
			j++
		}
		if j > i+1 {
			e.Timestamp = timestamppb.New(events[j-1].Timestamp.AsTime().Add(time.Millisecond))
		}
	}
}

// rsInbox reports whether the engine takes e from the inbox (it was
// stamped before the turn that appends it began).
func rsInbox(e *protos.HistoryEvent) bool {
	switch e.GetEventType().(type) {
	case *protos.HistoryEvent_ExecutionStarted, *protos.HistoryEvent_TaskCompleted, *protos.HistoryEvent_TaskFailed,
		*protos.HistoryEvent_TimerFired, *protos.HistoryEvent_ChildWorkflowInstanceCompleted,
		*protos.HistoryEvent_ChildWorkflowInstanceFailed, *protos.HistoryEvent_EventRaised,
		*protos.HistoryEvent_ExecutionSuspended, *protos.HistoryEvent_ExecutionResumed,
		*protos.HistoryEvent_ExecutionTerminated:
		return true
	}
	return false
}

// rsActivityRetry: ChargeCard fails with a 503 (the Go SDK's retry policy),
// a retry timer whose origin names the task execution id, and the retry
// succeeds (applier.go: ScheduleTask and CreateTimer actions; a retry keeps
// the taskExecutionId). Its first action is event 0, so protojson omits its
// eventId and the failure's taskScheduledId.
func rsActivityRetry() rsScenario {
	const app, id, exec = "orders", "order-1001", "5f1c0e2a-7b3d-4c8e-9f10-2a3b4c5d6e7f"
	c := newRSClock()
	events := []*protos.HistoryEvent{
		rsWorkflowStarted(c),
		rsExecutionStarted(c, "OrderWorkflow", id, "0b6c9a3e-52d1-4f0e-9a8b-1c2d3e4f5a6b", `{"orderId":1001}`, app),
		rsTaskScheduled(c, 0, "ChargeCard", `{"orderId":1001,"cents":4999}`, exec, app),
		rsWorkflowStarted(c),
		rsTaskFailed(c, 30*time.Second, 0, rsGatewayFailure(), exec),
	}
	// The retry timer is created in the failure's turn.
	timer, tc := rsTimerCreated(c, 1, "ChargeCard-retry", 2*time.Second, app)
	tc.Origin = &protos.TimerCreatedEvent_ActivityRetry{ActivityRetry: &protos.TimerOriginActivityRetry{TaskExecutionId: exec}}
	events = append(events, timer,
		rsWorkflowStarted(c), rsTimerFired(c, timer),
		rsTaskScheduled(c, 2, "ChargeCard", `{"orderId":1001,"cents":4999}`, exec, app),
		rsWorkflowStarted(c),
		rsTaskCompleted(c, 840*time.Millisecond, 2, `{"chargeId":"ch_3PqZ"}`, exec),
		rsExecutionCompleted(c, 3, protos.OrchestrationStatus_ORCHESTRATION_STATUS_COMPLETED, `"paid"`, nil, app),
	)
	return rsScenario{name: "activity-retry", instance: id, app: app, events: events}
}

// rsParallelChildren: two child workflows called in one turn; ShipB
// completes first, then ShipA fails (applier.go: CreateChildWorkflow
// actions; the child's outcome names the parent's taskScheduledId).
func rsParallelChildren() rsScenario {
	const app, id = "orders", "order-2002"
	c := newRSClock()
	events := []*protos.HistoryEvent{
		rsWorkflowStarted(c),
		rsExecutionStarted(c, "OrderWorkflow", id, "1c7d0b4f-63e2-4a1f-8b9c-2d3e4f5a6b7c", `{"orderId":2002}`, app),
		rsChildCreated(c, 0, "ShipA", id+":0000", `{"parcel":"A"}`, app),
		rsChildCreated(c, 1, "ShipB", id+":0001", `{"parcel":"B"}`, app),
		rsWorkflowStarted(c),
		{EventId: -1, Timestamp: c.after(3 * time.Second), EventType: &protos.HistoryEvent_ChildWorkflowInstanceCompleted{
			ChildWorkflowInstanceCompleted: &protos.ChildWorkflowInstanceCompletedEvent{TaskScheduledId: 1, Result: rsStr(`{"tracking":"1Z-B"}`)}}},
		rsWorkflowStarted(c),
		{EventId: -1, Timestamp: c.after(2 * time.Second), EventType: &protos.HistoryEvent_ChildWorkflowInstanceFailed{
			ChildWorkflowInstanceFailed: &protos.ChildWorkflowInstanceFailedEvent{TaskScheduledId: 0, FailureDetails: &protos.TaskFailureDetails{
				ErrorType: "*errors.errorString", ErrorMessage: "carrier rejected parcel A: address not found"}}}},
		rsExecutionCompleted(c, 2, protos.OrchestrationStatus_ORCHESTRATION_STATUS_FAILED, "",
			&protos.TaskFailureDetails{ErrorType: "ChildWorkflowFailed", ErrorMessage: "ShipA failed"}, app),
	}
	return rsScenario{name: "parallel-children", instance: id, app: app, events: events}
}

// rsChildRetry: a child workflow retried by the Go SDK's retry policy on
// Dapr with durabletask-go ≥0.14: the retry timer's origin names the failed
// child's instance, and the second child carries retryParentInstanceInfo
// naming the first (applier.go CreateChildWorkflow copies it; the child id
// is the parent's id and the action id, helpers.GenerateChildWorkflowInstanceID).
func rsChildRetry() rsScenario {
	const app, id = "orders", "order-3003"
	c := newRSClock()
	events := []*protos.HistoryEvent{
		rsWorkflowStarted(c),
		rsExecutionStarted(c, "OrderWorkflow", id, "2d8e1c5a-74f3-4b2a-9cad-3e4f5a6b7c8d", `{"orderId":3003}`, app),
		rsChildCreated(c, 0, "ShipOrder", id+":0000", `{"orderId":3003}`, app),
		rsWorkflowStarted(c),
		{EventId: -1, Timestamp: c.after(1500 * time.Millisecond), EventType: &protos.HistoryEvent_ChildWorkflowInstanceFailed{
			ChildWorkflowInstanceFailed: &protos.ChildWorkflowInstanceFailedEvent{FailureDetails: &protos.TaskFailureDetails{
				ErrorType: "*errors.errorString", ErrorMessage: "carrier API unavailable"}}}},
	}
	timer, tc := rsTimerCreated(c, 1, "ShipOrder-retry", 2*time.Second, app)
	tc.Origin = &protos.TimerCreatedEvent_ChildWorkflowRetry{ChildWorkflowRetry: &protos.TimerOriginChildWorkflowRetry{InstanceId: id + ":0000"}}
	retry := rsChildCreated(c, 2, "ShipOrder", id+":0002", `{"orderId":3003}`, app)
	events = append(events, timer, rsWorkflowStarted(c), rsTimerFired(c, timer), retry)
	retry.GetChildWorkflowInstanceCreated().RetryParentInstanceInfo = &protos.RetryParentInstanceInfo{InstanceID: id + ":0000"}
	events = append(events,
		rsWorkflowStarted(c),
		&protos.HistoryEvent{EventId: -1, Timestamp: c.after(2300 * time.Millisecond), EventType: &protos.HistoryEvent_ChildWorkflowInstanceCompleted{
			ChildWorkflowInstanceCompleted: &protos.ChildWorkflowInstanceCompletedEvent{TaskScheduledId: 2, Result: rsStr(`{"tracking":"1Z999"}`)}}},
		rsExecutionCompleted(c, 3, protos.OrchestrationStatus_ORCHESTRATION_STATUS_COMPLETED, `"shipped"`, nil, app),
	)
	return rsScenario{name: "child-retry", instance: id, app: app, events: events}
}

// rsLifecycle: suspended, resumed, then terminated while an email is being
// sent (ExecutionSuspended/Resumed/Terminated carry the operator's reason
// as input; a terminate then completes the run as TERMINATED with the
// reason as its result, the SDK's onExecutionTerminated).
func rsLifecycle() rsScenario {
	const app, id = "notify", "notify-4004"
	c := newRSClock()
	events := []*protos.HistoryEvent{
		rsWorkflowStarted(c),
		rsExecutionStarted(c, "NotifyWorkflow", id, "3e9f2d6b-85a4-4c3b-8dbe-4f5a6b7c8d9e", `{"user":42}`, app),
		rsTaskScheduled(c, 0, "SendWelcomeEmail", `{"user":42}`, "6a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d", app),
		{EventId: -1, Timestamp: c.after(2 * time.Second), EventType: &protos.HistoryEvent_ExecutionSuspended{
			ExecutionSuspended: &protos.ExecutionSuspendedEvent{Input: rsStr(`"maintenance window"`)}}},
		{EventId: -1, Timestamp: c.after(40 * time.Second), EventType: &protos.HistoryEvent_ExecutionResumed{
			ExecutionResumed: &protos.ExecutionResumedEvent{Input: rsStr(`"window closed"`)}}},
		{EventId: -1, Timestamp: c.after(5 * time.Second), EventType: &protos.HistoryEvent_ExecutionTerminated{
			ExecutionTerminated: &protos.ExecutionTerminatedEvent{Input: rsStr(`"operator: duplicate signup"`)}}},
		rsWorkflowStarted(c),
		rsExecutionCompleted(c, 1, protos.OrchestrationStatus_ORCHESTRATION_STATUS_TERMINATED, `"operator: duplicate signup"`, nil, app),
	}
	return rsScenario{name: "suspend-resume-terminate", instance: id, app: app, events: events}
}

// rsContinueAsNew: the history of a run after continue-as-new, as the
// applier writes it: a new workflowStarted and executionStarted with the
// new input and a new executionId, the carried-over event, and ids
// restarting at 0 (applier.go, CompleteWorkflow with CONTINUED_AS_NEW).
func rsContinueAsNew() rsScenario {
	const app, id = "monitor", "appr-7"
	c := newRSClock()
	wsCAN := rsWorkflowStarted(c)
	wsCAN.Router = rsRouter(app)
	events := []*protos.HistoryEvent{
		wsCAN,
		rsExecutionStarted(c, "ApprovalMonitor", id, "bb11cc22-dd33-4e44-8f55-667788990011", `{"round":2}`, app),
		{EventId: -1, Timestamp: c.after(time.Millisecond), EventType: &protos.HistoryEvent_EventRaised{
			EventRaised: &protos.EventRaisedEvent{Name: "approval", Input: rsStr(`{"approved":false}`)}}},
		rsTaskScheduled(c, 0, "SendReminder", `{"round":2}`, "7b3c4d5e-6f70-4b8c-9dae-1f2a3b4c5d6e", app),
		rsWorkflowStarted(c),
		rsTaskCompleted(c, 300*time.Millisecond, 0, `"sent"`, "7b3c4d5e-6f70-4b8c-9dae-1f2a3b4c5d6e"),
	}
	return rsScenario{name: "continue-as-new", instance: id, app: app, events: events}
}

// rsContinueAsNewEvent: the proto's ContinueAsNewEvent (history_events.proto
// field 20). The runtime does not append it today, but the Dapr CLI has a
// row for it, and a history holding it must read.
func rsContinueAsNewEvent() rsScenario {
	const app, id = "monitor", "appr-8"
	c := newRSClock()
	events := []*protos.HistoryEvent{
		rsWorkflowStarted(c),
		rsExecutionStarted(c, "ApprovalMonitor", id, "cc22dd33-ee44-4f55-8a66-778899001122", `{"round":1}`, app),
		{EventId: -1, Timestamp: c.after(time.Second), EventType: &protos.HistoryEvent_ContinueAsNew{
			ContinueAsNew: &protos.ContinueAsNewEvent{Input: rsStr(`{"round":2}`)}}},
	}
	return rsScenario{name: "continue-as-new-event", instance: id, app: app, events: events}
}

// rsRerun: run order-5005 reserved stock, then its charge failed; it was
// rerun from event 1 (the charge) as order-5005-r1. The fork copies the
// source's events before the target (its executionStarted, naming the
// source, included; a task joins the copy with its completion), then
// appends the target with rerunParentInstanceInfo and a new timestamp,
// and the run goes on (dapr/dapr v1.18.0 orchestrator/fork/fork.go
// handleFound, rerun.go). The runtime marks the target so from v1.17.0;
// v1.16.x's fork copies the same events and marks none, as the v0.10.1
// protojson of this scenario shows.
func rsRerun() rsScenario {
	const app, source = "orders", "order-5005"
	c := newRSClock()
	ws1 := rsWorkflowStarted(c)
	es := rsExecutionStarted(c, "OrderWorkflow", source, "4fa03e7c-96b5-4d4c-9ecf-5a6b7c8d9e0f", `{"orderId":5005}`, app)
	reserve := rsTaskScheduled(c, 0, "ReserveStock", `{"orderId":5005}`, "8c4d5e6f-7081-4c9d-8ebf-2a3b4c5d6e7f", app)
	ws2 := rsWorkflowStarted(c)
	reserved := rsTaskCompleted(c, 400*time.Millisecond, 0, `{"reserved":true}`, "8c4d5e6f-7081-4c9d-8ebf-2a3b4c5d6e7f")
	c.after(10 * time.Minute) // the source run failed; the rerun comes later
	charge := rsTaskScheduled(c, 1, "ChargeCard", `{"orderId":5005}`, "9d5e6f70-8192-4dae-9fc0-3b4c5d6e7f80", app)
	charge.GetTaskScheduled().RerunParentInstanceInfo = &protos.RerunParentInstanceInfo{InstanceID: source}
	events := []*protos.HistoryEvent{ws1, es, ws2, reserve, reserved, charge,
		rsWorkflowStarted(c),
		rsTaskCompleted(c, 2*time.Second, 1, `{"chargeId":"ch_9XyZ"}`, "9d5e6f70-8192-4dae-9fc0-3b4c5d6e7f80"),
		rsExecutionCompleted(c, 2, protos.OrchestrationStatus_ORCHESTRATION_STATUS_COMPLETED, `"paid"`, nil, app),
	}
	return rsScenario{name: "rerun", instance: "order-5005-r1", app: app, events: events}
}

// rsCrossAppChild: the history of a child workflow hosted by another app.
// Its executionStarted carries the parent's router: the source is the
// parent's app, the target the child's (applier.go, CreateChildWorkflow:
// the start event takes the action's router, whose source is the parent's
// app). Its own actions name its app as their source.
func rsCrossAppChild() rsScenario {
	const parentApp, app, parent, id = "orders", "shipping", "order-6006", "order-6006:0000"
	c := newRSClock()
	ws := rsWorkflowStarted(c)
	es := rsExecutionStarted(c, "ShipOrder", id, "5a0b4f8d-a7c6-4e5d-8fd0-6b7c8d9e0f1a", `{"orderId":6006}`, parentApp)
	es.Router.TargetAppID = rsPtr(app)
	es.GetExecutionStarted().ParentInstance = &protos.ParentInstanceInfo{TaskScheduledId: 0, Name: rsStr("OrderWorkflow"),
		WorkflowInstance: &protos.WorkflowInstance{InstanceId: parent}, AppID: rsPtr(parentApp)}
	events := []*protos.HistoryEvent{
		ws,
		es,
		rsTaskScheduled(c, 0, "BookCarrier", `{"orderId":6006}`, "ae1f2a3b-4c5d-4e6f-8a7b-8c9d0e1f2a3b", app),
		rsWorkflowStarted(c),
		rsTaskCompleted(c, 700*time.Millisecond, 0, `{"carrier":"ups"}`, "ae1f2a3b-4c5d-4e6f-8a7b-8c9d0e1f2a3b"),
		rsExecutionCompleted(c, 1, protos.OrchestrationStatus_ORCHESTRATION_STATUS_COMPLETED, `{"tracking":"1Z-6006"}`, nil, app),
	}
	return rsScenario{name: "cross-app-child", instance: id, app: app, events: events}
}

// rsStalled: a run the engine stalled (applier.go sets Stalled and appends
// ExecutionStalled with the reason and a description).
func rsStalled(name string, reason protos.StalledReason, description string) rsScenario {
	const app = "orders"
	id := "order-" + name
	c := newRSClock()
	events := []*protos.HistoryEvent{
		rsWorkflowStarted(c),
		rsExecutionStarted(c, "OrderWorkflow", id, "6b1c5a9e-b8d7-4f6e-9ae1-7c8d9e0f1a2b", `{"orderId":7007}`, app),
		{EventId: -1, Timestamp: c.after(time.Millisecond), Router: rsRouter(app), EventType: &protos.HistoryEvent_ExecutionStalled{
			ExecutionStalled: &protos.ExecutionStalledEvent{Reason: reason, Description: rsPtr(description)}}},
	}
	return rsScenario{name: name, instance: id, app: app, events: events}
}
