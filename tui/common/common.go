// Package common holds what every TUI pane is given — the styles, the key
// bindings, the clock and the time format (Common, built once by the root
// model and passed down by pointer; panes never change it) — and the
// contract every pane keeps with the root (Pane).
package common

import (
	"time"

	"charm.land/bubbles/v2/key"

	"github.com/twice-cli/twice/catalyst/safetext"

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
	// SourceNote, when set, says what the source is doing while a read is
	// in flight ("retry 2 after HTTP 503"; "" for nothing).
	SourceNote func() string
}

// Waiting says how long a read that began at since has been waiting (from
// a second on) and what the source says it is doing: " for 3.20s (retry 2
// after HTTP 503 Service Unavailable)", "" for neither. The loading lines
// end with it.
func (c *Common) Waiting(since time.Time) string {
	var text string
	if !since.IsZero() {
		if d := c.Now().Sub(since); d >= time.Second {
			text = " for " + format.Duration(d.Truncate(100*time.Millisecond))
		}
	}
	if c.SourceNote != nil {
		if n := c.SourceNote(); n != "" {
			text += " (" + safetext.Line(n) + ")"
		}
	}
	return text
}

// Keys is every key binding of the TUI. Panes build their own key maps from
// these, so one key means one thing everywhere.
type Keys struct {
	Up, Down, Top, Bottom, PageDown, PageUp key.Binding

	Enter, Expand, Back, NextTab, PrevTab key.Binding

	Filter, Failed, Retried, Flagged, Sort key.Binding

	Detail, DetailDown, DetailUp, Grow, Shrink, FocusDetail, FocusList key.Binding

	// PanLeft and PanRight move the Timeline's time axis; it zooms with
	// Grow and Shrink (+ and -) while the list has the focus.
	PanLeft, PanRight key.Binding

	Open, CopyID, CopyLink, Refresh, Follow key.Binding

	// Edit opens a source file at a line in the user's editor (the Code
	// tab, with source given).
	Edit key.Binding

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
		Expand:  b("space", "attempts", "space"),
		Back:    b("esc", "back/clear", "esc"),
		NextTab: b("tab/]", "next tab", "tab", "]"),
		PrevTab: b("[", "previous tab", "shift+tab", "["),

		Filter:  b("/", "filter", "/"),
		Failed:  b("f", "failed only", "f"),
		Retried: b("r", "retried only", "r"),
		Flagged: b("!", "flagged only", "!"),
		Sort:    b("s", "sort", "s"),

		Detail:      b("p", "detail size", "p"),
		DetailDown:  b("J", "scroll detail down", "J", "shift+down"),
		DetailUp:    b("K", "scroll detail up", "K", "shift+up"),
		Grow:        b("+", "wider detail", "+", "="),
		Shrink:      b("-", "narrower detail", "-", "_"),
		FocusDetail: b("l/→", "focus detail", "l", "right"),
		FocusList:   b("h/←", "focus list", "h", "left"),
		PanLeft:     b("<", "earlier", "<", "H"),
		PanRight:    b(">", "later", ">", "L"),

		Open:     b("o", "open in console", "o"),
		CopyID:   b("y", "copy", "y"),
		CopyLink: b("Y", "copy link", "Y"),
		Refresh:  b("R", "refresh", "R"),
		Follow:   b("F", "follow run", "F"),
		Edit:     b("e", "open in editor", "e"),

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
