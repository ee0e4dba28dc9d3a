package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/spf13/cobra"
	"go.uber.org/goleak"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/live"
	"github.com/twice-cli/twice/fixtures"
)

// parse runs a command's flag parsing with runF capturing the options.
func parse[O any](t *testing.T, build func(*Factory, func(*O) error) *cobra.Command, args ...string) (*O, error) {
	t.Helper()
	streams, _, _ := TestStreams("", false)
	f := NewFactory(streams, testEnv(t, nil))
	var got *O
	cmd := build(f, func(o *O) error { got = o; return nil })
	cmd.SetArgs(args)
	cmd.SetOut(&bytes.Buffer{})
	cmd.SetErr(&bytes.Buffer{})
	err := cmd.Execute()
	return got, err
}

func TestShowFlags(t *testing.T) {
	o, err := parse(t, NewCmdShow, "charge-7731", "-a", "payments", "--project", "default", "-o", "markdown")
	if err != nil {
		t.Fatal(err)
	}
	if o.Target != "charge-7731" || o.App != "payments" || o.Project != "default" || o.Output != "markdown" {
		t.Errorf("options = %+v", o)
	}
	// Several targets are the run list over them (showmany.go).
	if o, err := parse(t, NewCmdShow, "a", "b"); err != nil || o.Target != "a" || len(o.Targets) != 2 {
		t.Errorf("two targets: %+v, %v", o, err)
	}
	if _, err := parse(t, NewCmdShow); err == nil {
		t.Error("no target must be refused")
	}
}

func TestDiffFlags(t *testing.T) {
	o, err := parse(t, NewCmdDiff, "a.json", "b.json", "-o", "markdown", "--fail-on", "high")
	if err != nil {
		t.Fatal(err)
	}
	if o.A != "a.json" || o.B != "b.json" || o.Output != "markdown" || !o.ExitStatus || o.FailOn != "high" {
		t.Errorf("options = %+v", o)
	}
	if o, err := parse(t, NewCmdDiff, "rerun-1", "--rerun-source", "-a", "payments"); err != nil || o.B != "rerun-1" || o.A != "" || o.App != "payments" {
		t.Errorf("--rerun-source: %+v, %v", o, err)
	}
	for _, args := range [][]string{{}, {"a"}, {"a", "b", "c"}, {"a", "b", "--rerun-source"}} {
		if _, err := parse(t, NewCmdDiff, args...); err == nil {
			t.Errorf("twice diff %v must be refused", args)
		}
	}
}

func TestScanFlags(t *testing.T) {
	o, err := parse(t, NewCmdScan, "a.json", "b.json", "--exit-status", "--fail-on", "high", "-o", "jsonl", "--concurrency", "3")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(o.Targets, []string{"a.json", "b.json"}) || !o.ExitStatus || o.FailOn != "high" || o.Output != "jsonl" || o.Concurrency != 3 {
		t.Errorf("options = %+v", o)
	}
	o, _ = parse(t, NewCmdScan, "--project", "default", "--since", "6h", "--status", "failed", "--workflow", "W", "--limit", "5")
	if len(o.Targets) != 0 || o.Project != "default" || o.Since != "6h" || o.Status != "failed" || o.Workflow != "W" || o.Limit != 5 || o.Output != "text" || o.FailOn != "medium" {
		t.Errorf("defaults/filters = %+v", o)
	}
}

func TestRunsRecordFlags(t *testing.T) {
	r, err := parse(t, NewCmdRuns, "-p", "default", "--app", "payments", "--status", "failed", "--since", "24h", "--workflow", "W", "-o", "json")
	if err != nil || r.Project != "default" || r.App != "payments" || r.Status != "failed" || r.Since != "24h" || r.Workflow != "W" || r.Output != "json" {
		t.Errorf("runs options = %+v, %v", r, err)
	}
	rec, err := parse(t, NewCmdRecord, "charge-7731", "--app", "payments", "-o", "out.json", "--redact-payloads", "--force")
	if err != nil || rec.RunID != "charge-7731" || rec.Path != "out.json" || !rec.RedactPayloads || !rec.Force {
		t.Errorf("record options = %+v, %v", rec, err)
	}
}

