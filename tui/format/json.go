package format

import (
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/safetext"
)

// JSON appends the JSON of the model's values — an event, a failure, a
// payload, an instant — as twice's output writes them (docs/json-output.md): the elements of scan -o json's "events" are
// AppendEvent's, and so is the JSON the interactive view shows and copies
// for an event, so that both read the same. Every string goes through
// safetext.AppendJSON: the JSON is inert on a terminal and round-trips.
//
// It appends to a byte slice and keeps only small caches (the date of the
// last instant, a buffer for a payload's text), so the document writer can
// call it for each of a million events; it is not safe for concurrent use.
// The zero value is ready to use.
type JSON struct {
	// MaxString, when above zero, cuts every string value longer than
	// that many bytes, at a character boundary, saying how much was left
	// out (the view's rendering of one event; documents cut nothing).
	MaxString int
	// Resolution, when above zero, writes every instant as the source
	// printed it: cut to this step (catalyst.History.TimeResolution, a
	// second for the Dapr CLI's rows), so that a time the decoder rebuilt
	// from the rows' elapsed values (exact only relative to its
	// neighbours) is not written finer than the source knew it
	// (catalyst.History.Printed). Spans carry what was rebuilt.
	Resolution time.Duration
	// OutOfRange are the history's timestamps a Stamp cannot hold, as
	// given (catalyst.History.OutOfRange): an event's out-of-range
	// timestamp or fire_at is written as its text, never as a clamped
	// instant.
	OutOfRange []catalyst.StampText

	// day and date cache the "2006-01-02T" of the last day formatted: the
	// instants of a run mostly share it. dated is false until one was.
	day   int64
	date  [11]byte
	dated bool

	// text holds a payload's unquoted text while it is written.
	text []byte
}

// AppendEvent appends an event as one JSON object: its position, eventId
// and type, then the facts it has (an absent one is left out; an id the
// source did not give is never written as 0).
func (w *JSON) AppendEvent(b []byte, ev *catalyst.Event) []byte {
	b = append(b, `{"index":`...)
	b = AppendInt(b, int64(ev.Index))
	b = append(b, `,"event_id":`...)
	b = AppendInt(b, int64(ev.ID))
	// An unknown type is "Unknown", never the name it had on the wire (a
	// PascalCase "TaskScheduled" is not one twice decoded as such): that
	// name is in wire_type.
	b = append(b, `,"type":"`...)
	b = append(b, ev.Type.String()...)
	b = append(b, '"')
	if !ev.Timestamp.IsZero() {
		b = append(b, `,"timestamp":`...)
		b = w.appendEventStamp(b, ev, ev.Timestamp, false)
	}
	b = w.appendStr(b, `,"name":`, ev.Name)
	if ev.HasScheduledID() && (closesCall(ev.Type) || ev.ScheduledID != 0) {
		b = append(b, `,"scheduled_id":`...)
		b = AppendInt(b, int64(ev.ScheduledID))
	}
	if ev.Type == catalyst.EventExecutionStarted {
		// On executionStarted it is the workflow's own execution id (its
		// continue-as-new generation), not a task's.
		b = w.appendStr(b, `,"execution_id":`, ev.ExecutionID)
	} else {
		b = w.appendStr(b, `,"task_execution_id":`, ev.ExecutionID)
	}
	if ev.HasTimerID() && (ev.Type == catalyst.EventTimerFired || ev.TimerID != 0) {
		b = append(b, `,"timer_id":`...)
		b = AppendInt(b, int64(ev.TimerID))
	}
	if !ev.FireAt.IsZero() {
		b = append(b, `,"fire_at":`...)
		b = w.appendEventStamp(b, ev, ev.FireAt, true)
	}
	if ev.Origin != catalyst.OriginNone {
		b = append(b, `,"origin":{"kind":"`...)
		b = append(b, ev.Origin.String()...)
		b = append(b, '"')
		b = w.appendStr(b, `,"id":`, ev.OriginID)
		b = append(b, '}')
	}
	b = w.appendStr(b, `,"instance_id":`, ev.InstanceID)
	if ev.Failure != nil {
		b = append(b, `,"failure":`...)
		b = w.AppendFailure(b, ev.Failure)
	}
	if r := ev.Router; r != nil {
		b = append(b, `,"router":{`...)
		b = w.appendMembers(b, `"source":`, r.Source, `"target":`, r.Target)
		b = append(b, '}')
	}
	if field := ev.Type.PayloadField(); field != "" {
		b = append(b, `,"payload":{"field":"`...)
		b = append(b, field...)
		b = append(b, `",`...)
		b = w.AppendPayload(b, ev.Payload)
		b = append(b, '}')
	}
	if d := ev.Detail; d != nil {
		b = w.appendStr(b, `,"wire_type":`, d.TypeName)
		b = w.appendStr(b, `,"raw":`, d.Raw)
		b = w.appendStr(b, `,"workflow_status":`, string(d.WorkflowStatus))
		b = w.appendStr(b, `,"retry_parent_instance_id":`, d.RetryParentInstanceID)
		b = w.appendStr(b, `,"rerun_parent_instance_id":`, d.RerunParentInstanceID)
		b = w.appendStr(b, `,"parent_instance_id":`, d.ParentInstanceID)
		b = w.appendStr(b, `,"parent_name":`, d.ParentName)
		b = w.appendStr(b, `,"stall_reason":`, d.StallReason)
		b = w.appendStr(b, `,"stall_description":`, d.StallDescription)
		b = w.appendStr(b, `,"version":`, d.Version)
	}
	return append(b, '}')
}

