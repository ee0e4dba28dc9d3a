package format

import (
	"strings"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/detect"
)

// SeverityGlyph is the one-character mark of a severity: ▲ high, ◆ medium,
// ● low, · none (the same glyphs as twice's text output).
func SeverityGlyph(sev detect.Severity) string {
	switch sev {
	case detect.SeverityHigh:
		return "▲"
	case detect.SeverityMedium:
		return "◆"
	case detect.SeverityLow:
		return "●"
	}
	return "·"
}

// SeverityMark is a severity's glyph and upper-case word: "▲ HIGH".
func SeverityMark(sev detect.Severity) string {
	return SeverityGlyph(sev) + " " + strings.ToUpper(sev.String())
}

// SeverityLabel is a severity's glyph and word as documents print it:
// "▲ high" (text and Markdown output, whose columns are not shouted).
func SeverityLabel(sev detect.Severity) string {
	return SeverityGlyph(sev) + " " + sev.String()
}

// SeverityAlert is the alert level a severity's mark is drawn at.
func SeverityAlert(sev detect.Severity) Alert {
	switch sev {
	case detect.SeverityHigh:
		return AlertHigh
	case detect.SeverityMedium:
		return AlertMedium
	case detect.SeverityLow:
		return AlertLow
	}
	return AlertNone
}

// FindingWord is the short word the flag column uses for a finding, its
// short name in the catalogue (detect.Check.Short): "duplicate" for an
// observed duplicate, marked "duplicate?" when it is probable or possible.
// An id the catalogue does not list is shown as it is.
func FindingWord(id detect.FindingID, c detect.Confidence) string {
	check, ok := detect.CheckOf(id)
	if !ok {
		return string(id)
	}
	if id == detect.FindingDuplicateSideEffect && c != detect.ConfidenceObserved {
		return check.Short + "?"
	}
	return check.Short
}

// StatusMark is a run status as a glyph and word ("✗ failed"), and its tone.
// An unknown status is shown as reported (sanitized).
func StatusMark(s catalyst.Status) (string, Tone) {
	n := s.Normalized()
	switch n {
	case catalyst.StatusCompleted:
		return "✓ completed", ToneGood
	case catalyst.StatusFailed:
		return "✗ failed", ToneBad
	case catalyst.StatusRunning:
		return "▷ running", TonePending
	case catalyst.StatusPending:
		return "… pending", TonePending
	case catalyst.StatusTerminated:
		return "■ terminated", ToneBad
	case catalyst.StatusCanceled:
		return "■ canceled", ToneBad
	case catalyst.StatusSuspended:
		return "‖ suspended", TonePending
	case catalyst.StatusStalled:
		return "! stalled", ToneBad
	case catalyst.StatusContinuedAsNew:
		return "↻ continued-as-new", ToneNeutral
	case "":
		return "? unknown", ToneNeutral
	}
	return "? " + Fit(safeLine(string(n)), 24), ToneNeutral
}

// OutcomeMark is an attempt's or invocation's outcome as a glyph and word
// ("✗ failed"), and its tone. Unknown is never shown as failed or fine.
func OutcomeMark(o detect.Outcome) (string, Tone) {
	switch o {
	case detect.OutcomeCompleted:
		return "✓ completed", ToneGood
	case detect.OutcomeFailed:
		return "✗ failed", ToneBad
	case detect.OutcomePending:
		return "▷ pending", TonePending
	case detect.OutcomeUnknown:
		return "? unknown", TonePending
	}
	return "? " + o.String(), ToneNeutral
}

// SortArrow marks a sorted column's direction: "↓" descending, "↑"
// ascending.
func SortArrow(desc bool) string {
	if desc {
		return "↓"
	}
	return "↑"
}
