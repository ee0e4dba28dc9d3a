package runview

import (
	"strings"

	"github.com/twice-cli/twice/catalyst/safetext"
	"github.com/twice-cli/twice/tui/format"
	"github.com/twice-cli/twice/tui/list"
)

// layout sizes the tabs and the detail pane for the current size, and
// redraws the detail pane (it may have been hidden).
func (m *Model) layout() {
	m.fit()
	m.detailSel = ""
	m.syncDetail(false)
}

// areas are the sizes of the list (its heading included) and of the detail
// pane (its title included); a hidden detail pane has width 0, a hidden
// list width 0.
type areas struct{ lw, lh, dw, dh int }

// Widths of the wide layout: the list takes what its columns need,
// between minListWidth and what leaves the detail pane minDetailWidth; a
// list of free text (Events, Timeline) takes listShare/100 of the width,
// leaving the detail pane at most maxDetailWidth columns. A wide detail
// pane takes two thirds.
const (
	listShare      = 56
	minListWidth   = 40
	minDetailWidth = 44
	maxDetailWidth = 100
)

// Heights of the stacked layout: the list shows at least minListLines
// lines (its heading included) and, when it has the rows, up to
// comfortListLines or half the height; the detail pane keeps at least
// minDetailLines.
const (
	minListLines     = 6
	comfortListLines = 9
	minDetailLines   = 4
)

// fit applies the areas for the current size, detail size and rows; it
// costs nothing when they did not change.
func (m *Model) fit() {
	a := m.areas()
	if a == m.fitted {
		return
	}
	m.fitted = a
	for _, t := range m.tabs {
		h := a.lh
		if f, ok := t.(footer); ok {
			h -= f.footer(a.lh)
		}
		t.list().SetHeight(max(h-1, 0))
	}
	m.detail.SetSize(a.dw, a.dh)
	if a.dw == 0 && m.focusDetail {
		m.setFocus(false)
	}
	if a.lw == 0 && a.dw > 0 && !m.focusDetail {
		m.setFocus(true)
	}
}

// body is the height below the header and the tab bar.
func (m *Model) body() int { return max(m.height-m.headerHeight()-1, 0) }

// areas returns the list's and the detail pane's sizes. On wide terminals
// the detail pane is beside the list; on narrow ones it is below the list,
// which gets as many lines as it has rows, between a floor and a
// comfortable share. The detail pane is hidden when sized so, or when
// there is no room; full, it takes the whole body.
func (m *Model) areas() areas {
	body := m.body()
	if m.d.h == nil || m.detailSize == detailHidden {
		return areas{lw: m.width, lh: body}
	}
	if m.detailSize == detailFull {
		return areas{lh: body, dw: m.width, dh: body}
	}
	if m.width >= wideLayout {
		lw := m.listWidth()
		return areas{lw: lw, lh: body, dw: m.width - lw - 1, dh: body}
	}
	if body < minListLines+1+minDetailLines {
		return areas{lw: m.width, lh: body}
	}
	rows := m.tabs[m.tab].list().Len() + 1
	lh := min(rows, max(comfortListLines, body/2))
	if m.detailSize == detailWide {
		lh = body / 3
	}
	lh = min(max(lh, minListLines), body-1-minDetailLines)
	return areas{lw: m.width, lh: lh, dw: m.width, dh: body - lh - 1}
}

// listWidth is the list's width beside the detail pane: what the tab's
// columns need, the rest to the detail pane.
func (m *Model) listWidth() int {
	if m.detailSize == detailWide {
		return max(m.width/3, minListWidth)
	}
	most := m.width - 1 - minDetailWidth
	if need := m.tabs[m.tab].need(m.body()); need > 0 {
		lw := min(max(need, minListWidth), most)
		if u, ok := m.tabs[m.tab].(user); ok {
			// The columns that fit may leave blank width (one too wide
			// to show was hidden): it goes to the detail pane.
			lw = max(u.used(lw), minListWidth)
		}
		return lw
	}
	return min(max(m.width*listShare/100, m.width-1-maxDetailWidth), most)
}

// headerHeight is the number of lines above the tab bar: the run, why it
// failed (when it did), its facts and its link.
func (m *Model) headerHeight() int {
	if m.d.h != nil && format.RunWhy(m.d.h) != "" {
		return 4
	}
	return 3
}

