package catalyst

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/twice-cli/twice/catalyst/jsonscan"
)

// decodeSplit decodes doc as Decode does for a file: with the input
// readable at any offset, so that an event list longer than splitMin is
// split. It returns how many splits were taken.
func decodeSplit(doc []byte, splitMin int64) (*History, int, error) {
	sc := jsonscan.NewReaderAt(bytes.NewReader(doc), int64(len(doc)))
	d := newDecoder(sc, DecodeOptions{})
	d.top, d.splitMin, d.bulk = true, splitMin, &bulk{}
	defer d.bulk.stop()
	h, err := d.document(allowMCP | allowJSONRPC)
	if err == nil {
		if err = sc.End(); err != nil {
			err = &DecodeError{Format: h.Format, Event: -1, Err: err}
		}
	}
	if err != nil {
		return nil, d.splits, err
	}
	return h, d.splits, nil
}

// sameHistory reports the first difference between two decoded histories.
func sameHistory(a, b *History) string {
	if a.Len() != b.Len() {
		return fmt.Sprintf("%d events, want %d", a.Len(), b.Len())
	}
	for i := range a.Len() {
		x, y := *a.At(i), *b.At(i)
		if x.Index != int32(i) {
			return fmt.Sprintf("event %d has index %d", i, x.Index)
		}
		// Routers are shared per decoder: compare them by value.
		xr, yr := x.Router, y.Router
		x.Router, y.Router = nil, nil
		if !reflect.DeepEqual(x, y) || x.Payload.Text() != y.Payload.Text() ||
			(xr == nil) != (yr == nil) || xr != nil && *xr != *yr {
			return fmt.Sprintf("event %d differs: %+v, want %+v", i, x, y)
		}
	}
	if !reflect.DeepEqual(a.Run, b.Run) || a.Run.Input.Text() != b.Run.Input.Text() || a.Run.Output.Text() != b.Run.Output.Text() {
		return fmt.Sprintf("run %+v, want %+v", a.Run, b.Run)
	}
	if !reflect.DeepEqual(a.clock, b.clock) {
		return fmt.Sprintf("rebuilt times %+v, want %+v", a.clock, b.clock)
	}
	if a.Format != b.Format || a.Lossy != b.Lossy || a.UnknownFields != b.UnknownFields || a.TimeResolution != b.TimeResolution {
		return fmt.Sprintf("format %s lossy %v unknown %d resolution %v, want %s %v %d %v", a.Format, a.Lossy, a.UnknownFields,
			a.TimeResolution, b.Format, b.Lossy, b.UnknownFields, b.TimeResolution)
	}
	return ""
}

// genCLI writes n rows of `dapr workflow history -o json`, indented as the
// CLI does, for a run of one activity.
func genCLI(n int) []byte {
	var b bytes.Buffer
	ts := time.Date(2025, 8, 20, 8, 53, 20, 0, time.UTC)
	b.WriteString("[\n")
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString(",\n")
		}
		// Rows 0.2 to 1.8 s apart, printed to the second with their
		// elapsed as the CLI prints it (rebuild.go rebuilds them).
		step := time.Duration(200+i*7919%1600) * time.Millisecond
		ts = ts.Add(step)
		k := i / 2
		id := fmt.Sprintf("%08x-0f12-4004-be8d-%012x", uint32(k)*2654435761, k)
		elapsed := fmt.Sprintf("%.1fms", float64(step)/1e6)
		if step >= time.Second {
			elapsed = fmt.Sprintf("%.2fs", step.Seconds())
		}
		stamp := ts.Truncate(time.Second).Format(time.RFC3339) + "\",\n    \"elapsed\": \"" + elapsed
		switch {
		case i == 0:
			fmt.Fprintf(&b, "  {\n    \"appID\": \"orders\",\n    \"type\": \"ExecutionStarted\",\n    \"name\": \"Big\",\n    \"timestamp\": \"%s\",\n    \"status\": \"RUNNING\",\n    \"details\": null,\n    \"attrs\": \"input={\\\"x\\\":1}\"\n  }", stamp)
		case i%2 == 1:
			fmt.Fprintf(&b, "  {\n    \"appID\": \"orders\",\n    \"type\": \"TaskScheduled\",\n    \"name\": \"ChargeCard\",\n    \"eventId\": %d,\n    \"timestamp\": \"%s\",\n    \"details\": null,\n    \"executionId\": %q,\n    \"attrs\": \"input={\\\"orderId\\\":\\\"A-%d\\\"},{\\\"x\\\":2}\"\n  }", k, stamp, id, k)
		default:
			fmt.Fprintf(&b, "  {\n    \"appID\": \"orders\",\n    \"type\": \"TaskCompleted\",\n    \"name\": null,\n    \"timestamp\": \"%s\",\n    \"details\": \"eventId=%d\",\n    \"executionId\": %q,\n    \"attrs\": \"scheduledId=%d;output=ok\"\n  }", stamp, k-1, id, k-1)
		}
	}
	b.WriteString("\n]\n")
	return b.Bytes()
}

