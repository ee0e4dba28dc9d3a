package cli

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/live"
	"github.com/twice-cli/twice/catalyst/secret"
	"github.com/twice-cli/twice/cmd/twice/internal/report"
	"github.com/twice-cli/twice/detect"
	"github.com/twice-cli/twice/tui/format"
)

// GlobalOptions are the flags every command takes.
type GlobalOptions struct {
	// Color is auto, always or never.
	Color string
	// TimeFormat is relative or iso ("": relative on a terminal, iso when
	// piped).
	TimeFormat string
	// ConfigPath is --config ("": twice.yaml here, then in
	// $XDG_CONFIG_HOME/twice).
	ConfigPath string
	// Endpoint, Org and TokenFile configure live reads; the token itself is
	// never a flag.
	Endpoint  string
	Org       string
	TokenFile string
	// DataSharingLevel is the organization's data-sharing level when the
	// user knows it (metadata or full); it wins over the config, and
	// twice infers it when neither says.
	DataSharingLevel string
	// SideEffect and ReadOnly classify activities by name, winning over
	// the config and the name classifier.
	SideEffect []string
	ReadOnly   []string
	// Timeout bounds what a command does over the network (0: no limit);
	// TimeoutSet is true when --timeout was given, which wins over the
	// config's timeout.
	Timeout    time.Duration
	TimeoutSet bool
}

// DefaultTimeout bounds a command's network work when neither --timeout
// nor the config's timeout says otherwise.
const DefaultTimeout = 10 * time.Minute

// LiveClient is what the commands use of the Catalyst client: a Source, and
// the raw history for record, the doctor's checks, and the credential check
// made before the interactive view opens.
type LiveClient interface {
	catalyst.Source
	Fetch(ctx context.Context, ref catalyst.RunRef) (*live.Fetched, error)
	Doctor(ctx context.Context) live.DoctorReport
	CheckCredential(ctx context.Context) error
	Close()
}

// Factory builds the commands' dependencies from the streams, the
// environment, the global flags once parsed, the config (read once), and
// the constructors tests replace (the live client, the interactive view).
// A command never holds the Factory: its NewCmd function gives its options
// struct only what it uses (deps.go), as cli/cli's commands do.
type Factory struct {
	IO      *IOStreams
	Env     Env
	Globals GlobalOptions

	// NewLive builds the live client from its config.
	NewLive func(cfg live.Config) (LiveClient, error)
	// RunTUI runs the interactive view until the user quits.
	RunTUI func(ctx context.Context, req TUIRequest) error

	// redact is the command's one redactor: the live client adds the
	// token to it, and standard output, standard error, the view's errors
	// and record's check of the file use it (redact.go).
	redact *secret.Redactor
	// streams are the streams as given, before Execute wrapped standard
	// output and standard error in the redactor (the view draws on the
	// terminal itself); out and errOut are the wrappers.
	streams     *IOStreams
	out, errOut *secret.Writer

	configOnce sync.Once
	config     *Config
	configErr  error

	// memory is the large-file memory policy's state (memlimit.go).
	memory memoryPolicy
}

// NewFactory returns a factory over the given streams and environment, with
// the real live client and interactive view.
func NewFactory(streams *IOStreams, env Env) *Factory {
	return &Factory{
		IO:     streams,
		Env:    env,
		redact: secret.New(),
		NewLive: func(cfg live.Config) (LiveClient, error) {
			c, err := live.New(cfg)
			if err != nil {
				return nil, err
			}
			return c, nil
		},
		RunTUI: runTUI,
	}
}

// Config reads the config once; what it ignored in the folder's
// twice.yaml (the keys only a trusted file may set) is said on standard
// error then.
func (f *Factory) Config() (*Config, error) {
	f.configOnce.Do(func() {
		f.config, f.configErr = LoadConfig(f.Globals.ConfigPath, f.Env)
		if f.configErr == nil {
			if n := f.config.Folder.Notice(); n != "" {
				fmt.Fprintf(f.IO.ErrOut, "twice: %s\n", n)
			}
		}
	})
	return f.config, f.configErr
}

