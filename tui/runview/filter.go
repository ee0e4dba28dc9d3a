package runview

import (
	"github.com/twice-cli/twice/tui/table"
)

// syncRows is the list size up to which a filter runs on the UI goroutine
// (well under a millisecond). Larger lists are filtered by a command, so a
// keystroke never waits for a million rows: the old rows stay on screen,
// marked "filtering…", until the new ones arrive.
const syncRows = 100_000

// selectRows returns the rows of a list matching f (p is its query): from
// the rows in from when it is not nil (f narrows the filter that produced
// them), else from every row. It allocates its result and reads the index
// only, so it can run off the UI goroutine.
func selectRows(p *table.Query, flags []uint8, f filterState, from []int32) []int32 {
	size := len(from)
	if from == nil {
		size = min(len(flags), 1024)
	}
	return p.Select(make([]int32, 0, size), flags, f.flags(), from)
}