// genCLILate is genCLI with what reading rows sets besides the events only
// in its last quarter, past where a second decoder starts: the rows' app,
// unknown keys, and a completion's "result" (only the CLI v1.16 writes it,
// which makes an earlier child creation row without a payload "not in
// this format").
func genCLILate(n int) []byte {
	rows := strings.Split(string(genCLI(n)), "\n  },\n  {")
	for i := range rows {
		if i < len(rows)*3/4 {
			rows[i] = strings.Replace(rows[i], "\"appID\": \"orders\",\n    ", "", 1)
			continue
		}
		rows[i] = strings.Replace(rows[i], ";output=ok", ";result=ok", 1)
		rows[i] = strings.Replace(rows[i], "\"details\":", "\"extra\": [1],\n    \"details\":", 1)
	}
	child := "\n    \"type\": \"SubOrchestrationInstanceCreated\",\n    \"name\": \"Child\",\n    \"eventId\": 99999,\n" +
		"    \"timestamp\": \"2025-08-20T08:53:21Z\",\n    \"details\": null,\n    \"attrs\": \"\""
	rows = append(rows[:1], append([]string{child}, rows[1:]...)...)
	return []byte(strings.Join(rows, "\n  },\n  {"))
}

// splitDocs are documents whose event lists get split, in every format and
// shape: protojson, Catalyst's list and envelope (with run fields after the
// list), the CLI's rows, and payloads that hold what looks like the start
// of an event.
func splitDocs() map[string][]byte {
	flat := genFlat(3000)
	envelope := append(append([]byte(`{"instance_id":"big-1","history":`), flat[bytes.IndexByte(flat, '['):len(flat)-1]...),
		`,"runtime_status":"FAILED","unknown_after":{"a":[1,2]}}`...)
	// Payloads full of "},{" and "}, {": the place found halfway may be
	// inside one of them.
	var tricky bytes.Buffer
	tricky.WriteString(`{"events":[{"eventId":-1,"timestamp":"2026-01-01T00:00:00Z","executionStarted":{"name":"W","input":"\"x\"","workflowInstance":{"instanceId":"w-1","executionId":"e-1"}}}`)
	for i := 0; i < 3000; i++ {
		fmt.Fprintf(&tricky, `,{"eventId":%d,"timestamp":"2026-01-01T00:%02d:%02dZ","taskScheduled":{"name":"A","input":"[{\"a\":1},{\"b\":2}, {\"c\":%s}]","taskExecutionId":"x-%d"}}`,
			i, i/60%60, i%60, strings.Repeat(`},{`, i%7), i)
	}
	tricky.WriteString(`],"unknownTop":1}`)
	// Unknown fields that hold lists of whole events: the second decoder
	// may start inside one and decode it to its end, a start the first
	// decoder passes.
	var nested bytes.Buffer
	nested.WriteString(`{"events":[`)
	for i := 0; i < 400; i++ {
		if i > 0 {
			nested.WriteByte(',')
		}
		fmt.Fprintf(&nested, `{"eventId":%d,"timestamp":"2026-01-01T00:00:00Z","taskScheduled":{"name":"A"},"extra":[`, i)
		for j := 0; j < 40; j++ {
			if j > 0 {
				nested.WriteByte(',')
			}
			fmt.Fprintf(&nested, `{"eventId":%d,"timerFired":{"timerId":%d}}`, j, j)
		}
		nested.WriteString(`]}`)
	}
	nested.WriteString(`]}`)
	return map[string][]byte{
		"dapr-cli, facts only past halfway": genCLILate(3000),
		"protojson":                         genProtoJSON(4000),
		"catalyst list":                     flat,
		"catalyst envelope":                 envelope,
		"dapr-cli":                          genCLI(3000),
		"tricky payloads":                   tricky.Bytes(),
		"nested lists":                      nested.Bytes(),
	}
}

