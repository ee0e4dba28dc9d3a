package report

import (
	"github.com/twice-cli/twice/detect"
	"github.com/twice-cli/twice/tui/format"
)

// Styles colours the text output. The zero value prints plain text; colour
// is never the only signal (every severity also has a glyph and a word).
//
// The colours are the terminal's basic ones, written as SGR sequences
// here: the writers need nothing of the interactive view's styling, so
// scan and show -o json do not link it.
type Styles struct {
	enabled bool
}

// SGR parameters of the text output's styles.
const (
	sgrHigh    = "1;31" // bold red
	sgrMedium  = "33"   // yellow
	sgrLow     = "36"   // cyan
	sgrHeading = "1"    // bold
	sgrFaint   = "2"
)

// NewStyles returns the styles for text output; with color false every
// style prints its text unchanged.
func NewStyles(color bool) Styles { return Styles{enabled: color} }

// render wraps one line of safe text in an SGR sequence and a reset.
func (s Styles) render(sgr, text string) string {
	if !s.enabled || text == "" {
		return text
	}
	return "\x1b[" + sgr + "m" + text + "\x1b[m"
}

// Heading styles a section title.
func (s Styles) Heading(text string) string { return s.render(sgrHeading, text) }

// Faint styles secondary text.
func (s Styles) Faint(text string) string { return s.render(sgrFaint, text) }

// Severity renders a severity as its glyph and word ("▲ high"), coloured
// when colour is on. text must already be safe.
func (s Styles) Severity(sev detect.Severity) string {
	return s.severityText(sev, SeverityMark(sev))
}

// severityText colours text with the severity's colour.
func (s Styles) severityText(sev detect.Severity, text string) string {
	switch sev {
	case detect.SeverityHigh:
		return s.render(sgrHigh, text)
	case detect.SeverityMedium:
		return s.render(sgrMedium, text)
	case detect.SeverityLow:
		return s.render(sgrLow, text)
	}
	return text
}

// SeverityMark is a severity's glyph and word, e.g. "▲ high"
// (format.SeverityLabel).
func SeverityMark(sev detect.Severity) string { return format.SeverityLabel(sev) }
