package review_test

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/twice-cli/twice/detect"
	"github.com/twice-cli/twice/detect/review"
	"github.com/twice-cli/twice/detect/review/csharp"
	"github.com/twice-cli/twice/detect/review/langs"
	"github.com/twice-cli/twice/detect/review/python"
	"github.com/twice-cli/twice/fixtures"
)

// reviewDir writes files into a temporary directory and reviews it.
func reviewDir(t *testing.T, files map[string]string) *review.Report {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rep, err := review.Review(context.Background(), []string{dir}, langs.Options())
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

const chargeTemplate = `package main

import (
	"fmt"
	"net/http"
	"os"

	"example.com/keys"
	"github.com/dapr/durabletask-go/workflow"
	"github.com/google/uuid"
)

func ChargeCard(ctx workflow.ActivityContext) (any, error) {
	var orderID string
	_ = ctx.GetInput(&orderID)
	req, _ := http.NewRequest(http.MethodPost, "https://pay.example.com/charges", nil)
	req.Header.Set("Idempotency-Key", KEY)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	return nil, resp.Body.Close()
}

var chargeKey = os.Getenv("CHARGE_KEY")

func newKey() string {
	id := uuid.NewString()
	return "charge-" + id
}

func main() {
	r := workflow.NewRegistry()
	_ = r.AddActivity(ChargeCard)
	_ = keys.For
	_ = fmt.Sprint
}
`

// TestJoinVerdicts joins the payment-timeout demo's duplicate-side-effect
// finding on ChargeCard to three versions of ChargeCard's code.
func TestJoinVerdicts(t *testing.T) {
	for _, tc := range []struct {
		name    string
		key     string
		verdict review.CodeVerdict
		says    string
	}{
		{"key from uuid", "uuid.NewString()", review.VerdictLikelyDuplicate, "likely a real duplicate"},
		{"key from input", `"charge-" + orderID`, review.VerdictRefused, "probably refused downstream"},
		{"per-attempt key", `fmt.Sprint(ctx.GetTaskID())`, review.VerdictLikelyDuplicate, "per-attempt id"},
		// issue 21: a helper that makes a fresh UUID is a key made in the
		// body; a key from code twice cannot see is never "refused".
		{"key from a helper's uuid", `newKey()`, review.VerdictLikelyDuplicate, "likely a real duplicate"},
		{"key from the task execution id", `"charge-" + ctx.GetTaskExecutionID()`, review.VerdictRefused, "probably refused downstream"},
		{"key from code twice cannot see", `keys.For(orderID)`, "", "a key whose source twice cannot see"},
		{"key from configuration", `chargeKey`, "", "a key whose source twice cannot see"},
		{"constant key", `"charge"`, "", "shared by every operation"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code := reviewDir(t, map[string]string{"charge.go": strings.Replace(chargeTemplate, "KEY", tc.key, 1)})
			h, err := fixtures.OpenDemo("payment-timeout", fixtures.OpenOptions{})
			if err != nil {
				t.Fatal(err)
			}
			rep := detect.Analyze(h, detect.Options{})
			j := review.Join(rep, code)
			var f *detect.Finding
			var c *review.CodeEvidence
			for i := range rep.Findings {
				if rep.Findings[i].ID == detect.FindingDuplicateSideEffect {
					f, c = &rep.Findings[i], j.Finding(i)
				}
			}
			if f == nil || c == nil {
				t.Fatal("the duplicate-side-effect finding has no code evidence")
			}
			if c.Verdict != tc.verdict || !strings.Contains(c.Note, tc.says) {
				t.Fatalf("verdict %q, note %q; want %q saying %q", c.Verdict, c.Note, tc.verdict, tc.says)
			}
			if tc.verdict == review.VerdictRefused && (c.Refusal == nil || c.Refusal.Line != 17) {
				t.Fatalf("the refusing line is %+v, want charge.go line 17", c.Refusal)
			}
			if tc.verdict != review.VerdictRefused && (c.Refusal != nil || strings.Contains(c.Note, "refused downstream")) {
				t.Fatalf("a key twice cannot vouch for is cited as a refusal: %+v, %q", c.Refusal, c.Note)
			}
			if a := code.Activity("ChargeCard"); tc.verdict != review.VerdictRefused && len(a.Guards) > 0 {
				t.Fatalf("a key twice cannot vouch for is claimed as a guard: %+v", a.Guards)
			}
			if f.Severity != detect.SeverityHigh {
				t.Errorf("the join changed the history's severity to %s", f.Severity)
			}
			var notFound []string
			for _, c := range j.Activities {
				if !c.Found {
					notFound = append(notFound, c.Name)
				}
			}
			if strings.Join(notFound, ",") != "ReserveInventory,SendReceipt" {
				t.Errorf("activities not found in the source: %v, want ReserveInventory and SendReceipt listed", notFound)
			}
		})
	}
}

