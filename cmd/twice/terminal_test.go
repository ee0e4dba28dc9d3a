package main

import (
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/twice-cli/twice/catalyst/catalysttest"
	"github.com/twice-cli/twice/detect/review/python"
)

// These tests run the real binary in a real terminal: a tmux server on a
// private socket (never the user's), following research/tui-anchors.md C.4.
// They skip, saying why, when tmux is not installed.

// terminal is a tmux session running one command in a shell that stays
// alive after it, so the terminal's state after twice exits can be read.
type terminal struct {
	t    *testing.T
	sock string
}

// binary is the twice binary the tests run, built once by TestMain.
var binary struct {
	path string
	err  error
}

func TestMain(m *testing.M) {
	flag.Parse()
	dir, err := os.MkdirTemp("", "twice-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary.path = filepath.Join(dir, "twice")
	if out, err := exec.Command("go", "build", "-o", binary.path, ".").CombinedOutput(); err != nil {
		binary.err = fmt.Errorf("go build: %v\n%s", err, out)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// buildTwice returns the binary built for the tests.
func buildTwice(t *testing.T) string {
	t.Helper()
	if binary.err != nil {
		t.Fatal(binary.err)
	}
	return binary.path
}

func startTerminal(t *testing.T, width, height int, env []string, command string) *terminal {
	t.Helper()
	if testing.Short() {
		t.Skip("real-terminal test skipped in -short mode")
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed: the real-terminal tests need it (apt-get install tmux)")
	}
	term := &terminal{t: t, sock: fmt.Sprintf("twice-test-%d-%d", os.Getpid(), time.Now().UnixNano())}
	t.Cleanup(func() { _ = exec.Command("tmux", "-L", term.sock, "kill-server").Run() })
	term.tmux("-f", "/dev/null", "new-session", "-d", "-s", "main", "-x", fmt.Sprint(width), "-y", fmt.Sprint(height))
	script := command + `; echo "TWICE-EXIT=$?"; sleep 600`
	args := []string{"respawn-pane", "-k", "-t", "main", "env"}
	args = append(args, env...)
	args = append(args, "sh", "-c", script)
	term.tmux(args...)
	return term
}

func (term *terminal) tmux(args ...string) string {
	term.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-L", term.sock}, args...)...).CombinedOutput()
	if err != nil {
		term.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return string(out)
}

func (term *terminal) screen() string { return term.tmux("capture-pane", "-p", "-t", "main") }

// waitFor polls the screen until it holds text.
func (term *terminal) waitFor(text string) string {
	term.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		s := term.screen()
		if strings.Contains(s, text) {
			return s
		}
		if time.Now().After(deadline) {
			term.t.Fatalf("the screen never showed %q:\n%s", text, s)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (term *terminal) keys(keys ...string) {
	term.tmux(append([]string{"send-keys", "-t", "main"}, keys...)...)
}

func (term *terminal) resize(width, height int) {
	term.tmux("resize-window", "-t", "main", "-x", fmt.Sprint(width), "-y", fmt.Sprint(height))
}

// exitStatus waits for twice to exit and returns its status.
func (term *terminal) exitStatus() string {
	s := term.waitFor("TWICE-EXIT=")
	i := strings.Index(s, "TWICE-EXIT=") + len("TWICE-EXIT=")
	return strings.Fields(s[i:])[0]
}

// checkRestored fails unless the terminal is back to normal: the main
// screen, the cursor shown, mouse reporting and keypad mode off.
func (term *terminal) checkRestored() {
	term.t.Helper()
	state := strings.TrimSpace(term.tmux("display", "-p", "-t", "main",
		"alt=#{alternate_on} cursor=#{cursor_flag} mouse=#{mouse_any_flag}#{mouse_button_flag}#{mouse_all_flag} keypad=#{keypad_flag}#{keypad_cursor_flag}"))
	if want := "alt=0 cursor=1 mouse=000 keypad=00"; state != want {
		term.t.Errorf("terminal not restored after twice exited: %s, want %s", state, want)
	}
}

var baseEnv = []string{"TERM=xterm-256color", "NO_COLOR=1", "LANG=C.UTF-8"}

func TestTerminalShowDemo(t *testing.T) {
	bin := buildTwice(t)
	home := t.TempDir()
	term := startTerminal(t, 100, 30, append(baseEnv, "HOME="+home, "XDG_CONFIG_HOME="+home), bin+" show demo:payment-timeout")
	term.waitFor("ChargeCard")
	term.waitFor("order-7731")
	term.waitFor("1 of 3 invocations flagged") // ChargeCard is selected on open
	term.keys("Enter")
	term.waitFor("#2 ✓ completed +35.60s")
	term.resize(80, 24)
	s := term.waitFor("ChargeCard")
	for i, l := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		if w := len([]rune(l)); w > 80 {
			t.Errorf("line %d is %d columns wide at 80×24: %q", i, w, l)
		}
	}
	term.resize(100, 30)
	term.waitFor("ChargeCard")
	term.keys("q")
	if st := term.exitStatus(); st != "0" {
		t.Errorf("exit status %s, want 0", st)
	}
	term.checkRestored()
}

func TestTerminalCtrlCWhileLoading(t *testing.T) {
	// A Catalyst endpoint that never answers: the run stays loading.
	stop := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-stop:
		}
	}))
	defer srv.Close()
	defer close(stop)
	bin := buildTwice(t)
	home := t.TempDir()
	env := append(baseEnv, "HOME="+home, "XDG_CONFIG_HOME="+home, "CATALYST_TOKEN=cat_TESTTOKEN_123", "CATALYST_MCP_URL="+srv.URL+"/mcp")
	term := startTerminal(t, 100, 30, env, bin+" show charge-7731 --app payments --project default")
	term.waitFor("charge-7731")
	start := time.Now()
	term.keys("C-c")
	st := term.exitStatus()
	if st != "130" {
		t.Errorf("exit status %s after ctrl+c, want 130", st)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("twice took %v to stop after ctrl+c", d)
	}
	term.checkRestored()
	if strings.Contains(term.screen(), "cat_TESTTOKEN_123") {
		t.Errorf("the token reached the screen")
	}
}

// TestTerminalPipedHistoryOpensTheView pipes the Dapr CLI's JSON into
// twice show - on a terminal: the view opens, reads keys from the terminal
// (not the pipe), says the run id is not in this format, and quits clean.
func TestTerminalPipedHistoryOpensTheView(t *testing.T) {
	bin := buildTwice(t)
	home := t.TempDir()
	src, err := filepath.Abs("../../fixtures/testdata/demosrc/card-declined.json")
	if err != nil {
		t.Fatal(err)
	}
	term := startTerminal(t, 110, 30, append(baseEnv, "HOME="+home, "XDG_CONFIG_HOME="+home), "cat "+src+" | "+bin+" show -")
	term.waitFor("run (not in this history)")
	term.waitFor("charge_card")
	term.keys("Tab", "Tab")
	term.waitFor("[Events 24]")
	term.keys("q")
	if st := term.exitStatus(); st != "0" {
		t.Errorf("exit status %s, want 0", st)
	}
	term.checkRestored()
}

func TestTerminalPipedPrintsText(t *testing.T) {
	bin := buildTwice(t)
	out, err := exec.Command(bin, "show", "demo:payment-timeout").Output()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(out), "Run order-7731\n") || strings.Contains(string(out), "\x1b") {
		t.Errorf("piped show should print plain text:\n%s", out)
	}
}

