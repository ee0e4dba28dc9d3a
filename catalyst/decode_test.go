package catalyst

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/twice-cli/twice/catalyst/jsonscan"
)

// Every file under testdata, by what Decode must make of it: the format is
// chosen by content, never by name.
func TestDecodeChoosesTheFormatByContent(t *testing.T) {
	tests := []struct {
		file   string
		format Format
		events int
	}{
		{"protojson-a-simple.json", FormatProtoJSON, 6},
		{"protojson-b-retries.json", FormatProtoJSON, 18},
		{"protojson-c-timeout-race.json", FormatProtoJSON, 12},
		{"protojson-d-child-retry.json", FormatProtoJSON, 12},
		{"protojson-e-external-event.json", FormatProtoJSON, 8},
		{"protojson-e-next-generation.json", FormatProtoJSON, 3},
		{"protojson-old-keys.json", FormatProtoJSON, 13},
		{"protojson-edge.json", FormatProtoJSON, 15},
		{"catalyst-flat-list.json", FormatCatalyst, 7},
		{"catalyst-flat-envelope.json", FormatCatalyst, 10},
		{"catalyst-flat-full.json", FormatCatalyst, 3},
		{"dapr-cli-1.17-charge.json", FormatDaprCLI, 18},
		{"dapr-cli-1.18-charge.json", FormatDaprCLI, 18},
		{"dapr-cli-1.18-welcome.json", FormatDaprCLI, 15},
		{"dapr-cli-edge.json", FormatDaprCLI, 12},
		{"dapr-cli-null.json", FormatDaprCLI, 0},
		{"mcp-result-structured.json", FormatCatalyst, 7},
		{"mcp-result-text.json", FormatCatalyst, 7},
		{"mcp-result-protojson.json", FormatProtoJSON, 6},
		{"jsonrpc-result.json", FormatCatalyst, 7},
	}
	for _, tt := range tests {
		h, err := decodeFile(t, tt.file)
		if err != nil {
			t.Errorf("%s: %v", tt.file, err)
			continue
		}
		if h.Format != tt.format || h.Len() != tt.events {
			t.Errorf("%s: %s with %d events; want %s with %d", tt.file, h.Format, h.Len(), tt.format, tt.events)
		}
	}
}

func TestDecodeRejectsWhatIsNotAHistory(t *testing.T) {
	tests := []struct {
		file string
		want string // in the FormatError's message
	}{
		{"not-json.txt", "found text that is not JSON, beginning `hello, this is not JSON\\n`"},
		{"html.txt", "found what looks like HTML or XML, not JSON"},
		{"object-no-events.json", `found a JSON object with the keys "status", "runs" and no "events" or "history" list`},
		{"array-of-numbers.json", "found a JSON array of number values, not of events"},
		{"fixture.json", "found a twice saved history (fixture file)"},
	}
	for _, tt := range tests {
		_, err := decodeFile(t, tt.file)
		var fe *FormatError
		if !errors.As(err, &fe) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s:\n got  %v\n want a FormatError with %q", tt.file, err, tt.want)
			continue
		}
		// Every format twice reads is named, the fixture included.
		for _, name := range []string{"protojson", "Catalyst flattened", "dapr workflow history -o json", "twice saved histories"} {
			if !strings.Contains(err.Error(), name) {
				t.Errorf("%s: the message does not name %q", tt.file, name)
			}
		}
	}
	for _, file := range []string{"empty.json", "whitespace.json"} {
		if _, err := decodeFile(t, file); !errors.Is(err, ErrEmpty) {
			t.Errorf("%s: %v, want ErrEmpty", file, err)
		}
	}
}

func TestFormatErrorSanitizesWhatItQuotes(t *testing.T) {
	_, err := Decode(strings.NewReader("\x1b]0;pwned\x07 not json"), DecodeOptions{})
	if err == nil || strings.ContainsAny(err.Error(), "\x1b\x07") || !strings.Contains(err.Error(), `\x1b]0;pwned\x07`) {
		t.Errorf("got %q, want the escape sequence shown escaped", err)
	}
	long := `{"` + strings.Repeat("k", 200) + `":1}`
	_, err = Decode(strings.NewReader(long), DecodeOptions{})
	if err == nil || strings.Contains(err.Error(), strings.Repeat("k", 70)) {
		t.Errorf("the quoted start is not shortened: %v", err)
	}
}

