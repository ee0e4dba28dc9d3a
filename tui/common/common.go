// Package common holds what every TUI pane is given — the styles, the key
// bindings, the clock and the time format (Common, built once by the root
// model and passed down by pointer; panes never change it) — and the
// contract every pane keeps with the root (Pane).
package common

import (
	"time"

	"charm.land/bubbles/v2/key"

	"github.com/twice-cli/twice/tui/format"
	"github.com/twice-cli/twice/tui/style"
)

// Common is the shared, read-only context of the panes.
type Common struct {
	Styles     *style.Styles
	Keys       Keys
	Now        func() time.Time
	TimeFormat format.TimeFormat
	// Console is the console base URL for run links ("" = the default).
	Console string
}

// Keys is every key binding of the TUI. Panes build their own key maps from
// these, so one key means one thing everywhere.
type Keys struct {
	Up, Down, Top, Bottom, PageDown, PageUp key.Binding

	Enter, Back, NextTab, PrevTab key.Binding

	Filter, Failed, Retried, Flagged, Sort key.Binding

	Detail, DetailDown, DetailUp key.Binding

	Open, CopyID, CopyLink, Refresh, Follow key.Binding

	Help, Quit, ForceQuit key.Binding
}

// DefaultKeys returns the key bindings (design.md, "TUI").
func DefaultKeys() Keys {
	b := func(help, desc string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
	}
	return Keys{
		Up:       b("↑/k", "up", "up", "k"),
		Down:     b("↓/j", "down", "down", "j"),
		Top:      b("g", "top", "g", "home"),
		Bottom:   b("G", "bottom", "G", "end"),
		PageDown: b("ctrl+d", "page down", "ctrl+d", "pgdown"),
		PageUp:   b("ctrl+u", "page up", "ctrl+u", "pgup"),

		Enter:   b("enter", "open/expand", "enter"),
		Back:    b("esc", "back/clear", "esc"),
		NextTab: b("tab/]", "next tab", "tab", "]"),
		PrevTab: b("[", "previous tab", "shift+tab", "["),

		Filter:  b("/", "filter", "/"),
		Failed:  b("f", "failed only", "f"),
		Retried: b("r", "retried only", "r"),
		Flagged: b("!", "flagged only", "!"),
		Sort:    b("s", "sort by start", "s"),

		Detail:     b("p", "detail pane", "p"),
		DetailDown: b("J", "scroll detail down", "J", "shift+down"),
		DetailUp:   b("K", "scroll detail up", "K", "shift+up"),

		Open:     b("o", "open in console", "o"),
		CopyID:   b("y", "copy run id", "y"),
		CopyLink: b("Y", "copy link", "Y"),
		Refresh:  b("R", "refresh", "R"),
		Follow:   b("F", "follow run", "F"),

		Help:      b("?", "help", "?"),
		Quit:      b("q", "quit", "q"),
		ForceQuit: b("ctrl+c", "quit", "ctrl+c"),
	}
}

// Navigation returns the movement bindings, for help views.
func (k Keys) Navigation() []key.Binding {
	return []key.Binding{k.Up, k.Down, k.Top, k.Bottom, k.PageDown, k.PageUp}
}

// KeyGroup is a titled group of key bindings for the help screen.
type KeyGroup struct {
	Title string
	Keys  []key.Binding
}

// Legend is a titled list of the marks a screen shows and what they mean,
// for the help screen (colour is never the only signal, so every mark is a
// glyph or a word that can be explained).
type Legend struct {
	Title string
	// Marks are pairs of a mark and its meaning.
	Marks [][2]string
}
