package live

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/catalysttest"
	"github.com/twice-cli/twice/catalyst/internal/sleep"
	"go.uber.org/goleak"
)

func TestEndpointChecks(t *testing.T) {
	tests := []struct {
		endpoint string
		ok       bool
		wantErr  string
	}{
		{endpoint: "", ok: true},
		{endpoint: "https://mcp.cloud.staging.diagrid.dev/mcp", ok: true},
		{endpoint: "http://127.0.0.1:8080/mcp", ok: true},
		{endpoint: "http://[::1]:8080/mcp", ok: true},
		{endpoint: "http://localhost/mcp", ok: true},
		{endpoint: "http://mcp.example.com/mcp", wantErr: "plain http"},
		{endpoint: "http://10.0.0.1/mcp", wantErr: "plain http"},
		{endpoint: "https://user:" + testSecret + "@mcp.example.com/mcp", wantErr: "carries credentials"},
		{endpoint: "ftp://mcp.example.com/mcp", wantErr: `scheme "ftp"`},
		{endpoint: "mcp.example.com", wantErr: "not a URL"},
		{endpoint: "https://mcp.example.com/mcp#frag", wantErr: "fragment"},
	}
	for _, tc := range tests {
		c, err := New(Config{Endpoint: tc.endpoint})
		if tc.ok {
			if err != nil {
				t.Errorf("New(%q): %v", tc.endpoint, err)
			} else if tc.endpoint == "" && c.Endpoint() != "mcp.cloud.r1.diagrid.io" {
				t.Errorf("default endpoint host = %q", c.Endpoint())
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
			t.Errorf("New(%q) = %v, want an error containing %q", tc.endpoint, err, tc.wantErr)
		}
		if err != nil && strings.Contains(err.Error(), testSecret) {
			t.Errorf("New(%q) error reveals the password: %v", tc.endpoint, err)
		}
	}
}

// TestNoCredentialSendsNothing: without a token the client fails with
// ErrNotAuthenticated, saying how to provide one, before any request.
func TestNoCredentialSendsNothing(t *testing.T) {
	for _, tok := range []TokenSource{nil, TokenSources(TokenOptions{LookupEnv: env("")})} {
		h := newHarness(t, catalysttest.Options{}, func(c *Config) { c.Token = tok })
		_, err := h.client.ListRuns(context.Background(), catalyst.RunQuery{Project: "default"})
		if !errors.Is(err, ErrNotAuthenticated) || !strings.Contains(err.Error(), "CATALYST_TOKEN") {
			t.Errorf("ListRuns = %v, want ErrNotAuthenticated naming CATALYST_TOKEN", err)
		}
		if _, err := h.client.History(context.Background(), chargeRef); !errors.Is(err, ErrNotAuthenticated) {
			t.Errorf("History = %v, want ErrNotAuthenticated", err)
		}
		if n := h.srv.Count("http"); n != 0 {
			t.Errorf("server saw %d requests", n)
		}
	}
}

// TestHeaders: the bearer token and org go to the configured host, with the
// MCP headers the protocol asks for.
func TestHeaders(t *testing.T) {
	h := newHarness(t, catalysttest.Options{}, func(c *Config) { c.Org = "org-123" })
	if _, err := h.client.History(context.Background(), chargeRef); err != nil {
		t.Fatal(err)
	}
	seen := h.srv.Seen()
	methods := []string{}
	for _, s := range seen {
		methods = append(methods, s.Method)
		if s.Authorization != "Bearer "+testSecret || s.OrgID != "org-123" {
			t.Errorf("%s: Authorization %q, x-diagrid-orgid %q", s.Method, s.Authorization, s.OrgID)
		}
		if s.Method == "initialize" {
			if s.ProtocolVersion != "" || s.SessionID != "" {
				t.Errorf("initialize carried MCP-Protocol-Version %q / session %q", s.ProtocolVersion, s.SessionID)
			}
			continue
		}
		if s.ProtocolVersion != ProtocolVersion || s.SessionID == "" {
			t.Errorf("%s: MCP-Protocol-Version %q, Mcp-Session-Id %q", s.Method, s.ProtocolVersion, s.SessionID)
		}
	}
	want := "initialize notifications/initialized tools/list tools/call"
	if got := strings.Join(methods, " "); got != want {
		t.Errorf("requests = %s, want %s", got, want)
	}
}

// recorder is a server that records whether requests carried credentials.
func recorder(t *testing.T) (*httptest.Server, func() (n int, auth []string)) {
	var mu sync.Mutex
	var count int
	var auths []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		count++
		if a := r.Header.Get("Authorization") + r.Header.Get("x-diagrid-orgid"); a != "" {
			auths = append(auths, a)
		}
		mu.Unlock()
		w.WriteHeader(http.StatusOK)
	}))
	t.Cleanup(srv.Close)
	return srv, func() (int, []string) {
		mu.Lock()
		defer mu.Unlock()
		return count, append([]string(nil), auths...)
	}
}

