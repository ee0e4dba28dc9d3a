package runview

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/twice-cli/twice/fixtures"
)

// TestWholeSecondSpansAreMarked: demo:card-declined is the Dapr CLI's JSON,
// whose times are whole seconds. The header, the invocation rows, the
// expanded attempts, the detail pane and ELAPSED show its spans in whole
// seconds marked "~" (or "<1s"), never "1.00s"; the header says why, and
// the help legend explains the mark. (Exact sources: the checkout demo's
// TestAttemptTimesAreOffsetsFromTheInvocation, unchanged.)
func TestWholeSecondSpansAreMarked(t *testing.T) {
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
