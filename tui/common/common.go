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

// Keys is the catalogue of the TUI's keys: every key, once, with the
// words the help screen says of it. Panes bind these (their KeyMap), so
// one key means one thing everywhere; a pane may word one for itself
// ("enter" "open run"). A new key is a field here and a line in
// catalogue, which also sets the order the help screen lists keys in.
type Keys struct {
	Up, Down, Top, Bottom, PageDown, PageUp key.Binding

	Enter, Expand, Back, NextTab, PrevTab, Sort key.Binding

	// PickTab picks a tab by its number (1 to 5, lazygit's habit);
	// Command opens the command line (:tab timeline, :sort duration, :q).
	PickTab, Command key.Binding

	FocusDetail, FocusList, Detail, Grow, Shrink, DetailDown, DetailUp key.Binding

	// Zoom zooms the Timeline's time axis (+ in, - out, 0 the whole
	// run) while its list has the focus: the keys that size the detail
	// pane otherwise. PanLeft and PanRight move the axis.
	Zoom, PanLeft, PanRight key.Binding

	Filter, Failed, Retried, Flagged key.Binding

	Open, CopyID, CopyLink, Refresh, Follow key.Binding

	// Mark marks the run list's selected run to compare; Diff compares
	// the marked run with the selected one (twice diff in the view).
	Mark, Diff key.Binding

	// Edit opens a source file at a line in the user's editor (the Code
	// tab, with source given).
	Edit key.Binding

	Help, Quit, ForceQuit key.Binding
}

// DefaultKeys returns the key bindings (design.md, "TUI").
func DefaultKeys() Keys {
	var k Keys
	for _, e := range k.catalogue() {
		*e.b = key.NewBinding(key.WithKeys(e.keys...), key.WithHelp(e.help, e.desc))
	}
	return k
}

// All returns the catalogue's keys in its order, the help screen's.
func (k *Keys) All() []key.Binding {
	c := k.catalogue()
	out := make([]key.Binding, len(c))
	for i, e := range c {
		out[i] = *e.b
	}
	return out
}

// catalogue is every key: the field, the help's label and words, the keys
// that press it; in the order the help screen lists them.
func (k *Keys) catalogue() []struct {
	b          *key.Binding
	help, desc string
	keys       []string
} {
	type e = struct {
		b          *key.Binding
		help, desc string
		keys       []string
	}
	ks := func(keys ...string) []string { return keys }
	return []e{
		{&k.Up, "↑/k", "up", ks("up", "k")},
		{&k.Down, "↓/j", "down", ks("down", "j")},
		{&k.Top, "g", "top", ks("g", "home")},
		{&k.Bottom, "G", "bottom", ks("G", "end")},
		{&k.PageDown, "ctrl+d", "page down", ks("ctrl+d", "pgdown")},
		{&k.PageUp, "ctrl+u", "page up", ks("ctrl+u", "pgup")},

		{&k.Enter, "enter", "open/expand", ks("enter")},
		{&k.Expand, "space", "attempts", ks("space")},
		{&k.Back, "esc", "back/clear", ks("esc")},
		{&k.NextTab, "tab/]", "next tab", ks("tab", "]")},
		{&k.PrevTab, "[", "previous tab", ks("shift+tab", "[")},
		{&k.PickTab, "1-5", "tab by number", ks("1", "2", "3", "4", "5")},
		{&k.Sort, "s", "sort", ks("s")},

		{&k.FocusDetail, "l/→", "focus detail", ks("l", "right")},
		{&k.FocusList, "h/←", "focus list", ks("h", "left")},
		{&k.Detail, "p", "detail size", ks("p")},
		{&k.Grow, "+", "wider detail", ks("+", "=")},
		{&k.Shrink, "-", "narrower detail", ks("-", "_")},
		{&k.DetailDown, "J", "scroll detail down", ks("J", "shift+down")},
		{&k.DetailUp, "K", "scroll detail up", ks("K", "shift+up")},

		{&k.Zoom, "+/- 0", "zoom the Timeline, whole run", ks("+", "=", "-", "_", "0")},
		{&k.PanLeft, "<", "earlier", ks("<", "H")},
		{&k.PanRight, ">", "later", ks(">", "L")},

		{&k.Filter, "/", "filter", ks("/")},
		{&k.Failed, "f", "failed only", ks("f")},
		{&k.Retried, "r", "retried only", ks("r")},
		{&k.Flagged, "!", "flagged only", ks("!")},

		{&k.Open, "o", "open in console", ks("o")},
		{&k.CopyID, "y", "copy", ks("y")},
		{&k.CopyLink, "Y", "copy link", ks("Y")},
		{&k.Refresh, "R", "refresh", ks("R")},
		{&k.Follow, "F", "follow run", ks("F")},

		{&k.Mark, "m", "mark run to compare", ks("m")},
		{&k.Diff, "d", "diff with marked run", ks("d")},

		{&k.Edit, "e", "open in editor", ks("e")},

		{&k.Command, ":", "command line", ks(":")},
		{&k.Help, "?", "help", ks("?")},
		{&k.Quit, "q", "quit", ks("q")},
		{&k.ForceQuit, "ctrl+c", "quit", ks("ctrl+c")},
	}
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
