package catalyst

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// listMember is one member of a generated event: its key, in each
// spelling a reader accepts, and its value.
type listMember struct {
	keys  []string
	value string
}

// listEvents writes n events as JSON objects whose members come in a
// few orders, spellings, spacings and escapes, as a history from one tool
// would (mostly the same) and a hostile one would (changing anywhere).
func listEvents(r *rand.Rand, n int, members func(i int) []listMember) []string {
	seps := []string{"", " ", "\n    ", "\n\t"}
	var out []string
	for i := range n {
		ms := members(i)
		if r.IntN(4) == 0 {
			r.Shuffle(len(ms), func(a, b int) { ms[a], ms[b] = ms[b], ms[a] })
		}
		sep, colon := seps[0], ":"
		if r.IntN(3) == 0 {
			sep, colon = seps[r.IntN(len(seps))], []string{":", ": ", " : "}[r.IntN(3)]
		}
		var b strings.Builder
		b.WriteString("{")
		for j, m := range ms {
			if j > 0 {
				b.WriteString(",")
			}
			key := m.keys[0]
			if r.IntN(5) == 0 {
				key = m.keys[r.IntN(len(m.keys))]
			}
			if r.IntN(20) == 0 {
				key = `\u00` + fmt.Sprintf("%02x", key[0]) + key[1:]
			}
			fmt.Fprintf(&b, `%s"%s"%s%s`, sep, key, colon, m.value)
		}
		b.WriteString(sep + "}")
		out = append(out, b.String())
	}
	return out
}

// TestEventsReadAloneAsInAList: a list of events decoded in one document
// gives the events that decoding each one alone gives (what a decoder
// keeps between events, its interned names and types, changes nothing),
// for Catalyst flattened events and Dapr CLI rows, with keys reordered,
// respelt, respaced and escaped at random along the list.
func TestEventsReadAloneAsInAList(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	flat := listEvents(r, 400, func(i int) []listMember {
		return []listMember{
			{[]string{"event_id", "eventId"}, fmt.Sprint(i)},
			{[]string{"event_type", "eventType", "type", "kind"}, []string{`"TaskScheduled"`, `"TaskCompleted"`, `"TimerCreated"`}[i%3]},
			{[]string{"timestamp"}, fmt.Sprintf(`"2026-08-20T09:%02d:%02dZ"`, i/60%60, i%60)},
			{[]string{"name"}, fmt.Sprintf(`"Activity%d"`, i%7)},
			{[]string{"task_execution_id", "taskExecutionId"}, fmt.Sprintf(`"exec-%d"`, i%11)},
			{[]string{"input", "result"}, fmt.Sprintf(`"{\"n\":%d}"`, i)},
			{[]string{"x_unknown"}, `[1,{"a":2}]`},
		}
	})
	cli := listEvents(r, 400, func(i int) []listMember {
		ms := []listMember{
			{[]string{"namespace"}, `"default"`},
			{[]string{"appID"}, `"orders"`},
			{[]string{"play"}, fmt.Sprint(i)},
			{[]string{"type"}, []string{`"TaskScheduled"`, `"TaskCompleted"`, `"WorkflowStarted"`}[i%3]},
			{[]string{"name"}, fmt.Sprintf(`"Activity%d"`, i%7)},
			{[]string{"timestamp"}, fmt.Sprintf(`"2026-08-20T09:%02d:%02dZ"`, i/60%60, i%60)},
			{[]string{"elapsed"}, `"1ms"`},
			{[]string{"status"}, `"RUNNING"`},
			{[]string{"details"}, `null`},
			{[]string{"executionId"}, fmt.Sprintf(`"exec-%d"`, i%11)},
			{[]string{"attrs"}, fmt.Sprintf(`"input={\"n\":%d}"`, i)},
		}
		if i%3 == 0 {
			ms = append(ms[:5], append([]listMember{{[]string{"eventId"}, fmt.Sprint(i)}}, ms[5:]...)...)
		}
		return ms
	})
	for _, c := range []struct {
		name   string
		events []string
		doc    func(events []string) string
	}{
		{"catalyst", flat, func(events []string) string {
			return `{"instanceID":"run-1","appId":"orders","data_sharing_level":"full","history":[` + strings.Join(events, ",") + `]}`
		}},
		{"dapr-cli", cli, func(events []string) string { return "[\n  " + strings.Join(events, ",\n  ") + "\n]" }},
	} {
		h, err := Decode(strings.NewReader(c.doc(c.events)), DecodeOptions{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if h.Len() != len(c.events) {
			t.Fatalf("%s: %d events, want %d", c.name, h.Len(), len(c.events))
		}
		for i, ev := range c.events {
			alone, err := Decode(strings.NewReader(c.doc([]string{ev})), DecodeOptions{})
			if err != nil {
				t.Fatalf("%s: event %d alone: %v", c.name, i, err)
			}
			if got, want := summaryAt(h, i), summaryAt(alone, 0); got != want {
				t.Errorf("%s: event %d in the list:\n%s\nalone:\n%s\n%s", c.name, i, got, want, ev)
			}
		}
	}
}

// TestDuplicateKeyIsNamed: a key that appears twice in one event is an
// error naming the key, in a list of events of one shape.
func TestDuplicateKeyIsNamed(t *testing.T) {
	for _, c := range []struct {
		name, doc string
		format    Format
	}{
		{"catalyst", `{"instanceID":"run-1","history":[` +
			`{"event_id":0,"event_type":"TaskScheduled","timestamp":"2026-08-20T09:14:03Z","name":"a"},` +
			`{"event_id":1,"event_type":"TaskScheduled","timestamp":"2026-08-20T09:14:04Z","name":"b"},` +
			`{"event_id":2,"name":"c","event_type":"TaskScheduled","timestamp":"2026-08-20T09:14:05Z","name":"c"}]}`, FormatCatalyst},
		{"dapr-cli", `[{"namespace":"default","appID":"orders","play":0,"type":"TaskScheduled","name":"a","eventId":0,"timestamp":"2026-08-20T09:14:03Z","elapsed":"1ms"},` +
			`{"namespace":"default","appID":"orders","play":1,"type":"TaskScheduled","name":"b","eventId":1,"timestamp":"2026-08-20T09:14:04Z","elapsed":"1ms"},` +
			`{"namespace":"default","appID":"orders","name":"c","play":2,"type":"TaskScheduled","name":"c","eventId":2,"timestamp":"2026-08-20T09:14:05Z"}]`, FormatDaprCLI},
	} {
		_, err := Decode(strings.NewReader(c.doc), DecodeOptions{})
		if err == nil || !strings.Contains(err.Error(), `"name" appears twice`) || !strings.Contains(err.Error(), c.format.Description()) {
			t.Errorf("%s: %v, want an error naming \"name\" twice in %s", c.name, err, c.format.Description())
		}
	}
}
