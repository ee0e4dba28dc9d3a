package detect

import (
	"time"

	"github.com/twice-cli/twice/catalyst"
)

// hb builds histories in engine order for tests: a clock, the next eventId,
// and the events so far.
type hb struct {
	t0     time.Time
	clock  time.Duration
	next   int32
	run    catalyst.Run
	events []catalyst.Event
}

func newHB(workflow string) *hb {
	return &hb{t0: time.Date(2026, 8, 20, 9, 14, 3, 0, time.UTC),
		run: catalyst.Run{ID: "run-1", AppID: "app", Workflow: workflow}}
}

func (b *hb) stamp() catalyst.Stamp { return catalyst.StampOf(b.t0.Add(b.clock)) }

// wait advances the clock.
func (b *hb) wait(d time.Duration) *hb { b.clock += d; return b }

func (b *hb) add(e catalyst.Event) {
	if e.Timestamp == 0 {
		e.Timestamp = b.stamp()
	}
	b.clock += time.Millisecond
	b.events = append(b.events, e)
}

// turn appends a workflowStarted.
func (b *hb) turn() *hb {
	b.add(catalyst.Event{Type: catalyst.EventWorkflowStarted, ID: -1})
	return b
}

// start appends executionStarted for a (new) generation and resets ids.
func (b *hb) start(execID string) *hb {
	b.next = 0
	b.add(catalyst.Event{Type: catalyst.EventExecutionStarted, ID: -1, Name: b.run.Workflow,
		ExecutionID: execID, InstanceID: b.run.ID, Payload: catalyst.PresentPayload(`{"order":1}`)})
	return b
}

func (b *hb) action() int32 { id := b.next; b.next++; return id }

// sched appends a taskScheduled and returns its eventId.
func (b *hb) sched(name, exec, input string) int32 {
	id := b.action()
	b.schedAs(id, name, exec, input)
	return id
}

// schedAs appends a taskScheduled with a given eventId (old Python reuses it).
func (b *hb) schedAs(id int32, name, exec, input string) {
	b.add(catalyst.Event{Type: catalyst.EventTaskScheduled, ID: id, Name: name, ExecutionID: exec,
		Payload: payload(input)})
}

func payload(s string) catalyst.Payload {
	if s == "" {
		return catalyst.AbsentPayload(catalyst.PayloadNone)
	}
	return catalyst.PresentPayload(s)
}

func (b *hb) done(sched int32, exec, output string) *hb {
	b.add(catalyst.Event{Type: catalyst.EventTaskCompleted, ID: -1, ScheduledID: sched, ExecutionID: exec,
		Payload: payload(output)})
	return b
}

func (b *hb) fail(sched int32, exec, typ, msg string) *hb {
	b.add(catalyst.Event{Type: catalyst.EventTaskFailed, ID: -1, ScheduledID: sched, ExecutionID: exec,
		Failure: &catalyst.Failure{Type: typ, Message: msg}})
	return b
}

func (b *hb) failNonRetriable(sched int32, exec, typ, msg string) *hb {
	b.add(catalyst.Event{Type: catalyst.EventTaskFailed, ID: -1, ScheduledID: sched, ExecutionID: exec,
		Failure: &catalyst.Failure{Type: typ, Message: msg, NonRetriable: true}})
	return b
}

// timer appends a timerCreated firing after d (from the turn's start) and
// returns its eventId.
func (b *hb) timer(d time.Duration, name string, origin catalyst.TimerOrigin, originID string) int32 {
	id := b.action()
	fire := catalyst.StampOf(b.turnStart().Add(d))
	b.add(catalyst.Event{Type: catalyst.EventTimerCreated, ID: id, Name: name, Origin: origin,
		OriginID: originID, FireAt: fire})
	return id
}

// turnStart is the timestamp of the last workflowStarted.
func (b *hb) turnStart() time.Time {
	for i := len(b.events) - 1; i >= 0; i-- {
		if b.events[i].Type == catalyst.EventWorkflowStarted {
			return b.events[i].Timestamp.Time()
		}
	}
	return b.t0
}

func (b *hb) fire(timer int32) *hb {
	var at catalyst.Stamp
	for i := range b.events {
		if b.events[i].Type == catalyst.EventTimerCreated && b.events[i].ID == timer {
			at = b.events[i].FireAt
		}
	}
	if t := at.Time(); t.After(b.t0.Add(b.clock)) {
		b.clock = t.Sub(b.t0) + 10*time.Millisecond
		// The turn that consumes the firing starts after it.
		if last := &b.events[len(b.events)-1]; last.Type == catalyst.EventWorkflowStarted {
			last.Timestamp = b.stamp()
			b.clock += time.Millisecond
		}
	}
	b.add(catalyst.Event{Type: catalyst.EventTimerFired, ID: -1, TimerID: timer, FireAt: at})
	return b
}

// child appends a childWorkflowCreated and returns its eventId.
func (b *hb) child(name, instance, retryParent string) int32 {
	id := b.action()
	e := catalyst.Event{Type: catalyst.EventChildWorkflowCreated, ID: id, Name: name, InstanceID: instance,
		Payload: catalyst.PresentPayload(`{"orderId":1001}`)}
	if retryParent != "" {
		e.Detail = &catalyst.EventDetail{RetryParentInstanceID: retryParent}
	}
	b.add(e)
	return id
}

func (b *hb) childDone(sched int32) *hb {
	b.add(catalyst.Event{Type: catalyst.EventChildWorkflowCompleted, ID: -1, ScheduledID: sched,
		Payload: catalyst.PresentPayload(`{"ok":true}`)})
	return b
}

func (b *hb) childFail(sched int32, msg string) *hb {
	b.add(catalyst.Event{Type: catalyst.EventChildWorkflowFailed, ID: -1, ScheduledID: sched,
		Failure: &catalyst.Failure{Type: "*errors.errorString", Message: msg}})
	return b
}

// complete appends executionCompleted with status.
func (b *hb) complete(status catalyst.Status) *hb {
	id := b.action()
	b.add(catalyst.Event{Type: catalyst.EventExecutionCompleted, ID: id,
		Detail: &catalyst.EventDetail{WorkflowStatus: status}})
	b.run.Status = status
	return b
}

func (b *hb) terminate() *hb {
	b.add(catalyst.Event{Type: catalyst.EventExecutionTerminated, ID: -1})
	return b.complete(catalyst.StatusTerminated)
}

func (b *hb) history() *catalyst.History {
	h := catalyst.NewHistory(b.run, b.events...)
	h.Format = catalyst.FormatProtoJSON
	return h
}
