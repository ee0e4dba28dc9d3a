package runview

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/twice-cli/twice/tui/list"
)

// place is where the view was before a jump (enter on a finding's evidence
// shows the event, on a finding its invocation, on its └ code: row the Code
// row): the tab, its selected line and scroll, the filter, the detail
// pane's size and focus, and what a tab keeps besides (the Timeline's
// zoom). esc returns to it exactly (goBack); a child run is a screen of
// the root's, which keeps its own places.
type place struct {
	tab    int
	row    list.Row
	offset int
	filter list.Filter
	detail int
	focus  bool
	// kept is, per tab, what a placer tab keeps (nil for the others).
	kept []any
}

// placer is a tab that keeps more than its line in a place.
type placer interface {
	place() any
	restore(any)
}

// maxPlaces bounds the places kept: a long walk from finding to event to
// finding keeps the last ones.
const maxPlaces = 64

// here is the place the view is at.
func (m *Model) here() place {
	l := m.tabs[m.tab].list()
	p := place{tab: m.tab, row: l.Selected(), offset: l.Table().Offset(), filter: m.filter,
		detail: m.detailSize, focus: m.focusDetail, kept: make([]any, len(m.tabs))}
	for i, t := range m.tabs {
		if pl, ok := t.(placer); ok {
			p.kept[i] = pl.place()
		}
	}
	return p
}

// pushPlace keeps the place the view is at, before a jump.
func (m *Model) pushPlace() {
	if len(m.places) == maxPlaces {
		m.places = append(m.places[:0], m.places[1:]...)
	}
	m.places = append(m.places, m.here())
}

// goBack returns to the last place kept: its tab, filter, zoom, detail
// pane, and line at its scroll. A list still filtering (a long one, in a
// command) is given its line when its answer arrives (placeArrived).
func (m *Model) goBack() tea.Cmd {
	p := m.places[len(m.places)-1]
	m.places = m.places[:len(m.places)-1]
	m.tab = p.tab
	for i, t := range m.tabs {
		if pl, ok := t.(placer); ok && i < len(p.kept) && p.kept[i] != nil {
			pl.restore(p.kept[i])
		}
	}
	cmd := m.setFilter(p.filter)
	m.detailSize, m.excerptOpen = p.detail, false
	m.setFocus(p.focus)
	m.layout()
	m.restoreLine(p)
	m.syncDetail(false)
	return cmd
}

// restoreLine puts the cursor of p's tab back on p's line, at its scroll.
func (m *Model) restoreLine(p place) {
	l := m.tabs[p.tab].list()
	if l.Pending() {
		l.Select(p.row)
		m.arriving = &p
		return
	}
	m.arriving = nil
	if l.Select(p.row) {
		l.Table().SetView(l.Table().Cursor(), p.offset)
	}
}

// placeArrived gives a place's line to its list once the list's filter
// answered.
func (m *Model) placeArrived() {
	if p := m.arriving; p != nil && p.tab < len(m.tabs) && !m.tabs[p.tab].list().Pending() {
		m.restoreLine(*p)
	}
}

// jumped reports whether esc goes back to a place now: the key bar then
// shows it first.
func (m *Model) jumped() bool { return len(m.places) > 0 && !m.focusDetail }

// backHelp is what the key bar says of esc on a tab: where it goes.
func (m *Model) backHelp() key.Help {
	if m.jumped() {
		return key.Help{Key: "esc", Desc: "back to " + m.tabs[m.places[len(m.places)-1].tab].title()}
	}
	return m.c.Keys.Back.Help()
}
