package cli

// End-to-end checks of issue 22's items through `twice show FILE`, on the
// histories of detect's engine suite: workflows run on durabletask-go
// v0.12.1's own engine, read as protojson and as the Dapr CLI v1.18.0's
// rows (detect/testdata/engine; detect/engine_test.go says how they are
// made). Each reads only the command line's output, which twice had before
// the items were fixed.

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// engFile is the path of one file of the engine suite.
func engFile(name string) string {
	return filepath.Join("..", "..", "..", "..", "detect", "testdata", "engine", name)
}

// engHeader runs twice show with -o text and returns its header's lines
// by their label ("Status", "Why", ...), and the whole output.
func engHeader(t *testing.T, stdin string, args ...string) (map[string]string, string) {
	t.Helper()
	h := newHarness(t)
	h.in = stdin
	r := h.run(append([]string{"show"}, append(args, "-o", "text")...)...)
	if r.code != ExitOK {
		t.Fatalf("twice show %v: exit %d: %s", args, r.code, r.errOut)
	}
	head := map[string]string{}
	for _, l := range strings.Split(r.out, "\n") {
		if l == "" {
			break
		}
		if k, v, ok := strings.Cut(l, " "); ok {
			head[k] = strings.TrimSpace(v)
		}
	}
	return head, r.out
}

// engWithMetadata is the run's protojson with the sidecar's metadata
// beside its events, its status replaced by status when that is not "".
func engWithMetadata(t *testing.T, name, status string) string {
	t.Helper()
	var hist struct {
		Events json.RawMessage `json:"events"`
	}
	var inst struct {
		WorkflowState struct {
			InstanceID     string `json:"instanceId"`
			WorkflowStatus string `json:"workflowStatus"`
		} `json:"workflowState"`
	}
	for file, v := range map[string]any{name + ".history.json": &hist, name + ".instance.json": &inst} {
		b, err := os.ReadFile(engFile(file))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, v); err != nil {
			t.Fatal(err)
		}
	}
	if status == "" {
		status = inst.WorkflowState.WorkflowStatus
	}
	meta, err := json.Marshal(map[string]string{"instanceId": inst.WorkflowState.InstanceID, "runtimeStatus": status})
	if err != nil {
		t.Fatal(err)
	}
	return string(meta[:len(meta)-1]) + `,"events":` + string(hist.Events) + "}"
}

// A suspended run asked to terminate: the engine records the request,
// completes nothing and keeps the run SUSPENDED. twice said "terminated";
// it says what happened, and a status the source gives wins, the
// difference said.
func TestEngineTerminateWhileSuspended(t *testing.T) {
	const name = "terminate-while-suspended"
	for _, c := range []struct {
		what, stdin string
		args        []string
		status      string
		diff        bool
	}{
		{what: "protojson", args: []string{engFile(name + ".history.json")}, status: "suspended"},
		{what: "dapr cli rows", args: []string{engFile(name + ".cli.json")}, status: "suspended"},
		{what: "protojson with the sidecar's metadata", stdin: engWithMetadata(t, name, ""), args: []string{"-"},
			status: "suspended"},
		{what: "metadata that says terminated", stdin: engWithMetadata(t, name, "TERMINATED"), args: []string{"-"},
			status: "terminated", diff: true},
	} {
		head, _ := engHeader(t, c.stdin, c.args...)
		if st, _, _ := strings.Cut(head["Status"], " "); st != c.status {
			t.Errorf("%s: Status %q, want %q", c.what, head["Status"], c.status)
		}
		why := head["Why"]
		if !strings.Contains(why, "a termination was requested while the run was suspended") ||
			!strings.Contains(why, "no completion followed") {
			t.Errorf("%s: Why %q does not say the termination was requested while suspended and not completed", c.what, why)
		}
		if got := strings.Contains(why, "the source reports terminated; the history's events end suspended"); got != c.diff {
			t.Errorf("%s: Why %q: says the reported and the history's status differ: %v, want %v", c.what, why, got, c.diff)
		}
	}
	h := newHarness(t)
	r := h.run("show", engFile(name+".history.json"), "-o", "json")
	var doc struct {
		Runs []struct {
			Run map[string]any `json:"run"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(r.out), &doc); err != nil || len(doc.Runs) != 1 {
		t.Fatalf("json: %v\n%s", err, r.out)
	}
	if run := doc.Runs[0].Run; run["status_normalized"] != "suspended" || run["unfinished_termination_at"] == nil {
		t.Errorf("json run: status %v, unfinished_termination_at %v", run["status_normalized"], run["unfinished_termination_at"])
	}
}

// A terminated run on the Dapr CLI's rows: the termination's row prints
// no reason, but the run's completion prints its output, which the engine
// sets to the termination's output. twice said "the reason is not in this
// format" two lines below that output.
func TestEngineTerminationOutputOnCLIRows(t *testing.T) {
	for _, name := range []string{"terminate-retry-pending", "terminate-open-attempt"} {
		head, _ := engHeader(t, "", engFile(name+".cli.json"))
		if want := "terminated: cancelled by ops (the termination's output, printed as the run's)"; head["Why"] != want {
			t.Errorf("%s: Why %q, want %q", name, head["Why"], want)
		}
	}
}

// A retry timer that had not fired when the run was terminated never led
// to an attempt: twice said "another attempt may follow".
func TestEngineRetryOfAnEndedRun(t *testing.T) {
	for _, file := range []string{"terminate-retry-pending.history.json", "terminate-retry-pending.cli.json"} {
		_, out := engHeader(t, "", engFile(file))
		if strings.Contains(out, "another attempt may follow") || !strings.Contains(out, "when the run ended: the retry never ran") {
			t.Errorf("%s: the pending retry of a terminated run:\n%s", file, out)
		}
	}
}

// An attempt still open when the run was terminated (its first attempt
// timed out; the retry hung): the invocation said it took as long as the
// first attempt. It says it is open, measured to the end of what the
// history tells.
func TestEngineOpenAttemptIsOpen(t *testing.T) {
	for _, file := range []string{"terminate-open-attempt.history.json", "terminate-open-attempt.cli.json"} {
		_, out := engHeader(t, "", engFile(file))
		var row string
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(strings.TrimSpace(l), "1  ChargeCard") {
				row = l
				break
			}
		}
		if !strings.Contains(row, "unknown") || !strings.Contains(row, "open ≥") {
			t.Errorf("%s: the invocation's row %q does not say it is open", file, row)
		}
	}
}
