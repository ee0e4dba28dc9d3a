package cli

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/twice-cli/twice/catalyst/catalysttest"
	"github.com/twice-cli/twice/catalyst/live"
)

// Issue 26, item 1: a twice.yaml in the current folder (any repository
// can ship one) must not choose where the token goes or what runs.

// tokenTrap is an MCP endpoint a hostile folder config names: it counts
// every request and those that carry the token.
type tokenTrap struct {
	*httptest.Server
	requests, withToken atomic.Int32
}

func newTokenTrap(t *testing.T, token string) *tokenTrap {
	trap := &tokenTrap{}
	trap.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		trap.requests.Add(1)
		if token != "" && strings.Contains(r.Header.Get("Authorization"), token) {
			trap.withToken.Add(1)
		}
		http.Error(w, "trap", http.StatusTeapot)
	}))
	t.Cleanup(trap.Close)
	return trap
}

// loopbackOnly is a transport that carries requests to loopback servers
// only and records the hosts of the others (a test must never reach the
// real Catalyst).
type loopbackOnly struct {
	mu      sync.Mutex
	refused []string
}

func (l *loopbackOnly) RoundTrip(r *http.Request) (*http.Response, error) {
	if h := r.URL.Hostname(); h != "127.0.0.1" && h != "localhost" && h != "::1" {
		l.mu.Lock()
		l.refused = append(l.refused, h)
		l.mu.Unlock()
		return nil, fmt.Errorf("test transport: %s is not a loopback host", h)
	}
	return http.DefaultTransport.RoundTrip(r)
}

// folderWorld is a working folder with a twice.yaml and a user config
// folder, run with the real live client.
type folderWorld struct {
	t         *testing.T
	work, xdg string
	vars      map[string]string
	transport *loopbackOnly
	tuiOpened int
}

func newFolderWorld(t *testing.T, folderConfig string, vars map[string]string) *folderWorld {
	w := &folderWorld{t: t, work: t.TempDir(), xdg: t.TempDir(), vars: map[string]string{}, transport: &loopbackOnly{}}
	for k, v := range vars {
		w.vars[k] = v
	}
	w.vars["XDG_CONFIG_HOME"] = w.xdg
	w.writeFolder(folderConfig)
	return w
}

func (w *folderWorld) writeFolder(content string) {
	w.t.Helper()
	if err := os.WriteFile(filepath.Join(w.work, ConfigFileName), []byte(content), 0o600); err != nil {
		w.t.Fatal(err)
	}
}

func (w *folderWorld) writeUser(content string) {
	w.t.Helper()
	if err := os.MkdirAll(filepath.Join(w.xdg, "twice"), 0o700); err != nil {
		w.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(w.xdg, "twice", ConfigFileName), []byte(content), 0o600); err != nil {
		w.t.Fatal(err)
	}
}

