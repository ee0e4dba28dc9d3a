package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/catalysttest"
	"github.com/twice-cli/twice/catalyst/live"
)

// innerClient is the client a boundedClient wraps (the source itself
// otherwise).
func innerClient(src catalyst.Source) catalyst.Source {
	if b, ok := src.(*boundedClient); ok {
		return b.LiveClient
	}
	return src
}

// runReal runs a command line with the real live client (the harness's
// streams, environment and interactive view otherwise).
func (h *harness) runReal(args ...string) result {
	h.t.Helper()
	f, out, errOut := h.factory()
	f.NewLive = NewFactory(nil, Env{}).NewLive
	code := Execute(context.Background(), f, args)
	r := result{code: code, out: out.String(), errOut: errOut.String()}
	if strings.Contains(r.out+r.errOut, catalysttest.TestToken) {
		h.t.Fatalf("twice %v printed the token:\n%s\n%s", args, r.out, r.errOut)
	}
	return r
}

// TestDoctorTokenRefused: a token Catalyst rejects exits 4 and says the
// server answered and refused it, never that it was not reached.
func TestDoctorTokenRefused(t *testing.T) {
	srv := catalysttest.New(catalysttest.Options{})
	defer srv.Close()
	for _, tc := range []struct {
		name  string
		vars  map[string]string
		want  []string
		calls bool
	}{
		{name: "wrong token", vars: map[string]string{"CATALYST_TOKEN": "cat_WRONG"}, calls: true,
			want: []string{"server: reached, but it did not accept the credential (HTTP 401)", "did not accept the credential (token from environment variable CATALYST_TOKEN)",
				"\nwhere a token comes from: " + live.TokenWhere + "\n", "\nwhat twice cannot do: " + live.NoLogin}},
		// With no token, doctor says where one can come from, that twice
		// has no login of its own, and what works without one.
		{name: "no token", vars: map[string]string{},
			want: []string{"server: not contacted (no usable credential)", "no usable credential: set CATALYST_TOKEN",
				"\nwhere a token comes from: give twice a bearer token for the Catalyst MCP server that you already hold: in CATALYST_TOKEN, in a token_file (mode 0600), or printed by a token_command",
				"\nwhat twice cannot do: twice cannot log you in: Catalyst's MCP server issues tokens through OAuth only to clients Diagrid has registered, and twice has no client id of its own",
				"\nwithout a token: saved histories (twice show FILE)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := srv.Count("http")
			h := newHarness(t)
			tc.vars["CATALYST_MCP_URL"] = srv.URL
			h.env = testEnv(t, tc.vars)
			r := h.runReal("doctor")
			if r.code != ExitAuth {
				t.Errorf("exit %d, want 4\n%s\n%s", r.code, r.out, r.errOut)
			}
			text := r.out + r.errOut
			for _, w := range tc.want {
				if !strings.Contains(text, w) {
					t.Errorf("doctor lacks %q:\n%s", w, text)
				}
			}
			if strings.Contains(text, "not reached") || strings.Contains(text, "cat_WRONG") {
				t.Errorf("doctor:\n%s", text)
			}
			if sent := srv.Count("http") > before; sent != tc.calls {
				t.Errorf("requests sent: %v, want %v", sent, tc.calls)
			}
		})
	}
}

