package lineinput

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/twice-cli/twice/catalyst/safetext/hostiletest"
	"github.com/twice-cli/twice/tui/format"
)

func key(s string) tea.KeyPressMsg {
	switch s {
	case "backspace":
		return tea.KeyPressMsg{Code: tea.KeyBackspace}
	case "ctrl+u":
		return tea.KeyPressMsg{Code: 'u', Mod: tea.ModCtrl}
	case "ctrl+w":
		return tea.KeyPressMsg{Code: 'w', Mod: tea.ModCtrl}
	case "alt+x":
		return tea.KeyPressMsg{Code: 'x', Text: "x", Mod: tea.ModAlt}
	}
	r := []rune(s)[0]
	return tea.KeyPressMsg{Code: r, Text: s}
}

func TestEditing(t *testing.T) {
	for _, c := range []struct {
		keys []string
		want string
	}{
		{[]string{"a", "b", "c"}, "abc"},
		{[]string{"é", "漢", "backspace"}, "é"},
		{[]string{"backspace"}, ""},
		{[]string{"a", "ctrl+u"}, ""},
		{[]string{"a", "b", " ", "c", "d", "ctrl+w"}, "ab "},
		{[]string{"A", "alt+x"}, "A"},
	} {
		var m Model
		for _, k := range c.keys {
			m.Update(key(k))
		}
		if m.Value() != c.want {
			t.Errorf("%v: value %q, want %q", c.keys, m.Value(), c.want)
		}
	}
	m := Model{Limit: 4}
	if !m.Update(tea.PasteMsg{Content: "ab\ncd\tef"}) || m.Value() != "ab c" {
		t.Errorf("paste: %q", m.Value())
	}
	if m.Update(key("z")) {
		t.Error("typing past the limit changed the value")
	}
}

func TestViewIsSafeAndFits(t *testing.T) {
	m := Model{Prompt: "/"}
	m.SetValue("x" + hostiletest.Joined())
	v := m.View(30)
	if _, bad := hostiletest.FindUnsafe(v, false); bad {
		t.Errorf("the input shows raw control characters: %q", v)
	}
	if format.Width(v) > 30 {
		t.Errorf("the input is %d columns wide", format.Width(v))
	}
	m.SetValue("abc")
	if got := m.View(30); got != "/abc▌" {
		t.Errorf("View = %q", got)
	}
}
