package tui

import (
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/safetext"
	"github.com/twice-cli/twice/tui/common"
	"github.com/twice-cli/twice/tui/format"
)

// View renders the window: the banner, the pane (or the help screen), the
// status line and the key bar. The window title carries only a validated
// run id.
func (m *Model) View() tea.View {
	v := tea.NewView(m.render())
	v.AltScreen = true
	// The wheel scrolls the pane under the pointer and a click selects a
	// row (hold shift to select text with the terminal).
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = "twice"
	if id := m.top().title(); id != "" && catalyst.IsPlainID(id) {
		v.WindowTitle = "twice · " + id
	}
	return v
}

// render returns the screen's text, exactly height lines of width columns.
func (m *Model) render() string {
	if m.width <= 0 || m.height <= 0 {
		return ""
	}
	var b strings.Builder
	if m.opts.Banner != "" {
		b.WriteString(format.Pad(m.c.Styles.Banner.Render(format.Fit(safetext.Line(m.opts.Banner), m.width)), m.width))
		b.WriteByte('\n')
	}
	paneHeight := m.paneHeight()
	if m.showHelp {
		b.WriteString(m.helpView(paneHeight))
	} else {
		b.WriteString(m.top().View())
	}
	if paneHeight > 0 {
		b.WriteByte('\n')
	}
	b.WriteString(m.statusView())
	b.WriteByte('\n')
	b.WriteString(m.keyBar())
	return b.String()
}

// statusView is the status line: the last message (an error, which says
// what to do next, wrapped over up to maxStatusRows lines), and follow mode
// on the right of its first line.
func (m *Model) statusView() string {
	s := m.c.Styles
	right := m.followState()
	text := ""
	if m.statusCurrent() {
		text = safetext.Line(m.status.text)
	}
	if text == "" && !m.showHelp {
		text = m.top().note()
	}
	room := max(m.width-m.followWidth(), 0)
	lines := []string{format.Fit(text, room)}
	if m.commanding {
		lines = []string{format.Pad(m.cmdline.View(room), m.width)}
		return strings.Join(append(lines, padLines(m.statusRows-1, m.width)...), "\n")
	}
	if m.status.err {
		lines = format.Wrap("✗ "+text, max(room, 1))
		if len(lines) > m.statusRows {
			lines = lines[:m.statusRows]
			lines[len(lines)-1] = format.Fit(lines[len(lines)-1]+" …", room)
		}
	}
	for i, l := range lines {
		if m.status.err {
			l = s.Error.Render(l)
		} else {
			l = s.Info.Render(l)
		}
		if i == 0 && right != "" {
			lines[i] = format.Pad(l, room) + " " + s.New.Render(format.Fit(right, m.width-room-1))
			continue
		}
		lines[i] = format.Pad(l, m.width)
	}
	for len(lines) < m.statusRows {
		lines = append(lines, format.Pad("", m.width))
	}
	return strings.Join(lines, "\n")
}

// followWidth is the room follow mode's mark takes on the status line's
// right (0 when not following).
func (m *Model) followWidth() int {
	if right := m.followState(); right != "" {
		return format.Width(right) + 1
	}
	return 0
}

// keyBar is the one-line help at the bottom: the pane's keys that apply
// now (its KeyMap's Bar), as many as fit, then the root's ("? help" and
// "q quit", for which room is kept; none while the pane reads text).
func (m *Model) keyBar() string {
	var keys []key.Binding
	if !m.showHelp && !m.commanding {
		keys = m.top().Keys().Bar()
	}
	text := func(b key.Binding) string { return b.Help().Key + " " + b.Help().Desc }
	var tail []string
	for _, b := range m.keys().Bar() {
		tail = append(tail, text(b))
	}
	used := 0
	for _, t := range tail {
		used += format.Width(t) + 3
	}
	var parts []string
	for _, b := range keys {
		part := text(b)
		if used+format.Width(part)+3 > m.width {
			break
		}
		parts = append(parts, part)
		used += format.Width(part) + 3
	}
	return format.Pad(m.c.Styles.KeyBar.Render(strings.Join(append(parts, tail...), " · ")), m.width)
}

// helpView lists every key of the pane on screen, grouped, and what its
// marks mean, in as many columns as the width allows. Columns that do not
// fit are left out, and the title says so.
func (m *Model) helpView(height int) string {
	all := common.KeyMap{Bindings: append(slices.Clip(m.top().Keys().Bindings), m.bindings...)}
	groups, legends := all.Groups(&m.c.Keys), m.top().Legend()
	keys := make([]common.Legend, len(groups))
	for i, g := range groups {
		keys[i].Title = g.Title
		for _, k := range g.Keys {
			keys[i].Marks = append(keys[i].Marks, [2]string{k.Help().Key, k.Help().Desc})
		}
	}
	blocks := append(m.helpBlocks(keys), m.helpBlocks(legends)...)
	body := max(height-2, 1)
	var cols [][]string
	var col []string
	for _, bl := range blocks {
		if len(col) > 0 && len(col)+len(bl)-1 > body {
			cols = append(cols, col)
			col = nil
		}
		col = append(col, bl...)
	}
	if len(col) > 0 {
		cols = append(cols, col)
	}
	widths := make([]int, 0, len(cols))
	used := 0
	for _, c := range cols {
		w := 0
		for _, l := range c {
			w = max(w, format.Width(l))
		}
		if used > 0 && used+w > m.width {
			break
		}
		widths = append(widths, w+3)
		used += w + 3
	}
	title := m.c.Styles.Title.Render("Keys and marks") + " (? or esc closes)"
	if len(widths) < len(cols) {
		title += " · more in a wider window"
	}
	lines := []string{format.Pad(title, m.width), format.Pad("", m.width)}
	for i := 0; i < body; i++ {
		var row strings.Builder
		for ci, w := range widths {
			cell := ""
			if i < len(cols[ci]) {
				cell = cols[ci][i]
			}
			row.WriteString(format.Pad(cell, w))
		}
		lines = append(lines, format.Pad(row.String(), m.width))
	}
	return strings.Join(lines[:height], "\n")
}

// helpBlocks renders titled groups of the help screen: each key or mark,
// padded to the widest of all the groups, then what it does or means; a
// blank line closes each group.
func (m *Model) helpBlocks(groups []common.Legend) [][]string {
	keyWidth := 0
	for _, g := range groups {
		for _, e := range g.Marks {
			keyWidth = max(keyWidth, format.Width(e[0]))
		}
	}
	blocks := make([][]string, 0, len(groups))
	for _, g := range groups {
		block := []string{m.c.Styles.Title.Render(g.Title)}
		for _, e := range g.Marks {
			block = append(block, strings.TrimRight(format.Pad(e[0], keyWidth)+" "+e[1], " "))
		}
		blocks = append(blocks, append(block, ""))
	}
	return blocks
}

// padLines is n blank lines of width columns.
func padLines(n, width int) []string {
	out := make([]string, max(n, 0))
	for i := range out {
		out[i] = format.Pad("", width)
	}
	return out
}