// TestRedirects (A16, A17): a redirect to another host or from https to
// http is refused, and no other host ever sees the token.
func TestRedirects(t *testing.T) {
	other, seen := recorder(t)
	otherURL := strings.Replace(other.URL, "127.0.0.1", "localhost", 1) // another host, same machine
	t.Run("A16 to another host", func(t *testing.T) {
		h := newHarness(t, catalysttest.Options{}, func(c *Config) { faultConfig(c); c.Org = "org-1" })
		h.srv.Inject(catalysttest.Fault{On: catalysttest.ToolGetRun, Kind: catalysttest.FaultRedirect, Location: otherURL + "/steal"})
		_, err := h.client.History(context.Background(), chargeRef)
		if err == nil || !strings.Contains(err.Error(), "redirected to another host") {
			t.Fatalf("err = %v", err)
		}
		if n := h.srv.Count(catalysttest.ToolGetRun); n != 1 {
			t.Errorf("a refused redirect was retried: %d calls", n)
		}
		if n, auth := seen(); n != 0 || len(auth) != 0 {
			t.Errorf("the other host saw %d requests, credentials %q", n, auth)
		}
	})
	t.Run("A17 https to http on the same host", func(t *testing.T) {
		h := newHarness(t, catalysttest.Options{TLS: true}, faultConfig)
		plain := "http://" + h.srv.Host() + "/mcp"
		h.srv.Inject(catalysttest.Fault{On: catalysttest.ToolGetRun, Kind: catalysttest.FaultRedirect, Location: plain})
		_, err := h.client.History(context.Background(), chargeRef)
		if err == nil || !strings.Contains(err.Error(), "redirected from https to http") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("A17 a redirect loop on the same host stops", func(t *testing.T) {
		h := newHarness(t, catalysttest.Options{}, faultConfig)
		h.srv.Inject(catalysttest.Fault{On: "", Kind: catalysttest.FaultRedirect, Location: h.srv.URL})
		_, err := h.client.History(context.Background(), chargeRef)
		if err == nil || !strings.Contains(err.Error(), "redirected more than 3 times") {
			t.Fatalf("err = %v", err)
		}
		if n := h.srv.Count("initialize"); n != maxRedirects+1 {
			t.Errorf("server saw %d initialize requests, want %d", n, maxRedirects+1)
		}
	})
	t.Run("A19 an untrusted certificate fails", func(t *testing.T) {
		h := newHarness(t, catalysttest.Options{TLS: true}, func(c *Config) { faultConfig(c); c.HTTPTransport = nil })
		_, err := h.client.History(context.Background(), chargeRef)
		if err == nil || !strings.Contains(err.Error(), "certificate") {
			t.Fatalf("err = %v", err)
		}
		if n := h.srv.Count("http"); n != 0 {
			t.Errorf("server saw %d requests over an unverified connection", n)
		}
	})
	t.Run("the transport never sends credentials to another host", func(t *testing.T) {
		a := &authTransport{base: http.DefaultTransport, host: "mcp.example.com", token: testSecret, org: "o"}
		for _, u := range []string{"https://evil.example.com/x", "http://mcp.example.com/x", "https://mcp.example.com.evil.io/x"} {
			req, _ := http.NewRequest(http.MethodGet, u, nil)
			if a.allowed(req.URL) {
				t.Errorf("credentials allowed for %s", u)
			}
		}
		req, _ := http.NewRequest(http.MethodGet, "https://MCP.example.com/mcp", nil)
		if !a.allowed(req.URL) {
			t.Error("credentials refused for the configured host")
		}
	})
}

// TestConnectionRefused (A20): bounded retries, a clear message.
func TestConnectionRefused(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	s := &sleeps{}
	c, err := New(Config{Endpoint: "http://" + addr + "/mcp", Token: EnvTokenSource(EnvToken, env(testSecret)),
		MaxAttempts: 3, Sleep: s.sleep, Jitter: func(time.Duration) time.Duration { return 0 }})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_, err = c.History(context.Background(), chargeRef)
	if err == nil || !strings.Contains(err.Error(), "connection refused") || !strings.Contains(err.Error(), "gave up after 3 attempts") ||
		!strings.Contains(err.Error(), "twice show FILE") {
		t.Fatalf("err = %v", err)
	}
	if w := s.all(); len(w) != 2 {
		t.Errorf("waited %v, want 2 backoffs", w)
	}
}

// TestCancellation (A11): cancelling aborts an in-flight request and a
// backoff at once, makes no further attempt, and leaves no goroutine.
func TestCancellation(t *testing.T) {
	t.Run("mid-request", func(t *testing.T) {
		defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
		h := newHarnessNoCleanup(t, catalysttest.Options{}, nil)
		h.srv.Inject(catalysttest.Fault{On: catalysttest.ToolGetRun, Kind: catalysttest.FaultDelay, Delay: time.Minute})
		ctx, cancel := context.WithCancel(context.Background())
		go func() {
			for h.srv.Count(catalysttest.ToolGetRun) == 0 {
				time.Sleep(time.Millisecond)
			}
			cancel()
		}()
		start := time.Now()
		_, err := h.client.History(ctx, chargeRef)
		if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "cancelled") {
			t.Errorf("err = %v", err)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("cancellation took %v", d)
		}
		if n := h.srv.Count(catalysttest.ToolGetRun); n != 1 {
			t.Errorf("server saw %d calls", n)
		}
		h.close()
	})
	t.Run("mid-backoff", func(t *testing.T) {
		defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
		h := newHarnessNoCleanup(t, catalysttest.Options{}, func(c *Config) {
			c.Sleep = sleep.For // a real wait, cancelled below
			c.BackoffBase = time.Minute
			c.BackoffMax = time.Minute
		})
		h.srv.Inject(catalysttest.StatusFault(catalysttest.ToolGetRun, 0, 503))
		ctx, cancel := context.WithCancel(context.Background())
		go func() {
			for h.srv.Count(catalysttest.ToolGetRun) == 0 {
				time.Sleep(time.Millisecond)
			}
			time.Sleep(20 * time.Millisecond)
			cancel()
		}()
		start := time.Now()
		_, err := h.client.History(ctx, chargeRef)
		if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "while waiting to retry") {
			t.Errorf("err = %v", err)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("cancellation took %v", d)
		}
		if n := h.srv.Count(catalysttest.ToolGetRun); n != 1 {
			t.Errorf("server saw %d calls after cancellation", n)
		}
		h.close()
	})
	t.Run("the operation's deadline bounds the retries", func(t *testing.T) {
		h := newHarness(t, catalysttest.Options{}, func(c *Config) {
			c.Sleep = sleep.For
			c.BackoffBase = 50 * time.Millisecond
			c.BackoffMax = 50 * time.Millisecond
			c.MaxAttempts = 1000
		})
		h.srv.Inject(catalysttest.StatusFault(catalysttest.ToolGetRun, 0, 503))
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		start := time.Now()
		_, err := h.client.History(ctx, chargeRef)
		if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "deadline") {
			t.Errorf("err = %v", err)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("the deadline of 1s ended the retries after %v", d)
		}
		if n := h.srv.Count(catalysttest.ToolGetRun); n >= 1000 || n < 2 {
			t.Errorf("server saw %d calls", n)
		}
	})
}

