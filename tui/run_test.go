package tui

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/colorprofile"
	"go.uber.org/goleak"

	"github.com/twice-cli/twice/tui/internal/tuitest"
)

// TestRunQuitsCleanly runs the real program on a pipe: q quits, Run returns
// nil, and no goroutine is left behind.
func TestRunQuitsCleanly(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	in, w := io.Pipe()
	var out bytes.Buffer
	done := make(chan error, 1)
	go func() {
		done <- Run(context.Background(), Options{History: tuitest.Charge(), Input: in, Output: &out,
			Profile: colorprofile.ASCII, Now: tuitest.Now})
	}()
	time.Sleep(100 * time.Millisecond)
	if _, err := w.Write([]byte("q")); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Run returned %v after q", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return after q")
	}
	w.Close()
	// (With no terminal there is no window size, so the renderer draws no
	// cells; the window title shows the view was rendered, from the run id.)
	if !strings.Contains(out.String(), "\x1b]2;twice · charge-7731\a") {
		t.Errorf("the view was not rendered: %q", out.String())
	}
}

// TestRunStopsWhenCancelled: cancelling the context ends Run with the
// context's error, even while a fetch is held up.
func TestRunStopsWhenCancelled(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	src := tuitest.NewSource().Add(tuitest.Charge())
	src.Gate = make(chan struct{}) // the fetch never answers
	in, w := io.Pipe()
	defer w.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, Options{Source: src, Open: chargeRef(), Input: in, Output: io.Discard, Profile: colorprofile.ASCII})
	}()
	time.Sleep(100 * time.Millisecond)
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("Run returned %v, want context.Canceled", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return after cancel")
	}
}