// closesCall reports whether events of type t close a call (an activity's
// or a child workflow's): their scheduled_id is meaningful even when it is
// 0, the first action.
func closesCall(t catalyst.EventType) bool {
	switch t {
	case catalyst.EventTaskCompleted, catalyst.EventTaskFailed,
		catalyst.EventChildWorkflowCompleted, catalyst.EventChildWorkflowFailed:
		return true
	}
	return false
}

// maxInnerDepth bounds how deep inner failures are written.
const maxInnerDepth = 32

// AppendFailure appends a failure as a JSON object, with its inner
// failures (up to a depth of 32).
func (w *JSON) AppendFailure(b []byte, f *catalyst.Failure) []byte {
	return w.appendFailure(b, f, 0)
}

func (w *JSON) appendFailure(b []byte, f *catalyst.Failure, depth int) []byte {
	b = append(b, '{')
	start := len(b)
	b = w.appendMembers(b, `"type":`, f.Type, `"message":`, f.Message)
	b = w.appendMember(b, start, `"stack_trace":`, f.StackTrace)
	if len(b) > start {
		b = append(b, ',')
	}
	b = append(b, `"non_retriable":`...)
	b = strconv.AppendBool(b, f.NonRetriable)
	if f.Inner != nil && depth < maxInnerDepth {
		b = append(b, `,"inner":`...)
		b = w.appendFailure(b, f.Inner, depth+1)
	}
	return append(b, '}')
}

// AppendPayload appends a payload's members, without braces: its state
// and, when present, its text ("value"). A payload kept in its wire form is
// copied as it is when that is already inert (printable ASCII without \u
// escapes), skipping the unquote.
func (w *JSON) AppendPayload(b []byte, p catalyst.Payload) []byte {
	b = append(b, `"state":"`...)
	b = append(b, p.State.String()...)
	b = append(b, '"')
	if !p.Has() {
		return b
	}
	b = append(b, `,"value":`...)
	if lit, ok := p.WireLiteral(); ok && safetext.InertJSONLiteral(lit) && (w.MaxString <= 0 || len(lit) <= w.MaxString) {
		return append(b, lit...)
	}
	// Unquoted into a buffer the writer keeps, not a new string each
	// time; the string view of it is used only by this call, before the
	// buffer is written again.
	w.text = p.AppendText(w.text[:0])
	return w.appendValue(b, unsafe.String(unsafe.SliceData(w.text), len(w.text)))
}

// appendStr appends a string member, key written with its leading comma;
// nothing for "".
func (w *JSON) appendStr(b []byte, key, v string) []byte {
	if v == "" {
		return b
	}
	return w.appendValue(append(b, key...), v)
}

// appendMember appends a string member inside an object whose members began
// at start (a comma first when one was written); nothing for "".
func (w *JSON) appendMember(b []byte, start int, key, v string) []byte {
	if v == "" {
		return b
	}
	if len(b) > start {
		b = append(b, ',')
	}
	return w.appendValue(append(b, key...), v)
}

// appendMembers appends two string members at the start of an object.
func (w *JSON) appendMembers(b []byte, k1, v1, k2, v2 string) []byte {
	start := len(b)
	b = w.appendMember(b, start, k1, v1)
	return w.appendMember(b, start, k2, v2)
}

// appendValue appends a string value, cut to MaxString.
func (w *JSON) appendValue(b []byte, v string) []byte {
	if w.MaxString > 0 && len(v) > w.MaxString {
		cut := w.MaxString
		for cut > 0 && !utf8.RuneStart(v[cut]) {
			cut--
		}
		return safetext.AppendJSON(b, v[:cut]+"… ("+ShownOf(cut, len(v))+")")
	}
	return safetext.AppendJSON(b, v)
}

