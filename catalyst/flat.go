package catalyst

import "bytes"

// Fields of a Catalyst flattened event: the proto paths in snake_case, the
// event-type message hoisted to the top, nested messages joined with '_' and
// oneof branches with "__" (history-format.md §1.5). Spellings of one field
// share a number. A new field takes three edits, all in this file: its
// number here, its keys in flatField, and its decode line in flatEvent,
// which names the field in its errors (TestEveryEventFieldIsWired fails
// when one is missed).
const (
	ffUnknown = iota
	ffIgnored
	ffType
	ffEventID
	ffTimestamp
	ffName
	ffTaskScheduledID
	ffTaskExecutionID
	ffTimerID
	ffFireAt
	ffInstanceID
	ffOriginActivityRetry
	ffOriginChildWorkflowRetry
	ffOriginExternalEvent
	ffOriginCreateTimer
	ffFailureType
	ffFailureMessage
	ffFailureStack
	ffFailureNonRetriable
	ffInput
	ffOutput
	ffWorkflowStatus
	ffRetryParent
	ffRerunParent
	ffRouterSource
	ffRouterTarget
	ffWorkflowInstanceID
	ffWorkflowExecutionID
	ffParentInstanceID
	ffParentName
	ffVersion
	ffReason
	ffDescription
	ffCount // not a field: how many numbers there are
)

// flatEvent's set of fields seen is a uint64.
const _ uint64 = 1 << (ffCount - 1)

// flatField numbers a key of a flattened event.
func flatField(key []byte) int {
	switch string(key) {
	case "event_type", "type", "eventType", "kind":
		return ffType
	case "event_id":
		return ffEventID
	case "timestamp":
		return ffTimestamp
	case "name":
		return ffName
	case "task_scheduled_id":
		return ffTaskScheduledID
	case "task_execution_id":
		return ffTaskExecutionID
	case "timer_id":
		return ffTimerID
	case "fire_at":
		return ffFireAt
	case "instance_id":
		return ffInstanceID
	case "origin__activity_retry_task_execution_id":
		return ffOriginActivityRetry
	case "origin__child_workflow_retry_instance_id":
		return ffOriginChildWorkflowRetry
	case "origin__external_event_name":
		return ffOriginExternalEvent
	case "origin__create_timer":
		return ffOriginCreateTimer
	case "failure_details_error_type":
		return ffFailureType
	case "failure_details_error_message":
		return ffFailureMessage
	case "failure_details_stack_trace":
		return ffFailureStack
	case "failure_details_is_non_retriable":
		return ffFailureNonRetriable
	case "input":
		return ffInput
	case "result", "output":
		return ffOutput
	case "workflow_status", "orchestration_status":
		return ffWorkflowStatus
	case "retry_parent_instance_info_instance_id":
		return ffRetryParent
	case "rerun_parent_instance_info_instance_id":
		return ffRerunParent
	case "router_source_app_id":
		return ffRouterSource
	case "router_target_app_id":
		return ffRouterTarget
	case "workflow_instance_instance_id", "orchestration_instance_instance_id":
		return ffWorkflowInstanceID
	case "workflow_instance_execution_id", "orchestration_instance_execution_id":
		return ffWorkflowExecutionID
	case "parent_instance_workflow_instance_instance_id", "parent_instance_orchestration_instance_instance_id":
		return ffParentInstanceID
	case "parent_instance_name":
		return ffParentName
	case "version":
		return ffVersion
	case "reason":
		return ffReason
	case "description":
		return ffDescription
	case "router_target_app_namespace", "parent_instance_task_scheduled_id", "parent_instance_version",
		"parent_instance_workflow_instance_execution_id", "parent_instance_orchestration_instance_execution_id",
		"parent_instance_app_id", "parent_instance_app_namespace":
		return ffIgnored
	}
	return ffUnknown
}

