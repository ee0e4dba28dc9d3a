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
	want := []string{"  label: one", "    two three", "    four five"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("wrapIndented = %q, want %q", got, want)
	}
	for _, l := range wrapIndented("  "+strings.Repeat("x", 50), 16) {
		if format.Width(l) > 16 {
			t.Errorf("line %q is wider than 16", l)
		}
	}
	// One word (a link) continues at its own indent, with no spaces added.
	link := "https://catalyst.diagrid.io/workflows/payments/charge-7731"
	got = wrapIndented(link, 24)
	if strings.Join(got, "") != link || len(got) != 3 {
		t.Errorf("a link wraps as %q", got)
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
	m.Update(tea.KeyPressMsg{Code: 'J', Text: "J"})
	m.Update(tea.KeyPressMsg{Code: 'J', Text: "J"})
	if got := strings.Split(m.View(), "\n")[1]; !strings.HasPrefix(got, "line xx") {
		t.Errorf("J did not scroll: first line %q", got)
	}
	m.SetContent("Title", lines, true)
	if got := strings.Split(m.View(), "\n")[1]; !strings.HasPrefix(got, "line xx") {
		t.Errorf("keepScroll lost the position: %q", got)
	}
	m.SetContent("Other", lines, false)
	if got := strings.Split(m.View(), "\n")[1]; got != format.Pad("line ", 20) {
		t.Errorf("a new selection did not scroll to the top: %q", got)
	}
	if m.Update(tea.KeyPressMsg{Code: 'j', Text: "j"}) {
		t.Error("j scrolled the detail pane (it moves the list)")
	}
	short := newPane(20, 5)
	short.SetContent("T", []string{"a"}, false)
	if strings.Contains(short.View(), "%") {
		t.Error("a pane that fits shows a scroll position")
	}
}
