package catalyst

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain checks that no test leaves a goroutine behind: the bulk
// decoder's helper must stop with every decode, whole or failed.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
