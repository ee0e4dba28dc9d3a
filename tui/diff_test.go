package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/fixtures"
	"github.com/twice-cli/twice/tui/internal/tuitest"
)

// twinSource lists two demo twins: the run that went fine, opened first,
// and the one in question.
func twinSource(t *testing.T, a, b string) *tuitest.Source {
	t.Helper()
	var hs []*catalyst.History
	for _, name := range []string{a, b} {
		h, err := fixtures.OpenDemo(name, fixtures.OpenOptions{})
		if err != nil {
			t.Fatal(err)
		}
		hs = append(hs, h)
	}
	return tuitest.NewSource().Add(hs...)
}

// TestGoldenDiff: on the run list, m marks a run and d on another opens the
// two compared, each pair of calls as two timelines on one axis, the pairs
// that differ marked and first; the detail pane says what differs in the
// selected pair; esc returns to the list.
func TestGoldenDiff(t *testing.T) {
	for _, c := range []struct {
		name, a, b string
		keys       []string
	}{
		// The list is sorted newest first: payment-timeout-fixed (Nov 4)
		// above payment-timeout (Nov 3); mark the fixed run, compare the
		// timed-out one.
		{"payment-timeout", "payment-timeout-fixed", "payment-timeout", []string{"m", "j", "d"}},
		{"payment-timeout-pair", "payment-timeout-fixed", "payment-timeout", []string{"m", "j", "d", "j"}},
		{"card-declined-pair", "card-declined", "card-declined-no-retry", []string{"j", "m", "k", "d", "j"}},
	} {
		for _, size := range [][2]int{{80, 24}, {120, 40}} {
			t.Run(c.name+"_"+sizeName(size), func(t *testing.T) {
				opts := testOptions(Options{Source: twinSource(t, c.a, c.b), Profile: colorprofile.ASCII})
				m := start(t, opts, size[0], size[1])
				m = keys(t, m, c.keys...)
				out := ansi.Strip(m.View().Content)
				checkFrame(t, out, size[0], size[1])
				if !strings.Contains(out, "≠") {
					t.Errorf("no pair is marked as differing:\n%s", out)
				}
				golden.RequireEqual(t, out)
			})
		}
	}
}

func TestDiffKeys(t *testing.T) {
	opts := testOptions(Options{Source: twinSource(t, "payment-timeout-fixed", "payment-timeout")})
	m := start(t, opts, 120, 40)
	m = keys(t, m, "d")
	if out := ansi.Strip(m.View().Content); !strings.Contains(out, "mark a run with m first") {
		t.Errorf("d with nothing marked does not say what to do:\n%s", out)
	}
	m = keys(t, m, "m")
	if out := ansi.Strip(m.View().Content); !strings.Contains(out, "◇ order-7740") || !strings.Contains(out, "marked run order-7740") {
		t.Errorf("m does not mark the run in the list:\n%s", out)
	}
	m = keys(t, m, "d")
	if out := ansi.Strip(m.View().Content); !strings.Contains(out, "this is the marked run") {
		t.Errorf("d on the marked run does not say so:\n%s", out)
	}
	m = keys(t, m, "j", "d")
	out := ansi.Strip(m.View().Content)
	if !strings.Contains(out, "A  order-7740") || !strings.Contains(out, "B  order-7731") {
		t.Fatalf("d does not open the two runs compared:\n%s", out)
	}
	if !strings.Contains(out, "only in B: ▲ high duplicate-side-effect in ChargeCard") {
		t.Errorf("the runs' detail does not name the finding only B has:\n%s", out)
	}
	m = keys(t, m, "esc")
	if out := ansi.Strip(m.View().Content); strings.Contains(out, "A  order-7740") || !strings.Contains(out, "order-7731") {
		t.Errorf("esc does not return to the list:\n%s", out)
	}
}

// TestCompareOpensDiff: the view opened with two histories (twice diff on
// a terminal) shows them compared; with no list under it, esc says so.
func TestCompareOpensDiff(t *testing.T) {
	var hs [2]*catalyst.History
	for i, name := range []string{"card-declined", "card-declined-no-retry"} {
		h, err := fixtures.OpenDemo(name, fixtures.OpenOptions{})
		if err != nil {
			t.Fatal(err)
		}
		hs[i] = h
	}
	m := start(t, Options{Compare: hs}, 100, 30)
	out := ansi.Strip(m.View().Content)
	if !strings.Contains(out, "A  order-7802") || !strings.Contains(out, "≠ charge_card") {
		t.Fatalf("the two runs are not shown compared:\n%s", out)
	}
	m = keys(t, m, "esc")
	if out := ansi.Strip(m.View().Content); !strings.Contains(out, "no run list to go back to") {
		t.Errorf("esc with no list under the diff:\n%s", out)
	}
}
