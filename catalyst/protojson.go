package catalyst

import "strconv"

// protoEventType maps a protojson event-type key, in the Dapr ≥1.18 or the
// older spelling, to its type.
func protoEventType(key []byte) (EventType, bool) {
	switch string(key) {
	case "executionStarted":
		return EventExecutionStarted, true
	case "executionCompleted":
		return EventExecutionCompleted, true
	case "executionTerminated":
		return EventExecutionTerminated, true
	case "executionSuspended":
		return EventExecutionSuspended, true
	case "executionResumed":
		return EventExecutionResumed, true
	case "executionStalled":
		return EventExecutionStalled, true
	case "workflowStarted", "orchestratorStarted":
		return EventWorkflowStarted, true
	case "workflowCompleted", "orchestratorCompleted":
		return EventWorkflowCompleted, true
	case "taskScheduled":
		return EventTaskScheduled, true
	case "taskCompleted":
		return EventTaskCompleted, true
	case "taskFailed":
		return EventTaskFailed, true
	case "timerCreated":
		return EventTimerCreated, true
	case "timerFired":
		return EventTimerFired, true
	case "childWorkflowInstanceCreated", "subOrchestrationInstanceCreated":
		return EventChildWorkflowCreated, true
	case "childWorkflowInstanceCompleted", "subOrchestrationInstanceCompleted":
		return EventChildWorkflowCompleted, true
	case "childWorkflowInstanceFailed", "subOrchestrationInstanceFailed":
		return EventChildWorkflowFailed, true
	case "eventRaised":
		return EventEventRaised, true
	case "eventSent":
		return EventEventSent, true
	case "continueAsNew":
		return EventContinueAsNew, true
	case "detachedWorkflowInstanceCreated":
		return EventDetachedWorkflowCreated, true
	}
	return EventUnknown, false
}

// Fields of the protojson event messages (the value of the event-type key).
// Spellings of one field across Dapr versions share a number. A new field
// takes four edits, all in this file: its number here, its keys in
// protoField, its bit in protoFields for every event type whose message
// has it, and its decode line in protoBody, which names the field in its
// errors (TestEveryEventFieldIsWired fails when one is missed).
const (
	pfUnknown = iota
	pfIgnored // known, not kept: trace contexts, tags, attestations, …
	pfName
	pfVersion
	pfInput
	pfResult
	pfTaskExecutionID
	pfTaskScheduledID
	pfFailureDetails
	pfInstanceID
	pfWorkflowInstance
	pfParentInstance
	pfFireAt
	pfTimerID
	pfWorkflowStatus
	pfReason
	pfDescription
	pfRerunParent
	pfRetryParent
	pfCreateTimer
	pfExternalEvent
	pfActivityRetry
	pfChildWorkflowRetry
	pfCount // not a field: how many numbers there are
)

// protoFields is a bit set of numbers below 32.
const _ uint32 = 1 << (pfCount - 1)

// protoField numbers a key of an event message.
func protoField(key []byte) int {
	switch string(key) {
	case "name":
		return pfName
	case "version":
		return pfVersion
	case "input":
		return pfInput
	case "result":
		return pfResult
	case "taskExecutionId":
		return pfTaskExecutionID
	case "taskScheduledId":
		return pfTaskScheduledID
	case "failureDetails":
		return pfFailureDetails
	case "instanceId":
		return pfInstanceID
	case "workflowInstance", "orchestrationInstance":
		return pfWorkflowInstance
	case "parentInstance":
		return pfParentInstance
	case "fireAt":
		return pfFireAt
	case "timerId":
		return pfTimerID
	case "workflowStatus", "orchestrationStatus":
		return pfWorkflowStatus
	case "reason":
		return pfReason
	case "description":
		return pfDescription
	case "rerunParentInstanceInfo":
		return pfRerunParent
	case "retryParentInstanceInfo":
		return pfRetryParent
	case "createTimer":
		return pfCreateTimer
	case "externalEvent":
		return pfExternalEvent
	case "activityRetry":
		return pfActivityRetry
	case "childWorkflowRetry":
		return pfChildWorkflowRetry
	case "parentTraceContext", "scheduledStartTimestamp", "workflowSpanID", "orchestrationSpanID",
		"tags", "historyPropagationScope", "attestation", "signerCertificate", "recurse":
		return pfIgnored
	}
	return pfUnknown
}

