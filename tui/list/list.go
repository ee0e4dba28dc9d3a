// Package list is the list every pane of the TUI shows — the run list, each
// tab of the run view: the items of a source, filtered (a query and the
// toggles) and sorted (the sort menu's columns), laid out as lines — an
// item may be followed by lines of its own, as an invocation by its
// attempts — with a cursor and a window over them (table.Model), so a frame
// costs the lines on screen, not the list.
//
// A list of more than SyncRows items is filtered and sorted in a command,
// off the UI goroutine, so a key press never waits for a million rows: the
// old lines stay on screen, marked "filtering…", until the new ones arrive
// (FilteredMsg, which the list's pane hands back with Take); a newer
// request drops an older answer.
package list

import (
	tea "charm.land/bubbletea/v2"

	"github.com/twice-cli/twice/tui/format"
	"github.com/twice-cli/twice/tui/table"
)

// SyncRows is the number of items up to which a list filters and sorts on
// the UI goroutine (well under a millisecond for a filter).
const SyncRows = 100_000

// Source is what a list shows, as of now: how many items, which of them
// match a filter, and the columns they sort by. Select and the columns'
// Compare may run off the UI goroutine: they must read only what does not
// change while the list shows it (a history, its index; a snapshot).
type Source struct {
	Len int
	// Select returns the items matching f, ascending: of the items in from
	// when from is not nil (f narrows the filter that gave them), else of
	// all. nil: the source cannot filter yet (its index is being built):
	// the list shows every item, and says it waits (Waiting).
	Select func(f Filter, from []int32) []int32
	// Columns are the columns the items sort by; the first is the
	// default.
	Columns []Column
	// Unknown is set while the items are not known yet (detect runs):
	// the count says "…".
	Unknown bool
}

// FilteredMsg carries the items a filter or sort command computed for a
// list. A pane gives it to its lists (Take); only the list that asked, for
// its latest request, takes it.
type FilteredMsg struct {
	to      *Model
	seq     int
	f       Filter
	matched []int32
	order   table.Order
}

// Model is a list. Its zero value is an empty list in its items' own order;
// set SyncMax and Lines before the first Reset.
type Model struct {
	// SyncMax, when set, is the number of items up to which the list is
	// filtered on the UI goroutine (default SyncRows): a list whose items
	// are costly to test goes to a command sooner.
	SyncMax int
	// Lines, when set, lays the items shown out with lines of their own
	// (Sparse, Dense); nil: one line per item.
	Lines func(order table.Order) Layout

	tbl     table.Model
	total   int
	unknown bool
	waiting bool
	applied Filter
	matched []int32
	// changed is set when the items changed in place since matched was
	// computed (Changed): the next filter tests every item.
	changed bool
	order   table.Order
	layout  Layout
	sort    Sort
	// seq numbers filter and sort requests; pending is set while a
	// command runs, and sel is the item to select when it answers.
	seq     int
	pending bool
	sel     int32
	// kept and keptOff are the line and scroll position remembered across
	// new data (Remember, Load).
	kept    Row
	keptOff int
	// lead, for a list that follows another (Follow), is that list.
	lead *Model
	// gen counts the layouts of a lead's items; a follower with Lines of
	// its own lays them out again when it differs from laid (-1: now).
	gen, laid int
}

// Follow makes l show lead's items, in lead's filter and order, with a
// cursor of its own (the Timeline shows the Invocations' items): l's
// filter, sort and count are lead's. With Lines set, l lays those items
// out with lines of its own (the Timeline's folded attempts); Relayout
// when they change.
func (l *Model) Follow(lead *Model) { l.lead = lead }

// Follows reports whether l and o show the same items in the same order
// (one follows the other, or they are one list).
func (l *Model) Follows(o *Model) bool { return l.owner() == o.owner() }

// owner is the list whose items, filter and sort l shows.
func (l *Model) owner() *Model {
	if l.lead != nil {
		return l.lead
	}
	return l
}

// Reset forgets the items for new data of n items: nothing filtered,
// nothing pending, the sort kept.
func (l *Model) Reset(n int) {
	if l.lead != nil {
		return
	}
	l.seq++
	l.total, l.pending, l.waiting = n, false, false
	l.applied, l.matched = Filter{}, nil
	l.order = table.NewOrder(n, nil, nil)
	l.relayout()
}

// Remember notes the selected line and the scroll position before the
// data changes; Load restores them, and Keep replaces the line (a pane that
// finds it again by its own key).
func (l *Model) Remember() { l.kept, l.keptOff = l.Selected(), l.tbl.Offset() }

