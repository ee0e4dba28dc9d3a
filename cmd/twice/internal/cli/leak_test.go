package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/twice-cli/twice/catalyst/catalysttest"
	"github.com/twice-cli/twice/catalyst/live"
	"github.com/twice-cli/twice/catalyst/safetext/hostiletest"
)

// TestMain checks that no command leaves a goroutine behind: the fleet
// scan's workers, the analysis that runs while JSON is written, the live
// client's connections, a read abandoned at ctrl+c.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// syncBuffer is a bytes.Buffer safe for the live client's concurrent
// debug writes.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// liveRun runs one command line against a real live client pointed at srv,
// with the client's redacted debug log captured in debug and short
// timeouts (no backoff sleeps), and returns its outcome.
func liveRun(t *testing.T, srv *catalysttest.Server, vars map[string]string, debug io.Writer, args ...string) result {
	t.Helper()
	return liveRunWith(t, srv, vars, debug, nil, args...)
}

// liveRunWith is liveRun with the live client's config changed by adjust
// after the short timeouts are set.
func liveRunWith(t *testing.T, srv *catalysttest.Server, vars map[string]string, debug io.Writer, adjust func(*live.Config), args ...string) result {
	t.Helper()
	env := map[string]string{"CATALYST_TOKEN": catalysttest.TestToken, "CATALYST_MCP_URL": srv.URL}
	for k, v := range vars {
		env[k] = v
	}
	streams, out, errOut := TestStreams("", false)
	f := NewFactory(streams, testEnv(t, env))
	f.NewLive = func(cfg live.Config) (LiveClient, error) {
		cfg.Debug = debug
		cfg.RequestTimeout = 300 * time.Millisecond
		cfg.MaxAttempts = 2
		cfg.Sleep = func(ctx context.Context, d time.Duration) error { return ctx.Err() }
		if adjust != nil {
			adjust(&cfg)
		}
		c, err := live.New(cfg)
		if err != nil {
			return nil, err
		}
		return c, nil
	}
	code := Execute(context.Background(), f, args)
	return result{code: code, out: out.String(), errOut: errOut.String()}
}

// TestTokenNeverLeaksFromCommands (reliability.md B1 at the command line,
// and issue 15's proof): every command that talks to Catalyst — runs, show,
// scan of a run, a project scan, record and doctor, in every output format —
// is run against servers that succeed, fail, refuse, time out, redirect,
// cut off and overflow, and against servers that echo the token into
// everything they control: every header twice reads, bodies with the
// token across every length twice cuts a message at and in every encoding,
// the server's name, its tool and argument names, and every field of a run
// list and a history. The token, and every 8-character window of it, is in
// no sink: standard output, standard error, the debug log, a saved file.
func TestTokenNeverLeaksFromCommands(t *testing.T) {
	token := catalysttest.TestToken
	scenarios := append(catalysttest.TokenLeakScenarios(token), catalysttest.TokenEchoScenarios(token)...)
	commands := [][]string{
		{"runs", "--project", "default"},
		{"runs", "--project", "default", "-o", "json"},
		{"show", "charge-7731", "--app", "payments", "--project", "default", "-o", "text"},
		{"show", "charge-7731", "--app", "payments", "--project", "default", "-o", "json"},
		{"show", "charge-7731", "--app", "payments", "--project", "default", "-o", "markdown"},
		{"scan", "charge-7731", "--app", "payments", "--project", "default", "-o", "json"},
		{"scan", "--project", "default", "--since", "3650d", "-o", "markdown"},
		{"scan", "--project", "default", "--since", "3650d", "-o", "jsonl"},
		{"record", "charge-7731", "--app", "payments", "--project", "default", "-o", "rec.json"},
		{"doctor"},
	}
	for _, sc := range scenarios {
		t.Run(strings.ReplaceAll(sc.Name, " ", "_"), func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			for _, args := range commands {
				args = append([]string(nil), args...)
				if args[0] == "record" {
					args[len(args)-1] = filepath.Join(dir, "rec.json")
				}
				srv := catalysttest.New(sc.Options)
				srv.Inject(sc.Faults...)
				var debug syncBuffer
				r := liveRun(t, srv, nil, &debug, args...)
				srv.Close()
				for sink, text := range map[string]string{"stdout": r.out, "stderr": r.errOut, "debug log": debug.String()} {
					if w, leaked := tokenWindow(text, token); leaked {
						t.Errorf("twice %s: %q of the token reached %s:\n%s", strings.Join(args, " "), w, sink, text)
					}
					if v, bad := hostiletest.FindUnsafe(text, false); bad {
						t.Errorf("twice %s: %s carries raw %U: %.300q", strings.Join(args, " "), sink, v.Rune, text)
					}
				}
				if debug.String() == "" && args[0] != "doctor" && !strings.Contains(r.errOut, "declares no argument") {
					t.Errorf("twice %s: the debug log is empty (is it wired?)", strings.Join(args, " "))
				}
			}
			files, _ := filepath.Glob(filepath.Join(dir, "*"))
			for _, f := range files {
				b, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				if w, leaked := tokenWindow(string(b), token); leaked {
					t.Errorf("%q of the token was saved in %s", w, f)
				}
			}
			if sc.Name == "success" && len(files) != 1 {
				t.Errorf("record saved %d files on success", len(files))
			}
		})
	}
}

