package review_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/twice-cli/twice/detect/review"
	"github.com/twice-cli/twice/detect/review/langs"
)

// cancelAfter is a context that reports itself cancelled from its n-th
// Err call on: a ctrl+c that arrives while the review is at work,
// wherever it checks.
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

// manyActivities writes one Go file registering n activities, each with a
// side effect the rules look at.
func manyActivities(t *testing.T, n int) string {
	var b strings.Builder
	b.WriteString("package main\n\nimport (\n\t\"net/http\"\n\t\"strings\"\n\n\t\"github.com/dapr/durabletask-go/workflow\"\n\t\"github.com/google/uuid\"\n)\n\n")
	for i := range n {
		fmt.Fprintf(&b, "func Act%d(ctx workflow.ActivityContext) (any, error) {\n\treq, _ := http.NewRequest(http.MethodPost, \"https://pay.example/c\", strings.NewReader(\"x\"))\n\treq.Header.Set(\"Idempotency-Key\", uuid.NewString())\n\treturn http.DefaultClient.Do(req)\n}\n\n", i)
	}
	b.WriteString("func main() {\n\tr := workflow.NewRegistry()\n")
	for i := range n {
		fmt.Fprintf(&b, "\t_ = r.AddActivity(Act%d)\n", i)
	}
	b.WriteString("}\n")
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "acts.go"), []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestReviewStopsWhenCancelled (issue 26, item 10): a review cancelled
// while its rules run (ctrl+c after the files were read) stops with
// context.Canceled instead of running on and returning its report; the
// rules look at the context for each activity.
func TestReviewStopsWhenCancelled(t *testing.T) {
	dir := manyActivities(t, 200)
	rep, err := review.Review(context.Background(), []string{dir}, langs.Options())
	if err != nil || len(rep.Activities) != 200 {
		t.Fatalf("the tree itself: %v, %d activities", err, len(rep.Activities))
	}
	ctx := &cancelAfter{Context: context.Background(), n: 10}
	rep, err = review.Review(ctx, []string{dir}, langs.Options())
	if !errors.Is(err, context.Canceled) || rep != nil {
		t.Fatalf("cancelled after %d checks: err %v, report %v; want context.Canceled and no report", ctx.n, err, rep != nil)
	}
	if got := ctx.calls.Load(); got > 40 {
		t.Errorf("the review looked at the context %d times after it was cancelled at %d: it went on", got, ctx.n)
	}
}
