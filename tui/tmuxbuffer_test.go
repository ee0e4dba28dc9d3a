package tui

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/twice-cli/twice/tui/internal/tuitest"
)

// fakeTmux puts a tmux on PATH that runs script (sh) and returns the
// folder it records into.
func fakeTmux(t *testing.T, script string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "tmux"), []byte("#!/bin/sh\n"+script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv("REC", dir)
	return dir
}

func readRec(t *testing.T, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatalf("tmux did not record %s: %v", name, err)
	}
	return string(b)
}

// TestTmuxBuffer: inside tmux (TMUX set) a copy goes to tmux's paste
// buffer through tmux load-buffer -w - (the text on standard input, no
// shell); a tmux without -w is asked again without it; outside tmux there
// is nothing to do.
func TestTmuxBuffer(t *testing.T) {
	inside := func(k string) string {
		if k == "TMUX" {
			return "/tmp/tmux-0/default,1,0"
		}
		return ""
	}
	if TmuxBuffer(func(string) string { return "" }) != nil || TmuxBuffer(nil) != nil {
		t.Fatal("outside tmux, TmuxBuffer gives a loader")
	}
	text := "#### ▲ high: duplicate-side-effect in ChargeCard\n\n`$(touch pwned)` \"quoted\" 'single'\n"

	t.Run("load-buffer -w", func(t *testing.T) {
		rec := fakeTmux(t, `printf '%s\n' "$@" > "$REC/args"; cat > "$REC/buffer"`)
		if err := TmuxBuffer(inside)(context.Background(), text); err != nil {
			t.Fatal(err)
		}
		if got := readRec(t, rec, "args"); got != "load-buffer\n-w\n-\n" {
			t.Errorf("args %q", got)
		}
		if got := readRec(t, rec, "buffer"); got != text {
			t.Errorf("buffer %q, want %q", got, text)
		}
		if _, err := os.Stat("pwned"); err == nil {
			t.Error("the text ran through a shell")
		}
	})
	t.Run("tmux before 3.2", func(t *testing.T) {
		rec := fakeTmux(t, `for a; do [ "$a" = -w ] && { echo "load-buffer: unknown flag -w" >&2; exit 1; }; done
printf '%s\n' "$@" > "$REC/args"; cat > "$REC/buffer"`)
		if err := TmuxBuffer(inside)(context.Background(), text); err != nil {
			t.Fatal(err)
		}
		if got := readRec(t, rec, "args"); got != "load-buffer\n-\n" {
			t.Errorf("args %q", got)
		}
		if got := readRec(t, rec, "buffer"); got != text {
			t.Errorf("buffer %q", got)
		}
	})
	t.Run("tmux fails", func(t *testing.T) {
		fakeTmux(t, "echo 'no server running on /tmp/tmux-0/default' >&2; exit 1")
		err := TmuxBuffer(inside)(context.Background(), text)
		if err == nil || err.Error() != "no server running on /tmp/tmux-0/default" {
			t.Errorf("error %v", err)
		}
	})
}

// TestTmuxBufferRealTmux loads a buffer into a private tmux server (the
// TMUX variable names its socket, as it does inside a session) and reads
// it back.
func TestTmuxBufferRealTmux(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed: the real-tmux test is skipped (the fake-tmux test ran)")
	}
	sock := filepath.Join(t.TempDir(), "s")
	tmux := func(args ...string) (string, error) {
		out, err := exec.Command("tmux", append([]string{"-S", sock, "-f", "/dev/null"}, args...)...).CombinedOutput()
		return string(out), err
	}
	if out, err := tmux("new-session", "-d", "-s", "copy", "sleep 60"); err != nil {
		t.Fatalf("tmux new-session: %v: %s", err, out)
	}
	t.Cleanup(func() { tmux("kill-server") })
	t.Setenv("TMUX", sock+",1,0")
	text := "Run order-7731 (CheckoutWorkflow), app payments\nsecond line ✓\n"
	if err := TmuxBuffer(os.Getenv)(context.Background(), text); err != nil {
		t.Fatal(err)
	}
	got, err := tmux("show-buffer")
	if err != nil || got != text {
		t.Errorf("tmux's buffer holds %q (%v), want %q", got, err, text)
	}
}

// TestCopyInsideTmuxSaysWhereItWent: y on a finding inside tmux loads the
// finding, with its run, into tmux's buffer, and the status line says so;
// when tmux refuses, the status line says the copy went by OSC 52 only.
func TestCopyInsideTmuxSaysWhereItWent(t *testing.T) {
	var loaded []string
	var fail error
	opts := Options{History: tuitest.Charge(), TmuxBuffer: func(_ context.Context, text string) error {
		loaded = append(loaded, text)
		return fail
	}}
	m := start(t, opts, 120, 40)
	m = keys(t, m, "tab", "tab", "tab", "y")
	if len(loaded) != 1 || !strings.Contains(loaded[0], "Run charge-7731 (ChargeWorkflow), app payments, project default: <https://") {
		t.Fatalf("tmux got %q", loaded)
	}
	want := "copied to tmux's paste buffer (prefix ] pastes) and the clipboard (if the terminal allows it): the duplicate-side-effect finding with its run as Markdown ("
	if got := m.status.text; !strings.HasPrefix(got, want) || m.status.err {
		t.Errorf("status %q", got)
	}
	fail = errors.New("no server running on /tmp/tmux-0/default")
	m = keys(t, m, "y")
	if got := m.status.text; !m.status.err || !strings.HasPrefix(got, "copied with OSC 52 only, which tmux ignores by default: tmux load-buffer failed (no server running on /tmp/tmux-0/default); the copy: the duplicate-side-effect finding") {
		t.Errorf("status after a failed load: %q (error %v)", got, m.status.err)
	}
}
