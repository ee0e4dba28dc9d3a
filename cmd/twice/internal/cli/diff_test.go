package cli

import (
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/safetext/hostiletest"
	"github.com/twice-cli/twice/detect"
	"github.com/twice-cli/twice/detect/rundiff"
	"github.com/twice-cli/twice/fixtures"
)

// TestDiffDemoTwins diffs each demo against its twin in every format and
// compares the text and Markdown with their golden files.
func TestDiffDemoTwins(t *testing.T) {
	for _, c := range []struct{ name, a, b string }{
		{"payment-timeout", "demo:payment-timeout-fixed", "demo:payment-timeout"},
		{"card-declined", "demo:card-declined", "demo:card-declined-no-retry"},
	} {
		for _, o := range []string{"text", "markdown"} {
			t.Run(c.name+"-"+o, func(t *testing.T) {
				r := newHarness(t).run("diff", c.a, c.b, "-o", o)
				if r.code != ExitOK || r.errOut != "" {
					t.Fatalf("exit %d, stderr %q", r.code, r.errOut)
				}
				if strings.Contains(r.out, "\x1b") {
					t.Error("piped output carries escape sequences")
				}
				golden.RequireEqual(t, r.out)
			})
		}
	}
}

// diffDoc is the part of twice diff -o json the tests read.
type diffDoc struct {
	Diff struct {
		A, B struct {
			Location         string  `json:"location"`
			ID               string  `json:"id"`
			Status           string  `json:"status"`
			TimeResolutionMS float64 `json:"time_resolution_ms"`
		}
		Changed  bool `json:"changed"`
		Findings []struct {
			OnlyIn   string `json:"only_in"`
			ID       string `json:"id"`
			Severity string `json:"severity"`
			Activity string `json:"activity"`
			Pair     int    `json:"pair"`
		} `json:"findings"`
		Run []struct {
			Kind string `json:"kind"`
		} `json:"run"`
		Pairs []struct {
			Kind    string `json:"kind"`
			Name    string `json:"name"`
			A, B    int
			Aligned string `json:"aligned"`
			Changes []struct {
				Kind string `json:"kind"`
				A, B []struct {
					Text    string   `json:"text"`
					MS      *float64 `json:"ms"`
					ErrorMS *float64 `json:"error_ms"`
				}
			} `json:"changes"`
		} `json:"pairs"`
	} `json:"diff"`
}

func TestDiffJSON(t *testing.T) {
	r := newHarness(t).run("diff", "demo:card-declined", "demo:card-declined-no-retry", "-o", "json")
	if r.code != ExitOK {
		t.Fatalf("exit %d: %s", r.code, r.errOut)
	}
	var doc diffDoc
	if err := json.Unmarshal([]byte(r.out), &doc); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, r.out)
	}
	d := doc.Diff
	if d.A.ID != "order-7802" || d.B.ID != "order-7815" || d.A.Location != "demo:card-declined" || d.B.TimeResolutionMS != 1000 {
		t.Errorf("sides: %+v %+v", d.A, d.B)
	}
	if !d.Changed || len(d.Findings) != 1 || d.Findings[0].OnlyIn != "a" || d.Findings[0].ID != "retried-permanent-failure" {
		t.Fatalf("findings: %+v", d.Findings)
	}
	p := d.Pairs[d.Findings[0].Pair]
	if p.Name != "charge_card" || p.Aligned != "by-name" || p.Changes[0].Kind != "finding" {
		t.Fatalf("the finding's pair: %+v", p)
	}
	var delays bool
	for _, c := range p.Changes {
		if c.Kind != "retry-delays" {
			continue
		}
		delays = true
		// From whole-second times: "~2s", known to a second.
		if len(c.A) != 2 || len(c.B) != 0 || c.A[0].Text != "~2s" || c.A[0].MS == nil || *c.A[0].ErrorMS != 1000 {
			t.Errorf("retry delays: %+v → %+v", c.A, c.B)
		}
	}
	if !delays {
		t.Error("no retry-delays change: the policy that was taken off does not show")
	}
}

