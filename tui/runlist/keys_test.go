package runlist

import (
	"testing"

	"github.com/twice-cli/twice/tui/internal/tuitest"
)

// TestEveryKeyIsDocumented checks the run list's bindings.
func TestEveryKeyIsDocumented(t *testing.T) {
	m := newList(80, 20)
	tuitest.CheckBindings(t, "run list", m.Keys().Bindings, inInput|inSort, &m.c.Keys)
}