// stdoutTTY reports whether standard output is a terminal.
func (f *Factory) stdoutTTY() bool { return f.IO.stdoutTTY() }

// interactive reports whether the interactive view can run: both standard
// input and output are terminals.
func (f *Factory) interactive() bool {
	return f.stdoutTTY() && f.IO.IsStdinTTY != nil && f.IO.IsStdinTTY()
}

// colorEnabled decides colour: --color always or never wins; auto colours
// a terminal unless NO_COLOR holds any non-empty value (no-color.org, not
// a boolean) or TERM is dumb.
func (f *Factory) colorEnabled() (bool, error) {
	switch f.Globals.Color {
	case "always":
		return true, nil
	case "never":
		return false, nil
	case "", "auto":
		return f.stdoutTTY() && f.Env.getenv("NO_COLOR") == "" && f.Env.getenv("TERM") != "dumb", nil
	}
	return false, usagef("--color %q is not one of auto, always, never", f.Globals.Color)
}

// timeFormat decides the time format: the flag, else relative on a
// terminal and iso when piped.
func (f *Factory) timeFormat() (format.TimeFormat, error) {
	if f.Globals.TimeFormat == "" {
		if f.stdoutTTY() {
			return format.Relative, nil
		}
		return format.ISO, nil
	}
	tf, ok := format.ParseTimeFormat(f.Globals.TimeFormat)
	if !ok {
		return 0, usagef("--time-format %q is not one of relative, iso", f.Globals.TimeFormat)
	}
	return tf, nil
}

// reportOptions returns the renderers' options: clock, times, colour and
// the console base URL.
func (f *Factory) reportOptions() (report.Options, error) {
	color, err := f.colorEnabled()
	if err != nil {
		return report.Options{}, err
	}
	tf, err := f.timeFormat()
	if err != nil {
		return report.Options{}, err
	}
	cfg, err := f.Config()
	if err != nil {
		return report.Options{}, err
	}
	return report.Options{Now: f.Env.now, TimeFormat: tf, Styles: report.NewStyles(color), Console: cfg.Console}, nil
}

// detectOptions returns detect's options: the activity classes of the
// config and flags, and the large-payload threshold.
func (f *Factory) detectOptions() (detect.Options, error) {
	cfg, err := f.Config()
	if err != nil {
		return detect.Options{}, err
	}
	ov, err := cfg.overrides(f.Globals.SideEffect, f.Globals.ReadOnly)
	if err != nil {
		return detect.Options{}, err
	}
	return detect.Options{Overrides: ov, LargePayloadBytes: cfg.LargePayloadBytes}, nil
}

// first is "flag else config" (else the environment, else a default):
// the first value that is not blank, without its surrounding spaces.
func first(values ...string) string {
	for _, v := range values {
		if v = strings.TrimSpace(v); v != "" {
			return v
		}
	}
	return ""
}

// liveConfig builds the live client's config: flags win over the
// environment, which wins over the config file. The token comes from
// CATALYST_TOKEN, then the token file, then the token command.
// onRateLimit, when set, is called on every HTTP 429; the client keeps its
// own tuned transport (Env.Transport replaces it only in tests).
func (f *Factory) liveConfig(onRateLimit func(), watch func(status int)) (live.Config, error) {
	cfg, err := f.Config()
	if err != nil {
		return live.Config{}, err
	}
	level, _, err := f.userLevel()
	if err != nil {
		return live.Config{}, err
	}
	tokens := live.TokenSources(live.TokenOptions{
		LookupEnv:      f.Env.LookupEnv,
		File:           f.expandHome(first(f.Globals.TokenFile, cfg.TokenFile)),
		Command:        cfg.TokenCommand.Argv,
		Shell:          cfg.TokenCommand.Shell,
		CommandTimeout: cfg.TokenCommandTimeout.Duration,
	})
	var onStatus func(int)
	if onRateLimit != nil || watch != nil {
		onStatus = func(status int) {
			if status == http.StatusTooManyRequests && onRateLimit != nil {
				onRateLimit()
			}
			if watch != nil {
				watch(status)
			}
		}
	}
	return live.Config{
		Endpoint:       first(f.Globals.Endpoint, f.Env.getenv(live.EnvEndpoint), cfg.Endpoint),
		Token:          tokens,
		Org:            first(f.Globals.Org, cfg.Org),
		Level:          level,
		Version:        f.Env.Version,
		RequestTimeout: cfg.RequestTimeout.Duration,
		MaxBodyBytes:   cfg.MaxBodyBytes,
		HTTPTransport:  f.Env.Transport,
		OnStatus:       onStatus,
		Redactor:       f.redactor(),
	}, nil
}

