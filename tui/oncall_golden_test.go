package tui

import (
	"context"
	"testing"
	"time"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/twice-cli/twice/fixtures"
	"github.com/twice-cli/twice/tui/internal/tuitest"
)

// onCallScenes are the screens issue 23 ("On call at 3 a.m.") changed, one
// or more per item, each named for its item.
func onCallScenes() []scene {
	return []scene{
		// Item 4: a fan-out's rows, findings and timeline labels say which
		// invoice each is (the input field that tells them apart); withheld
		// inputs fall back to the task execution id.
		{name: "item4-fanout-invocations", opts: fanOut(false)},
		{name: "item4-fanout-timeline", opts: fanOut(false), keys: []string{"tab"}},
		{name: "item4-fanout-findings", opts: fanOut(false), keys: []string{"tab", "tab", "tab"}},
		{name: "item4-fanout-withheld", opts: fanOut(true)},
		// Item 5: the Timeline draws the run's waits (eight 5-minute
		// polls, the wait for an approval and its arrival, a suspension)
		// under the rows, so a long run does not look idle; + zooms around
		// the moment that matters (ShipOrderWorkflow's failure), not its
		// start; space unfolds the attempts, and enter on one shows it in
		// the detail pane.
		{name: "item5-waits", opts: waits, keys: []string{"tab"}},
		{name: "item5-zoom-moment", opts: waits, keys: []string{"tab", "+", "+", "+"}},
		{name: "item5-attempts-unfolded", opts: waits, keys: []string{"tab", "space", "j"}},
		{name: "item5-attempt-detail", opts: waits, keys: []string{"tab", "space", "j", "enter"}},
		// Item 7: several saved files (twice show a.json b.json …, twice
		// show DIR) open the run list over them, as the demos do.
		{name: "item7-runlist-over-files", opts: func() Options {
			files := []string{"../fixtures/demo/card-declined.json", "../fixtures/demo/email-503.json", "../fixtures/demo/payment-timeout.json"}
			at := time.Date(2026, 11, 4, 9, 0, 0, 0, time.UTC)
			return Options{Source: fixtures.NewSource(fixtures.OpenOptions{}, files...), SourceName: "3 history files",
				Now: func() time.Time { return at }}
		}},
		// Item 1: the filter finds a customer: /dana (the "to" of
		// SendEmail's input) keeps SendEmail on the Invocations and the
		// Findings tabs, and the detail pane says where it matched.
		{name: "item1-filter-customer", opts: demo("email-503"), keys: []string{"/", "d", "a", "n", "a", "enter"}},
		{name: "item1-filter-customer-findings", opts: demo("email-503"), keys: []string{"/", "d", "a", "n", "a", "enter", "tab", "tab", "tab"}},
		// Item 2: enter on an evidence line jumps to its event and the key
		// bar says where esc goes; esc returns to the Findings tab, the
		// same line, the filter kept.
		{name: "item2-jumped", opts: demo("payment-timeout"), keys: []string{"/", "c", "h", "a", "r", "g", "e", "enter", "tab", "tab", "tab", "j", "j", "enter"}},
		{name: "item2-esc-returns", opts: demo("payment-timeout"), keys: []string{"/", "c", "h", "a", "r", "g", "e", "enter", "tab", "tab", "tab", "j", "j", "enter", "esc"}},
		// Item 6: the Events tab's TIME column in the time format: ISO
		// instants to line events up with logs, and no "Age:" in ELAPSED;
		// relative ages give way first.
		{name: "item6-events-iso", opts: func() Options {
			o := demo("payment-timeout")()
			o.TimeFormat = "iso"
			return o
		}, keys: []string{"tab", "tab", "j", "j", "j", "j", "j"}},
		{name: "item6-events-relative", opts: demo("payment-timeout"), keys: []string{"tab", "tab", "j", "j", "j", "j", "j"}},
		// Item 8: number keys pick tabs; : opens a command line whose
		// unknown commands are answered.
		{name: "item8-number-key", opts: demo("payment-timeout"), keys: []string{"3"}},
		{name: "item8-command-typing", opts: demo("payment-timeout"), keys: []string{":", "s", "o", "r", "t", "space", "d", "u", "r"}},
		{name: "item8-command-sorted", opts: demo("payment-timeout"), keys: []string{":", "s", "o", "r", "t", "space", "d", "u", "r", "enter"}},
		{name: "item8-command-unknown", opts: demo("payment-timeout"), keys: []string{":", "f", "r", "o", "b", "enter"}},
		// Item 8: a file:line:col in the detail pane is never broken
		// across lines (.NET's long paths beside the list at 120).
		{name: "item8-location-whole", opts: withCode(demo("dotnet-retry"), demoCode), keys: []string{"["}},
		// Item 3: y on a finding copies it with its run, app, project,
		// link and whole ids; inside tmux the status line says it went to
		// tmux's paste buffer.
		{name: "item3-copy-finding", opts: demo("payment-timeout"), keys: []string{"tab", "tab", "tab", "y"}},
		{name: "item3-copy-finding-tmux", opts: func() Options {
			o := demo("payment-timeout")()
			o.TmuxBuffer = func(context.Context, string) error { return nil }
			return o
		}, keys: []string{"tab", "tab", "tab", "y"}},
	}
}

// TestGoldenOnCall renders issue 23's scenes at 80×24 and 120×40, in
// monochrome with a fixed clock, against testdata/TestGoldenOnCall.
func TestGoldenOnCall(t *testing.T) {
	for _, sc := range onCallScenes() {
		for _, size := range [][2]int{{80, 24}, {120, 40}} {
			t.Run(sc.name+"_"+sizeName(size), func(t *testing.T) {
				m := render(t, sc, size[0], size[1], colorprofile.ASCII)
				out := ansi.Strip(m.View().Content)
				checkFrame(t, out, size[0], size[1])
				golden.RequireEqual(t, out)
			})
		}
	}
}

// fanOut is the twenty-invoice run (tuitest.FanOut), its payloads present
// or withheld, with the test clock.
func fanOut(withheld bool) func() Options {
	return func() Options { return Options{History: tuitest.FanOut(withheld), Now: tuitest.Now} }
}

// waits is the 59-minute order run that mostly waits (tuitest.Waits),
// with the test clock.
func waits() Options { return Options{History: tuitest.Waits(), Now: tuitest.Now} }
