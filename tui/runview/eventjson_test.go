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
	text := strings.Join(eventJSONLines(&catalyst.History{}, e), "\n")
	if err := json.Unmarshal([]byte(text), &v); err != nil {
		t.Fatalf("the JSON of a %s event does not parse: %v\n%s", e.TypeName(), err, text)
	}
	return v
}

// TestEventJSONHasEveryField: an event's JSON rendering is valid JSON in
// twice's output schema (docs/json-output.md), holding every field of the
// model, values intact.
func TestEventJSONHasEveryField(t *testing.T) {
	fire := tuitest.Start().Add(2 * time.Second)
	failed := catalyst.Event{Type: catalyst.EventTaskFailed, ID: -1, ScheduledID: 1, ExecutionID: "exec-1",
		Timestamp: catalyst.StampOf(tuitest.Start()), Router: &catalyst.Router{Source: "payments", Target: "gateway"},
		Failure: &catalyst.Failure{Type: "TimeoutError", Message: "read timeout\nafter 30s", StackTrace: "at x\n\tat y",
			NonRetriable: true, Inner: &catalyst.Failure{Type: "net.OpError", Message: "i/o timeout"}}}
	v := decodeEventJSON(t, &failed)
	want := map[string]any{
		"index": 0.0, "event_id": -1.0, "type": "TaskFailed", "timestamp": "2026-08-20T09:14:03Z",
		"scheduled_id": 1.0, "task_execution_id": "exec-1",
		"failure": map[string]any{"type": "TimeoutError", "message": "read timeout\nafter 30s",
			"stack_trace": "at x\n\tat y", "non_retriable": true,
			"inner": map[string]any{"type": "net.OpError", "message": "i/o timeout", "non_retriable": false}},
		"router": map[string]any{"source": "payments", "target": "gateway"},
	}
	if got, _ := json.Marshal(v); string(got) != mustJSON(want) {
		t.Errorf("taskFailed JSON = %s\nwant %s", got, mustJSON(want))
	}

	timer := catalyst.Event{Type: catalyst.EventTimerCreated, ID: 2, Name: "retry", FireAt: catalyst.StampOf(fire),
		Origin: catalyst.OriginActivityRetry, OriginID: "exec-1", Timestamp: catalyst.StampOf(tuitest.Start())}
	v = decodeEventJSON(t, &timer)
	if v["fire_at"] != "2026-08-20T09:14:05Z" || v["origin"].(map[string]any)["id"] != "exec-1" || v["event_id"] != 2.0 {
		t.Errorf("timerCreated JSON = %v", v)
	}

	h := tuitest.FullPayloads()
	for i, e := range h.All() {
		v := decodeEventJSON(t, e)
		if v["type"] != e.Type.String() || v["index"] != float64(e.Index) {
			t.Fatalf("event %d: type %v, index %v", i, v["type"], v["index"])
		}
		if field := e.Type.PayloadField(); field != "" {
			p := v["payload"].(map[string]any)
			if p["field"] != field || p["state"] != e.Payload.State.String() {
				t.Errorf("event %d: payload = %v", i, p)
			}
			if e.Payload.Has() && p["value"] != e.Payload.Text() {
				t.Errorf("event %d: payload value = %v, want %q", i, p["value"], e.Payload.Text())
			}
		}
		if e.Name != "" && v["name"] != e.Name {
			t.Errorf("event %d: name = %v, want %q", i, v["name"], e.Name)
		}
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
		lines := eventJSONLines(&catalyst.History{}, e)
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
	lines := eventJSONLines(&catalyst.History{}, &huge)
	text := strings.Join(lines, "\n")
	// Each of the two huge strings is cut to PayloadShowBytes (escaped,
	// the trace's \n take two bytes); the whole is not cut again.
	if len(text) > 2*format.PayloadShowBytes*7/6+400 {
		t.Errorf("a 4 MiB payload gave %d bytes of JSON lines", len(text))
	}
	// The cuts count the source's bytes of each value (the payload's 4 MiB
	// and 2 quotes, the trace's 6 MiB), not the JSON's: one payload, one
	// size, in every section of the pane.
	for _, want := range []string{"(shown 16,384 of 4,194,306 bytes)", "(shown 16,384 of 6,291,456 bytes)"} {
		if !strings.Contains(text, want) {
			t.Errorf("the cut is not said as %q:\n%s", want, text[len(text)-200:])
		}
	}
	if n := strings.Count(text, "shown "); n != 2 {
		t.Errorf("%d cuts said, want 2 (one a value):\n%s", n, text[len(text)-200:])
	}
}

// TestEventDetailShowsJSON: every event's detail ends with its JSON, headed
// as decoded by twice; an unknown event also keeps its raw wire JSON.
func TestEventDetailShowsJSON(t *testing.T) {
	m := newView(120, 60)
	h := tuitest.Hostile()
	m.SetHistory(h, analyzed(h), false)
	press(m, "tab", "tab", "j", "j")
	detail := ansi.Strip(strings.Join(m.DetailLines(), "\n"))
	for _, want := range []string{eventJSONHeading, `"event_id": 0`, `"type": "TaskScheduled"`, `"task_execution_id": "8a4f2c71`} {
		if !strings.Contains(detail, want) {
			t.Errorf("the event's detail lacks %q:\n%s", want, detail)
		}
	}
	if strings.Contains(detail, "raw JSON") {
		t.Errorf("a known event claims raw JSON:\n%s", detail)
	}
	press(m, "G")
	detail = ansi.Strip(strings.Join(m.DetailLines(), "\n"))
	for _, want := range []string{eventJSONHeading, "raw JSON (twice does not know this event type)", `\x1b]52;c;Y3VybA==`} {
		if !strings.Contains(detail, want) {
			t.Errorf("the unknown event's detail lacks %q:\n%s", want, detail)
		}
	}
}