// live returns a live client whose every call ends by the command's
// deadline (--timeout, the config's timeout, else DefaultTimeout, from now);
// onRateLimit, when set, is called on every HTTP 429 the server sends (the
// fleet scan lowers its concurrency), and watch, when set, sees the HTTP
// status of every answer (the view says which retry a read is on).
func (f *Factory) live(onRateLimit func(), watch func(status int)) (LiveClient, error) {
	timeout, err := f.timeout()
	if err != nil {
		return nil, err
	}
	// retries follows the answers' statuses for the waiting lines
	// (waiting.go), besides the caller's watch.
	retries := &retryWatch{}
	observe := retries.observe
	if watch != nil {
		observe = func(status int) { retries.observe(status); watch(status) }
	}
	lc, err := f.liveConfig(onRateLimit, observe)
	if err != nil {
		return nil, err
	}
	c, err := f.NewLive(lc)
	if errors.Is(err, live.ErrBadEndpoint) {
		// --endpoint, CATALYST_MCP_URL or endpoint: given wrong (exit 2).
		return nil, &UsageError{Msg: err.Error()}
	}
	if err != nil {
		return nil, err
	}
	if timeout > 0 {
		c = &boundedClient{LiveClient: c, limit: timeout, deadline: time.Now().Add(timeout)}
	}
	return f.waitingLive(c, retries.note), nil
}

// timeout is the command's limit on its network work: --timeout, else the
// config's timeout, else DefaultTimeout; 0 means none.
func (f *Factory) timeout() (time.Duration, error) {
	if f.Globals.TimeoutSet {
		return f.Globals.Timeout, nil
	}
	cfg, err := f.Config()
	if err != nil {
		return 0, err
	}
	if cfg.Timeout.Set {
		return cfg.Timeout.Duration, nil
	}
	return DefaultTimeout, nil
}

// interactiveSource is the source the interactive view reads through: a
// view stays open as long as the user likes, so instead of one deadline
// for the command each read it starts gets the limit of its own.
func interactiveSource(lc LiveClient) catalyst.Source {
	if w, ok := lc.(*waitingClient); ok {
		// The view says itself what it waits for; lines on standard
		// error would write over it.
		lc = w.LiveClient
	}
	if b, ok := lc.(*boundedClient); ok {
		return &boundedClient{LiveClient: b.LiveClient, limit: b.limit}
	}
	return lc
}

// boundedClient ends every call of a live client by a deadline: the
// command's (deadline set), or limit from the call's start (deadline zero,
// for the interactive view). A call cut short says which limit ran out and
// how to raise it.
type boundedClient struct {
	LiveClient
	limit    time.Duration
	deadline time.Time
}

// timeoutError is the cause of a context a boundedClient ended: what ran
// out, and how to raise it. It wraps context.DeadlineExceeded.
type timeoutError struct {
	limit   time.Duration
	perCall bool
}

func (e *timeoutError) Error() string {
	what := "the command's time limit"
	if e.perCall {
		what = "the time limit of one read"
	}
	return fmt.Sprintf("%s of %s ran out (raise it with --timeout, or timeout: in twice.yaml; 0 means no limit)", what, e.limit)
}

func (e *timeoutError) Unwrap() error { return context.DeadlineExceeded }

// bound derives the call's context and the error a deadline gives.
func (b *boundedClient) bound(ctx context.Context) (context.Context, context.CancelFunc, *timeoutError) {
	cause := &timeoutError{limit: b.limit, perCall: b.deadline.IsZero()}
	deadline := b.deadline
	if deadline.IsZero() {
		deadline = time.Now().Add(b.limit)
	}
	dctx, cancel := context.WithDeadlineCause(ctx, deadline, cause)
	return dctx, cancel, cause
}

