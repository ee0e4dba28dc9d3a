package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/live"
	"github.com/twice-cli/twice/catalyst/safetext/hostiletest"
	"github.com/twice-cli/twice/detect"
	"github.com/twice-cli/twice/fixtures"
)

// chargeHistory is research/history-format.md Example B (protojson): a
// charge that failed twice with 503 and succeeded on the third attempt.
// Strings can be replaced to plant hostile text.
func chargeHistory(name, errMsg, payload string) string {
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	return `{"events":[
 {"eventId":-1,"timestamp":"2026-08-20T09:14:03.201Z","workflowStarted":{}},
 {"eventId":-1,"timestamp":"2026-08-20T09:14:03.187Z","executionStarted":{"name":` + q(name+"_workflow") + `,"input":` + q(payload) + `,"workflowInstance":{"instanceId":"A-7731","executionId":"c1d2e3f4-0000-4000-8000-000000007731"}}},
 {"timestamp":"2026-08-20T09:14:03.240Z","taskScheduled":{"name":` + q(name) + `,"input":` + q(payload) + `,"taskExecutionId":"8a4f2c71-3b9e-4d05-a6c2-91e07f5d3b18"}},
 {"eventId":-1,"timestamp":"2026-08-20T09:14:04.010Z","workflowStarted":{}},
 {"eventId":-1,"timestamp":"2026-08-20T09:14:03.998Z","taskFailed":{"failureDetails":{"errorType":"ConnectionError","errorMessage":` + q(errMsg) + `,"stackTrace":` + q(errMsg+"\n  at x") + `},"taskExecutionId":"8a4f2c71-3b9e-4d05-a6c2-91e07f5d3b18"}},
 {"eventId":1,"timestamp":"2026-08-20T09:14:04.031Z","timerCreated":{"fireAt":"2026-08-20T09:14:09.010Z","activityRetry":{"taskExecutionId":"8a4f2c71-3b9e-4d05-a6c2-91e07f5d3b18"}}},
 {"eventId":-1,"timestamp":"2026-08-20T09:14:09.052Z","workflowStarted":{}},
 {"eventId":-1,"timestamp":"2026-08-20T09:14:09.041Z","timerFired":{"fireAt":"2026-08-20T09:14:09.010Z","timerId":1}},
 {"eventId":2,"timestamp":"2026-08-20T09:14:09.070Z","taskScheduled":{"name":` + q(name) + `,"input":` + q(payload) + `,"taskExecutionId":"8a4f2c71-3b9e-4d05-a6c2-91e07f5d3b18"}},
 {"eventId":-1,"timestamp":"2026-08-20T09:14:09.655Z","workflowStarted":{}},
 {"eventId":-1,"timestamp":"2026-08-20T09:14:09.640Z","taskFailed":{"taskScheduledId":2,"failureDetails":{"errorType":"ConnectionError","errorMessage":` + q(errMsg) + `},"taskExecutionId":"8a4f2c71-3b9e-4d05-a6c2-91e07f5d3b18"}},
 {"eventId":3,"timestamp":"2026-08-20T09:14:09.671Z","timerCreated":{"fireAt":"2026-08-20T09:14:19.655Z","activityRetry":{"taskExecutionId":"8a4f2c71-3b9e-4d05-a6c2-91e07f5d3b18"}}},
 {"eventId":-1,"timestamp":"2026-08-20T09:14:19.690Z","workflowStarted":{}},
 {"eventId":-1,"timestamp":"2026-08-20T09:14:19.681Z","timerFired":{"fireAt":"2026-08-20T09:14:19.655Z","timerId":3}},
 {"eventId":4,"timestamp":"2026-08-20T09:14:19.702Z","taskScheduled":{"name":` + q(name) + `,"input":` + q(payload) + `,"taskExecutionId":"8a4f2c71-3b9e-4d05-a6c2-91e07f5d3b18"}},
 {"eventId":-1,"timestamp":"2026-08-20T09:14:20.115Z","workflowStarted":{}},
 {"eventId":-1,"timestamp":"2026-08-20T09:14:20.101Z","taskCompleted":{"taskScheduledId":4,"result":` + q(payload) + `,"taskExecutionId":"8a4f2c71-3b9e-4d05-a6c2-91e07f5d3b18"}},
 {"eventId":5,"timestamp":"2026-08-20T09:14:20.130Z","executionCompleted":{"workflowStatus":"ORCHESTRATION_STATUS_COMPLETED","result":` + q(payload) + `}}
]}`
}

