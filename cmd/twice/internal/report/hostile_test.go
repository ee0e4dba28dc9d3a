package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/safetext/hostiletest"
	"github.com/twice-cli/twice/detect"
)

// absentAnalysis decodes the planted charge history (every format's
// version, so each decoder's run facts are covered) and makes every payload
// — each event's and the run's own — absent in state st.
func absentAnalyses(t *testing.T, st catalyst.PayloadState) map[string]Analysis {
	t.Helper()
	out := map[string]Analysis{}
	for _, d := range hostiletest.Documents("x") {
		if d.Name == "fixture" {
			continue
		}
		h, err := catalyst.Decode(bytes.NewReader(d.Bytes), catalyst.DecodeOptions{})
		if err != nil {
			t.Fatalf("%s: %v", d.Name, err)
		}
		for _, e := range h.All() {
			if e.Type.PayloadField() != "" {
				e.Payload = catalyst.AbsentPayload(st)
			}
		}
		h.Run.Input, h.Run.Output, h.Run.CustomStatus = catalyst.AbsentPayload(st), catalyst.AbsentPayload(st), catalyst.AbsentPayload(st)
		if st == catalyst.PayloadWithheld {
			h.Run.DataSharing = catalyst.DataSharing{Filtered: true, Level: catalyst.LevelMetadata}
		}
		out[d.Name] = Analysis{History: h, Report: detect.Analyze(h, detect.Options{})}
	}
	return out
}

// TestAbsentPayloadsAreNeverShownEmpty renders histories whose payloads are
// all absent — none given, withheld by the data-sharing level, redacted
// when saved, not requested — in text, Markdown, JSON and JSONL: no
// renderer calls one of them empty, each says what it is, and JSON never
// gives one a value. A history with truly empty payloads is the control:
// there the word appears.
func TestAbsentPayloadsAreNeverShownEmpty(t *testing.T) {
	states := []catalyst.PayloadState{catalyst.PayloadNone, catalyst.PayloadWithheld, catalyst.PayloadRedacted,
		catalyst.PayloadNotRequested, catalyst.PayloadEmpty}
	for _, st := range states {
		for format, a := range absentAnalyses(t, st) {
			what := st.String() + " payloads from " + format
			ds := a.History.Run.DataSharing
			words := ds.PayloadText(catalyst.AbsentPayload(st))
			outputs := map[string]string{
				"text":     render(t, func(b *bytes.Buffer) error { return WriteText(b, a, Options{Now: testNow, Events: true}) }),
				"markdown": render(t, func(b *bytes.Buffer) error { return WriteMarkdown(b, []Analysis{a}, Options{Now: testNow}) }),
			}
			for name, out := range outputs {
				hasEmpty := strings.Contains(strings.ToLower(out), "empty")
				if st == catalyst.PayloadEmpty {
					if !hasEmpty {
						t.Errorf("%s: %s does not say empty", what, name)
					}
					continue
				}
				if hasEmpty {
					i := strings.Index(strings.ToLower(out), "empty")
					t.Errorf("%s: %s calls a payload empty: %q", what, name, out[max(0, i-80):min(len(out), i+40)])
				}
				if !strings.Contains(out, words) {
					t.Errorf("%s: %s never says %q", what, name, words)
				}
			}
			for _, name := range []string{"json", "jsonl"} {
				out := render(t, func(b *bytes.Buffer) error {
					if name == "json" {
						return WriteJSON(b, []Analysis{a}, Options{Now: testNow})
					}
					return WriteJSONL(b, []Analysis{a}, Options{Now: testNow})
				})
				var doc struct {
					Runs []struct {
						Run struct {
							Input, Output, CustomStatus *jsonPayload
						} `json:"run"`
						Events []struct {
							Type    string       `json:"type"`
							Payload *jsonPayload `json:"payload"`
						} `json:"events"`
					} `json:"runs"`
				}
				line := out
				if name == "jsonl" {
					line = `{"runs":[` + strings.TrimSpace(out) + `]}`
				}
				if err := json.Unmarshal([]byte(line), &doc); err != nil || len(doc.Runs) != 1 {
					t.Fatalf("%s: %s: %v", what, name, err)
				}
				r := doc.Runs[0]
				payloads := []*jsonPayload{r.Run.Input, r.Run.Output}
				for _, e := range r.Events {
					if e.Payload != nil {
						payloads = append(payloads, e.Payload)
					}
				}
				if len(payloads) < 6 {
					t.Errorf("%s: %s: only %d payloads written", what, name, len(payloads))
				}
				for _, p := range payloads {
					switch {
					case p == nil:
						t.Errorf("%s: %s: a run payload is missing", what, name)
					case p.State != st.String():
						t.Errorf("%s: %s: a payload's state is %q, want %q", what, name, p.State, st)
					case p.Value != nil:
						t.Errorf("%s: %s: an absent payload has the value %q", what, name, *p.Value)
					}
				}
			}
		}
	}
}
