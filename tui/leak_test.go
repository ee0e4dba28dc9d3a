package tui

import (
	"os"
	"testing"

	"go.uber.org/goleak"
)

// TestMain checks that no test leaves a goroutine behind: commands that
// load, analyse, poll or open links run on goroutines. teatest's own
// watcher, which waits on the test program forever by design, is not ours.
//
// Started as the fake editor (code_test.go), the binary records its
// arguments and exits instead.
func TestMain(m *testing.M) {
	if runFakeEditor() {
		os.Exit(0)
	}
	goleak.VerifyTestMain(m, goleak.IgnoreTopFunction("github.com/charmbracelet/x/exp/teatest/v2.NewTestModel.func2"))
}
