package format

import (
	"strings"
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

// TestTimelineLegendFit: the legend under a timeline fits its width in the
// longest form that does, and every form names each shape (shapes, not
// colour alone, tell the marks apart), down to the shortest.
func TestTimelineLegendFit(t *testing.T) {
	short := Width(timelineLegendShort)
	for _, w := range []int{200, 79, 66, 63, 56, short} {
		got := TimelineLegendFit(w)
		if Width(got) > w || strings.Contains(got, "…") {
			t.Errorf("width %d: legend %q (%d wide) does not fit whole", w, got, Width(got))
		}
		for _, g := range []string{"█", "▓", "░", "·", "✓✗?", "▲◆●"} {
			if !strings.Contains(got, g+" ") {
				t.Errorf("width %d: legend %q lacks %q", w, got, g)
			}
		}
	}
	if got := TimelineLegendFit(200); !strings.Contains(got, "may run  · backoff") {
		t.Errorf("wide, the legend has its full words: %q", got)
	}
	if got := TimelineLegendFit(short - 5); Width(got) != short-5 {
		t.Errorf("narrower than the shortest form, the legend is cut to the width: %q", got)
	}
}
