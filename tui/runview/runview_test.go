package runview

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/detect"
	"github.com/twice-cli/twice/tui/common"
	"github.com/twice-cli/twice/tui/format"
	"github.com/twice-cli/twice/tui/internal/tuitest"
	"github.com/twice-cli/twice/tui/list"
	"github.com/twice-cli/twice/tui/style"
)

func newView(w, h int) *Model {
	c := &common.Common{Styles: style.New(colorprofile.NoTTY), Keys: common.DefaultKeys(), Now: tuitest.Now, TimeFormat: format.Relative}
	m := New(c)
	m.SetSize(w, h)
	return m
}

func analyzed(h *catalyst.History) *Index { return NewIndex(h, detect.Analyze(h, detect.Options{})) }

func keyPress(s string) tea.KeyPressMsg {
	switch s {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "space":
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	case "ctrl+d":
		return tea.KeyPressMsg{Code: 'd', Mod: tea.ModCtrl}
	}
	return tea.KeyPressMsg{Code: []rune(s)[0], Text: s}
}

// press sends keys and runs the commands they return, feeding their
// messages back (jumps, filter results).
func press(m *Model, keys ...string) {
	for _, k := range keys {
		run(m, m.Update(keyPress(k)))
	}
}

func run(m *Model, cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	switch msg := cmd().(type) {
	case tea.BatchMsg:
		for _, c := range msg {
			run(m, c)
		}
	case nil:
	default:
		if _, tick := msg.(interface{ ID() int }); !tick {
			run(m, m.Update(msg))
		}
	}
}

func TestIndexFlags(t *testing.T) {
	h := tuitest.Charge()
	x := analyzed(h)
	if len(x.Report.Invocations) != 2 {
		t.Fatalf("%d invocations", len(x.Report.Invocations))
	}
	if x.invFlags[0] != flagFailed|flagRetried|flagFlagged || x.invFlags[1] != 0 {
		t.Errorf("invocation flags %v", x.invFlags)
	}
	for ev, want := range map[int]uint8{
		2: flagRetried | flagFlagged, 3: flagFailed | flagRetried | flagFlagged, 5: flagRetried | flagFlagged,
		8: flagRetried | flagFlagged, 11: 0, 0: 0,
	} {
		if got := x.eventFlags[ev] & filterFlags; got != want {
			t.Errorf("event %d flags %03b, want %03b", ev, got, want)
		}
	}
	if inv, att := x.invocationOf(8); inv != 0 || att != 1 {
		t.Errorf("event 8 is attempt %d of invocation %d", att, inv)
	}
	if len(x.evidence[3]) == 0 {
		t.Error("event 3 is not recorded as evidence")
	}
	if x.withheld != 7 {
		t.Errorf("%d withheld payloads, want 7", x.withheld)
	}
}

func TestExpandAndCollapse(t *testing.T) {
	m := newView(120, 40)
	h := tuitest.Charge()
	m.SetHistory(h, analyzed(h), false)
	press(m, "enter")
	if !strings.Contains(m.View(), "#2 ✓ completed +32.06s") {
		t.Fatal("enter did not expand the invocation")
	}
	press(m, "j", "j")
	if got := m.Selection(); got != "invocation:0:1" {
		t.Fatalf("selection %q, want the second attempt", got)
	}
	if !strings.Contains(strings.Join(m.DetailLines(), "\n"), "backoff before: 2.06s") {
		t.Errorf("the attempt's detail does not show its backoff:\n%s", strings.Join(m.DetailLines(), "\n"))
	}
	press(m, "enter")
	if m.Selection() != "invocation:0:-1" || strings.Contains(m.View(), "#2 ✓ completed +32.06s") {
		t.Errorf("enter on an attempt did not collapse to its invocation: %q", m.Selection())
	}
}

func TestFindingsJump(t *testing.T) {
	m := newView(120, 40)
	h := tuitest.Charge()
	m.SetHistory(h, analyzed(h), false)
	press(m, "tab", "tab", "tab", "enter")
	if m.Tab() != TabInvocations || m.Selection() != "invocation:0:-1" || !strings.Contains(m.View(), "#1 ✗ failed +0s") {
		t.Fatalf("enter on a finding: tab %d selection %q", m.Tab(), m.Selection())
	}
	// A filter that hides the evidence event is cleared by the jump.
	press(m, "tab", "tab", "/", "d", "u", "p", "l", "i", "c", "a", "t", "e", "enter", "tab", "j", "enter")
	if m.Tab() != TabEvents || m.Selection() != "event:3" {
		t.Fatalf("enter on evidence: tab %d selection %q", m.Tab(), m.Selection())
	}
	if strings.Contains(m.View(), "filter:") {
		t.Error("the filter hiding the event was not cleared")
	}
}

func TestPollKeepsPlaceAndMarksNewEvents(t *testing.T) {
	m := newView(120, 40)
	h := tuitest.ChargeRunning(0)
	m.SetHistory(h, analyzed(h), false)
	press(m, "tab", "tab", "j", "j", "j")
	next := tuitest.ChargeRunning(3)
	m.SetHistory(next, analyzed(next), true)
	if m.Selection() != "event:3" {
		t.Errorf("selection %q after a poll", m.Selection())
	}
	view := m.View()
	if !strings.Contains(view, "+ 9 TaskCompleted") || strings.Contains(view, "+ 8 TaskScheduled") {
		t.Errorf("new events are not marked (only them):\n%s", view)
	}
	// A new generation (continue-as-new) is a new history: back to the top.
	gen := tuitest.ChargeRunning(4)
	gen.Run.ExecutionID = "next-generation"
	m.SetHistory(gen, analyzed(gen), true)
	if m.Selection() != "event:0" || strings.Contains(m.View(), "+") && strings.Contains(m.View(), "+10") {
		t.Errorf("a new generation kept the place: %q", m.Selection())
	}
}

