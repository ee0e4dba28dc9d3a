package common

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// The states of the test's bindings.
const (
	stateA Scope = 1 << iota
	stateB
)

func press(s string) tea.KeyPressMsg {
	r := []rune(s)
	return tea.KeyPressMsg{Code: r[0], Text: s}
}

func TestHandleTakesTheFirstBindingThatApplies(t *testing.T) {
	k := DefaultKeys()
	var got []string
	did := func(name string) func(tea.KeyPressMsg) tea.Cmd {
		return func(tea.KeyPressMsg) tea.Cmd { got = append(got, name); return nil }
	}
	off := false
	km := KeyMap{Bindings: []Binding{
		{Key: k.Filter, When: func() bool { return off }, Do: did("guarded")},
		{Key: k.Sort}, // the root's: passed over
		{Key: k.Filter, In: stateB, Do: did("b")},
		{Key: k.Filter, In: stateA, Do: did("a")},
		{Key: k.Sort, Do: did("sort")},
		{Key: key.NewBinding(key.WithHelp("type", "anything")), In: stateB, Do: did("any")},
	}}
	for _, c := range []struct {
		state Scope
		key   string
		want  string
		ok    bool
	}{
		{stateA, "/", "a", true},
		{stateB, "/", "b", true},
		{stateA, "s", "sort", true},
		{stateA, "x", "", false},
		{stateB, "x", "any", true},
	} {
		got = nil
		km.Scope = c.state
		_, ok := km.Handle(press(c.key))
		if ok != c.ok || strings.Join(got, ",") != c.want {
			t.Errorf("state %b, %q: ran %v (handled %v), want %q (%v)", c.state, c.key, got, ok, c.want, c.ok)
		}
	}
}

func TestBarShowsWhatAppliesNowInOrder(t *testing.T) {
	k := DefaultKeys()
	selected := false
	km := KeyMap{Bindings: []Binding{
		{Key: k.Enter, Bar: stateA, Hint: func() key.Help {
			if !selected {
				return key.Help{}
			}
			return key.Help{Key: "enter", Desc: "open run"}
		}},
		{Key: k.Filter, Bar: stateA | stateB},
		{Key: k.Sort, In: stateB, Bar: stateA | stateB},
		{Key: k.Retried},
	}, Scope: stateA}
	bar := func() string {
		var parts []string
		for _, b := range km.Bar() {
			parts = append(parts, b.Help().Key+" "+b.Help().Desc)
		}
		return strings.Join(parts, " · ")
	}
	if got := bar(); got != "/ filter" {
		t.Errorf("bar = %q, want the filter only (enter has nothing to say, s applies in B only)", got)
	}
	selected = true
	if got := bar(); got != "enter open run · / filter" {
		t.Errorf("bar = %q, want enter's hint first", got)
	}
	km.Scope = stateB
	if got := bar(); got != "/ filter · s sort" {
		t.Errorf("bar in B = %q", got)
	}
}

func TestGroupsListEveryKeyInTheCataloguesOrder(t *testing.T) {
	k := DefaultKeys()
	open := k.Enter
	open.SetHelp("enter", "open run")
	km := KeyMap{Bindings: []Binding{
		{Key: k.Quit, Group: GroupApp},
		{Key: k.Sort, Group: GroupRunList, In: stateB},
		{Key: k.Down, Group: GroupMove},
		{Key: open, Group: GroupRunList},
		{Key: open, Group: GroupRunList, In: stateB}, // the same words: once
		{Key: k.Up, Group: GroupMove},
		{Key: k.Enter}, // no group: not listed
		{Key: k.Flagged, Group: "Mine"},
	}}
	var got []string
	for _, g := range km.Groups(&k) {
		line := g.Title + ":"
		for _, b := range g.Keys {
			line += " " + b.Help().Key + "=" + b.Help().Desc
		}
		got = append(got, line)
	}
	want := []string{"Move: ↑/k=up ↓/j=down", "Run list: enter=open run s=sort", "App: q=quit", "Mine: !=flagged only"}
	if !slices.Equal(got, want) {
		t.Errorf("groups:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestCatalogueHasEveryKey: every field of Keys is in the catalogue (so it
// is bound and ordered), and no two keys share a key press but the
// Timeline's zoom, which takes the detail pane's + and - where its list has
// the keys.
func TestCatalogueHasEveryKey(t *testing.T) {
	k := DefaultKeys()
	v := reflect.ValueOf(k)
	all := k.All()
	if v.NumField() != len(all) {
		t.Errorf("Keys has %d fields, the catalogue %d", v.NumField(), len(all))
	}
	for i := range v.NumField() {
		b := v.Field(i).Interface().(key.Binding)
		if len(b.Keys()) == 0 || b.Help().Key == "" || b.Help().Desc == "" {
			t.Errorf("Keys.%s is not in the catalogue: %+v", v.Type().Field(i).Name, b.Help())
		}
	}
	owner := make(map[string]string)
	for _, b := range all {
		for _, p := range b.Keys() {
			if o, ok := owner[p]; ok && b.Help().Key != k.Zoom.Help().Key {
				t.Errorf("%q is both %q and %q", p, o, b.Help().Desc)
			}
			owner[p] = b.Help().Desc
		}
	}
}

// TestBarLeads: a binding that leads now comes first on the key bar, the
// others in their order; when it does not lead, it keeps its place.
func TestBarLeads(t *testing.T) {
	k := DefaultKeys()
	lead := false
	km := KeyMap{Scope: 1, Bindings: []Binding{
		{Key: k.NextTab, Bar: 1},
		{Key: k.Filter, Bar: 1},
		{Key: k.Back, Bar: 1, Lead: func() bool { return lead }},
	}}
	keys := func() (out []string) {
		for _, b := range km.Bar() {
			out = append(out, b.Help().Key)
		}
		return out
	}
	if got := keys(); !slices.Equal(got, []string{"tab/]", "/", "esc"}) {
		t.Errorf("not leading: %v", got)
	}
	lead = true
	if got := keys(); !slices.Equal(got, []string{"esc", "tab/]", "/"}) {
		t.Errorf("leading: %v", got)
	}
}