// childRunDoc is the history of the child run onboard-42:0002 (OpenAccount)
// that catalysttest's child-workflow-retried run starts on its second
// attempt, in Catalyst's flattened form, for the stand-in to serve.
const childRunDoc = `{"instanceID": "onboard-42:0002", "appId": "accounts", "projectId": "default",
 "workflowName": "OpenAccount", "runtimeStatus": "COMPLETED",
 "createdAt": "2026-11-29T17:40:14.334Z", "lastUpdatedAt": "2026-11-29T17:40:19.511Z",
 "history": [
  {"event_id": -1, "event_type": "WorkflowStarted", "timestamp": "2026-11-29T17:40:14.340Z"},
  {"event_id": -1, "event_type": "ExecutionStarted", "timestamp": "2026-11-29T17:40:14.334Z", "name": "OpenAccount", "instance_id": "onboard-42:0002"},
  {"event_id": 0, "event_type": "TaskScheduled", "timestamp": "2026-11-29T17:40:14.350Z", "name": "CreateLedgerAccount", "task_execution_id": "5d1c9e2a-7b3f-4c8d-9e0a-1b2c3d4e5f60"},
  {"event_id": -1, "event_type": "WorkflowStarted", "timestamp": "2026-11-29T17:40:19.500Z"},
  {"event_id": -1, "event_type": "TaskCompleted", "timestamp": "2026-11-29T17:40:19.490Z", "task_scheduled_id": 0, "task_execution_id": "5d1c9e2a-7b3f-4c8d-9e0a-1b2c3d4e5f60"},
  {"event_id": 1, "event_type": "ExecutionCompleted", "timestamp": "2026-11-29T17:40:19.511Z", "workflow_status": "ORCHESTRATION_STATUS_COMPLETED"}
 ]}`

