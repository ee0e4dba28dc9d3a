package catalyst

import (
	"bytes"
	"errors"
	"math/bits"
	"strings"

	"github.com/twice-cli/twice/catalyst/jsonscan"
)

// cliRow decodes one row of `dapr workflow history -o json` (CLI v1.16 to
// v1.18, research/dapr-cli-json.md §2–3). The CLI's rows are lossy: whole
// seconds, payloads cut to 120 or 160 characters (ending in "…"), no stack
// traces, no child instance ids.
func (d *decoder) cliRow(e *Event) error {
	sc := d.sc
	if err := sc.Mark(); err != nil {
		return d.fail(err)
	}
	defer sc.Unmark()
	if err := sc.BeginObject(); err != nil {
		return d.kindError("row", "an object")
	}
	var seen uint16
	var hasID, hasAttrs, hasDetails bool
	var status string
	elapsed := elapsedNone
	typed := false
	last := -1 // the position in cliKeyOrder of the key just read
	for {
		bit := cliExpectedKey(sc, last)
		if bit == 0 {
			key, more, err := sc.NextKey()
			if err != nil {
				return d.fail(err)
			}
			if !more {
				break
			}
			bit = cliField(key)
		}
		if bit == 0 {
			if err := d.skipUnknown(); err != nil {
				return err
			}
			continue
		}
		if seen&bit != 0 {
			return d.duplicate(cliKeyName(bit))
		}
		seen |= bit
		last = bits.TrailingZeros16(bit)
		var b []byte
		var present bool
		var err error
		switch bit {
		case cliType:
			typed = true
			err = d.cliType(e)
		case cliName:
			e.Name, err = d.internOf("name")
		case cliEventID:
			if null, nerr := d.isNull(); null || nerr != nil {
				err = nerr
				break
			}
			hasID = true
			e.ID, err = d.int32Of("eventId")
		case cliTimestamp:
			e.Timestamp, err = d.stampOf("timestamp")
		case cliExecutionID:
			e.ExecutionID, err = d.internOf("executionId")
		case cliRouter:
			if b, _, err = d.bytesOf("router"); err == nil {
				e.Router = d.cliRouter(b)
			}
		case cliAppID:
			var app string
			if app, err = d.internOf("appID"); d.h.Run.AppID == "" {
				d.h.Run.AppID = app
			}
		case cliStatus:
			status, err = d.internOf("status")
		case cliDetails:
			if b, present, err = d.bytesOf("details"); present {
				d.cli.details = append(d.cli.details[:0], b...)
				hasDetails = true
			}
		case cliAttrs:
			if b, present, err = d.bytesOf("attrs"); present {
				d.cli.attrs = append(d.cli.attrs[:0], b...)
				hasAttrs = true
			}
		case cliElapsed:
			var null bool
			if b, null, err = sc.StringValueOrNull(); err == nil {
				if !null {
					elapsed = parseElapsed(b)
				}
				break
			}
			// Not a string: not the CLI's elapsed (a hand-edited row),
			// skipped as it was before twice read it.
			var ve *jsonscan.ValueError
			if errors.As(err, &ve) {
				err = sc.SkipValue()
			}
			err = d.fail(err)
		default: // namespace, play: the CLI's own bookkeeping
			if err = sc.SkipValue(); err != nil {
				err = d.fail(err)
			}
		}
		if err != nil {
			return err
		}
	}
	if !typed {
		return d.errorf("the row has no \"type\"")
	}
	// Kept in the event until every row is read (rebuild.go).
	e.chainErr = uint32(elapsed)
	d.cli.rows = true
	if !hasID && !e.Type.IsNumbered() {
		// The CLI prints no eventId for -1 (and for 0 except on TaskScheduled
		// and TimerCreated); -1 is what the engine recorded for this type.
		e.ID = -1
	}
	if e.Type == EventExecutionCompleted && status != "" {
		detail(e).WorkflowStatus = Status(status)
	}
	switch e.Type {
	case EventTaskCompleted, EventTaskFailed, EventChildWorkflowCompleted, EventChildWorkflowFailed:
		// Unknown until attrs or details give it: no version prints one
		// on ChildWorkflowFailed, v1.16 none on SubOrch* rows.
		e.ScheduledID = NoID
	case EventTimerFired:
		e.TimerID = NoID
	}
	if hasAttrs {
		if err := d.cliAttrs(e); err != nil {
			return err
		}
	}
	if hasDetails {
		if err := d.cliDetails(e); err != nil {
			return err
		}
	}
	switch e.Type {
	case EventExecutionSuspended, EventExecutionResumed, EventExecutionTerminated, EventContinueAsNew:
		// The CLI prints no payload for these rows (the reason or new
		// input the engine recorded is not shown).
		e.Payload = AbsentPayload(PayloadNotInFormat)
	default:
		if e.Payload.State == PayloadNone && e.Type.PayloadField() != "" {
			// The CLI skips an attr whose value is empty, after unquoting a
			// JSON string (dapr/cli pkg/workflow/history.go addAttr, trim):
			// no payload, an empty one and "" all print nothing.
			e.Payload = AbsentPayload(PayloadNoneOrEmpty)
		}
	}
	if e.Type == EventUnknown {
		detail(e).Raw = string(sc.Marked())
	}
	return nil
}