// TestSplitDecodeMatchesOneDecoder: decoding a long list on two cores gives
// exactly what one decoder gives, events, run facts and counts, in every
// format, for splits taken at many places.
func TestSplitDecodeMatchesOneDecoder(t *testing.T) {
	for name, doc := range splitDocs() {
		t.Run(name, func(t *testing.T) {
			want, err := Decode(bytes.NewReader(doc), DecodeOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if name == "dapr-cli" && (!want.RebuiltSpans() || len(want.clock.segs) < 2) {
				// The second half's elapsed values are taken over too.
				t.Fatalf("the CLI rows' times were not rebuilt in several chains: %+v", want.clock)
			}
			for _, min := range []int64{1, int64(len(doc)) / 3, int64(len(doc)) / 2, int64(len(doc)) - 64} {
				got, splits, err := decodeSplit(doc, min)
				if err != nil {
					t.Fatalf("split at %d: %v", min, err)
				}
				if diff := sameHistory(got, want); diff != "" {
					t.Fatalf("split (min %d): %s", min, diff)
				}
				if min == 1 && splits != 1 && name != "nested lists" {
					t.Fatalf("%d splits taken at the lowest minimum, want 1: the test proves nothing", splits)
				}
			}
		})
	}
}

// TestSplitDecodeSameErrors: a bad or cut-off second half fails with the
// error one decoder reports, event index and offset included.
func TestSplitDecodeSameErrors(t *testing.T) {
	doc := genProtoJSON(4000)
	at := bytes.Index(doc[len(doc)*3/4:], []byte(`"taskScheduledId":`)) + len(doc)*3/4
	cases := map[string][]byte{
		"wrong kind":       append(append(append([]byte{}, doc[:at]...), `"taskScheduledId":true,`...), doc[at+len(`"taskScheduledId":`)+4:]...),
		"cut off":          doc[:len(doc)-200],
		"trailing garbage": append(append([]byte{}, doc...), " x"...),
		"bad byte":         append(append(append([]byte{}, doc[:at]...), '\x01'), doc[at+1:]...),
	}
	for name, bad := range cases {
		t.Run(name, func(t *testing.T) {
			_, want := Decode(bytes.NewReader(bad), DecodeOptions{})
			if want == nil {
				t.Fatal("one decoder read the damaged document")
			}
			_, splits, got := decodeSplit(bad, 1)
			if got == nil || got.Error() != want.Error() {
				t.Fatalf("split: %v\none decoder: %v", got, want)
			}
			if splits == 0 {
				t.Fatal("no split was taken: the test proves nothing")
			}
		})
	}
}

// TestSplitNotTakenWhereUnsafe: a capped decode, a wrapped document and a
// short list are decoded by one decoder.
func TestSplitNotTakenWhereUnsafe(t *testing.T) {
	doc := genProtoJSON(3000)
	sc := jsonscan.NewReaderAt(bytes.NewReader(doc), int64(len(doc)))
	d := newDecoder(sc, DecodeOptions{MaxEvents: 100000})
	d.top, d.splitMin = true, 1
	if _, err := d.document(0); err != nil || d.splits != 0 {
		t.Fatalf("capped decode: err %v, %d splits", err, d.splits)
	}
	if _, splits, err := decodeSplit(doc, int64(len(doc))); err != nil || splits != 0 {
		t.Fatalf("list shorter than the minimum: err %v, %d splits", err, splits)
	}
	wrapped := []byte(`{"content":[{"type":"text","text":` + jsonQuote(string(doc)) + `}]}`)
	h, splits, err := decodeSplit(wrapped, 1)
	if err != nil || splits != 0 || h.Len() != 3000 {
		t.Fatalf("MCP result: err %v, %d splits", err, splits)
	}
}

func jsonQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, c := range []byte(s) {
		switch c {
		case '"', '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// TestAppendFrom: moving one history's events after another's keeps their
// order, renumbers them, and leaves the chunks full but the last, whose
// unused room is zero (appendZero relies on it).
func TestAppendFrom(t *testing.T) {
	const c = 1 << chunkBits
	for _, sizes := range [][2]int{{0, 5}, {1, 1}, {5, 0}, {c - 1, 2}, {c, c}, {c + 1, c - 1}, {3*c + 7, 2*c + 9}, {10, 3 * c}} {
		t.Run(fmt.Sprint(sizes), func(t *testing.T) {
			h, tail := &History{}, &History{}
			for i := range sizes[0] {
				h.Append(Event{ID: int32(i), Name: "h"})
			}
			for i := range sizes[1] {
				tail.Append(Event{ID: int32(sizes[0] + i), Name: "t"})
			}
			h.appendFrom(tail)
			if h.Len() != sizes[0]+sizes[1] || tail.Len() != 0 {
				t.Fatalf("lengths %d and %d", h.Len(), tail.Len())
			}
			for i, e := range h.All() {
				if e.ID != int32(i) || e.Index != int32(i) || (e.Name == "h") != (i < sizes[0]) {
					t.Fatalf("event %d: id %d index %d %s", i, e.ID, e.Index, e.Name)
				}
			}
			for k, ch := range h.chunks {
				if k < len(h.chunks)-1 && len(ch) != c {
					t.Fatalf("chunk %d of %d holds %d events", k, len(h.chunks), len(ch))
				}
				for _, e := range ch[len(ch):cap(ch)] {
					if e != (Event{}) {
						t.Fatalf("chunk %d keeps an event beyond its length", k)
					}
				}
			}
		})
	}
}

// FuzzSplitDecode: whatever the bytes, decoding with a split allowed
// anywhere gives what one decoder gives: the same history or the same
// error.
func FuzzSplitDecode(f *testing.F) {
	f.Add(genProtoJSON(60))
	f.Add(genFlat(60))
	f.Add(genCLI(40))
	f.Add([]byte(`{"events":[{"eventId":1,"timestamp":"2026-01-01T00:00:00Z","taskScheduled":{"name":"A","input":"\"},{\""}},{"eventId":2,"taskScheduled":{}},{"eventId":-1,"timerFired":{"timerId":1}}],"x":[1]}`))
	f.Fuzz(func(t *testing.T, doc []byte) {
		want, werr := Decode(bytes.NewReader(doc), DecodeOptions{})
		for _, min := range []int64{1, int64(len(doc)) / 2} {
			got, _, gerr := decodeSplit(doc, min)
			if (werr == nil) != (gerr == nil) || werr != nil && werr.Error() != gerr.Error() {
				t.Fatalf("split (min %d): %v\none decoder: %v", min, gerr, werr)
			}
			if werr == nil {
				if diff := sameHistory(got, want); diff != "" {
					t.Fatalf("split (min %d): %s", min, diff)
				}
			}
		}
	})
}