// TestDiffExitStatus: --exit-status exits 3 only when B has a finding at
// --fail-on or above that A does not.
func TestDiffExitStatus(t *testing.T) {
	for _, c := range []struct {
		args []string
		want int
	}{
		{[]string{"demo:payment-timeout-fixed", "demo:payment-timeout"}, ExitOK},
		{[]string{"demo:payment-timeout-fixed", "demo:payment-timeout", "--exit-status"}, ExitFindings},
		{[]string{"demo:payment-timeout-fixed", "demo:payment-timeout", "--fail-on", "high"}, ExitFindings},
		{[]string{"demo:payment-timeout", "demo:payment-timeout-fixed", "--exit-status"}, ExitOK},
		{[]string{"demo:payment-timeout", "demo:payment-timeout", "--exit-status", "--fail-on", "low"}, ExitOK},
		{[]string{"demo:card-declined-no-retry", "demo:card-declined", "--fail-on", "high"}, ExitOK},
		{[]string{"demo:card-declined-no-retry", "demo:card-declined", "--fail-on", "medium"}, ExitFindings},
	} {
		r := newHarness(t).run(append([]string{"diff"}, c.args...)...)
		if r.code != c.want {
			t.Errorf("twice diff %s: exit %d, want %d (%s)", strings.Join(c.args, " "), r.code, c.want, r.errOut)
		}
		if c.want == ExitFindings && !strings.Contains(r.errOut, "new finding") {
			t.Errorf("twice diff %s: stderr %q does not say why", strings.Join(c.args, " "), r.errOut)
		}
	}
}

func TestDiffUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"demo:payment-timeout"}, "give A and B"},
		{[]string{"-", "-"}, "only one of A and B"},
		{[]string{"demo:payment-timeout", "demo:clean-run", "--rerun-source"}, "give only the rerun"},
		{[]string{"demo:payment-timeout", "--rerun-source"}, "is not a rerun"},
		{[]string{"demo:payment-timeout", "demo:clean-run", "-o", "sarif"}, "sarif"},
		{[]string{"demo:payment-timeout", "demo:clean-run", "--fail-on", "none"}, "not a severity"},
		{[]string{"demo:payment-timeout", "demo:nope"}, "no bundled demo"},
	} {
		r := newHarness(t).run(append([]string{"diff"}, c.args...)...)
		if r.code == ExitOK || !strings.Contains(r.errOut, c.want) {
			t.Errorf("twice diff %s: exit %d, stderr %q, want it to say %q", strings.Join(c.args, " "), r.code, r.errOut, c.want)
		}
	}
}