// cleanHistory is research/history-format.md Example A: one activity that
// succeeded at once.
const cleanHistory = `{"events":[
 {"eventId":-1,"timestamp":"2026-08-20T10:00:00.512Z","workflowStarted":{}},
 {"eventId":-1,"timestamp":"2026-08-20T10:00:00.498Z","executionStarted":{"name":"OrderWorkflow","input":"{\"orderId\":1001}","workflowInstance":{"instanceId":"order-1001","executionId":"0b6c9a3e-52d1-4f0e-9a8b-1c2d3e4f5a6b"}}},
 {"timestamp":"2026-08-20T10:00:00.530Z","taskScheduled":{"name":"ReserveStock","input":"{\"orderId\":1001}","taskExecutionId":"5f1c0e2a-7b3d-4c8e-9f10-2a3b4c5d6e7f"},"router":{"sourceAppID":"orders"}},
 {"eventId":-1,"timestamp":"2026-08-20T10:00:00.940Z","workflowStarted":{}},
 {"eventId":-1,"timestamp":"2026-08-20T10:00:00.921Z","taskCompleted":{"result":"{\"reserved\":true}","taskExecutionId":"5f1c0e2a-7b3d-4c8e-9f10-2a3b4c5d6e7f"},"router":{"sourceAppID":"orders"}},
 {"eventId":1,"timestamp":"2026-08-20T10:00:00.955Z","executionCompleted":{"workflowStatus":"ORCHESTRATION_STATUS_COMPLETED","result":"\"ok\""},"router":{"sourceAppID":"orders"}}
]}`

func chargeFile(t *testing.T) string {
	return writeFile(t, "charge.json", chargeHistory("charge_card", "POST https://pay.example/charges: 503 Service Unavailable", `{"order_id":"A-7731"}`))
}

var sgr = regexp.MustCompile("\x1b\\[[0-9;]*m")

func TestExitCodes(t *testing.T) {
	file := chargeFile(t)
	clean := writeFile(t, "clean.json", cleanHistory)
	for _, tc := range []struct {
		name string
		args []string
		want int
		// errHas is text the error on standard error must hold.
		errHas string
	}{
		{"ok", []string{"show", file}, ExitOK, ""},
		{"version", []string{"version"}, ExitOK, ""},
		{"unknown flag", []string{"show", "--bogus", file}, ExitUsage, "unknown flag: --bogus"},
		{"unknown command", []string{"frobnicate"}, ExitUsage, `unknown command "frobnicate"`},
		{"missing argument", []string{"show"}, ExitUsage, "requires at least 1 arg"},
		{"bad color", []string{"--color", "sometimes", "show", file}, ExitUsage, `--color "sometimes"`},
		{"bad time format", []string{"--time-format", "unix", "version"}, ExitUsage, "--time-format"},
		{"bad output", []string{"scan", "-o", "xml", file}, ExitUsage, "-o \"xml\""},
		{"bad fail-on", []string{"scan", "--fail-on", "urgent", file}, ExitUsage, "--fail-on"},
		{"run id without app", []string{"show", "charge-7731"}, ExitUsage, "--app"},
		{"missing file", []string{"show", "./nope.json"}, ExitError, "does not exist"},
		{"no findings", []string{"scan", "--exit-status", "--fail-on", "low", clean}, ExitOK, ""},
		{"findings at threshold", []string{"scan", "--exit-status", "--fail-on", "high", file}, ExitFindings, ""},
		{"findings above threshold", []string{"scan", "--exit-status", "--fail-on", "medium", file}, ExitFindings, ""},
		{"one flagged among many", []string{"scan", "--exit-status", clean, file, clean}, ExitFindings, ""},
		{"fail-on alone implies exit-status", []string{"scan", "--fail-on", "low", file}, ExitFindings, "at or above low"},
		{"fail-on alone, nothing at it", []string{"scan", "--fail-on", "high", clean}, ExitOK, ""},
		{"no fail-on, no exit-status", []string{"scan", file}, ExitOK, ""},
		{"--version", []string{"--version"}, ExitOK, ""},
		{"conflicting overrides", []string{"--side-effect", "x", "--read-only", "X", "scan", file}, ExitUsage, "both --side-effect and --read-only"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			r := h.run(tc.args...)
			if r.code != tc.want {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", r.code, tc.want, r.out, r.errOut)
			}
			if tc.errHas != "" && !strings.Contains(r.errOut, tc.errHas) {
				t.Errorf("stderr %q lacks %q", r.errOut, tc.errHas)
			}
			if tc.want == ExitUsage && !strings.Contains(r.errOut, "--help' for usage") {
				t.Errorf("a usage error should point at --help: %q", r.errOut)
			}
		})
	}
}

func TestStdinTerminalIsRefused(t *testing.T) {
	h := newHarness(t)
	h.tty = true
	r := h.run("show", "-o", "text", "-")
	if r.code != ExitUsage || !strings.Contains(r.errOut, "standard input, which is a terminal") {
		t.Errorf("exit %d, stderr %q", r.code, r.errOut)
	}
	h = newHarness(t)
	h.in = chargeHistory("charge_card", "503", "{}")
	if r := h.run("show", "-"); r.code != ExitOK || !strings.Contains(r.out, "Source        standard input") {
		t.Errorf("piped stdin: exit %d, %s %s", r.code, r.errOut, r.out)
	}
}

