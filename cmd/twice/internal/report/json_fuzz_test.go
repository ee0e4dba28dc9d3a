package report

import (
	"bytes"
	"encoding/json"
	"github.com/twice-cli/twice/tui/format"
	"testing"
	"time"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/safetext/hostiletest"
	"github.com/twice-cli/twice/detect"
)

// fuzzAnalysis decodes doc (any format twice reads) and analyses it; ok is
// false when doc is not a history. Large inputs are skipped.
func fuzzAnalysis(doc []byte) (Analysis, bool) {
	if len(doc) > 1<<20 {
		return Analysis{}, false
	}
	h, err := catalyst.Decode(bytes.NewReader(doc), catalyst.DecodeOptions{})
	if err != nil {
		return Analysis{}, false
	}
	return Analysis{History: h, Report: detect.Analyze(h, detect.Options{})}, true
}

// addHostileSeeds adds every format's hostile document for a few samples.
func addHostileSeeds(f *testing.F) {
	for _, v := range []string{hostiletest.Joined(), "x", "\x1b[2J\u202e\xff"} {
		for _, d := range hostiletest.Documents(v) {
			if d.Name != "fixture" {
				f.Add(d.Bytes)
			}
		}
	}
}

// fuzzRun is what FuzzWriteJSON reads back of a run.
type fuzzRun struct {
	Run struct {
		ID       string `json:"id"`
		AppID    string `json:"app_id"`
		Workflow string `json:"workflow"`
		Status   string `json:"status"`
	} `json:"run"`
	Events []struct {
		Index           int    `json:"index"`
		Type            string `json:"type"`
		WireType        string `json:"wire_type"`
		Name            string `json:"name"`
		TaskExecutionID string `json:"task_execution_id"`
		Failure         *struct {
			Message    string `json:"message"`
			StackTrace string `json:"stack_trace"`
		} `json:"failure"`
		Payload *struct {
			State string  `json:"state"`
			Value *string `json:"value"`
		} `json:"payload"`
	} `json:"events"`
	Invocations []json.RawMessage `json:"invocations"`
	Findings    []json.RawMessage `json:"findings"`
}

