//go:build dtgo_v0_10 || dtgo_v0_11

package main

// What `dapr workflow history <id> -o json` prints, reproduced in our own
// words from dapr/cli v1.17.0 and, where it differs (cli116), v1.16.4:
// pkg/workflow/history.go (HistoryOutputWide, HistoryWide, eventTypeName,
// deriveName, deriveStatus, deriveDetails, routerStr, addAttr, flatTags,
// trim), the sort (v1.16.4 history.go, v1.17.0 pkg/workflow/dclient/
// dclient.go InstanceHistory), utils/utils.go HumanizeDuration and
// PrintDetail (json.MarshalIndent(rows, "", "  ")). The first row's "Age:"
// is measured from a fixed instant, not the clock.

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/dapr/durabletask-go/api/protos"
)

// cliRow is the CLI's HistoryOutputWide: its fields, in its order, with its
// JSON names and omitempty marks.
type cliRow struct {
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

func ptr[T any](v T) *T { return &v }

func (r *cliRow) attr(key, value string) {
	if value == "" {
		return
	}
	if r.Attrs == nil {
		r.Attrs = ptr(key + "=" + value)
		return
	}
	*r.Attrs += ";" + key + "=" + value
}

func cliRows(events []*protos.HistoryEvent, namespace, app string, now time.Time) ([]byte, error) {
	history := append([]*protos.HistoryEvent(nil), events...)
	sort.SliceStable(history, func(i, j int) bool {
		a, b := history[i], history[j]
		if a.EventId > 0 && b.EventId > 0 {
			return a.EventId < b.EventId
		}
		ta, tb := a.GetTimestamp().AsTime(), b.GetTimestamp().AsTime()
		if !ta.Equal(tb) {
			return ta.Before(tb)
		}
		return a.EventId < b.EventId
	})
	var rows []*cliRow
	var prev time.Time
	play := 0
	for i, ev := range history {
		ts := ev.GetTimestamp().AsTime()
		if i == 0 {
			prev = ts
		}
		if ev.GetOrchestratorStarted() != nil {
			play++
		}
		row := &cliRow{Namespace: namespace, AppID: app, Play: play, Type: typeName(ev), Name: name(ev),
			Timestamp: ts.Truncate(time.Second), Status: status(ev), Details: details(history[0], ev)}
		if i == 0 {
			row.Elapsed = "Age:" + humanize(now.Sub(ts))
		} else {
			row.Elapsed = humanize(ts.Sub(prev))
		}
		prev = ts
		if ev.EventId > 0 {
			row.EventID = ptr(ev.EventId)
		}
		if rt := ev.Router; rt != nil {
			if rt.TargetAppID != nil {
				row.Router = ptr(rt.SourceAppID + "->" + *rt.TargetAppID)
			} else {
				row.Router = ptr(rt.SourceAppID)
			}
		}
		attrs(row, ev)
		rows = append(rows, row)
	}
	return json.MarshalIndent(rows, "", "  ")
}

func attrs(row *cliRow, ev *protos.HistoryEvent) {
	stalledRow(row, ev)
	versionAttrs(row, ev)
	switch t := ev.GetEventType().(type) {
	case *protos.HistoryEvent_ExecutionStarted:
		es := t.ExecutionStarted
		if es.OrchestrationInstance != nil && es.OrchestrationInstance.ExecutionId != nil {
			row.ExecutionID = ptr(es.OrchestrationInstance.ExecutionId.Value)
		}
		if es.Input != nil {
			row.attr("input", trim(es.Input, 120))
		}
		if len(es.Tags) > 0 {
			row.attr("tags", flatTags(es.Tags, 6))
		}
	case *protos.HistoryEvent_TaskScheduled:
		if row.EventID == nil {
			row.EventID = ptr(int32(0))
		}
		if t.TaskScheduled.TaskExecutionId != "" {
			row.ExecutionID = ptr(t.TaskScheduled.TaskExecutionId)
		}
		if t.TaskScheduled.Input != nil {
			row.attr("input", trim(t.TaskScheduled.Input, 120))
		}
	case *protos.HistoryEvent_TaskCompleted:
		row.attr("scheduledId", fmt.Sprint(t.TaskCompleted.TaskScheduledId))
		if t.TaskCompleted.TaskExecutionId != "" {
			row.ExecutionID = ptr(t.TaskCompleted.TaskExecutionId)
		}
		if t.TaskCompleted.Result != nil {
			key := "output"
			if cli116 {
				key = "result"
			}
			row.attr(key, trim(t.TaskCompleted.Result, 120))
		}
	case *protos.HistoryEvent_SubOrchestrationInstanceCreated:
		if t.SubOrchestrationInstanceCreated.Input != nil && !cli116 {
			row.attr("input", trim(t.SubOrchestrationInstanceCreated.Input, 120))
		}
	case *protos.HistoryEvent_SubOrchestrationInstanceCompleted:
		if t.SubOrchestrationInstanceCompleted.Result != nil && !cli116 {
			row.attr("output", trim(t.SubOrchestrationInstanceCompleted.Result, 120))
		}
	case *protos.HistoryEvent_TaskFailed:
		row.attr("scheduledId", fmt.Sprint(t.TaskFailed.TaskScheduledId))
		if t.TaskFailed.TaskExecutionId != "" {
			row.ExecutionID = ptr(t.TaskFailed.TaskExecutionId)
		}
		if fd := t.TaskFailed.FailureDetails; fd != nil {
			row.attr("errorType", fd.ErrorType)
			if fd.ErrorMessage != "" {
				row.attr("errorMsg", trim(wrapperspb.String(fd.ErrorMessage), 160))
			}
			if fd.IsNonRetriable {
				row.attr("nonRetriable", "true")
			}
		}
	case *protos.HistoryEvent_TimerCreated:
		if row.EventID == nil {
			row.EventID = ptr(int32(0))
		}
		if t.TimerCreated.Name != nil {
			row.attr("timerName", *t.TimerCreated.Name)
		}
		row.attr("fireAt", t.TimerCreated.FireAt.AsTime().Format(time.RFC3339))
	case *protos.HistoryEvent_TimerFired:
		row.attr("timerId", fmt.Sprint(t.TimerFired.TimerId))
		row.attr("fireAt", t.TimerFired.FireAt.AsTime().Format(time.RFC3339))
	case *protos.HistoryEvent_EventRaised:
		row.attr("eventName", t.EventRaised.Name)
		if t.EventRaised.Input != nil {
			row.attr("payload", trim(t.EventRaised.Input, 120))
		}
	case *protos.HistoryEvent_EventSent:
		row.attr("eventName", t.EventSent.Name)
		if t.EventSent.Input != nil {
			row.attr("payload", trim(t.EventSent.Input, 120))
		}
		row.attr("targetInstance", t.EventSent.InstanceId)
	case *protos.HistoryEvent_ExecutionCompleted:
		if t.ExecutionCompleted.Result != nil {
			row.attr("output", trim(t.ExecutionCompleted.Result, 160))
		}
		if fd := t.ExecutionCompleted.FailureDetails; fd != nil {
			row.attr("failureType", fd.ErrorType)
			if fd.ErrorMessage != "" {
				row.attr("failureMessage", trim(wrapperspb.String(fd.ErrorMessage), 160))
			}
		}
	}
}

func typeName(ev *protos.HistoryEvent) string {
	if typ, _, ok := stalledRow(nil, ev); ok {
		return typ
	}
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
	case *protos.HistoryEvent_SubOrchestrationInstanceCreated:
		return "SubOrchCreated"
	case *protos.HistoryEvent_SubOrchestrationInstanceCompleted:
		return "SubOrchCompleted"
	case *protos.HistoryEvent_SubOrchestrationInstanceFailed:
		return "SubOrchFailed"
	case *protos.HistoryEvent_TimerCreated:
		return "TimerCreated"
	case *protos.HistoryEvent_TimerFired:
		return "TimerFired"
	case *protos.HistoryEvent_OrchestratorStarted:
		return "OrchestratorStarted"
	case *protos.HistoryEvent_OrchestratorCompleted:
		return "OrchestratorCompleted"
	case *protos.HistoryEvent_EventSent:
		return "EventSent"
	case *protos.HistoryEvent_EventRaised:
		return "EventRaised"
	case *protos.HistoryEvent_GenericEvent:
		return "GenericEvent"
	case *protos.HistoryEvent_HistoryState:
		return "HistoryState"
	case *protos.HistoryEvent_ContinueAsNew:
		return "ContinueAsNew"
	case *protos.HistoryEvent_ExecutionSuspended:
		return "ExecutionSuspended"
	case *protos.HistoryEvent_ExecutionResumed:
		return "ExecutionResumed"
	}
	return "Unknown"
}