// fakeTTY is a terminal opened for keys; it records being closed.
type fakeTTY struct {
	io.Reader
	closed bool
}

func (f *fakeTTY) Close() error { f.closed = true; return nil }

func TestPipedHistoryOnTerminalOpensTheView(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		openErr  error
		tuiErr   error
		wantView bool
		wantText bool
		// wantOpens is how often the terminal is opened for keys.
		wantOpens int
	}{
		{name: "terminal available", args: []string{"show", "-"}, wantView: true, wantOpens: 1},
		{name: "no terminal to read keys from", args: []string{"show", "-"}, openErr: errors.New("no /dev/tty"), wantText: true, wantOpens: 1},
		{name: "view unavailable", args: []string{"show", "-"}, tuiErr: errNoTUI, wantView: true, wantText: true, wantOpens: 1},
		{name: "-o text wins", args: []string{"show", "-", "-o", "text"}, wantText: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t)
			h.tty, h.stdinPiped, h.tuiErr = true, true, tt.tuiErr
			h.in = chargeHistory("charge_card", "503", "{}")
			tty := &fakeTTY{Reader: strings.NewReader("")}
			opened := 0
			h.openTTY = func() (io.ReadCloser, error) {
				opened++
				if tt.openErr != nil {
					return nil, tt.openErr
				}
				return tty, nil
			}
			r := h.run(tt.args...)
			if r.code != ExitOK {
				t.Fatalf("exit %d: %s", r.code, r.errOut)
			}
			if got := len(h.tuiCalls) == 1; got != tt.wantView {
				t.Fatalf("view ran %d times", len(h.tuiCalls))
			}
			if tt.wantView {
				req := h.tuiCalls[0]
				if req.History == nil || req.History.Run.ID != "A-7731" || req.In != io.Reader(tty) || req.Ref != nil {
					t.Errorf("request = %+v", req)
				}
				if !tty.closed {
					t.Error("the terminal opened for keys was not closed")
				}
			}
			if got := strings.Contains(r.out, "Run A-7731"); got != tt.wantText {
				t.Errorf("text printed: %v, want %v:\n%s", got, tt.wantText, r.out)
			}
			if opened != tt.wantOpens {
				t.Errorf("terminal opened %d times, want %d", opened, tt.wantOpens)
			}
		})
	}
}

func TestFindingsExitSaysWhy(t *testing.T) {
	r := newHarness(t).run("scan", "--exit-status", "--fail-on", "high", chargeFile(t))
	if r.code != ExitFindings || r.errOut != "twice: 1 finding(s) at or above high (--exit-status)\n" {
		t.Errorf("exit %d, stderr %q", r.code, r.errOut)
	}
}

func TestExitStatusAuth(t *testing.T) {
	h := newHarness(t)
	h.live.errs["charge-7731"] = fmt.Errorf("reading run charge-7731: %w", live.ErrNotAuthenticated)
	r := h.run("show", "charge-7731", "--app", "payments")
	if r.code != ExitAuth {
		t.Fatalf("exit %d, want 4; stderr %q", r.code, r.errOut)
	}
	if !strings.HasPrefix(r.errOut, "twice: reading run charge-7731: not authenticated") {
		t.Errorf("stderr = %q", r.errOut)
	}
}

// TestShowDemos prints every bundled demo as text (piped, ISO times) and
// compares it with its golden file.
func TestShowDemos(t *testing.T) {
	demos := fixtures.Demos()
	if len(demos) == 0 {
		t.Fatal("no bundled demos")
	}
	for _, d := range demos {
		t.Run(d.Name, func(t *testing.T) {
			if d.Err != nil {
				t.Fatalf("demo %s cannot be read: %v", d.Name, d.Err)
			}
			r := newHarness(t).run("show", "demo:"+d.Name)
			if r.code != ExitOK || r.errOut != "" {
				t.Fatalf("exit %d, stderr %q", r.code, r.errOut)
			}
			if strings.Contains(r.out, "\x1b") {
				t.Errorf("piped output carries escape sequences")
			}
			golden.RequireEqual(t, r.out)
		})
	}
}

func TestShowWithheldNeverEmpty(t *testing.T) {
	for _, d := range fixtures.Demos() {
		if d.Level != catalyst.LevelMetadata {
			continue
		}
		r := newHarness(t).run("show", "demo:"+d.Name)
		if !strings.Contains(r.out, "withheld: not shared at this organization's data-sharing level (metadata)") {
			t.Errorf("demo %s (metadata) shows no withheld mark:\n%s", d.Name, r.out)
		}
		for _, bad := range []string{"input=empty", "output=empty", "input=none", "output=none"} {
			if strings.Contains(r.out, bad) {
				t.Errorf("demo %s shows a withheld payload as %q", d.Name, bad)
			}
		}
	}
}

