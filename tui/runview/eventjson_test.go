package runview

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/safetext/hostiletest"
	"github.com/twice-cli/twice/tui/format"
	"github.com/twice-cli/twice/tui/internal/tuitest"
)

// decodeEventJSON parses an event's JSON rendering.
func decodeEventJSON(t *testing.T, e *catalyst.Event) map[string]any {
	t.Helper()
	var v map[string]any
	text := strings.Join(eventJSONLines(e), "\n")
	if err := json.Unmarshal([]byte(text), &v); err != nil {
		t.Fatalf("the JSON of a %s event does not parse: %v\n%s", e.TypeName(), err, text)
	}
	return v
}

// TestEventJSONHasEveryField: an event's JSON rendering is valid JSON under
// the protojson names, and holds every field of the model, values intact.
func TestEventJSONHasEveryField(t *testing.T) {
	fire := tuitest.Start().Add(2 * time.Second)
	failed := catalyst.Event{Type: catalyst.EventTaskFailed, ID: -1, ScheduledID: 1, ExecutionID: "exec-1",
		Timestamp: catalyst.StampOf(tuitest.Start()), Router: &catalyst.Router{Source: "payments", Target: "gateway"},
		Failure: &catalyst.Failure{Type: "TimeoutError", Message: "read timeout\nafter 30s", StackTrace: "at x\n\tat y",
			NonRetriable: true, Inner: &catalyst.Failure{Type: "net.OpError", Message: "i/o timeout"}}}
	v := decodeEventJSON(t, &failed)
	want := map[string]any{
		"eventId": -1.0, "timestamp": "2026-08-20T09:14:03Z",
		"taskFailed": map[string]any{"taskScheduledId": 1.0, "taskExecutionId": "exec-1",
			"failureDetails": map[string]any{"errorType": "TimeoutError", "errorMessage": "read timeout\nafter 30s",
				"stackTrace": "at x\n\tat y", "isNonRetriable": true,
				"innerFailure": map[string]any{"errorType": "net.OpError", "errorMessage": "i/o timeout"}}},
		"router": map[string]any{"sourceAppID": "payments", "targetAppID": "gateway"},
	}
	if got, _ := json.Marshal(v); string(got) != mustJSON(want) {
		t.Errorf("taskFailed JSON = %s\nwant %s", got, mustJSON(want))
	}

	timer := catalyst.Event{Type: catalyst.EventTimerCreated, ID: 2, Name: "retry", FireAt: catalyst.StampOf(fire),
		Origin: catalyst.OriginActivityRetry, OriginID: "exec-1", Timestamp: catalyst.StampOf(tuitest.Start())}
	v = decodeEventJSON(t, &timer)
	tc := v["timerCreated"].(map[string]any)
	if tc["fireAt"] != "2026-08-20T09:14:05Z" || tc["activityRetry"].(map[string]any)["taskExecutionId"] != "exec-1" || v["eventId"] != 2.0 {
		t.Errorf("timerCreated JSON = %v", v)
	}

	h := tuitest.FullPayloads()
	for i, e := range h.All() {
		v := decodeEventJSON(t, e)
		key := wireTypeKey(e)
		body, ok := v[key].(map[string]any)
		if !ok {
			t.Fatalf("event %d: no %q member: %v", i, key, v)
		}
		switch e.Payload.State {
		case catalyst.PayloadPresent, catalyst.PayloadEmpty:
			field := "input"
			if e.Type.PayloadField() == "output" {
				field = "result"
			}
			if body[field] != e.Payload.Text() {
				t.Errorf("event %d: %s = %v, want %q", i, field, body[field], e.Payload.Text())
			}
		}
		if e.Name != "" && body["name"] != e.Name {
			t.Errorf("event %d: name = %v, want %q", i, body["name"], e.Name)
		}
	}
	if got := wireTypeKey(&catalyst.Event{Type: catalyst.EventChildWorkflowCreated}); got != "childWorkflowInstanceCreated" {
		t.Errorf("child workflow key = %q", got)
	}
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// TestEventJSONIsSafeAndCapped: hostile strings reach the pane only as
// JSON escapes, and a huge payload is cut, saying how much was left out.
func TestEventJSONIsSafeAndCapped(t *testing.T) {
	for i, e := range tuitest.Hostile().All() {
		lines := eventJSONLines(e)
		for _, l := range lines {
			if v, bad := hostiletest.FindUnsafe(l, false); bad {
				t.Fatalf("event %d: unsafe character %U in JSON line %q", i, v.Rune, l)
			}
		}
		if e.Type != catalyst.EventUnknown {
			decodeEventJSON(t, e) // escaped, not broken
		}
	}

	huge := catalyst.Event{Type: catalyst.EventTaskScheduled, Name: "Upload", ID: 0,
		Payload: catalyst.PresentPayload(`"` + strings.Repeat("x", 4<<20) + `"`),
		Failure: &catalyst.Failure{StackTrace: strings.Repeat("frame\n", 1<<20)}}
	lines := eventJSONLines(&huge)
	text := strings.Join(lines, "\n")
	if len(text) > format.PayloadShowBytes+200 {
		t.Errorf("a 4 MiB payload gave %d bytes of JSON lines", len(text))
	}
	if !strings.Contains(text, "more bytes not shown") {
		t.Errorf("the cut is not said:\n%s", text[len(text)-200:])
	}
}

// TestEventDetailShowsJSON: every event's detail ends with its JSON, headed
// as decoded by twice; an unknown event also keeps its raw wire JSON.
func TestEventDetailShowsJSON(t *testing.T) {
	m := newView(120, 60)
	h := tuitest.Hostile()
	m.SetHistory(h, analyzed(h), false)
	press(m, "tab", "j", "j")
	detail := ansi.Strip(strings.Join(m.DetailLines(), "\n"))
	for _, want := range []string{"JSON (as twice decoded it, not the bytes read)", `"eventId": 0`, `"taskScheduled": {`, `"taskExecutionId": "8a4f2c71`} {
		if !strings.Contains(detail, want) {
			t.Errorf("the event's detail lacks %q:\n%s", want, detail)
		}
	}
	if strings.Contains(detail, "raw JSON") {
		t.Errorf("a known event claims raw JSON:\n%s", detail)
	}
	press(m, "G")
	detail = ansi.Strip(strings.Join(m.DetailLines(), "\n"))
	for _, want := range []string{"JSON (as twice decoded it", "raw JSON (twice does not know this event type)", `\x1b]52;c;Y3VybA==`} {
		if !strings.Contains(detail, want) {
			t.Errorf("the unknown event's detail lacks %q:\n%s", want, detail)
		}
	}
}
