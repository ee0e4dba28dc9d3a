package cli

import (
	"bytes"
	"io"
	"net/http"
	"os"
	"time"

	"github.com/charmbracelet/x/term"
)

// IOStreams are the command's standard streams and what is known about
// them. Commands never touch os.Stdin/Stdout/Stderr directly, so every
// command runs in tests with buffers and a chosen terminal-ness.
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer
	// IsStdinTTY and IsStdoutTTY report whether the stream is a terminal.
	IsStdinTTY  func() bool
	IsStdoutTTY func() bool
	// OpenTTY opens the controlling terminal for keys, for the interactive
	// view of a history piped into standard input (nil: not available).
	OpenTTY func() (io.ReadCloser, error)
	// TerminalWidth is the width of the terminal standard output is, 0
	// when it is not one (nil: not known).
	TerminalWidth func() int
}

// stdoutTTY reports whether standard output is a terminal.
func (s *IOStreams) stdoutTTY() bool { return s.IsStdoutTTY != nil && s.IsStdoutTTY() }

// width returns the terminal's width, or fallback when standard output is
// not a terminal (or its width is not known).
func (s *IOStreams) width(fallback int) int {
	if s.TerminalWidth != nil {
		if w := s.TerminalWidth(); w > 0 {
			return w
		}
	}
	return fallback
}

// SystemStreams returns the process's standard streams.
func SystemStreams() *IOStreams {
	return &IOStreams{
		In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr,
		IsStdinTTY:  func() bool { return term.IsTerminal(os.Stdin.Fd()) },
		IsStdoutTTY: func() bool { return term.IsTerminal(os.Stdout.Fd()) },
		OpenTTY:     openTTY,
		TerminalWidth: func() int {
			if w, _, err := term.GetSize(os.Stdout.Fd()); err == nil {
				return w
			}
			return 0
		},
	}
}

// openTTY opens the process's controlling terminal, as pagers do to read
// keys while their input is a pipe.
func openTTY() (io.ReadCloser, error) {
	f, err := os.Open("/dev/tty")
	if err != nil {
		return nil, err
	}
	if !term.IsTerminal(f.Fd()) {
		f.Close()
		return nil, errNoTUI
	}
	return f, nil
}

// TestStreams returns streams over buffers, for tests: stdin reads in,
// stdout and stderr are captured; tty sets both terminal reports.
func TestStreams(in string, tty bool) (s *IOStreams, out, errOut *bytes.Buffer) {
	out, errOut = &bytes.Buffer{}, &bytes.Buffer{}
	return &IOStreams{
		In: bytes.NewBufferString(in), Out: out, ErrOut: errOut,
		IsStdinTTY:  func() bool { return tty },
		IsStdoutTTY: func() bool { return tty },
	}, out, errOut
}

// Env is what the commands take from the process besides its streams: the
// environment, the clock, the HTTP transport of live reads, and the
// program's version. Tests inject every part.
type Env struct {
	// LookupEnv reads an environment variable.
	LookupEnv func(string) (string, bool)
	// Now returns the current time.
	Now func() time.Time
	// Transport carries live requests (nil: a fresh http.Transport).
	Transport http.RoundTripper
	// Version is twice's version.
	Version string
	// WorkDir is the folder a relative default config (twice.yaml) is
	// looked up in; "" means the process's current folder.
	WorkDir string
	// Ticker returns a channel that ticks every d, and its stop (nil: the
	// real clock's): how often a command waiting for Catalyst says so.
	Ticker func(d time.Duration) (<-chan time.Time, func())
}

// OSEnv returns the process's environment and the wall clock.
func OSEnv(version string) Env {
	return Env{LookupEnv: os.LookupEnv, Now: time.Now, Version: version}
}

// getenv returns an environment variable, or "" when unset.
func (e Env) getenv(name string) string {
	if e.LookupEnv == nil {
		return ""
	}
	v, _ := e.LookupEnv(name)
	return v
}

func (e Env) now() time.Time {
	if e.Now == nil {
		return time.Now()
	}
	return e.Now()
}
