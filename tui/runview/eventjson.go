package runview

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/safetext"
	"github.com/twice-cli/twice/tui/format"
)

// Caps of one string value in an event's JSON rendering: a name, id or
// message, and a payload or stack trace. The rendering as a whole is cut
// to format.PayloadShowBytes by format.TextBlock.
const (
	jsonFieldBytes = format.LineShowBytes
	jsonTextBytes  = format.PayloadShowBytes
)

// eventJSONLines renders an event as JSON, indented: its fields as twice
// decoded them (the wire bytes of known events are not kept), under the
// durabletask protojson names ("eventId", "taskScheduled", "taskExecutionId",
// "failureDetails", "router"). Every string is escaped by
// safetext.AppendJSON, so the lines are inert on a terminal; long values
// are cut, saying how much was left out.
func eventJSONLines(e *catalyst.Event) []string {
	var w jsonWriter
	w.begin()
	w.number("eventId", int64(e.ID))
	w.stamp("timestamp", e.Timestamp)
	w.object(wireTypeKey(e), func() { eventBody(&w, e) })
	if r := e.Router; r != nil {
		w.object("router", func() {
			w.str("sourceAppID", r.Source, jsonFieldBytes)
			w.str("targetAppID", r.Target, jsonFieldBytes)
		})
	}
	w.end()
	var out bytes.Buffer
	if err := json.Indent(&out, w.buf, "", "  "); err != nil {
		// Cannot happen: the writer only writes valid JSON. Show it flat
		// rather than nothing.
		return format.TextBlock(string(w.buf))
	}
	return format.TextBlock(out.String())
}

// eventBody writes the members of an event's type object.
func eventBody(w *jsonWriter, e *catalyst.Event) {
	w.str("name", e.Name, jsonFieldBytes)
	if x := e.Detail; x != nil {
		w.str("version", x.Version, jsonFieldBytes)
	}
	switch e.Type {
	case catalyst.EventTaskCompleted, catalyst.EventTaskFailed,
		catalyst.EventChildWorkflowCompleted, catalyst.EventChildWorkflowFailed:
		if e.HasScheduledID() { // an id the source did not give is left out
			w.number("taskScheduledId", int64(e.ScheduledID))
		}
	case catalyst.EventTimerFired:
		if e.HasTimerID() {
			w.number("timerId", int64(e.TimerID))
		}
	}
	if e.Type == catalyst.EventExecutionStarted {
		if e.InstanceID != "" || e.ExecutionID != "" {
			w.object("workflowInstance", func() {
				w.str("instanceId", e.InstanceID, jsonFieldBytes)
				w.str("executionId", e.ExecutionID, jsonFieldBytes)
			})
		}
	} else {
		w.str("taskExecutionId", e.ExecutionID, jsonFieldBytes)
		w.str("instanceId", e.InstanceID, jsonFieldBytes)
	}
	if !e.FireAt.IsZero() {
		w.stamp("fireAt", e.FireAt)
	}
	if o := e.Origin.String(); o != "" {
		w.object(o, func() {
			switch e.Origin {
			case catalyst.OriginActivityRetry:
				w.str("taskExecutionId", e.OriginID, jsonFieldBytes)
			case catalyst.OriginChildWorkflowRetry:
				w.str("instanceId", e.OriginID, jsonFieldBytes)
			case catalyst.OriginExternalEvent:
				w.str("name", e.OriginID, jsonFieldBytes)
			}
		})
	}
	if field := e.Type.PayloadField(); field != "" {
		key := "input"
		if field == "output" {
			key = "result"
		}
		// Only a payload the history holds: a withheld, redacted or absent
		// one is not in the JSON (the pane names it above).
		switch e.Payload.State {
		case catalyst.PayloadPresent:
			w.str(key, e.Payload.Text(), jsonTextBytes)
		case catalyst.PayloadEmpty:
			w.key(key)
			w.buf = append(w.buf, `""`...)
		}
	}
	if e.Failure != nil {
		w.object("failureDetails", func() { failureJSON(w, e.Failure, 0) })
	}
	if x := e.Detail; x != nil {
		w.str("workflowStatus", string(x.WorkflowStatus), jsonFieldBytes)
		w.str("reason", x.StallReason, jsonFieldBytes)
		w.str("description", x.StallDescription, jsonFieldBytes)
		if x.ParentInstanceID != "" || x.ParentName != "" {
			w.object("parentInstance", func() {
				w.str("name", x.ParentName, jsonFieldBytes)
				if x.ParentInstanceID != "" {
					w.object("workflowInstance", func() { w.str("instanceId", x.ParentInstanceID, jsonFieldBytes) })
				}
			})
		}
		if x.RetryParentInstanceID != "" {
			w.object("retryParentInstanceInfo", func() { w.str("instanceID", x.RetryParentInstanceID, jsonFieldBytes) })
		}
		if x.RerunParentInstanceID != "" {
			w.object("rerunParentInstanceInfo", func() { w.str("instanceID", x.RerunParentInstanceID, jsonFieldBytes) })
		}
	}
}

