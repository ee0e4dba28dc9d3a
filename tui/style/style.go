// Package style holds the TUI's one set of styles, built once from the colour
// profile the caller chose and passed down to every pane.
//
// Colour is never the only signal: every style that colours text is paired,
// by its caller, with a glyph or a word. With the Ascii profile (NO_COLOR,
// --color never) styles keep only reverse video and bold; with NoTTY they
// emit no escape sequence at all.
package style

import (
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/twice-cli/twice/tui/format"
)

// Style renders a span of already-sanitized, single-line text. The zero
// Style renders text unchanged.
type Style struct {
	st lipgloss.Style
	on bool
}

// Render returns text with the style applied.
func (s Style) Render(text string) string {
	if !s.on || text == "" {
		return text
	}
	return s.st.Render(text)
}

// Styles is every style the TUI uses.
type Styles struct {
	// Profile is the colour profile the styles were built for.
	Profile colorprofile.Profile

	Banner   Style // the banner line at the top
	Title    Style // the run's workflow name, pane titles
	Label    Style // field labels in headers and the detail pane
	Faint    Style // secondary text
	Heading  Style // column headings
	Selected Style // the selected row (reverse video)
	TabOn    Style // the active tab
	TabOff   Style // the other tabs
	Info     Style // status-line information
	Error    Style // status-line errors
	KeyBar   Style // the one-line key bar
	New      Style // events that arrived since the last poll (follow mode)
	Link     Style // console links

	alert   [format.AlertLevels]Style
	failed  Style
	ok      Style
	pending Style
}

// New returns the styles for profile. Unknown (the caller did not decide)
// is treated as ANSI: the renderer downsamples to what the terminal supports.
func New(profile colorprofile.Profile) *Styles {
	s := &Styles{Profile: profile}
	if profile == colorprofile.NoTTY {
		return s
	}
	attr := func(st lipgloss.Style) Style { return Style{st: st, on: true} }
	base := lipgloss.NewStyle()
	s.Title = attr(base.Bold(true))
	s.Heading = attr(base.Bold(true))
	s.Selected = attr(base.Reverse(true))
	s.TabOn = attr(base.Reverse(true).Bold(true))
	s.Error = attr(base.Bold(true))
	s.New = attr(base.Bold(true))
	s.alert[format.AlertHigh] = attr(base.Bold(true))
	if profile == colorprofile.ASCII {
		return s
	}
	s.Banner = attr(base.Foreground(lipgloss.Yellow))
	s.Label = attr(base.Faint(true))
	s.Faint = attr(base.Faint(true))
	s.TabOff = attr(base.Faint(true))
	s.Info = attr(base.Foreground(lipgloss.Cyan))
	s.Error = attr(base.Foreground(lipgloss.Red).Bold(true))
	s.KeyBar = attr(base.Faint(true))
	s.New = attr(base.Foreground(lipgloss.Green).Bold(true))
	s.Link = attr(base.Foreground(lipgloss.Blue).Underline(true))
	s.alert[format.AlertHigh] = attr(base.Foreground(lipgloss.Red).Bold(true))
	s.alert[format.AlertMedium] = attr(base.Foreground(lipgloss.Yellow))
	s.alert[format.AlertLow] = attr(base.Foreground(lipgloss.Cyan))
	s.failed = attr(base.Foreground(lipgloss.Red))
	s.ok = attr(base.Foreground(lipgloss.Green))
	s.pending = attr(base.Foreground(lipgloss.Yellow))
	return s
}

// Alert returns the style of a mark at alert level a.
func (s *Styles) Alert(a format.Alert) Style {
	if a >= format.AlertLevels {
		return Style{}
	}
	return s.alert[a]
}

// Tone returns the style for a tone.
func (s *Styles) Tone(t format.Tone) Style {
	switch t {
	case format.ToneGood:
		return s.ok
	case format.ToneBad:
		return s.failed
	case format.TonePending:
		return s.pending
	}
	return Style{}
}
