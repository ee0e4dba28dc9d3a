package format

import (
	"testing"

	"github.com/twice-cli/twice/detect"
	"github.com/twice-cli/twice/tui/style"
)

// TestSeverityAlert: each severity's mark is drawn at its own alert level,
// the strongest for high; none (or one twice does not know) is not drawn
// out.
func TestSeverityAlert(t *testing.T) {
	for sev, want := range map[detect.Severity]style.Alert{
		detect.SeverityNone:   style.AlertNone,
		detect.SeverityLow:    style.AlertLow,
		detect.SeverityMedium: style.AlertMedium,
		detect.SeverityHigh:   style.AlertHigh,
		detect.Severity(9):    style.AlertNone,
	} {
		if got := SeverityAlert(sev); got != want {
			t.Errorf("SeverityAlert(%d) = %d, want %d", sev, got, want)
		}
	}
}
