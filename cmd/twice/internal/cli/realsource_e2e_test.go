package cli

// End-to-end checks of issue 14's items through `twice show FILE -o json`,
// on histories of detect's real-source suite (detect/testdata/realsource:
// the Dapr CLI's row code at v1.16.4 and v1.17.0, and durabletask-go
// v0.12.1's protojson; see detect/realsource_test.go for the tags and
// files). They read only the command line and its JSON, which twice had
// before those items were fixed, so each one can be run against the code
// before the fix and shown to fail there.

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/twice-cli/twice/catalyst/catalysttest"
)

// rsFile is the path of one history of the real-source suite.
func rsFile(source, scenario string) string {
	return filepath.Join("..", "..", "..", "..", "detect", "testdata", "realsource", source, scenario+".json")
}

// rsDoc is the part of twice's JSON these checks read.
type rsDoc struct {
	Runs []struct {
		Run struct {
			ID      string `json:"id"`
			AppID   string `json:"app_id"`
			Project struct {
				Name string `json:"name"`
			} `json:"project"`
			Output struct {
				State string `json:"state"`
			} `json:"output"`
		} `json:"run"`
		Link          string `json:"link"`
		UnknownFields int    `json:"unknown_fields"`
		Events        []struct {
			Type        string `json:"type"`
			ScheduledID *int   `json:"scheduled_id"`
			Payload     *struct {
				State string `json:"state"`
			} `json:"payload"`
			Failure *rsFailure `json:"failure"`
		} `json:"events"`
		Invocations []struct {
			Name     string `json:"name"`
			Outcome  string `json:"outcome"`
			LinkRule string `json:"link_rule"`
			Attempts []struct {
				Outcome string `json:"outcome"`
			} `json:"attempts"`
		} `json:"invocations"`
		Findings []struct {
			ID         string `json:"id"`
			Confidence string `json:"confidence"`
			Evidence   []struct {
				Fact string `json:"fact"`
			} `json:"evidence"`
		} `json:"findings"`
	} `json:"runs"`
}

type rsFailure struct {
	Message string     `json:"message"`
	Inner   *rsFailure `json:"inner"`
}

// rsShow runs twice show with args and -o json, and decodes its JSON.
func rsShow(t *testing.T, stdin string, args ...string) rsDoc {
	t.Helper()
	h := newHarness(t)
	h.in = stdin
	r := h.run(append([]string{"show"}, append(args, "-o", "json")...)...)
	var doc rsDoc
	if r.code != ExitOK {
		t.Fatalf("twice show %v: exit %d: %s", args, r.code, r.errOut)
	}
	if err := json.Unmarshal([]byte(r.out), &doc); err != nil || len(doc.Runs) != 1 {
		t.Fatalf("twice show %v: %v\n%s", args, err, r.out)
	}
	return doc
}

// outcomes lists each invocation's name and outcome.
func (d rsDoc) outcomes() string {
	var parts []string
	for _, inv := range d.Runs[0].Invocations {
		parts = append(parts, fmt.Sprintf("%s:%s/%d", inv.Name, inv.Outcome, len(inv.Attempts)))
	}
	return strings.Join(parts, " ")
}

// Item 1: two parallel children in CLI 1.17 rows, ShipA failed and ShipB
// completed; the completion's id is only in details ("eventId=1").
func TestRealSourceItem1ParallelChildrenKeepTheirOutcomes(t *testing.T) {
	doc := rsShow(t, "", rsFile("dapr-cli-v1.17.0", "parallel-children"))
	if got := doc.outcomes(); got != "ShipA:failed/1 ShipB:completed/1" {
		t.Errorf("invocations %s, want ShipA failed and ShipB completed", got)
	}
}

// Item 2: an id the CLI does not print is not written as 0, and an
// outcome that depends on it is inferred (one call open, or a retry
// timer's origin) or unknown (two open), never tied "first" at full
// confidence.
func TestRealSourceItem2AbsentIDsStayAbsent(t *testing.T) {
	for _, source := range []string{"dapr-cli-v1.16.4", "dapr-cli-v1.17.0"} {
		doc := rsShow(t, "", rsFile(source, "parallel-children"))
		for _, ev := range doc.Runs[0].Events {
			if ev.Type == "ChildWorkflowFailed" && ev.ScheduledID != nil {
				t.Errorf("%s: ChildWorkflowFailed scheduled_id %d, but no CLI row prints one", source, *ev.ScheduledID)
			}
			if ev.Type == "ChildWorkflowCompleted" && source == "dapr-cli-v1.16.4" && ev.ScheduledID != nil {
				t.Errorf("%s: ChildWorkflowCompleted scheduled_id %d, but v1.16 prints none", source, *ev.ScheduledID)
			}
		}
	}
	// v1.16: both calls open when each id-less outcome arrives.
	doc := rsShow(t, "", rsFile("dapr-cli-v1.16.4", "parallel-children"))
	if got := doc.outcomes(); got != "ShipA:unknown/1 ShipB:unknown/1" {
		t.Errorf("v1.16 parallel children: %s, want both unknown", got)
	}
	for _, f := range doc.Runs[0].Findings {
		if f.ID == "unknown-outcome" && f.Confidence == "observed" {
			t.Errorf("an outcome left unknown for want of an id is reported as observed")
		}
	}
	// v1.16: a retried child is one invocation of two attempts, inferred.
	doc = rsShow(t, "", rsFile("dapr-cli-v1.16.4", "child-retry"))
	if got, inv := doc.outcomes(), doc.Runs[0].Invocations; got != "ShipOrder:completed/2" || inv[0].LinkRule != "inferred" {
		t.Errorf("v1.16 retried child: %s, want one invocation of two attempts, inferred", got)
	}
}

