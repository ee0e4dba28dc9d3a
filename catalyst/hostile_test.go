package catalyst

import (
	"bytes"
	"strings"
	"testing"

	"github.com/twice-cli/twice/catalyst/safetext/hostiletest"
)

// hostileSamples is the corpus with the 1 MiB line, and every sample joined.
func hostileSamples() []hostiletest.Sample {
	return append(hostiletest.Corpus(true), hostiletest.Sample{Name: "joined", Value: hostiletest.Joined()})
}

// plantedIn collects, for each field a hostile document plants, every value
// the decoded history holds in it.
func plantedIn(h *History) map[hostiletest.Field][]string {
	got := map[hostiletest.Field][]string{}
	add := func(f hostiletest.Field, v string) { got[f] = append(got[f], v) }
	if h.Run.ID != "" {
		add(hostiletest.FieldRunID, h.Run.ID)
	}
	add(hostiletest.FieldAppID, h.Run.AppID)
	add(hostiletest.FieldProject, h.Run.Project.Name)
	add(hostiletest.FieldStatus, string(h.Run.Status))
	add(hostiletest.FieldWorkflow, h.Run.Workflow)
	for _, e := range h.All() {
		if e.Router != nil {
			add(hostiletest.FieldAppID, e.Router.Source)
		}
		switch e.Type {
		case EventExecutionStarted:
			add(hostiletest.FieldWorkflow, e.Name)
			add(hostiletest.FieldInput, e.Payload.Text())
			if e.InstanceID != "" {
				add(hostiletest.FieldRunID, e.InstanceID)
			}
		case EventTaskScheduled:
			add(hostiletest.FieldActivity, e.Name)
			add(hostiletest.FieldExecutionID, e.ExecutionID)
			add(hostiletest.FieldInput, e.Payload.Text())
		case EventTaskFailed:
			add(hostiletest.FieldExecutionID, e.ExecutionID)
			if e.Failure != nil {
				add(hostiletest.FieldErrorType, e.Failure.Type)
				add(hostiletest.FieldError, e.Failure.Message)
				if e.Failure.StackTrace != "" {
					add(hostiletest.FieldStack, e.Failure.StackTrace)
				}
			}
		case EventTimerCreated:
			add(hostiletest.FieldExecutionID, e.OriginID)
		case EventTaskCompleted, EventExecutionCompleted:
			add(hostiletest.FieldOutput, e.Payload.Text())
		}
	}
	return got
}

// TestDecodersKeepHostileTextRaw plants every hostile sample in every field
// of a history in each wire format and decodes it: the model holds exactly
// what the application wrote, byte for byte (twice sanitizes at the
// terminal, never at ingest, so the evidence is intact), and no event is
// lost or added.
func TestDecodersKeepHostileTextRaw(t *testing.T) {
	for _, s := range hostileSamples() {
		for _, doc := range hostiletest.Documents(s.Value) {
			if doc.Name == "fixture" {
				continue // the fixture loader's own test reads it
			}
			h, err := Decode(bytes.NewReader(doc.Bytes), DecodeOptions{})
			if err != nil {
				t.Errorf("%s in %s: %v", s.Name, doc.Name, err)
				continue
			}
			if h.Len() != 12 {
				t.Errorf("%s in %s: %d events, want 12", s.Name, doc.Name, h.Len())
			}
			got := plantedIn(h)
			for field, want := range doc.Planted {
				if len(got[field]) == 0 {
					t.Errorf("%s in %s: the %s was not decoded", s.Name, doc.Name, field)
				}
				for _, v := range got[field] {
					if v != want {
						t.Errorf("%s in %s: the %s is %.80q, want %.80q", s.Name, doc.Name, field, v, want)
						break
					}
				}
			}
		}
	}
}

