package format

import (
	"strings"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/detect"
	"github.com/twice-cli/twice/tui/style"
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

// SeverityAlert is the alert level a severity's mark is drawn at.
func SeverityAlert(sev detect.Severity) style.Alert {
	switch sev {
	case detect.SeverityHigh:
		return style.AlertHigh
	case detect.SeverityMedium:
		return style.AlertMedium
	case detect.SeverityLow:
		return style.AlertLow
	}
	return style.AlertNone
}

// FindingWord is the short word the flag column uses for a finding:
// "duplicate?" for a probable duplicate, "duplicate" for an observed one.
func FindingWord(id detect.FindingID, c detect.Confidence) string {
	switch id {
	case detect.FindingDuplicateSideEffect:
		if c == detect.ConfidenceObserved {
			return "duplicate"
		}
		return "duplicate?"
	case detect.FindingRetriedPermanentFailure:
		return "retried permanent"
	case detect.FindingSharedRetryPolicy:
		return "shared policy"
	case detect.FindingChildWorkflowRetried:
		return "child retried"
	case detect.FindingTimeoutRace:
		return "timeout race"
	case detect.FindingLargePayload:
		return "large payload"
	case detect.FindingUnknownOutcome:
		return "outcome?"
	}
	return string(id)
}

// StatusMark is a run status as a glyph and word ("✗ failed"), and its tone.
// An unknown status is shown as reported (sanitized).
func StatusMark(s catalyst.Status) (string, style.Tone) {
	n := s.Normalized()
	switch n {
	case catalyst.StatusCompleted:
		return "✓ completed", style.ToneGood
	case catalyst.StatusFailed:
		return "✗ failed", style.ToneBad
	case catalyst.StatusRunning:
		return "▷ running", style.TonePending
	case catalyst.StatusPending:
		return "… pending", style.TonePending
	case catalyst.StatusTerminated:
		return "■ terminated", style.ToneBad
	case catalyst.StatusCanceled:
		return "■ canceled", style.ToneBad
	case catalyst.StatusSuspended:
		return "‖ suspended", style.TonePending
	case catalyst.StatusStalled:
		return "! stalled", style.ToneBad
	case catalyst.StatusContinuedAsNew:
		return "↻ continued-as-new", style.ToneNeutral
	case "":
		return "? unknown", style.ToneNeutral
	}
	return "? " + Fit(safeLine(string(n)), 24), style.ToneNeutral
}

// OutcomeMark is an attempt's or invocation's outcome as a glyph and word
// ("✗ failed"), and its tone. Unknown is never shown as failed or fine.
func OutcomeMark(o detect.Outcome) (string, style.Tone) {
	switch o {
	case detect.OutcomeCompleted:
		return "✓ completed", style.ToneGood
	case detect.OutcomeFailed:
		return "✗ failed", style.ToneBad
	case detect.OutcomePending:
		return "▷ pending", style.TonePending
	case detect.OutcomeUnknown:
		return "? unknown", style.TonePending
	}
	return "? " + o.String(), style.ToneNeutral
}
