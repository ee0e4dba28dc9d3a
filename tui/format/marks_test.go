package format

import (
	"testing"

	"github.com/twice-cli/twice/detect"
)

// TestSeverityAlert: each severity's mark is drawn at its own alert level,
// the strongest for high; none (or one twice does not know) is not drawn
// out.
func TestSeverityAlert(t *testing.T) {
	for sev, want := range map[detect.Severity]Alert{
		detect.SeverityNone:   AlertNone,
		detect.SeverityLow:    AlertLow,
		detect.SeverityMedium: AlertMedium,
		detect.SeverityHigh:   AlertHigh,
		detect.Severity(9):    AlertNone,
	} {
		if got := SeverityAlert(sev); got != want {
			t.Errorf("SeverityAlert(%d) = %d, want %d", sev, got, want)
		}
	}
}