// run runs a command line in the folder; tty makes both streams terminals
// (bare twice then opens the view, which is faked).
func (w *folderWorld) run(tty bool, args ...string) result {
	w.t.Helper()
	env := testEnv(w.t, w.vars)
	env.WorkDir = w.work
	env.Transport = w.transport
	streams, out, errOut := TestStreams("", tty)
	f := NewFactory(streams, env)
	f.NewLive = func(cfg live.Config) (LiveClient, error) {
		cfg.RequestTimeout = 2 * time.Second
		cfg.MaxAttempts = 1
		c, err := live.New(cfg)
		if err != nil {
			return nil, err
		}
		return c, nil
	}
	f.RunTUI = func(ctx context.Context, req TUIRequest) error {
		w.tuiOpened++
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	code := Execute(ctx, f, args)
	return result{code: code, out: out.String(), errOut: errOut.String()}
}

// folderCommands are the commands that read the config and reach Catalyst.
var folderCommands = []struct {
	name string
	tty  bool
	args []string
}{
	{"bare twice", true, nil},
	{"doctor", false, []string{"doctor"}},
	{"runs", false, []string{"runs"}},
	{"show", false, []string{"show", "charge-7731"}},
}

// TestFolderConfigCannotSendTheToken: a folder's endpoint receives no
// request carrying CATALYST_TOKEN (none at all) on bare twice, doctor,
// runs and show, whether the user has a config of their own (whose
// endpoint is used) or not (the default endpoint, which the test transport
// refuses). Each command says what it ignored and how to trust it. Before
// issue 26 the trap received the token on every command.
func TestFolderConfigCannotSendTheToken(t *testing.T) {
	trap := newTokenTrap(t, catalysttest.TestToken)
	srv := catalysttest.New(catalysttest.Options{})
	defer srv.Close()
	hostile := fmt.Sprintf("endpoint: %s/mcp\norg: evil-org\nproject: default\napp: payments\n", trap.URL)
	for _, withUser := range []bool{true, false} {
		w := newFolderWorld(t, hostile, map[string]string{"CATALYST_TOKEN": catalysttest.TestToken})
		if withUser {
			w.writeUser("endpoint: " + srv.URL + "\n")
		}
		for _, c := range folderCommands {
			r := w.run(c.tty, c.args...)
			if !strings.Contains(r.errOut, "ignored endpoint, org in "+filepath.Join(w.work, ConfigFileName)) ||
				!strings.Contains(r.errOut, "run twice trust") {
				t.Errorf("user config %v, %s: stderr does not say what was ignored and how to trust it:\n%s", withUser, c.name, r.errOut)
			}
			if withUser && c.name != "doctor" && r.code != ExitOK {
				t.Errorf("user config, %s: exit %d (the user's endpoint must be used)\n%s", c.name, r.code, r.errOut)
			}
		}
		if n := trap.requests.Load(); n != 0 {
			t.Fatalf("user config %v: the folder's endpoint received %d requests, %d with the token", withUser, n, trap.withToken.Load())
		}
		if !withUser && len(w.transport.refused) == 0 {
			t.Errorf("no user config: the default endpoint was never tried")
		}
	}
	if srv.Count("http") == 0 {
		t.Errorf("the user's own endpoint was never used")
	}
}

// TestFolderTokenCommandNeverRuns: a token_command (as a shell line and as
// argv) or token_file in a folder's config is never used, on any command;
// once the user trusts the file it runs, and an edit revokes the trust.
func TestFolderTokenCommandNeverRuns(t *testing.T) {
	srv := catalysttest.New(catalysttest.Options{})
	defer srv.Close()
	marker := filepath.Join(t.TempDir(), "ran")
	for _, tokenCommand := range []string{
		fmt.Sprintf("token_command: \"touch %s; printf %s\"\n", marker, catalysttest.TestToken),
		fmt.Sprintf("token_command: [sh, -c, \"touch %s; printf %s\"]\n", marker, catalysttest.TestToken),
	} {
		folder := "project: default\napp: payments\n" + tokenCommand
		w := newFolderWorld(t, folder, map[string]string{"CATALYST_MCP_URL": srv.URL})
		for _, c := range folderCommands {
			r := w.run(c.tty, c.args...)
			if _, err := os.Stat(marker); err == nil {
				t.Fatalf("%s ran the folder's token_command %q\n%s", c.name, tokenCommand, r.errOut)
			}
			if !strings.Contains(r.errOut, "ignored token_command") {
				t.Errorf("%s: stderr does not say token_command was ignored:\n%s", c.name, r.errOut)
			}
		}
		doc := w.run(false, "doctor")
		if !strings.Contains(doc.out, "folder config: "+filepath.Join(w.work, ConfigFileName)+", not trusted: ignored token_command (twice trust") {
			t.Errorf("doctor does not show the folder config as untrusted:\n%s", doc.out)
		}

		// Trusted, the same file's command runs (the marker shows the test
		// would see it).
		if r := w.run(false, "trust"); r.code != ExitOK || !strings.Contains(r.out, "Trusted "+filepath.Join(w.work, ConfigFileName)) ||
			!strings.Contains(r.out, "token_command") {
			t.Fatalf("twice trust: exit %d\n%s\n%s", r.code, r.out, r.errOut)
		}
		if r := w.run(false, "runs"); r.code != ExitOK || strings.Contains(r.errOut, "ignored") {
			t.Fatalf("trusted runs: exit %d\n%s", r.code, r.errOut)
		}
		if _, err := os.Stat(marker); err != nil {
			t.Fatalf("the trusted token_command did not run: %v", err)
		}
		if err := os.Remove(marker); err != nil {
			t.Fatal(err)
		}
		// An edit revokes the trust.
		w.writeFolder(folder + "# edited\n")
		r := w.run(false, "runs")
		if _, err := os.Stat(marker); err == nil {
			t.Fatalf("the edited file's token_command ran")
		}
		if !strings.Contains(r.errOut, "it changed since you trusted it") {
			t.Errorf("edited: stderr does not say the trust was revoked by the edit:\n%s", r.errOut)
		}
		// Untrust removes the record.
		w.writeFolder(folder)
		if r := w.run(false, "untrust"); r.code != ExitOK || !strings.Contains(r.out, "No longer trusted") {
			t.Fatalf("twice untrust: exit %d\n%s", r.code, r.out)
		}
		w.run(false, "runs")
		if _, err := os.Stat(marker); err == nil {
			t.Fatalf("the untrusted file's token_command ran")
		}
	}
}

// TestFolderConfigLayersOverTheUsers: the folder's project, app, source and
// analysis settings win over the user's file; the user's credential
// settings stay when the folder's are ignored; --config is read whole.
func TestFolderConfigLayersOverTheUsers(t *testing.T) {
	w := newFolderWorld(t, "project: from-folder\nlarge_payload_bytes: 7\ntoken_file: /etc/shadow\nconsole: https://phish.example\n", nil)
	w.writeUser("project: from-user\napp: user-app\ntoken_file: ~/.config/twice/token\nendpoint: https://user.example/mcp\n")
	env := testEnv(t, w.vars)
	env.WorkDir = w.work
	cfg, err := LoadConfig("", env)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Project != "from-folder" || cfg.App != "user-app" || cfg.LargePayloadBytes != 7 ||
		cfg.TokenFile != "~/.config/twice/token" || cfg.Endpoint != "https://user.example/mcp" || cfg.Console != "" {
		t.Errorf("layered config = %+v", cfg)
	}
	if got := strings.Join(cfg.Folder.Ignored, ","); got != "token_file,console" {
		t.Errorf("ignored = %s", got)
	}
	explicit, err := LoadConfig(filepath.Join(w.work, ConfigFileName), env)
	if err != nil || explicit.TokenFile != "/etc/shadow" || explicit.Folder != nil {
		t.Errorf("--config must be read whole: %+v, %v", explicit, err)
	}
}

// TestConfigIsARegularFile: a twice.yaml that is a named pipe (which a
// plain open waits on for ever: before issue 26 twice hung) or a link to
// /dev/zero is an error naming it, at once.
func TestConfigIsARegularFile(t *testing.T) {
	for _, kind := range []string{"fifo", "zero"} {
		w := newFolderWorld(t, "", nil)
		p := filepath.Join(w.work, ConfigFileName)
		if err := os.Remove(p); err != nil {
			t.Fatal(err)
		}
		var err error
		if kind == "fifo" {
			err = syscall.Mkfifo(p, 0o600)
		} else {
			err = os.Symlink("/dev/zero", p)
		}
		if err != nil {
			t.Skipf("%s: %v", kind, err)
		}
		done := make(chan result, 1)
		go func() { done <- w.run(false, "runs") }()
		select {
		case r := <-done:
			if r.code != ExitError || !strings.Contains(r.errOut, "not a regular file") {
				t.Errorf("twice.yaml as %s: exit %d\n%s", kind, r.code, r.errOut)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("twice.yaml as %s: twice still waiting after 10 s", kind)
		}
	}
}

// TestTrustRefusesWhatIsNotAFolderConfig: twice trust with no twice.yaml
// here, or naming the user's own config, is an error saying why, and
// records nothing.
func TestTrustRefusesWhatIsNotAFolderConfig(t *testing.T) {
	w := newFolderWorld(t, "", nil)
	if err := os.Remove(filepath.Join(w.work, ConfigFileName)); err != nil {
		t.Fatal(err)
	}
	if r := w.run(false, "trust"); r.code != ExitError || !strings.Contains(r.errOut, "nothing to trust") {
		t.Errorf("no twice.yaml: exit %d\n%s", r.code, r.errOut)
	}
	w.writeUser("project: mine\n")
	if r := w.run(false, "trust", filepath.Join(w.xdg, "twice")); r.code != ExitError || !strings.Contains(r.errOut, "is your own config") {
		t.Errorf("the user's own config: exit %d\n%s", r.code, r.errOut)
	}
	if _, err := os.Stat(filepath.Join(w.xdg, "twice", "trusted.json")); err == nil {
		t.Errorf("a trust record was written")
	}
}
