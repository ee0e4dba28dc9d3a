package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/charmbracelet/colorprofile"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/live"
	"github.com/twice-cli/twice/detect"
	"github.com/twice-cli/twice/detect/review"
	"github.com/twice-cli/twice/tui"
	"github.com/twice-cli/twice/tui/editor"
	"github.com/twice-cli/twice/tui/format"
)

// TUIRequest is what the commands ask of the interactive view: a source,
// what to open first (the run list, one run, or a history already read),
// and how to show it.
type TUIRequest struct {
	// Source lists runs and reads histories.
	Source catalyst.Source
	// Query filters the run list the view opens on (when Ref and History
	// are unset).
	Query catalyst.RunQuery
	// Ref is the run to open (nil: the run list).
	Ref *catalyst.RunRef
	// History is a history already read, opened directly.
	History *catalyst.History
	// Compare are two histories already read, opened compared (twice
	// diff): A, then B.
	Compare [2]*catalyst.History
	// Banner is one line shown above the view ("" for none).
	Banner string
	// Detect configures the analysis.
	Detect detect.Options
	// Console is the console base URL for links.
	Console string
	// Now is the clock; TimeFormat how times are shown.
	Now        func() time.Time
	TimeFormat format.TimeFormat
	// Color is false to draw without colour (NO_COLOR, --color never).
	Color bool
	// In and Out are the terminal.
	In  io.Reader
	Out io.Writer
	// OpenURL opens a console link in a browser (nil: the view prints it).
	OpenURL func(url string) error
	// SourceName says where the runs are read from (the run list's
	// title); SourceNote what the source is doing while it reads (a
	// retry).
	SourceName string
	SourceNote func() string
	// Refresh lists the runs again this often (0: only on R).
	Refresh time.Duration
	// Redact removes the token from an error before the view shows it.
	Redact func(string) string
	// Code is the review of the workflow and activity source joined to
	// the runs (--source; nil: none, and the view has no Code tab), and
	// CodeFiles where its files are read from (the bundled demo services;
	// nil: the disk).
	Code      *review.Report
	CodeFiles fs.FS
	// Editor is the user's editor ($VISUAL, else $EDITOR; the zero value:
	// neither is set), which e opens a source line in.
	Editor editor.Editor
	// TmuxBuffer loads a copy into tmux's paste buffer when twice runs
	// inside tmux (nil: outside).
	TmuxBuffer func(ctx context.Context, text string) error
}

// errNoTUI is what a factory's RunTUI returns when it has no interactive
// view; the commands then print text instead.
var errNoTUI = errors.New("the interactive view is not available")

// runTUI runs the interactive view until the user quits.
func runTUI(ctx context.Context, req TUIRequest) error { return tui.Run(ctx, tuiOptions(req)) }

// tuiOptions are the view's options for a request.
func tuiOptions(req TUIRequest) tui.Options {
	profile := colorprofile.Unknown // let Bubble Tea detect the terminal
	if !req.Color {
		profile = colorprofile.Ascii // no colour: reverse video, glyphs and words
	}
	var code *tui.CodeSource
	if req.Code != nil {
		code = &tui.CodeSource{Review: req.Code, Files: req.CodeFiles}
	}
	return tui.Options{
		Code:         code,
		Editor:       req.Editor,
		Source:       req.Source,
		Query:        req.Query,
		Open:         req.Ref,
		History:      req.History,
		Compare:      req.Compare,
		Banner:       req.Banner,
		Detect:       req.Detect,
		Console:      req.Console,
		Now:          req.Now,
		TimeFormat:   req.TimeFormat.String(),
		Profile:      profile,
		Input:        req.In,
		Output:       req.Out,
		OpenURL:      req.OpenURL,
		Hint:         errorHint,
		Redact:       req.Redact,
		SourceName:   req.SourceName,
		SourceNote:   req.SourceNote,
		RefreshEvery: req.Refresh,
		TmuxBuffer:   req.TmuxBuffer,
	}
}

// tuiRequest starts a request with what every command passes the view.
func (f *Factory) tuiRequest(det detect.Options, console string, tf format.TimeFormat) TUIRequest {
	ed, _ := editor.FromEnv(f.Env.getenv)
	return TUIRequest{Detect: det, Console: console, Now: f.Env.Now, TimeFormat: tf, Editor: ed,
		Color: mustColor(f), In: f.IO.In, Out: f.terminal().Out, OpenURL: f.browser(), Redact: f.redactor().String,
		TmuxBuffer: tui.TmuxBuffer(f.Env.getenv)}
}

// retryWatch follows the HTTP statuses a live client gets, so the view's
// loading lines can say which retry a read is on and why.
type retryWatch struct {
	mu      sync.Mutex
	retries int
	last    int
}

// observe records one answer's status: a retryable one (429, 502, 503,
// 504) counts a retry; any other ends the count.
func (w *retryWatch) observe(status int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	switch status {
	case http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		w.retries++
		w.last = status
	default:
		w.retries, w.last = 0, 0
	}
}

// note says which retry the read in flight is on ("" when none).
func (w *retryWatch) note() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.retries == 0 {
		return ""
	}
	return fmt.Sprintf("retry %d after HTTP %d %s", w.retries, w.last, http.StatusText(w.last))
}

// errorHint words a source's error for the view, with what to do next, when
// the error does not say it already ("" lets the view show the error's own
// text). A refusal's text ends with its hint, and most not-authenticated
// errors name where to put a token: their advice is never repeated.
func errorHint(err error) string {
	text := err.Error()
	var refusal *live.RefusalError
	switch {
	case errors.As(err, &refusal):
		if h := refusal.Hint(); h != "" && !strings.Contains(text, h) {
			return text + ". " + h
		}
	case errors.Is(err, live.ErrNotAuthenticated):
		if !strings.Contains(text, live.EnvToken) && !strings.Contains(text, "twice doctor") {
			return text + ": " + notAuthenticatedAdvice
		}
	}
	return ""
}

// notAuthenticatedAdvice is what to do when no credential was accepted.
const notAuthenticatedAdvice = "set " + live.EnvToken + ", or token_file or token_command in twice.yaml; twice doctor checks the setup"

// browser returns the link opener: $BROWSER when set, else the desktop's
// opener when there is a display; nil over SSH without one (the view then
// shows the link to copy).
func (f *Factory) browser() func(string) error {
	var argv []string
	switch b := strings.TrimSpace(f.Env.getenv("BROWSER")); {
	case b != "":
		argv = strings.Fields(b)
	case runtime.GOOS == "darwin":
		argv = []string{"open"}
	case runtime.GOOS == "windows":
		argv = []string{"rundll32", "url.dll,FileProtocolHandler"}
	case f.Env.getenv("DISPLAY") != "" || f.Env.getenv("WAYLAND_DISPLAY") != "":
		argv = []string{"xdg-open"}
	default:
		return nil
	}
	return func(url string) error {
		if !strings.HasPrefix(url, "https://") && !strings.HasPrefix(url, "http://") {
			return fmt.Errorf("not a web link: %s", quote(url))
		}
		cmd := exec.Command(argv[0], append(argv[1:], url)...)
		if err := cmd.Start(); err != nil {
			return fmt.Errorf("opening the browser (%s): %w", argv[0], err)
		}
		go func() { _ = cmd.Wait() }()
		return nil
	}
}
