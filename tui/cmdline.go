package tui

import (
	"strings"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/twice-cli/twice/catalyst/safetext"
	"github.com/twice-cli/twice/tui/common"
)

// The command line (:), k9s's and vim's habit, for what has a key: ":q"
// quits, ":help" opens the help, ":tab timeline", ":sort duration" and
// ":filter cus_4821" ask the pane on top (common.Commander), and any other
// text presses the key whose help words it is (":failed only" is f,
// ":refresh" is R) or the key it names (":f"). What names nothing is
// answered, never ignored: "no such command".

// openCommand opens the command line on the status line.
func (m *Model) openCommand(tea.KeyPressMsg) tea.Cmd {
	m.commanding = true
	m.cmdline.SetValue("")
	return nil
}

// cancelCommand closes the command line.
func (m *Model) cancelCommand(tea.KeyPressMsg) tea.Cmd {
	m.commanding = false
	return nil
}

// typeCommand edits the command line.
func (m *Model) typeCommand(msg tea.KeyPressMsg) tea.Cmd {
	m.cmdline.Update(msg)
	return nil
}

// runCommand closes the command line and runs what was typed.
func (m *Model) runCommand(tea.KeyPressMsg) tea.Cmd {
	m.commanding = false
	return m.command(m.cmdline.Value())
}

// command runs one command line.
func (m *Model) command(line string) tea.Cmd {
	text := strings.TrimSpace(line)
	if text == "" {
		return nil
	}
	verb, arg, _ := strings.Cut(text, " ")
	arg = strings.TrimSpace(arg)
	switch strings.ToLower(verb) {
	case "q", "q!", "quit", "qa", "wq", "x", "exit":
		return tea.Quit
	case "help", "h", "?":
		m.showHelp = true
		return nil
	}
	if c, ok := m.top().(common.Commander); ok {
		cmd, known, err := c.Command(verb, arg)
		switch {
		case err != nil:
			m.setError(safetext.Line(err.Error()))
			return nil
		case known:
			return cmd
		}
	}
	if msg, ok := m.keyOf(text); ok {
		return m.handleKey(msg)
	}
	m.setError("no such command: :" + safetext.Line(text) + "; ? lists keys, and : takes a key's words (:failed only), " +
		":tab NAME, :sort COLUMN, :filter TEXT, :q")
	return nil
}

// keyOf finds the key press a command line names: a key of the pane on
// top or of the root, by its help words ("failed only") or one of its
// keys ("f").
func (m *Model) keyOf(text string) (tea.KeyPressMsg, bool) {
	all := append(m.top().Keys().Bindings, m.bindings...)
	for _, byWords := range []bool{true, false} {
		for _, b := range all {
			keys := b.Key.Keys()
			if len(keys) == 0 {
				continue
			}
			if byWords && !strings.EqualFold(b.Key.Help().Desc, text) {
				continue
			}
			if !byWords && !containsKey(keys, text) {
				continue
			}
			k := text
			if byWords {
				k = keys[0]
			}
			if msg, ok := keyPress(k); ok {
				return msg, true
			}
		}
	}
	return tea.KeyPressMsg{}, false
}

func containsKey(keys []string, k string) bool {
	for _, x := range keys {
		if x == k {
			return true
		}
	}
	return false
}

// keyPress is the key press a key's name stands for ("f", "enter",
// "ctrl+d"); false for a name it does not know.
func keyPress(name string) (tea.KeyPressMsg, bool) {
	special := map[string]rune{
		"enter": tea.KeyEnter, "esc": tea.KeyEscape, "tab": tea.KeyTab, "space": tea.KeySpace,
		"up": tea.KeyUp, "down": tea.KeyDown, "left": tea.KeyLeft, "right": tea.KeyRight,
		"home": tea.KeyHome, "end": tea.KeyEnd, "pgup": tea.KeyPgUp, "pgdown": tea.KeyPgDown,
	}
	if r, ok := special[name]; ok {
		msg := tea.KeyPressMsg{Code: r}
		if r == tea.KeySpace {
			msg.Text = " "
		}
		return msg, true
	}
	if rest, ok := strings.CutPrefix(name, "ctrl+"); ok && utf8.RuneCountInString(rest) == 1 {
		r, _ := utf8.DecodeRuneInString(rest)
		return tea.KeyPressMsg{Code: r, Mod: tea.ModCtrl}, true
	}
	if utf8.RuneCountInString(name) == 1 {
		r, _ := utf8.DecodeRuneInString(name)
		return tea.KeyPressMsg{Code: r, Text: name}, true
	}
	return tea.KeyPressMsg{}, false
}

// commandBindings are the command line's keys: enter runs it, esc closes
// it, any other key edits it.
func (m *Model) commandBindings() []common.Binding {
	k := &m.c.Keys
	run, cancel := k.Enter, k.Back
	run.SetHelp("enter", "run command")
	cancel.SetHelp("esc", "cancel")
	return []common.Binding{
		{Key: run, In: onCommand, Bar: onCommand, Do: m.runCommand},
		{Key: cancel, In: onCommand, Bar: onCommand, Do: m.cancelCommand},
		{Key: key.NewBinding(key.WithHelp("type", "a command")), In: onCommand, Do: m.typeCommand},
	}
}
