package runview

import (
	"testing"

	"github.com/twice-cli/twice/tui/internal/tuitest"
)

// TestEveryKeyIsDocumented checks the run view's bindings, with the Code
// tab: the view's own and each tab's (a tab's keys apply in its own
// scope, before the view's).
func TestEveryKeyIsDocumented(t *testing.T) {
	m := newView(120, 40)
	m.SetCode(&CodeSource{})
	cat := &m.c.Keys
	tuitest.CheckBindings(t, "run view", append(m.modalBindings(), m.viewBindings()...), inInput|inSort, cat)
	for _, tab := range m.tabs {
		tuitest.CheckBindings(t, tab.title()+" tab", tab.bindings(), inInput|inSort, cat)
	}
}
