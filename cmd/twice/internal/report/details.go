package report

import (
	"strconv"
	"time"

	"github.com/twice-cli/twice/catalyst"
)

// appendDetails appends the DETAILS cell of an event: its type-specific
// facts as "key=value" pairs joined by "; ", in the spirit of the Dapr CLI's
// details and attrs. Every history string is sanitized; a payload that is
// not present says why (withheld names the data-sharing level).
func appendDetails(buf []byte, e *catalyst.Event, ds catalyst.DataSharing) []byte {
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
			kv("instance", safeLine(e.InstanceID))
		}
		if e.Detail != nil && e.Detail.ParentInstanceID != "" {
			kv("parent", safeLine(e.Detail.ParentInstanceID))
		}
	case catalyst.EventTaskCompleted, catalyst.EventChildWorkflowCompleted,
		catalyst.EventTaskFailed, catalyst.EventChildWorkflowFailed:
		if e.HasScheduledID() {
			id("scheduledId", e.ScheduledID)
		} else {
			kv("scheduledId", "not in this format")
		}
	case catalyst.EventTimerCreated:
		kv("fireAt", stampISO(e.FireAt))
		switch e.Origin {
		case catalyst.OriginNone:
		case catalyst.OriginCreateTimer:
			kv("origin", "createTimer")
		default:
			kv("origin", e.Origin.String()+"("+safeLine(e.OriginID)+")")
		}
	case catalyst.EventTimerFired:
		if e.HasTimerID() {
			id("timerId", e.TimerID)
		} else {
			kv("timerId", "not in this format")
		}
		kv("fireAt", stampISO(e.FireAt))
	case catalyst.EventEventSent:
		if e.InstanceID != "" {
			kv("target", safeLine(e.InstanceID))
		}
	case catalyst.EventChildWorkflowCreated:
		if e.InstanceID != "" {
			kv("instance", safeLine(e.InstanceID))
		}
	case catalyst.EventExecutionCompleted:
		if e.Detail != nil && e.Detail.WorkflowStatus != "" {
			kv("status", safeLine(string(e.Detail.WorkflowStatus)))
		}
	case catalyst.EventExecutionStalled:
		if e.Detail != nil {
			if e.Detail.StallReason != "" {
				kv("reason", safeLine(e.Detail.StallReason))
			}
			if e.Detail.StallDescription != "" {
				kv("description", trimmed(e.Detail.StallDescription, payloadTrim))
			}
		}
	case catalyst.EventUnknown:
		if e.Detail != nil && e.Detail.Raw != "" {
			kv("raw", trimmed(e.Detail.Raw, payloadTrim))
		}
	}
	if f := e.Failure; f != nil {
		if f.Type != "" {
			kv("errorType", safeLine(f.Type))
		}
		kv("errorMsg", trimmed(f.Message, 160))
		if f.NonRetriable {
			kv("nonRetriable", "true")
		}
	}
	if field := e.Type.PayloadField(); field != "" {
		kv(field, payloadLine(e.Payload, ds))
	}
	if e.Router != nil && e.Router.Target != "" && e.Router.Target != e.Router.Source {
		kv("router", safeLine(e.Router.Source)+"->"+safeLine(e.Router.Target))
	}
	return buf
}

// safeLine is safetext.Line with "" kept empty (for composing cells).
func safeLine(s string) string {
	if s == "" {
		return ""
	}
	return line(s)
}

// stampISO prints a stamp as RFC 3339 in UTC with milliseconds, "never" for
// a timer that never fires, "-" when absent.
func stampISO(s catalyst.Stamp) string {
	return formatStamp(s, TimeISO, time.Time{})
}
