package tui

import (
	"testing"
	"time"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"

	"github.com/twice-cli/twice/tui/internal/tuitest"
)

// testOptions fills the options every test shares: the fixed clock, the
// monochrome profile and a short follow interval.
func testOptions(opts Options) Options {
	if opts.Now == nil {
		opts.Now = tuitest.Now
	}
	if opts.Profile == colorprofile.Unknown {
		opts.Profile = colorprofile.ASCII
	}
	if opts.FollowInterval == 0 {
		opts.FollowInterval = time.Millisecond
	}
	return opts
}

// start builds the root model at a size and runs Init's commands to
// completion (loads and analyses; spinner ticks are not replayed).
func start(t *testing.T, opts Options, w, h int) *Model {
	t.Helper()
	m := New(testOptions(opts))
	m = send(t, m, tea.WindowSizeMsg{Width: w, Height: h})
	return drive(t, m, m.Init())
}

// send delivers msgs in order, running the commands they return.
func send(t *testing.T, m *Model, msgs ...tea.Msg) *Model {
	t.Helper()
	for _, msg := range msgs {
		next, cmd := m.Update(msg)
		m = drive(t, next.(*Model), cmd)
	}
	return m
}

// keys sends key presses by name ("j", "enter", "ctrl+d", "esc", "tab").
func keys(t *testing.T, m *Model, names ...string) *Model {
	t.Helper()
	for _, n := range names {
		m = send(t, m, keyMsg(n))
	}
	return m
}

// keyMsg returns the key press for a key name.
func keyMsg(name string) tea.KeyPressMsg {
	switch name {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "space":
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	case "backspace":
		return tea.KeyPressMsg{Code: tea.KeyBackspace}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "ctrl+c":
		return tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}
	case "ctrl+d":
		return tea.KeyPressMsg{Code: 'd', Mod: tea.ModCtrl}
	case "ctrl+u":
		return tea.KeyPressMsg{Code: 'u', Mod: tea.ModCtrl}
	}
	r := []rune(name)
	if len(r) != 1 {
		panic("unknown key " + name)
	}
	return tea.KeyPressMsg{Code: r[0], Text: name}
}

// drive runs cmd and feeds what it returns back into the model, except
// spinner, follow and refresh ticks (they would run forever; tests send
// those ticks themselves).
func drive(t *testing.T, m *Model, cmd tea.Cmd) *Model {
	t.Helper()
	if cmd == nil {
		return m
	}
	done := make(chan tea.Msg, 1)
	go func() { done <- cmd() }()
	var msg tea.Msg
	select {
	case msg = <-done:
	case <-time.After(time.Minute):
		t.Fatalf("a command did not return")
	}
	switch msg := msg.(type) {
	case nil, spinner.TickMsg, followTickMsg, refreshTickMsg:
		return m
	case tea.BatchMsg:
		for _, c := range msg {
			m = drive(t, m, c)
		}
		return m
	case tea.QuitMsg:
		return m
	}
	next, cmd := m.Update(msg)
	return drive(t, next.(*Model), cmd)
}

// plain returns the view's text with styling removed.
func plain(m *Model) string { return ansi.Strip(m.View().Content) }