// FuzzWriteJSON: for any history twice decodes, from any bytes, the JSON
// writer writes one valid document, with no raw control, C1, bidi or
// invalid character in it, that reads back to the history: every event in
// order, with its type, name, execution id, failure and payload text
// exactly as decoded (invalid UTF-8 as U+FFFD), a present payload never
// without its value and an absent one never with one; and as many
// invocations and findings as detect reported. JSONL writes the same run.
// Seeds: testdata/fuzz/FuzzWriteJSON (every test history of the decoders)
// and the hostile documents of every format.
func FuzzWriteJSON(f *testing.F) {
	addHostileSeeds(f)
	f.Fuzz(func(t *testing.T, doc []byte) {
		a, ok := fuzzAnalysis(doc)
		if !ok {
			return
		}
		h := a.History
		var out bytes.Buffer
		if err := WriteJSON(&out, []Analysis{a}, Options{Now: testNow}); err != nil {
			t.Fatalf("WriteJSON: %v", err)
		}
		if v, bad := hostiletest.FindUnsafe(out.String(), false); bad {
			t.Fatalf("raw %U at %d", v.Rune, v.Offset)
		}
		var got struct {
			Runs []fuzzRun `json:"runs"`
		}
		if err := json.Unmarshal(out.Bytes(), &got); err != nil || len(got.Runs) != 1 {
			t.Fatalf("not one run of valid JSON (%v):\n%.500s", err, out.String())
		}
		r := got.Runs[0]
		valid := func(s string) string { return string([]rune(s)) }
		if r.Run.ID != valid(h.Run.ID) || r.Run.AppID != valid(h.Run.AppID) || r.Run.Workflow != valid(h.Run.Workflow) ||
			r.Run.Status != valid(string(h.Run.Status)) {
			t.Fatalf("run %+v, want %q %q %q %q", r.Run, h.Run.ID, h.Run.AppID, h.Run.Workflow, h.Run.Status)
		}
		if len(r.Events) != h.Len() {
			t.Fatalf("%d events written, %d decoded", len(r.Events), h.Len())
		}
		for i, e := range h.All() {
			w := r.Events[i]
			exec := e.ExecutionID
			if e.Type == catalyst.EventExecutionStarted {
				exec = "" // written as execution_id: the workflow's generation
			}
			if w.Index != i || w.Type != e.Type.String() || w.Name != valid(e.Name) || w.TaskExecutionID != valid(exec) {
				t.Fatalf("event %d written as %+v, decoded %q %q %q", i, w, e.TypeName(), e.Name, exec)
			}
			if e.Detail != nil && w.WireType != valid(e.Detail.TypeName) {
				t.Fatalf("event %d: wire_type written as %q, decoded %q", i, w.WireType, e.Detail.TypeName)
			}
			if (w.Failure != nil) != (e.Failure != nil) ||
				e.Failure != nil && (w.Failure.Message != valid(e.Failure.Message) || w.Failure.StackTrace != valid(e.Failure.StackTrace)) {
				t.Fatalf("event %d: failure written as %+v, decoded %+v", i, w.Failure, e.Failure)
			}
			if e.Type.PayloadField() == "" {
				continue
			}
			switch {
			case w.Payload == nil:
				t.Fatalf("event %d: no payload written", i)
			case w.Payload.State != e.Payload.State.String():
				t.Fatalf("event %d: payload state %q, decoded %s", i, w.Payload.State, e.Payload.State)
			case e.Payload.Has() && (w.Payload.Value == nil || *w.Payload.Value != valid(e.Payload.Text())):
				t.Fatalf("event %d: present payload written as %v", i, w.Payload.Value)
			case !e.Payload.Has() && w.Payload.Value != nil && *w.Payload.Value != "":
				t.Fatalf("event %d: a %s payload written with the value %q", i, e.Payload.State, *w.Payload.Value)
			}
		}
		if len(r.Invocations) != len(a.Report.Invocations) || len(r.Findings) != len(a.Report.Findings) {
			t.Fatalf("%d invocations and %d findings written, %d and %d reported",
				len(r.Invocations), len(r.Findings), len(a.Report.Invocations), len(a.Report.Findings))
		}

		var line bytes.Buffer
		if err := WriteJSONL(&line, []Analysis{a}, Options{Now: testNow}); err != nil {
			t.Fatalf("WriteJSONL: %v", err)
		}
		var one fuzzRun
		if bytes.Count(bytes.TrimSpace(line.Bytes()), []byte("\n")) != 0 || json.Unmarshal(line.Bytes(), &one) != nil ||
			len(one.Events) != h.Len() {
			t.Fatalf("JSONL is not the run on one line:\n%.500s", line.String())
		}
	})
}

// FuzzWriteText: for any history twice decodes, the text report (with its
// events, in both time formats) and the Markdown report carry no raw
// control character but newline, no C1, bidi, zero-width or invalid
// character: whatever the history holds, the terminal shows it escaped.
func FuzzWriteText(f *testing.F) {
	addHostileSeeds(f)
	f.Fuzz(func(t *testing.T, doc []byte) {
		a, ok := fuzzAnalysis(doc)
		if !ok {
			return
		}
		now := func() time.Time { return time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC) }
		for name, write := range map[string]func(*bytes.Buffer) error{
			"text": func(b *bytes.Buffer) error { return WriteText(b, a, Options{Now: now, Events: true}) },
			"relative": func(b *bytes.Buffer) error {
				return WriteText(b, a, Options{Now: now, Events: true, TimeFormat: format.Relative})
			},
			"colour": func(b *bytes.Buffer) error {
				return WriteText(b, a, Options{Now: now, Events: true, Styles: NewStyles(true)})
			},
			"markdown": func(b *bytes.Buffer) error { return WriteMarkdown(b, []Analysis{a}, Options{Now: now}) },
		} {
			var b bytes.Buffer
			if err := write(&b); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			out := sgr.ReplaceAllString(b.String(), "")
			if v, bad := hostiletest.FindUnsafe(out, false); bad {
				t.Fatalf("%s: raw %U at %d: %q", name, v.Rune, v.Offset, out[max(0, v.Offset-40):min(len(out), v.Offset+40)])
			}
		}
	})
}
