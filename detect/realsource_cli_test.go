package detect

// What `dapr workflow history <id> -o json` prints, reproduced in our own
// words from dapr/cli v1.18.0: the row struct and the code that fills it
// (pkg/workflow/history.go: HistoryOutputWide, HistoryWide, eventTypeName,
// deriveName, deriveStatus, deriveDetails, routerStr, addAttr, flatTags,
// timerOriginInfo, trim), the sort it applies first
// (pkg/workflow/dclient/dclient.go InstanceHistory), the time format
// (utils/utils.go HumanizeDuration) and the printing
// (utils/utils.go PrintDetail: json.MarshalIndent(rows, "", "  "), no
// newline). CLI v1.18.0 is built with durabletask-go v0.12.1; the fields it
// reads are the same in v0.14.0, whose types the suite builds with. The
// only change: the first row's "Age:" is measured from a fixed instant,
// not the clock. Versions v1.16.4 and v1.17.0 are generated once by
// testdata/realsource/gen.

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/dapr/durabletask-go/api/protos"
	"google.golang.org/protobuf/types/known/wrapperspb"
)

// rsCLIRow is the CLI's HistoryOutputWide: its fields, in its order, with
// its JSON names and omitempty marks.
type rsCLIRow struct {
	Namespace   string    `json:"namespace,omitempty"`
	AppID       string    `json:"appID"`
	Play        int       `json:"play"`
	Type        string    `json:"type"`
	Name        *string   `json:"name"`
	EventID     *int32    `json:"eventId,omitempty"`
	Timestamp   time.Time `json:"timestamp"`
	Elapsed     string    `json:"elapsed"`
	Status      string    `json:"status"`
	Details     *string   `json:"details"`
	Router      *string   `json:"router,omitempty"`
	ExecutionID *string   `json:"executionId,omitempty"`
	Attrs       *string   `json:"attrs,omitempty"`
}

// attr appends key=value to the row's attrs; an empty value is left out.
func (r *rsCLIRow) attr(key, value string) {
	if value == "" {
		return
	}
	if r.Attrs == nil {
		r.Attrs = rsPtr(key + "=" + value)
		return
	}
	*r.Attrs += ";" + key + "=" + value
}

// rsCLI118 prints events as CLI v1.18.0 does for `-n namespace -a app -o
// json`, with now standing for the moment it ran.
func rsCLI118(events []*protos.HistoryEvent, namespace, app string, now time.Time) []byte {
	history := append([]*protos.HistoryEvent(nil), events...)
	rsCLISort(history)
	var rows []*rsCLIRow
	var prev time.Time
	play := 0
	for i, ev := range history {
		ts := ev.GetTimestamp().AsTime()
		if i == 0 {
			prev = ts
		}
		if ev.GetWorkflowStarted() != nil {
			play++
		}
		row := &rsCLIRow{Namespace: namespace, AppID: app, Play: play, Type: rsCLIType(ev),
			Name: rsCLIName(ev), Timestamp: ts.Truncate(time.Second), Status: rsCLIStatus(ev),
			Details: rsCLIDetails(history[0], ev)}
		if i == 0 {
			row.Elapsed = "Age:" + rsHumanize(now.Sub(ts))
		} else {
			row.Elapsed = rsHumanize(ts.Sub(prev))
		}
		prev = ts
		if ev.EventId > 0 {
			row.EventID = rsPtr(ev.EventId)
		}
		if rt := ev.Router; rt != nil {
			if rt.TargetAppID != nil {
				row.Router = rsPtr(rt.SourceAppID + "->" + *rt.TargetAppID)
			} else {
				row.Router = rsPtr(rt.SourceAppID)
			}
		}
		rsCLIAttrs(row, ev)
		rows = append(rows, row)
	}
	out, err := json.MarshalIndent(rows, "", "  ")
	if err != nil {
		panic(err)
	}
	return out
}

// rsCLISort orders events as the CLI's InstanceHistory does: by eventId
// when both are positive, else by time, then by eventId; stable.
func rsCLISort(h []*protos.HistoryEvent) {
	sort.SliceStable(h, func(i, j int) bool {
		a, b := h[i], h[j]
		if a.EventId > 0 && b.EventId > 0 {
			return a.EventId < b.EventId
		}
		ta, tb := a.GetTimestamp().AsTime(), b.GetTimestamp().AsTime()
		if !ta.Equal(tb) {
			return ta.Before(tb)
		}
		return a.EventId < b.EventId
	})
}

