package report

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoViewStyling: the writers link none of the interactive view's
// styling (scan -o json has no use for it): the presentation they share
// with the view, tui/format, holds words and cells, not styles.
func TestNoViewStyling(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	out, err := exec.Command("go", "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		for _, banned := range []string{"lipgloss", "bubbletea", "bubbles", "colorprofile"} {
			if strings.Contains(dep, banned) {
				t.Errorf("report depends on %s", dep)
			}
		}
	}
}