func TestScanArgumentsRejectProjectFilters(t *testing.T) {
	r := newHarness(t).run("scan", chargeFile(t), "--since", "24h")
	if r.code != ExitUsage || !strings.Contains(r.errOut, "--since filters a project scan") {
		t.Errorf("exit %d, %q", r.code, r.errOut)
	}
	r = newHarness(t).run("scan")
	if r.code != ExitUsage || !strings.Contains(r.errOut, "no project") {
		t.Errorf("scan with nothing: exit %d, %q", r.code, r.errOut)
	}
}

// fleetRuns fills a fake live source with n copies of the charge history
// (every one with findings) plus one clean demo.
func fleetRuns(t *testing.T, l *fakeLive, n int) {
	t.Helper()
	file := chargeFile(t)
	for i := range n {
		h, err := fixtures.Open(file, fixtures.OpenOptions{})
		if err != nil {
			t.Fatal(err)
		}
		id := fmt.Sprintf("run-%02d", i)
		h.Run.ID, h.Run.AppID = id, "payments"
		h.Run.Provenance = catalyst.Provenance{Surface: catalyst.SurfaceCatalystMCP, Endpoint: "mcp.test"}
		l.histories[id] = h
		l.list.Runs = append(l.list.Runs, catalyst.Run{ID: id, AppID: "payments", Workflow: "charge_workflow", Status: "COMPLETED"})
	}
}

func TestFleetScan(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	h := newHarness(t)
	fleetRuns(t, h.live, 12)
	h.live.delay = 5 * time.Millisecond
	h.live.errs["run-03"] = errors.New("catalyst at mcp.test refused reading run run-03: denied")
	r := h.run("scan", "--project", "default", "--app", "payments", "--since", "6h", "--status", "completed", "--concurrency", "4", "-o", "json")
	if r.code != ExitError {
		t.Fatalf("exit %d, want 1 (one run unreadable); stderr %q", r.code, r.errOut)
	}
	q := h.live.queries[0]
	if q.Project != "default" || q.AppID != "payments" || q.Status != catalyst.StatusCompleted || !q.Since.Equal(testNow().Add(-6*time.Hour)) {
		t.Errorf("query = %+v", q)
	}
	if h.live.maxInFlight > 4 || h.live.maxInFlight < 2 {
		t.Errorf("read %d histories at once, want 2..4", h.live.maxInFlight)
	}
	var doc struct {
		Runs []struct {
			Run struct {
				ID string `json:"id"`
			} `json:"run"`
		} `json:"runs"`
		Summary struct {
			RunsListed       int `json:"runs_listed"`
			RunsScanned      int `json:"runs_scanned"`
			RunsWithFindings int `json:"runs_with_findings"`
			NotRead          []struct {
				ID    string `json:"id"`
				Error string `json:"error"`
			} `json:"not_read"`
			WorstRuns []struct {
				Link string `json:"link"`
			} `json:"worst_runs"`
		} `json:"summary"`
	}
	if err := json.Unmarshal([]byte(r.out), &doc); err != nil {
		t.Fatalf("%v\n%s", err, r.out)
	}
	var ids []string
	for _, run := range doc.Runs {
		ids = append(ids, run.Run.ID)
	}
	if want := "run-00,run-01,run-02,run-04,run-05,run-06,run-07,run-08,run-09,run-10,run-11"; strings.Join(ids, ",") != want {
		t.Errorf("runs in order %v, want %s", ids, want)
	}
	s := doc.Summary
	if s.RunsListed != 12 || s.RunsScanned != 11 || s.RunsWithFindings != 11 || len(s.NotRead) != 1 || s.NotRead[0].ID != "run-03" ||
		len(s.WorstRuns) != 10 || !strings.HasPrefix(s.WorstRuns[0].Link, "https://catalyst.diagrid.io/workflows/payments/run-") {
		t.Errorf("summary = %+v", s)
	}
	if !strings.Contains(r.errOut, "1 of 12 runs could not be read") {
		t.Errorf("stderr = %q", r.errOut)
	}
}

