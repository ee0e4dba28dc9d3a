package live

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/catalysttest"
)

// TestDoctorTypedOutcome: the report says, in typed fields, whether the
// credential was refused and whether the server answered, so the command
// line never has to read its words.
func TestDoctorTypedOutcome(t *testing.T) {
	t.Run("token refused: reached, not authenticated", func(t *testing.T) {
		h := newHarness(t, catalysttest.Options{}, func(c *Config) {
			c.Token = TokenSources(TokenOptions{LookupEnv: env("cat_WRONG")})
		})
		rep := h.client.Doctor(context.Background())
		if !rep.NotAuthenticated || !rep.Reachable || rep.Authenticated || rep.Status != http.StatusUnauthorized || rep.OK() {
			t.Errorf("report = %+v", rep)
		}
		text := strings.Join(rep.Lines(), "\n")
		if strings.Contains(text, "not reached") || !strings.Contains(text, "server: reached, but it did not accept the credential (HTTP 401)") {
			t.Errorf("doctor lines:\n%s", text)
		}
		if strings.Contains(text, "cat_WRONG") {
			t.Errorf("the token was printed:\n%s", text)
		}
	})
	t.Run("no token: not contacted, not authenticated", func(t *testing.T) {
		h := newHarness(t, catalysttest.Options{}, func(c *Config) { c.Token = TokenSources(TokenOptions{LookupEnv: env("")}) })
		rep := h.client.Doctor(context.Background())
		if !rep.NotAuthenticated || rep.Reachable || h.srv.Count("http") != 0 {
			t.Errorf("report = %+v, %d requests", rep, h.srv.Count("http"))
		}
		if text := strings.Join(rep.Lines(), "\n"); !strings.Contains(text, "server: not contacted (no usable credential)") {
			t.Errorf("doctor lines:\n%s", text)
		}
	})
	t.Run("server failing: reached, authenticated unknown", func(t *testing.T) {
		h := newHarness(t, catalysttest.Options{}, faultConfig)
		h.srv.Inject(catalysttest.StatusFault("initialize", 0, http.StatusNotImplemented))
		rep := h.client.Doctor(context.Background())
		if rep.NotAuthenticated || !rep.Reachable || rep.Status != http.StatusNotImplemented {
			t.Errorf("report = %+v", rep)
		}
		if text := strings.Join(rep.Lines(), "\n"); !strings.Contains(text, "server: reached, but no MCP session could be opened (HTTP 501)") {
			t.Errorf("doctor lines:\n%s", text)
		}
	})
	t.Run("nothing listening: not reached", func(t *testing.T) {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := l.Addr().String()
		l.Close()
		c, err := New(Config{Endpoint: "http://" + addr + "/mcp", Token: EnvTokenSource(EnvToken, env(testSecret)),
			MaxAttempts: 1, Sleep: (&sleeps{}).sleep})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		rep := c.Doctor(context.Background())
		if rep.NotAuthenticated || rep.Reachable {
			t.Errorf("report = %+v", rep)
		}
		if text := strings.Join(rep.Lines(), "\n"); !strings.Contains(text, "server: not reached") {
			t.Errorf("doctor lines:\n%s", text)
		}
	})
}

// TestOnStatus: every HTTP answer's status reaches Config.OnStatus (the
// fleet scan's 429 signal) while the client keeps its own tuned transport.
func TestOnStatus(t *testing.T) {
	var mu sync.Mutex
	var got []int
	h := newHarness(t, catalysttest.Options{}, func(c *Config) {
		faultConfig(c)
		c.OnStatus = func(status int) {
			mu.Lock()
			got = append(got, status)
			mu.Unlock()
		}
	})
	h.srv.Inject(catalysttest.StatusFault(catalysttest.ToolGetRun, 1, http.StatusTooManyRequests, "Retry-After", "1"))
	if _, err := h.client.History(context.Background(), chargeRef); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	n429, n2xx := 0, 0
	for _, s := range got {
		switch {
		case s == http.StatusTooManyRequests:
			n429++
		case s >= 200 && s < 300:
			n2xx++
		}
	}
	// initialize, initialized, tools/list, the refused call, the retried call.
	if n429 != 1 || n2xx != 4 || len(got) != 5 {
		t.Errorf("statuses seen = %v, want one 429 and four 2xx", got)
	}
}

// TestDefaultTransportTuning: without Config.HTTPTransport the client uses
// its tuned transport, awaiting response headers a little longer than
// RequestTimeout (a backstop: the request's deadline fires first).
func TestDefaultTransportTuning(t *testing.T) {
	for _, rt := range []time.Duration{0, 90 * time.Second} {
		c, err := New(Config{RequestTimeout: rt, OnStatus: func(int) {}})
		if err != nil {
			t.Fatal(err)
		}
		tr, ok := c.auth.base.(*http.Transport)
		want := rt
		if want == 0 {
			want = DefaultRequestTimeout
		}
		if !ok || tr.ResponseHeaderTimeout <= want || tr.ResponseHeaderTimeout > 2*want+time.Second ||
			tr.MaxIdleConnsPerHost != 16 || tr.Proxy == nil ||
			(tr.TLSClientConfig != nil && tr.TLSClientConfig.InsecureSkipVerify) {
			t.Errorf("request timeout %v: transport %T %+v", rt, c.auth.base, tr)
		}
		c.Close()
	}
}