// flatEvent decodes one Catalyst flattened event.
func (d *decoder) flatEvent(e *Event) error {
	sc := d.sc
	if err := sc.Mark(); err != nil {
		return d.fail(err)
	}
	defer sc.Unmark()
	if err := sc.BeginObject(); err != nil {
		return d.kindError("event", "an object")
	}
	var seen uint64
	var input, output Payload
	var source, target, workflowID string
	typed := false
	for {
		key, more, err := sc.NextKey()
		if err != nil {
			return d.fail(err)
		}
		if !more {
			break
		}
		f := flatField(key)
		switch f {
		case ffUnknown:
			if depth, leaf := innerFailureKey(key); depth > 0 {
				if err := d.flatInnerFailure(e, depth, leaf, key); err != nil {
					return err
				}
				continue
			}
			if err := d.skipUnknown(); err != nil {
				return err
			}
			continue
		case ffIgnored:
			if err := sc.SkipValue(); err != nil {
				return d.fail(err)
			}
			continue
		}
		if seen&(1<<f) != 0 {
			if f == ffType {
				return d.errorf("the event has two event-type keys (event_type, type, eventType or kind)")
			}
			return d.duplicate(key)
		}
		seen |= 1 << f
		var s string
		switch f {
		case ffType:
			typed = true
			err = d.flatType(e)
		case ffEventID:
			e.ID, err = d.int32Of("event_id")
		case ffTimestamp:
			e.Timestamp, err = d.stampOf("timestamp")
		case ffName:
			e.Name, err = d.internOf("name")
		case ffTaskScheduledID:
			e.ScheduledID, err = d.int32Of("task_scheduled_id")
		case ffTaskExecutionID:
			e.ExecutionID, err = d.internOf("task_execution_id")
		case ffTimerID:
			e.TimerID, err = d.int32Of("timer_id")
		case ffFireAt:
			e.FireAt, err = d.stampOf("fire_at")
		case ffInstanceID:
			e.InstanceID, err = d.internOf("instance_id")
		case ffOriginActivityRetry, ffOriginChildWorkflowRetry, ffOriginExternalEvent, ffOriginCreateTimer:
			err = d.flatOrigin(e, f)
		case ffFailureType:
			if s, err = d.internOf("failure_details_error_type"); s != "" {
				failureOf(e).Type = s
			}
		case ffFailureMessage:
			if s, err = d.internOf("failure_details_error_message"); s != "" {
				failureOf(e).Message = s
			}
		case ffFailureStack:
			if s, err = d.stringOf("failure_details_stack_trace"); s != "" {
				failureOf(e).StackTrace = s
			}
		case ffFailureNonRetriable:
			var v bool
			if v, err = d.boolOf("failure_details_is_non_retriable"); v {
				failureOf(e).NonRetriable = true
			}
		case ffInput:
			input, err = d.anyPayloadOf()
		case ffOutput:
			output, err = d.anyPayloadOf()
		case ffWorkflowStatus:
			if s, err = d.statusOf("workflow_status", orchestrationStatusName); s != "" {
				detail(e).WorkflowStatus = Status(s)
			}
		case ffRetryParent:
			if s, err = d.internOf("retry_parent_instance_info_instance_id"); s != "" {
				detail(e).RetryParentInstanceID = s
			}
		case ffRerunParent:
			if s, err = d.internOf("rerun_parent_instance_info_instance_id"); s != "" {
				detail(e).RerunParentInstanceID = s
			}
		case ffRouterSource:
			source, err = d.internOf("router_source_app_id")
		case ffRouterTarget:
			target, err = d.internOf("router_target_app_id")
		case ffWorkflowInstanceID:
			workflowID, err = d.internOf("workflow_instance_instance_id")
		case ffWorkflowExecutionID:
			e.ExecutionID, err = d.internOf("workflow_instance_execution_id")
		case ffParentInstanceID:
			if s, err = d.internOf("parent_instance_workflow_instance_instance_id"); s != "" {
				detail(e).ParentInstanceID = s
			}
		case ffParentName:
			if s, err = d.internOf("parent_instance_name"); s != "" {
				detail(e).ParentName = s
			}
		case ffVersion:
			if s, err = d.internOf("version"); s != "" {
				detail(e).Version = s
			}
		case ffReason:
			if s, err = d.statusOf("reason", stalledReasonName); s != "" {
				detail(e).StallReason = s
			}
		case ffDescription:
			if s, err = d.stringOf("description"); s != "" {
				detail(e).StallDescription = s
			}
		}
		if err != nil {
			return err
		}
	}
	if !typed {
		return d.errorf("the event has no event type (looked for event_type, type, eventType and kind)")
	}
	if workflowID != "" && e.InstanceID == "" {
		e.InstanceID = workflowID
	}
	e.Router = d.rt.get(source, target)
	switch e.Type.PayloadField() {
	case "input":
		e.Payload = input
	case "output":
		e.Payload = output
	default:
		if e.Type == EventUnknown {
			e.Payload = input
			if input.State == PayloadNone {
				e.Payload = output
			}
		}
	}
	if e.Type == EventUnknown {
		e.Detail.Raw = string(sc.Marked())
	}
	return nil
}

