package tui

import (
	"slices"
	"testing"

	"github.com/twice-cli/twice/tui/common"
	"github.com/twice-cli/twice/tui/internal/tuitest"
)

// TestPlacedKeysAreTheRoots: a key a pane only places on its key bar and
// help (no handler of its own) is one the root handles while the pane is on
// top, and every run key of the root's is placed by a pane (the help lists
// it there, in the pane's words).
func TestPlacedKeysAreTheRoots(t *testing.T) {
	m := New(testOptions(Options{Source: tuitest.NewSource(), Code: benchCode()}))
	// Every state of the root's is "modal" for the check (the command
	// line's keys are on its key bar): its run keys
	// are in no group of their own; the loop below checks that panes
	// place them.
	tuitest.CheckBindings(t, "root", m.bindings, onPane|onHelp|onText|onCommand, &m.c.Keys)
	for _, r := range m.bindings {
		if r.Group != common.NoGroup || r.In&onPane == 0 {
			continue
		}
		if !slices.ContainsFunc(m.run.Keys().Bindings, func(b common.Binding) bool {
			return b.Do == nil && b.Group != common.NoGroup && slices.Equal(r.Key.Keys(), b.Key.Keys())
		}) {
			t.Errorf("the root's %q %q is on no pane's help", r.Key.Help().Key, r.Key.Help().Desc)
		}
	}
	handled := func(b common.Binding) bool {
		return slices.ContainsFunc(m.bindings, func(r common.Binding) bool {
			return r.Do != nil && r.In&onPane != 0 && slices.Equal(r.Key.Keys(), b.Key.Keys())
		})
	}
	for _, p := range []common.Pane{m.list, m.run} {
		placed := 0
		for _, b := range p.Keys().Bindings {
			if b.Do != nil {
				continue
			}
			placed++
			if !handled(b) {
				t.Errorf("%T places %q %q, which the root does not handle", p, b.Key.Help().Key, b.Key.Help().Desc)
			}
		}
		if placed == 0 {
			t.Errorf("%T places none of the run keys", p)
		}
	}
}
