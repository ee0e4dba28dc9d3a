package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/twice-cli/twice/detect/review/csharp"
	"github.com/twice-cli/twice/detect/review/python"
)

const corpusGo = "../../../../detect/review/testdata/corpus/go"

func TestReviewCommand(t *testing.T) {
	h := newHarness(t)
	res := h.run("review", filepath.Join(corpusGo, "g01"))
	if res.code != ExitOK {
		t.Fatalf("exit %d: %s", res.code, res.errOut)
	}
	for _, want := range []string{"key-generated-in-body", "ChargeCard", "g01/charge.go:31:2", "why:", "fix:"} {
		if !strings.Contains(res.out, want) {
			t.Errorf("output lacks %q:\n%s", want, res.out)
		}
	}
}

func TestReviewExitStatus(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
	}{
		{[]string{"review", filepath.Join(corpusGo, "g01"), "--exit-status"}, ExitFindings},
		{[]string{"review", filepath.Join(corpusGo, "g01"), "--exit-status", "--fail-on", "high"}, ExitFindings},
		{[]string{"review", filepath.Join(corpusGo, "g03"), "--exit-status", "--fail-on", "high"}, ExitOK}, // medium only
		{[]string{"review", filepath.Join(corpusGo, "g02"), "--exit-status", "--fail-on", "low"}, ExitOK},  // none
		{[]string{"review", filepath.Join(corpusGo, "g01"), "--fail-on", "high"}, ExitFindings},            // --fail-on implies --exit-status
		{[]string{"review", filepath.Join(corpusGo, "g03"), "--fail-on", "high"}, ExitOK},
		{[]string{"review", filepath.Join(corpusGo, "g01")}, ExitOK},
		{[]string{"review", filepath.Join(corpusGo, "g01"), "--fail-on", "severe"}, ExitUsage},
		{[]string{"review", filepath.Join(corpusGo, "g01"), "-o", "yaml"}, ExitUsage},
		{[]string{"review"}, ExitUsage},
		{[]string{"review", filepath.Join(t.TempDir(), "missing")}, ExitError},
	} {
		h := newHarness(t)
		if res := h.run(tc.args...); res.code != tc.code {
			t.Errorf("twice %s: exit %d, want %d (%s)", strings.Join(tc.args, " "), res.code, tc.code, res.errOut)
		}
	}
}

func TestReviewOutputs(t *testing.T) {
	for _, o := range []string{"json", "sarif"} {
		h := newHarness(t)
		res := h.run("review", corpusGo, "-o", o)
		if res.code != ExitOK {
			t.Fatalf("-o %s: exit %d: %s", o, res.code, res.errOut)
		}
		var v map[string]any
		if err := json.Unmarshal([]byte(res.out), &v); err != nil {
			t.Fatalf("-o %s is not JSON: %v", o, err)
		}
		if o == "sarif" && v["version"] != "2.1.0" {
			t.Errorf("SARIF version %v", v["version"])
		}
	}
	h := newHarness(t)
	res := h.run("review", corpusGo, "-o", "markdown")
	if !strings.HasPrefix(res.out, "## twice review") || !strings.Contains(res.out, "| severity | rule |") {
		t.Errorf("markdown:\n%.400s", res.out)
	}
}

