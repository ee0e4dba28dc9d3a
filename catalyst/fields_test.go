package catalyst

import (
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// protoFieldKeys is one key of every protojson event field, by number.
var protoFieldKeys = map[int]string{
	pfName: "name", pfVersion: "version", pfInput: "input", pfResult: "result",
	pfTaskExecutionID: "taskExecutionId", pfTaskScheduledID: "taskScheduledId",
	pfFailureDetails: "failureDetails", pfInstanceID: "instanceId",
	pfWorkflowInstance: "workflowInstance", pfParentInstance: "parentInstance",
	pfFireAt: "fireAt", pfTimerID: "timerId", pfWorkflowStatus: "workflowStatus",
	pfReason: "reason", pfDescription: "description",
	pfRerunParent: "rerunParentInstanceInfo", pfRetryParent: "retryParentInstanceInfo",
	pfCreateTimer: "createTimer", pfExternalEvent: "externalEvent",
	pfActivityRetry: "activityRetry", pfChildWorkflowRetry: "childWorkflowRetry",
}

// flatFieldKeys is one key of every Catalyst flattened event field, by
// number.
var flatFieldKeys = map[int]string{
	ffType: "event_type", ffEventID: "event_id", ffTimestamp: "timestamp", ffName: "name",
	ffTaskScheduledID: "task_scheduled_id", ffTaskExecutionID: "task_execution_id",
	ffTimerID: "timer_id", ffFireAt: "fire_at", ffInstanceID: "instance_id",
	ffOriginActivityRetry:      "origin__activity_retry_task_execution_id",
	ffOriginChildWorkflowRetry: "origin__child_workflow_retry_instance_id",
	ffOriginExternalEvent:      "origin__external_event_name", ffOriginCreateTimer: "origin__create_timer",
	ffFailureType: "failure_details_error_type", ffFailureMessage: "failure_details_error_message",
	ffFailureStack: "failure_details_stack_trace", ffFailureNonRetriable: "failure_details_is_non_retriable",
	ffInput: "input", ffOutput: "output", ffWorkflowStatus: "workflow_status",
	ffRetryParent: "retry_parent_instance_info_instance_id", ffRerunParent: "rerun_parent_instance_info_instance_id",
	ffRouterSource: "router_source_app_id", ffRouterTarget: "router_target_app_id",
	ffWorkflowInstanceID: "workflow_instance_instance_id", ffWorkflowExecutionID: "workflow_instance_execution_id",
	ffParentInstanceID: "parent_instance_workflow_instance_instance_id", ffParentName: "parent_instance_name",
	ffVersion: "version", ffReason: "reason", ffDescription: "description",
}

// protoTypeKey is the protojson key of an event type (Dapr ≥ 1.18's).
func protoTypeKey(t EventType) string {
	for _, k := range []string{"executionStarted", "executionCompleted", "executionTerminated", "executionSuspended",
		"executionResumed", "executionStalled", "workflowStarted", "workflowCompleted", "taskScheduled",
		"taskCompleted", "taskFailed", "timerCreated", "timerFired", "childWorkflowInstanceCreated",
		"childWorkflowInstanceCompleted", "childWorkflowInstanceFailed", "eventRaised", "eventSent",
		"continueAsNew", "detachedWorkflowInstanceCreated"} {
		if got, ok := protoEventType([]byte(k)); ok && got == t {
			return k
		}
	}
	return ""
}

// labelled is the field an error names: `"<label>" is …`.
var labelled = regexp.MustCompile(`"([^"]+)" is `)

// TestEveryEventFieldIsWired: every number of a protojson or Catalyst
// flattened event field is wired through each place a field needs (see
// the comments above pfUnknown and ffUnknown): a key maps to it; for
// protojson, some event type's message has it; and it has a decode line,
// which reads the value and names the field (one of its own spellings)
// when the value is of the wrong kind, or, for a field that takes any
// value (a payload, an empty oneof branch), changes the event. A field
// added with one of those edits missed fails here.
func TestEveryEventFieldIsWired(t *testing.T) {
	// wired decodes docs, which give the field an array value, and docs
	// without the field, and checks what the decode line did.
	wired := func(t *testing.T, key string, with, without []string, spelling func(string) int, f int) {
		t.Helper()
		for i := range with {
			h, err := Decode(strings.NewReader(with[i]), DecodeOptions{})
			if err != nil {
				var de *DecodeError
				m := labelled.FindStringSubmatch(err.Error())
				if !errors.As(err, &de) || m == nil || spelling(m[1]) != f {
					t.Errorf("%s: an array decodes to %v; want an error naming the field (is its decode line missing, or labelled with another field's name?)", key, err)
				}
				return
			}
			base, err := Decode(strings.NewReader(without[i]), DecodeOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(h.At(0), base.At(0)) {
				return
			}
		}
		t.Errorf("%s: the event is the same with and without the field: it has no decode line", key)
	}
	for f := pfName; f < pfCount; f++ {
		key, ok := protoFieldKeys[f]
		if !ok {
			t.Errorf("protojson field %d has no key in protoFieldKeys: add one", f)
			continue
		}
		if got := protoField([]byte(key)); got != f {
			t.Errorf("protoField(%q) = %d, want %d", key, got, f)
		}
		var carrier EventType
		for et := EventType(0); et < 64; et++ {
			if protoFields(et)&(1<<f) != 0 {
				carrier = et
				break
			}
		}
		if carrier == EventUnknown {
			t.Errorf("%s: no event type's message has it in protoFields", key)
			continue
		}
		doc := func(field string) string {
			return fmt.Sprintf(`{"events":[{"eventId":1,"timestamp":"2026-01-01T00:00:00Z","%s":{%s}}]}`, protoTypeKey(carrier), field)
		}
		wired(t, key, []string{doc(`"` + key + `":[]`)}, []string{doc("")}, func(s string) int { return protoField([]byte(s)) }, f)
	}
	for f := ffType; f < ffCount; f++ {
		key, ok := flatFieldKeys[f]
		if !ok {
			t.Errorf("flat field %d has no key in flatFieldKeys: add one", f)
			continue
		}
		if got := flatField([]byte(key)); got != f {
			t.Errorf("flatField(%q) = %d, want %d", key, got, f)
		}
		// Events of types that carry an input, an output, or neither.
		var with, without []string
		for _, typ := range []string{`"event_type":"TimerCreated"`, `"event_type":"TaskScheduled"`, `"event_type":"TaskCompleted"`} {
			if f == ffType {
				typ = ""
			}
			with = append(with, `[{`+typ+`,"`+key+`":[]}]`)
			without = append(without, `[{`+typ+`}]`)
		}
		if f == ffType {
			with, without = []string{`[{"` + key + `":[]}]`}, []string{`[]`}
		}
		wired(t, key, with, without, func(s string) int { return flatField([]byte(s)) }, f)
	}
}
