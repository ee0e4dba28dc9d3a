package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/twice-cli/twice/catalyst/live"
	"github.com/twice-cli/twice/tui"
)

// Exit codes (docs/json-output.md).
const (
	ExitOK       = 0
	ExitError    = 1
	ExitUsage    = 2
	ExitFindings = 3
	ExitAuth     = 4
	// ExitInterrupted is ctrl+c: in a command's work or in the
	// interactive view, as shells report a SIGINT (128+2).
	ExitInterrupted = 130
)

// UsageError is a mistake in how twice was called: an unknown flag, a bad
// argument, a value out of range. It exits 2.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

// usagef returns a UsageError.
func usagef(format string, args ...any) error {
	return &UsageError{Msg: fmt.Sprintf(format, args...)}
}

// FindingsError reports that scan --exit-status found findings at or above
// --fail-on. It exits 3; the findings themselves were already printed.
type FindingsError struct {
	Count int
	Level string
	// What names what was counted ("" : finding; review counts hazards).
	What string
	// Msg, when set, is the whole message (review's --fail-on unreviewed).
	Msg string
}

func (e *FindingsError) Error() string {
	if e.Msg != "" {
		return e.Msg
	}
	what := e.What
	if what == "" {
		what = "finding"
	}
	return fmt.Sprintf("%d %s(s) at or above %s (--exit-status)", e.Count, what, e.Level)
}

// SourceError is a source tree that could not be reviewed (a path that
// does not exist, a directory that cannot be read).
type SourceError struct{ Err error }

func (e *SourceError) Error() string {
	return "cannot review the source: " + e.Err.Error() + "; give a file or directory of Go, Python or C# source"
}

func (e *SourceError) Unwrap() error { return e.Err }

// exitCode maps an error to the process's exit status.
func exitCode(err error) int {
	var usage *UsageError
	var findings *FindingsError
	switch {
	case err == nil:
		return ExitOK
	case errors.As(err, &findings):
		return ExitFindings
	case errors.As(err, &usage):
		return ExitUsage
	case errors.Is(err, live.ErrNotAuthenticated):
		return ExitAuth
	case errors.Is(err, tui.ErrInterrupted):
		return ExitInterrupted
	}
	return ExitError
}

// errInterrupted is returned when the user stopped twice (ctrl+c).
var errInterrupted = errors.New("interrupted")

// isInterrupt reports whether err is a cancellation the user asked for.
func isInterrupt(err error) bool {
	return errors.Is(err, errInterrupted) || errors.Is(err, context.Canceled)
}