// TestHintsFitTheOperation: the advice after a refusal or an oversized
// answer fits what was asked: a smaller page for a run list, never for one
// run's history.
func TestHintsFitTheOperation(t *testing.T) {
	tests := []struct {
		name   string
		fault  catalysttest.Fault
		list   bool
		want   []string
		reject []string
	}{
		{name: "unfilterable list", list: true,
			fault: catalysttest.Refusal(catalysttest.ToolListRuns, 0, "unfilterable", "cut", false),
			want:  []string{"fewer runs per page (twice runs or scan with a smaller --limit"}, reject: []string{"Dapr CLI"}},
		{name: "unfilterable run",
			fault: catalysttest.Refusal(catalysttest.ToolGetRun, 0, "unfilterable", "cut", false),
			want:  []string{"Dapr CLI"}, reject: []string{"--limit", "per page"}},
		{name: "oversized list", list: true,
			fault: catalysttest.Fault{On: catalysttest.ToolListRuns, Kind: catalysttest.FaultOversized},
			want:  []string{"fewer runs per page", "max_body_bytes in the config"}},
		{name: "oversized run",
			fault: catalysttest.Fault{On: catalysttest.ToolGetRun, Kind: catalysttest.FaultOversized},
			want:  []string{"the run's history is that large: raise max_body_bytes in the config"}, reject: []string{"per page", "--limit"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, catalysttest.Options{}, func(c *Config) { faultConfig(c); c.MaxBodyBytes = 64 << 10 })
			h.srv.Inject(tc.fault)
			var err error
			if tc.list {
				_, err = h.client.ListRuns(context.Background(), catalyst.RunQuery{Project: "default"})
			} else {
				_, err = h.client.History(context.Background(), chargeRef)
			}
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			for _, r := range tc.reject {
				if strings.Contains(err.Error(), r) {
					t.Errorf("error %q suggests %q", err, r)
				}
			}
		})
	}
}

// TestFetchedCredential: a read names the token it used, whatever its
// source (a token_command here), so record can refuse to save it; printing
// the Fetched never shows it.
func TestFetchedCredential(t *testing.T) {
	h := newHarness(t, catalysttest.Options{}, func(c *Config) {
		c.Token = TokenSources(TokenOptions{LookupEnv: env(""), Command: []string{"printf", "%s", catalysttest.TestToken}})
	})
	f, err := h.client.Fetch(context.Background(), chargeRef)
	if err != nil {
		t.Fatal(err)
	}
	if f.Credential.Secret() != catalysttest.TestToken || !strings.HasPrefix(f.Credential.From, "token_command") {
		t.Errorf("credential from %q, testSecret matches: %v", f.Credential.From, f.Credential.Secret() == catalysttest.TestToken)
	}
	for _, verb := range []string{"%v", "%+v", "%#v", "%s"} {
		if s := fmt.Sprintf(verb, f.Credential); strings.Contains(s, catalysttest.TestToken) {
			t.Errorf("%s of the credential shows the token", verb)
		}
	}
}

// TestListStoppedByDeadline: a list cut by a deadline says the time ran
// out, with the deadline's cause, not that it was cancelled.
func TestListStoppedByDeadline(t *testing.T) {
	cause := fmt.Errorf("the command's --timeout of 1s ran out: %w", context.DeadlineExceeded)
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	pages := 0
	fetchOne := func(ctx context.Context, token string, want int) (runPage, error) {
		pages++
		if pages == 2 {
			cancel(cause)
			return runPage{}, context.Cause(ctx)
		}
		return runPage{runs: []catalyst.Run{{ID: fmt.Sprint("r", pages)}}, next: fmt.Sprint("t", pages)}, nil
	}
	list, err := paginate(ctx, fetchOne, 10, 10)
	if err != nil {
		t.Fatal(err)
	}
	if !list.Partial || len(list.Runs) != 1 || !strings.Contains(list.Reason, "the time allowed ran out (the command's --timeout of 1s ran out") ||
		!strings.Contains(list.Reason, "after 1 page") || strings.Contains(list.Reason, "cancelled") {
		t.Errorf("partial %v, %d runs, reason %q", list.Partial, len(list.Runs), list.Reason)
	}
}

// TestCheckCredential: without a token it fails with ErrNotAuthenticated
// and sends nothing; with one it sends nothing either, and the token
// command runs once for the check and the reads that follow.
func TestCheckCredential(t *testing.T) {
	h := newHarness(t, catalysttest.Options{}, func(c *Config) { c.Token = TokenSources(TokenOptions{LookupEnv: env("")}) })
	err := h.client.CheckCredential(context.Background())
	if !errors.Is(err, ErrNotAuthenticated) || !strings.Contains(err.Error(), EnvToken) || h.srv.Count("http") != 0 {
		t.Errorf("no token: %v, %d requests", err, h.srv.Count("http"))
	}

	runs := filepath.Join(t.TempDir(), "runs")
	script := fmt.Sprintf("echo x >> %s; printf %%s %s", runs, catalysttest.TestToken)
	h = newHarness(t, catalysttest.Options{}, func(c *Config) {
		c.Token = TokenSources(TokenOptions{Command: []string{script}, Shell: true})
	})
	if err := h.client.CheckCredential(context.Background()); err != nil || h.srv.Count("http") != 0 {
		t.Fatalf("token command: %v, %d requests", err, h.srv.Count("http"))
	}
	if _, err := h.client.History(context.Background(), chargeRef); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(runs); err != nil || strings.Count(string(b), "x") != 1 {
		t.Errorf("token command ran %q times (%v), want once", b, err)
	}
}