func TestScanOutputs(t *testing.T) {
	file := chargeFile(t)
	r := newHarness(t).run("scan", file)
	if r.code != ExitOK {
		t.Fatalf("exit %d: %s", r.code, r.errOut)
	}
	fi, ii := strings.Index(r.out, "Findings:"), strings.Index(r.out, "Invocations:")
	if fi < 0 || ii < 0 || fi > ii {
		t.Errorf("text must print findings first, then invocations:\n%s", r.out)
	}
	if strings.Contains(r.out, "Events:") && strings.Contains(r.out, "EXECUTION_ID") {
		t.Errorf("scan text should not print the event table")
	}

	r = newHarness(t).run("scan", "-o", "json", file, "demo:"+fixtures.Demos()[0].Name)
	var doc struct {
		Runs []map[string]json.RawMessage `json:"runs"`
	}
	if err := json.Unmarshal([]byte(r.out), &doc); err != nil {
		t.Fatalf("scan -o json is not JSON: %v\n%s", err, r.out)
	}
	if len(doc.Runs) != 2 {
		t.Fatalf("got %d runs, want 2", len(doc.Runs))
	}
	for _, key := range []string{"source", "format", "lossy", "run", "events", "withheld", "invocations", "findings", "skipped_checks"} {
		if _, ok := doc.Runs[0][key]; !ok {
			t.Errorf("run object lacks %q", key)
		}
	}
	assertRoundTrip(t, []byte(r.out))

	r = newHarness(t).run("scan", "-o", "jsonl", file, file)
	if lines := strings.Split(strings.TrimSpace(r.out), "\n"); len(lines) != 2 {
		t.Errorf("jsonl printed %d lines for 2 runs", len(lines))
	}
	r = newHarness(t).run("scan", "-o", "markdown", file)
	if !strings.HasPrefix(r.out, "## Run A-7731") || !strings.Contains(r.out, "| # | Name |") {
		t.Errorf("markdown report:\n%s", r.out)
	}
}

// assertRoundTrip decodes JSON into generic values and encodes it again: the
// values are unchanged, so nothing in the document is ambiguous.
func assertRoundTrip(t *testing.T, data []byte) {
	t.Helper()
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	again, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var w any
	if err := json.Unmarshal(again, &w); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(v) != fmt.Sprint(w) {
		t.Errorf("JSON does not round-trip")
	}
}

func TestScanContinuesPastUnreadableFile(t *testing.T) {
	file := chargeFile(t)
	bad := writeFile(t, "bad.json", `{"events":[`)
	r := newHarness(t).run("scan", bad, file)
	if r.code != ExitError {
		t.Fatalf("exit %d, want 1", r.code)
	}
	if !strings.Contains(r.out, "Run A-7731") {
		t.Errorf("the readable run was not printed:\n%s", r.out)
	}
	if !strings.Contains(r.errOut, "bad.json") || !strings.Contains(r.errOut, "1 of 2 runs could not be read") {
		t.Errorf("stderr does not name the unreadable file: %q", r.errOut)
	}
}

func TestHostileHistoryNeverReachesTerminalRaw(t *testing.T) {
	for _, s := range append(hostiletest.Corpus(false), hostiletest.Sample{Name: "joined", Value: hostiletest.Joined()}) {
		file := writeFile(t, "hostile.json", chargeHistory("charge"+s.Value, "boom"+s.Value, s.Value))
		for _, format := range []string{"text", "markdown", "json", "jsonl"} {
			h := newHarness(t)
			h.tty = true // colour on: styles must not let anything through either
			r := h.run("show", "-o", format, file)
			if r.code != ExitOK {
				t.Fatalf("%s/%s: exit %d: %s", s.Name, format, r.code, r.errOut)
			}
			for name, out := range map[string]string{"stdout": sgr.ReplaceAllString(r.out, ""), "stderr": r.errOut} {
				if v, bad := hostiletest.FindUnsafe(out, false); bad {
					t.Errorf("%s/%s: %s carries raw %U at %d", s.Name, format, name, v.Rune, v.Offset)
				}
			}
		}
		// Errors that quote the argument are sanitized too.
		r := newHarness(t).run("show", s.Value+".json")
		if v, bad := hostiletest.FindUnsafe(r.errOut, false); bad {
			t.Errorf("%s: error message carries raw %U", s.Name, v.Rune)
		}
	}
}