func TestFleetScanTokenExpires(t *testing.T) {
	h := newHarness(t)
	fleetRuns(t, h.live, 3)
	h.live.errs["run-02"] = fmt.Errorf("reading run run-02: %w", live.ErrNotAuthenticated)
	r := h.run("scan", "--project", "default")
	if r.code != ExitAuth || !strings.Contains(r.errOut, "1 of 3 runs could not be read") {
		t.Errorf("exit %d, stderr %q; want 4", r.code, r.errOut)
	}
}

func TestFleetScanInterrupted(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	h := newHarness(t)
	fleetRuns(t, h.live, 20)
	h.live.delay = 30 * time.Millisecond
	f, out, errOut := h.factory()
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	code := Execute(ctx, f, []string{"scan", "--project", "default", "--concurrency", "2", "-o", "json"})
	if code != 130 || !strings.Contains(errOut.String(), "interrupted") {
		t.Errorf("exit %d, stderr %q; want 130 and a word", code, errOut)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("stopping took %v", d)
	}
	var doc map[string]any
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Errorf("an interrupted scan must still end its JSON document: %v", err)
	}
}

func TestFleetScanText(t *testing.T) {
	h := newHarness(t)
	fleetRuns(t, h.live, 3)
	h.live.list.Partial, h.live.list.Reason = true, "stopped after 50 pages"
	r := h.run("scan", "--project", "default", "--exit-status", "--fail-on", "medium")
	if r.code != ExitFindings {
		t.Fatalf("exit %d, want 3: %s", r.code, r.errOut)
	}
	for _, want := range []string{"Scan of project default, started since 2026-12-01T10:00:00.000Z", "Runs listed   3 (partial list: stopped after 50 pages)",
		"Runs scanned  3", "With findings 3", "Findings per activity", "charge_card", "Worst runs", "https://catalyst.diagrid.io/workflows/payments/run-00"} {
		if !strings.Contains(r.out, want) {
			t.Errorf("summary lacks %q:\n%s", want, r.out)
		}
	}
	if !strings.Contains(r.errOut, "the run list is partial") {
		t.Errorf("a partial list must be said on stderr: %q", r.errOut)
	}
}

func TestLimiter(t *testing.T) {
	now := testNow()
	l := newLimiter(8, func() time.Time { return now })
	l.lower()
	l.lower() // same burst: counted once
	if l.current() != 4 {
		t.Fatalf("limit %d, want 4", l.current())
	}
	for range 5 {
		now = now.Add(2 * time.Second)
		l.lower()
	}
	if l.current() != 1 {
		t.Errorf("limit %d, want 1 (never below)", l.current())
	}
}

func TestRateLimitSignal(t *testing.T) {
	n := 0
	f, _, _ := newHarness(t).factory()
	cfg, err := f.liveConfig(func() { n++ }, nil)
	if err != nil {
		t.Fatal(err)
	}
	// The live client keeps its own tuned transport; only the status hook
	// is set.
	if cfg.HTTPTransport != nil || cfg.OnStatus == nil {
		t.Fatalf("transport %T, hook set %v", cfg.HTTPTransport, cfg.OnStatus != nil)
	}
	for _, status := range []int{200, 429, 503, 429} {
		cfg.OnStatus(status)
	}
	if n != 2 {
		t.Errorf("signalled %d times for two 429s", n)
	}
	if cfg, _ := f.liveConfig(nil, nil); cfg.OnStatus != nil {
		t.Error("a status hook without a rate-limit signal")
	}
}

