package runview

import (
	"os"
	"strings"
	"testing"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/tui/format"
)

// TestEventTimeOutOfRange (issue 26, item 12): an event whose timestamp a
// Stamp cannot hold shows it as given, saying it is out of range, and the
// ELAPSED to it is out of range (before: 1677-09-21 and a measure from the
// clamped instant).
func TestEventTimeOutOfRange(t *testing.T) {
	src, err := os.ReadFile("../../catalyst/testdata/catalyst-flat-envelope.json")
	if err != nil {
		t.Fatal(err)
	}
	doc := strings.Replace(string(src), `"timestamp":"2026-08-22T02:00:05Z"`, `"timestamp":"1500-01-01T00:00:00Z"`, 1)
	h, err := catalyst.Decode(strings.NewReader(doc), catalyst.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	m := newView(160, 40)
	m.c.TimeFormat = format.ISO
	m.SetHistory(h, analyzed(h), false)
	m.SetTab(TabEvents)
	ev := m.tabs[TabEvents].(*eventsTab)
	if got := ev.when(1); got != "1500-01-01T00:00:00Z (out of range)" {
		t.Errorf("TIME of event 1: %q", got)
	}
	if got := ev.cells(1).elapsed; got != "out of range" {
		t.Errorf("ELAPSED to event 1: %q", got)
	}
	if strings.Contains(m.View(), "1677") {
		t.Errorf("the view shows a clamped instant:\n%s", m.View())
	}
}
