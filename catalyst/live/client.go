package live

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"github.com/go-resty/resty/v2"
	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/internal/sleep"
	"github.com/twice-cli/twice/catalyst/safetext"
	"github.com/twice-cli/twice/catalyst/secret"
)

// Defaults of a Config's zero fields.
const (
	// DefaultEndpoint is Catalyst's production MCP server.
	DefaultEndpoint = "https://mcp.cloud.r1.diagrid.io/mcp"
	// DefaultRequestTimeout bounds one HTTP request, body included.
	DefaultRequestTimeout = 30 * time.Second
	// DefaultMaxBodyBytes bounds one response body (64 MiB).
	DefaultMaxBodyBytes = 64 << 20
	// DefaultMaxAttempts is how many times one request is tried when it
	// fails transiently (the first try included).
	DefaultMaxAttempts = 4
	// DefaultBackoffBase and DefaultBackoffMax shape the exponential backoff
	// between attempts.
	DefaultBackoffBase = 500 * time.Millisecond
	DefaultBackoffMax  = 8 * time.Second
	// DefaultRetryAfterCap is the longest Retry-After twice waits for; a
	// server asking for more gets a RateLimitError at once.
	DefaultRetryAfterCap = 60 * time.Second
	// DefaultMaxPages caps the pages one run list follows.
	DefaultMaxPages = 50
	// DefaultPageSize is the runs asked for per page.
	DefaultPageSize = 100
	// DefaultListLimit is the runs a list returns when the query sets no limit.
	DefaultListLimit = 1000
	// ProtocolVersion is the MCP protocol version twice asks for.
	ProtocolVersion = "2025-06-18"
)

// Config configures a Client. The command line builds it from flags, the
// environment (see EnvEndpoint, EnvToken and TokenSources) and the config
// file; the Client itself reads no environment.
type Config struct {
	// Endpoint is the MCP server's URL; "" means DefaultEndpoint. It must be
	// https, or http to a loopback address (tests, local stand-ins).
	Endpoint string
	// Token says where the bearer token comes from. It is resolved on the
	// first request; nil or no token gives ErrNotAuthenticated before any
	// request is sent.
	Token TokenSource
	// Org, when set, is sent as x-diagrid-orgid.
	Org string
	// Level is the organization's data-sharing level when the user knows it;
	// LevelUnknown lets the client infer it from each history.
	Level catalyst.Level
	// Version is twice's version, sent as the MCP clientInfo.
	Version string

	// RequestTimeout bounds each HTTP request (default 30 s). The whole
	// operation is bounded by the caller's context.
	RequestTimeout time.Duration
	// MaxBodyBytes bounds each response body (default 64 MiB). A larger body
	// fails with ErrResponseTooLarge and is never retried.
	MaxBodyBytes int64
	// MaxAttempts is the tries per request for transient failures (default 4).
	MaxAttempts int
	// BackoffBase and BackoffMax shape the capped exponential backoff with
	// jitter between attempts (defaults 500 ms and 8 s).
	BackoffBase time.Duration
	BackoffMax  time.Duration
	// RetryAfterCap is the longest Retry-After honoured (default 60 s).
	RetryAfterCap time.Duration
	// MaxPages caps the pages a run list follows (default 50).
	MaxPages int
	// PageSize is the runs asked for per page (default 100).
	PageSize int
	// MaxEvents caps the events decoded from one history (0: no cap).
	MaxEvents int

	// HTTPTransport carries the requests (default: a fresh http.Transport
	// tuned for Catalyst: verifying TLS, proxy from the environment, up to 16
	// idle connections per host, response headers awaited at most
	// RequestTimeout). The bearer token is added on top of it, for the
	// endpoint's host only.
	HTTPTransport http.RoundTripper
	// OnStatus, when set, is called with the HTTP status of every answer
	// the server sends (the fleet scan lowers its concurrency on 429). It
	// must return quickly and be safe for concurrent use.
	OnStatus func(status int)
	// Redactor, when set, is the command's redactor: the client adds the
	// token to it when it resolves one, and redacts with it every answer
	// as it arrives (body and headers), every error it returns and the
	// doctor's report, so that no text from the server carries the token
	// (nil: the client keeps a redactor of its own).
	Redactor *secret.Redactor
	// Debug, when set, receives a redacted request log: methods, hosts,
	// statuses, sizes and timings, never header values or the token.
	Debug io.Writer
	// Sleep waits for d or until ctx is done (default: a timer). Tests
	// inject it so backoffs take no time.
	Sleep func(ctx context.Context, d time.Duration) error
	// Now returns the current time (default time.Now); Retry-After dates
	// are measured from it.
	Now func() time.Time
	// Jitter returns a random duration in [0, n) for the backoff (default:
	// math/rand/v2). Tests inject it to pin the waits.
	Jitter func(n time.Duration) time.Duration
}