// TestShowSourceDemo is README's join: twice show demo:payment-timeout
// --source demo says why ChargeCard's duplicate is likely real, with the
// line, and lists every activity of the run.
func TestShowSourceDemo(t *testing.T) {
	if ok, why := python.Available(); !ok {
		t.Skip("the payment-timeout service is Python: " + why)
	}
	h := newHarness(t)
	res := h.run("show", "demo:payment-timeout", "--source", "demo")
	if res.code != ExitOK {
		t.Fatalf("exit %d: %s", res.code, res.errOut)
	}
	for _, want := range []string{
		"code: likely a real duplicate: ChargeCard makes its key inside the body (demo/services/payment-timeout/checkout.py:37)",
		`headers={"Idempotency-Key": str(uuid.uuid4())},`,
		"Code (--source)", "ReserveInventory", "SendReceipt",
	} {
		if !strings.Contains(res.out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	if len(h.tuiCalls) != 0 {
		t.Error("piped, --source opened the interactive view instead of printing text")
	}
}

// TestShowSourceOnTerminalOpensTheView: on a terminal, show --source opens
// the interactive view (its Code tab) as show does without it, with the
// review and where its files are: the bundled demo services are embedded,
// a directory is read from disk. The editor e uses is $VISUAL, else
// $EDITOR. Piped or with -o, it prints text (TestShowSourceDemo).
func TestShowSourceOnTerminalOpensTheView(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "x.go"), []byte("package main\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := writeFile(t, "twice.yaml", "source: \"demo:\"\n")
	cases := []struct {
		name     string
		args     []string
		env      map[string]string
		embedded bool
		editor   []string
	}{
		{"demo", []string{"show", "demo:payment-timeout", "--source", "demo"}, map[string]string{"EDITOR": "vim", "VISUAL": "code --wait"}, true, []string{"code", "--wait"}},
		{"directory", []string{"show", "demo:payment-timeout", "--source", dir}, map[string]string{"EDITOR": "nano"}, false, []string{"nano"}},
		{"config", []string{"--config", cfg, "show", "demo:email-503"}, nil, true, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t)
			h.env = testEnv(t, c.env)
			h.tty, h.tuiErr = true, nil
			r := h.run(c.args...)
			if r.code != ExitOK || r.out != "" {
				t.Fatalf("exit %d, stdout %q, stderr %q: want the view, no text", r.code, r.out, r.errOut)
			}
			if len(h.tuiCalls) != 1 {
				t.Fatalf("the view ran %d times", len(h.tuiCalls))
			}
			req := h.tuiCalls[0]
			if req.Code == nil || len(req.Code.Roots) == 0 {
				t.Fatalf("the view was given no review: %+v", req)
			}
			if (req.CodeFiles != nil) != c.embedded {
				t.Errorf("CodeFiles = %v, want embedded %v", req.CodeFiles, c.embedded)
			}
			if !slices.Equal(req.Editor.Argv, c.editor) {
				t.Errorf("editor %q, want %q", req.Editor.Argv, c.editor)
			}
			if opts := tuiOptions(req); opts.Code == nil || opts.Code.Review != req.Code || opts.Code.Embedded() != c.embedded {
				t.Errorf("the view's options carry code %+v", opts.Code)
			}
		})
	}

	// Without source the view has none (no Code tab).
	h := newHarness(t)
	h.tty, h.tuiErr = true, nil
	h.run("show", "demo:payment-timeout")
	if len(h.tuiCalls) != 1 || h.tuiCalls[0].Code != nil || tuiOptions(h.tuiCalls[0]).Code != nil {
		t.Errorf("show without --source gave the view a source: %+v", h.tuiCalls)
	}
}

// TestShowSourceDemoDotnet joins the .NET demo to its C# service: the
// duplicate is likely real because ReserveHotelActivity keys its request
// on context.TaskExecutionKey, which the .NET SDK changes per retry (the
// history's three execution ids), and both activities are found.
func TestShowSourceDemoDotnet(t *testing.T) {
	if ok, why := csharp.Available(); !ok {
		t.Skip("the dotnet-retry service is C#: " + why)
	}
	h := newHarness(t)
	res := h.run("show", "demo:dotnet-retry", "--source", "demo")
	if res.code != ExitOK {
		t.Fatalf("exit %d: %s", res.code, res.errOut)
	}
	for _, want := range []string{
		"code: likely a real duplicate: ReserveHotelActivity derives its key from a per-attempt id (demo/services/dotnet-retry/Activities/ReserveHotelActivity.cs:19)",
		`message.Headers.Add("Idempotency-Key", context.TaskExecutionKey);`,
		"ChargeDepositActivity  demo/services/dotnet-retry/Activities/ChargeDepositActivity.cs",
	} {
		if !strings.Contains(res.out, want) {
			t.Errorf("output lacks %q:\n%s", want, res.out)
		}
	}
	if strings.Contains(res.out, "not found") {
		t.Errorf("an activity of the run is not found in the demo service:\n%s", res.out)
	}
}

