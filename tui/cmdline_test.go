package tui

import (
	"strings"
	"testing"

	"github.com/twice-cli/twice/tui/internal/tuitest"
	"github.com/twice-cli/twice/tui/list"
	"github.com/twice-cli/twice/tui/runview"
)

// typed is the keys that type text, one key each.
func typed(text string) []string {
	out := make([]string, 0, len(text))
	for _, r := range text {
		if r == ' ' {
			out = append(out, "space")
			continue
		}
		out = append(out, string(r))
	}
	return out
}

// command opens the command line, types line and presses enter; quit
// reports whether that quits.
func command(t *testing.T, m *Model, line string) (_ *Model, quit bool) {
	t.Helper()
	m = keys(t, m, ":")
	m = keys(t, m, typed(line)...)
	next, cmd := m.Update(keyMsg("enter"))
	if isQuit(cmd) {
		return next.(*Model), true
	}
	return drive(t, next.(*Model), cmd), false
}

// run is command, for a line that does not quit.
func run(t *testing.T, m *Model, line string) *Model {
	t.Helper()
	m, quit := command(t, m, line)
	if quit {
		t.Fatalf(":%s quit", line)
	}
	return m
}

// TestNumberKeysPickTabs: 1 to 5 pick the run view's tabs (lazygit's
// habit); a number past the last tab says so, never nothing.
func TestNumberKeysPickTabs(t *testing.T) {
	m := start(t, Options{History: tuitest.Charge()}, 120, 40)
	for _, c := range []struct {
		key  string
		want int
	}{{"3", runview.TabEvents}, {"2", runview.TabTimeline}, {"4", runview.TabFindings}, {"1", runview.TabInvocations}} {
		m = keys(t, m, c.key)
		if m.run.Tab() != c.want {
			t.Errorf("%s: tab %d, want %d", c.key, m.run.Tab(), c.want)
		}
	}
	m = keys(t, m, "5")
	if m.run.Tab() != runview.TabInvocations || !m.status.err || m.status.text != "no tab 5: this run has 4 tabs" {
		t.Errorf("5 without a Code tab: tab %d, status %q", m.run.Tab(), m.status.text)
	}
	// With source given, 5 is the Code tab.
	m = start(t, Options{History: tuitest.Charge(), Code: benchCode()}, 120, 40)
	if m = keys(t, m, "5"); m.run.Tab() != runview.TabCode {
		t.Errorf("5 with a Code tab: tab %d", m.run.Tab())
	}
}

// TestCommandLine: : opens a small command line for what has a key — a
// tab, a sort, a filter, quit, any key by its words — and what names
// nothing is answered, never ignored (issue 23, item 8).
func TestCommandLine(t *testing.T) {
	m := start(t, Options{History: tuitest.Charge()}, 120, 40)

	// While it is open every key types: q does not quit.
	m = keys(t, m, ":", "q")
	if !m.commanding || !strings.Contains(plain(m), ":q▌") {
		t.Fatalf("the command line is not open, or q was not typed:\n%s", plain(m))
	}
	m = keys(t, m, "esc")
	if m.commanding {
		t.Fatal("esc did not close the command line")
	}

	if m = run(t, m, "tab timeline"); m.run.Tab() != runview.TabTimeline {
		t.Errorf(":tab timeline: tab %d", m.run.Tab())
	}
	if m = run(t, m, "tab 3"); m.run.Tab() != runview.TabEvents {
		t.Errorf(":tab 3: tab %d", m.run.Tab())
	}
	m = run(t, m, "tab 1")
	m = run(t, m, "sort duration")
	cols := m.run.SortColumns()
	if s := m.run.SortState(); s.Col < 0 || cols[s.Col].Title != "DURATION" {
		t.Errorf(":sort duration: sorted by %+v", s)
	}
	m = run(t, m, "failed only") // a key's words: f
	if m.run.Filter().Need&list.Failed == 0 {
		t.Errorf(":failed only did not toggle the failed-only filter: %+v", m.run.Filter())
	}
	m = run(t, m, "filter chargecard")
	if m.run.Filter().Query != "chargecard" {
		t.Errorf(":filter: %+v", m.run.Filter())
	}

	for line, want := range map[string]string{
		"frobnicate":  "no such command: :frobnicate; ? lists keys",
		"tab nowhere": `no tab "nowhere": :tab takes invocations, timeline, events, findings or 1-4`,
		"sort colour": `no column "colour" to sort by here: :sort takes`,
		"sort":        `no column "" to sort by here`,
	} {
		m = run(t, m, line)
		if !m.status.err || !strings.HasPrefix(m.status.text, want) {
			t.Errorf(":%s: status %q (error %v), want %q", line, m.status.text, m.status.err, want)
		}
	}
	for _, q := range []string{"q", "quit"} {
		if _, quit := command(t, m, q); !quit {
			t.Errorf(":%s does not quit", q)
		}
	}
}