// Client reads workflow runs and histories from the Catalyst MCP server. It
// implements catalyst.Source and is safe for concurrent use; one MCP session
// is opened on first use and shared.
type Client struct {
	cfg      Config
	endpoint *url.URL
	host     string
	http     *resty.Client
	auth     *authTransport
	debug    *debugLog
	// redact removes the token from everything the server said.
	redact *secret.Redactor
	nextID atomic.Int64
	// answered is set once any HTTP answer came back (twice doctor: the
	// server was reached even when it refused).
	answered atomic.Bool

	// sessionLock is a one-slot semaphore guarding session and token; a
	// channel rather than a mutex so that waiting for it honours a context.
	sessionLock chan struct{}
	session     *session
	token       Token
}

// New checks cfg and returns a client. It sends no request and resolves no
// token: both happen on first use.
func New(cfg Config) (*Client, error) {
	cfg = withDefaults(cfg)
	u, err := checkEndpoint(cfg.Endpoint)
	if err != nil {
		return nil, err
	}
	base := cfg.HTTPTransport
	if base == nil {
		base = newTransport(cfg.RequestTimeout)
	}
	c := &Client{
		cfg:         cfg,
		endpoint:    u,
		host:        u.Host,
		sessionLock: make(chan struct{}, 1),
	}
	c.redact = cfg.Redactor
	if c.redact == nil {
		c.redact = secret.New()
	}
	c.debug = newDebugLog(cfg.Debug, c.redact)
	c.auth = &authTransport{base: base, host: u.Host, org: cfg.Org}
	hc := &http.Client{Transport: c.auth}
	c.http = resty.NewWithClient(hc).
		SetLogger(discardLogger{}).
		SetDisableWarn(true).
		SetDebug(false).
		SetRetryCount(0). // retries are ours: see retry.go
		SetResponseBodyLimit(int(cfg.MaxBodyBytes)).
		SetRedirectPolicy(resty.RedirectPolicyFunc(redirectPolicy(u)))
	return c, nil
}

// Close releases the client's idle connections. A closed client can still be
// used; it reconnects.
func (c *Client) Close() {
	c.http.GetClient().CloseIdleConnections()
}

// Endpoint returns the endpoint's host, as provenance records it.
func (c *Client) Endpoint() string { return c.host }

// TokenFrom says where the token in use came from ("environment variable
// CATALYST_TOKEN"), or "" before the first request resolved one. It never
// returns the token.
func (c *Client) TokenFrom() string { return c.auth.tokenFrom() }

// ResolveEndpoint chooses the endpoint the command line passes in
// Config.Endpoint, by precedence: the flag, the CATALYST_MCP_URL
// environment variable (read through lookupEnv), the config file's value,
// then DefaultEndpoint. from names where it came from, for twice doctor.
func ResolveEndpoint(flag string, lookupEnv func(string) (string, bool), configValue string) (endpoint, from string) {
	if v := strings.TrimSpace(flag); v != "" {
		return v, "flag --endpoint"
	}
	if lookupEnv != nil {
		if v, _ := lookupEnv(EnvEndpoint); strings.TrimSpace(v) != "" {
			return strings.TrimSpace(v), "environment variable " + EnvEndpoint
		}
	}
	if v := strings.TrimSpace(configValue); v != "" {
		return v, "config file"
	}
	return DefaultEndpoint, "default"
}

