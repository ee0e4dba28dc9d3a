package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/twice-cli/twice/catalyst"
)

// manyDir is a folder of two saved histories (and what twice does not
// read in a folder: a sub-folder, a hidden file, a file not named .json).
func manyDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range map[string]string{
		"charge.json":     chargeHistory("charge_card", "POST https://pay.example/charges: 503 Service Unavailable", `{"order_id":"A-7731"}`),
		"clean.json":      cleanHistory,
		".hidden.json":    "not a history",
		"notes.txt":       "not a history",
		"sub/nested.json": "not a history",
	} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestShowManyOnATerminalOpensTheRunList: twice show over several files or
// a folder opens the run list over them, as for the demos (issue 23, item
// 7: it used to say "accepts 1 arg(s)", and a folder suggested a glob).
func TestShowManyOnATerminalOpensTheRunList(t *testing.T) {
	dir := manyDir(t)
	for name, args := range map[string][]string{
		"files":  {"show", filepath.Join(dir, "charge.json"), filepath.Join(dir, "clean.json")},
		"folder": {"show", dir},
	} {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t)
			h.tty, h.tuiErr = true, nil
			r := h.run(args...)
			if r.code != ExitOK || len(h.tuiCalls) != 1 {
				t.Fatalf("exit %d, %d views: %s", r.code, len(h.tuiCalls), r.errOut)
			}
			req := h.tuiCalls[0]
			if req.Ref != nil || req.History != nil {
				t.Fatalf("the view opened one run, not the list: %+v", req)
			}
			if !strings.Contains(req.SourceName, "2 history files") {
				t.Errorf("source name %q", req.SourceName)
			}
			list, err := req.Source.ListRuns(context.Background(), catalyst.RunQuery{})
			if err != nil || list.Partial || len(list.Runs) != 2 {
				t.Fatalf("list: %+v, %v", list, err)
			}
			ids := map[string]bool{}
			for _, run := range list.Runs {
				ids[run.ID] = true
				// Each run opens from its own file, checked as the command
				// line checks a file.
				h, err := req.Source.History(context.Background(), catalyst.RunRef{ID: run.ID, Location: run.Provenance.Location})
				if err != nil || h.Run.ID != run.ID {
					t.Errorf("open %s: %v", run.ID, err)
				}
			}
			if !ids["A-7731"] || !ids["order-1001"] {
				t.Errorf("runs %v", ids)
			}
		})
	}
}

// TestShowManyPipedPrintsTheScanSummary: piped, twice show over several
// histories prints the scan summary (worst first), not every run in full;
// JSON writes every run.
func TestShowManyPipedPrintsTheScanSummary(t *testing.T) {
	dir := manyDir(t)
	r := newHarness(t).run("show", dir)
	if r.code != ExitOK {
		t.Fatalf("exit %d: %s", r.code, r.errOut)
	}
	if !strings.HasPrefix(r.out, "Scan summary: 2 runs, 1 with findings") {
		t.Errorf("no summary first:\n%s", r.out)
	}
	if strings.Index(r.out, "A-7731") > strings.Index(r.out, "order-1001") {
		t.Errorf("the run with a finding is not first:\n%s", r.out)
	}
	if strings.Contains(r.out, "Invocations") || strings.Contains(r.out, separator) {
		t.Errorf("piped show of many printed the runs in full:\n%s", r.out)
	}
	r = newHarness(t).run("show", dir, "-o", "markdown")
	if r.code != ExitOK || !strings.HasPrefix(r.out, "## Scan summary: 2 runs") || strings.Contains(r.out, "### Invocations") {
		t.Errorf("markdown: exit %d\n%s", r.code, r.out)
	}
	r = newHarness(t).run("show", dir, "-o", "json")
	if r.code != ExitOK || strings.Count(r.out, `"invocations"`) != 2 {
		t.Errorf("json: exit %d\n%.400s", r.code, r.out)
	}
	// A folder of one history shows that run.
	one := t.TempDir()
	if err := os.WriteFile(filepath.Join(one, "clean.json"), []byte(cleanHistory), 0o600); err != nil {
		t.Fatal(err)
	}
	if r := newHarness(t).run("show", one); r.code != ExitOK || !strings.HasPrefix(r.out, "Run order-1001") {
		t.Errorf("a folder of one: exit %d\n%s\n%s", r.code, r.out, r.errOut)
	}
}

// TestShowManyRefuses: what several arguments cannot be, said plainly.
func TestShowManyRefuses(t *testing.T) {
	dir := manyDir(t)
	charge := filepath.Join(dir, "charge.json")
	empty := t.TempDir()
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"standard input", []string{"show", charge, "-"}, ExitUsage, "- (standard input) is one history"},
		{"a run id", []string{"show", charge, "charge-7731"}, ExitUsage, "a run in Catalyst is shown one at a time"},
		{"a missing file", []string{"show", charge, filepath.Join(dir, "nope.json")}, ExitError, "does not exist"},
		{"--timeline", []string{"show", dir, "--timeline"}, ExitUsage, "--timeline draws one run"},
		{"--run", []string{"show", dir, "--run", "x"}, ExitUsage, "--run names one run"},
		{"an empty folder", []string{"show", empty}, ExitError, "holds no history files"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newHarness(t).run(tc.args...)
			if r.code != tc.code || !strings.Contains(r.errOut, tc.want) {
				t.Errorf("exit %d (want %d), stderr %q (want %q)", r.code, tc.code, r.errOut, tc.want)
			}
		})
	}
	// A file among them that is not a history: the others are summarised,
	// the exit status says one was not read.
	bad := filepath.Join(t.TempDir(), "bad.json")
	if err := os.WriteFile(bad, []byte(`{"nope":1}`), 0o600); err != nil {
		t.Fatal(err)
	}
	r := newHarness(t).run("show", charge, bad)
	if r.code != ExitError || !strings.Contains(r.out, "1 not read") || !strings.Contains(r.errOut, "1 of 2 runs could not be read") {
		t.Errorf("exit %d\n%s\n%s", r.code, r.out, r.errOut)
	}
}
