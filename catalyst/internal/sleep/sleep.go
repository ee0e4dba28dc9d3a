// Package sleep waits for a while unless a context ends first: the live
// client's backoff between attempts, and the Catalyst stand-in's injected
// latency.
package sleep

import (
	"context"
	"time"
)

// For waits d, or until ctx is done, and returns ctx's error in that case
// (also when d is not positive and ctx is already done).
func For(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
