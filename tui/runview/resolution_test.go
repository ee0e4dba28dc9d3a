package runview

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/fixtures"
)

// cardDeclinedRowsOnly is demo:card-declined's rows (the Dapr CLI's JSON)
// with every row's elapsed left out: only whole seconds are left to
// measure spans by.
func cardDeclinedRowsOnly(t *testing.T) *catalyst.History {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "fixtures", "demo", "card-declined.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		History []map[string]any `json:"history"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	for _, row := range doc.History {
		delete(row, "elapsed")
	}
	rows, err := json.Marshal(doc.History)
	if err != nil {
		t.Fatal(err)
	}
	h, err := catalyst.Decode(bytes.NewReader(rows), catalyst.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// TestWholeSecondSpansAreMarked: the Dapr CLI's rows without their elapsed
// column (demo:card-declined's, left out) have only whole seconds. The
// header, the invocation rows, the expanded attempts, the detail pane and
// ELAPSED show its spans in whole seconds marked "~" (or "<1s"), never
// "1.00s"; the header says why, and the help legend explains the mark.
// (Exact sources: the checkout demo's
// TestAttemptTimesAreOffsetsFromTheInvocation, unchanged.)
func TestWholeSecondSpansAreMarked(t *testing.T) {
	h := cardDeclinedRowsOnly(t)
	m := newView(200, 40)
	m.SetHistory(h, analyzed(h), false)
	press(m, "enter") // opens on charge_card, the flagged invocation
	view := ansi.Strip(m.View())
	detail := strings.Join(m.DetailLines(), "\n")
	for _, want := range []string{
		"took ~9s",
		"whole-second times, spans ±1s",
		"#1 ✗ failed +0s → ~+1s took ~1s",
		"#2 ✗ failed ~+3s → ~+4s took ~1s after ~2s backoff",
	} {
		if !strings.Contains(view, want) {
			t.Errorf("the view does not show %q:\n%s", want, view)
		}
	}
	for _, want := range []string{"took ~8s", "Attempt 2 · ✗ failed · ~+3s → ~+4s", "backoff before: ~2s", "invocation +0s"} {
		if !strings.Contains(detail, want) {
			t.Errorf("the detail does not show %q:\n%s", want, detail)
		}
	}
	if m := exactSpan(view + detail); m != "" {
		t.Errorf("a span shown as if exact: %q", m)
	}
	legend := false
	for _, l := range m.Legend() {
		for _, mk := range l.Marks {
			legend = legend || strings.Contains(mk[0], "~30s")
		}
	}
	if !legend {
		t.Errorf("the help legend does not explain ~30s")
	}

	m.SetTab(TabEvents)
	events := ansi.Strip(m.View())
	if !strings.Contains(events, "~2s") || !strings.Contains(events, "<1s") || exactSpan(events) != "" {
		t.Errorf("ELAPSED is not in marked whole seconds:\n%s", events)
	}
}

// exactSpan returns the first span written with decimals of a second
// ("1.00s", "2.5s"), or "".
func exactSpan(s string) string {
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == '(' || r == ',' || r == '│' }) {
		if n := strings.TrimSuffix(f, "s"); n != f && strings.Count(n, ".") == 1 && strings.Trim(n, "+-~0123456789.") == "" && n[len(n)-1] != '.' {
			return f
		}
	}
	return ""
}

// TestCLISpansRebuiltInTheView: demo:card-declined as the Dapr CLI prints
// it, each row with its elapsed: the header, the invocation rows, the
// expanded attempts, the detail pane and ELAPSED show the spans rebuilt
// from them, to the digit they are known to and with no "~"; instants stay
// at the printed second; the header and the help legend say so. Before,
// the same view read "took ~9s", "#1 ✗ failed +0s → ~+1s took ~1s".
func TestCLISpansRebuiltInTheView(t *testing.T) {
	h, err := fixtures.OpenDemo("card-declined", fixtures.OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	m := newView(200, 40)
	m.SetHistory(h, analyzed(h), false)
	press(m, "enter") // opens on charge_card, the flagged invocation
	view := ansi.Strip(m.View())
	detail := strings.Join(m.DetailLines(), "\n")
	for _, want := range []string{
		"took 9.0s",
		"whole-second times, spans rebuilt from elapsed",
		"#1 ✗ failed +0s → +748.0ms took 748.0ms",
		"#2 ✗ failed +2.81s → +3.45s took 635.0ms after 2.06s backoff",
	} {
		if !strings.Contains(view, want) {
			t.Errorf("the view does not show %q:\n%s", want, view)
		}
	}
	for _, want := range []string{"took 8.2s", "Attempt 2 · ✗ failed · +2.81s → +3.45s", "backoff before: 2.06s",
		"started: 2026-09-22T16:40:12.000Z · run +439ms"} {
		if !strings.Contains(detail, want) {
			t.Errorf("the detail does not show %q:\n%s", want, detail)
		}
	}
	if strings.Contains(view+detail, "~") {
		t.Errorf("a rebuilt span is marked ±1s:\n%s\n%s", view, detail)
	}
	legend := false
	for _, l := range m.Legend() {
		for _, mk := range l.Marks {
			legend = legend || strings.Contains(mk[1], "not rebuilt from elapsed")
		}
	}
	if !legend {
		t.Errorf("the help legend does not say which spans are ±1s")
	}
	m.SetTab(TabEvents)
	events := ansi.Strip(m.View())
	if !strings.Contains(events, "2.00s") || !strings.Contains(events, "748.0ms") || strings.Contains(events, "<1s") {
		t.Errorf("ELAPSED is not the rows' own:\n%s", events)
	}
}