// protoFields returns, as a bit set, the fields an event type's message has
// (history-format.md §1.2); any other key in it is counted as unknown.
func protoFields(t EventType) uint32 {
	const (
		name     = 1 << pfName
		version  = 1 << pfVersion
		input    = 1 << pfInput
		result   = 1 << pfResult
		execID   = 1 << pfTaskExecutionID
		schedID  = 1 << pfTaskScheduledID
		failure  = 1 << pfFailureDetails
		instance = 1 << pfInstanceID
		rerun    = 1 << pfRerunParent
		origins  = 1<<pfCreateTimer | 1<<pfExternalEvent | 1<<pfActivityRetry | 1<<pfChildWorkflowRetry
	)
	switch t {
	case EventExecutionStarted:
		return name | version | input | 1<<pfWorkflowInstance | 1<<pfParentInstance
	case EventExecutionCompleted:
		return 1<<pfWorkflowStatus | result | failure
	case EventExecutionTerminated, EventExecutionSuspended, EventExecutionResumed, EventContinueAsNew:
		return input
	case EventExecutionStalled:
		return 1<<pfReason | 1<<pfDescription
	case EventWorkflowStarted:
		return version
	case EventTaskScheduled:
		return name | version | input | execID | rerun
	case EventTaskCompleted:
		return schedID | result | execID
	case EventTaskFailed:
		return schedID | failure | execID
	case EventTimerCreated:
		return 1<<pfFireAt | name | rerun | origins
	case EventTimerFired:
		return 1<<pfFireAt | 1<<pfTimerID
	case EventChildWorkflowCreated:
		return instance | name | version | input | rerun | 1<<pfRetryParent
	case EventChildWorkflowCompleted:
		return schedID | result
	case EventChildWorkflowFailed:
		return schedID | failure
	case EventEventSent:
		return instance | name | input
	case EventEventRaised:
		return name | input
	case EventDetachedWorkflowCreated:
		return instance | name | version | input
	}
	return 0
}

// protoEvent decodes one event of Dapr's GetInstanceHistory protojson:
// {"eventId":…, "timestamp":…, "<eventType>":{…}, "router":{…}}.
func (d *decoder) protoEvent(e *Event) error {
	sc := d.sc
	if err := sc.Mark(); err != nil {
		return d.fail(err)
	}
	defer sc.Unmark()
	if err := sc.BeginObject(); err != nil {
		return d.kindError("event", "an object")
	}
	typeKey := ""
	var seen uint8
	const (
		seenID = 1 << iota
		seenTimestamp
		seenRouter
	)
	for {
		key, more, err := sc.NextKey()
		if err != nil {
			return d.fail(err)
		}
		if !more {
			break
		}
		var bit uint8
		switch string(key) {
		case "eventId":
			bit = seenID
		case "timestamp":
			bit = seenTimestamp
		case "router":
			bit = seenRouter
		}
		if bit != 0 {
			if seen&bit != 0 {
				return d.duplicate(key)
			}
			seen |= bit
		}
		switch bit {
		case seenID:
			e.ID, err = d.int32Of("eventId")
		case seenTimestamp:
			e.Timestamp, err = d.stampOf("timestamp")
		case seenRouter:
			e.Router, err = d.protoRouter()
		default:
			if t, ok := protoEventType(key); ok {
				if typeKey != "" {
					return d.errorf("the event has two event types, %q and %q", typeKey, string(key))
				}
				typeKey = t.String() // a constant: the wire key is copied only for errors
				e.Type = t
				err = d.protoBody(e)
				break
			}
			d.keep = append(d.keep[:0], key...)
			k, perr := sc.PeekKind()
			if perr != nil {
				return d.fail(perr)
			}
			if k != '{' {
				err = d.skipUnknown()
				break
			}
			// An event type twice does not know: kept, with its JSON.
			if typeKey != "" {
				return d.errorf("the event has two event types, %q and %s", typeKey, quoteShort(d.keep))
			}
			typeKey = string(d.keep)
			e.Type = EventUnknown
			detail(e).TypeName = typeKey
			if err = sc.SkipValue(); err != nil {
				err = d.fail(err)
			}
		}
		if err != nil {
			return err
		}
	}
	if typeKey == "" {
		return d.errorf("the event has no event type (a key such as \"taskScheduled\" whose value is an object)")
	}
	if e.Type == EventUnknown {
		e.Detail.Raw = string(sc.Marked())
	}
	return nil
}

