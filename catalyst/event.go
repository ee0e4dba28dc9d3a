package catalyst

import (
	"math"
	"strings"
)

// NoID stands for an event id the source did not give: a completion whose
// taskScheduledId a Dapr CLI row does not print (ChildWorkflowFailed in
// every version, SubOrch* rows in v1.16), say. It is never a real id (the
// engine's ids are -1 or sequence numbers from 0), so nothing pairs with
// it by accident; renderers leave it out, and detect says how it paired
// such an event instead. In protojson and Catalyst's events an absent id
// is 0: protobuf omits a zero value.
const NoID int32 = math.MinInt32

// EventType is the kind of a history event, independent of the wire format
// and of the Dapr version's spelling (orchestratorStarted and workflowStarted
// are both EventWorkflowStarted).
type EventType uint8

// The event types of the durabletask history. EventUnknown keeps any event
// whose type twice does not recognise; its wire name and raw JSON are in the
// event's Detail.
const (
	EventUnknown EventType = iota
	EventExecutionStarted
	EventExecutionCompleted
	EventExecutionTerminated
	EventExecutionSuspended
	EventExecutionResumed
	EventExecutionStalled
	EventWorkflowStarted
	EventWorkflowCompleted
	EventTaskScheduled
	EventTaskCompleted
	EventTaskFailed
	EventTimerCreated
	EventTimerFired
	EventChildWorkflowCreated
	EventChildWorkflowCompleted
	EventChildWorkflowFailed
	EventEventRaised
	EventEventSent
	EventContinueAsNew
	EventDetachedWorkflowCreated
	eventTypeCount
)

// String returns the type's name as the Dapr CLI (v1.18) prints it in its
// TYPE column, e.g. "TaskScheduled" or "ChildWorkflowCreated".
func (t EventType) String() string {
	switch t {
	case EventExecutionStarted:
		return "ExecutionStarted"
	case EventExecutionCompleted:
		return "ExecutionCompleted"
	case EventExecutionTerminated:
		return "ExecutionTerminated"
	case EventExecutionSuspended:
		return "ExecutionSuspended"
	case EventExecutionResumed:
		return "ExecutionResumed"
	case EventExecutionStalled:
		return "ExecutionStalled"
	case EventWorkflowStarted:
		return "WorkflowStarted"
	case EventWorkflowCompleted:
		return "WorkflowCompleted"
	case EventTaskScheduled:
		return "TaskScheduled"
	case EventTaskCompleted:
		return "TaskCompleted"
	case EventTaskFailed:
		return "TaskFailed"
	case EventTimerCreated:
		return "TimerCreated"
	case EventTimerFired:
		return "TimerFired"
	case EventChildWorkflowCreated:
		return "ChildWorkflowCreated"
	case EventChildWorkflowCompleted:
		return "ChildWorkflowCompleted"
	case EventChildWorkflowFailed:
		return "ChildWorkflowFailed"
	case EventEventRaised:
		return "EventRaised"
	case EventEventSent:
		return "EventSent"
	case EventContinueAsNew:
		return "ContinueAsNew"
	case EventDetachedWorkflowCreated:
		return "DetachedWorkflowCreated"
	}
	return "Unknown"
}

// typeOfDisplayName maps a type's name exactly as String spells it (the
// Dapr CLI's and Catalyst's spelling, which nearly every event of their
// histories carries) to its type, without the normalising LookupEventType
// does; EventUnknown for any other spelling.
func typeOfDisplayName(name []byte) EventType {
	switch string(name) {
	case "WorkflowStarted":
		return EventWorkflowStarted
	case "TaskScheduled":
		return EventTaskScheduled
	case "TaskCompleted":
		return EventTaskCompleted
	case "TaskFailed":
		return EventTaskFailed
	case "TimerCreated":
		return EventTimerCreated
	case "TimerFired":
		return EventTimerFired
	case "EventRaised":
		return EventEventRaised
	case "EventSent":
		return EventEventSent
	case "ChildWorkflowCreated":
		return EventChildWorkflowCreated
	case "ChildWorkflowCompleted":
		return EventChildWorkflowCompleted
	case "ChildWorkflowFailed":
		return EventChildWorkflowFailed
	case "ExecutionStarted":
		return EventExecutionStarted
	case "ExecutionCompleted":
		return EventExecutionCompleted
	}
	return EventUnknown
}

// LookupEventType maps any known spelling of an event type to its EventType:
// protojson keys old and new ("orchestratorStarted", "childWorkflowInstanceCreated"),
// CLI names ("SubOrchCreated", "WorkflowStarted"), PascalCase, camelCase and
// snake_case. Matching ignores case, '_', '-' and spaces. ok is false for a
// name it does not know, which the caller keeps as EventUnknown.
func LookupEventType(name string) (t EventType, ok bool) {
	t = typeOfNormalised(name)
	if t == EventUnknown {
		t = typeOfNormalised(FoldName(name))
	}
	return t, t != EventUnknown
}

