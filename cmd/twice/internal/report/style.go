package report

import (
	"charm.land/lipgloss/v2"

	"github.com/twice-cli/twice/detect"
	"github.com/twice-cli/twice/tui/format"
)

// Styles colours the text output. The zero value prints plain text; colour
// is never the only signal (every severity also has a glyph and a word).
type Styles struct {
	enabled bool
	high    lipgloss.Style
	medium  lipgloss.Style
	low     lipgloss.Style
	heading lipgloss.Style
	faint   lipgloss.Style
}

// NewStyles returns the styles for text output; with color false every
// style prints its text unchanged.
func NewStyles(color bool) Styles {
	if !color {
		return Styles{}
	}
	return Styles{
		enabled: true,
		high:    lipgloss.NewStyle().Foreground(lipgloss.Red).Bold(true),
		medium:  lipgloss.NewStyle().Foreground(lipgloss.Yellow),
		low:     lipgloss.NewStyle().Foreground(lipgloss.Cyan),
		heading: lipgloss.NewStyle().Bold(true),
		faint:   lipgloss.NewStyle().Faint(true),
	}
}

// Heading styles a section title.
func (s Styles) Heading(text string) string {
	if !s.enabled {
		return text
	}
	return s.heading.Render(text)
}

// Faint styles secondary text.
func (s Styles) Faint(text string) string {
	if !s.enabled {
		return text
	}
	return s.faint.Render(text)
}

// Severity renders a severity as its glyph and word ("▲ high"), coloured
// when colour is on. text must already be safe.
func (s Styles) Severity(sev detect.Severity) string {
	return s.severityText(sev, SeverityMark(sev))
}

// severityText colours text with the severity's colour.
func (s Styles) severityText(sev detect.Severity, text string) string {
	if !s.enabled {
		return text
	}
	switch sev {
	case detect.SeverityHigh:
		return s.high.Render(text)
	case detect.SeverityMedium:
		return s.medium.Render(text)
	case detect.SeverityLow:
		return s.low.Render(text)
	}
	return text
}

// SeverityGlyph is the one-character mark of a severity: ▲ high, ◆ medium,
// ● low, · none; the interactive view uses the same glyphs.
func SeverityGlyph(sev detect.Severity) string { return format.SeverityGlyph(sev) }

// SeverityMark is a severity's glyph and word, e.g. "▲ high".
func SeverityMark(sev detect.Severity) string {
	return SeverityGlyph(sev) + " " + sev.String()
}