// Item 3: payloads the CLI never prints are "not-in-format", and a payload
// a row leaves out is "none-or-empty": never "none".
func TestRealSourceItem3PayloadsNotInFormat(t *testing.T) {
	want := map[string]map[string]string{
		"suspend-resume-terminate": {"ExecutionSuspended": "not-in-format", "ExecutionResumed": "not-in-format",
			"ExecutionTerminated": "not-in-format"},
		"continue-as-new-event": {"ContinueAsNew": "not-in-format"},
	}
	for scenario, types := range want {
		doc := rsShow(t, "", rsFile("dapr-cli-v1.17.0", scenario))
		seen := 0
		for _, ev := range doc.Runs[0].Events {
			if w, ok := types[ev.Type]; ok {
				seen++
				if ev.Payload == nil || ev.Payload.State != w {
					t.Errorf("%s %s: payload %+v, want %s", scenario, ev.Type, ev.Payload, w)
				}
			}
		}
		if seen != len(types) {
			t.Errorf("%s: %d of the %d event types checked", scenario, seen, len(types))
		}
	}
	doc := rsShow(t, "", rsFile("dapr-cli-v1.16.4", "parallel-children"))
	for _, ev := range doc.Runs[0].Events {
		if ev.Type == "ChildWorkflowCreated" && (ev.Payload == nil || ev.Payload.State != "not-in-format") {
			t.Errorf("v1.16 ChildWorkflowCreated payload %+v, want not-in-format", ev.Payload)
		}
	}
	if s := doc.Runs[0].Run.Output.State; s != "none-or-empty" {
		t.Errorf("the run's output (no output attr) is %q, want none-or-empty", s)
	}
}

// Item 4: a cross-app child's app is its start router's target, not its
// parent's app, and its link goes there.
func TestRealSourceItem4CrossAppChildLinksToItsOwnApp(t *testing.T) {
	run := rsShow(t, "", rsFile("protojson-durabletask-go-v0.12.1", "cross-app-child")).Runs[0]
	if run.Run.AppID != "shipping" || !strings.Contains(run.Link, "/workflows/shipping/") {
		t.Errorf("app %q, link %q; want the child's app, shipping", run.Run.AppID, run.Link)
	}
}

// Item 5: a rerun's history (it copies the source run's executionStarted)
// is not shown, nor linked, as the source run.
func TestRealSourceItem5RerunIsNotItsSource(t *testing.T) {
	run := rsShow(t, "", rsFile("protojson-durabletask-go-v0.12.1", "rerun")).Runs[0]
	if run.Run.ID == "order-5005" || strings.Contains(run.Link, "order-5005") {
		t.Errorf("run id %q, link %q: the rerun is shown as its source run order-5005", run.Run.ID, run.Link)
	}
}

// Item 6: Catalyst's flattened inner failures decode as the chain
// protojson's innerFailure is.
func TestRealSourceItem6CatalystInnerFailures(t *testing.T) {
	flat := `[{"event_type":"TaskFailed","event_id":-1,"timestamp":"2026-08-22T02:00:06Z","task_scheduled_id":5,` +
		`"failure_details_error_type":"*errors.errorString","failure_details_error_message":"gateway 503",` +
		`"failure_details_inner_failure_error_type":"*net.OpError",` +
		`"failure_details_inner_failure_error_message":"read tcp: i/o timeout",` +
		`"failure_details_inner_failure_inner_failure_error_message":"ETIMEDOUT"}]`
	run := rsShow(t, flat, "-").Runs[0]
	var chain []string
	for f := run.Events[0].Failure; f != nil; f = f.Inner {
		chain = append(chain, f.Message)
	}
	if got := strings.Join(chain, " <- "); got != "gateway 503 <- read tcp: i/o timeout <- ETIMEDOUT" || run.UnknownFields != 0 {
		t.Errorf("failure chain %q, %d unknown fields; want three levels, none unknown", got, run.UnknownFields)
	}
}