// TestTerminalOpensAChildAndReturns reads a parent run live from the
// Catalyst stand-in, in the real terminal: enter on its child workflow
// opens the child's run (read from the stand-in), esc returns to the
// parent where the user was, and a second esc shows the project's runs.
func TestTerminalOpensAChildAndReturns(t *testing.T) {
	child, err := catalysttest.RunFromDoc([]byte(childRunDoc))
	if err != nil {
		t.Fatal(err)
	}
	srv := catalysttest.New(catalysttest.Options{Runs: append(catalysttest.Bundled(), child)})
	defer srv.Close()
	bin := buildTwice(t)
	home := t.TempDir()
	env := append(baseEnv, "HOME="+home, "XDG_CONFIG_HOME="+home, "CATALYST_TOKEN="+catalysttest.TestToken,
		"CATALYST_MCP_URL="+srv.URL)
	term := startTerminal(t, 120, 40, env, bin+" show onboard-42 --app accounts --project default")
	// The retried child is the flagged invocation, selected on open.
	term.waitFor("›▸ OpenAccount")
	term.waitFor("enter open child run")
	term.keys("Enter")
	s := term.waitFor("OpenAccount  run onboard-42:0002")
	if !strings.Contains(s, "CreateLedgerAccount") {
		term.waitFor("CreateLedgerAccount")
	}
	term.keys("Escape")
	s = term.waitFor("OnboardCustomer  run onboard-42")
	if !strings.Contains(s, "›▸ OpenAccount") {
		t.Errorf("back from the child, the parent lost its place:\n%s", s)
	}
	term.keys("Escape")
	term.waitFor("Runs ")
	term.waitFor("onboard-42")
	term.keys("q")
	if st := term.exitStatus(); st != "0" {
		t.Errorf("exit status %s, want 0", st)
	}
	term.checkRestored()
}

// TestTerminalShowSourceOpensTheCodeTab runs twice show
// demo:payment-timeout --source demo in a real terminal: the view opens
// (not text) with a Code tab; enter shows ChargeCard's line whole screen;
// e suspends the view for the editor ($EDITOR=true: it exits at once, and
// twice does not know its line syntax) on a temporary copy of the embedded
// demo source; the view comes back, and the copy is gone when twice quits.
func TestTerminalShowSourceOpensTheCodeTab(t *testing.T) {
	if ok, why := python.Available(); !ok {
		t.Skip("the payment-timeout service is Python: " + why)
	}
	bin := buildTwice(t)
	home, tmp := t.TempDir(), t.TempDir()
	env := append(baseEnv, "HOME="+home, "XDG_CONFIG_HOME="+home, "EDITOR=true", "TMPDIR="+tmp)
	term := startTerminal(t, 120, 40, env, bin+" show demo:payment-timeout --source demo")
	term.waitFor("Code 4")
	term.keys("[")
	term.waitFor("[Code 4]")
	term.waitFor("› ▲ HIGH   key-generated-in-body ChargeCard")
	term.keys("Enter")
	term.waitFor(`› 37 │     headers={"Idempotency-Key": str(uuid.uuid4())},`)
	term.keys("Escape")
	// One key at a time: ESC followed at once by e reads as alt+e.
	term.waitFor("enter show excerpt")
	term.keys("e")
	s := term.waitFor("back from true (demo/services/payment-timeout/checkout.py:37)")
	if !strings.Contains(s, "[Code 4]") {
		t.Errorf("the view did not come back on the Code tab:\n%s", s)
	}
	copies, err := filepath.Glob(filepath.Join(tmp, "twice-demo-source-*", "demo", "services", "payment-timeout", "checkout.py"))
	if err != nil || len(copies) != 1 {
		t.Errorf("the demo source's copy: %q, %v; want one checkout.py", copies, err)
	}
	term.keys("q")
	if st := term.exitStatus(); st != "0" {
		t.Errorf("exit status %s, want 0", st)
	}
	term.checkRestored()
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("twice left %d entries in its temporary folder after quitting", len(left))
	}
}