// Keys of a CLI row, one bit each, in the order the CLI writes them (the
// field order of its row struct, research/dapr-cli-json.md §2: eventId,
// router, executionId and attrs are left out when empty).
const (
	cliNamespace uint16 = 1 << iota
	cliAppID
	cliPlay
	cliType
	cliName
	cliEventID
	cliTimestamp
	cliElapsed
	cliStatus
	cliDetails
	cliRouter
	cliExecutionID
	cliAttrs
)

// cliOptional marks the keys the CLI leaves out when empty.
const cliOptional = cliEventID | cliRouter | cliExecutionID | cliAttrs

// cliKeyOrder holds the row keys as NextKeyIs wants them, quoted and with
// their colon, at their bit's position.
var cliKeyOrder = [...]string{`"namespace":`, `"appID":`, `"play":`, `"type":`,
	`"name":`, `"eventId":`, `"timestamp":`, `"elapsed":`, `"status":`,
	`"details":`, `"router":`, `"executionId":`, `"attrs":`}

// cliExpectedKey reads the next key of a row when it is one the CLI writes
// after the key at position last in cliKeyOrder (-1: none read yet): the
// key at the next position, or past it the keys the CLI may leave out. It
// returns the key's bit, or 0 having consumed nothing: NextKey then reads
// whatever comes. On `dapr workflow history -o json` output nearly every
// key is found this way, saving NextKey's scan and cliField's lookup.
func cliExpectedKey(sc *jsonscan.Scanner, last int) uint16 {
	for i := last + 1; i < len(cliKeyOrder); i++ {
		bit := uint16(1) << i
		if sc.NextKeyIs(cliKeyOrder[i]) {
			return bit
		}
		if bit&cliOptional == 0 {
			break
		}
	}
	return 0
}

// cliKeyName is the key of a row key's bit, for an error.
func cliKeyName(bit uint16) []byte {
	q := cliKeyOrder[bits.TrailingZeros16(bit)]
	return []byte(q[1 : len(q)-2])
}

func cliField(key []byte) uint16 {
	switch string(key) {
	case "type":
		return cliType
	case "name":
		return cliName
	case "eventId":
		return cliEventID
	case "timestamp":
		return cliTimestamp
	case "executionId":
		return cliExecutionID
	case "router":
		return cliRouter
	case "appID":
		return cliAppID
	case "status":
		return cliStatus
	case "details":
		return cliDetails
	case "attrs":
		return cliAttrs
	case "namespace":
		return cliNamespace
	case "play":
		return cliPlay
	case "elapsed":
		return cliElapsed
	}
	return 0
}

