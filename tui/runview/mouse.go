package runview

import (
	tea "charm.land/bubbletea/v2"
)

// click selects what was clicked: a tab in the tab bar, a row of the list
// (the detail pane takes the focus when it is clicked).
func (m *Model) click(ev tea.Mouse) tea.Cmd {
	if ev.Button != tea.MouseLeft || m.d.h == nil {
		return nil
	}
	top := m.headerHeight()
	if ev.Y == top {
		if t := m.tabAt(ev.X); t >= 0 && t != m.tab {
			return m.SetTab(t)
		}
		return nil
	}
	y := ev.Y - top - 1
	a := m.fitted
	switch m.areaAt(ev.X, y) {
	case areaList:
		m.setFocus(false)
		tbl := m.tabs[m.tab].list().Table()
		if row := tbl.Offset() + y - 1; y >= 1 && row < tbl.Offset()+tbl.Height() && row < tbl.Len() {
			tbl.SetCursor(row)
			if c, ok := m.tabs[m.tab].(clicker); ok {
				c.clickAt(ev.X)
			}
		}
	case areaDetail:
		m.setFocus(a.dw > 0)
	}
	return nil
}

// wheel scrolls the pane under the pointer.
func (m *Model) wheel(ev tea.Mouse) {
	if m.d.h == nil {
		return
	}
	const step = 3
	delta := step
	switch ev.Button {
	case tea.MouseWheelUp:
		delta = -step
	case tea.MouseWheelDown:
	default:
		return
	}
	switch m.areaAt(ev.X, ev.Y-m.headerHeight()-1) {
	case areaList:
		m.tabs[m.tab].list().Table().Move(delta)
	case areaDetail:
		if delta > 0 {
			m.detail.ScrollDown(delta)
		} else {
			m.detail.ScrollUp(-delta)
		}
	}
}

// Areas of the body a pointer can be over.
const (
	areaNone = iota
	areaList
	areaDetail
)

// areaAt returns the area at column x, body line y.
func (m *Model) areaAt(x, y int) int {
	a := m.fitted
	switch {
	case y < 0:
		return areaNone
	case a.lw == 0:
		return areaDetail
	case a.dw == 0:
		return areaList
	case m.width >= wideLayout && x < a.lw:
		return areaList
	case m.width >= wideLayout && x > a.lw:
		return areaDetail
	case m.width < wideLayout && y < a.lh:
		return areaList
	case m.width < wideLayout && y > a.lh:
		return areaDetail
	}
	return areaNone
}