func name(ev *protos.HistoryEvent) *string {
	switch t := ev.GetEventType().(type) {
	case *protos.HistoryEvent_TaskScheduled:
		return ptr(t.TaskScheduled.Name)
	case *protos.HistoryEvent_SubOrchestrationInstanceCreated:
		return ptr(t.SubOrchestrationInstanceCreated.Name)
	case *protos.HistoryEvent_TimerCreated:
		if t.TimerCreated.Name != nil {
			return ptr(*t.TimerCreated.Name)
		}
	case *protos.HistoryEvent_EventRaised:
		return ptr(t.EventRaised.Name)
	case *protos.HistoryEvent_EventSent:
		return ptr(t.EventSent.Name)
	case *protos.HistoryEvent_ExecutionStarted:
		return ptr(t.ExecutionStarted.Name)
	}
	return nil
}

func status(ev *protos.HistoryEvent) string {
	if _, st, ok := stalledRow(nil, ev); ok {
		return st
	}
	switch t := ev.GetEventType().(type) {
	case *protos.HistoryEvent_TaskFailed:
		return "FAILED"
	case *protos.HistoryEvent_ExecutionCompleted:
		n, ok := protos.OrchestrationStatus_name[int32(t.ExecutionCompleted.OrchestrationStatus)]
		if !ok {
			return ""
		}
		return strings.TrimPrefix(n, "ORCHESTRATION_STATUS_")
	case *protos.HistoryEvent_ExecutionTerminated:
		return "TERMINATED"
	case *protos.HistoryEvent_ExecutionSuspended:
		return "SUSPENDED"
	case *protos.HistoryEvent_ExecutionResumed:
		return "RESUMED"
	}
	return "RUNNING"
}