func withDefaults(cfg Config) Config {
	if cfg.Endpoint == "" {
		cfg.Endpoint = DefaultEndpoint
	}
	if cfg.Version == "" {
		cfg.Version = "dev"
	}
	if cfg.RequestTimeout <= 0 {
		cfg.RequestTimeout = DefaultRequestTimeout
	}
	if cfg.MaxBodyBytes <= 0 {
		cfg.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if cfg.MaxAttempts <= 0 {
		cfg.MaxAttempts = DefaultMaxAttempts
	}
	if cfg.BackoffBase <= 0 {
		cfg.BackoffBase = DefaultBackoffBase
	}
	if cfg.BackoffMax <= 0 {
		cfg.BackoffMax = DefaultBackoffMax
	}
	if cfg.BackoffMax < cfg.BackoffBase {
		cfg.BackoffMax = cfg.BackoffBase
	}
	if cfg.RetryAfterCap <= 0 {
		cfg.RetryAfterCap = DefaultRetryAfterCap
	}
	if cfg.MaxPages <= 0 {
		cfg.MaxPages = DefaultMaxPages
	}
	if cfg.PageSize <= 0 {
		cfg.PageSize = DefaultPageSize
	}
	if cfg.Sleep == nil {
		cfg.Sleep = sleep.For
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Jitter == nil {
		cfg.Jitter = randomJitter
	}
	return cfg
}

// ErrBadEndpoint marks an endpoint New refuses (not a URL, plain http to
// another host, credentials in it): a mistake in how twice was called,
// which the command line reports as a usage error (exit 2).
var ErrBadEndpoint = errors.New("bad catalyst endpoint")

// endpointError is an endpoint refused, in words; errors.Is finds
// ErrBadEndpoint in it.
type endpointError struct{ msg string }

func (e *endpointError) Error() string        { return e.msg }
func (e *endpointError) Is(target error) bool { return target == ErrBadEndpoint }

func endpointErrorf(format string, args ...any) error {
	return &endpointError{msg: fmt.Sprintf(format, args...)}
}

// checkEndpoint accepts an https URL, or an http URL whose host is a
// loopback address; never one carrying credentials.
func checkEndpoint(raw string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Host == "" || u.Scheme == "" {
		return nil, endpointErrorf("catalyst endpoint %q is not a URL: give one like %s (flag --endpoint, env %s or config endpoint)",
			safetext.Line(raw), DefaultEndpoint, EnvEndpoint)
	}
	if u.User != nil {
		return nil, endpointErrorf("catalyst endpoint %s carries credentials in the URL: remove them and provide the token through %s, token_file or token_command",
			safetext.Line(u.Redacted()), EnvToken)
	}
	if u.Fragment != "" {
		return nil, endpointErrorf("catalyst endpoint %q has a fragment: remove it", safetext.Line(raw))
	}
	switch {
	case u.Scheme == "https":
	case u.Scheme == "http" && isLoopbackHost(u.Hostname()):
	case u.Scheme == "http":
		return nil, endpointErrorf("catalyst endpoint %s is plain http: the token would travel in clear; use https (plain http is allowed only for loopback addresses)",
			safetext.Line(u.String()))
	default:
		return nil, endpointErrorf("catalyst endpoint %s has scheme %q: use https", safetext.Line(u.String()), safetext.Line(u.Scheme))
	}
	return u, nil
}

// isLoopbackHost reports whether host is localhost or a loopback IP.
func isLoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// newTransport returns the default transport: Go's defaults (verifying TLS,
// proxy from the environment) with a bound on waiting for response headers:
// the per-request timeout plus a margin, a backstop only, so that the
// request's own deadline fires first and its error names the timeout.
func newTransport(requestTimeout time.Duration) *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.ResponseHeaderTimeout = requestTimeout + requestTimeout/2 + time.Second
	t.MaxIdleConnsPerHost = 16 // a fleet scan reads runs concurrently
	return t
}

// discardLogger keeps resty from ever writing to the terminal.
type discardLogger struct{}

func (discardLogger) Errorf(string, ...any) {}
func (discardLogger) Warnf(string, ...any)  {}
func (discardLogger) Debugf(string, ...any) {}

// lockSession takes the session lock, or gives up when ctx is done.
func (c *Client) lockSession(ctx context.Context) error {
	select {
	case c.sessionLock <- struct{}{}:
		return nil
	case <-ctx.Done():
		return cancelled(ctx, "waiting for the MCP session")
	}
}

func (c *Client) unlockSession() { <-c.sessionLock }

// cancelled wraps a context's error with what was being done.
func cancelled(ctx context.Context, doing string) error {
	err := context.Cause(ctx)
	if err == nil {
		err = ctx.Err()
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("%s: the operation's deadline passed: %w", doing, err)
	}
	return fmt.Errorf("%s: cancelled: %w", doing, err)
}