// FoldName lower-cases an ASCII name and drops '_', '-' and spaces, so that
// names spelt in different conventions compare equal ("TaskScheduled",
// "task_scheduled", "api-key", "ApiKey"): event types here, credential
// field names in fixtures.
func FoldName(name string) string {
	var b strings.Builder
	b.Grow(len(name))
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c == '_' || c == '-' || c == ' ':
			continue
		case 'A' <= c && c <= 'Z':
			c += 'a' - 'A'
		}
		b.WriteByte(c)
	}
	return b.String()
}

// typeOfNormalised maps a normalised name (see FoldName) to its type.
func typeOfNormalised(name string) EventType {
	switch name {
	case "executionstarted":
		return EventExecutionStarted
	case "executioncompleted":
		return EventExecutionCompleted
	case "executionterminated":
		return EventExecutionTerminated
	case "executionsuspended":
		return EventExecutionSuspended
	case "executionresumed":
		return EventExecutionResumed
	case "executionstalled":
		return EventExecutionStalled
	case "workflowstarted", "orchestratorstarted":
		return EventWorkflowStarted
	case "workflowcompleted", "orchestratorcompleted":
		return EventWorkflowCompleted
	case "taskscheduled":
		return EventTaskScheduled
	case "taskcompleted":
		return EventTaskCompleted
	case "taskfailed":
		return EventTaskFailed
	case "timercreated":
		return EventTimerCreated
	case "timerfired":
		return EventTimerFired
	case "childworkflowinstancecreated", "childworkflowcreated", "suborchestrationinstancecreated", "suborchcreated":
		return EventChildWorkflowCreated
	case "childworkflowinstancecompleted", "childworkflowcompleted", "suborchestrationinstancecompleted", "suborchcompleted":
		return EventChildWorkflowCompleted
	case "childworkflowinstancefailed", "childworkflowfailed", "suborchestrationinstancefailed", "suborchfailed":
		return EventChildWorkflowFailed
	case "eventraised":
		return EventEventRaised
	case "eventsent":
		return EventEventSent
	case "continueasnew":
		return EventContinueAsNew
	case "detachedworkflowinstancecreated", "detachedworkflowcreated":
		return EventDetachedWorkflowCreated
	}
	return EventUnknown
}

// PayloadField names the one payload an event of this type can carry, as the
// model and twice's JSON call it: "input" (scheduled, started, created, raised
// and sent events, and the reason of terminate, suspend and resume), "output"
// (the result of completions), or "" when the type carries none.
func (t EventType) PayloadField() string {
	switch t {
	case EventExecutionStarted, EventTaskScheduled, EventChildWorkflowCreated,
		EventEventRaised, EventEventSent, EventExecutionTerminated,
		EventExecutionSuspended, EventExecutionResumed, EventContinueAsNew:
		return "input"
	case EventExecutionCompleted, EventTaskCompleted, EventChildWorkflowCompleted:
		return "output"
	}
	return ""
}

// isInbound reports whether events of this type arrive from elsewhere
// (results, raised events, a child's start): their router's source is the
// sender's app, not the workflow's.
func (t EventType) isInbound() bool {
	switch t {
	case EventExecutionStarted, EventTaskCompleted, EventTaskFailed, EventChildWorkflowCompleted,
		EventChildWorkflowFailed, EventEventRaised:
		return true
	}
	return false
}

// IsNumbered reports whether the engine gives events of this type a sequence
// number (an eventId ≥ 0): the actions a workflow schedules. Every other
// event carries eventId -1.
func (t EventType) IsNumbered() bool {
	switch t {
	case EventTaskScheduled, EventTimerCreated, EventChildWorkflowCreated,
		EventEventSent, EventExecutionCompleted, EventDetachedWorkflowCreated:
		return true
	}
	return false
}

// TimerOrigin says why a timer was created (Dapr ≥1.18 records it on
// timerCreated; earlier versions record nothing, which is OriginNone).
type TimerOrigin uint8

// Timer origins, as the durabletask TimerCreatedEvent's origin oneof names them.
const (
	OriginNone TimerOrigin = iota
	OriginCreateTimer
	OriginExternalEvent
	OriginActivityRetry
	OriginChildWorkflowRetry
)

// String returns the origin as the Dapr CLI prints it ("activityRetry"), or
// "" for OriginNone.
func (o TimerOrigin) String() string {
	switch o {
	case OriginCreateTimer:
		return "createTimer"
	case OriginExternalEvent:
		return "externalEvent"
	case OriginActivityRetry:
		return "activityRetry"
	case OriginChildWorkflowRetry:
		return "childWorkflowRetry"
	}
	return ""
}

