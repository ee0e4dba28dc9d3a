package runview

import (
	"cmp"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/twice-cli/twice/tui/format"
	"github.com/twice-cli/twice/tui/table"
)

// sortColumn is a column a list can be sorted by: the key that picks it in
// the sort menu, its column's title, and how two rows compare (nil: the
// rows' own order, which is history order). compare must be safe off the
// UI goroutine: it reads the history and the report only.
type sortColumn struct {
	key     string
	title   string
	compare func(a, b int32) int
}

// sortState is how a list is sorted: by column col of its sortColumns (0
// is the rows' own order), descending when desc.
type sortState struct {
	col  int
	desc bool
}

// sortText is the sort for the tab bar: "sorted by DURATION ↓" (nothing
// for the rows' own order, ascending).
func sortText(cols []sortColumn, s sortState) string {
	if s.col <= 0 && !s.desc || s.col >= len(cols) {
		return ""
	}
	return "sorted by " + cols[s.col].title + " " + arrow(s.desc)
}

// arrow marks a sorted column's direction.
func arrow(desc bool) string { return format.SortArrow(desc) }

// sortMenu is the sort menu's line: each column's key and title.
func sortMenu(cols []sortColumn, s sortState) string {
	parts := make([]string, len(cols))
	for i, c := range cols {
		parts[i] = c.key + " " + strings.ToLower(c.title)
		if i == s.col {
			parts[i] += " " + arrow(s.desc)
		}
	}
	return "sort by: " + strings.Join(parts, " · ") + " (again: reverse; esc: cancel)"
}

// comparator returns the comparison that puts rows in sort s (nil for the
// rows' own order).
func comparator(cols []sortColumn, s sortState) func(a, b int32) int {
	if s.col < 0 || s.col >= len(cols) {
		return nil
	}
	c := cols[s.col].compare
	if c == nil {
		if !s.desc {
			return nil
		}
		c = func(a, b int32) int { return cmp.Compare(a, b) }
	}
	if s.desc {
		return func(a, b int32) int { return c(b, a) }
	}
	return c
}

// sortedColumns returns cols with the sorted one's title marked by its
// arrow and its width grown to hold it (table.Mark); titles are the
// heading cells.
func sortedColumns(cols []table.Column, sorts []sortColumn, s sortState) (out []table.Column, titles []string) {
	out = cols
	if s.col > 0 && s.col < len(sorts) || s.desc && s.col == 0 && len(sorts) > 0 {
		sorted := sorts[max(s.col, 0)].title
		if i := slices.IndexFunc(cols, func(c table.Column) bool { return c.Title == sorted }); i >= 0 {
			out = table.Mark(cols, i, arrow(s.desc))
		}
	}
	titles = make([]string, len(out))
	for i, c := range out {
		titles[i] = c.Title
	}
	return out, titles
}

// rowList is what a tab's list shows: the cursor and window over its rows
// (tbl), the rows the filter kept (matched, ascending; nil: all), and
// their order (sorted or not). A list of more than syncRows rows is
// filtered and sorted in a command, so a key press never waits for a
// million rows: the old rows stay on screen, marked "filtering…", until
// the new ones arrive (seq drops a superseded answer).
type rowList struct {
	tab int
	// syncMax, when set, is the size up to which the list is filtered on
	// the UI goroutine (default syncRows): a list whose rows are costly to
	// test goes to a command sooner.
	syncMax int
	tbl     table.Model
	total   int
	applied filterState
	matched []int32
	order   table.Order
	sort    sortState
	// seq numbers filter and sort requests; pending is set while a
	// command runs, and sel is the row to select when it answers.
	seq     int
	pending bool
	sel     int32
}

// filteredMsg carries the rows a filter (or sort) command computed for a
// tab of the view to. seq is the list's request number; an answer to an
// older request is dropped.
type filteredMsg struct {
	to      *viewData
	tab     int
	seq     int
	f       filterState
	matched []int32
	order   table.Order
}

// reset forgets the rows for new data of total rows: nothing filtered,
// nothing pending, the sort kept.
func (l *rowList) reset(total int) {
	l.seq++
	l.total, l.pending = total, false
	l.applied, l.matched = filterState{}, nil
	l.order = table.NewOrder(total, nil, nil)
	l.tbl.SetLen(total)
}

// count is the list's size for the tab bar: "shown/total" when filtered.
func (l *rowList) count() string {
	if l.applied.active() {
		return format.Count(len(l.matched)) + "/" + format.Count(l.total)
	}
	return format.Count(l.total)
}

// position is "cursor/rows" for the tab bar, or what is being computed.
func (l *rowList) position() string {
	switch {
	case l.pending && l.applied.active():
		return "filtering…"
	case l.pending:
		return "sorting…"
	case l.tbl.Len() == 0:
		return ""
	}
	return format.Count(l.tbl.Cursor()+1) + "/" + format.Count(l.tbl.Len())
}

// query prepares a filter's query; the tabs set its Extra.
type query func(f filterState) *table.Query

// apply shows the rows matching f in the list's sort, keeping row sel
// selected (its nearest when hidden), at once for a small list and in a
// command for a large one (rows is then called with the answer). flags has
// one entry per row.
func (l *rowList) apply(d *viewData, f filterState, prepare query, flags []uint8, cols []sortColumn, sel int32) tea.Cmd {
	l.seq++
	l.pending = false
	var from []int32
	if l.matched != nil && f.narrows(l.applied) && f.active() {
		from = l.matched
	}
	cmpf := comparator(cols, l.sort)
	compute := func() ([]int32, table.Order) {
		var kept []int32
		if f.active() {
			kept = selectRows(prepare(f), flags, f, from)
		}
		return kept, table.NewOrder(len(flags), kept, cmpf)
	}
	limit := syncRows
	if l.syncMax > 0 {
		limit = l.syncMax
	}
	if len(flags) <= limit {
		kept, order := compute()
		l.take(f, kept, order, sel)
		return nil
	}
	l.pending, l.sel = true, sel
	l.applied = f // the tab bar says what is being computed
	msg := filteredMsg{to: d, tab: l.tab, seq: l.seq, f: f}
	return func() tea.Msg {
		msg.matched, msg.order = compute()
		return msg
	}
}

// answer takes what a command computed, unless a newer request superseded
// it.
func (l *rowList) answer(msg filteredMsg) bool {
	if msg.seq != l.seq || !l.pending {
		return false
	}
	l.pending = false
	l.take(msg.f, msg.matched, msg.order, l.sel)
	return true
}

// take shows rows, selecting row sel (or the nearest shown).
func (l *rowList) take(f filterState, kept []int32, order table.Order, sel int32) {
	l.applied, l.matched, l.order = f, kept, order
	l.tbl.SetLen(order.Len())
	if sel >= 0 {
		l.tbl.SetCursor(order.Nearest(sel))
	}
}

// row returns the row at list position p (-1 for none).
func (l *rowList) row(p int) int32 {
	if p < 0 || p >= l.order.Len() {
		return -1
	}
	return l.order.At(p)
}

// selected returns the selected row, -1 for none.
func (l *rowList) selected() int32 { return l.row(l.tbl.Cursor()) }

// selectRow puts the cursor on row r; false when it is not shown.
func (l *rowList) selectRow(r int32) bool {
	p, ok := l.order.Find(r)
	if ok {
		l.tbl.SetCursor(p)
	}
	return ok
}

// pickSort applies the sort menu's choice of column c: that column, or
// the same one reversed.
func (l *rowList) pickSort(c int) {
	if l.sort.col == c {
		l.sort.desc = !l.sort.desc
	} else {
		l.sort = sortState{col: c}
	}
}
