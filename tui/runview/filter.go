package runview

import (
	tea "charm.land/bubbletea/v2"

	"github.com/twice-cli/twice/tui/table"
)

// syncRows is the list size up to which a filter runs on the UI goroutine
// (well under a millisecond). Larger lists are filtered by a command, so a
// keystroke never waits for a million rows: the old rows stay on screen,
// marked "filtering…", until the new ones arrive.
const syncRows = 100_000

// filteredMsg carries the rows a filter command computed for a tab of the
// view to. seq is the tab's filter request number; a result for an older
// request is dropped.
type filteredMsg struct {
	to   *viewData
	tab  int
	seq  int
	f    filterState
	rows []int32
}

// selectRows returns the rows of a list matching f: from the rows in from
// when it is not nil (f narrows the filter that produced them), else from
// every row. It allocates its result and reads terms, flags and from only,
// so it can run off the UI goroutine.
func selectRows(terms *table.Terms, flags []uint8, f filterState, from []int32) []int32 {
	size := len(from)
	if from == nil {
		size = min(len(flags), 1024)
	}
	return terms.Prepare(f.query).Select(make([]int32, 0, size), flags, f.flags(), from)
}

// filterCmd computes a filter for tab of the view to in a command (for
// large lists).
func filterCmd(to *viewData, tab, seq int, terms *table.Terms, flags []uint8, f filterState, from []int32) tea.Cmd {
	return func() tea.Msg {
		return filteredMsg{to: to, tab: tab, seq: seq, f: f, rows: selectRows(terms, flags, f, from)}
	}
}