// Keep sets the line Load restores.
func (l *Model) Keep(r Row) { l.kept = r }

// Load shows new data from src with filter f. With keep (the same data,
// refreshed) the remembered line and scroll position stay; otherwise, or
// when nothing was selected, item fallback (-1: the first line) is. A list
// that follows another loads nothing: its lead does.
func (l *Model) Load(src Source, f Filter, keep bool, fallback int32) tea.Cmd {
	if l.lead != nil {
		return nil
	}
	kept, off := l.kept, l.keptOff
	if !keep {
		kept = Row{-1, -1}
	}
	l.Reset(src.Len)
	l.tbl.SetCursor(0)
	sel := fallback
	if kept.Item >= 0 {
		sel = kept.Item
	}
	cmd := l.Apply(src, f, sel)
	switch {
	case kept.Item >= 0:
		if l.Select(kept) {
			l.tbl.SetView(l.tbl.Cursor(), off)
		}
	case fallback >= 0:
		l.Select(Row{fallback, -1})
	}
	return cmd
}

// Apply shows the items of src matching f in the list's sort, keeping item
// sel selected (its nearest when hidden): at once for a small list, in the
// command it returns for a large one.
func (l *Model) Apply(src Source, f Filter, sel int32) tea.Cmd {
	if l.lead != nil {
		return l.lead.Apply(src, f, sel)
	}
	l.seq++
	l.pending = false
	l.total, l.unknown = src.Len, src.Unknown
	if src.Select == nil {
		// Nothing can be filtered yet: every item, in its own order.
		l.waiting = f.Active()
		l.take(Filter{}, nil, table.NewOrder(src.Len, nil, nil), sel)
		return nil
	}
	l.waiting = false
	var from []int32
	if l.matched != nil && f.Narrows(l.applied) && f.Active() && !l.changed {
		from = l.matched
	}
	l.changed = false
	cmpf := comparator(src.Columns, l.sort)
	n, pick := src.Len, src.Select
	compute := func() ([]int32, table.Order) {
		var kept []int32
		if f.Active() {
			kept = pick(f, from)
			if kept == nil {
				kept = []int32{} // none: nil would be every item
			}
		}
		return kept, table.NewOrder(n, kept, cmpf)
	}
	limit := SyncRows
	if l.SyncMax > 0 {
		limit = l.SyncMax
	}
	if n <= limit || !f.Active() && cmpf == nil {
		// (All the items in their own order cost nothing to compute.)
		kept, order := compute()
		l.take(f, kept, order, sel)
		return nil
	}
	l.pending, l.sel = true, sel
	l.applied = f // the count and position say what is being computed
	msg := FilteredMsg{to: l, seq: l.seq, f: f}
	return func() tea.Msg {
		msg.matched, msg.order = compute()
		return msg
	}
}

// Changed says the items changed in place — their flags or their text (a
// run's analysis arrived) — so the next Apply tests every item rather than
// narrowing the last result.
func (l *Model) Changed() { l.owner().changed = true }

// Refilter applies f, unless it is what the list shows already.
func (l *Model) Refilter(src Source, f Filter) tea.Cmd {
	o := l.owner()
	if f == o.applied && !o.pending && !o.waiting {
		return nil
	}
	return l.Apply(src, f, l.SelectedItem())
}

// Resort applies the list's sort again (after PickSort), keeping the
// filter and the selected item.
func (l *Model) Resort(src Source) tea.Cmd {
	return l.Apply(src, l.owner().applied, l.SelectedItem())
}

// Take takes what a command computed, when it answers the list's latest
// request, and reports whether it did.
func (l *Model) Take(msg FilteredMsg) bool {
	if msg.to != l || msg.seq != l.seq || !l.pending {
		return false
	}
	l.pending = false
	l.take(msg.f, msg.matched, msg.order, l.sel)
	return true
}

// take shows items, selecting item sel (or the nearest shown).
func (l *Model) take(f Filter, kept []int32, order table.Order, sel int32) {
	l.applied, l.matched, l.order = f, kept, order
	l.relayout()
	if sel >= 0 {
		l.tbl.SetCursor(l.nearest(sel))
	}
}

// nearest is the line of item, or, when it is not shown, of the nearest
// item shown (order.Nearest).
func (l *Model) nearest(item int32) int {
	if p, ok := l.layout.Find(Row{item, -1}); ok {
		return p
	}
	k := l.order.Nearest(item)
	if k >= l.order.Len() {
		return l.layout.Len()
	}
	p, _ := l.layout.Find(Row{l.order.At(k), -1})
	return p
}

