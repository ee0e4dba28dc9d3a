package common

import (
	tea "charm.land/bubbletea/v2"
)

// Pane is a screen of the inspector as the root model sees it: the run list,
// a run. The root keeps a stack of panes, draws the top one between its
// banner and its status line, and never asks which pane it holds; a new
// screen is a new Pane, pushed, and a new part of a screen (a tab, a focus
// between a table and the detail pane) lives inside its pane.
//
// Messages reach a pane in two ways. Input — key presses, pastes and mouse
// events, the latter in the pane's own coordinates (row 0 is its first
// line) — goes to the top pane only, after the root's own keys (quit, help,
// and the run keys). Every other message the root does not handle itself
// (spinner ticks, the results of a pane's own commands) goes to every pane
// on the stack, on top or not, so a covered pane's work finishes and it is
// as it was when it is on top again. A pane therefore ignores what is not
// addressed to it: its own messages carry its identity (a spinner's id, the
// run view's address).
type Pane interface {
	// Update handles a message and returns the command it starts.
	Update(msg tea.Msg) tea.Cmd
	// View renders the pane at its size: exactly height lines of at most
	// width columns.
	View() string
	// SetSize sets the size the pane renders at: the window less the
	// root's banner, status line and key bar.
	SetSize(width, height int)

	// Keys returns the pane's keys and the state it is in: the root
	// builds the key bar (what applies now) and the help screen (every
	// key) from them, and the pane's Update dispatches key presses by
	// them. The root adds its own (help, quit, and the run keys the
	// pane places but does not handle).
	Keys() KeyMap
	// Legend returns the marks the pane shows and what they mean, for the
	// help screen.
	Legend() []Legend

	// Capturing reports whether the keyboard focus is on a text field of
	// the pane (a filter being typed): the root then passes every key to it
	// but ctrl+c, and leaves help and quit off the key bar. Focus between
	// the parts of a pane (its table, its detail pane) is the pane's own.
	Capturing() bool
}

// StatusMsg asks the root to show a message on its status line (an error
// when Err), about what the pane shows now.
type StatusMsg struct {
	Text string
	Err  bool
}

// BackMsg asks the root to close the pane on top and show the one below it
// where the user left it (esc with nothing left to clear in the pane).
type BackMsg struct{}

// Commander is a pane that runs commands of the root's command line (:)
// besides its keys: "tab timeline", "sort duration", "filter cus_4821".
// (The command line also presses any key by its help words: ":failed
// only".)
type Commander interface {
	// Command runs verb with arg (both as typed, arg maybe ""). known is
	// false for a verb the pane does not have; for a known verb whose
	// argument names nothing, err says what it takes.
	Command(verb, arg string) (cmd tea.Cmd, known bool, err error)
}