// newHarnessNoCleanup is newHarness whose server and client the test closes
// itself (before checking for leaked goroutines).
func newHarnessNoCleanup(t *testing.T, opts catalysttest.Options, mod func(*Config)) *closableHarness {
	h := &closableHarness{}
	srv := catalysttest.New(opts)
	cfg := Config{Endpoint: srv.URL, Token: EnvTokenSource(EnvToken, env(testSecret)), Sleep: (&sleeps{}).sleep,
		Jitter: func(time.Duration) time.Duration { return 0 }}
	if mod != nil {
		mod(&cfg)
	}
	c, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	h.srv, h.client = srv, c
	return h
}

type closableHarness struct {
	srv    *catalysttest.Server
	client *Client
}

func (h *closableHarness) close() {
	h.client.Close()
	h.srv.Close()
}

func TestResolveEndpoint(t *testing.T) {
	lookup := func(v string) func(string) (string, bool) {
		return func(name string) (string, bool) { return v, name == EnvEndpoint && v != "" }
	}
	tests := []struct {
		flag, env, config string
		want, from        string
	}{
		{flag: "https://f/mcp", env: "https://e/mcp", config: "https://c/mcp", want: "https://f/mcp", from: "flag --endpoint"},
		{env: "https://e/mcp", config: "https://c/mcp", want: "https://e/mcp", from: "environment variable CATALYST_MCP_URL"},
		{config: "https://c/mcp", want: "https://c/mcp", from: "config file"},
		{want: DefaultEndpoint, from: "default"},
	}
	for _, tc := range tests {
		got, from := ResolveEndpoint(tc.flag, lookup(tc.env), tc.config)
		if got != tc.want || from != tc.from {
			t.Errorf("ResolveEndpoint(%q, %q, %q) = %q, %q", tc.flag, tc.env, tc.config, got, from)
		}
	}
}

func TestTokenFrom(t *testing.T) {
	h := newHarness(t, catalysttest.Options{}, nil)
	if from := h.client.TokenFrom(); from != "" {
		t.Errorf("TokenFrom before use = %q", from)
	}
	if _, err := h.client.History(context.Background(), chargeRef); err != nil {
		t.Fatal(err)
	}
	if from := h.client.TokenFrom(); from != "environment variable CATALYST_TOKEN" {
		t.Errorf("TokenFrom = %q", from)
	}
}