func TestScanSourceNotFound(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "x.go"), []byte("package main\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t)
	res := h.run("scan", "demo:payment-timeout", "--source", dir, "-o", "json")
	if res.code != ExitOK {
		t.Fatalf("exit %d: %s", res.code, res.errOut)
	}
	var doc struct {
		Runs []struct {
			Code []struct {
				Activity string `json:"activity"`
				Found    bool   `json:"found"`
			} `json:"code"`
			Findings []struct {
				Code struct {
					NotFound bool   `json:"not_found"`
					Note     string `json:"note"`
				} `json:"code"`
			} `json:"findings"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(res.out), &doc); err != nil {
		t.Fatal(err)
	}
	run := doc.Runs[0]
	if len(run.Code) != 3 {
		t.Fatalf("code lists %d activities, want all 3 of the run", len(run.Code))
	}
	for _, c := range run.Code {
		if c.Found {
			t.Errorf("%s reported found in a tree that defines nothing", c.Activity)
		}
	}
	if f := run.Findings[0]; !f.Code.NotFound || !strings.Contains(f.Code.Note, "does not define") {
		t.Errorf("the finding's code evidence: %+v", f.Code)
	}
}

func TestSourceFromConfig(t *testing.T) {
	h := newHarness(t)
	cfg := writeFile(t, "twice.yaml", "source: \"demo:\"\n")
	res := h.run("--config", cfg, "scan", "demo:email-503")
	if res.code != ExitOK {
		t.Fatalf("exit %d: %s", res.code, res.errOut)
	}
	if !strings.Contains(res.out, "probably refused downstream") {
		t.Errorf("source: in twice.yaml was not joined:\n%s", res.out)
	}
}

const discoveryDir = "../../../../detect/review/testdata/discovery"

// TestReviewFailOnUnreviewed: --fail-on unreviewed fails a gate on a
// name a workflow calls that twice did not review, with or without a
// severity; a tree with none passes; stderr says how many.
func TestReviewFailOnUnreviewed(t *testing.T) {
	inferred := filepath.Join(discoveryDir, "d03_go_inferred") // calls "Farewell", defined nowhere
	modules := filepath.Join(discoveryDir, "d01_go_modules")   // everything resolves
	for _, tc := range []struct {
		args []string
		code int
	}{
		{[]string{"review", inferred}, ExitOK},
		{[]string{"review", inferred, "--fail-on", "unreviewed"}, ExitFindings},
		{[]string{"review", inferred, "--fail-on", "high,unreviewed"}, ExitFindings},
		{[]string{"review", inferred, "--exit-status"}, ExitOK},
		{[]string{"review", modules, "--fail-on", "unreviewed"}, ExitOK},
		{[]string{"review", modules, "--fail-on", "high,medium"}, ExitUsage},
		{[]string{"review", modules, "--fail-on", "unreviewd"}, ExitUsage},
	} {
		h := newHarness(t)
		res := h.run(tc.args...)
		if res.code != tc.code {
			t.Errorf("twice %s: exit %d, want %d (%s)", strings.Join(tc.args, " "), res.code, tc.code, res.errOut)
		}
		if tc.args[1] == inferred && !strings.Contains(res.errOut, "not reviewed") {
			t.Errorf("twice %s: stderr does not say a name was not reviewed: %q", strings.Join(tc.args, " "), res.errOut)
		}
	}
}

// TestReviewSaysWhenNothingFound: a tree that imports a Dapr workflow SDK
// but registers nothing twice can read, and workflows whose activities
// are elsewhere, are said on stderr, never a silent zero.
func TestReviewSaysWhenNothingFound(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("main.go", `package main

import "github.com/dapr/durabletask-go/workflow"

var registry = workflow.NewRegistry()

func main() {}
`)
	h := newHarness(t)
	res := h.run("review", dir)
	if res.code != ExitOK || !strings.Contains(res.errOut, "imports a Dapr workflow SDK") {
		t.Errorf("exit %d; stderr %q", res.code, res.errOut)
	}
	write("main.go", `package main

import "github.com/dapr/durabletask-go/workflow"

func Order(ctx *workflow.WorkflowContext) (any, error) {
	return nil, ctx.CallActivity("Charge").Await(nil)
}

func main() {
	r := workflow.NewRegistry()
	_ = r.AddWorkflow(Order)
}
`)
	h = newHarness(t)
	res = h.run("review", dir)
	if !strings.Contains(res.errOut, "reviewed no activity") || !strings.Contains(res.out, "Charge") {
		t.Errorf("exit %d; stderr %q; out %q", res.code, res.errOut, res.out)
	}
}
