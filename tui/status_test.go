package tui

import (
	"strings"
	"testing"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/tui/internal/tuitest"
)

// TestOpeningARunPointsAtTheWorst: however the run arrives (a history given
// and analyzed afterwards, or fetched from a source), the worst flagged
// invocation is under the cursor and the status line counts the flagged
// ones; a refresh does not repeat it.
func TestOpeningARunPointsAtTheWorst(t *testing.T) {
	const want = "1 of 3 invocations flagged; the worst is selected"
	src := tuitest.NewSource().Add(tuitest.Checkout())
	for _, c := range []struct {
		name string
		opts Options
	}{
		{"given", Options{History: tuitest.Checkout()}},
		{"fetched", Options{Source: src, Open: &catalyst.RunRef{ID: "checkout-7731", AppID: "payments"}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := start(t, c.opts, 80, 24)
			if m.status.text != want || m.status.err {
				t.Errorf("status = %+v, want %q", m.status, want)
			}
			if got := m.run.Selection(); got != "invocation:1:-1" {
				t.Errorf("selection = %q, want the flagged ChargeCard", got)
			}
			if !strings.Contains(plain(m), want) {
				t.Errorf("the status line is not on screen:\n%s", plain(m))
			}
		})
	}
	m := keys(t, start(t, Options{Source: src, Open: &catalyst.RunRef{ID: "checkout-7731", AppID: "payments"}}, 80, 24), "R")
	if m.status.text != "refreshed" {
		t.Errorf("status after a refresh = %q", m.status.text)
	}
}

// TestOpeningFromTheListPointsAtTheWorst opens a run from the run list.
func TestOpeningFromTheListPointsAtTheWorst(t *testing.T) {
	src := tuitest.NewSource().Add(tuitest.Checkout())
	m := keys(t, start(t, Options{Source: src}, 120, 40), "enter")
	if m.screen != screenRun || m.run.Selection() != "invocation:1:-1" ||
		!strings.HasPrefix(m.status.text, "1 of 3 invocations flagged") {
		t.Errorf("screen %d, selection %q, status %q", m.screen, m.run.Selection(), m.status.text)
	}
}

// TestHelpExplainsTheMarks: the help screen explains the glyphs and words
// the run view shows, not only the keys.
func TestHelpExplainsTheMarks(t *testing.T) {
	m := keys(t, start(t, Options{History: tuitest.Checkout()}, 120, 40), "?")
	out := plain(m)
	for _, want := range []string{"Keys and marks", "duplicate? probable duplicate side effect", "▲ ◆ ●", "esc close help"} {
		if !strings.Contains(out, want) {
			t.Errorf("the help screen lacks %q:\n%s", want, out)
		}
	}
	// Too narrow for every column: it says so rather than cutting them.
	m = keys(t, start(t, Options{History: tuitest.Checkout()}, 80, 24), "?")
	out = plain(m)
	if !strings.Contains(out, "more in a wider window") || strings.Contains(out, "…") {
		t.Errorf("the narrow help screen:\n%s", out)
	}
}