func TestMalformedJSON(t *testing.T) {
	tests := []struct {
		file, doc string
		want      string
	}{
		{file: "truncated.json", want: "event 4: invalid JSON at byte 650: unexpected end of input in a string (the document is cut off)"},
		{file: "trailing-garbage.json", want: "invalid JSON at byte 977: trailing data after the JSON value: found '{'"},
		{doc: `{"events":[{"eventId":-1,"workflowStarted":{}},]}`, want: "trailing comma before ']'"},
		{doc: `{"events":[{"eventId":01,"workflowStarted":{}}]}`, want: `invalid number "01"`},
		{doc: "{\"events\":[{\"taskScheduled\":{\"name\":\"a\x01\"}}]}", want: "control character 0x01 in a string"},
		{doc: `[{"type":"TaskScheduled","name":"a\q"}]`, want: "invalid escape"},
		{doc: `{"events":[{"workflowStarted":{}} {"workflowStarted":{}}]}`, want: "found '{' where ',' or ']' after an array element was expected"},
	}
	for _, tt := range tests {
		var err error
		if tt.file != "" {
			_, err = decodeFile(t, tt.file)
		} else {
			_, err = Decode(strings.NewReader(tt.doc), DecodeOptions{})
		}
		var se *jsonscan.SyntaxError
		if !errors.As(err, &se) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s%s:\n got  %v\n want a SyntaxError with %q", tt.file, tt.doc, err, tt.want)
		}
	}
}

func TestDeepNesting(t *testing.T) {
	for _, depth := range []int{10_000, 10_001, 1_000_000} {
		// Bare nested arrays are no history: rejected from their first bytes.
		doc := strings.Repeat("[", depth) + strings.Repeat("]", depth)
		_, err := Decode(strings.NewReader(doc), DecodeOptions{})
		var fe *FormatError
		if !errors.As(err, &fe) {
			t.Errorf("arrays %d deep: %v, want a FormatError", depth, err)
		}
		// Inside an event, the whole document is scanned.
		doc = `{"events":[{"eventId":-1,"workflowStarted":{},"x":` + strings.Repeat("[", depth) +
			strings.Repeat("]", depth) + `}]}`
		h, err := Decode(strings.NewReader(doc), DecodeOptions{})
		var se *jsonscan.SyntaxError
		if h != nil || !errors.As(err, &se) || !strings.Contains(err.Error(), "nesting deeper than 10000 levels") {
			t.Errorf("in an event, %d deep: %v, %v; want the nesting limit", depth, h, err)
		}
	}
	// 10,000 levels inside an event is within the limit counted from the
	// document's top (events list, event, field): the error names the limit
	// only when the total passes it.
	doc := `{"events":[{"eventId":-1,"workflowStarted":{},"x":` + strings.Repeat("[", 9_997) + strings.Repeat("]", 9_997) + `}]}`
	h, err := Decode(strings.NewReader(doc), DecodeOptions{})
	if err != nil || h.UnknownFields != 1 {
		t.Errorf("9,997 levels in an unknown field: %v", err)
	}
}

func TestHugePayloadOnOneLine(t *testing.T) {
	big := strings.Repeat(`{\"k\":\"`+strings.Repeat("v", 90)+`\"},`, 5<<20/90)
	doc := `{"events":[{"eventId":0,"timestamp":"2026-08-20T10:00:00Z","taskScheduled":{"name":"Big","input":"[` +
		big + `null]"}},{"eventId":-1,"workflowStarted":{}}]}`
	h, err := Decode(iotest.HalfReader(strings.NewReader(doc)), DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	p := h.At(0).Payload
	if h.Len() != 2 || p.State != PayloadPresent || p.Size() < 5<<20 || !strings.HasPrefix(p.Text(), `[{"k":"vvv`) {
		t.Errorf("%d events, payload %v of %d bytes", h.Len(), p.State, p.Size())
	}
}

func TestKnownFieldsOfTheWrongType(t *testing.T) {
	tests := []struct{ doc, want string }{
		{`{"events":[{"eventId":"x","workflowStarted":{}}]}`, `event 0 (byte 22): "eventId" is the string "x", want a 32-bit integer`},
		{`{"events":[{"eventId":1.5,"workflowStarted":{}}]}`, `event 0 (byte 22): number 1.5 is not a 32-bit integer`},
		{`{"events":[{"workflowStarted":{}},{"timestamp":5,"workflowStarted":{}}]}`, `event 1 (byte 47): "timestamp" is a number, want a string`},
		{`{"events":[{"timestamp":"yesterday","workflowStarted":{}}]}`, `"timestamp" is "yesterday", which is not an RFC 3339 time`},
		{`{"events":[{"taskScheduled":{"name":{}}}]}`, `"name" is an object, want a string`},
		{`{"events":[{"taskScheduled":{"input":{"a":1}}}]}`, `"input" is an object, want a string`},
		{`{"events":[{"taskScheduled":[]}]}`, `"taskScheduled" is an array, want an object`},
		{`{"events":[{"taskFailed":{"failureDetails":{"isNonRetriable":"yes"}}}]}`, `"isNonRetriable" is a string, want true or false`},
		{`{"events":[{"router":"a->b","workflowStarted":{}}]}`, `"router" is a string, want an object`},
		{`{"events":{"workflowStarted":{}}}`, `"events" is an object, want a list of events`},
		{`{"events":[5]}`, `"event" is a number, want an object`},
		{`[{"type":5}]`, `"event_type" is a number, want a string`},
		{`[{"type":"TaskScheduled","event_id":true}]`, `"event_id" is a boolean, want a number`},
		{`[{"type":"TaskScheduled","play":0,"eventId":"1"}]`, ``}, // protojson-style quoted int in a CLI row is fine
		{`{"history":[],"createdAt":"soon"}`, `"created_at" is "soon", which is not an RFC 3339 time`},
	}
	for _, tt := range tests {
		_, err := Decode(strings.NewReader(tt.doc), DecodeOptions{})
		if tt.want == "" {
			if err != nil {
				t.Errorf("%s: %v", tt.doc, err)
			}
			continue
		}
		var de *DecodeError
		if !errors.As(err, &de) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s:\n got  %v\n want a DecodeError with %q", tt.doc, err, tt.want)
		}
	}
}