// TestTimeout: --timeout and timeout: bound the command's network work and
// say, on expiry, what ran out and how to raise it; 0 means no limit.
func TestTimeout(t *testing.T) {
	srv := catalysttest.New(catalysttest.Options{})
	defer srv.Close()
	vars := map[string]string{"CATALYST_TOKEN": catalysttest.TestToken, "CATALYST_MCP_URL": srv.URL}

	t.Run("expiry says what ran out", func(t *testing.T) {
		srv.Inject(catalysttest.Fault{On: catalysttest.ToolGetRun, Times: 1, Kind: catalysttest.FaultDelay, Delay: 10 * time.Second})
		h := newHarness(t)
		h.env = testEnv(t, vars)
		start := time.Now()
		r := h.runReal("--timeout", "300ms", "show", "charge-7731", "--app", "payments", "--project", "default", "-o", "json")
		if elapsed := time.Since(start); elapsed > 5*time.Second {
			t.Errorf("took %v with --timeout 300ms", elapsed)
		}
		if r.code != ExitError || !strings.Contains(r.errOut, "reading run charge-7731") ||
			!strings.Contains(r.errOut, "the command's time limit of 300ms ran out (raise it with --timeout, or timeout: in twice.yaml") {
			t.Errorf("exit %d, stderr %q", r.code, r.errOut)
		}
	})

	t.Run("which limit applies", func(t *testing.T) {
		tests := []struct {
			name   string
			config string
			args   []string
			want   time.Duration // 0: not bounded
		}{
			{name: "default", want: DefaultTimeout},
			{name: "config", config: "timeout: 2m\n", want: 2 * time.Minute},
			{name: "config 0: no limit", config: "timeout: 0\n"},
			{name: "flag wins over config", config: "timeout: 2m\n", args: []string{"--timeout", "45s"}, want: 45 * time.Second},
			{name: "flag 0: no limit", config: "timeout: 2m\n", args: []string{"--timeout", "0"}},
		}
		for _, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				h := newHarness(t)
				f, _, errOut := h.factory()
				args := tc.args
				if tc.config != "" {
					args = append(args, "--config", writeFile(t, "twice.yaml", tc.config))
				}
				// Any command parses the flags; doctor then builds a client.
				if code := Execute(context.Background(), f, append(args, "doctor")); code != ExitOK {
					t.Fatalf("exit %d: %s", code, errOut)
				}
				got, err := f.live(nil, nil)
				if err != nil {
					t.Fatal(err)
				}
				b, bounded := got.(*boundedClient)
				switch {
				case tc.want == 0 && bounded:
					t.Errorf("bounded by %v, want no limit", b.limit)
				case tc.want != 0 && (!bounded || b.limit != tc.want || b.deadline.IsZero()):
					t.Errorf("client %T %+v, want a deadline %v from now", got, b, tc.want)
				}
			})
		}
	})

	t.Run("bad values are refused", func(t *testing.T) {
		h := newHarness(t)
		if r := h.run("--timeout", "-1s", "demo", "list"); r.code != ExitUsage || !strings.Contains(r.errOut, "negative") {
			t.Errorf("--timeout -1s: exit %d, %q", r.code, r.errOut)
		}
		for content, want := range map[string]string{
			"timeout: -5m\n":               "timeout -5m0s is negative",
			"timeout: 10\n":                `"10" is not a duration: write it with a unit`,
			"request_timeout: 0\n":         "request_timeout 0s must be more than 0",
			"token_command_timeout: x\n":   `"x" is not a duration`,
			"max_body_bytes: 100\n":        "max_body_bytes 100 is out of range",
			"max_body_bytes: 9999999999\n": "max_body_bytes 9999999999 is out of range",
		} {
			_, err := LoadConfig(writeFile(t, "twice.yaml", content), Env{})
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%q: %v, want %q", content, err, want)
			}
		}
	})

	t.Run("interactive reads get the limit each", func(t *testing.T) {
		b := &boundedClient{LiveClient: newFakeLive(), limit: time.Minute, deadline: time.Now().Add(time.Minute)}
		per, ok := interactiveSource(b).(*boundedClient)
		if !ok || per.limit != time.Minute || !per.deadline.IsZero() {
			t.Errorf("interactive source %+v", per)
		}
		slow := newFakeLive()
		slow.delay = 5 * time.Second
		_, err := (&boundedClient{LiveClient: slow, limit: 50 * time.Millisecond}).History(context.Background(), catalyst.RunRef{ID: "x"})
		if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "the time limit of one read of 50ms ran out") {
			t.Errorf("per-read deadline: %v", err)
		}
	})
}

// TestLiveConfigKeys: the config's limits reach the live client.
func TestLiveConfigKeys(t *testing.T) {
	h := newHarness(t)
	h.env = testEnv(t, map[string]string{"CATALYST_TOKEN": "x"})
	cfg := writeFile(t, "twice.yaml", "max_body_bytes: 268435456\nrequest_timeout: 90s\ntoken_command_timeout: 1m\ntoken_command: [printf, x]\n")
	h.live.list = catalyst.RunList{}
	if r := h.run("--config", cfg, "runs", "--project", "default"); r.code != ExitOK {
		t.Fatalf("exit %d: %s", r.code, r.errOut)
	}
	lc := h.liveConfig
	if lc.MaxBodyBytes != 256<<20 || lc.RequestTimeout != 90*time.Second || lc.HTTPTransport != nil {
		t.Errorf("live config: body %d, request timeout %v, transport %T", lc.MaxBodyBytes, lc.RequestTimeout, lc.HTTPTransport)
	}
	// The token command's timeout is inside the token source; its words
	// name the key when it runs out.
	slow := writeFile(t, "slow.yaml", "token_command: [sleep, \"5\"]\ntoken_command_timeout: 50ms\n")
	h = newHarness(t)
	r := h.runReal("--config", slow, "--endpoint", "http://127.0.0.1:1/mcp", "runs", "--project", "default")
	if r.code != ExitAuth || !strings.Contains(r.errOut, "did not finish within 50ms") || !strings.Contains(r.errOut, "token_command_timeout") {
		t.Errorf("exit %d: %s", r.code, r.errOut)
	}
}

// TestShowLiveInTheViewListsItsProject: esc from a live run opens the run
// list of its project and app, not a list without a project.
func TestShowLiveInTheViewListsItsProject(t *testing.T) {
	h := newHarness(t)
	h.tty, h.tuiErr = true, nil
	if r := h.run("show", "charge-7731", "--app", "payments", "--project", "shop"); r.code != ExitOK {
		t.Fatalf("exit %d: %s", r.code, r.errOut)
	}
	if len(h.tuiCalls) != 1 {
		t.Fatalf("%d views", len(h.tuiCalls))
	}
	req := h.tuiCalls[0]
	if req.Ref == nil || req.Ref.ID != "charge-7731" || req.Query != (catalyst.RunQuery{Project: "shop", AppID: "payments"}) {
		t.Errorf("ref %+v, query %+v", req.Ref, req.Query)
	}
	if innerClient(req.Source) != catalyst.Source(h.live) || h.live.credChecks != 1 {
		t.Errorf("source %T, %d credential checks", req.Source, h.live.credChecks)
	}
}