func TestColour(t *testing.T) {
	file := chargeFile(t)
	for _, tc := range []struct {
		name    string
		tty     bool
		noColor string
		flag    string
		want    bool
	}{
		{"terminal", true, "", "", true},
		{"piped", false, "", "", false},
		{"NO_COLOR=yes", true, "yes", "", false},
		{"NO_COLOR=0 still means no colour", true, "0", "", false},
		{"--color always wins over NO_COLOR", true, "1", "always", true},
		{"--color always when piped", false, "", "always", true},
		{"--color never", true, "", "never", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			h.tty = tc.tty
			vars := map[string]string{}
			if tc.noColor != "" {
				vars["NO_COLOR"] = tc.noColor
			}
			h.env = testEnv(t, vars)
			args := []string{"scan", "-o", "text", file}
			if tc.flag != "" {
				args = append([]string{"--color", tc.flag}, args...)
			}
			r := h.run(args...)
			if got := sgr.MatchString(r.out); got != tc.want {
				t.Errorf("SGR in output = %v, want %v", got, tc.want)
			}
			if strings.Contains(sgr.ReplaceAllString(r.out, ""), "\x1b") {
				t.Errorf("output carries escape sequences other than SGR")
			}
		})
	}
}

func TestTimeFormatDefault(t *testing.T) {
	file := chargeFile(t)
	h := newHarness(t)
	h.tty = true
	h.env = testEnv(t, map[string]string{"NO_COLOR": "1"})
	if r := h.run("show", "-o", "text", file); !strings.Contains(r.out, "ago") {
		t.Errorf("a terminal should get relative times:\n%s", r.out)
	}
	if r := newHarness(t).run("show", file); !strings.Contains(r.out, "2026-08-20T09:14:03.187Z") || strings.Contains(r.out, " ago") {
		t.Errorf("a pipe should get ISO times:\n%s", r.out)
	}
	if r := newHarness(t).run("--time-format", "relative", "show", file); !strings.Contains(r.out, "ago") {
		t.Errorf("--time-format relative was ignored")
	}
}

func TestShowOnTerminalOpensTheInteractiveView(t *testing.T) {
	file := chargeFile(t)
	h := newHarness(t)
	h.tty = true
	h.tuiErr = nil
	r := h.run("show", file)
	if r.code != ExitOK || r.out != "" {
		t.Fatalf("exit %d, stdout %q", r.code, r.out)
	}
	if len(h.tuiCalls) != 1 {
		t.Fatalf("the view ran %d times", len(h.tuiCalls))
	}
	req := h.tuiCalls[0]
	if req.Source == nil || req.Ref == nil || req.Ref.Location != file || !req.Color || req.Now == nil {
		t.Errorf("request = %+v", req)
	}

	// -o asks for text even on a terminal.
	h = newHarness(t)
	h.tty, h.tuiErr = true, nil
	if r := h.run("show", "-o", "text", file); len(h.tuiCalls) != 0 || !strings.Contains(r.out, "Run A-7731") {
		t.Errorf("-o text on a terminal: view ran %d times, output %q", len(h.tuiCalls), r.out)
	}

	// A live run opens the view on the live source with the run's ref.
	h = newHarness(t)
	h.tty, h.tuiErr = true, nil
	h.run("show", "charge-7731", "--app", "payments", "--project", "default")
	if len(h.tuiCalls) != 1 || h.tuiCalls[0].Ref == nil || *h.tuiCalls[0].Ref != (catalyst.RunRef{ID: "charge-7731", AppID: "payments", Project: "default"}) {
		t.Errorf("live show: %+v", h.tuiCalls)
	}
}

func TestHome(t *testing.T) {
	// Piped: the demo list.
	r := newHarness(t).run()
	if r.code != ExitOK || !strings.Contains(r.out, "twice show demo:NAME") || !strings.Contains(r.out, fixtures.Demos()[0].Name) {
		t.Errorf("twice | cat:\n%s", r.out)
	}
	// A terminal without credentials: the demos, with the banner.
	h := newHarness(t)
	h.tty, h.tuiErr = true, nil
	h.run()
	if len(h.tuiCalls) != 1 || h.tuiCalls[0].Banner != demoBanner || h.tuiCalls[0].Source == nil {
		t.Fatalf("no credentials: %+v", h.tuiCalls)
	}
	// With credentials and a project: the live run list.
	h = newHarness(t)
	h.tty, h.tuiErr = true, nil
	h.env = testEnv(t, map[string]string{"CATALYST_TOKEN": "cat_TESTTOKEN_123"})
	cfg := writeFile(t, "twice.yaml", "project: default\napp: payments\n")
	h.run("--config", cfg)
	if len(h.tuiCalls) != 1 || h.tuiCalls[0].Banner != "" || h.tuiCalls[0].Query.Project != "default" || innerClient(h.tuiCalls[0].Source) != catalyst.Source(h.live) {
		t.Fatalf("with credentials: %+v", h.tuiCalls)
	}
}

func TestDemoList(t *testing.T) {
	r := newHarness(t).run("demo", "list")
	if r.code != ExitOK {
		t.Fatal(r.errOut)
	}
	for _, d := range fixtures.Demos() {
		if !strings.Contains(r.out, d.Name) || (d.Description != "" && !strings.Contains(r.out, d.Description)) {
			t.Errorf("demo list lacks %s (%s)", d.Name, d.Description)
		}
	}
}

func TestConfigFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, tc := range []struct {
		name, content, errHas string
	}{
		{"unknown key", "project: default\ncolour: red\n", "field colour not found"},
		{"typo nested", "activities:\n  side_efect: [Charge]\n", "field side_efect not found"},
		{"bad level", "data_sharing_level: secret\n", "data_sharing_level"},
		{"bad concurrency", "concurrency: 500\n", "concurrency 500"},
		{"bad console", "console: ftp://x\n", "console"},
		{"duplicate key", "project: a\nproject: b\n", "already defined"},
		{"two lists", "activities:\n  side_effect: [Charge]\n  read_only: [charge]\n", "both"},
		{"two documents", "project: a\n---\nproject: b\n", "more than one YAML document"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := write(strings.ReplaceAll(tc.name, " ", "_")+".yaml", tc.content)
			_, err := LoadConfig(p, Env{})
			if err == nil || !strings.Contains(err.Error(), tc.errHas) || !strings.Contains(err.Error(), p) {
				t.Errorf("error = %v, want one naming %s and holding %q", err, p, tc.errHas)
			}
		})
	}
	good := write("good.yaml", `endpoint: https://mcp.example/mcp
project: default
app: payments
org: acme
token_file: /run/secrets/catalyst
token_command: [catalyst-token, --org, acme]
data_sharing_level: Metadata
console: https://catalyst.example
concurrency: 4
large_payload_bytes: 1024
activities:
  side_effect: [ChargeCard]
  read_only: [LookupRate]
  idempotent: [PutDocument]
`)
	cfg, err := LoadConfig(good, Env{})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Project != "default" || cfg.TokenCommand.Shell || len(cfg.TokenCommand.Argv) != 3 || cfg.DataSharingLevel != "metadata" ||
		cfg.Concurrency != 4 || cfg.LargePayloadBytes != 1024 || cfg.Activities.Idempotent[0] != "PutDocument" || cfg.Path != good {
		t.Errorf("config = %+v", cfg)
	}
	shell := write("shell.yaml", "token_command: pass show catalyst | head -1\n")
	if cfg, err := LoadConfig(shell, Env{}); err != nil || !cfg.TokenCommand.Shell || cfg.TokenCommand.Argv[0] != "pass show catalyst | head -1" {
		t.Errorf("shell token_command = %+v, %v", cfg, err)
	}
	if _, err := LoadConfig(filepath.Join(dir, "missing.yaml"), Env{}); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("an explicit missing config must be an error: %v", err)
	}
}