// TestDiffRerunSource reads the run a rerun came from from Catalyst.
func TestDiffRerunSource(t *testing.T) {
	src, err := fixtures.OpenDemo("payment-timeout", fixtures.OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rerun, err := fixtures.OpenDemo("payment-timeout-fixed", fixtures.OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rerun.Run.ID, rerun.Run.RerunOf = "order-7731-rerun", "order-7731"
	rerun.Run.Provenance = catalyst.Provenance{Surface: catalyst.SurfaceCatalystMCP}
	src.Run.Provenance = catalyst.Provenance{Surface: catalyst.SurfaceCatalystMCP}
	h := newHarness(t)
	h.live.histories["order-7731-rerun"] = rerun
	h.live.histories["order-7731"] = src
	r := h.run("diff", "order-7731-rerun", "--rerun-source", "--app", "payments", "--exit-status")
	if r.code != ExitOK {
		t.Fatalf("exit %d: %s", r.code, r.errOut)
	}
	if !strings.Contains(r.out, "A  order-7731 ") || !strings.Contains(r.out, "the run order-7731-rerun was rerun from") ||
		!strings.Contains(r.out, "B  order-7731-rerun ") {
		t.Errorf("the runs are not named:\n%s", r.out)
	}
	if len(h.live.refs) != 2 || h.live.refs[1].ID != "order-7731" || h.live.refs[1].AppID != "payments" {
		t.Errorf("reads: %+v", h.live.refs)
	}
	// Two run ids, both read live.
	r = h.run("diff", "order-7731", "order-7731-rerun", "--app", "payments", "-o", "json")
	var doc diffDoc
	if err := json.Unmarshal([]byte(r.out), &doc); r.code != ExitOK || err != nil || doc.Diff.A.ID != "order-7731" || doc.Diff.B.ID != "order-7731-rerun" {
		t.Errorf("two live runs: exit %d, %v, %+v (%s)", r.code, err, doc.Diff, r.errOut)
	}
}

// TestDiffHostile diffs a history with hostile text planted in every field
// against a demo, in every format: nothing reaches the output raw.
func TestDiffHostile(t *testing.T) {
	for _, s := range hostiletest.Corpus(false) {
		for _, doc := range hostiletest.Documents(s.Value) {
			file := writeFile(t, doc.Name+".json", string(doc.Bytes))
			for _, o := range []string{"text", "markdown", "json", "mermaid"} {
				for _, args := range [][]string{{"diff", file, "demo:payment-timeout"}, {"diff", "demo:email-503", file}, {"diff", file, file}} {
					r := newHarness(t).run(append(args, "-o", o)...)
					if r.code != ExitOK {
						t.Fatalf("%s in %s: twice %s -o %s: exit %d: %.300s", s.Name, doc.Name, strings.Join(args, " "), o, r.code, r.errOut)
					}
					for name, out := range map[string]string{"stdout": r.out, "stderr": r.errOut} {
						if v, bad := hostiletest.FindUnsafe(out, false); bad {
							t.Errorf("%s in %s -o %s: %s carries raw %U: %.200q", s.Name, doc.Name, o, name, v.Rune, out[max(0, v.Offset-60):])
						}
					}
					if o == "json" && !json.Valid([]byte(r.out)) {
						t.Errorf("%s in %s: not JSON", s.Name, doc.Name)
					}
				}
			}
		}
	}
}

// TestDiffAlignsFanOutByKey: a fan-out's calls of one name are aligned by
// the input field that tells them apart (detect.InvocationKeys), whatever
// their order and ids.
func TestDiffAlignsFanOutByKey(t *testing.T) {
	run := func(invoices ...string) rundiff.Run {
		h := catalyst.NewHistory(catalyst.Run{ID: "r", Status: "COMPLETED"})
		h.Format = catalyst.FormatProtoJSON
		at := catalyst.StampOf(time.Date(2026, 11, 3, 9, 0, 0, 0, time.UTC))
		h.Append(catalyst.Event{Type: catalyst.EventExecutionStarted, ID: -1, Timestamp: at})
		for i, inv := range invoices {
			x := "x-" + inv + "-" + strconv.Itoa(len(invoices))
			h.Append(catalyst.Event{Type: catalyst.EventTaskScheduled, ID: int32(i), Name: "SendInvoiceEmail", ExecutionID: x,
				Timestamp: at, Payload: catalyst.PresentPayload(`{"invoiceNumber":"` + inv + `","lang":"en"}`)})
		}
		for i, inv := range invoices {
			x := "x-" + inv + "-" + strconv.Itoa(len(invoices))
			h.Append(catalyst.Event{Type: catalyst.EventTaskCompleted, ID: -1, ScheduledID: int32(i), ExecutionID: x,
				Timestamp: at + catalyst.Stamp(time.Second), Payload: catalyst.PresentPayload(`{"sent":"` + inv + `"}`)})
		}
		return rundiff.Run{History: h, Report: detect.Analyze(h, detect.Options{})}
	}
	d := rundiff.Compare(run("INV-1", "INV-2", "INV-3"), run("INV-3", "INV-1"), diffOptions())
	var got []string
	for _, p := range d.Pairs {
		got = append(got, p.Aligned.String()+" "+p.Key)
		if p.Changed() && p.Aligned != rundiff.OnlyInA {
			t.Errorf("%s %s differs: %+v", p.Aligned, p.Key, p.Changes)
		}
	}
	want := "only-in-a ,by-key invoiceNumber=INV-1,by-key invoiceNumber=INV-3"
	if strings.Join(got, ",") != want {
		t.Errorf("pairs %q, want %q", strings.Join(got, ","), want)
	}
}

// TestMermaidOutput: show --timeline -o mermaid (and -o mermaid alone)
// writes the run's gantt chart, diff -o mermaid both runs', and show -o
// markdown embeds the chart above the findings.
func TestMermaidOutput(t *testing.T) {
	for _, args := range [][]string{
		{"show", "demo:payment-timeout", "--timeline", "-o", "mermaid"},
		{"show", "demo:payment-timeout", "-o", "mermaid"},
		{"diff", "demo:payment-timeout-fixed", "demo:payment-timeout", "-o", "mermaid"},
	} {
		r := newHarness(t).run(args...)
		if r.code != ExitOK || !strings.HasPrefix(r.out, "gantt\n") || !strings.Contains(r.out, "dateFormat x") ||
			!strings.Contains(r.out, "section ChargeCard") && !strings.Contains(r.out, "section ≠ ChargeCard (by-name)") {
			t.Errorf("twice %s: exit %d, stderr %q:\n%s", strings.Join(args, " "), r.code, r.errOut, r.out)
		}
	}
	r := newHarness(t).run("show", "demo:payment-timeout", "-o", "markdown")
	chart, findings := strings.Index(r.out, "```mermaid\ngantt\n"), strings.Index(r.out, "### Findings")
	if r.code != ExitOK || chart < 0 || findings < chart {
		t.Errorf("show -o markdown: the chart (at %d) is not above the findings (at %d)", chart, findings)
	}
	r = newHarness(t).run("scan", "demo:payment-timeout", "demo:card-declined", "-o", "markdown")
	if r.code != ExitOK || strings.Count(r.out, "```mermaid\n") != 2 {
		t.Errorf("scan -o markdown: %d charts for two runs (exit %d)", strings.Count(r.out, "```mermaid\n"), r.code)
	}
	if r := newHarness(t).run("show", "demo:payment-timeout", "demo:card-declined", "-o", "mermaid"); r.code != ExitUsage {
		t.Errorf("show of two runs -o mermaid: exit %d, want usage", r.code)
	}
}

// TestDiffStdin: one of the runs can be standard input.
func TestDiffStdin(t *testing.T) {
	src, err := os.ReadFile("../../../../fixtures/demo/payment-timeout.json")
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t)
	h.in = string(src)
	r := h.run("diff", "demo:payment-timeout-fixed", "-", "--exit-status")
	if r.code != ExitFindings || !strings.Contains(r.out, "B  order-7731 ") || !strings.Contains(r.out, "· -") {
		t.Errorf("exit %d, stderr %q:\n%s", r.code, r.errOut, r.out)
	}
}

// TestDiffOpensTheView: on a terminal, without -o, twice diff opens the
// two runs compared in the view; with -o, or --exit-status, it prints.
func TestDiffOpensTheView(t *testing.T) {
	h := newHarness(t)
	h.tty = true
	r := h.run("diff", "demo:payment-timeout-fixed", "demo:payment-timeout")
	if len(h.tuiCalls) != 1 {
		t.Fatalf("%d views opened", len(h.tuiCalls))
	}
	if c := h.tuiCalls[0].Compare; c[0] == nil || c[1] == nil || c[0].Run.ID != "order-7740" || c[1].Run.ID != "order-7731" {
		t.Errorf("the view was not asked to compare A and B: %+v", c)
	}
	// The harness's view is not there (errNoTUI): the text follows.
	if r.code != ExitOK || !strings.Contains(r.out, "Diff of two runs") {
		t.Errorf("exit %d: %s", r.code, r.out)
	}
	for _, args := range [][]string{{"-o", "text"}, {"--exit-status"}} {
		h := newHarness(t)
		h.tty = true
		h.run(append([]string{"diff", "demo:payment-timeout-fixed", "demo:payment-timeout"}, args...)...)
		if len(h.tuiCalls) != 0 {
			t.Errorf("twice diff %v opened the view", args)
		}
	}
}
