package runview

import (
	"github.com/twice-cli/twice/tui/list"
	"github.com/twice-cli/twice/tui/table"
)

// selectBy returns a list source's Select over an index's rows: flags are
// the rows' flags (the toggles'), and prepare makes a filter's query (the
// rows' terms, and what else a tab searches: a payload). It reads the
// index only, so it can run off the UI goroutine.
func selectBy(flags []uint8, prepare func(f list.Filter) *table.Query) func(list.Filter, []int32) []int32 {
	return func(f list.Filter, from []int32) []int32 {
		size := len(from)
		if from == nil {
			size = min(len(flags), 1024)
		}
		return prepare(f).Select(make([]int32, 0, size), flags, uint8(f.Need), from)
	}
}