// rsCLIAttrs fills the row's executionId, eventId defaults and attrs, per
// event type.
func rsCLIAttrs(row *rsCLIRow, ev *protos.HistoryEvent) {
	switch t := ev.GetEventType().(type) {
	case *protos.HistoryEvent_ExecutionStarted:
		es := t.ExecutionStarted
		if es.WorkflowInstance != nil && es.WorkflowInstance.ExecutionId != nil {
			row.ExecutionID = rsPtr(es.WorkflowInstance.ExecutionId.Value)
		}
		if es.Input != nil {
			row.attr("input", rsTrim(es.Input, 120))
		}
		if len(es.Tags) > 0 {
			row.attr("tags", rsFlatTags(es.Tags, 6))
		}
	case *protos.HistoryEvent_ExecutionStalled:
		row.attr("reason", t.ExecutionStalled.GetReason().String())
		if t.ExecutionStalled.Description != nil {
			row.attr("description", rsTrim(wrapperspb.String(t.ExecutionStalled.GetDescription()), 120))
		}
	case *protos.HistoryEvent_TaskScheduled:
		if row.EventID == nil {
			row.EventID = rsPtr(int32(0))
		}
		if t.TaskScheduled.TaskExecutionId != "" {
			row.ExecutionID = rsPtr(t.TaskScheduled.TaskExecutionId)
		}
		if t.TaskScheduled.Input != nil {
			row.attr("input", rsTrim(t.TaskScheduled.Input, 120))
		}
	case *protos.HistoryEvent_TaskCompleted:
		row.attr("scheduledId", fmt.Sprint(t.TaskCompleted.TaskScheduledId))
		if t.TaskCompleted.TaskExecutionId != "" {
			row.ExecutionID = rsPtr(t.TaskCompleted.TaskExecutionId)
		}
		if t.TaskCompleted.Result != nil {
			row.attr("output", rsTrim(t.TaskCompleted.Result, 120))
		}
	case *protos.HistoryEvent_WorkflowStarted:
		if v := t.WorkflowStarted.Version; v != nil {
			if v.Name != nil {
				row.attr("versionName", *v.Name)
			}
			if len(v.Patches) > 0 {
				row.attr("versionPatches", strings.Join(v.Patches, ","))
			}
		}
	case *protos.HistoryEvent_ChildWorkflowInstanceCreated:
		if t.ChildWorkflowInstanceCreated.Input != nil {
			row.attr("input", rsTrim(t.ChildWorkflowInstanceCreated.Input, 120))
		}
	case *protos.HistoryEvent_ChildWorkflowInstanceCompleted:
		if t.ChildWorkflowInstanceCompleted.Result != nil {
			row.attr("output", rsTrim(t.ChildWorkflowInstanceCompleted.Result, 120))
		}
	case *protos.HistoryEvent_TaskFailed:
		row.attr("scheduledId", fmt.Sprint(t.TaskFailed.TaskScheduledId))
		if t.TaskFailed.TaskExecutionId != "" {
			row.ExecutionID = rsPtr(t.TaskFailed.TaskExecutionId)
		}
		if fd := t.TaskFailed.FailureDetails; fd != nil {
			row.attr("errorType", fd.ErrorType)
			if fd.ErrorMessage != "" {
				row.attr("errorMsg", rsTrim(wrapperspb.String(fd.ErrorMessage), 160))
			}
			if fd.IsNonRetriable {
				row.attr("nonRetriable", "true")
			}
		}
	case *protos.HistoryEvent_TimerCreated:
		if row.EventID == nil {
			row.EventID = rsPtr(int32(0))
		}
		if t.TimerCreated.Name != nil {
			row.attr("timerName", *t.TimerCreated.Name)
		}
		row.attr("fireAt", t.TimerCreated.FireAt.AsTime().Format(time.RFC3339))
		if kind, key, value := rsTimerOrigin(t.TimerCreated); kind != "" {
			row.attr("origin", kind)
			if key != "" {
				row.attr(key, value)
			}
		}
	case *protos.HistoryEvent_TimerFired:
		row.attr("timerId", fmt.Sprint(t.TimerFired.TimerId))
		row.attr("fireAt", t.TimerFired.FireAt.AsTime().Format(time.RFC3339))
	case *protos.HistoryEvent_EventRaised:
		row.attr("eventName", t.EventRaised.Name)
		if t.EventRaised.Input != nil {
			row.attr("payload", rsTrim(t.EventRaised.Input, 120))
		}
	case *protos.HistoryEvent_EventSent:
		row.attr("eventName", t.EventSent.Name)
		if t.EventSent.Input != nil {
			row.attr("payload", rsTrim(t.EventSent.Input, 120))
		}
		row.attr("targetInstance", t.EventSent.InstanceId)
	case *protos.HistoryEvent_ExecutionCompleted:
		if t.ExecutionCompleted.Result != nil {
			row.attr("output", rsTrim(t.ExecutionCompleted.Result, 160))
		}
		if fd := t.ExecutionCompleted.FailureDetails; fd != nil {
			row.attr("failureType", fd.ErrorType)
			if fd.ErrorMessage != "" {
				row.attr("failureMessage", rsTrim(wrapperspb.String(fd.ErrorMessage), 160))
			}
		}
	}
}