// Pinned: keys match case-sensitively; a known key twice in one object, or
// two event types in one event, is an error; unknown keys are counted.
func TestDuplicateAndCaseVariantKeys(t *testing.T) {
	tests := []struct {
		doc     string
		err     string
		unknown int
	}{
		{`{"events":[{"eventId":1,"eventId":2,"taskScheduled":{}}]}`, `event 0 (byte 34): "eventId" appears twice in one object`, 0},
		{`{"events":[{"taskScheduled":{"name":"a","name":"b"}}]}`, `"name" appears twice`, 0},
		{`{"events":[{"taskScheduled":{},"taskScheduled":{}}]}`, `two event types, "TaskScheduled" and "taskScheduled"`, 0},
		{`{"events":[{"taskScheduled":{},"timerFired":{}}]}`, `two event types, "TaskScheduled" and "timerFired"`, 0},
		{`{"events":[{"taskScheduled":{},"somethingNew":{}}]}`, `two event types, "TaskScheduled" and "somethingNew"`, 0},
		{`{"events":[{"executionStarted":{"workflowInstance":{},"orchestrationInstance":{}}}]}`, `"orchestrationInstance" appears twice`, 0},
		{`{"events":[{"timerCreated":{"createTimer":{},"activityRetry":{}}}]}`, `the timer has two origins`, 0},
		{`{"events":[{"eventId":1,"workflowStarted":{}}],"events":[]}`, `two event lists`, 0},
		{`{"events":[],"history":[]}`, `two event lists`, 0},
		{`[{"type":"TaskFailed","event_type":"TaskFailed"}]`, `two event-type keys`, 0},
		{`[{"type":"TaskScheduled","result":"\"a\"","output":"\"b\""}]`, `"output" appears twice`, 0},
		{`[{"type":"TimerCreated","origin__create_timer":{},"origin__external_event_name":"e"}]`, `two origin__ keys`, 0},
		{`[{"type":"TaskScheduled","play":1,"name":"a","name":"b"}]`, `"name" appears twice`, 0},
		{`{"instanceID":"a","instance_id":"b","history":[]}`, `"instance_id" appears twice`, 0},
		// Case variants are other keys: unknown, counted, skipped.
		{`{"events":[{"EventId":7,"eventID":8,"workflowStarted":{}}]}`, ``, 2},
		{`{"events":[{"taskScheduled":{"Name":"x","name":"y"}}]}`, ``, 1},
		{`[{"type":"TaskScheduled","Event_Id":3,"TYPE":"x"}]`, ``, 2},
	}
	for _, tt := range tests {
		h, err := Decode(strings.NewReader(tt.doc), DecodeOptions{})
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%s:\n got  %v\n want %q", tt.doc, err, tt.err)
			}
			continue
		}
		if err != nil || h.UnknownFields != tt.unknown {
			t.Errorf("%s: %v, %d unknown fields; want %d", tt.doc, err, unknownOf(h), tt.unknown)
		}
	}
	h, _ := Decode(strings.NewReader(`{"events":[{"EventId":7,"workflowStarted":{}}]}`), DecodeOptions{})
	if h.At(0).ID != 0 {
		t.Errorf("EventId set the id: %d", h.At(0).ID)
	}
}

func unknownOf(h *History) int {
	if h == nil {
		return -1
	}
	return h.UnknownFields
}

