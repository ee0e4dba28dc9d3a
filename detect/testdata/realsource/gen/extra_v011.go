//go:build dtgo_v0_11

package main

import (
	"fmt"
	"strings"
	"time"

	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/dapr/durabletask-go/api/protos"
)

// stalledRow fills an ExecutionStalled row as CLI v1.17.0 does: the reason
// and the description (cut to 120).
func stalledRow(row *cliRow, ev *protos.HistoryEvent) (typ, status string, ok bool) {
	st := ev.GetExecutionStalled()
	if st == nil {
		return "", "", false
	}
	if row != nil {
		row.attr("reason", st.GetReason().String())
		if st.Description != nil {
			row.attr("description", trim(wrapperspb.String(st.GetDescription()), 120))
		}
	}
	return "ExecutionStalled", "STALLED", true
}

// versionAttrs adds an OrchestratorStarted row's version (v1.17.0).
func versionAttrs(row *cliRow, ev *protos.HistoryEvent) {
	v := ev.GetOrchestratorStarted().GetVersion()
	if v == nil {
		return
	}
	if v.Name != nil {
		row.attr("versionName", *v.Name)
	}
	if len(v.Patches) > 0 {
		row.attr("versionPatches", strings.Join(v.Patches, ","))
	}
}

// details117 is v1.17.0's DETAILS column.
func details117(first, ev *protos.HistoryEvent) *string {
	switch t := ev.GetEventType().(type) {
	case *protos.HistoryEvent_TaskScheduled:
		if in := t.TaskScheduled.RerunParentInstanceInfo; in != nil {
			return ptr("rerunParent=" + in.InstanceID)
		}
	case *protos.HistoryEvent_TimerCreated:
		d := "fireAt=" + t.TimerCreated.FireAt.AsTime().Format(time.RFC3339)
		if in := t.TimerCreated.RerunParentInstanceInfo; in != nil {
			d += ",rerunParent=" + in.InstanceID
		}
		return &d
	case *protos.HistoryEvent_EventRaised:
		return ptr("event=" + t.EventRaised.Name)
	case *protos.HistoryEvent_EventSent:
		return ptr("event=" + t.EventSent.Name + "->" + t.EventSent.InstanceId)
	case *protos.HistoryEvent_ExecutionStarted:
		d := "workflowStart"
		if p := t.ExecutionStarted.GetParentInstance(); p != nil {
			d += ",parent=" + p.GetOrchestrationInstance().GetInstanceId()
		}
		return &d
	case *protos.HistoryEvent_OrchestratorStarted:
		return ptr("replay")
	case *protos.HistoryEvent_TaskCompleted:
		return ptr(fmt.Sprintf("eventId=%d", t.TaskCompleted.TaskScheduledId))
	case *protos.HistoryEvent_ExecutionCompleted:
		return ptr("execDuration=" + humanize(ev.GetTimestamp().AsTime().Sub(first.GetTimestamp().AsTime())))
	case *protos.HistoryEvent_SubOrchestrationInstanceCreated:
		if in := t.SubOrchestrationInstanceCreated.RerunParentInstanceInfo; in != nil {
			return ptr("rerunParent=" + in.InstanceID)
		}
	case *protos.HistoryEvent_SubOrchestrationInstanceCompleted:
		return ptr(fmt.Sprintf("eventId=%d", t.SubOrchestrationInstanceCompleted.GetTaskScheduledId()))
	}
	return nil
}