// View renders the run view at its size: exactly height lines.
func (m *Model) View() string {
	if m.width <= 0 || m.height <= 0 {
		return ""
	}
	lines := make([]string, 0, m.height)
	lines = append(lines, m.header()...)
	lines = append(lines, m.tabBar())
	a := m.areas()
	switch {
	case a.lw == 0 && a.dw > 0:
		for _, l := range strings.Split(m.detail.View(), "\n") {
			lines = append(lines, format.Pad(l, m.width))
		}
	case a.dw == 0:
		lines = append(lines, m.list(a.lw, a.lh)...)
	case m.width >= wideLayout:
		body := m.list(a.lw, a.lh)
		side := strings.Split(m.detail.View(), "\n")
		sep := m.c.Styles.Faint.Render("│")
		for i := range body {
			d := ""
			if i < len(side) {
				d = side[i]
			}
			lines = append(lines, body[i]+sep+format.Pad(d, a.dw))
		}
	default:
		lines = append(lines, m.list(a.lw, a.lh)...)
		lines = append(lines, m.c.Styles.Faint.Render(strings.Repeat("─", m.width)))
		for _, l := range strings.Split(m.detail.View(), "\n") {
			lines = append(lines, format.Pad(l, a.dw))
		}
	}
	for len(lines) < m.height {
		lines = append(lines, "")
	}
	return strings.Join(lines[:m.height], "\n")
}

// list renders the list area: the tab's rows, or why there are none.
func (m *Model) list(w, h int) []string {
	var lines []string
	switch {
	case m.absent != nil:
		lines = []string{""}
		for _, l := range m.absentLines {
			for _, wl := range format.Wrap(l, max(w-1, 1)) {
				lines = append(lines, " "+wl)
			}
		}
	case m.d.h == nil && m.loadErr != "":
		// The whole error, wrapped: it says what to do next, usually at
		// its end.
		lines = []string{""}
		for _, l := range format.Wrap(safetext.Line(m.loadErr), max(w-1, 1)) {
			lines = append(lines, " "+m.c.Styles.Error.Render(l))
		}
		lines = append(lines, " "+format.Fit("press R to retry, esc to go back", w-1))
	case m.d.h == nil:
		lines = []string{"", " " + format.Fit(m.spin.View()+" "+m.loadingText(), w-1)}
	default:
		lines = m.tabs[m.tab].lines(w, h)
	}
	for i := range lines {
		lines[i] = format.Pad(lines[i], w)
	}
	for len(lines) < h {
		lines = append(lines, strings.Repeat(" ", w))
	}
	return lines[:h]
}

// loadingText says what the view waits on, for how long, and what the
// source is doing (a retry).
func (m *Model) loadingText() string {
	what := m.loading
	if what == "" {
		return "loading: no run open"
	}
	return "loading run " + what + m.c.Waiting(m.loadSince) + "…"
}

// tabBar renders the tab names with their counts, the active one marked by
// brackets and reverse video, and on the right the position, the sort and
// the filter; or the filter being typed, or the sort menu.
func (m *Model) tabBar() string {
	if m.d.h == nil {
		return strings.Repeat(" ", m.width)
	}
	var b strings.Builder
	for i, t := range m.tabs {
		name := t.title() + " " + t.list().Count()
		if i == m.tab {
			b.WriteString(m.c.Styles.TabOn.Render("[" + name + "]"))
		} else {
			b.WriteString(m.c.Styles.TabOff.Render(" " + name + " "))
		}
		b.WriteString(" ")
	}
	left := b.String()
	var right string
	switch {
	case m.typing:
		right = m.input.View(max(m.width/2, 10))
	case m.sorting:
		t := m.tabs[m.tab]
		menu := list.SortMenu(t.source().Columns, t.list().SortState())
		return format.Pad(m.c.Styles.Info.Render(format.Fit(menu, m.width)), m.width)
	default:
		// The tab's note shortens, then goes, before the counts are cut.
		right = m.tabBarRight("")
		if n, ok := m.tabs[m.tab].(noter); ok {
			for _, long := range []bool{true, false} {
				if r := m.tabBarRight(n.note(long)); format.Width(r) < m.width-format.Width(left) {
					right = r
					break
				}
			}
		}
	}
	room := m.width - format.Width(left)
	if room < format.Width(right)+1 {
		return format.Pad(format.Fit(left, m.width-min(format.Width(right), m.width/2)-1)+" "+format.Fit(right, m.width/2), m.width)
	}
	return left + format.PadLeft(right, room)
}

// tabBarRight is the tab bar's right side: the filter, the sort, the
// tab's note and its position.
func (m *Model) tabBarRight(note string) string {
	var parts []string
	if f := m.filterText(); f != "" {
		parts = append(parts, f)
	}
	t := m.tabs[m.tab]
	if s := list.SortText(t.source().Columns, t.list().SortState()); s != "" {
		parts = append(parts, s)
	}
	if note != "" {
		parts = append(parts, note)
	}
	if p := t.list().Position(); p != "" {
		parts = append(parts, p)
	}
	return strings.Join(parts, "  ")
}

// tabAt returns the tab whose name is at column x of the tab bar, -1 for
// none.
func (m *Model) tabAt(x int) int {
	at := 0
	for i, t := range m.tabs {
		w := format.Width(t.title()+" "+t.list().Count()) + 2
		if x >= at && x < at+w {
			return i
		}
		at += w + 1
	}
	return -1
}

// filterText describes the active filter ("filter: /charge failed").
func (m *Model) filterText() string {
	if f := m.filter.Text(); f != "" {
		return "filter: " + f
	}
	return ""
}