// protoRouter decodes a TaskRouter {sourceAppID, targetAppID, targetAppNamespace}.
func (d *decoder) protoRouter() (*Router, error) {
	sc := d.sc
	if ok, err := d.beginObject("router"); !ok {
		return nil, err
	}
	var src, dst string
	var seen uint8
	for {
		key, more, err := sc.NextKey()
		if err != nil {
			return nil, d.fail(err)
		}
		if !more {
			break
		}
		var bit uint8
		switch string(key) {
		case "sourceAppID":
			bit = 1
		case "targetAppID":
			bit = 2
		default:
			if string(key) == "targetAppNamespace" {
				err = sc.SkipValue()
				if err != nil {
					return nil, d.fail(err)
				}
			} else if err = d.skipUnknown(); err != nil {
				return nil, err
			}
			continue
		}
		if seen&bit != 0 {
			return nil, d.duplicate(key)
		}
		seen |= bit
		if bit == 1 {
			src, err = d.internOf("sourceAppID")
		} else {
			dst, err = d.internOf("targetAppID")
		}
		if err != nil {
			return nil, err
		}
	}
	return d.rt.get(src, dst), nil
}

// protoBody decodes the message under the event-type key.
func (d *decoder) protoBody(e *Event) error {
	sc := d.sc
	if err := sc.BeginObject(); err != nil {
		// The field name is built only for the message.
		_, err = d.otherKind(err, lowerFirst(e.Type.String()), "an object")
		return err
	}
	allowed := protoFields(e.Type)
	var seen uint32
	for {
		key, more, err := sc.NextKey()
		if err != nil {
			return d.fail(err)
		}
		if !more {
			break
		}
		f := protoField(key)
		if f == pfIgnored {
			if err := sc.SkipValue(); err != nil {
				return d.fail(err)
			}
			continue
		}
		if allowed&(1<<f) == 0 {
			if err := d.skipUnknown(); err != nil {
				return err
			}
			continue
		}
		if seen&(1<<f) != 0 {
			return d.duplicate(key)
		}
		seen |= 1 << f
		switch f {
		case pfName:
			e.Name, err = d.internOf("name")
		case pfVersion:
			if e.Type == EventWorkflowStarted {
				err = d.protoWorkflowVersion(e)
			} else {
				var v string
				if v, err = d.internOf("version"); v != "" {
					detail(e).Version = v
				}
			}
		case pfInput:
			e.Payload, err = d.quotedPayloadOf("input")
		case pfResult:
			e.Payload, err = d.quotedPayloadOf("result")
		case pfTaskExecutionID:
			e.ExecutionID, err = d.internOf("taskExecutionId")
		case pfTaskScheduledID:
			e.ScheduledID, err = d.int32Of("taskScheduledId")
		case pfTimerID:
			e.TimerID, err = d.int32Of("timerId")
		case pfFireAt:
			e.FireAt, err = d.stampOf("fireAt")
		case pfInstanceID:
			e.InstanceID, err = d.internOf("instanceId")
		case pfFailureDetails:
			e.Failure, err = d.protoFailure("failureDetails")
		case pfWorkflowInstance:
			err = d.protoInstance(&e.InstanceID, &e.ExecutionID)
		case pfParentInstance:
			err = d.protoParent(e)
		case pfWorkflowStatus:
			var s string
			if s, err = d.statusOf("workflowStatus", orchestrationStatusName); s != "" {
				detail(e).WorkflowStatus = Status(s)
			}
		case pfReason:
			var s string
			if s, err = d.statusOf("reason", stalledReasonName); s != "" {
				detail(e).StallReason = s
			}
		case pfDescription:
			var s string
			if s, err = d.stringOf("description"); s != "" {
				detail(e).StallDescription = s
			}
		case pfRerunParent:
			var s string
			if s, err = d.protoInstanceID("rerunParentInstanceInfo"); s != "" {
				detail(e).RerunParentInstanceID = s
			}
		case pfRetryParent:
			var s string
			if s, err = d.protoInstanceID("retryParentInstanceInfo"); s != "" {
				detail(e).RetryParentInstanceID = s
			}
		case pfCreateTimer, pfExternalEvent, pfActivityRetry, pfChildWorkflowRetry:
			err = d.protoOrigin(e, f)
		}
		if err != nil {
			return err
		}
	}
	if e.Type == EventExecutionStalled && (e.Detail == nil || e.Detail.StallReason == "") {
		// protojson omits an enum's zero value: PATCH_MISMATCH.
		detail(e).StallReason = stalledReasonName(0)
	}
	return nil
}

