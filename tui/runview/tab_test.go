package runview

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/twice-cli/twice/detect/review"
	"github.com/twice-cli/twice/tui/format"
	"github.com/twice-cli/twice/tui/internal/tuitest"
	"github.com/twice-cli/twice/tui/list"
)

// TestEveryTabIsWired: every tab newTabs lists (the Code tab too) draws the
// view at its exact size, is named in the tab bar with its count, takes the
// view's filter and a column from its sort menu, describes its selected row
// in the detail pane and has its keys documented — what a new tab, added
// as one file and a line in newTabs, must keep.
func TestEveryTabIsWired(t *testing.T) {
	h := tuitest.Checkout()
	src := &CodeSource{Review: &review.Report{}}
	x := analyzed(h)
	x.AddCode(src)
	for _, size := range [][2]int{{80, 24}, {120, 40}, {200, 60}} {
		m := newView(size[0], size[1])
		m.SetCode(src)
		m.SetHistory(h, x, false)
		if len(m.tabs) != TabCode+1 {
			t.Fatalf("%d tabs with source, want %d", len(m.tabs), TabCode+1)
		}
		for i, tb := range m.tabs {
			name := tb.title()
			m.SetTab(i)
			lines := strings.Split(ansi.Strip(m.View()), "\n")
			if len(lines) != size[1] {
				t.Fatalf("%s at %v: %d lines", name, size, len(lines))
			}
			for _, l := range lines {
				if w := format.Width(l); w != size[0] {
					t.Fatalf("%s at %v: a line %d wide: %q", name, size, w, l)
				}
			}
			if bar := lines[m.headerHeight()]; !strings.Contains(bar, "["+name+" "+tb.list().Count()+"]") {
				t.Errorf("%s at %v: the tab bar %q does not name it", name, size, bar)
			}
			if tb.selection() == "" || len(m.DetailLines()) == 0 {
				t.Errorf("%s at %v: selection %q, %d detail lines", name, size, tb.selection(), len(m.DetailLines()))
			}
			press(m, "f")
			if tb.list().Applied().Need != list.Failed {
				t.Errorf("%s: the failed toggle did not reach it (%+v)", name, tb.list().Applied())
			}
			press(m, "f")
			if cols := tb.source().Columns; len(cols) > 1 {
				press(m, "s", cols[1].Key)
				if s := tb.list().SortState(); s.Col != 1 || !strings.Contains(m.View(), "sorted by "+cols[1].Title) {
					t.Errorf("%s: the sort menu's %q gave %+v", name, cols[1].Key, s)
				}
				press(m, "s", cols[0].Key)
			}
		}
	}
}
