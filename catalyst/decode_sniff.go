package catalyst

import (
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/twice-cli/twice/catalyst/jsonscan"
	"github.com/twice-cli/twice/catalyst/safetext"
)

// sniffSize is how much of a document's beginning is looked at to tell its
// format. The bytes are peeked through the scanner's window, not consumed.
// When a value longer than that (a run's input ahead of its history, a huge
// first name) hides what decides the format, the look goes further, up to
// maxSniffSize.
const (
	sniffSize    = 64 << 10
	maxSniffSize = 64 << 20
)

// shape is the outer form of a document.
type shape uint8

const (
	shapeUnknown  shape = iota
	shapeInvalid        // malformed JSON: the real scan reports where
	shapeEnvelope       // {"events"|"history": [...], run metadata}
	shapeArray          // a bare array of events
	shapeNull           // null: the Dapr CLI's output for zero events
	shapeMCP            // an MCP tool result
	shapeJSONRPC        // a JSON-RPC response
)

// elemFormat is the form of the events.
type elemFormat uint8

const (
	elemUnknown elemFormat = iota
	elemProto
	elemFlat
	elemCLI
)

func (f elemFormat) format() Format {
	switch f {
	case elemFlat:
		return FormatCatalyst
	case elemCLI:
		return FormatDaprCLI
	}
	return FormatProtoJSON
}

// sniffed is what classify made of a document's beginning.
type sniffed struct {
	shape shape
	elem  elemFormat
	// what and hint describe an unknown document for FormatError.
	what, hint string
	// cut is set when the look ended at the end of a cut-off head: seeing
	// more could change the answer.
	cut bool
}

// wrappers says which wrappers a document may be.
type wrappers uint8

const (
	allowMCP wrappers = 1 << iota
	allowJSONRPC
)

// document decodes the value at the scanner's position, whatever its format.
func (d *decoder) document(allow wrappers) (*History, error) {
	head, err := d.sc.Peek(sniffSize)
	if err != nil {
		return nil, d.fail(err)
	}
	if len(head) == 0 {
		return nil, ErrEmpty
	}
	sn := classify(head, len(head) < sniffSize)
	for n := sniffSize; sn.cut && len(head) == n && n < maxSniffSize; {
		n *= 4
		if head, err = d.sc.Peek(n); err != nil {
			return nil, d.fail(err)
		}
		sn = classify(head, len(head) < n)
	}
	switch sn.shape {
	case shapeInvalid:
		if err := d.sc.SkipValue(); err != nil {
			return nil, d.fail(err)
		}
	case shapeNull:
		d.format = FormatDaprCLI
		d.fromCLI(true)
		if err := d.sc.Null(); err != nil {
			return nil, d.fail(err)
		}
		return d.finish(false), nil
	case shapeArray:
		d.format = sn.elem.format()
		d.fromCLI(sn.elem == elemCLI)
		if err := d.events(sn.elem); err != nil {
			return nil, err
		}
		return d.finish(sn.elem == elemFlat), nil
	case shapeEnvelope:
		return d.envelope(sn)
	case shapeMCP:
		if allow&allowMCP != 0 {
			return d.mcpResult()
		}
		sn.what = "an MCP tool result inside another wrapper"
	case shapeJSONRPC:
		if allow&allowJSONRPC != 0 {
			return d.jsonRPC()
		}
		sn.what = "a JSON-RPC response inside another wrapper"
	}
	if sn.what == "" {
		sn.what = "JSON that is not a history"
	}
	return nil, &FormatError{What: sn.what, Found: found(head), Hint: sn.hint}
}

// found returns the first bytes of a document, sanitized for a message.
func found(head []byte) string {
	n := min(len(head), 64)
	for n > 0 && n < len(head) && !utf8.RuneStart(head[n]) {
		n--
	}
	s := safetext.Line(string(head[:n]))
	if n < len(head) {
		s += "…"
	}
	return s
}

// classify tells a document's shape and event format from its beginning.
// complete is false when head is cut off; an error at its end then means
// "not enough to tell", and classify decides from what it saw.
func classify(head []byte, complete bool) sniffed {
	hs := jsonscan.NewBytes(head)
	sn := classifyHead(hs, head, complete)
	// Scanner errors are sticky: one at the end of a cut-off head means the
	// look ran out of bytes somewhere.
	sn.cut = stopped(hs.Err(), head, complete)
	return sn
}