// rsCLIType is the TYPE column's name for the event (v1.18.0 names).
func rsCLIType(ev *protos.HistoryEvent) string {
	switch ev.GetEventType().(type) {
	case *protos.HistoryEvent_ExecutionStarted:
		return "ExecutionStarted"
	case *protos.HistoryEvent_ExecutionCompleted:
		return "ExecutionCompleted"
	case *protos.HistoryEvent_ExecutionTerminated:
		return "ExecutionTerminated"
	case *protos.HistoryEvent_TaskScheduled:
		return "TaskScheduled"
	case *protos.HistoryEvent_TaskCompleted:
		return "TaskCompleted"
	case *protos.HistoryEvent_TaskFailed:
		return "TaskFailed"
	case *protos.HistoryEvent_ChildWorkflowInstanceCreated:
		return "ChildWorkflowCreated"
	case *protos.HistoryEvent_ChildWorkflowInstanceCompleted:
		return "ChildWorkflowCompleted"
	case *protos.HistoryEvent_ChildWorkflowInstanceFailed:
		return "ChildWorkflowFailed"
	case *protos.HistoryEvent_TimerCreated:
		return "TimerCreated"
	case *protos.HistoryEvent_TimerFired:
		return "TimerFired"
	case *protos.HistoryEvent_WorkflowStarted:
		return "WorkflowStarted"
	case *protos.HistoryEvent_WorkflowCompleted:
		return "WorkflowCompleted"
	case *protos.HistoryEvent_EventSent:
		return "EventSent"
	case *protos.HistoryEvent_EventRaised:
		return "EventRaised"
	case *protos.HistoryEvent_ContinueAsNew:
		return "ContinueAsNew"
	case *protos.HistoryEvent_ExecutionSuspended:
		return "ExecutionSuspended"
	case *protos.HistoryEvent_ExecutionResumed:
		return "ExecutionResumed"
	case *protos.HistoryEvent_ExecutionStalled:
		return "ExecutionStalled"
	}
	return "Unknown"
}

// rsCLIName is the NAME column: set only for scheduled, created, timer,
// raised, sent and started events.
func rsCLIName(ev *protos.HistoryEvent) *string {
	switch t := ev.GetEventType().(type) {
	case *protos.HistoryEvent_TaskScheduled:
		return rsPtr(t.TaskScheduled.Name)
	case *protos.HistoryEvent_ChildWorkflowInstanceCreated:
		return rsPtr(t.ChildWorkflowInstanceCreated.Name)
	case *protos.HistoryEvent_TimerCreated:
		if t.TimerCreated.Name != nil {
			return rsPtr(*t.TimerCreated.Name)
		}
	case *protos.HistoryEvent_EventRaised:
		return rsPtr(t.EventRaised.Name)
	case *protos.HistoryEvent_EventSent:
		return rsPtr(t.EventSent.Name)
	case *protos.HistoryEvent_ExecutionStarted:
		return rsPtr(t.ExecutionStarted.Name)
	}
	return nil
}

// rsCLIStatus is the STATUS column.
func rsCLIStatus(ev *protos.HistoryEvent) string {
	switch t := ev.GetEventType().(type) {
	case *protos.HistoryEvent_TaskFailed:
		return "FAILED"
	case *protos.HistoryEvent_ExecutionCompleted:
		return rsRuntimeStatus(t.ExecutionCompleted.WorkflowStatus)
	case *protos.HistoryEvent_ExecutionTerminated:
		return "TERMINATED"
	case *protos.HistoryEvent_ExecutionSuspended:
		return "SUSPENDED"
	case *protos.HistoryEvent_ExecutionResumed:
		return "RESUMED"
	case *protos.HistoryEvent_ExecutionStalled:
		return "STALLED"
	}
	return "RUNNING"
}

// rsRuntimeStatus is durabletask-go's WorkflowMetadata.String (workflow/
// state.go): the status without its ORCHESTRATION_STATUS_ prefix.
func rsRuntimeStatus(s protos.OrchestrationStatus) string {
	name, ok := protos.OrchestrationStatus_name[int32(s)]
	if !ok {
		return ""
	}
	return strings.TrimPrefix(name, "ORCHESTRATION_STATUS_")
}

