package detail

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/twice-cli/twice/tui/common"
	"github.com/twice-cli/twice/tui/format"
	"github.com/twice-cli/twice/tui/style"
)

func newPane(w, h int) Model {
	c := &common.Common{Styles: style.New(colorprofile.NoTTY), Keys: common.DefaultKeys()}
	m := New(c)
	m.SetSize(w, h)
	return m
}

func TestWrapIndented(t *testing.T) {
	got := wrapIndented("  label: one two three four five", 16)
	want := []string{"  label: one two", "    three four", "    five"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("wrapIndented = %q, want %q", got, want)
	}
	for _, l := range wrapIndented("  "+strings.Repeat("x", 50), 16) {
		if format.Width(l) > 16 {
			t.Errorf("line %q is wider than 16", l)
		}
	}
	// A link that fits is never split across lines: in prose, it moves to
	// the next line rather than break. Wider than the pane, it has lines
	// of its own, broken only at the width and never cut, so it reads whole.
	link := "https://catalyst.diagrid.io/workflows/payments/charge-7731"
	got = wrapIndented(link, 24)
	if strings.Join(got, "") != link || strings.Contains(strings.Join(got, ""), "…") {
		t.Errorf("a link wider than the pane wraps as %q, want it whole", got)
	}
	for _, l := range got[:len(got)-1] {
		if format.Width(l) != 24 {
			t.Errorf("a link is broken before the width: %q", got)
		}
	}
	got = wrapIndented("    see https://acme.example/onboarding/teams/u-20931/getting-started?utm_source=welcome for more", 30)
	if strings.Join(got, "|") != "    see|      https://acme.example/onb|      oarding/teams/u-20931/ge|      tting-started?utm_source|      =welcome|      for more" {
		t.Errorf("a long link in prose wraps as %q", got)
	}
	got = wrapIndented("  see the page at https://example.com/a/b then retry", 30)
	if strings.Join(got, "|") != "  see the page at|    https://example.com/a/b|    then retry" {
		t.Errorf("a link in prose wraps as %q", got)
	}
	// A long word that is not a link is broken where it must be.
	for _, l := range wrapIndented("x "+strings.Repeat("y", 40), 16) {
		if format.Width(l) > 16 {
			t.Errorf("line %q is wider than 16", l)
		}
	}
}

func TestViewSizeAndScroll(t *testing.T) {
	m := newPane(20, 5)
	var lines []string
	for i := range 30 {
		lines = append(lines, "line "+strings.Repeat("x", i%3))
	}
	m.SetContent("Title", lines, false)
	view := strings.Split(m.View(), "\n")
	if len(view) != 5 || !strings.HasPrefix(view[0], "Title (0%") || view[1] != format.Pad("line ", 20) {
		t.Fatalf("view = %q", view)
	}
	for _, l := range view {
		if format.Width(l) != 20 {
			t.Errorf("line %q is %d wide", l, format.Width(l))
		}
	}
	m.ScrollDown(1)
	m.ScrollDown(1)
	if got := strings.Split(m.View(), "\n")[1]; !strings.HasPrefix(got, "line xx") {
		t.Errorf("ScrollDown did not scroll: first line %q", got)
	}
	m.SetContent("Title", lines, true)
	if got := strings.Split(m.View(), "\n")[1]; !strings.HasPrefix(got, "line xx") {
		t.Errorf("keepScroll lost the position: %q", got)
	}
	m.SetContent("Other", lines, false)
	if got := strings.Split(m.View(), "\n")[1]; got != format.Pad("line ", 20) {
		t.Errorf("a new selection did not scroll to the top: %q", got)
	}
	keys := common.DefaultKeys()
	if !m.Navigate(tea.KeyPressMsg{Code: 'd', Mod: tea.ModCtrl}, &keys) {
		t.Error("ctrl+d does not page the focused detail pane")
	}
	if got := strings.Split(m.View(), "\n")[1]; got == format.Pad("line ", 20) {
		t.Errorf("ctrl+d did not scroll: %q", got)
	}
	if m.Navigate(tea.KeyPressMsg{Code: 'x', Text: "x"}, &keys) {
		t.Error("x is not a movement key")
	}
	short := newPane(20, 5)
	short.SetContent("T", []string{"a"}, false)
	if strings.Contains(short.View(), "%") {
		t.Error("a pane that fits shows a scroll position")
	}
}

// TestWrapSourceLine: a line of source with its gutter ("  37 │ ", the
// marked one "› 37 │ ", possibly styled) continues under its text, not
// under its number; a line that only looks alike keeps the usual indent.
func TestWrapSourceLine(t *testing.T) {
	for _, line := range []string{
		"  37 │ headers = {'Idempotency-Key': str(uuid.uuid4())}",
		"› 37 │ headers = {'Idempotency-Key': str(uuid.uuid4())}",
		"\x1b[1m› 37 │\x1b[0m headers = {'Idempotency-Key': str(uuid.uuid4())}",
	} {
		got := wrapIndented(line, 30)
		if len(got) < 2 {
			t.Fatalf("%q did not wrap: %q", line, got)
		}
		for _, l := range got[1:] {
			if !strings.HasPrefix(l, strings.Repeat(" ", 7)) || l[7] == ' ' {
				t.Errorf("%q: continuation %q is not under the text (column 7)", line, l)
			}
		}
	}
	for line, want := range map[string]int{
		"  abc │ not a number gutter, so the usual indent applies":  4,
		"  12 3 │ two numbers are no gutter either, indent applies": 4,
	} {
		got := wrapIndented(line, 30)
		if lead := len(got[1]) - len(strings.TrimLeft(got[1], " ")); lead != want {
			t.Errorf("%q: continuation %q indented %d, want %d", line, got[1], lead, want)
		}
	}
}