// classifyHead is classify over the scanner hs reading head.
func classifyHead(hs *jsonscan.Scanner, head []byte, complete bool) sniffed {
	k, _ := hs.PeekKind()
	switch k {
	case 'n':
		if hs.Null() == nil {
			return sniffed{shape: shapeNull}
		}
	case '[':
		return classifyArray(hs, head, complete)
	case '{':
		return classifyObject(hs, head, complete)
	}
	switch {
	case k == 'n':
		// Not null after all ("nope", "nan"): the first byte only guessed.
	case (k == 't' || k == 'f') && jsonscan.NewBytes(head).SkipValue() != nil:
		// Likewise not true or false ("foo", "timeout").
	case jsonscan.KindName(k) != "":
		return sniffed{what: jsonscan.KindName(k) + " (a JSON value that is not an object or array)"}
	case k == '<':
		return sniffed{what: "what looks like HTML or XML, not JSON"}
	}
	return sniffed{what: "text that is not JSON"}
}

// stopped tells how classification should treat a scanner error: a cut-off
// head means "decide from what was seen" (true); anything else is malformed
// JSON (false).
func stopped(err error, head []byte, complete bool) bool {
	var se *jsonscan.SyntaxError
	return !complete && errors.As(err, &se) && se.Offset >= int64(len(head))-1
}

func classifyArray(hs *jsonscan.Scanner, head []byte, complete bool) sniffed {
	if err := hs.BeginArray(); err != nil {
		return sniffed{shape: shapeInvalid}
	}
	more, err := hs.NextElement()
	if err != nil {
		if stopped(err, head, complete) {
			return sniffed{shape: shapeArray, elem: elemFlat}
		}
		return sniffed{shape: shapeInvalid}
	}
	if !more {
		// An empty list: Catalyst's bare list of events (the CLI prints null).
		return sniffed{shape: shapeArray, elem: elemFlat}
	}
	k, _ := hs.PeekKind()
	if k != '{' {
		if jsonscan.KindName(k) == "" {
			return sniffed{shape: shapeInvalid}
		}
		return sniffed{what: "a JSON array of " + strings.TrimPrefix(strings.TrimPrefix(jsonscan.KindName(k), "an "), "a ") + " values, not of events"}
	}
	elem, keys, invalid := classifyEvent(hs, head, complete)
	switch {
	case invalid:
		return sniffed{shape: shapeInvalid}
	case elem == elemUnknown:
		return sniffed{what: "a JSON array of objects with " + describeKeys(keys) + ", which are not events twice knows"}
	}
	return sniffed{shape: shapeArray, elem: elem}
}

// classifyEvent tells the format of the event object at hs's position. It
// also returns the keys it saw, for messages.
func classifyEvent(hs *jsonscan.Scanner, head []byte, complete bool) (elem elemFormat, keys []string, invalid bool) {
	if err := hs.BeginObject(); err != nil {
		return elemUnknown, nil, true
	}
	var flat, proto bool
	decide := func() elemFormat {
		switch {
		case flat:
			return elemFlat
		case proto:
			return elemProto
		}
		return elemUnknown
	}
	for {
		key, more, err := hs.NextKey()
		if err != nil {
			return decide(), keys, !stopped(err, head, complete)
		}
		if !more {
			return decide(), keys, false
		}
		if len(keys) < 8 {
			keys = append(keys, string(key))
		}
		switch string(key) {
		case "play", "elapsed", "attrs":
			return elemCLI, keys, false
		case "event_type", "eventType", "kind":
			return elemFlat, keys, false
		case "type":
			flat = true
		case "eventId", "timestamp", "router":
			proto = true
		default:
			if strings.IndexByte(string(key), '_') >= 0 {
				return elemFlat, keys, false
			}
			k, _ := hs.PeekKind()
			if k == '{' {
				if _, ok := protoEventType(key); ok {
					return elemProto, keys, false
				}
				proto = true // an event type twice does not know
			}
		}
		if err := hs.SkipValue(); err != nil {
			return decide(), keys, !stopped(err, head, complete)
		}
	}
}