func TestEventsWithoutAType(t *testing.T) {
	for _, tt := range []struct{ doc, want string }{
		{`{"events":[{"eventId":1,"timestamp":"2026-08-20T10:00:00Z"}]}`, `event 0 (byte 59): the event has no event type (a key such as "taskScheduled" whose value is an object)`},
		{`[{"event_id":1,"name":"x"}]`, `the event has no event type (looked for event_type, type, eventType and kind)`},
		{`[{"event_type":""}]`, `the event's type is empty`},
		{`[{"play":1}]`, `the row has no "type"`},
	} {
		if _, err := Decode(strings.NewReader(tt.doc), DecodeOptions{}); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s:\n got  %v\n want %q", tt.doc, err, tt.want)
		}
	}
}

func TestMaxEvents(t *testing.T) {
	doc := `{"events":[{"workflowStarted":{}},{"workflowStarted":{}},{"workflowStarted":{}}]}`
	if h, err := Decode(strings.NewReader(doc), DecodeOptions{MaxEvents: 3}); err != nil || h.Len() != 3 {
		t.Errorf("at the cap: %v", err)
	}
	h, err := Decode(strings.NewReader(doc), DecodeOptions{MaxEvents: 2})
	if h != nil || !errors.Is(err, ErrTooManyEvents) || !strings.Contains(err.Error(), "more than 2 events") {
		t.Errorf("over the cap: %v, %v", h, err)
	}
}

func TestDecodeValueLeavesTheScannerAfterTheValue(t *testing.T) {
	history := `{"events":[{"eventId":-1,"workflowStarted":{}}]}`
	doc := `{"format":"protojson","history": ` + history + ` ,"after":1}`
	sc := jsonscan.NewSize(strings.NewReader(doc), 64)
	_ = sc.BeginObject()
	var captured bytes.Buffer
	var h *History
	for {
		key, more, err := sc.NextKey()
		if err != nil {
			t.Fatal(err)
		}
		if !more {
			break
		}
		if string(key) != "history" {
			_ = sc.SkipValue()
			continue
		}
		if err := sc.Capture(&captured); err != nil {
			t.Fatal(err)
		}
		if h, err = DecodeValue(sc, DecodeOptions{}); err != nil {
			t.Fatal(err)
		}
		if err := sc.EndCapture(); err != nil {
			t.Fatal(err)
		}
	}
	if err := sc.End(); err != nil {
		t.Fatal(err)
	}
	if h.Len() != 1 || captured.String() != history {
		t.Errorf("%d events, captured %q", h.Len(), captured.String())
	}
}

func TestReadErrorsReachTheCaller(t *testing.T) {
	boom := errors.New("connection reset by peer")
	r := iotest.TimeoutReader(strings.NewReader(strings.Repeat(" ", 300<<10) + `{"events":[]}`))
	_, err := Decode(r, DecodeOptions{})
	if !errors.Is(err, iotest.ErrTimeout) {
		t.Errorf("got %v, want the reader's error", err)
	}
	_, err = Decode(iotest.ErrReader(boom), DecodeOptions{})
	if !errors.Is(err, boom) {
		t.Errorf("got %v, want the reader's error", err)
	}
}

// The fixture loader's path on a large history: the sniffing peek, window
// refills and the bulk helper do not disturb the captured bytes.
func TestCaptureOfALargeHistory(t *testing.T) {
	history := genProtoJSON(70_000)
	doc := append(append([]byte(`{"schema_version":1,"history":`), history...), '}')
	sc := jsonscan.New(bytes.NewReader(doc))
	if err := sc.BeginObject(); err != nil {
		t.Fatal(err)
	}
	var captured bytes.Buffer
	for {
		key, more, err := sc.NextKey()
		if err != nil {
			t.Fatal(err)
		}
		if !more {
			break
		}
		if string(key) != "history" {
			_ = sc.SkipValue()
			continue
		}
		_ = sc.Capture(&captured)
		h, err := DecodeValue(sc, DecodeOptions{})
		if err != nil || h.Len() != 70_000 {
			t.Fatalf("%v, %d events", err, h.Len())
		}
		if err := sc.EndCapture(); err != nil {
			t.Fatal(err)
		}
	}
	if err := sc.End(); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(captured.Bytes(), history) {
		t.Errorf("captured %d bytes, want the history's %d", captured.Len(), len(history))
	}
}

// A first byte that starts a JSON literal is only a guess: "nope" is not
// null, "foo" not false.
func TestDecodeNamesWordsThatAreNotJSON(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"nope\n", "found text that is not JSON"},
		{"nan", "found text that is not JSON"},
		{"foo bar", "found text that is not JSON"},
		{"timeout", "found text that is not JSON"},
		{"true\n", "found a boolean (a JSON value that is not an object or array)"},
		{"42", "found a number (a JSON value that is not an object or array)"},
	} {
		_, err := Decode(strings.NewReader(tt.in), DecodeOptions{})
		var fe *FormatError
		if !errors.As(err, &fe) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: got %v, want a FormatError with %q", tt.in, err, tt.want)
		}
	}
}