// Item 7: the fleet commands run against a list tool that declares no
// time-window, status or workflow argument.
func TestRealSourceItem7FleetWithoutFilterArguments(t *testing.T) {
	srv := catalysttest.New(catalysttest.Options{OmitListArgs: []string{"startTimeFrom", "startTimeTo", "status", "workflowName"}})
	defer srv.Close()
	env := testEnv(t, map[string]string{"CATALYST_TOKEN": catalysttest.TestToken, "CATALYST_MCP_URL": srv.URL})
	for _, args := range [][]string{{"scan", "--project", "default"}, {"runs", "--project", "default"}} {
		streams, out, errOut := TestStreams("", false)
		if code := Execute(context.Background(), NewFactory(streams, env), args); code != ExitOK {
			t.Errorf("twice %v: exit %d: %s%s", args, code, errOut, out)
		}
	}
}

// Item 8: piped CLI rows keep the identity the user gives; a flag the
// history contradicts is an error naming both, never silently dropped.
func TestRealSourceItem8IdentityOfPipedRows(t *testing.T) {
	rows, err := os.ReadFile(rsFile("dapr-cli-v1.17.0", "activity-retry"))
	if err != nil {
		t.Fatal(err)
	}
	run := rsShow(t, string(rows), "-", "--app", "orders", "--project", "default").Runs[0]
	if run.Run.Project.Name != "default" {
		t.Errorf("--project default given with standard input: project %q", run.Run.Project.Name)
	}
	h := newHarness(t)
	h.in = string(rows)
	r := h.run("show", "-", "-o", "json", "--app", "payments")
	if r.code == ExitOK || !strings.Contains(r.errOut, "payments") || !strings.Contains(r.errOut, "orders") {
		t.Errorf("--app payments on rows of app orders: exit %d, stderr %q; want an error naming both", r.code, r.errOut)
	}
}

// Item 5, Dapr 1.16: a rerun made by Dapr 1.16 copies its source's
// executionStarted and marks nothing (dapr/dapr v1.16.x
// pkg/actors/targets/workflow/orchestrator/fork/fork.go; durabletask-go
// v0.9.0–v0.10.2, which v1.16.x pins, has no rerunParentInstanceInfo).
// Read live under its own id, `twice show` reads it as that run, links
// that run, and says in text and JSON that its start names order-5005 —
// with no fork event made up.
func TestRealSourceItem5UnmarkedRerunReadLive(t *testing.T) {
	srv := catalysttest.New(catalysttest.Options{})
	defer srv.Close()
	doc, err := os.ReadFile(rsFile("protojson-durabletask-go-v0.10.1", "rerun"))
	if err != nil {
		t.Fatal(err)
	}
	srv.Inject(catalysttest.Fault{On: catalysttest.ToolGetRun, Kind: catalysttest.FaultToolText, Body: string(doc)})
	vars := map[string]string{"CATALYST_TOKEN": catalysttest.TestToken, "CATALYST_MCP_URL": srv.URL}
	args := []string{"show", "order-5005-r1", "--app", "orders", "--project", "default"}

	h := newHarness(t)
	h.env = testEnv(t, vars)
	r := h.runReal(append(args, "-o", "json")...)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.errOut)
	}
	var got struct {
		Runs []struct {
			Run struct {
				ID      string          `json:"id"`
				RerunOf json.RawMessage `json:"rerun_of"`
				Start   *struct {
					ID   string `json:"id"`
					Note string `json:"note"`
				} `json:"start_names_other_run"`
			} `json:"run"`
			Link string `json:"link"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(r.out), &got); err != nil || len(got.Runs) != 1 {
		t.Fatalf("%v\n%s", err, r.out)
	}
	run := got.Runs[0]
	if run.Run.ID != "order-5005-r1" || !strings.Contains(run.Link, "/workflows/orders/order-5005-r1") || strings.Contains(run.Link, "order-5005?") {
		t.Errorf("id %q, link %q; want the run asked for", run.Run.ID, run.Link)
	}
	if s := run.Run.Start; s == nil || s.ID != "order-5005" || !strings.Contains(s.Note, "does not mark reruns") ||
		!strings.Contains(s.Note, "wrong run") || run.Run.RerunOf != nil {
		t.Errorf("start_names_other_run %+v, rerun_of %s; want order-5005 named, no rerun fork", s, run.Run.RerunOf)
	}

	h = newHarness(t)
	h.env = testEnv(t, vars)
	r = h.runReal(args...)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.errOut)
	}
	for _, want := range []string{"Run order-5005-r1", `names run "order-5005", not this run: likely a rerun of "order-5005"`,
		"which event a rerun started from is not known", "/workflows/orders/order-5005-r1"} {
		if !strings.Contains(r.out, want) {
			t.Errorf("show lacks %q:\n%s", want, r.out)
		}
	}
	if strings.Contains(r.out, "Rerun ") || strings.Contains(r.out, "/workflows/orders/order-5005?") {
		t.Errorf("show invents a fork or links the source run:\n%s", r.out)
	}
}