func classifyObject(hs *jsonscan.Scanner, head []byte, complete bool) sniffed {
	if err := hs.BeginObject(); err != nil {
		return sniffed{shape: shapeInvalid}
	}
	var keys []string
	var catalyst, fixture, rpcID, rpcResult, envelope bool
	for {
		key, more, err := hs.NextKey()
		if err != nil {
			if stopped(err, head, complete) {
				break
			}
			return sniffed{shape: shapeInvalid}
		}
		if !more {
			break
		}
		if len(keys) < 8 {
			keys = append(keys, string(key))
		}
		switch string(key) {
		case "events", "history":
			if fixture {
				return sniffed{what: "a twice saved history (fixture file)",
					hint: "Open it with `twice show FILE`, which verifies the fixture before decoding the history inside"}
			}
			sn, done := classifyEnvelope(hs, head, complete, string(key) == "history", catalyst)
			if done {
				return sn
			}
			// An empty list: the other keys decide whose it is.
			envelope = true
			catalyst = catalyst || string(key) == "history"
			continue
		case "content", "structuredContent", "isError":
			return sniffed{shape: shapeMCP}
		case "jsonrpc":
			return sniffed{shape: shapeJSONRPC}
		case "id":
			rpcID = true
		case "result", "error":
			rpcResult = true
		case "schema_version":
			fixture = true
		default:
			catalyst = catalyst || isCatalystRunKey(key)
		}
		if rpcID && rpcResult {
			return sniffed{shape: shapeJSONRPC}
		}
		if err := hs.SkipValue(); err != nil {
			if stopped(err, head, complete) {
				break
			}
			return sniffed{shape: shapeInvalid}
		}
	}
	if envelope {
		elem := elemProto
		if catalyst {
			elem = elemFlat
		}
		return sniffed{shape: shapeEnvelope, elem: elem}
	}
	if fixture {
		return sniffed{what: "a twice saved history (fixture file) without its history",
			hint: "Open it with `twice show FILE`, which checks the fixture"}
	}
	if len(keys) == 0 {
		return sniffed{what: "an empty JSON object"}
	}
	return sniffed{what: "a JSON object with " + describeKeys(keys) + " and no \"events\" or \"history\" list"}
}

// classifyEnvelope looks at the value of an "events" or "history" key. done
// is false when the list is empty or null and the rest of the object decides.
func classifyEnvelope(hs *jsonscan.Scanner, head []byte, complete, history, catalyst bool) (sn sniffed, done bool) {
	byEnvelope := elemProto
	if history || catalyst {
		byEnvelope = elemFlat
	}
	sn = sniffed{shape: shapeEnvelope, elem: byEnvelope}
	k, _ := hs.PeekKind()
	switch k {
	case 'n':
		if hs.Null() != nil {
			return sn, true
		}
		return sn, false
	case '[':
	default:
		// Not a list: the decoder reports the wrong type where it is.
		return sn, true
	}
	if hs.BeginArray() != nil {
		return sn, true
	}
	more, err := hs.NextElement()
	switch {
	case err != nil:
		return sn, true
	case !more:
		return sn, false
	}
	if k, _ := hs.PeekKind(); k == '{' {
		if elem, _, _ := classifyEvent(hs, head, complete); elem != elemUnknown {
			sn.elem = elem
		}
	}
	return sn, true
}

// isCatalystRunKey reports whether key is run metadata as Catalyst (not
// Dapr's protojson) writes it next to a history.
func isCatalystRunKey(key []byte) bool {
	switch string(key) {
	case "instanceID", "workflowName", "runtimeStatus", "createdAt", "lastUpdatedAt",
		"appId", "projectId", "dataSharingLevel":
		return true
	}
	return strings.IndexByte(string(key), '_') >= 0
}

// describeKeys lists keys for a message, sanitized.
func describeKeys(keys []string) string {
	if len(keys) == 0 {
		return "no keys"
	}
	var b strings.Builder
	if len(keys) == 1 {
		b.WriteString("the key ")
	} else {
		b.WriteString("the keys ")
	}
	for i, k := range keys {
		if i > 0 {
			b.WriteString(", ")
		}
		if len(k) > 40 {
			k = k[:40] + "…"
		}
		b.WriteString(strconv.Quote(safetext.Line(k)))
	}
	return b.String()
}