// rsCLIDetails is the DETAILS column.
func rsCLIDetails(first, ev *protos.HistoryEvent) *string {
	switch t := ev.GetEventType().(type) {
	case *protos.HistoryEvent_TaskScheduled:
		if in := t.TaskScheduled.RerunParentInstanceInfo; in != nil {
			return rsPtr("rerunParent=" + in.InstanceID)
		}
	case *protos.HistoryEvent_TimerCreated:
		d := "fireAt=" + t.TimerCreated.FireAt.AsTime().Format(time.RFC3339)
		if in := t.TimerCreated.RerunParentInstanceInfo; in != nil {
			d += ",rerunParent=" + in.InstanceID
		}
		if kind, _, value := rsTimerOrigin(t.TimerCreated); kind != "" {
			if value != "" {
				kind += "(" + value + ")"
			}
			d += ",origin=" + kind
		}
		return &d
	case *protos.HistoryEvent_EventRaised:
		return rsPtr("event=" + t.EventRaised.Name)
	case *protos.HistoryEvent_EventSent:
		return rsPtr("event=" + t.EventSent.Name + "->" + t.EventSent.InstanceId)
	case *protos.HistoryEvent_ExecutionStarted:
		d := "workflowStart"
		if p := t.ExecutionStarted.GetParentInstance(); p != nil {
			d += ",parent=" + p.GetWorkflowInstance().GetInstanceId()
		}
		return &d
	case *protos.HistoryEvent_WorkflowStarted:
		return rsPtr("replay")
	case *protos.HistoryEvent_TaskCompleted:
		return rsPtr(fmt.Sprintf("eventId=%d", t.TaskCompleted.TaskScheduledId))
	case *protos.HistoryEvent_ExecutionCompleted:
		return rsPtr("execDuration=" + rsHumanize(ev.GetTimestamp().AsTime().Sub(first.GetTimestamp().AsTime())))
	case *protos.HistoryEvent_ChildWorkflowInstanceCreated:
		if in := t.ChildWorkflowInstanceCreated.RerunParentInstanceInfo; in != nil {
			return rsPtr("rerunParent=" + in.InstanceID)
		}
	case *protos.HistoryEvent_ChildWorkflowInstanceCompleted:
		return rsPtr(fmt.Sprintf("eventId=%d", t.ChildWorkflowInstanceCompleted.GetTaskScheduledId()))
	}
	return nil
}

// rsTimerOrigin names a timer's origin, and the attrs pair that goes with
// it ("" when none).
func rsTimerOrigin(tc *protos.TimerCreatedEvent) (kind, key, value string) {
	switch o := tc.GetOrigin().(type) {
	case *protos.TimerCreatedEvent_CreateTimer:
		return "createTimer", "", ""
	case *protos.TimerCreatedEvent_ExternalEvent:
		return "externalEvent", "eventName", o.ExternalEvent.GetName()
	case *protos.TimerCreatedEvent_ActivityRetry:
		return "activityRetry", "taskExecId", o.ActivityRetry.GetTaskExecutionId()
	case *protos.TimerCreatedEvent_ChildWorkflowRetry:
		return "childWorkflowRetry", "instanceId", o.ChildWorkflowRetry.GetInstanceId()
	}
	return "", "", ""
}

// rsFlatTags joins up to max tags as k=v, sorted, with ",…" when there are
// more (the CLI takes the first max in map order, then sorts them).
func rsFlatTags(tags map[string]string, max int) string {
	var parts []string
	for k, v := range tags {
		parts = append(parts, k+"="+v)
		if len(parts) >= max {
			break
		}
	}
	sort.Strings(parts)
	s := strings.Join(parts, ",")
	if len(tags) > max {
		s += ",…"
	}
	return s
}

// rsTrim is the CLI's payload cut: a JSON string literal is unquoted (any
// other text stays), then anything over limit runes is cut to limit runes
// and "…".
func rsTrim(w *wrapperspb.StringValue, limit int) string {
	if w == nil {
		return ""
	}
	var s string
	if err := json.Unmarshal([]byte(w.Value), &s); err != nil {
		s = w.Value
	}
	if limit <= 0 || len(s) <= limit {
		return s
	}
	r := []rune(s)
	if len(r) <= limit {
		return s
	}
	return string(r[:limit]) + "…"
}

// rsHumanize is the CLI's HumanizeDuration.
func rsHumanize(d time.Duration) string {
	if d == 0 {
		return ""
	}
	if d < 0 {
		d = -d
	}
	switch {
	case d < time.Microsecond:
		return fmt.Sprintf("%dns", d.Nanoseconds())
	case d < time.Millisecond:
		return fmt.Sprintf("%.1fµs", float64(d)/1e3)
	case d < time.Second:
		return fmt.Sprintf("%.1fms", float64(d)/1e6)
	case d < time.Minute:
		return fmt.Sprintf("%.2fs", d.Seconds())
	case d < time.Hour:
		return fmt.Sprintf("%.1fm", d.Minutes())
	}
	return fmt.Sprintf("%.1fh", d.Hours())
}
