package format

// Tone is how good or bad a status or outcome is. The marks that carry one
// (StatusMark, OutcomeMark) already say it in a glyph and a word; the TUI's
// styles colour them by it.
type Tone uint8

// Tones.
const (
	ToneNeutral Tone = iota
	ToneGood
	ToneBad
	TonePending
)

// Alert is how strongly a mark calls for attention: a finding's severity
// (SeverityAlert), which the TUI's styles colour.
type Alert uint8

// Alerts, from none to the strongest.
const (
	AlertNone Alert = iota
	AlertLow
	AlertMedium
	AlertHigh
	// AlertLevels is the number of alert levels.
	AlertLevels
)