func TestFleetScanLowersConcurrencyOn429(t *testing.T) {
	h := newHarness(t)
	fleetRuns(t, h.live, 6)
	f, out, _ := h.factory()
	hook := &signalOnFirst{}
	f.NewLive = func(cfg live.Config) (LiveClient, error) {
		hook.signal = func() { cfg.OnStatus(http.StatusTooManyRequests) }
		hook.LiveClient = h.live
		return hook, nil
	}
	code := Execute(context.Background(), f, []string{"scan", "--project", "default", "--concurrency", "8", "-o", "json"})
	if code != ExitOK {
		t.Fatalf("exit %d", code)
	}
	var doc struct {
		Summary struct {
			Concurrency int `json:"concurrency"`
			RunsScanned int `json:"runs_scanned"`
		} `json:"summary"`
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Summary.Concurrency != 4 || doc.Summary.RunsScanned != 6 {
		t.Errorf("after a 429: concurrency %d (want 4), %d runs scanned (want 6)", doc.Summary.Concurrency, doc.Summary.RunsScanned)
	}
}

// signalOnFirst wraps a LiveClient and reports one 429 on the first read,
// as the transport would.
type signalOnFirst struct {
	LiveClient
	signal func()
	once   sync.Once
}

func (s *signalOnFirst) History(ctx context.Context, ref catalyst.RunRef) (*catalyst.History, error) {
	s.once.Do(s.signal)
	return s.LiveClient.History(ctx, ref)
}

func TestRuns(t *testing.T) {
	h := newHarness(t)
	h.live.list = catalyst.RunList{Runs: []catalyst.Run{
		{ID: "charge-7731", AppID: "payments", Workflow: "ChargeWorkflow", Status: "FAILED", CreatedAt: testNow().Add(-time.Hour), Project: catalyst.Project{Name: "default"}},
		{ID: "charge-7732", AppID: "payments", Workflow: "ChargeWorkflow", Status: "COMPLETED", CreatedAt: testNow().Add(-2 * time.Hour)},
	}}
	r := h.run("runs", "--project", "default", "--status", "FAILED")
	if r.code != ExitOK {
		t.Fatalf("exit %d: %s", r.code, r.errOut)
	}
	if q := h.live.queries[0]; q.Project != "default" || q.Status != catalyst.StatusFailed || !q.Since.IsZero() {
		t.Errorf("query = %+v (no --since means no time filter)", q)
	}
	for _, want := range []string{"Runs: 2 (project default, status failed)", "RUN ID", "charge-7731", "ChargeWorkflow", "failed", "2026-12-02T09:00:00.000Z"} {
		if !strings.Contains(r.out, want) {
			t.Errorf("runs text lacks %q:\n%s", want, r.out)
		}
	}
	r = h.run("runs", "--project", "default", "-o", "json")
	var doc struct {
		Runs []struct {
			ID   string `json:"id"`
			Link string `json:"link"`
		} `json:"runs"`
		Partial bool `json:"partial"`
	}
	if err := json.Unmarshal([]byte(r.out), &doc); err != nil || len(doc.Runs) != 2 ||
		doc.Runs[0].Link != "https://catalyst.diagrid.io/workflows/payments/charge-7731?project=default" {
		t.Errorf("runs json = %+v, %v", doc, err)
	}
	if r := h.run("runs", "--project", "default", "--status", "sleeping"); r.code != ExitUsage {
		t.Errorf("unknown status: exit %d", r.code)
	}
	h.live.listErr = fmt.Errorf("listing runs: %w", live.ErrNotAuthenticated)
	if r := h.run("runs", "--project", "default"); r.code != ExitAuth {
		t.Errorf("not authenticated: exit %d", r.code)
	}
}

func TestRecord(t *testing.T) {
	h := newHarness(t)
	raw := chargeHistory("charge_card", "503", `{"order_id":"A-7731"}`)
	hist, err := fixtures.Read(strings.NewReader(raw), "x", fixtures.OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	hist.Run.ID, hist.Run.AppID = "A-7731", "payments"
	h.live.histories["A-7731"] = hist
	h.live.raw["A-7731"] = []byte(raw)
	out := filepath.Join(t.TempDir(), "rec.json")

	r := h.run("record", "A-7731", "--app", "payments", "--project", "default", "-o", out, "--description", "the ticket's run")
	if r.code != ExitOK {
		t.Fatalf("exit %d: %s", r.code, r.errOut)
	}
	if !strings.Contains(r.out, "Saved run A-7731 of app payments") || !strings.Contains(r.out, "twice show "+out) {
		t.Errorf("stdout = %q", r.out)
	}
	info, err := os.Stat(out)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("recording: %v, mode %v", err, info.Mode())
	}
	if r := h.run("record", "A-7731", "--app", "payments", "-o", out); r.code != ExitError || !strings.Contains(r.errOut, "exists") {
		t.Errorf("overwriting without --force: exit %d, %q", r.code, r.errOut)
	}
	if r := h.run("record", "A-7731", "--app", "payments", "-o", out, "--force", "--redact-payloads"); r.code != ExitOK || !strings.Contains(r.out, "payloads redacted") {
		t.Errorf("--force --redact-payloads: exit %d, %q %q", r.code, r.out, r.errOut)
	}
	data, _ := os.ReadFile(out)
	if strings.Contains(string(data), "A-7731\\\"") && strings.Contains(string(data), `order_id`) {
		t.Errorf("redacted recording still holds the payload")
	}
	if r := h.run("record", "A-7731", "-o", out); r.code != ExitUsage {
		t.Errorf("no app: exit %d", r.code)
	}
	if r := h.run("record", "A-7731", "--app", "payments"); r.code != ExitUsage {
		t.Errorf("no -o: exit %d", r.code)
	}
}

func TestRecordRefusesTheToken(t *testing.T) {
	h := newHarness(t)
	const token = "cat_TESTTOKEN_123"
	h.env = testEnv(t, map[string]string{"CATALYST_TOKEN": token})
	raw := chargeHistory("charge_card", "auth failed for "+token, `{}`)
	hist, err := fixtures.Read(strings.NewReader(raw), "x", fixtures.OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	h.live.histories["A-7731"] = hist
	h.live.raw["A-7731"] = []byte(raw)
	out := filepath.Join(t.TempDir(), "rec.json")
	r := h.run("record", "A-7731", "--app", "payments", "-o", out)
	if r.code != ExitError {
		t.Fatalf("exit %d, want 1", r.code)
	}
	if strings.Contains(r.errOut+r.out, token) {
		t.Errorf("the token was printed")
	}
	if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a file was written: %v", err)
	}
}

func TestDoctor(t *testing.T) {
	h := newHarness(t)
	h.live.doctor = live.DoctorReport{Endpoint: "https://mcp.test/mcp", TokenSource: "token from environment variable CATALYST_TOKEN",
		Authenticated: true, Reachable: true, Server: "catalyst 1.0", Protocol: "2025-06-18",
		Tools: []live.DoctorTool{{Purpose: "catalyst_get_workflow_run", Name: "catalyst_get_workflow_run", Arguments: []string{"projectId", "appId", "instanceId"}}}}
	r := h.run("doctor")
	if r.code != ExitOK {
		t.Fatalf("exit %d: %s", r.code, r.errOut)
	}
	for _, want := range []string{"twice 0.1.0-test", "config: none found", "credential: token from environment variable CATALYST_TOKEN",
		"tool catalyst_get_workflow_run: arguments projectId, appId, instanceId", "the live source is ready"} {
		if !strings.Contains(r.out, want) {
			t.Errorf("doctor lacks %q:\n%s", want, r.out)
		}
	}
	h.live.doctor = live.DoctorReport{TokenSource: "looked at environment variable CATALYST_TOKEN", NotAuthenticated: true, Problems: []string{"not authenticated with Catalyst: no token"}}
	if r := h.run("doctor"); r.code != ExitAuth {
		t.Errorf("no token: exit %d", r.code)
	}
	h.live.doctor = live.DoctorReport{TokenSource: "token from token file x", Authenticated: true, Reachable: true, Problems: []string{"the tool is missing"}}
	if r := h.run("doctor"); r.code != ExitError {
		t.Errorf("a problem: exit %d", r.code)
	}
}