func TestConfigSearchOrder(t *testing.T) {
	work, xdg := t.TempDir(), t.TempDir()
	env := Env{WorkDir: work, LookupEnv: func(k string) (string, bool) {
		if k == "XDG_CONFIG_HOME" {
			return xdg, true
		}
		return "", false
	}}
	if cfg, err := LoadConfig("", env); err != nil || cfg.Path != "" {
		t.Fatalf("no config anywhere: %+v, %v", cfg, err)
	}
	if err := os.MkdirAll(filepath.Join(xdg, "twice"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(xdg, "twice", ConfigFileName), []byte("project: from-xdg\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if cfg, _ := LoadConfig("", env); cfg.Project != "from-xdg" {
		t.Errorf("XDG config not read: %+v", cfg)
	}
	if err := os.WriteFile(filepath.Join(work, ConfigFileName), []byte("project: from-here\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if cfg, _ := LoadConfig("", env); cfg.Project != "from-here" {
		t.Errorf("./twice.yaml must win over XDG: %+v", cfg)
	}
}

func TestOverrides(t *testing.T) {
	cfg := &Config{Activities: ActivityLists{SideEffect: []string{"Lookup"}, ReadOnly: []string{"ChargeCard"}}}
	m, err := cfg.overrides([]string{"chargecard"}, []string{"LOOKUP"})
	if err != nil {
		t.Fatal(err)
	}
	if m["chargecard"] != detect.ClassSideEffect || m["lookup"] != detect.ClassReadOnly || len(m) != 2 {
		t.Errorf("flags must win over the config, ignoring case: %v", m)
	}
	if m, err := (&Config{}).overrides(nil, nil); err != nil || m != nil {
		t.Errorf("no overrides: %v, %v", m, err)
	}
}

func TestLiveConfigPrecedence(t *testing.T) {
	h := newHarness(t)
	h.env = testEnv(t, map[string]string{"CATALYST_MCP_URL": "https://env.example/mcp"})
	cfg := writeFile(t, "twice.yaml", "endpoint: https://config.example/mcp\norg: config-org\ndata_sharing_level: full\n")
	h.run("--config", cfg, "show", "run-1", "--app", "a")
	if h.liveConfig.Endpoint != "https://env.example/mcp" || h.liveConfig.Org != "config-org" || h.liveConfig.Level != catalyst.LevelFull || h.liveConfig.Token == nil {
		t.Errorf("live config = %+v", h.liveConfig)
	}
	h.run("--config", cfg, "--endpoint", "https://flag.example/mcp", "--org", "flag-org", "--data-sharing-level", "Metadata", "show", "run-1", "--app", "a")
	if h.liveConfig.Endpoint != "https://flag.example/mcp" || h.liveConfig.Org != "flag-org" || h.liveConfig.Level != catalyst.LevelMetadata {
		t.Errorf("flags must win: %+v", h.liveConfig)
	}
	if h.liveConfig.Version != "0.1.0-test" {
		t.Errorf("version not passed: %q", h.liveConfig.Version)
	}
}

// TestLevelFlagElseConfig: the data-sharing level is read as one rule
// wherever it is used (the live client, a file): the flag, else the
// config, each with its case and surrounding spaces dropped
// (catalyst.ParseLevel); a blank flag leaves the config's.
func TestLevelFlagElseConfig(t *testing.T) {
	for _, tc := range []struct {
		name, config, flag string
		want               catalyst.Level
	}{
		{"flag with spaces", "", " Full ", catalyst.LevelFull},
		{"config with spaces", "data_sharing_level: ' Metadata '\n", "", catalyst.LevelMetadata},
		{"flag wins", "data_sharing_level: metadata\n", "full ", catalyst.LevelFull},
		{"blank flag leaves the config", "data_sharing_level: full\n", "  ", catalyst.LevelFull},
		{"neither", "", "", catalyst.LevelUnknown},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			args := []string{"--config", writeFile(t, "twice.yaml", tc.config+"project: p\n")}
			if tc.flag != "" {
				args = append(args, "--data-sharing-level", tc.flag)
			}
			if r := h.run(append(args, "show", "run-1", "--app", "a")...); h.liveConfig.Level != tc.want {
				t.Errorf("live client's level %q, want %q (exit %d: %s)", h.liveConfig.Level, tc.want, r.code, r.errOut)
			}
			f, _, _ := h.factory()
			f.Globals.ConfigPath, f.Globals.DataSharingLevel = args[1], tc.flag
			if got, _ := f.histories().openOptions(); got.Level != tc.want {
				t.Errorf("a file's level %q, want %q", got.Level, tc.want)
			}
		})
	}
}

// TestFirstTrims: every "flag else config" drops a value's surrounding
// spaces, and a blank flag leaves the config's value.
func TestFirstTrims(t *testing.T) {
	for _, tc := range []struct {
		in   []string
		want string
	}{
		{[]string{" flag ", "config"}, "flag"},
		{[]string{"  ", " config\t"}, "config"},
		{[]string{"", ""}, ""},
	} {
		if got := first(tc.in...); got != tc.want {
			t.Errorf("first(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	h := newHarness(t)
	h.run("--org", " flag-org ", "--endpoint", "https://flag.example/mcp ", "show", "run-1", "--app", "a")
	if h.liveConfig.Org != "flag-org" || h.liveConfig.Endpoint != "https://flag.example/mcp" {
		t.Errorf("live config %+v: the flags' spaces kept", h.liveConfig)
	}
}

func TestDataSharingLevelFlagIsChecked(t *testing.T) {
	h := newHarness(t)
	r := h.run("--data-sharing-level", "everything", "demo", "list")
	if r.code != ExitUsage || !strings.Contains(r.errOut, "metadata or full") {
		t.Errorf("exit %d, stderr %q; want a usage error naming the levels", r.code, r.errOut)
	}
}

func TestTokenFileHome(t *testing.T) {
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "token"), []byte("cat_TESTTOKEN_123\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t)
	h.env = testEnv(t, map[string]string{"HOME": home})
	streams, _, _ := TestStreams("", false)
	f := NewFactory(streams, h.env)
	f.Globals.TokenFile = "~/token"
	if got := f.knownSecrets(); len(got) != 1 || got[0] != "cat_TESTTOKEN_123" {
		t.Errorf("secrets from ~/token = %q", got)
	}
	lc, err := f.liveConfig(nil, nil)
	if err != nil || !strings.Contains(lc.Token.Describe(), home) {
		t.Errorf("token source %v, %v: ~ not expanded", lc.Token, err)
	}
}

func TestNoTokenFlag(t *testing.T) {
	for _, flag := range []string{"--token", "--api-key"} {
		if r := newHarness(t).run(flag, "x", "version"); r.code != ExitUsage {
			t.Errorf("%s must not exist (tokens do not belong on the command line): exit %d", flag, r.code)
		}
	}
}

func TestParseSince(t *testing.T) {
	now := testNow()
	for _, tc := range []struct {
		in   string
		want string
		ok   bool
	}{
		{"24h", "2026-12-01T10:00:00Z", true},
		{"90m", "2026-12-02T08:30:00Z", true},
		{"7d", "2026-11-25T10:00:00Z", true},
		{"2026-11-30T12:00:00Z", "2026-11-30T12:00:00Z", true},
		{"2026-11-30", "2026-11-30T00:00:00Z", true},
		{"-5h", "", false},
		{"0s", "", false},
		{"2027-01-01", "", false},
		{"yesterday", "", false},
	} {
		got, err := parseSince(tc.in, now)
		if (err == nil) != tc.ok {
			t.Errorf("parseSince(%q) error = %v", tc.in, err)
			continue
		}
		if err != nil {
			if exitCode(err) != ExitUsage {
				t.Errorf("parseSince(%q): error is not a usage error", tc.in)
			}
			continue
		}
		if got.UTC().Format("2006-01-02T15:04:05Z") != tc.want {
			t.Errorf("parseSince(%q) = %v, want %s", tc.in, got, tc.want)
		}
	}
}

func TestExitCodeMapping(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want int
	}{
		{nil, 0},
		{errors.New("boom"), 1},
		{usagef("bad"), 2},
		{fmt.Errorf("wrapped: %w", usagef("bad")), 2},
		{&FindingsError{Count: 1, Level: "medium"}, 3},
		{fmt.Errorf("reading: %w", live.ErrNotAuthenticated), 4},
	} {
		if got := exitCode(tc.err); got != tc.want {
			t.Errorf("exitCode(%v) = %d, want %d", tc.err, got, tc.want)
		}
	}
}

// TestDemoJSONHasRequiredKeys checks the JSON of every bundled demo, as the
// real decoder and detect produce it, for the keys docs/json-output.md
// says are always there.
func TestDemoJSONHasRequiredKeys(t *testing.T) {
	args := []string{"scan", "-o", "json"}
	for _, d := range fixtures.Demos() {
		args = append(args, "demo:"+d.Name)
	}
	r := newHarness(t).run(args...)
	if r.code != ExitOK {
		t.Fatalf("exit %d: %s", r.code, r.errOut)
	}
	var doc struct {
		Runs []map[string]any `json:"runs"`
	}
	if err := json.Unmarshal([]byte(r.out), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Runs) != len(fixtures.Demos()) {
		t.Fatalf("%d runs for %d demos", len(doc.Runs), len(fixtures.Demos()))
	}
	need := func(where string, obj any, keys ...string) {
		m, ok := obj.(map[string]any)
		if !ok {
			t.Errorf("%s is not an object", where)
			return
		}
		for _, k := range keys {
			if _, ok := m[k]; !ok {
				t.Errorf("%s lacks %q", where, k)
			}
		}
	}
	for _, run := range doc.Runs {
		id := fmt.Sprint(run["run"].(map[string]any)["id"])
		need(id, run, "source", "format", "lossy", "run", "events", "withheld", "invocations", "findings", "skipped_checks")
		need(id+" run", run["run"], "id", "status_normalized", "data_sharing", "input", "output")
		for i, e := range run["events"].([]any) {
			need(fmt.Sprintf("%s event %d", id, i), e, "index", "event_id", "type")
		}
		for i, inv := range run["invocations"].([]any) {
			where := fmt.Sprintf("%s invocation %d", id, i)
			need(where, inv, "kind", "name", "key", "link_rule", "class", "outcome", "severity", "findings", "attempts")
			for j, a := range inv.(map[string]any)["attempts"].([]any) {
				need(fmt.Sprintf("%s attempt %d", where, j), a, "number", "scheduled_event", "scheduled_id", "link", "outcome")
			}
		}
		for i, f := range run["findings"].([]any) {
			where := fmt.Sprintf("%s finding %d", id, i)
			need(where, f, "id", "severity", "confidence", "activity", "attempts", "evidence", "explanation", "advice")
			for j, ev := range f.(map[string]any)["evidence"].([]any) {
				need(fmt.Sprintf("%s evidence %d", where, j), ev, "event", "event_id", "fact")
			}
		}
	}
}

// twice --version (and -v) prints what twice version prints, the habit of
// every other CLI.
func TestVersionFlag(t *testing.T) {
	want := newHarness(t).run("version")
	if want.code != ExitOK || !strings.HasPrefix(want.out, "twice 0.1.0-test (go") {
		t.Fatalf("twice version: exit %d, %q", want.code, want.out)
	}
	for _, flag := range []string{"--version", "-v"} {
		if r := newHarness(t).run(flag); r.code != ExitOK || r.out != want.out || r.errOut != "" {
			t.Errorf("twice %s: exit %d, stdout %q (want %q), stderr %q", flag, r.code, r.out, want.out, r.errOut)
		}
	}
}
