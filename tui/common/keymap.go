package common

import (
	"cmp"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// Binding is one key of a pane, declared once: the key, what it does,
// when it applies, and where the key bar and the help screen show it. A
// pane keeps one list of them (its KeyMap); dispatch (KeyMap.Handle), the
// key bar (KeyMap.Bar) and the help screen (KeyMap.Groups) all read that
// list, so a key added to it is handled, hinted and documented at once.
// (The shape follows lazygit's Binding, jesseduffield/lazygit v0.64.1,
// pkg/gui/types/keybindings.go: keys, a handler, a description, whether
// the options bar shows it.)
type Binding struct {
	// Key is the catalogue's key (a field of Keys), its help relabelled
	// where the pane words it differently ("enter" "open run"): the keys
	// that press it and what the help screen says of it. A binding with
	// no keys takes every key press that reaches it in its states (the
	// filter line's typing, the sort menu's columns).
	Key key.Binding
	// Group is the help screen's group that lists it; NoGroup keeps it
	// off the help (a key of the filter line, where the help cannot be
	// opened).
	Group Group
	// In is the set of the pane's states the binding applies in (0: all
	// of them); Bar the states whose key bar shows it (0: none).
	In, Bar Scope
	// When, if set, is a further condition on applying it (the tab it
	// belongs to is the one on screen).
	When func() bool
	// Hint, if set, is what the key bar says of it now, when that depends
	// on the data (enter on a child workflow "open child run"); the zero
	// Help keeps it off the bar. Without Hint the bar says its help.
	Hint func() key.Help
	// Lead, if set and true, puts the binding first on the key bar now: the
	// key that matters most in this moment (esc after a jump: the way
	// back), which a narrow bar would otherwise cut.
	Lead func() bool
	// Do handles the key press and returns the command it starts. A nil
	// Do is a key the root handles (the run keys R, F, y, Y, o, which act
	// on the pane on top): the binding only places it on the pane's key
	// bar and in its help.
	Do func(msg tea.KeyPressMsg) tea.Cmd
}

// applies reports whether b applies in state s.
func (b *Binding) applies(s Scope) bool {
	return (b.In == 0 || b.In&s != 0) && (b.When == nil || b.When())
}

// Matches reports whether msg presses b (any key, for a binding with no
// keys).
func (b *Binding) Matches(msg tea.KeyPressMsg) bool {
	return len(b.Key.Keys()) == 0 || key.Matches(msg, b.Key)
}

// Scope is a set of the states a pane can be in — its list has the focus,
// its detail pane has, its filter line is open, its sort menu is — one bit
// each, defined by the pane. A binding applies in the states of its In and
// is on the key bar in those of its Bar.
type Scope uint16

// KeyMap is a pane's keys: its bindings in order, and the state it is in
// now. The order is the order of dispatch (the first binding that applies
// and matches handles a key) and of the key bar.
type KeyMap struct {
	Bindings []Binding
	// Scope is the pane's state now: one of its Scope bits.
	Scope Scope
}

// Handle runs the first binding that applies now and matches msg, and
// reports whether one did. A binding the root handles (nil Do) is passed
// over.
func (k KeyMap) Handle(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	for i := range k.Bindings {
		b := &k.Bindings[i]
		if b.Do != nil && b.Matches(msg) && b.applies(k.Scope) {
			return b.Do(msg), true
		}
	}
	return nil, false
}

// Bar returns the keys the key bar shows now, in order (those that lead
// now first), each with the words the bar says of it.
func (k KeyMap) Bar() []key.Binding {
	var out []key.Binding
	lead := 0
	for i := range k.Bindings {
		b := &k.Bindings[i]
		if b.Bar&k.Scope == 0 || !b.applies(k.Scope) {
			continue
		}
		first := b.Lead != nil && b.Lead()
		shown := b.Key
		if b.Hint != nil {
			h := b.Hint()
			if h.Key == "" {
				continue
			}
			shown.SetHelp(h.Key, h.Desc)
		}
		if first {
			out = slices.Insert(out, lead, shown)
			lead++
			continue
		}
		out = append(out, shown)
	}
	return out
}

// Groups returns every key of the list for the help screen, whatever the
// state: in titled groups, in the groups' order (GroupOrder), each group's
// keys in the catalogue's order (cat.All), a key listed twice with the same
// words (enter, on every tab) once.
func (k KeyMap) Groups(cat *Keys) []KeyGroup {
	rank := make(map[string]int)
	for i, b := range cat.All() {
		rank[keysOf(b)] = i
	}
	of := func(b key.Binding) int {
		if r, ok := rank[keysOf(b)]; ok {
			return r
		}
		return len(rank)
	}
	var groups []KeyGroup
	for i := range k.Bindings {
		b := &k.Bindings[i]
		if b.Group == NoGroup {
			continue
		}
		g := slices.IndexFunc(groups, func(g KeyGroup) bool { return g.Title == string(b.Group) })
		if g < 0 {
			groups = append(groups, KeyGroup{Title: string(b.Group)})
			g = len(groups) - 1
		}
		h := b.Key.Help()
		if slices.ContainsFunc(groups[g].Keys, func(o key.Binding) bool { return o.Help() == h }) {
			continue
		}
		groups[g].Keys = append(groups[g].Keys, b.Key)
	}
	for i := range groups {
		slices.SortStableFunc(groups[i].Keys, func(a, b key.Binding) int { return cmp.Compare(of(a), of(b)) })
	}
	slices.SortStableFunc(groups, func(a, b KeyGroup) int { return cmp.Compare(Group(a.Title).rank(), Group(b.Title).rank()) })
	return groups
}

// keysOf is a binding's keys as one string, to find it in the catalogue.
func keysOf(b key.Binding) string { return strings.Join(b.Keys(), "\x00") }

// Group is a titled group of the help screen.
type Group string

// The help screen's groups. A binding with NoGroup is not listed.
const (
	NoGroup       Group = ""
	GroupMove     Group = "Move"
	GroupRunList  Group = "Run list"
	GroupRunView  Group = "Run view"
	GroupDetail   Group = "Detail pane"
	GroupTimeline Group = "Timeline"
	GroupFilter   Group = "Filter"
	GroupRun      Group = "Run"
	GroupCode     Group = "Code"
	GroupDiff     Group = "Diff"
	GroupApp      Group = "App"
)

// GroupOrder is the order the help screen lists its groups in; a group
// not named here comes after them.
func GroupOrder() []Group {
	return []Group{GroupMove, GroupRunList, GroupRunView, GroupDetail, GroupTimeline, GroupFilter, GroupRun, GroupCode, GroupDiff, GroupApp}
}

// rank is g's place in GroupOrder.
func (g Group) rank() int {
	order := GroupOrder()
	if i := slices.Index(order, g); i >= 0 {
		return i
	}
	return len(order)
}