// lowerFirst turns a type name into its protojson key for messages
// ("TaskScheduled" → "taskScheduled").
func lowerFirst(s string) string {
	if s == "" || s[0] < 'A' || s[0] > 'Z' {
		return s
	}
	return string(s[0]+'a'-'A') + s[1:]
}

// orchestrationStatusName names an OrchestrationStatus enum value.
func orchestrationStatusName(n int64) string {
	names := [...]string{"RUNNING", "COMPLETED", "CONTINUED_AS_NEW", "FAILED", "CANCELED",
		"TERMINATED", "PENDING", "SUSPENDED", "STALLED"}
	if n >= 0 && n < int64(len(names)) {
		return "ORCHESTRATION_STATUS_" + names[n]
	}
	return strconv.FormatInt(n, 10)
}

// stalledReasonName names a StalledReason enum value.
func stalledReasonName(n int64) string {
	switch n {
	case 0:
		return "PATCH_MISMATCH"
	case 1:
		return "VERSION_NOT_AVAILABLE"
	case 2:
		return "PAYLOAD_SIZE_EXCEEDED"
	}
	return strconv.FormatInt(n, 10)
}

// protoOrigin decodes a timerCreated's origin branch.
func (d *decoder) protoOrigin(e *Event, f int) error {
	if e.Origin != OriginNone {
		return d.errorf("the timer has two origins")
	}
	sc := d.sc
	if null, err := d.isNull(); null || err != nil {
		return err
	}
	var want string
	switch f {
	case pfCreateTimer:
		e.Origin = OriginCreateTimer
	case pfExternalEvent:
		e.Origin, want = OriginExternalEvent, "name"
	case pfActivityRetry:
		e.Origin, want = OriginActivityRetry, "taskExecutionId"
	case pfChildWorkflowRetry:
		e.Origin, want = OriginChildWorkflowRetry, "instanceId"
	}
	if err := sc.BeginObject(); err != nil {
		return d.kindError(e.Origin.String(), "an object")
	}
	seen := false
	for {
		key, more, err := sc.NextKey()
		if err != nil {
			return d.fail(err)
		}
		if !more {
			return nil
		}
		if want == "" || string(key) != want {
			if err := d.skipUnknown(); err != nil {
				return err
			}
			continue
		}
		if seen {
			return d.duplicate(key)
		}
		seen = true
		if e.OriginID, err = d.internOf(want); err != nil {
			return err
		}
	}
}

// protoInstance decodes {instanceId, executionId} (workflowInstance, or
// orchestrationInstance before Dapr 1.18).
func (d *decoder) protoInstance(instanceID, executionID *string) error {
	sc := d.sc
	if ok, err := d.beginObject("workflowInstance"); !ok {
		return err
	}
	var seen uint8
	for {
		key, more, err := sc.NextKey()
		if err != nil {
			return d.fail(err)
		}
		if !more {
			return nil
		}
		var bit uint8
		var dst *string
		switch string(key) {
		case "instanceId":
			bit, dst = 1, instanceID
		case "executionId":
			bit, dst = 2, executionID
		default:
			if err := d.skipUnknown(); err != nil {
				return err
			}
			continue
		}
		if seen&bit != 0 {
			return d.duplicate(key)
		}
		seen |= bit
		if *dst, err = d.internOf(string(key)); err != nil {
			return err
		}
	}
}