// AppendInt is strconv.AppendInt in base 10, faster for what documents
// hold most: positions, ids and counts from 0 to 99,999,999, written two
// digits at a time straight from digitPairs.
func AppendInt(b []byte, v int64) []byte {
	if v < 0 || v >= 100_000_000 {
		return strconv.AppendInt(b, v, 10)
	}
	var d [8]byte
	i := len(d)
	for v >= 100 {
		p := 2 * (v % 100)
		v /= 100
		i -= 2
		d[i], d[i+1] = digitPairs[p], digitPairs[p+1]
	}
	if v >= 10 {
		i -= 2
		d[i], d[i+1] = digitPairs[2*v], digitPairs[2*v+1]
	} else {
		i--
		d[i] = byte('0' + v)
	}
	return append(b, d[i:]...)
}

// digitPairs holds "00" to "99": the two digits of n < 100 are at 2n.
const digitPairs = "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"

// appendEventStamp appends one of an event's instants: out of range, the
// text the source gave (null when it was not kept).
func (w *JSON) appendEventStamp(b []byte, ev *catalyst.Event, s catalyst.Stamp, fire bool) []byte {
	if !s.OutOfRange() {
		return w.AppendStamp(b, s)
	}
	for _, n := range w.OutOfRange {
		if n.Event == int(ev.Index) && strings.Contains(strings.ToLower(n.Field), "fire") == fire {
			return w.appendValue(b, n.Text)
		}
	}
	return append(b, "null"...)
}

// AppendStamp appends an instant as a JSON string, RFC 3339 in UTC with
// nanoseconds (trailing zeros trimmed, as time.RFC3339Nano does), fast: the
// date is formatted once per day, the time of day and the fraction two
// digits at a time.
func (w *JSON) AppendStamp(b []byte, s catalyst.Stamp) []byte {
	ns := int64(s)
	if w.Resolution > 0 && ns > 0 && !s.IsNever() {
		ns -= ns % int64(w.Resolution)
	}
	if ns < 0 || s.IsNever() {
		b = append(b, '"')
		b = s.Time().AppendFormat(b, time.RFC3339Nano)
		return append(b, '"')
	}
	sec, frac := ns/1e9, ns%1e9
	day, tod := sec/86400, sec%86400
	if day != w.day || !w.dated {
		w.day, w.dated = day, true
		w.date = dateText(day)
	}
	// The whole string is built in place and appended once:
	// "2006-01-02T15:04:05.999999999Z" and its quotes are 32 bytes.
	var out [32]byte
	out[0] = '"'
	*(*[11]byte)(out[1:12]) = w.date
	// Unsigned 32-bit arithmetic from here: both fit, and dividing by a
	// constant is cheapest so.
	t := uint32(tod)
	h, m, sc := 2*(t/3600), 2*(t/60%60), 2*(t%60)
	out[12], out[13], out[14] = digitPairs[h], digitPairs[h+1], ':'
	out[15], out[16], out[17] = digitPairs[m], digitPairs[m+1], ':'
	out[18], out[19] = digitPairs[sc], digitPairs[sc+1]
	n := 20
	if f := uint32(frac); f != 0 {
		// ".123456789" at out[20:30]: the last eight digits in pairs,
		// then the first; trailing zeros trimmed.
		for i := 28; i >= 22; i -= 2 {
			p := 2 * (f % 100)
			f /= 100
			out[i], out[i+1] = digitPairs[p], digitPairs[p+1]
		}
		out[20], out[21] = '.', byte('0'+f)
		n = 30
		for out[n-1] == '0' {
			n--
		}
	}
	out[n], out[n+1] = 'Z', '"'
	return append(b, out[:n+2]...)
}

// dateText is "2006-01-02T" for the day days after the Unix epoch
// (days ≥ 0), using the days-to-civil algorithm of the proleptic Gregorian
// calendar (H. Hinnant), which time.Format would do more slowly.
func dateText(days int64) (text [11]byte) {
	z := days + 719468
	era := z / 146097
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	y := yoe + era*400
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d := doy - (153*mp+2)/5 + 1
	m := mp + 3
	if m > 12 {
		m -= 12
	}
	if m <= 2 {
		y++
	}
	two := func(at int, v int64) { text[at], text[at+1] = byte('0'+v/10), byte('0'+v%10) }
	two(0, y/100)
	two(2, y%100)
	text[4] = '-'
	two(5, m)
	text[7] = '-'
	two(8, d)
	text[10] = 'T'
	return text
}
