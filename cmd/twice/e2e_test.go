package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/twice-cli/twice/catalyst/catalysttest"
)

// e2eRun is the part of a run object in -o json the end-to-end test reads.
type e2eRun struct {
	Source struct {
		Surface string `json:"surface"`
	} `json:"source"`
	Run struct {
		ID          string `json:"id"`
		AppID       string `json:"app_id"`
		DataSharing struct {
			Level    string `json:"level"`
			Filtered bool   `json:"filtered"`
			Inferred bool   `json:"inferred"`
		} `json:"data_sharing"`
	} `json:"run"`
	Events      []json.RawMessage `json:"events"`
	Withheld    []json.RawMessage `json:"withheld"`
	Link        string            `json:"link"`
	Invocations []json.RawMessage `json:"invocations"`
	Findings    []json.RawMessage `json:"findings"`
}

// TestEndToEndBinary runs the built binary against the Catalyst stand-in
// over loopback: runs, show, scan (of a run and of the project), record,
// then show on the recorded file gives the same analysis as the live show:
// the same invocations, findings and withheld payloads. The token appears
// in no output and not in the saved file.
func TestEndToEndBinary(t *testing.T) {
	bin := buildTwice(t)
	srv := catalysttest.New(catalysttest.Options{})
	defer srv.Close()
	dir := t.TempDir()
	env := []string{"HOME=" + dir, "XDG_CONFIG_HOME=" + dir, "PATH=" + os.Getenv("PATH"),
		"CATALYST_TOKEN=" + catalysttest.TestToken, "CATALYST_MCP_URL=" + srv.URL}
	twice := func(args ...string) []byte {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, bin, args...)
		cmd.Env, cmd.Dir = env, dir
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		if err := cmd.Run(); err != nil {
			t.Fatalf("twice %s: %v\nstdout: %.2000s\nstderr: %s", strings.Join(args, " "), err, out.String(), errOut.String())
		}
		if bytes.Contains(out.Bytes(), []byte(catalysttest.TestToken)) || bytes.Contains(errOut.Bytes(), []byte(catalysttest.TestToken)) {
			t.Fatalf("twice %s printed the token", strings.Join(args, " "))
		}
		return out.Bytes()
	}
	decode := func(what string, data []byte, v any) {
		t.Helper()
		if err := json.Unmarshal(data, v); err != nil {
			t.Fatalf("%s: %v\n%.1000s", what, err, data)
		}
	}

	// runs: the run list names the run and its app.
	var list struct {
		Runs []struct {
			ID    string `json:"id"`
			AppID string `json:"app_id"`
		} `json:"runs"`
		Partial bool `json:"partial"`
	}
	decode("runs", twice("runs", "--project", "default", "-o", "json"), &list)
	app := ""
	for _, r := range list.Runs {
		if r.ID == "charge-7731" {
			app = r.AppID
		}
	}
	if app != "payments" || list.Partial {
		t.Fatalf("runs: %+v", list)
	}

	// show, live.
	var shown struct{ Runs []e2eRun }
	decode("show", twice("show", "charge-7731", "--app", app, "--project", "default", "-o", "json"), &shown)
	if len(shown.Runs) != 1 {
		t.Fatalf("show: %d runs", len(shown.Runs))
	}
	lv := shown.Runs[0]
	if lv.Source.Surface != "catalyst-mcp" || lv.Run.ID != "charge-7731" || !lv.Run.DataSharing.Filtered ||
		lv.Run.DataSharing.Level != "metadata" || len(lv.Withheld) == 0 || len(lv.Findings) == 0 || len(lv.Invocations) == 0 {
		t.Fatalf("live show: %+v", lv)
	}

	// scan of the run: the same analysis as show.
	var scanned struct{ Runs []e2eRun }
	decode("scan", twice("scan", "charge-7731", "--app", app, "--project", "default", "-o", "json"), &scanned)
	if len(scanned.Runs) != 1 || !sameJSON(scanned.Runs[0].Findings, lv.Findings) || !sameJSON(scanned.Runs[0].Invocations, lv.Invocations) {
		t.Errorf("scan of the run differs from show")
	}

	// scan of the project: every listed run is scanned, this one flagged.
	var fleet struct {
		Summary struct {
			RunsListed       int `json:"runs_listed"`
			RunsScanned      int `json:"runs_scanned"`
			RunsWithFindings int `json:"runs_with_findings"`
			WorstRuns        []struct {
				ID string `json:"id"`
			} `json:"worst_runs"`
			NotRead []json.RawMessage `json:"not_read"`
		} `json:"summary"`
	}
	decode("project scan", twice("scan", "--project", "default", "--since", "3650d", "-o", "json"), &fleet)
	fs := fleet.Summary
	flagged := false
	for _, w := range fs.WorstRuns {
		flagged = flagged || w.ID == "charge-7731"
	}
	if fs.RunsListed != len(list.Runs) || fs.RunsScanned != fs.RunsListed || len(fs.NotRead) != 0 || fs.RunsWithFindings == 0 || !flagged {
		t.Errorf("project scan summary: %+v", fs)
	}

	// record, then show the file.
	file := filepath.Join(dir, "charge-7731.json")
	twice("record", "charge-7731", "--app", app, "--project", "default", "-o", file)
	info, err := os.Stat(file)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("recording: %v, mode %v", err, info.Mode())
	}
	if b, _ := os.ReadFile(file); bytes.Contains(b, []byte(catalysttest.TestToken)) {
		t.Fatal("the recording holds the token")
	}
	var replayed struct{ Runs []e2eRun }
	decode("show FILE", twice("show", file, "-o", "json"), &replayed)
	if len(replayed.Runs) != 1 {
		t.Fatalf("show FILE: %d runs", len(replayed.Runs))
	}
	rp := replayed.Runs[0]
	if rp.Source.Surface != "file" || rp.Run.ID != lv.Run.ID || rp.Run.AppID != lv.Run.AppID || rp.Link != lv.Link || rp.Run.DataSharing != lv.Run.DataSharing {
		t.Errorf("replayed run %+v, live %+v", rp.Run, lv.Run)
	}
	for name, pair := range map[string][2][]json.RawMessage{
		"invocations": {lv.Invocations, rp.Invocations},
		"findings":    {lv.Findings, rp.Findings},
		"withheld":    {lv.Withheld, rp.Withheld},
		"events":      {lv.Events, rp.Events},
	} {
		if !sameJSON(pair[0], pair[1]) {
			t.Errorf("%s differ between the live show and the recording's:\nlive     %s\nrecorded %s", name, pair[0], pair[1])
		}
	}
}

// sameJSON compares two lists of JSON values by meaning.
func sameJSON(a, b []json.RawMessage) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		var x, y any
		if json.Unmarshal(a[i], &x) != nil || json.Unmarshal(b[i], &y) != nil || !reflect.DeepEqual(x, y) {
			return false
		}
	}
	return true
}
