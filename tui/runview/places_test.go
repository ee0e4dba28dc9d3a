package runview

import (
	"strings"
	"testing"

	"github.com/twice-cli/twice/tui/internal/tuitest"
	"github.com/twice-cli/twice/tui/list"
)

// TestEscReturnsToThePlace: every jump (evidence → event, finding →
// invocation) keeps a place; esc returns to the exact tab, line, scroll,
// filter, zoom and detail pane, one jump at a time, and only then clears
// the filter and leaves the run (issue 23, item 2: esc left the run and
// dropped the filter).
func TestEscReturnsToThePlace(t *testing.T) {
	h := tuitest.Charge()
	m := newView(120, 40)
	m.SetHistory(h, analyzed(h), false)
	// The Timeline zoomed: a place keeps it.
	m.SetTab(TabTimeline)
	press(m, "+", "+")
	tl := m.tabs[TabTimeline].(*timelineTab)
	zoom := tl.place()
	// A filter, the Findings tab, the second evidence line.
	press(m, "/", "c", "h", "a", "r", "g", "e", "enter")
	m.SetTab(TabFindings)
	press(m, "j", "j")
	before := m.tabs[TabFindings].list().Selected()
	if before.Sub < 0 {
		t.Fatalf("not on an evidence line: %+v", before)
	}
	if got := escOnBar(m); got != "back/clear" {
		t.Errorf("before a jump the key bar says esc %q", got)
	}

	// enter on the evidence shows its event.
	press(m, "enter")
	if m.Tab() != TabEvents || !strings.HasPrefix(m.Selection(), "event:") {
		t.Fatalf("enter on evidence: tab %d, selection %q", m.Tab(), m.Selection())
	}
	if got := escOnBar(m); got != "back to Findings" {
		t.Errorf("the key bar says esc %q, not where it goes", got)
	}
	// A second jump, after the user moved on: zoom out, clear the
	// filter, go to Findings, enter on the finding (its invocation).
	m.SetTab(TabTimeline)
	press(m, "0")
	m.SetTab(TabFindings)
	press(m, "g", "enter")
	if m.Tab() != TabInvocations {
		t.Fatalf("enter on a finding: tab %d", m.Tab())
	}

	// esc: back to the Findings tab's first line (the second place).
	press(m, "esc")
	if m.Tab() != TabFindings || m.tabs[TabFindings].list().Selected() != (list.Row{Item: 0, Sub: -1}) {
		t.Fatalf("first esc: tab %d, line %+v", m.Tab(), m.tabs[TabFindings].list().Selected())
	}
	// esc: back to the Findings tab, the same evidence line, the filter
	// and the zoom as they were.
	press(m, "esc")
	if m.Tab() != TabFindings || m.tabs[TabFindings].list().Selected() != before {
		t.Errorf("second esc: tab %d, line %+v, want the Findings tab's %+v", m.Tab(), m.tabs[TabFindings].list().Selected(), before)
	}
	if m.filter.Query != "charge" {
		t.Errorf("the filter is %q, want it kept", m.filter.Query)
	}
	if tl.place() != zoom {
		t.Errorf("the Timeline's zoom %+v, want %+v", tl.place(), zoom)
	}
	// Then esc clears the filter, then leaves the run.
	press(m, "esc")
	if m.filter.Active() {
		t.Errorf("third esc kept the filter %+v", m.filter)
	}
	if cmd := m.Update(keyPress("esc")); cmd == nil {
		t.Error("the last esc does not leave the run")
	}
}

// TestEscReturnsToALongListsLine: on a history whose lists filter in a
// command, esc restores the filter and, when the command answers, the line.
func TestEscReturnsToALongListsLine(t *testing.T) {
	h := tuitest.Big(list.SyncRows + 20_000)
	m := newView(120, 40)
	m.SetHistory(h, analyzed(h), false)
	m.SetTab(TabEvents)
	press(m, "/", "t", "i", "m", "e", "o", "u", "t", "enter", "ctrl+d", "ctrl+d", "ctrl+d", "k", "k")
	want, wantOff := m.tabs[TabEvents].list().Selected(), m.tabs[TabEvents].list().Table().Offset()
	if wantOff == 0 {
		t.Fatalf("the list is not scrolled (line %+v): the scroll is not tested", want)
	}
	// A jump from the Events tab (the view's own: show an invocation).
	run(m, m.d.showInvocation(3))
	if m.Tab() != TabInvocations {
		t.Fatalf("tab %d", m.Tab())
	}
	cmd := m.Update(keyPress("esc"))
	if m.Tab() != TabEvents || m.filter.Query != "timeout" {
		t.Fatalf("esc: tab %d, filter %q", m.Tab(), m.filter.Query)
	}
	if !m.tabs[TabEvents].list().Pending() {
		t.Fatal("the Events tab filtered on the UI goroutine: this test does not cover a long list")
	}
	run(m, cmd)
	if got, off := m.tabs[TabEvents].list().Selected(), m.tabs[TabEvents].list().Table().Offset(); got != want || off != wantOff {
		t.Errorf("line %+v at scroll %d, want %+v at %d", got, off, want, wantOff)
	}
}

// escOnBar is what the key bar says of esc.
func escOnBar(m *Model) string {
	for _, b := range m.Keys().Bar() {
		if b.Help().Key == "esc" {
			return b.Help().Desc
		}
	}
	return ""
}
