// Package table is the cursor and scroll window over a list of rows that
// every list pane uses. It knows only how many rows there are; the pane
// renders the rows in the window, so a frame costs the visible rows, not the
// list (a history of a million events scrolls as fast as one of ten).
package table

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/twice-cli/twice/tui/common"
)

// Model is a cursor over n rows and the window of rows on screen.
type Model struct {
	n      int
	cursor int
	offset int
	height int
}

// Len returns the number of rows.
func (m *Model) Len() int { return m.n }

// SetLen changes the number of rows, keeping the cursor and the window in
// range.
func (m *Model) SetLen(n int) {
	m.n = max(n, 0)
	m.clamp()
}

// SetHeight sets how many rows fit on screen.
func (m *Model) SetHeight(h int) {
	m.height = max(h, 0)
	m.clamp()
}

// Height returns how many rows fit on screen.
func (m *Model) Height() int { return m.height }

// Cursor returns the selected row, or -1 when there are no rows.
func (m *Model) Cursor() int {
	if m.n == 0 {
		return -1
	}
	return m.cursor
}

// Offset returns the first row on screen.
func (m *Model) Offset() int { return m.offset }

// SetCursor selects row i (clamped) and scrolls it into view.
func (m *Model) SetCursor(i int) {
	m.cursor = i
	m.clamp()
}

// SetView selects row i and puts the window's first row at offset, as far
// as both are in range and the cursor stays visible (used to keep the place
// when the rows change under the user).
func (m *Model) SetView(i, offset int) {
	m.cursor = i
	m.offset = offset
	m.clamp()
}

// Move moves the cursor by delta rows.
func (m *Model) Move(delta int) { m.SetCursor(m.cursor + delta) }

// Update moves the cursor for a navigation key and reports whether the key
// was one.
func (m *Model) Update(msg tea.KeyPressMsg, k *common.Keys) bool {
	half := max(m.height/2, 1)
	switch {
	case key.Matches(msg, k.Up):
		m.Move(-1)
	case key.Matches(msg, k.Down):
		m.Move(1)
	case key.Matches(msg, k.Top):
		m.SetCursor(0)
	case key.Matches(msg, k.Bottom):
		m.SetCursor(m.n - 1)
	case key.Matches(msg, k.PageDown):
		m.offset += half
		m.Move(half)
	case key.Matches(msg, k.PageUp):
		m.offset -= half
		m.Move(-half)
	default:
		return false
	}
	return true
}

// Window returns the rows on screen, [from, to).
func (m *Model) Window() (from, to int) {
	return m.offset, min(m.offset+m.height, m.n)
}

// Lines renders the window: one line per row on screen from row(i,
// selected), then blank lines up to the height.
func (m *Model) Lines(row func(i int, selected bool) string) []string {
	lines := make([]string, 0, m.height)
	from, to := m.Window()
	for i := from; i < to; i++ {
		lines = append(lines, row(i, i == m.cursor))
	}
	for len(lines) < m.height {
		lines = append(lines, "")
	}
	return lines
}

func (m *Model) clamp() {
	if m.n == 0 {
		m.cursor, m.offset = 0, 0
		return
	}
	m.cursor = min(max(m.cursor, 0), m.n-1)
	if m.height <= 0 {
		m.offset = m.cursor
		return
	}
	m.offset = min(max(m.offset, 0), max(m.n-m.height, 0))
	if m.cursor < m.offset {
		m.offset = m.cursor
	}
	if m.cursor >= m.offset+m.height {
		m.offset = m.cursor - m.height + 1
	}
}