// Relayout lays the items shown out again (their lines changed: an item
// was opened); the cursor stays where it was, in range.
func (l *Model) Relayout() {
	if l.lead != nil {
		l.laid = -1
		l.sync()
		return
	}
	l.relayout()
}

func (l *Model) relayout() {
	l.gen++
	if l.Lines != nil {
		l.layout = l.Lines(l.order)
	} else {
		l.layout = flat{l.order}
	}
	l.tbl.SetLen(l.layout.Len())
}

// sync sizes a following list's cursor to its lead's items.
func (l *Model) sync() {
	if l.lead == nil {
		return
	}
	switch {
	case l.Lines == nil:
		l.layout = flat{l.lead.order}
	case l.laid != l.lead.gen || l.layout == nil:
		l.layout, l.laid = l.Lines(l.lead.order), l.lead.gen
	}
	if n := l.layout.Len(); l.tbl.Len() != n {
		l.tbl.SetLen(n)
	}
}

// SortState returns the list's sort.
func (l *Model) SortState() Sort { return l.owner().sort }

// SetSort sets the sort, for the next Apply (a list's initial sort).
func (l *Model) SetSort(s Sort) { l.owner().sort = s }

// PickSort applies the sort menu's choice of column c of cols: that
// column (in its first direction), or the same one reversed. Resort shows
// it.
func (l *Model) PickSort(c int, cols []Column) {
	o := l.owner()
	switch {
	case o.sort.Col == c:
		o.sort.Desc = !o.sort.Desc
	case c >= 0 && c < len(cols):
		o.sort = Sort{Col: c, Desc: cols[c].Desc}
	}
}

// Applied returns the filter the list shows (or is computing).
func (l *Model) Applied() Filter { return l.owner().applied }

// Pending reports whether a command is computing the list's items.
func (l *Model) Pending() bool { return l.owner().pending }

// Waiting reports whether a filter waits for the source to be able to
// filter (every item is shown meanwhile).
func (l *Model) Waiting() bool { return l.owner().waiting }

// Total is the number of items.
func (l *Model) Total() int { return l.owner().total }

// Shown is the number of items shown (matching the filter).
func (l *Model) Shown() int { return l.owner().order.Len() }

// Count is the list's size for a tab bar: "shown/total" when filtered,
// "…" while the items are not known.
func (l *Model) Count() string {
	o := l.owner()
	switch {
	case o.unknown:
		return "…"
	case o.applied.Active():
		return format.Count(len(o.matched)) + "/" + format.Count(o.total)
	}
	return format.Count(o.total)
}

// Position is "cursor/lines" for a tab bar, or what is being computed;
// "" while a filter waits, or with no lines.
func (l *Model) Position() string {
	o := l.owner()
	switch {
	case o.pending && o.applied.Active():
		return "filtering…"
	case o.pending:
		return "sorting…"
	case o.waiting:
		return ""
	}
	if l.lead != nil && o.tbl.Len() == 0 {
		return ""
	}
	l.sync()
	if l.tbl.Len() == 0 {
		return ""
	}
	return format.Count(l.tbl.Cursor()+1) + "/" + format.Count(l.tbl.Len())
}

// Table is the list's cursor and window over its lines.
func (l *Model) Table() *table.Model {
	l.sync()
	return &l.tbl
}

// SetHeight sets how many lines fit on screen.
func (l *Model) SetHeight(h int) { l.tbl.SetHeight(h) }

// Len is the number of lines.
func (l *Model) Len() int {
	l.sync()
	return l.tbl.Len()
}

// At returns the line at position p ({-1, -1} out of range).
func (l *Model) At(p int) Row {
	l.sync()
	if p < 0 || l.layout == nil || p >= l.layout.Len() {
		return Row{-1, -1}
	}
	return l.layout.At(p)
}

// Selected returns the selected line ({-1, -1} for none).
func (l *Model) Selected() Row { return l.At(l.Table().Cursor()) }

// SelectedItem returns the selected line's item, -1 for none.
func (l *Model) SelectedItem() int32 { return l.Selected().Item }

// Select puts the cursor on line r (on its item's own line when r's is not
// shown); false when the item is not shown. While a command computes the
// lines, r's item is also the one selected when it answers.
func (l *Model) Select(r Row) bool {
	l.sync()
	if l.lead == nil && l.pending {
		l.sel = r.Item
	}
	if l.layout == nil {
		return false
	}
	p, ok := l.layout.Find(r)
	if ok {
		l.tbl.SetCursor(p)
	}
	return ok
}
