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
	if m.top() != m.run || m.run.Selection() != "invocation:1:-1" ||
		!strings.HasPrefix(m.status.text, "1 of 3 invocations flagged") {
		t.Errorf("screen %T, selection %q, status %q", m.top(), m.run.Selection(), m.status.text)
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

// TestErrorStatusWraps: an error in the status line (here a refresh that
// failed with the old list on screen) is wrapped over up to three lines,
// the panes give up the room, and it clears back to one line.
func TestErrorStatusWraps(t *testing.T) {
	src := listSource()
	m := start(t, Options{Source: src}, 80, 24)
	src.ListErr = errorString(refusalText)
	m = keys(t, m, "R")
	out := plain(m)
	checkFrame(t, out, 80, 24)
	lines := strings.Split(out, "\n")
	status := strings.Join(lines[len(lines)-4:len(lines)-1], " ")
	for _, want := range []string{"✗ could not list runs: catalyst refused", "NOT_AUTHENTICATED (HTTP 401)", "the bearer token"} {
		if !strings.Contains(status, want) {
			t.Errorf("the status lines lack %q:\n%s", want, out)
		}
	}
	if !strings.Contains(out, "charge-7731") {
		t.Errorf("the old list left the screen:\n%s", out)
	}
	if m.list.View() == "" || strings.Count(m.list.View(), "\n")+1 != 24-3-1 {
		t.Errorf("the list is %d lines high, want the window less 3 status lines and the key bar", strings.Count(m.list.View(), "\n")+1)
	}

	src.ListErr = nil
	m = keys(t, m, "R")
	out = plain(m)
	checkFrame(t, out, 80, 24)
	if strings.Contains(out, "could not list runs") || m.statusRows != 1 {
		t.Errorf("the error stayed after a good refresh (%d status rows):\n%s", m.statusRows, out)
	}
}

// errorString is an error with the given text.
type errorString string

func (e errorString) Error() string { return string(e) }

// TestRunListExplainsAnalysisErrors: a row whose run could not be analyzed
// shows "? error", and its selection says why — below the list, or in the
// status line when the window is too short for that.
func TestRunListExplainsAnalysisErrors(t *testing.T) {
	const why = "? charge-7800: could not analyze this run: 429 Too Many Requests"
	for _, size := range [][2]int{{120, 40}, {80, 12}} {
		src := listSource()
		src.FailNext("charge-7800", errorString("429 Too Many Requests"))
		m := start(t, Options{Source: src}, size[0], size[1])
		if !strings.Contains(plain(m), "? error") {
			t.Fatalf("no row shows ? error:\n%s", plain(m))
		}
		if strings.Contains(plain(m), why) {
			t.Errorf("%dx%d: the reason is shown with another row selected:\n%s", size[0], size[1], plain(m))
		}
		m = keys(t, m, "j", "j", "j")
		if run, _ := m.list.Selected(); run.ID != "charge-7800" {
			t.Fatalf("selected %q, want charge-7800", run.ID)
		}
		out := plain(m)
		checkFrame(t, out, size[0], size[1])
		if !strings.Contains(out, why) {
			t.Errorf("%dx%d: the reason is not shown:\n%s", size[0], size[1], out)
		}
		lines := strings.Split(out, "\n")
		inStatus := strings.Contains(lines[len(lines)-2], why)
		if short := size[1] < 14; inStatus != short {
			t.Errorf("%dx%d: reason in the status line = %v, want %v:\n%s", size[0], size[1], inStatus, short, out)
		}
	}
}
