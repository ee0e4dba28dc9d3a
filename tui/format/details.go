package format

import (
	"strconv"

	"github.com/twice-cli/twice/catalyst"
)

// AppendDetails appends the DETAILS cell of an event, in the event tables
// of the interactive view and of the text output: its type-specific facts
// as "key=value" pairs joined by "; ", in the Dapr CLI's vocabulary (its
// details and attrs). Every history string is sanitized; a payload that is
// not present says why, in a word for a withheld one (the table's legend
// names the level once: WithheldLegend).
func AppendDetails(buf []byte, e *catalyst.Event, ds catalyst.DataSharing) []byte {
	start := len(buf)
	sep := func() {
		if len(buf) > start {
			buf = append(buf, "; "...)
		}
	}
	kv := func(key, value string) {
		sep()
		buf = append(buf, key...)
		buf = append(buf, '=')
		buf = append(buf, value...)
	}
	id := func(key string, v int32) {
		sep()
		buf = append(buf, key...)
		buf = append(buf, '=')
		buf = strconv.AppendInt(buf, int64(v), 10)
	}
	switch e.Type {
	case catalyst.EventExecutionStarted:
		if e.InstanceID != "" {
			kv("instance", lineOrEmpty(e.InstanceID))
		}
		if e.Detail != nil && e.Detail.ParentInstanceID != "" {
			kv("parent", lineOrEmpty(e.Detail.ParentInstanceID))
		}
	case catalyst.EventTaskCompleted, catalyst.EventChildWorkflowCompleted,
		catalyst.EventTaskFailed, catalyst.EventChildWorkflowFailed:
		if e.HasScheduledID() {
			id("scheduledId", e.ScheduledID)
		} else {
			kv("scheduledId", "not in this format")
		}
	case catalyst.EventTimerCreated:
		kv("fireAt", ExactStamp(e.FireAt))
		switch e.Origin {
		case catalyst.OriginNone:
		case catalyst.OriginCreateTimer:
			kv("origin", "createTimer")
		default:
			kv("origin", e.Origin.String()+"("+lineOrEmpty(e.OriginID)+")")
		}
	case catalyst.EventTimerFired:
		if e.HasTimerID() {
			id("timerId", e.TimerID)
		} else {
			kv("timerId", "not in this format")
		}
		kv("fireAt", ExactStamp(e.FireAt))
	case catalyst.EventEventSent:
		if e.InstanceID != "" {
			kv("target", lineOrEmpty(e.InstanceID))
		}
	case catalyst.EventChildWorkflowCreated:
		if e.InstanceID != "" {
			kv("instance", lineOrEmpty(e.InstanceID))
		}
	case catalyst.EventExecutionCompleted:
		if e.Detail != nil && e.Detail.WorkflowStatus != "" {
			kv("status", lineOrEmpty(string(e.Detail.WorkflowStatus)))
		}
	case catalyst.EventExecutionStalled:
		if e.Detail != nil {
			if e.Detail.StallReason != "" {
				kv("reason", lineOrEmpty(e.Detail.StallReason))
			}
			if e.Detail.StallDescription != "" {
				kv("description", Clip(e.Detail.StallDescription, DetailsPayload))
			}
		}
	case catalyst.EventUnknown:
		if e.Detail != nil && e.Detail.Raw != "" {
			kv("raw", Clip(e.Detail.Raw, DetailsPayload))
		}
	}
	if f := e.Failure; f != nil {
		if f.Type != "" {
			kv("errorType", lineOrEmpty(f.Type))
		}
		kv("errorMsg", Clip(f.Message, detailsMessage))
		if f.NonRetriable {
			kv("nonRetriable", "true")
		}
	}
	if field := e.Type.PayloadField(); field != "" {
		kv(field, PayloadCell(e.Payload, ds, DetailsPayload))
	}
	if e.Router != nil && e.Router.Target != "" && e.Router.Target != e.Router.Source {
		kv("router", lineOrEmpty(e.Router.Source)+"->"+lineOrEmpty(e.Router.Target))
	}
	return buf
}

// DetailsPayload is how many characters of a payload (or another long
// value) a DETAILS cell shows, as the Dapr CLI does.
const DetailsPayload = 120

// detailsMessage is how many characters of an error message a DETAILS cell
// shows.
const detailsMessage = 160

// lineOrEmpty is Line with "" kept empty (for composing cells).
func lineOrEmpty(s string) string {
	if s == "" {
		return ""
	}
	return Line(s)
}
