// Package detail is the pane that shows the selected row in full: every
// field, every attempt, stack traces and payloads, in a scrollable viewport.
// Its content is built by the pane that owns the selection, once per
// selection change, and wrapped here to the pane's width: at word
// boundaries, a continuation indented under its field, and a link never
// split across lines.
package detail

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/twice-cli/twice/tui/common"
	"github.com/twice-cli/twice/tui/format"
)

// Model is the detail pane.
type Model struct {
	c       *common.Common
	vp      viewport.Model
	title   string
	lines   []string
	width   int
	height  int
	focused bool
}

// New returns an empty detail pane.
func New(c *common.Common) Model {
	vp := viewport.New()
	vp.KeyMap = viewport.KeyMap{} // the pane's own keys scroll it; see Navigate
	vp.SetHorizontalStep(0)
	return Model{c: c, vp: vp}
}

// SetContent replaces what the pane shows: a title and lines of safe text
// (sanitized, possibly styled, no tabs). With keepScroll the scroll position
// is kept (the same row, refreshed); otherwise it returns to the top.
func (m *Model) SetContent(title string, lines []string, keepScroll bool) {
	y := m.vp.YOffset()
	m.title, m.lines = title, lines
	m.wrap()
	if keepScroll {
		m.vp.SetYOffset(y)
	} else {
		m.vp.GotoTop()
	}
}

// SetSize sets the pane's size, title line included.
func (m *Model) SetSize(width, height int) {
	if width == m.width && height == m.height {
		return
	}
	m.width, m.height = width, height
	m.vp.SetWidth(max(width, 0))
	m.vp.SetHeight(max(height-1, 0))
	m.wrap()
}

// SetFocused marks the pane as holding the keys' focus (its title says so).
func (m *Model) SetFocused(on bool) { m.focused = on }

// ScrollDown and ScrollUp scroll the pane by n lines.
func (m *Model) ScrollDown(n int) { m.vp.ScrollDown(n) }

// ScrollUp scrolls the pane up by n lines.
func (m *Model) ScrollUp(n int) { m.vp.ScrollUp(n) }

// Navigate scrolls the pane for a movement key (the pane has the focus):
// a line, half a page, the top or the bottom. It reports whether msg was
// one.
func (m *Model) Navigate(msg tea.KeyPressMsg, k *common.Keys) bool {
	half := max(m.vp.Height()/2, 1)
	switch {
	case key.Matches(msg, k.Down):
		m.vp.ScrollDown(1)
	case key.Matches(msg, k.Up):
		m.vp.ScrollUp(1)
	case key.Matches(msg, k.PageDown):
		m.vp.ScrollDown(half)
	case key.Matches(msg, k.PageUp):
		m.vp.ScrollUp(half)
	case key.Matches(msg, k.Top):
		m.vp.GotoTop()
	case key.Matches(msg, k.Bottom):
		m.vp.GotoBottom()
	default:
		return false
	}
	return true
}

// Lines returns the pane's content lines as given (for tests).
func (m *Model) Lines() []string { return m.lines }

// View renders exactly height lines of width columns: the title, then the
// visible part of the content.
func (m *Model) View() string {
	if m.height <= 0 || m.width <= 0 {
		return ""
	}
	title := m.title
	if m.focused {
		title = "▶ " + title
	}
	if !m.vp.AtTop() || !m.vp.AtBottom() {
		title += " " + m.scrollMark(m.vp.ScrollPercent())
	}
	head := format.Pad(m.c.Styles.Title.Render(format.Fit(title, m.width)), m.width)
	if m.height == 1 {
		return head
	}
	return head + "\n" + m.vp.View()
}

// lineCap bounds the work of wrapping one line. The panes that build the
// content cut each text to format.PayloadShowBytes of its source already
// and say so; escaped (a JSON string value: up to six bytes a character)
// that is longer, and a second cut here would count the escaped line's
// bytes, not the source's.
const lineCap = 8 * format.PayloadShowBytes

func (m *Model) wrap() {
	if m.width <= 0 {
		m.vp.SetContentLines(nil)
		return
	}
	out := make([]string, 0, len(m.lines))
	for _, l := range m.lines {
		out = append(out, wrapIndented(format.CapTail(l, lineCap), m.width)...)
	}
	m.vp.SetContentLines(out)
}

// wrapIndented wraps a line to width at word boundaries, indenting
// continuation lines like the first plus two columns, so that nested fields
// stay readable. A word is broken only when it is wider than a line; a
// link never is: one wider than the pane gets a line of its own, cut (y
// and Y copy it whole). A line that is one word (a link, an id) continues
// at its own indent: selecting it across the break picks up no spaces.
func wrapIndented(line string, width int) []string {
	if format.Width(line) <= width {
		return []string{line}
	}
	body := strings.TrimLeft(line, " ")
	indent := len(line) - len(body)
	hang := indent + 2
	if !strings.Contains(body, " ") {
		hang = indent
	}
	if g := gutter(line); g > 0 {
		hang = g // a line of source continues under its text, not its number
	}
	if hang > width/2 {
		hang, indent = 0, 0
		body = line
	}
	out := format.WrapHanging(body, width-indent, width-hang)
	for i := range out {
		if i == 0 {
			out[i] = strings.Repeat(" ", indent) + out[i]
		} else {
			out[i] = strings.Repeat(" ", hang) + out[i]
		}
	}
	return out
}

// gutter returns the width of a source line's gutter — "  37 │ " or
// "› 37 │ ", the mark possibly styled — or 0 when the line has none.
func gutter(line string) int {
	i := strings.Index(line, "│")
	if i < 0 || i > 48 {
		return 0
	}
	head := ansi.Strip(line[:i])
	num := strings.TrimLeft(strings.TrimSuffix(head, " "), " ›")
	if num == "" || len(num) == len(head) || strings.Trim(num, "0123456789") != "" {
		return 0
	}
	return format.Width(head) + 2 // "│ "
}

// scrollMark says how far the pane is scrolled and how to scroll it.
func (m *Model) scrollMark(p float64) string {
	var b strings.Builder
	b.WriteString("(")
	b.WriteString(format.Count(int(p*100 + 0.5)))
	if m.focused {
		b.WriteString("%, j/k ctrl+d/u)")
	} else {
		b.WriteString("%, J/K or l to scroll)")
	}
	return b.String()
}
