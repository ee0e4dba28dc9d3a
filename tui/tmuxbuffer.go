package tui

import (
	"bytes"
	"context"
	"errors"
	"os/exec"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/twice-cli/twice/tui/format"
)

// tmuxTimeout bounds one tmux load-buffer: it talks to the tmux server
// over a local socket, which answers at once or not at all.
const tmuxTimeout = 5 * time.Second

// TmuxBuffer returns the function that loads text into tmux's paste
// buffer, when twice runs inside tmux (getenv("TMUX") is set), else nil.
//
// Under tmux's default settings (set-clipboard external) tmux does not
// take an application's OSC 52 into its buffer, so a copy made with OSC 52
// alone goes nowhere. The function runs `tmux load-buffer -w -` with the
// text on standard input (no shell): -w (tmux 3.2 and later) also sends
// the buffer to the outer terminal's clipboard; an older tmux, which
// refuses -w, is asked again without it.
func TmuxBuffer(getenv func(string) string) func(ctx context.Context, text string) error {
	if getenv == nil || getenv("TMUX") == "" {
		return nil
	}
	return func(ctx context.Context, text string) error {
		ctx, cancel := context.WithTimeout(ctx, tmuxTimeout)
		defer cancel()
		err := runTmux(ctx, text, "load-buffer", "-w", "-")
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			// tmux before 3.2 has no -w: load the buffer alone.
			if again := runTmux(ctx, text, "load-buffer", "-"); again == nil {
				return nil
			}
		}
		return err
	}
}

// runTmux runs tmux with args and text on its standard input; its
// standard error, if any, is the error's text.
func runTmux(ctx context.Context, text string, args ...string) error {
	cmd := exec.CommandContext(ctx, "tmux", args...)
	cmd.Stdin = strings.NewReader(text)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return &tmuxError{msg: format.Line(firstLine(msg)), err: err}
		}
		return err
	}
	return nil
}

// tmuxError is tmux's failure in its own words (the first line of its
// standard error), wrapping how it ended.
type tmuxError struct {
	msg string
	err error
}

func (e *tmuxError) Error() string { return e.msg }
func (e *tmuxError) Unwrap() error { return e.err }

// firstLine is the first line of s.
func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// tmuxLoadedMsg is the answer of a tmux load-buffer: the copy's words
// ("the run id order-7731") and the error, if it failed.
type tmuxLoadedMsg struct {
	desc string
	err  error
}

// loadTmuxBuffer is the command that loads text into tmux's buffer.
func loadTmuxBuffer(load func(context.Context, string) error, text, desc string) tea.Cmd {
	return func() tea.Msg {
		return tmuxLoadedMsg{desc: desc, err: load(context.Background(), text)}
	}
}
