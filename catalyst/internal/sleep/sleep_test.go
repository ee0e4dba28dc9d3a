package sleep

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestFor(t *testing.T) {
	if err := For(context.Background(), time.Millisecond); err != nil {
		t.Errorf("a finished wait: %v", err)
	}
	if err := For(context.Background(), 0); err != nil {
		t.Errorf("no wait: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := For(ctx, 0); !errors.Is(err, context.Canceled) {
		t.Errorf("no wait on a cancelled context: %v", err)
	}
	start := time.Now()
	if err := For(ctx, time.Hour); !errors.Is(err, context.Canceled) || time.Since(start) > time.Minute {
		t.Errorf("a cancelled wait: %v after %v", err, time.Since(start))
	}
}