// flatType decodes the event-type value, in any spelling LookupEventType
// knows; an unknown name makes an EventUnknown that keeps it.
func (d *decoder) flatType(e *Event) error {
	return d.typeValue(e, "event_type", "the event's type is empty")
}

// typeValue decodes the string value of field as e's type; an unknown name
// makes an EventUnknown that keeps it, an empty one is the error empty.
func (d *decoder) typeValue(e *Event, field, empty string) error {
	b, present, err := d.bytesOf(field)
	if err != nil {
		return err
	}
	if !present || len(b) == 0 {
		return d.errorf("%s", empty)
	}
	e.Type = d.lookupType(b)
	if e.Type == EventUnknown {
		detail(e).TypeName = d.strs.str(b)
	}
	return nil
}

// lookupType is LookupEventType with a cache of the names a decode has
// seen: a history spells its few types the same way a million times.
func (d *decoder) lookupType(name []byte) EventType {
	if t := typeOfDisplayName(name); t != EventUnknown {
		return t
	}
	t, ok := d.types[string(name)]
	if !ok {
		t, _ = LookupEventType(string(name))
		if d.types == nil {
			d.types = make(map[string]EventType)
		}
		if len(d.types) < 256 {
			d.types[string(name)] = t
		}
	}
	return t
}

// flatOrigin decodes one origin__* key of a timer.
func (d *decoder) flatOrigin(e *Event, f int) error {
	if null, err := d.isNull(); null || err != nil {
		return err
	}
	if e.Origin != OriginNone {
		return d.errorf("the timer has two origin__ keys")
	}
	var err error
	switch f {
	case ffOriginActivityRetry:
		e.Origin = OriginActivityRetry
		e.OriginID, err = d.internOf("origin__activity_retry_task_execution_id")
	case ffOriginChildWorkflowRetry:
		e.Origin = OriginChildWorkflowRetry
		e.OriginID, err = d.internOf("origin__child_workflow_retry_instance_id")
	case ffOriginExternalEvent:
		e.Origin = OriginExternalEvent
		e.OriginID, err = d.internOf("origin__external_event_name")
	default:
		// An empty message: whatever value stands for it means "set".
		e.Origin = OriginCreateTimer
		if err = d.sc.SkipValue(); err != nil {
			err = d.fail(err)
		}
	}
	return err
}

// failureOf returns e's Failure, allocating it on first use.
func failureOf(e *Event) *Failure {
	if e.Failure == nil {
		e.Failure = &Failure{}
	}
	return e.Failure
}

// maxInnerFailures bounds how deep a chain of inner failures twice follows.
const maxInnerFailures = 64

// innerFailureKey reads a flattened inner failure's key, as protojson's
// failureDetails.innerFailure… nests it: "failure_details_" then
// "inner_failure_" once per level, then error_type, error_message,
// stack_trace or is_non_retriable. depth is 0 for any other key.
func innerFailureKey(key []byte) (depth int, leaf string) {
	const prefix, inner = "failure_details_", "inner_failure_"
	rest, ok := bytes.CutPrefix(key, []byte(prefix))
	if !ok {
		return 0, ""
	}
	for {
		r, ok := bytes.CutPrefix(rest, []byte(inner))
		if !ok {
			break
		}
		depth++
		rest = r
	}
	switch string(rest) {
	case "error_type", "error_message", "stack_trace", "is_non_retriable":
		if depth > maxInnerFailures {
			return 0, ""
		}
		return depth, string(rest)
	}
	return 0, ""
}

// flatInnerFailure reads one field of the inner failure depth levels
// below the event's failure.
func (d *decoder) flatInnerFailure(e *Event, depth int, leaf string, key []byte) error {
	name := string(key)
	f := failureOf(e)
	for range depth {
		if f.Inner == nil {
			f.Inner = &Failure{}
		}
		f = f.Inner
	}
	var err error
	var dup bool
	switch leaf {
	case "error_type":
		dup = f.Type != ""
		f.Type, err = d.internOf(name)
	case "error_message":
		dup = f.Message != ""
		f.Message, err = d.internOf(name)
	case "stack_trace":
		dup = f.StackTrace != ""
		f.StackTrace, err = d.stringOf(name)
	case "is_non_retriable":
		dup = f.NonRetriable
		var v bool
		if v, err = d.boolOf(name); v {
			f.NonRetriable = true
		}
	}
	if err != nil {
		return err
	}
	if dup {
		return d.duplicate([]byte(name))
	}
	return nil
}
