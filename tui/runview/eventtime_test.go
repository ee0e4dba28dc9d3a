package runview

import (
	"strings"
	"testing"

	"github.com/twice-cli/twice/tui/format"
	"github.com/twice-cli/twice/tui/internal/tuitest"
)

// TestEventsTimeColumn: the Events tab's TIME is each event's stamp in
// the time format — ISO to the second, to line up with logs — and under
// ISO times ELAPSED never says "Age:" (issue 23, item 6).
func TestEventsTimeColumn(t *testing.T) {
	h := tuitest.Charge()
	for _, tc := range []struct {
		tf       format.TimeFormat
		width    int
		time     string // the third event's TIME
		firstAge bool
	}{
		{format.ISO, 80, "2026-08-20T09:14:03Z", false},
		{format.ISO, 160, "2026-08-20T09:14:03Z", false},
		{format.Relative, 200, "2.1h ago", true},
	} {
		m := newView(tc.width, 40)
		m.c.TimeFormat = tc.tf
		m.SetHistory(h, analyzed(h), false)
		m.SetTab(TabEvents)
		view := m.View()
		if !strings.Contains(view, " TIME ") {
			t.Errorf("%s at %d: no TIME column:\n%s", tc.tf, tc.width, view)
		}
		ev := m.tabs[TabEvents].(*eventsTab)
		if got := ev.when(2); got != tc.time {
			t.Errorf("%s: TIME %q, want %q", tc.tf, got, tc.time)
		}
		if got := strings.Contains(view, "Age:"); got != tc.firstAge {
			t.Errorf("%s at %d: Age: shown %v, want %v:\n%s", tc.tf, tc.width, got, tc.firstAge, view)
		}
		if got := ev.cells(0).elapsed; tc.tf == format.ISO && got != "-" {
			t.Errorf("ISO: the first ELAPSED is %q, want -", got)
		}
	}
}
