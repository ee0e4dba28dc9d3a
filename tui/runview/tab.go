package runview

import (
	tea "charm.land/bubbletea/v2"

	"github.com/twice-cli/twice/tui/common"
	"github.com/twice-cli/twice/tui/list"
)

// tab is one tab of the run view: the rows it lists, what its selected row
// is in full, and its keys. The view does the rest — the tab bar, the
// filter and the sort menu, the layout, the detail pane, the dispatch of
// keys — for every tab alike. A new tab is a type with these methods, in a
// file of its own, and a line in newTabs. (Compare soft-serve's
// TabComponent, charmbracelet/soft-serve v0.12.2,
// pkg/ui/common/component.go, and gh-dash's small interfaces that a
// section composes, dlvhdr/gh-dash v4.25.2,
// internal/tui/components/section/section.go.)
type tab interface {
	// title names the tab in the tab bar.
	title() string
	// list is the tab's rows — their filter, sort, cursor and window —
	// and source what they are now: how many, which match a filter, the
	// columns they sort by.
	list() *list.Model
	source() list.Source
	// load shows the view's data, new or refreshed (keep: the same run,
	// polled: the list's remembered row and scroll stay), filtered by f.
	load(keep bool, f list.Filter) tea.Cmd
	// lines renders the heading and the rows, exactly height lines; need
	// is the width its columns want (0: any it is given).
	lines(width, height int) []string
	need(height int) int
	// selection names the selected row ("event:12"; "" for none), for
	// the detail pane to know when it changed; describe renders it in
	// full, matches names what a filter query matched on it, and
	// copyTarget is what y copies of it and what that is (with text "":
	// why nothing can be, or "" too).
	selection() string
	describe() (title string, lines []string)
	matches(q string) []string
	copyTarget() (text, what string)
	// bindings are the tab's own keys, which apply while it is on screen,
	// before the view's (a tab's key may shadow one of the view's: the
	// Timeline's + zooms rather than widening the detail pane).
	bindings() []common.Binding
}

// What a tab may do besides (the view asks for it by these interfaces).
type (
	// rememberer notes the selection by more than its row before the data
	// changes (the Invocations tab, by the invocation's key: a poll may
	// renumber them).
	rememberer interface{ remember() }
	// legender explains the marks the tab shows, for the help screen.
	legender interface{ legend() []common.Legend }
	// footer keeps lines below the rows, of the height h the tab is
	// drawn at (the Timeline's legend).
	footer interface{ footer(h int) int }
	// user is a tab whose columns, laid out at a width, may use less of
	// it: used is the width they take.
	user interface{ used(width int) int }
	// noter has a note for the tab bar's right side, before its position
	// (the Timeline's zoom); long or short, "" for none.
	noter interface{ note(long bool) string }
	// clicker is told the column of a click on its selected row, just
	// selected (the Timeline selects the attempt under the pointer).
	clicker interface{ clickAt(x int) }
)

// newTabs are the run view's tabs, in order (the Tab… constants name their
// places): the Code tab only when source was given.
func newTabs(d *viewData) []tab {
	inv := newInvocationsTab(d)
	tabs := []tab{inv, newTimelineTab(d, inv), newEventsTab(d), newFindingsTab(d)}
	if d.code != nil {
		tabs = append(tabs, newCodeTab(d))
	}
	return tabs
}

// Tabs of the run view, as newTabs orders them. TabCode is there only when
// source was given (SetCode).
const (
	TabInvocations = iota
	TabTimeline
	TabEvents
	TabFindings
	TabCode
)

// tabOf returns the view's tab of type T; false when it has none.
func tabOf[T tab](d *viewData) (T, bool) {
	for _, t := range d.tabs {
		if t, ok := t.(T); ok {
			return t, true
		}
	}
	var none T
	return none, false
}

// showMsg switches the view to tab to and selects a row there (enter on a
// finding shows its invocation; on its evidence, the event; on its code,
// the Code row): the first of rows the filter shows, else — the filter
// cleared — the first. open, if set, prepares the tab first (expands the
// invocation).
type showMsg struct {
	to   *viewData
	tab  tab
	rows []list.Row
	open func()
}

// detailMsg asks the view to show the selected row in the detail pane
// and give the pane the keys (enter on a Timeline attempt).
type detailMsg struct{ to *viewData }

// show returns the command that asks the view to show rows of tab t.
func (d *viewData) show(t tab, open func(), rows ...list.Row) tea.Cmd {
	msg := showMsg{to: d, tab: t, rows: rows, open: open}
	return func() tea.Msg { return msg }
}

// pick selects the first of rows list l shows; while l computes its rows,
// the first of them, when it answers.
func pick(l *list.Model, rows []list.Row) bool {
	for _, r := range rows {
		if l.Select(r) && !l.Pending() {
			return true
		}
	}
	if l.Pending() && len(rows) > 0 {
		l.Select(rows[0])
		return true
	}
	return false
}