// protoInstanceID decodes {instanceID} (rerun and retry parent info).
func (d *decoder) protoInstanceID(field string) (string, error) {
	sc := d.sc
	if ok, err := d.beginObject(field); !ok {
		return "", err
	}
	id, seen := "", false
	for {
		key, more, err := sc.NextKey()
		if err != nil {
			return "", d.fail(err)
		}
		if !more {
			return id, nil
		}
		if string(key) != "instanceID" {
			if err := d.skipUnknown(); err != nil {
				return "", err
			}
			continue
		}
		if seen {
			return "", d.duplicate(key)
		}
		seen = true
		if id, err = d.internOf("instanceID"); err != nil {
			return "", err
		}
	}
}

// protoParent decodes an executionStarted's parentInstance.
func (d *decoder) protoParent(e *Event) error {
	sc := d.sc
	if ok, err := d.beginObject("parentInstance"); !ok {
		return err
	}
	var seen uint8
	for {
		key, more, err := sc.NextKey()
		if err != nil {
			return d.fail(err)
		}
		if !more {
			return nil
		}
		var bit uint8
		switch string(key) {
		case "name":
			bit = 1
		case "workflowInstance", "orchestrationInstance":
			bit = 2
		case "taskScheduledId", "version", "appID", "appNamespace":
			if err := sc.SkipValue(); err != nil {
				return d.fail(err)
			}
			continue
		default:
			if err := d.skipUnknown(); err != nil {
				return err
			}
			continue
		}
		if seen&bit != 0 {
			return d.duplicate(key)
		}
		seen |= bit
		if bit == 1 {
			var name string
			if name, err = d.internOf("name"); name != "" {
				detail(e).ParentName = name
			}
		} else {
			var id, exec string
			if err = d.protoInstance(&id, &exec); id != "" {
				detail(e).ParentInstanceID = id
			}
		}
		if err != nil {
			return err
		}
	}
}

// protoWorkflowVersion decodes a workflowStarted's version {name, patches}.
func (d *decoder) protoWorkflowVersion(e *Event) error {
	sc := d.sc
	if ok, err := d.beginObject("version"); !ok {
		return err
	}
	seen := false
	for {
		key, more, err := sc.NextKey()
		if err != nil {
			return d.fail(err)
		}
		if !more {
			return nil
		}
		switch string(key) {
		case "name":
			if seen {
				return d.duplicate(key)
			}
			seen = true
			var name string
			if name, err = d.internOf("name"); name != "" {
				detail(e).Version = name
			}
		case "patches":
			err = sc.SkipValue()
			if err != nil {
				err = d.fail(err)
			}
		default:
			err = d.skipUnknown()
		}
		if err != nil {
			return err
		}
	}
}

// protoFailure decodes TaskFailureDetails, following innerFailure.
func (d *decoder) protoFailure(field string) (*Failure, error) {
	sc := d.sc
	if ok, err := d.beginObject(field); !ok {
		return nil, err
	}
	f := &Failure{}
	var seen uint8
	for {
		key, more, err := sc.NextKey()
		if err != nil {
			return nil, d.fail(err)
		}
		if !more {
			return f, nil
		}
		var bit uint8
		switch string(key) {
		case "errorType":
			bit = 1
		case "errorMessage":
			bit = 2
		case "stackTrace":
			bit = 4
		case "innerFailure":
			bit = 8
		case "isNonRetriable":
			bit = 16
		default:
			if err := d.skipUnknown(); err != nil {
				return nil, err
			}
			continue
		}
		if seen&bit != 0 {
			return nil, d.duplicate(key)
		}
		seen |= bit
		switch bit {
		case 1:
			f.Type, err = d.internOf("errorType")
		case 2:
			f.Message, err = d.internOf("errorMessage")
		case 4:
			f.StackTrace, err = d.stringOf("stackTrace")
		case 8:
			f.Inner, err = d.protoFailure("innerFailure")
		case 16:
			f.NonRetriable, err = d.boolOf("isNonRetriable")
		}
		if err != nil {
			return nil, err
		}
	}
}