// cliScratch holds a row's attrs and details until its type is known, and
// each row type's attrs keys, parsed once per decode.
type cliScratch struct {
	attrs, details []byte
	// rows says rows were read, each with its elapsed in its Event; execs
	// holds each execDuration: for rebuilding the rows' times once they
	// are all read (rebuild.go).
	rows   bool
	execs  []execDuration
	keys   [eventTypeCount][]cliKey
	parsed [eventTypeCount]bool
}

// cliKey is one attrs key a row type prints.
type cliKey struct {
	name string
	// sep is ";name=", what starts the key's pair after another pair.
	sep string
	// free marks free text (payloads, messages), which may hold ';' and '='.
	free bool
	// lastFree: the value is free text and no free-text key may follow it,
	// so it runs to the last separator of a later key.
	lastFree bool
}

// attrKeys returns the parsed cliAttrKeys of t.
func (c *cliScratch) attrKeys(t EventType) []cliKey {
	if t >= eventTypeCount {
		return nil
	}
	if !c.parsed[t] {
		var keys []cliKey
		for k := range strings.FieldsSeq(cliAttrKeys(t)) {
			name, free := strings.CutSuffix(k, "*")
			keys = append(keys, cliKey{name: name, sep: ";" + name + "=", free: free})
		}
		for i := range keys {
			keys[i].lastFree = keys[i].free
			for _, later := range keys[i+1:] {
				if later.free {
					keys[i].lastFree = false
				}
			}
		}
		c.keys[t], c.parsed[t] = keys, true
	}
	return c.keys[t]
}

// cliType decodes the row's type name (v1.16–v1.17 OrchestratorStarted and
// SubOrch*, v1.18 WorkflowStarted and ChildWorkflow*, and "Unknown").
func (d *decoder) cliType(e *Event) error {
	return d.typeValue(e, "type", "the row's \"type\" is empty")
}

// cliRouter splits "src" or "src->target".
func (d *decoder) cliRouter(b []byte) *Router {
	src, dst := b, []byte(nil)
	if i := bytes.Index(b, []byte("->")); i >= 0 {
		src, dst = b[:i], b[i+2:]
	}
	return d.rt.get(d.strs.str(src), d.strs.str(dst))
}

// cliAttrKeys lists, in the CLI's order, the attrs keys a row type prints;
// a '*' marks free text (payloads, messages), which may hold ';' and '='.
func cliAttrKeys(t EventType) string {
	switch t {
	case EventExecutionStarted:
		return "input* tags"
	case EventWorkflowStarted:
		return "versionName versionPatches"
	case EventTaskScheduled, EventChildWorkflowCreated:
		return "input*"
	case EventTaskCompleted:
		return "scheduledId output* result*"
	case EventTaskFailed:
		return "scheduledId errorType errorMsg* nonRetriable"
	case EventTimerCreated:
		return "timerName fireAt origin eventName taskExecId instanceId"
	case EventTimerFired:
		return "timerId fireAt"
	case EventEventRaised:
		return "eventName payload*"
	case EventEventSent:
		return "eventName payload* targetInstance"
	case EventChildWorkflowCompleted:
		return "output*"
	case EventExecutionCompleted:
		return "output* failureType failureMessage*"
	case EventExecutionStalled:
		return "reason description*"
	}
	return ""
}

// cliAttrs parses the row's attrs ("k=v;k=v", values unescaped, pairs with
// empty values left out) by the key sequence of its type: a value runs to
// the next ";key=" of a key that may follow it. A free-text value followed
// only by fixed-form keys runs to the last such ";key=", so that a message
// holding ";" keeps it.
func (d *decoder) cliAttrs(e *Event) error {
	attrs := d.cli.attrs
	keys := d.cli.attrKeys(e.Type)
	pos, next := 0, 0
	for pos < len(attrs) {
		i := next
		for ; i < len(keys); i++ {
			k := keys[i].name
			if len(attrs)-pos > len(k) && string(attrs[pos:pos+len(k)]) == k && attrs[pos+len(k)] == '=' {
				break
			}
		}
		if i == len(keys) {
			// Keys this type does not print: counted, not guessed at.
			d.h.UnknownFields++
			return nil
		}
		start := pos + len(keys[i].name) + 1
		end := cliValueEnd(attrs, start, keys[i], keys[i+1:])
		if err := d.cliAttr(e, keys[i].name, attrs[start:end]); err != nil {
			return err
		}
		pos, next = end+1, i+1
	}
	return nil
}