func details(first, ev *protos.HistoryEvent) *string {
	if cli116 {
		return details116(first, ev)
	}
	return details117(first, ev)
}

// details116 is v1.16.4's DETAILS column.
func details116(first, ev *protos.HistoryEvent) *string {
	switch t := ev.GetEventType().(type) {
	case *protos.HistoryEvent_TaskScheduled:
		ver := ""
		if v := t.TaskScheduled.Version; v != nil && v.Value != "" {
			ver = " v" + v.Value
		}
		return ptr("activity=" + t.TaskScheduled.Name + ver)
	case *protos.HistoryEvent_TimerCreated:
		return ptr("fireAt=" + t.TimerCreated.FireAt.AsTime().Format(time.RFC3339))
	case *protos.HistoryEvent_EventRaised:
		return ptr("event=" + t.EventRaised.Name)
	case *protos.HistoryEvent_EventSent:
		return ptr("event=" + t.EventSent.Name + " -> " + t.EventSent.InstanceId)
	case *protos.HistoryEvent_ExecutionStarted:
		return ptr("orchestration start")
	case *protos.HistoryEvent_OrchestratorStarted:
		return ptr("replay cycle start")
	case *protos.HistoryEvent_TaskCompleted:
		return ptr(fmt.Sprintf("eventId=%d", t.TaskCompleted.TaskScheduledId))
	case *protos.HistoryEvent_ExecutionCompleted:
		return ptr("execDuration=" + humanize(ev.GetTimestamp().AsTime().Sub(first.GetTimestamp().AsTime())))
	}
	return nil
}

func flatTags(tags map[string]string, max int) string {
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

func trim(w *wrapperspb.StringValue, limit int) string {
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

func humanize(d time.Duration) string {
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
