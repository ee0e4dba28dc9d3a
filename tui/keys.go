package tui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/twice-cli/twice/tui/common"
)

// The root's states, for its bindings (common.Scope).
const (
	// onPane: the pane on top has the keys.
	onPane common.Scope = 1 << iota
	// onHelp: the help screen is open.
	onHelp
	// onText: the pane on top is reading text (its filter line): every key
	// but ctrl+c is its.
	onText
	// onCommand: the command line (:) is open: every key but ctrl+c is
	// its.
	onCommand
)

// keys returns the root's keys and its state.
func (m *Model) keys() common.KeyMap {
	return common.KeyMap{Bindings: m.bindings, Scope: m.scope()}
}

// scope is the state the root is in.
func (m *Model) scope() common.Scope {
	switch {
	case m.commanding:
		return onCommand
	case m.showHelp:
		return onHelp
	case m.top().Capturing():
		return onText
	}
	return onPane
}

// rootBindings are the root's keys, before the pane's: quit, help, and the
// run keys, which act on the screen on top (a pane places them on its key
// bar and in its help, common.Binding). Their key bar entries end every
// key bar (the help and quit), and the root keeps room for them.
func (m *Model) rootBindings() []common.Binding {
	k := &m.c.Keys
	closeHelp := k.Back
	closeHelp.SetHelp("esc", "close help")
	return append([]common.Binding{
		{Key: k.ForceQuit, Group: common.GroupApp, Do: m.interrupt},
		{Key: closeHelp, In: onHelp, Bar: onHelp, Do: m.toggleHelp},
		{Key: k.Help, Group: common.GroupApp, In: onPane | onHelp, Bar: onPane | onHelp, Do: m.toggleHelp},
		{Key: k.Quit, Group: common.GroupApp, In: onPane | onHelp, Bar: onPane | onHelp, Do: quit},
		{Key: k.Refresh, In: onPane, Do: func(tea.KeyPressMsg) tea.Cmd { return m.top().refresh(m) }},
		{Key: k.Follow, In: onPane, Do: func(tea.KeyPressMsg) tea.Cmd { return m.top().follow(m) }},
		{Key: k.CopyID, In: onPane, Do: func(tea.KeyPressMsg) tea.Cmd { return m.copySelected() }},
		{Key: k.CopyLink, In: onPane, Do: func(tea.KeyPressMsg) tea.Cmd { return m.copyLink() }},
		{Key: k.Open, In: onPane, Do: func(tea.KeyPressMsg) tea.Cmd { return m.openLink() }},
		{Key: k.Command, Group: common.GroupApp, In: onPane | onHelp, Do: m.openCommand},
	}, m.commandBindings()...)
}

// handleKey applies the root's keys and passes the others to the screen on
// top; with the help screen open, a key that is not the root's does
// nothing.
func (m *Model) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	keys := m.keys()
	if cmd, ok := keys.Handle(msg); ok || keys.Scope == onHelp || keys.Scope == onCommand {
		return cmd
	}
	return m.top().Update(msg)
}

// interrupt quits as an interrupt does (ctrl+c: the command exits 130).
func (m *Model) interrupt(tea.KeyPressMsg) tea.Cmd {
	m.interrupted = true
	return tea.Quit
}

// toggleHelp opens or closes the help screen.
func (m *Model) toggleHelp(tea.KeyPressMsg) tea.Cmd {
	m.showHelp = !m.showHelp
	return nil
}

func quit(tea.KeyPressMsg) tea.Cmd { return tea.Quit }