// tokenWindow reports the token, any 8-character window of it, or one of
// its encoded forms (base64, \u-escaped) found in text.
func tokenWindow(text, token string) (string, bool) {
	for i := 0; i+8 <= len(token); i++ {
		if w := token[i : i+8]; strings.Contains(text, w) {
			return w, true
		}
	}
	for name, enc := range catalysttest.Encodings(token) {
		if enc != token && strings.Contains(text, enc) {
			return name, true
		}
	}
	return "", false
}

// TestTokenFileOthersCanReadIsRefused: a token file readable or writable by
// its group or others is refused with a message saying how to fix it, the
// command exits 4, and nothing is sent.
func TestTokenFileOthersCanReadIsRefused(t *testing.T) {
	srv := catalysttest.New(catalysttest.Options{})
	defer srv.Close()
	for _, mode := range []os.FileMode{0o644, 0o640, 0o604, 0o620, 0o660} {
		path := filepath.Join(t.TempDir(), "token")
		if err := os.WriteFile(path, []byte(catalysttest.TestToken+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(path, mode); err != nil {
			t.Fatal(err)
		}
		before := srv.Count("http")
		for _, args := range [][]string{{"runs", "--project", "default", "--token-file", path}, {"doctor", "--token-file", path}} {
			r := liveRun(t, srv, map[string]string{"CATALYST_TOKEN": ""}, io.Discard, args...)
			if r.code != ExitAuth {
				t.Errorf("mode %04o: twice %s exits %d, want 4", mode, args[0], r.code)
			}
			all := r.out + r.errOut
			if !strings.Contains(all, fmt.Sprintf("mode %04o", mode)) || !strings.Contains(all, "chmod 600") {
				t.Errorf("mode %04o: twice %s does not say what is wrong and what to do:\n%s", mode, args[0], all)
			}
			if strings.Contains(all, catalysttest.TestToken) {
				t.Errorf("mode %04o: the token was printed", mode)
			}
		}
		if n := srv.Count("http"); n != before {
			t.Errorf("mode %04o: %d requests were sent with a refused token file", mode, n-before)
		}
	}
}

// TestAuthorizationStaysOnTheEndpointHost: a redirect to another host
// (same scheme, another port) is not followed with the token: the other
// server never sees an Authorization header.
func TestAuthorizationStaysOnTheEndpointHost(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Header.Get("Authorization"))
		mu.Unlock()
		http.Error(w, "nothing here", http.StatusNotFound)
	}))
	defer other.Close()
	for _, on := range []string{"", "tools/call"} {
		srv := catalysttest.New(catalysttest.Options{})
		srv.Inject(catalysttest.Fault{On: on, Kind: catalysttest.FaultRedirect, Status: http.StatusTemporaryRedirect,
			Location: strings.Replace(other.URL, "127.0.0.1", "localhost", 1) + "/mcp"})
		for _, args := range [][]string{{"runs", "--project", "default"}, {"show", "charge-7731", "--app", "payments"}, {"doctor"}} {
			if r := liveRun(t, srv, nil, io.Discard, args...); r.code == ExitOK && args[0] != "doctor" {
				t.Errorf("twice %s followed a redirect to another host and succeeded", args[0])
			}
		}
		srv.Close()
	}
	mu.Lock()
	defer mu.Unlock()
	for _, auth := range seen {
		if auth != "" {
			t.Errorf("the other host received Authorization %q", auth)
		}
	}
}

