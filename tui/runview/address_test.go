package runview

import (
	"strings"
	"testing"

	"github.com/twice-cli/twice/detect"
	"github.com/twice-cli/twice/tui/internal/tuitest"
	"github.com/twice-cli/twice/tui/list"
)

// TestOwnMessagesReachOnlyTheirView: every pane on the root's stack sees
// every message, so a run view acts only on the messages it sent itself. A
// filter result or a jump sent by one view, delivered to another (a run
// opened after it, or one below it on the stack), changes nothing there.
func TestOwnMessagesReachOnlyTheirView(t *testing.T) {
	h := tuitest.Big(list.SyncRows + 5000)
	x := NewIndex(h, &detect.Report{})
	a, b := newView(120, 40), newView(120, 40)
	for _, m := range []*Model{a, b} {
		m.SetHistory(h, x, false)
		m.SetTab(TabEvents)
	}
	fromA := a.Update(keyPress("f"))()
	b.Update(keyPress("f")) // b waits for its own result, with the same request number
	b.Update(fromA)
	if ev := b.tabs[TabEvents].(*eventsTab); ev.rows.Shown() != h.Len() || !ev.rows.Pending() || !strings.Contains(b.View(), "filtering…") {
		t.Fatalf("another view's filter result was applied (shown %d, pending %v)", ev.rows.Shown(), ev.rows.Pending())
	}
	a.Update(fromA)
	if ev := a.tabs[TabEvents].(*eventsTab); ev.rows.Shown() == h.Len() || ev.rows.Pending() {
		t.Fatalf("the view's own filter result was not applied")
	}

	c, d := newView(120, 40), newView(120, 40)
	charge := tuitest.Charge()
	for _, m := range []*Model{c, d} {
		m.SetHistory(charge, analyzed(charge), false)
		m.SetTab(TabFindings)
	}
	jump := c.Update(keyPress("enter"))()
	d.Update(jump)
	if d.Tab() != TabFindings {
		t.Errorf("another view's jump moved this one to tab %d", d.Tab())
	}
	c.Update(jump)
	if c.Tab() != TabInvocations || c.Selection() != "invocation:0:-1" {
		t.Errorf("the view's own jump: tab %d selection %q", c.Tab(), c.Selection())
	}
}