// cliValueEnd finds where the value of key, starting at start, ends.
func cliValueEnd(attrs []byte, start int, key cliKey, later []cliKey) int {
	end := len(attrs)
	rest := attrs[start:]
	for _, k := range later {
		var j int
		if key.lastFree {
			j = lastIndexString(rest, k.sep)
		} else {
			j = indexString(rest[:end-start], k.sep)
		}
		if j >= 0 && start+j < end {
			end = start + j
		}
	}
	return end
}

// indexString is bytes.Index for a string separator, without converting it.
func indexString(b []byte, sep string) int {
	for i := 0; ; {
		j := bytes.IndexByte(b[i:], sep[0])
		if j < 0 {
			return -1
		}
		i += j
		if len(b)-i < len(sep) {
			return -1
		}
		if string(b[i:i+len(sep)]) == sep {
			return i
		}
		i++
	}
}

// lastIndexString is bytes.LastIndex for a string separator.
func lastIndexString(b []byte, sep string) int {
	for i := len(b) - len(sep); i >= 0; i-- {
		j := bytes.LastIndexByte(b[:i+1], sep[0])
		if j < 0 {
			return -1
		}
		if string(b[j:j+len(sep)]) == sep {
			return j
		}
		i = j
	}
	return -1
}

// cliAttr applies one attrs pair.
func (d *decoder) cliAttr(e *Event, key string, v []byte) error {
	switch key {
	case "input", "output", "result", "payload":
		if key == "result" {
			d.run.cli116 = true // v1.17 renamed a completion's result to output
		}
		e.Payload = PresentPayload(d.strs.arena.str(v))
	case "scheduledId", "timerId":
		n, ok := jsonscan.ParseInt(v)
		if !ok || n != int64(int32(n)) {
			return d.errorf("attrs %s=%s is not an event id", key, quoteShort(v))
		}
		if key == "timerId" {
			e.TimerID = int32(n)
		} else {
			e.ScheduledID = int32(n)
		}
	case "errorType", "failureType":
		failureOf(e).Type = d.strs.str(v)
	case "errorMsg", "failureMessage":
		failureOf(e).Message = d.strs.str(v)
	case "nonRetriable":
		failureOf(e).NonRetriable = string(v) == "true"
	case "timerName":
		if e.Name == "" {
			e.Name = d.strs.str(v)
		}
	case "fireAt":
		st, ok := d.stamps.parse(v)
		if !ok {
			return d.errorf("attrs fireAt=%s is not an RFC 3339 time", quoteShort(v))
		}
		if st.OutOfRange() {
			d.h.outOfRange = append(d.h.outOfRange, StampText{Event: d.event, Field: "fireAt", Text: string(v)})
		}
		e.FireAt = st
	case "origin":
		e.Origin = cliOrigin(v)
	case "eventName":
		if e.Type == EventTimerCreated {
			e.OriginID = d.strs.str(v)
		} else if e.Name == "" {
			e.Name = d.strs.str(v)
		}
	case "taskExecId", "instanceId":
		e.OriginID = d.strs.str(v)
	case "targetInstance":
		e.InstanceID = d.strs.str(v)
	case "reason":
		if n, ok := jsonscan.ParseInt(v); ok {
			// A CLI built before the reason had a name prints its number
			// (v1.17 prints PAYLOAD_SIZE_EXCEEDED as 2).
			detail(e).StallReason = stalledReasonName(n)
			break
		}
		detail(e).StallReason = d.strs.str(v)
	case "description":
		detail(e).StallDescription = d.strs.arena.str(v)
	case "versionName":
		detail(e).Version = d.strs.str(v)
	}
	return nil
}

