package tuitest

import (
	"slices"
	"testing"

	"charm.land/bubbles/v2/key"

	"github.com/twice-cli/twice/tui/common"
)

// CheckBindings checks one list of a pane's bindings (one scope of
// dispatch: a tab's own, or the pane's): every binding says what it is and
// does; every binding is on the help screen but those of the modal states
// (the filter line, the sort menu: their key bar says their few keys); no
// two bindings that apply in one state share a key; at most one
// binding takes any key in a state. name says which list failed.
func CheckBindings(t *testing.T, name string, bs []common.Binding, modal common.Scope, cat *common.Keys) {
	t.Helper()
	help := common.KeyMap{Bindings: bs}.Groups(cat)
	listed := func(b common.Binding) bool {
		for _, g := range help {
			if g.Title == string(b.Group) && slices.ContainsFunc(g.Keys, func(k key.Binding) bool { return k.Help() == b.Key.Help() }) {
				return true
			}
		}
		return false
	}
	for i, b := range bs {
		h := b.Key.Help()
		if h.Key == "" || h.Desc == "" {
			t.Errorf("%s: binding %d (%v) does not say what it is and does: %+v", name, i, b.Key.Keys(), h)
		}
		switch {
		case b.Group == common.NoGroup && (b.In == 0 || b.In&^modal != 0):
			t.Errorf("%s: %q %q applies outside the modal states but is in no help group", name, h.Key, h.Desc)
		case b.Group != common.NoGroup && !listed(b):
			t.Errorf("%s: %q %q is not on the help screen", name, h.Key, h.Desc)
		}
		for _, o := range bs[i+1:] {
			if !overlap(b.In, o.In) {
				continue
			}
			if len(b.Key.Keys()) == 0 && len(o.Key.Keys()) == 0 {
				t.Errorf("%s: %q and %q both take any key in one state", name, h.Desc, o.Key.Help().Desc)
			}
			for _, k := range b.Key.Keys() {
				if slices.Contains(o.Key.Keys(), k) {
					t.Errorf("%s: %q is bound twice in one state: %q and %q", name, k, h.Desc, o.Key.Help().Desc)
				}
			}
		}
	}
}

// overlap reports whether two bindings' states meet (0 is every state).
func overlap(a, b common.Scope) bool { return a == 0 || b == 0 || a&b != 0 }