// TestHostileErrorsAreSanitized feeds documents whose keys and values are
// hostile where a decoder quotes them in its error: the message carries no
// raw control, bidi or invalid character, and stays short.
func TestHostileErrorsAreSanitized(t *testing.T) {
	for _, s := range hostileSamples() {
		q := hostiletest.Quote(s.Value)
		for name, doc := range map[string]string{
			"not json":          s.Value,
			"unknown object":    `{` + q + `:1}`,
			"unknown list":      `[` + q + `]`,
			"protojson bad id":  `{"events":[{"eventId":` + q + `,"workflowStarted":{}}]}`,
			"flat bad time":     `[{"event_id":-1,"event_type":"TaskScheduled","timestamp":` + q + `}]`,
			"cli bad attrs":     `[{"type":"TimerFired","timestamp":"2026-08-20T09:14:09Z","attrs":` + hostiletest.Quote("timerId="+s.Value) + `}]`,
			"cli bad fireAt":    `[{"type":"TimerFired","timestamp":"2026-08-20T09:14:09Z","attrs":` + hostiletest.Quote("timerId=1;fireAt="+s.Value) + `}]`,
			"mcp error result":  `{"content":[{"type":"text","text":` + q + `}],"isError":true}`,
			"json-rpc error":    `{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":` + q + `}}`,
			"trailing garbage":  `{"events":[]}` + s.Value,
			"mcp text not json": `{"content":[{"type":"text","text":` + q + `}]}`,
		} {
			_, err := Decode(strings.NewReader(doc), DecodeOptions{})
			if err == nil {
				if s.Name == "tview markup" && (name == "not json" || name == "unknown list") {
					continue // "[red]ALERT[-]" reads as a JSON array start; the list case is an error or empty
				}
				t.Errorf("%s / %s: decoded without an error", s.Name, name)
				continue
			}
			msg := err.Error()
			if v, bad := hostiletest.FindUnsafe(msg, false); bad {
				t.Errorf("%s / %s: error carries raw %U at %d: %.200q", s.Name, name, v.Rune, v.Offset, msg)
			}
			if len(msg) > 4096 {
				t.Errorf("%s / %s: error is %d bytes long", s.Name, name, len(msg))
			}
		}
	}
}

// TestFormatDecidedPastALongFirstValue is a regression test: a value longer
// than the 64 KiB the format is first judged on (a run's input ahead of its
// history, an app id of the first CLI row) made twice refuse a history it
// reads ("not a workflow history"). The look now goes further.
func TestFormatDecidedPastALongFirstValue(t *testing.T) {
	long := hostiletest.Quote(strings.Repeat("x", 300<<10))
	for name, doc := range map[string]string{
		"catalyst run input before history": `{"instanceID":"r1","input":` + long + `,"history":[` +
			`{"event_id":-1,"event_type":"ExecutionStarted","timestamp":"2026-08-20T09:14:03Z","name":"W"}]}`,
		"catalyst list, long first name":    `[{"event_id":-1,"name":` + long + `,"event_type":"ExecutionStarted","timestamp":"2026-08-20T09:14:03Z"}]`,
		"protojson, long key before events": `{"x":` + long + `,"events":[{"eventId":-1,"timestamp":"2026-08-20T09:14:03Z","executionStarted":{"name":"W"}}]}`,
		"dapr cli, long first app id":       `[{"namespace":"default","appID":` + long + `,"play":0,"type":"ExecutionStarted","name":"W","timestamp":"2026-08-20T09:14:03Z","status":"RUNNING"}]`,
	} {
		h, err := Decode(strings.NewReader(doc), DecodeOptions{})
		if err != nil {
			t.Errorf("%s: %.300v", name, err)
			continue
		}
		if h.Len() != 1 || h.At(0).Type != EventExecutionStarted {
			t.Errorf("%s: %d events", name, h.Len())
		}
	}
	// Past the look's limit it is still an error, never a guess.
	if _, err := Decode(strings.NewReader(`{"x":`+long+`}`), DecodeOptions{}); err == nil {
		t.Errorf("an object with no history decoded")
	}
}
