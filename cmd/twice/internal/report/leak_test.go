package report

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain checks that no test leaves a goroutine behind: the analysis a
// JSON stream runs while it writes must end with the stream.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