// TestHomeBanners: the banner says what is true: no credentials, or
// credentials but no project.
func TestHomeBanners(t *testing.T) {
	h := newHarness(t)
	h.tty, h.tuiErr = true, nil
	h.env = testEnv(t, map[string]string{"CATALYST_TOKEN": "cat_TESTTOKEN_123"})
	h.run()
	if len(h.tuiCalls) != 1 || h.tuiCalls[0].Banner != noProjectBanner || strings.Contains(h.tuiCalls[0].Banner, "no Catalyst credentials") {
		t.Fatalf("token, no project: %+v", h.tuiCalls)
	}
	if len(noProjectBanner) > 80 || !strings.Contains(noProjectBanner, "--project") || !strings.Contains(noProjectBanner, "project: in twice.yaml") {
		t.Errorf("banner %q", noProjectBanner)
	}
	// --project on the command line opens that project's runs.
	h = newHarness(t)
	h.tty, h.tuiErr = true, nil
	h.env = testEnv(t, map[string]string{"CATALYST_TOKEN": "cat_TESTTOKEN_123"})
	h.run("--project", "shop", "--app", "payments")
	if len(h.tuiCalls) != 1 || h.tuiCalls[0].Banner != "" || h.tuiCalls[0].Query != (catalyst.RunQuery{Project: "shop", AppID: "payments"}) {
		t.Fatalf("--project: %+v", h.tuiCalls)
	}
}

// TestNoCredentialBeforeTheView: a live target without a usable credential
// is an error before any request and before the view opens: exit 4, saying
// how to provide one.
func TestNoCredentialBeforeTheView(t *testing.T) {
	srv := catalysttest.New(catalysttest.Options{})
	defer srv.Close()
	for name, args := range map[string][]string{
		"show":              {"show", "charge-7731", "--app", "payments", "--project", "default"},
		"home with project": {"--project", "default"},
	} {
		t.Run(strings.ReplaceAll(name, " ", "_"), func(t *testing.T) {
			h := newHarness(t)
			h.tty, h.tuiErr = true, nil
			h.env = testEnv(t, map[string]string{"CATALYST_MCP_URL": srv.URL})
			r := h.runReal(args...)
			if r.code != ExitAuth || len(h.tuiCalls) != 0 || !strings.Contains(r.errOut, "CATALYST_TOKEN") {
				t.Errorf("exit %d, %d views, stderr %q", r.code, len(h.tuiCalls), r.errOut)
			}
			// It says where a token can come from, and that twice cannot
			// log anyone in (README, "Authentication").
			for _, want := range []string{live.TokenWhere, live.NoLogin, "twice doctor"} {
				if !strings.Contains(r.errOut, want) {
					t.Errorf("stderr lacks %q:\n%s", want, r.errOut)
				}
			}
		})
	}
	if n := srv.Count("http"); n != 0 {
		t.Errorf("%d requests sent without a credential", n)
	}
}

// TestRecordRefusesATokenFromTheCommand: the token a token_command gave is
// refused in a recording like one from CATALYST_TOKEN.
func TestRecordRefusesATokenFromTheCommand(t *testing.T) {
	doc, err := catalysttest.BundledDoc("payment-retried-after-timeout.json")
	if err != nil {
		t.Fatal(err)
	}
	// A history that quotes the token (where the metadata level keeps it).
	doc = []byte(strings.Replace(string(doc), `"workflowName": "`, `"workflowName": "leaked `+catalysttest.TestToken+` `, 1))
	run, err := catalysttest.RunFromDoc(doc)
	if err != nil || !strings.Contains(run.Workflow, catalysttest.TestToken) {
		t.Fatalf("run: %v, workflow %q", err, run.Workflow)
	}
	srv := catalysttest.New(catalysttest.Options{Runs: []catalysttest.Run{run}})
	defer srv.Close()
	h := newHarness(t)
	h.env = testEnv(t, map[string]string{"CATALYST_MCP_URL": srv.URL})
	cfg := writeFile(t, "twice.yaml", fmt.Sprintf("token_command: [printf, \"%%s\", %s]\n", catalysttest.TestToken))
	out := filepath.Join(t.TempDir(), "rec.json")
	r := h.runReal("--config", cfg, "record", run.ID, "--app", run.AppID, "--project", "default", "-o", out)
	if r.code != ExitError || !strings.Contains(r.errOut, "credential") {
		t.Errorf("exit %d, stderr %q", r.code, r.errOut)
	}
	if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a file was written: %v", err)
	}
	if srv.Count(catalysttest.ToolGetRun) != 1 {
		t.Errorf("the run was not read (%d reads): the refusal did not come from the saved file's check", srv.Count(catalysttest.ToolGetRun))
	}
}