func TestLargeListsFilterOffTheUIGoroutine(t *testing.T) {
	h := tuitest.Big(list.SyncRows + 5000)
	x := NewIndex(h, &detect.Report{})
	m := newView(120, 40)
	m.SetHistory(h, x, false)
	m.SetTab(TabEvents)

	cmd := m.Update(keyPress("f"))
	if cmd == nil {
		t.Fatal("filtering a large list ran on the key press")
	}
	if !strings.Contains(m.View(), "filtering…") {
		t.Error("a pending filter is not shown")
	}
	msg := cmd().(list.FilteredMsg)

	// The filter is switched off before the result arrives: the result is
	// stale and dropped.
	m.Update(keyPress("f"))
	m.Update(msg)
	if strings.Contains(m.View(), "filter:") || m.tabs[TabEvents].(*eventsTab).rows.Shown() != h.Len() {
		t.Fatal("a stale filter result was applied")
	}

	run(m, m.Update(keyPress("f")))
	ev := m.tabs[TabEvents].(*eventsTab)
	if ev.rows.Shown() == 0 || ev.rows.Shown() == h.Len() {
		t.Fatal("the filter result was not applied")
	}
	for i := range ev.rows.Shown() {
		if e := ev.rows.At(i).Item; h.At(int(e)).Type != catalyst.EventTaskFailed {
			t.Fatalf("event %d is not a failure", e)
		}
	}
}

func TestViewFitsAndIsSafe(t *testing.T) {
	for _, size := range [][2]int{{60, 15}, {80, 24}, {100, 30}, {200, 60}} {
		m := newView(size[0], size[1])
		h := tuitest.Hostile()
		m.SetHistory(h, analyzed(h), false)
		for _, keys := range [][]string{nil, {"enter"}, {"tab"}, {"tab", "G"}, {"tab", "tab"}, {"tab", "tab", "j"}} {
			press(m, keys...)
			out := m.View()
			lines := strings.Split(out, "\n")
			if len(lines) != size[1] {
				t.Fatalf("%v at %v: %d lines", keys, size, len(lines))
			}
			for _, l := range lines {
				if w := format.Width(ansi.Strip(l)); w != size[0] {
					t.Fatalf("%v at %v: a line is %d wide: %q", keys, size, w, l)
				}
			}
		}
	}
}

func TestToggles(t *testing.T) {
	h := tuitest.Charge()
	x := analyzed(h)
	for _, c := range []struct {
		tab  int
		key  string
		want string
	}{
		{TabEvents, "f", "3"},
		{TabEvents, "r", "2,3,5,6,8,9"},
		{TabEvents, "!", "2,3,5,6,8,9"},
		{TabInvocations, "f", "ChargeCard"},
		{TabInvocations, "r", "ChargeCard"},
		{TabFindings, "f", "duplicate-side-effect"},
	} {
		m := newView(120, 40)
		m.SetHistory(h, x, false)
		m.SetTab(c.tab)
		press(m, c.key)
		var got []string
		switch tab := m.tabs[c.tab].(type) {
		case *eventsTab:
			for i := range tab.rows.Len() {
				got = append(got, format.Count(int(tab.rows.At(i).Item)))
			}
		case *invocationsTab:
			for i := range tab.rows.Len() {
				got = append(got, x.Report.Invocations[tab.rows.At(i).Item].Name)
			}
		case *findingsTab:
			for i := range tab.rows.Len() {
				if r := tab.rows.At(i); r.Sub < 0 {
					got = append(got, string(x.Report.Findings[r.Item].ID))
				}
			}
		}
		if strings.Join(got, ",") != c.want {
			t.Errorf("tab %d key %s: rows %v, want %s", c.tab, c.key, got, c.want)
		}
	}
}

// A history that does not name its ids (the Dapr CLI's JSON prints no
// instance id) says so in the header rather than showing a bare "-".
func TestHeaderSaysWhichIDsAreUnknown(t *testing.T) {
	tests := []struct {
		name, app, run string
		want           []string
	}{
		{"no run id", "payments", "", []string{"run (not in this history)", "no console link: app payments, run (not in this history)"}},
		{"no app id", "", "charge-7731", []string{"run charge-7731", "no console link: app (not in this history), run charge-7731"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newView(140, 20)
			h := tuitest.Charge()
			h.Run.AppID, h.Run.ID = tt.app, tt.run
			m.SetHistory(h, analyzed(h), false)
			out := ansi.Strip(m.View())
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("no %q in:\n%s", w, out)
				}
			}
		})
	}
}

// TestZoomFactor: the Timeline's zoom reads as a person would say it, not
// as a raw float (8.000000000000002 was shown after three +).
func TestZoomFactor(t *testing.T) {
	for _, c := range []struct {
		f    float64
		want string
	}{
		{2, "2"}, {8.000000000000002, "8"}, {7.999999999999, "8"}, {1.5, "1.5"},
		{1.4999999999, "1.5"}, {0.5, "0.5"}, {341.33, "341"}, {16.000001, "16"},
	} {
		if got := zoomFactor(c.f); got != c.want {
			t.Errorf("zoomFactor(%v) = %q, want %q", c.f, got, c.want)
		}
	}
}