// TestJoinEveryDemo joins every demo history to the bundled demo
// services: each activity of each run is defined there (none is listed as
// not found when the build parses every language), and the first verdict
// is the one the demo's service explains.
func TestJoinEveryDemo(t *testing.T) {
	opts := langs.Options()
	opts.FS = fixtures.DemoServices()
	code, err := review.Review(context.Background(), []string{fixtures.DemoServicesRoot}, opts)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]review.CodeVerdict{
		"payment-timeout": review.VerdictLikelyDuplicate,
		"email-503":       review.VerdictRefused,
		"card-declined":   review.VerdictConfirmed,
		"worker-crash":    review.VerdictUnprotected,
		"child-retried":   review.VerdictLikelyDuplicate,
		"dotnet-retry":    review.VerdictLikelyDuplicate,
	}
	// Without cgo the Python and C# services are not reviewed: their
	// activities are listed as not found, and the review says why.
	unparsed := map[string]bool{}
	if ok, _ := python.Available(); !ok {
		if code.Unavailable[review.LangPython] == "" {
			t.Fatal("a build without a Python parser does not say the Python services were not reviewed")
		}
		want["card-declined"], want["worker-crash"], want["payment-timeout"] = "", "", ""
		unparsed["card-declined"], unparsed["worker-crash"], unparsed["payment-timeout"] = true, true, true
		unparsed["lookup-retried"], unparsed["metadata-withheld"] = true, true
	}
	if ok, _ := csharp.Available(); !ok {
		if code.Unavailable[review.LangCSharp] == "" {
			t.Fatal("a build without a C# parser does not say the C# service was not reviewed")
		}
		want["dotnet-retry"], unparsed["dotnet-retry"] = "", true
	}
	for _, d := range fixtures.Demos() {
		h, err := fixtures.OpenDemo(d.Name, fixtures.OpenOptions{})
		if err != nil {
			t.Fatal(err)
		}
		rep := detect.Analyze(h, detect.Options{})
		j := review.Join(rep, code)
		if !reflect.DeepEqual(rep, detect.Analyze(h, detect.Options{})) {
			t.Errorf("%s: the join changed the history's report", d.Name)
		}
		if j == nil || j.Activities == nil {
			t.Fatalf("%s: no code section", d.Name)
		}
		if len(j.Findings) != len(rep.Findings) {
			t.Fatalf("%s: code evidence for %d findings, want one slot for each of %d", d.Name, len(j.Findings), len(rep.Findings))
		}
		for _, c := range j.Activities {
			if !c.Found && !unparsed[d.Name] {
				t.Errorf("%s: activity %s is not found in the demo services", d.Name, c.Name)
			}
		}
		for i, f := range rep.Findings {
			if c := j.Finding(i); unparsed[d.Name] && c != nil && !c.Found && !strings.Contains(c.Note, "this build did not review the") {
				t.Errorf("%s: %s is not found, and the note does not say the build left files out: %q", d.Name, f.Activity, c.Note)
			}
		}
		got := review.CodeVerdict("")
		for i := range rep.Findings {
			if c := j.Finding(i); c != nil && c.Found && c.Verdict != "" && got == "" {
				got = c.Verdict
			}
		}
		if w, ok := want[d.Name]; ok && got != w {
			t.Errorf("%s: the first verdict is %q, want %q", d.Name, got, w)
		}
	}
}
