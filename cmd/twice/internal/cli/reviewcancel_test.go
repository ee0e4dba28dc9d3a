package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// cancelAfter is a context cancelled from its n-th Err call on: ctrl+c
// while twice is at work, wherever it looks.
type cancelAfter struct {
	context.Context
	calls atomic.Int32
	n     int32
}

func (c *cancelAfter) Err() error {
	if c.calls.Add(1) >= c.n {
		return context.Canceled
	}
	return nil
}

// TestReviewCtrlCExits130 (issue 26, item 10): ctrl+c while review's rules
// run stops it: exit 130 as README says, "interrupted", no report. Before,
// the review ran on, printed its report and exited 0. Under show --source
// alike.
func TestReviewCtrlCExits130(t *testing.T) {
	var b strings.Builder
	b.WriteString("package main\n\nimport (\n\t\"net/http\"\n\n\t\"github.com/dapr/durabletask-go/workflow\"\n\t\"github.com/google/uuid\"\n)\n\n")
	for i := range 100 {
		fmt.Fprintf(&b, "func Act%d(ctx workflow.ActivityContext) (any, error) {\n\treq, _ := http.NewRequest(http.MethodPost, \"https://pay.example/c\", nil)\n\treq.Header.Set(\"Idempotency-Key\", uuid.NewString())\n\treturn http.DefaultClient.Do(req)\n}\n\n", i)
	}
	b.WriteString("func main() {\n\tr := workflow.NewRegistry()\n")
	for i := range 100 {
		fmt.Fprintf(&b, "\t_ = r.AddActivity(Act%d)\n", i)
	}
	b.WriteString("}\n")
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "acts.go"), []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"review", dir},
		{"review", dir, "--exit-status"},
		{"show", "demo:payment-timeout", "--source", dir, "-o", "text"},
	} {
		h := newHarness(t)
		f, out, errOut := h.factory()
		code := Execute(&cancelAfter{Context: context.Background(), n: 8}, f, args)
		if code != ExitInterrupted || !strings.Contains(errOut.String(), "interrupted") || strings.Contains(out.String(), "Act1") {
			t.Errorf("twice %s cancelled: exit %d, want %d; stderr %q; stdout %.200q", strings.Join(args, " "), code, ExitInterrupted, errOut.String(), out.String())
		}
	}
}