// Event is one history event, in the order the engine appended it.
//
// An id the source omits decodes as 0 where the format omits zero values
// (protojson, Catalyst), and as NoID where the format does not carry it
// (HasScheduledID, HasTimerID). Strings are the raw, unsanitised text of
// the history: render them only through safetext.
type Event struct {
	// Name is the activity, timer, event, workflow or child-workflow name.
	Name string
	// ExecutionID is the task execution id on taskScheduled, taskCompleted
	// and taskFailed, and the workflow's execution id (its continue-as-new
	// generation) on executionStarted.
	ExecutionID string
	// OriginID is what a timerCreated's origin points to: a task execution
	// id (activityRetry), a child instance id (childWorkflowRetry) or an
	// event name (externalEvent).
	OriginID string
	// InstanceID is the child instance id of a childWorkflowCreated, the
	// target instance of an eventSent, and the workflow instance id of an
	// executionStarted.
	InstanceID string
	// Payload is the event's one payload; Type.PayloadField says whether it
	// is the input or the output.
	Payload Payload
	// Failure is set on taskFailed, childWorkflowFailed and on an
	// executionCompleted that carries failure details.
	Failure *Failure
	// Router is the event's TaskRouter (source and target app ids), shared
	// between events with the same pair.
	Router *Router
	// Detail holds the rarely present fields.
	Detail *EventDetail

	// Timestamp is when the event was recorded.
	Timestamp Stamp
	// FireAt is when a timer fires (timerCreated, timerFired).
	FireAt Stamp

	// Index is the event's position in the history, from 0.
	Index int32
	// ID is the engine's eventId: the sequence number of an action event,
	// -1 for the others.
	ID int32
	// ScheduledID is the taskScheduledId a completion or failure points to
	// (the eventId of its taskScheduled or childWorkflowCreated); NoID when
	// the source does not say.
	ScheduledID int32
	// TimerID is the eventId of the timerCreated a timerFired fires; NoID
	// when the source does not say.
	TimerID int32

	// Type is the event's kind.
	Type EventType
	// Origin is why a timerCreated was created.
	Origin TimerOrigin

	// chainErr is, for a time the decoder rebuilt (rebuild.go), how far
	// its offset from its chain's first row may be off, in nanoseconds.
	// It fills what would be padding: an Event stays 144 bytes.
	chainErr uint32
}

// HasScheduledID reports whether the source gave the event's
// taskScheduledId.
func (e *Event) HasScheduledID() bool { return e.ScheduledID != NoID }

// HasTimerID reports whether the source gave the event's timerId.
func (e *Event) HasTimerID() bool { return e.TimerID != NoID }

// TypeName returns the event type's display name; for an unknown type, the
// name it had on the wire (or "Unknown").
func (e *Event) TypeName() string {
	if e.Type == EventUnknown && e.Detail != nil && e.Detail.TypeName != "" {
		return e.Detail.TypeName
	}
	return e.Type.String()
}

// TypeLabel is how an event's type is shown to people: the type's name,
// and for a type twice does not know "Unknown(" and the name it had on the
// wire ")", so an event kept as unknown is never shown under a known
// type's name (a PascalCase "TaskScheduled" key in protojson, say).
func (e *Event) TypeLabel() string {
	if e.Type == EventUnknown && e.Detail != nil && e.Detail.TypeName != "" {
		return e.Type.String() + "(" + e.Detail.TypeName + ")"
	}
	return e.Type.String()
}

// Failure is the failure details of a failed task, child workflow or workflow.
type Failure struct {
	Type         string
	Message      string
	StackTrace   string
	NonRetriable bool
	// Inner is the failure that caused this one, when the SDK recorded it.
	Inner *Failure
}

// Router is the source and target app ids of an event (Dapr ≥1.16). Target
// is empty when the event stays in the source app.
type Router struct {
	Source string
	Target string
}

// EventDetail holds the fields few events have. Decoders allocate it only
// when one of them is present.
type EventDetail struct {
	// TypeName is the event type as written on the wire (kept for unknown
	// types and to show which spelling a history used).
	TypeName string
	// Raw is the event's JSON exactly as given, kept for unknown types.
	Raw string
	// WorkflowStatus is the status an executionCompleted records.
	WorkflowStatus Status
	// RetryParentInstanceID groups child-workflow retries (Dapr master).
	RetryParentInstanceID string
	// RerunParentInstanceID is the run this event was copied from by a rerun.
	RerunParentInstanceID string
	// ParentInstanceID and ParentName describe a child workflow's parent on
	// its executionStarted.
	ParentInstanceID string
	ParentName       string
	// StallReason and StallDescription explain an executionStalled.
	StallReason      string
	StallDescription string
	// Version is the task, workflow or child version, when given.
	Version string
}