// cliOrigin maps a CLI origin name to a TimerOrigin.
func cliOrigin(v []byte) TimerOrigin {
	switch string(v) {
	case "createTimer":
		return OriginCreateTimer
	case "externalEvent":
		return OriginExternalEvent
	case "activityRetry":
		return OriginActivityRetry
	case "childWorkflowRetry":
		return OriginChildWorkflowRetry
	}
	return OriginNone
}

// cliTimerOrigin takes a timer's origin from its row's details
// ("origin=activityRetry(<id>)") where attrs did not give it.
func (d *decoder) cliTimerOrigin(e *Event, details []byte) {
	i := bytes.LastIndex(details, []byte("origin="))
	if i < 0 {
		return
	}
	v := details[i+len("origin="):]
	arg := []byte(nil)
	if j := bytes.IndexByte(v, '('); j >= 0 && v[len(v)-1] == ')' {
		v, arg = v[:j], v[j+1:len(v)-1]
	}
	if e.Origin == OriginNone {
		e.Origin = cliOrigin(v)
	}
	if e.OriginID == "" && len(arg) > 0 {
		e.OriginID = d.strs.str(arg)
	}
}

// detailsValue returns an item's value when it starts with key ("parent=").
func detailsValue(item []byte, key string) ([]byte, bool) {
	if len(item) < len(key) || string(item[:len(key)]) != key {
		return nil, false
	}
	return item[len(key):], true
}

// cliDetails takes from a row's details what attrs lack: a timer's origin
// ("origin=activityRetry(<id>)"), a child's parent ("parent=<id>"), a
// rerun's source ("rerunParent=<id>") and, from CLI v1.17 on, the
// scheduled id of a child workflow's completion ("eventId=<id>", which
// is printed nowhere else), and a completion's "execDuration=" for
// rebuilding the rows' times (rebuild.go). It also notes the words only
// CLI v1.16 writes.
func (d *decoder) cliDetails(e *Event) error {
	details := d.cli.details
	switch e.Type {
	case EventTimerCreated:
		d.cliTimerOrigin(e, details)
	case EventExecutionStarted, EventWorkflowStarted, EventTaskScheduled:
		if string(details) == "orchestration start" || string(details) == "replay cycle start" ||
			bytes.HasPrefix(details, []byte("activity=")) {
			d.run.cli116 = true
		}
	case EventExecutionCompleted:
		// "execDuration=<humanized>", its only item.
		if v, ok := detailsValue(details, "execDuration="); ok {
			d.cli.execs = append(d.cli.execs, execDuration{row: e.Index, code: parseElapsed(v)})
		}
	}
	// One pass over the comma-separated items; the first of each key
	// counts.
	var seen uint8
	for rest := details; len(rest) > 0; {
		item := rest
		if j := bytes.IndexByte(rest, ','); j >= 0 {
			item, rest = rest[:j], rest[j+1:]
		} else {
			rest = nil
		}
		key := -1
		var v []byte
		for k, name := range [...]string{"parent=", "rerunParent=", "eventId="} {
			if x, ok := detailsValue(item, name); ok {
				key, v = k, x
				break
			}
		}
		if key < 0 || seen&(1<<key) != 0 {
			continue
		}
		seen |= 1 << key
		if len(v) == 0 {
			continue
		}
		switch key {
		case 0: // parent=
			if e.Type == EventExecutionStarted {
				detail(e).ParentInstanceID = d.strs.str(v)
			}
		case 1: // rerunParent=
			detail(e).RerunParentInstanceID = d.strs.str(v)
		case 2: // eventId=
			if e.Type != EventTaskCompleted && e.Type != EventChildWorkflowCompleted {
				continue
			}
			n, ok := jsonscan.ParseInt(v)
			if !ok || n != int64(int32(n)) {
				return d.errorf("details eventId=%s is not an event id", quoteShort(v))
			}
			if !e.HasScheduledID() {
				e.ScheduledID = int32(n)
			} else if e.ScheduledID != int32(n) {
				return d.errorf("the row's attrs say scheduledId=%d and its details eventId=%d", e.ScheduledID, n)
			}
		}
	}
	return nil
}
