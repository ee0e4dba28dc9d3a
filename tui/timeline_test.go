package tui

import (
	"context"
	"strconv"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/safetext/hostiletest"
	"github.com/twice-cli/twice/tui/internal/tuitest"
)

// TestTimelineAttempts (issue 23, item 5): on the Timeline, space unfolds
// the selected invocation's attempts, each a row with its own bar; a row
// of an attempt shows it in the detail pane, enter gives the pane the keys,
// and space on the invocation folds them again. A click on an attempt's
// bar in a folded row selects that attempt.
func TestTimelineAttempts(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		m := start(t, Options{History: tuitest.Waits(), Now: tuitest.Now}, size[0], size[1])
		m = keys(t, m, "tab")
		if got := m.run.Selection(); got != "timeline:9:-1" {
			t.Fatalf("%v: the Timeline opens on %q, want ShipOrderWorkflow (the flagged one)", size, got)
		}
		m = keys(t, m, "space", "j")
		if got := m.run.Selection(); got != "timeline:9:0" {
			t.Fatalf("%v: space, j selected %q, want attempt 1", size, got)
		}
		if out := plain(m); !strings.Contains(out, "└ #1 ✗ failed") || !strings.Contains(out, "ShipOrderWorkflow · attempt 1 of 2") {
			t.Errorf("%v: the attempt's row or its detail is missing:\n%s", size, out)
		}
		m = keys(t, m, "enter")
		if out := plain(m); !strings.Contains(out, "▶ ShipOrderWorkflow · attempt 1 of 2") {
			t.Errorf("%v: enter on an attempt did not give the detail pane the keys:\n%s", size, out)
		}
		m = keys(t, m, "h", "k", "space")
		if out := plain(m); strings.Contains(out, "└ #1") {
			t.Errorf("%v: space on the invocation did not fold its attempts:\n%s", size, out)
		}
		// A click on the second attempt's bar, at the right end of the
		// folded row, selects it.
		lines := strings.Split(plain(m), "\n")
		y, x := -1, -1
		for i, l := range lines {
			if !strings.Contains(l, "◆ ShipOrderWorkflow") {
				continue
			}
			r := []rune(strings.Split(l, "│")[0]) // the list's side
			for j := len(r) - 1; j >= 0; j-- {
				if r[j] == '✓' {
					y, x = i, j
					break
				}
			}
			break
		}
		if y < 0 {
			t.Fatalf("%v: no ShipOrderWorkflow row:\n%s", size, plain(m))
		}
		m = send(t, m, tea.MouseClickMsg{X: x, Y: y, Button: tea.MouseLeft})
		if got := m.run.Selection(); got != "timeline:9:1" {
			t.Errorf("%v: a click on attempt 2's outcome selected %q:\n%s", size, got, plain(m))
		}
	}
}

// TestFanOutCopyNamesTheInvoice (issue 23, item 4): y on a fan-out's
// finding copies a ticket whose heading says which invoice it is.
func TestFanOutCopyNamesTheInvoice(t *testing.T) {
	var copied string
	o := Options{History: tuitest.FanOut(false), Now: tuitest.Now,
		TmuxBuffer: func(_ context.Context, text string) error { copied = text; return nil }}
	m := start(t, o, 120, 40)
	keys(t, m, "tab", "tab", "tab", "y")
	if want := "#### ▲ high: duplicate-side-effect in SendInvoiceEmail for invoiceNumber=INV-1042 (probable"; !strings.Contains(copied, want) {
		t.Errorf("the copy does not name the invoice: want %q in\n%s", want, copied)
	}
}

// TestHostileWaitsAndKeys: a timer's, an external event's name and a
// fan-out's input field (history text) reach the Timeline, the INPUT
// column and the titles only through the sanitizer.
func TestHostileWaitsAndKeys(t *testing.T) {
	bad := hostiletest.Joined()
	h := tuitest.Waits()
	for i := range h.Len() {
		e := h.At(i)
		switch {
		case e.Type == catalyst.EventTimerCreated && e.Name == "poll":
			e.Name = "poll" + bad
		case e.Type == catalyst.EventTimerCreated && e.Name == "approval":
			e.OriginID = "approval" + bad
		case e.Type == catalyst.EventEventRaised:
			e.Name = "approval" + bad
		case e.Type == catalyst.EventTaskScheduled && e.Name == "CheckPicked":
			e.Payload = catalyst.PresentPayload(`{"poll` + strings.ReplaceAll(bad, `"`, `'`) + `":"` + strconv.Itoa(i) + strings.ReplaceAll(bad, `"`, `'`) + `"}`)
		}
	}
	for _, ks := range [][]string{nil, {"tab"}, {"tab", "space", "j"}} {
		for _, size := range [][2]int{{80, 24}, {120, 40}} {
			m := start(t, Options{History: h, Now: tuitest.Now, Profile: colorprofile.NoTTY}, size[0], size[1])
			m = keys(t, m, ks...)
			if v, bad := hostiletest.FindUnsafe(m.View().Content, false); bad {
				t.Fatalf("%v %v: unsafe character %U at byte %d:\n%s", ks, size, v.Rune, v.Offset, m.View().Content)
			}
			for _, l := range m.run.DetailLines() {
				if v, bad := hostiletest.FindUnsafe(l, false); bad {
					t.Fatalf("%v %v: unsafe character %U in detail line %q", ks, size, v.Rune, l)
				}
			}
		}
	}
}
