package catalyst

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/twice-cli/twice/catalyst/jsonscan"
)

// keyBookMember is one member of a generated event: its key, in each
// spelling a reader accepts, and its value.
type keyBookMember struct {
	keys  []string
	value string
}

// keyBookEvents writes n events as JSON objects whose members come in a
// few orders, spellings, spacings and escapes, as a history from one tool
// would (mostly the same) and a hostile one would (changing anywhere).
func keyBookEvents(r *rand.Rand, n int, members func(i int) []keyBookMember) []string {
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

// TestKeyBookChangesNothing: a list of events decoded in one document
// (where the decoder's key book learns the keys and then recognises them)
// gives the events that decoding each one alone gives, for Catalyst
// flattened events and Dapr CLI rows, with keys reordered, respelt,
// respaced and escaped at random along the list.
func TestKeyBookChangesNothing(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	flat := keyBookEvents(r, 400, func(i int) []keyBookMember {
		return []keyBookMember{
			{[]string{"event_id", "eventId"}, fmt.Sprint(i)},
			{[]string{"event_type", "eventType", "type", "kind"}, []string{`"TaskScheduled"`, `"TaskCompleted"`, `"TimerCreated"`}[i%3]},
			{[]string{"timestamp"}, fmt.Sprintf(`"2026-08-20T09:%02d:%02dZ"`, i/60%60, i%60)},
			{[]string{"name"}, fmt.Sprintf(`"Activity%d"`, i%7)},
			{[]string{"task_execution_id", "taskExecutionId"}, fmt.Sprintf(`"exec-%d"`, i%11)},
			{[]string{"input", "result"}, fmt.Sprintf(`"{\"n\":%d}"`, i)},
			{[]string{"x_unknown"}, `[1,{"a":2}]`},
		}
	})
	cli := keyBookEvents(r, 400, func(i int) []keyBookMember {
		ms := []keyBookMember{
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
			ms = append(ms[:5], append([]keyBookMember{{[]string{"eventId"}, fmt.Sprint(i)}}, ms[5:]...)...)
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
			if got, want := summary(h.At(i)), summary(alone.At(0)); got != want {
				t.Errorf("%s: event %d in the list:\n%s\nalone:\n%s\n%s", c.name, i, got, want, ev)
			}
		}
	}
}

// TestKeyBookNamesADuplicateKey: a key that appears twice in one event is
// an error naming the key, also when the key book recognised it.
func TestKeyBookNamesADuplicateKey(t *testing.T) {
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

// readWithBook reads a list of objects through kb as events of type typ,
// numbering keys with number, and counts the keys the book recognised.
// It fails unless every key reads as NextKey reads it.
func readWithBook(t *testing.T, kb *keyBook, doc string, typ EventType, number func([]byte) uint8) map[string]int {
	t.Helper()
	sc := jsonscan.NewBytes([]byte(doc))
	if err := sc.BeginArray(); err != nil {
		t.Fatal(err)
	}
	hits := map[string]int{}
	plain := jsonscan.NewBytes([]byte(doc))
	plain.BeginArray()
	for {
		more, err := sc.NextElement()
		if err != nil || !more {
			break
		}
		plain.NextElement()
		if err := sc.BeginObject(); err != nil {
			t.Fatal(err)
		}
		plain.BeginObject()
		var prev uint8
		for {
			f, key, more, err := kb.read(sc, prev, typ, number)
			want, wantMore, _ := plain.NextKey()
			if err != nil || more != wantMore {
				t.Fatalf("read %v, %v; NextKey reads more=%v", more, err, wantMore)
			}
			if !more {
				break
			}
			name := string(kb.keyOf(key))
			if name != string(want) || f != number(want) {
				t.Fatalf("read %q as field %d; NextKey reads %q", name, f, want)
			}
			if key == nil {
				hits[name]++
			}
			prev = f
			sc.SkipValue()
			plain.SkipValue()
		}
	}
	return hits
}

// TestKeyBookPassesOverHighNumbers: a field numbered keyBookFields or more
// has no place in the book. Its key, and the key after it, are read with
// NextKey every time, as they would be without a book; keys numbered
// below it are still recognised. Nor does such a field reach the place of
// another type's field, which its number would alias.
func TestKeyBookPassesOverHighNumbers(t *testing.T) {
	number := func(key []byte) uint8 {
		switch string(key) {
		case "alpha":
			return 1
		case "gamma":
			return 3
		case "bravo":
			return 2
		case "delta":
			return 5
		case "echo":
			return 6
		case "highest":
			// Aliases field 3 of the next type: (t*64 + 67) = ((t+1)*64 + 3).
			return keyBookFields + 3
		case "lastly":
			return 255
		}
		return 0
	}
	list := func(obj string, n int) string { return "[" + strings.Repeat(obj+",", n-1) + obj + "]" }
	var kb keyBook
	typ := EventTaskScheduled
	hits := readWithBook(t, &kb, list(`{"alpha":1,"highest":2,"bravo":3,"lastly":4}`, 50), typ, number)
	// "alpha" follows the object's start: learnt, then recognised.
	// "highest" is numbered too high to be learnt; "bravo" follows it,
	// where the book has no place; "lastly" is numbered too high.
	if hits["alpha"] != 49 || hits["highest"] != 0 || hits["bravo"] != 0 || hits["lastly"] != 0 {
		t.Errorf("recognised by the book: %v; want only alpha, 49 times", hits)
	}
	// The next type learns "delta" after "gamma" (field 3); "highest" of
	// this type is not taken for "gamma" there, and teaches nothing there.
	next := typ + 1
	if hits := readWithBook(t, &kb, list(`{"gamma":1,"delta":2}`, 10), next, number); hits["delta"] != 9 {
		t.Fatalf("delta recognised %d times after gamma, want 9", hits["delta"])
	}
	if hits := readWithBook(t, &kb, list(`{"highest":1,"delta":2}`, 10), typ, number); hits["delta"] != 0 {
		t.Errorf("delta recognised %d times after highest, want 0", hits["delta"])
	}
	if hits := readWithBook(t, &kb, list(`{"highest":1,"echo":2}`, 10), typ, number); hits["echo"] != 0 {
		t.Errorf("echo recognised %d times after highest, want 0", hits["echo"])
	}
	if hits := readWithBook(t, &kb, list(`{"gamma":1,"delta":2}`, 10), next, number); hits["delta"] != 10 {
		t.Errorf("delta recognised %d times after gamma, want 10: the book's place for it was overwritten", hits["delta"])
	}
}