// explain makes sure an error caused by the deadline says so (the live
// client names the cause; another client may not).
func explain(ctx, dctx context.Context, cause *timeoutError, err error) error {
	if err == nil || ctx.Err() != nil || dctx.Err() == nil {
		return err
	}
	var te *timeoutError
	if errors.As(err, &te) || strings.Contains(err.Error(), cause.Error()) {
		return err
	}
	return fmt.Errorf("%w: %v", cause, err)
}

func (b *boundedClient) ListRuns(ctx context.Context, q catalyst.RunQuery) (catalyst.RunList, error) {
	dctx, cancel, cause := b.bound(ctx)
	defer cancel()
	list, err := b.LiveClient.ListRuns(dctx, q)
	return list, explain(ctx, dctx, cause, err)
}

func (b *boundedClient) History(ctx context.Context, ref catalyst.RunRef) (*catalyst.History, error) {
	dctx, cancel, cause := b.bound(ctx)
	defer cancel()
	h, err := b.LiveClient.History(dctx, ref)
	return h, explain(ctx, dctx, cause, err)
}

func (b *boundedClient) Fetch(ctx context.Context, ref catalyst.RunRef) (*live.Fetched, error) {
	dctx, cancel, cause := b.bound(ctx)
	defer cancel()
	got, err := b.LiveClient.Fetch(dctx, ref)
	return got, explain(ctx, dctx, cause, err)
}

func (b *boundedClient) CheckCredential(ctx context.Context) error {
	dctx, cancel, cause := b.bound(ctx)
	defer cancel()
	return explain(ctx, dctx, cause, b.LiveClient.CheckCredential(dctx))
}

func (b *boundedClient) Doctor(ctx context.Context) live.DoctorReport {
	dctx, cancel, cause := b.bound(ctx)
	defer cancel()
	rep := b.LiveClient.Doctor(dctx)
	if dctx.Err() != nil && ctx.Err() == nil && !strings.Contains(strings.Join(rep.Problems, "\n"), cause.Error()) {
		rep.Problems = append(rep.Problems, cause.Error())
	}
	return rep
}

// catalystName names the live source for the run list's title: Catalyst
// and the endpoint's host.
func (f *Factory) catalystName() string {
	cfg, err := f.Config()
	if err != nil {
		return "Catalyst"
	}
	endpoint := first(f.Globals.Endpoint, f.Env.getenv(live.EnvEndpoint), cfg.Endpoint, live.DefaultEndpoint)
	if u, err := url.Parse(endpoint); err == nil && u.Host != "" {
		return "Catalyst at " + u.Host
	}
	return "Catalyst"
}

// hasCredentials reports whether a token source is configured: the
// environment variable, a token file or a token command. It does not run
// the command or read the file.
func (f *Factory) hasCredentials() bool {
	cfg, err := f.Config()
	if err != nil {
		return false
	}
	return f.Env.getenv(live.EnvToken) != "" || first(f.Globals.TokenFile, cfg.TokenFile) != "" || len(cfg.TokenCommand.Argv) > 0
}

// knownSecrets returns the credential values twice can see (the token in
// the environment, the token file's content), so a recording can refuse to
// store them.
func (f *Factory) knownSecrets() []string {
	var out []string
	if v := strings.TrimSpace(f.Env.getenv(live.EnvToken)); v != "" {
		out = append(out, v)
	}
	cfg, err := f.Config()
	if err == nil {
		if path := first(f.Globals.TokenFile, cfg.TokenFile); path != "" {
			if data, err := readSmallFile(f.expandHome(path), 64<<10); err == nil {
				if v := strings.TrimSpace(string(data)); v != "" {
					out = append(out, v)
				}
			}
		}
	}
	return out
}

// expandHome replaces a leading "~/" with $HOME, as a shell would, so a
// config can name ~/.config/twice/token.
func (f *Factory) expandHome(path string) string {
	if rest, ok := strings.CutPrefix(path, "~/"); ok {
		if home := f.Env.getenv("HOME"); home != "" {
			return filepath.Join(home, rest)
		}
	}
	return path
}