// TestNetworkCommandsReturnByTheirDeadline: against a server that never
// answers, and one whose body trickles forever, every network command
// returns soon after its context's deadline, saying what happened.
func TestNetworkCommandsReturnByTheirDeadline(t *testing.T) {
	for name, fault := range map[string]catalysttest.Fault{
		"never answers":    {Kind: catalysttest.FaultDelay, Delay: time.Hour},
		"trickles forever": {Kind: catalysttest.FaultSlowBody, Delay: 50 * time.Millisecond, Body: strings.Repeat(" ", 1<<20)},
	} {
		for _, args := range [][]string{
			{"runs", "--project", "default"},
			{"show", "charge-7731", "--app", "payments", "-o", "json"},
			{"scan", "--project", "default"},
			{"record", "charge-7731", "--app", "payments", "-o", filepath.Join(t.TempDir(), "r.json")},
			{"doctor"},
		} {
			srv := catalysttest.New(catalysttest.Options{})
			srv.Inject(fault)
			env := testEnv(t, map[string]string{"CATALYST_TOKEN": catalysttest.TestToken, "CATALYST_MCP_URL": srv.URL})
			streams, _, errOut := TestStreams("", false)
			ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
			start := time.Now()
			code := Execute(ctx, NewFactory(streams, env), args) // the real client, default timeouts
			took := time.Since(start)
			cancel()
			srv.Close()
			if took > 3*time.Second {
				t.Errorf("%s: twice %s took %v past a 300ms deadline", name, args[0], took)
			}
			if code == ExitOK && args[0] != "doctor" {
				t.Errorf("%s: twice %s succeeded", name, args[0])
			}
			if args[0] != "doctor" && errOut.Len() == 0 {
				t.Errorf("%s: twice %s said nothing", name, args[0])
			}
		}
	}
}

// TestReadsThatNeverEndStopAtTheDeadline: standard input that never ends,
// and a FIFO nobody writes to, stop show and scan when the context ends
// (ctrl+c cancels it; a deadline expires it); the abandoned read finishes
// when its input closes, leaving no goroutine behind.
func TestReadsThatNeverEndStopAtTheDeadline(t *testing.T) {
	for _, how := range []string{"cancel", "deadline"} {
		for _, args := range [][]string{{"show", "-", "-o", "json"}, {"scan", "-"}} {
			pr, pw := io.Pipe()
			go func() { _, _ = pw.Write([]byte(`{"events":[`)) }() // a start, then nothing
			streams, _, errOut := TestStreams("", false)
			streams.In = pr
			f := NewFactory(streams, testEnv(t, nil))
			ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
			if how == "cancel" {
				time.AfterFunc(200*time.Millisecond, cancel)
			}
			start := time.Now()
			code := executeBounded(t, ctx, f, args, func() { _ = pw.CloseWithError(errors.New("test over")) })
			took := time.Since(start)
			cancel()
			_ = pw.CloseWithError(errors.New("test over"))
			if took > 2*time.Second {
				t.Errorf("%s: twice %s kept reading standard input for %v", how, strings.Join(args, " "), took)
			}
			// ctrl+c exits 130; a deadline (tests set one) exits non-zero.
			if code == ExitOK || how == "cancel" && code != 130 || errOut.Len() == 0 {
				t.Errorf("%s: twice %s exits %d (%q)", how, strings.Join(args, " "), code, errOut)
			}
		}
	}

	fifo := filepath.Join(t.TempDir(), "history.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	for _, args := range [][]string{{"show", fifo, "-o", "text"}, {"scan", fifo}} {
		streams, _, errOut := TestStreams("", false)
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		release := func() {
			// Let the abandoned open finish: a writer arrives and leaves.
			if w, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
				w.Close()
			}
		}
		start := time.Now()
		code := executeBounded(t, ctx, NewFactory(streams, testEnv(t, nil)), args, release)
		took := time.Since(start)
		cancel()
		release()
		if took > 2*time.Second || code == ExitOK || errOut.Len() == 0 {
			t.Errorf("twice %s on a FIFO nobody writes: exit %d after %v, stderr %q", args[0], code, took, errOut)
		}
	}
	// Give the abandoned reads a moment to see their inputs close.
	time.Sleep(100 * time.Millisecond)
}

// executeBounded runs a command line and returns its exit status; if it is
// still running after five seconds (a read that ignores its context), the
// test fails and unblock is called to end the read, so that one regression
// does not hang the whole test binary.
func executeBounded(t *testing.T, ctx context.Context, f *Factory, args []string, unblock func()) int {
	t.Helper()
	done := make(chan int, 1)
	go func() { done <- Execute(ctx, f, args) }()
	select {
	case code := <-done:
		return code
	case <-time.After(5 * time.Second):
		t.Errorf("twice %s is still reading 5s after a 300ms deadline", strings.Join(args, " "))
		unblock()
		return <-done
	}
}
