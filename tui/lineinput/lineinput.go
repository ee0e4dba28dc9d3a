// Package lineinput is the one-line text input of the filter: type to
// append, backspace to delete, ctrl+u to clear, paste to insert. (bubbles'
// textinput pulls in a clipboard module twice does not depend on.)
package lineinput

import (
	"strings"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"

	"github.com/twice-cli/twice/catalyst/safetext"
	"github.com/twice-cli/twice/tui/format"
)

// Model is a one-line input; the cursor is always at the end.
type Model struct {
	// Prompt is shown before the value.
	Prompt string
	// Limit caps the value's length in bytes (0: no cap).
	Limit int
	value string
}

// Value returns the text typed.
func (m *Model) Value() string { return m.value }

// SetValue replaces the text.
func (m *Model) SetValue(s string) { m.value = m.capped(s) }

// Update edits the value for a key press or a paste and reports whether it
// changed.
func (m *Model) Update(msg tea.Msg) bool {
	old := m.value
	switch msg := msg.(type) {
	case tea.PasteMsg:
		m.value = m.capped(m.value + strings.Join(strings.Fields(msg.Content), " "))
	case tea.KeyPressMsg:
		switch msg.String() {
		case "backspace", "ctrl+h":
			if m.value != "" {
				_, size := utf8.DecodeLastRuneInString(m.value)
				m.value = m.value[:len(m.value)-size]
			}
		case "ctrl+u":
			m.value = ""
		case "ctrl+w":
			v := strings.TrimRight(m.value, " ")
			m.value = v[:strings.LastIndexByte(v, ' ')+1]
		default:
			if msg.Text != "" && msg.Mod&^tea.ModShift == 0 {
				m.value = m.capped(m.value + msg.Text)
			}
		}
	}
	return m.value != old
}

// View renders the prompt, the value (sanitized) and a cursor, cut from the
// left to fit width columns.
func (m *Model) View(width int) string {
	s := m.Prompt + safetext.Line(m.value) + "▌"
	if w := format.Width(s); w > width && width > 1 {
		return format.TruncateLeft(s, w-width+1)
	}
	return s
}

func (m *Model) capped(s string) string {
	if m.Limit > 0 && len(s) > m.Limit {
		s = s[:m.Limit]
		for len(s) > 0 && !utf8.ValidString(s) {
			s = s[:len(s)-1]
		}
	}
	return s
}