// maxInnerFailures bounds the chain of inner failures rendered.
const maxInnerFailures = 8

// failureJSON writes a failure's members and its inner failures.
func failureJSON(w *jsonWriter, f *catalyst.Failure, depth int) {
	w.str("errorType", f.Type, jsonFieldBytes)
	w.str("errorMessage", f.Message, jsonTextBytes)
	w.str("stackTrace", f.StackTrace, jsonTextBytes)
	if f.NonRetriable {
		w.key("isNonRetriable")
		w.buf = append(w.buf, "true"...)
	}
	if f.Inner != nil && depth+1 < maxInnerFailures {
		w.object("innerFailure", func() { failureJSON(w, f.Inner, depth+1) })
	}
}

// wireTypeKey is the protojson member naming an event's type
// ("taskScheduled", "childWorkflowInstanceCreated"); for an unknown type,
// the name it had on the wire.
func wireTypeKey(e *catalyst.Event) string {
	switch e.Type {
	case catalyst.EventChildWorkflowCreated:
		return "childWorkflowInstanceCreated"
	case catalyst.EventChildWorkflowCompleted:
		return "childWorkflowInstanceCompleted"
	case catalyst.EventChildWorkflowFailed:
		return "childWorkflowInstanceFailed"
	case catalyst.EventDetachedWorkflowCreated:
		return "detachedWorkflowInstanceCreated"
	case catalyst.EventUnknown:
		if e.Detail != nil && e.Detail.TypeName != "" {
			return e.Detail.TypeName
		}
		return "unknown"
	}
	s := e.Type.String()
	return strings.ToLower(s[:1]) + s[1:]
}

// jsonWriter writes compact JSON: objects, and members whose strings go
// through safetext.AppendJSON.
type jsonWriter struct {
	buf []byte
	// filled records, per open object, whether it has a member yet.
	filled []bool
}

func (w *jsonWriter) begin() {
	w.buf = append(w.buf, '{')
	w.filled = append(w.filled, false)
}

func (w *jsonWriter) end() {
	w.buf = append(w.buf, '}')
	w.filled = w.filled[:len(w.filled)-1]
}

// key starts a member of the open object.
func (w *jsonWriter) key(k string) {
	if top := len(w.filled) - 1; w.filled[top] {
		w.buf = append(w.buf, ',')
	} else {
		w.filled[top] = true
	}
	w.buf = safetext.AppendJSON(w.buf, k)
	w.buf = append(w.buf, ':')
}

// object writes a member holding an object whose members body writes.
func (w *jsonWriter) object(k string, body func()) {
	w.key(k)
	w.begin()
	body()
	w.end()
}

// str writes a string member, cut to about limit bytes; nothing for "".
func (w *jsonWriter) str(k, v string, limit int) {
	if v == "" {
		return
	}
	w.key(k)
	w.buf = safetext.AppendJSON(w.buf, capText(v, limit))
}

// number writes an integer member.
func (w *jsonWriter) number(k string, v int64) {
	w.key(k)
	w.buf = strconv.AppendInt(w.buf, v, 10)
}

// stamp writes an instant as RFC 3339 in UTC, as protojson does; "never"
// for a timer that never fires. Nothing for an unknown instant.
func (w *jsonWriter) stamp(k string, s catalyst.Stamp) {
	switch {
	case s.IsZero():
		return
	case s.IsNever():
		w.str(k, "never", jsonFieldBytes)
	default:
		w.str(k, s.Time().UTC().Format(time.RFC3339Nano), jsonFieldBytes)
	}
}

// capText cuts s to about n bytes at a character boundary, saying how much
// was left out.
func capText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "… (" + format.Count(len(s)-cut) + " more bytes not shown)"
}
