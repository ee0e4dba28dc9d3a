package cli

import (
	"context"
	"encoding/json"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/twice-cli/twice/catalyst/catalysttest"
)

// scanDoc is the part of scan -o json the end-to-end test compares.
type scanDoc struct {
	Runs []struct {
		Source struct {
			Surface  string `json:"surface"`
			Location string `json:"location"`
		} `json:"source"`
		Run struct {
			ID          string `json:"id"`
			AppID       string `json:"app_id"`
			DataSharing struct {
				Level    string `json:"level"`
				Filtered bool   `json:"filtered"`
			} `json:"data_sharing"`
			Input struct {
				State string `json:"state"`
			} `json:"input"`
		} `json:"run"`
		Events        []json.RawMessage `json:"events"`
		Withheld      []json.RawMessage `json:"withheld"`
		Link          string            `json:"link"`
		Invocations   []json.RawMessage `json:"invocations"`
		Findings      []json.RawMessage `json:"findings"`
		SkippedChecks []json.RawMessage `json:"skipped_checks"`
	} `json:"runs"`
}

func decodeScan(t *testing.T, r result) scanDoc {
	t.Helper()
	if r.code != ExitOK {
		t.Fatalf("exit %d: %s", r.code, r.errOut)
	}
	var doc scanDoc
	if err := json.Unmarshal([]byte(r.out), &doc); err != nil {
		t.Fatalf("%v\n%.500s", err, r.out)
	}
	if len(doc.Runs) != 1 {
		t.Fatalf("%d runs", len(doc.Runs))
	}
	return doc
}

// TestEndToEndOverLoopback drives the real live client against the
// in-process Catalyst stand-in: runs, show, scan, record, then show on the
// recording gives the same analysis as the live read.
func TestEndToEndOverLoopback(t *testing.T) {
	srv := catalysttest.New(catalysttest.Options{})
	defer srv.Close()
	env := testEnv(t, map[string]string{"CATALYST_TOKEN": catalysttest.TestToken, "CATALYST_MCP_URL": srv.URL})
	run := func(args ...string) result {
		t.Helper()
		streams, out, errOut := TestStreams("", false)
		code := Execute(context.Background(), NewFactory(streams, env), args)
		r := result{code: code, out: out.String(), errOut: errOut.String()}
		if strings.Contains(r.out+r.errOut, catalysttest.TestToken) {
			t.Fatalf("twice %v printed the token", args)
		}
		return r
	}

	r := run("runs", "--project", "default", "-o", "json")
	if r.code != ExitOK {
		t.Fatalf("runs: exit %d: %s", r.code, r.errOut)
	}
	var list struct {
		Runs []struct {
			ID    string `json:"id"`
			AppID string `json:"app_id"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(r.out), &list); err != nil || len(list.Runs) == 0 {
		t.Fatalf("runs json: %v\n%s", err, r.out)
	}
	var id, app string
	for _, x := range list.Runs {
		if x.ID == "charge-7731" {
			id, app = x.ID, x.AppID
		}
	}
	if id == "" {
		t.Fatalf("charge-7731 not listed: %+v", list.Runs)
	}
	if r := run("runs", "--project", "default"); r.code != ExitOK || !strings.Contains(r.out, "charge-7731") {
		t.Errorf("runs text: exit %d\n%s", r.code, r.out)
	}

	r = run("show", id, "--app", app, "--project", "default")
	if r.code != ExitOK || !strings.Contains(r.out, "Run charge-7731") ||
		!strings.Contains(r.out, "withheld: not shared at this organization's data-sharing level") ||
		!strings.Contains(r.out, "https://catalyst.diagrid.io/workflows/payments/charge-7731?project=default") {
		t.Errorf("show live: exit %d, stderr %q\n%s", r.code, r.errOut, r.out)
	}

	live := decodeScan(t, run("scan", id, "--app", app, "--project", "default", "-o", "json"))
	lr := live.Runs[0]
	if lr.Source.Surface != "catalyst-mcp" || !lr.Run.DataSharing.Filtered || lr.Run.Input.State != "withheld" || len(lr.Withheld) == 0 || len(lr.Findings) == 0 {
		t.Errorf("live scan: %+v", lr)
	}

	file := filepath.Join(t.TempDir(), "charge-7731.json")
	if r := run("record", id, "--app", app, "--project", "default", "-o", file); r.code != ExitOK {
		t.Fatalf("record: exit %d: %s", r.code, r.errOut)
	}
	saved := decodeScan(t, run("show", file, "-o", "json"))
	sr := saved.Runs[0]
	if sr.Source.Surface != "file" || sr.Run.ID != lr.Run.ID || sr.Run.AppID != lr.Run.AppID || sr.Link != lr.Link {
		t.Errorf("recording's run: %+v, live %+v", sr, lr)
	}
	// Which payloads are withheld, and which checks could not run, are the
	// same (cmd/twice/e2e_test.go, on the built binary, also compares the
	// level and its wording).
	for name, pair := range map[string][2]any{
		"events":         {lr.Events, sr.Events},
		"withheld":       {keys(t, lr.Withheld, "event_index", "event_id", "field"), keys(t, sr.Withheld, "event_index", "event_id", "field")},
		"invocations":    {lr.Invocations, sr.Invocations},
		"findings":       {lr.Findings, sr.Findings},
		"skipped_checks": {keys(t, lr.SkippedChecks, "check", "invocation"), keys(t, sr.SkippedChecks, "check", "invocation")},
	} {
		if !reflect.DeepEqual(pair[0], pair[1]) {
			t.Errorf("%s differ between the live read and the recording:\nlive  %s\nsaved %s", name, pair[0], pair[1])
		}
	}
}

func TestEndToEndNotAuthenticated(t *testing.T) {
	srv := catalysttest.New(catalysttest.Options{})
	defer srv.Close()
	for name, vars := range map[string]map[string]string{
		"no token":    {"CATALYST_MCP_URL": srv.URL},
		"wrong token": {"CATALYST_MCP_URL": srv.URL, "CATALYST_TOKEN": "cat_WRONG"},
	} {
		t.Run(strings.ReplaceAll(name, " ", "_"), func(t *testing.T) {
			streams, out, errOut := TestStreams("", false)
			code := Execute(context.Background(), NewFactory(streams, testEnv(t, vars)), []string{"runs", "--project", "default"})
			if code != ExitAuth {
				t.Errorf("exit %d, want 4; stdout %q stderr %q", code, out, errOut)
			}
			if strings.Contains(errOut.String(), "cat_WRONG") {
				t.Errorf("the token was printed")
			}
		})
	}
}

// keys keeps the named members of each object.
func keys(t *testing.T, objs []json.RawMessage, names ...string) []map[string]any {
	t.Helper()
	out := make([]map[string]any, len(objs))
	for i, raw := range objs {
		var m map[string]any
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatal(err)
		}
		out[i] = map[string]any{}
		for _, n := range names {
			out[i][n] = m[n]
		}
	}
	if len(out) == 0 {
		t.Fatalf("nothing to compare")
	}
	return out
}

// TestFleetOverAServerWithoutFilters: a list tool that declares no time
// window, status or workflow-name argument does not stop runs or a project
// scan: twice lists every run, keeps the matching ones itself and says so
// on standard error, with or without the filters given explicitly;
// --since all asks for no window.
func TestFleetOverAServerWithoutFilters(t *testing.T) {
	for _, omit := range [][]string{nil, {"startTimeFrom", "startTimeTo"}, {"startTimeFrom", "startTimeTo", "status", "workflowName"}} {
		srv := catalysttest.New(catalysttest.Options{OmitListArgs: omit})
		env := testEnv(t, map[string]string{"CATALYST_TOKEN": catalysttest.TestToken, "CATALYST_MCP_URL": srv.URL})
		run := func(args ...string) result {
			t.Helper()
			streams, out, errOut := TestStreams("", false)
			code := Execute(context.Background(), NewFactory(streams, env), args)
			return result{code: code, out: out.String(), errOut: errOut.String()}
		}
		for _, args := range [][]string{
			{"scan", "--project", "default"},
			{"runs", "--project", "default"},
			{"scan", "--project", "default", "--since", "30d", "--status", "failed", "-o", "json"},
			{"runs", "--project", "default", "--since", "all", "--workflow", "ProcessOrder"},
		} {
			r := run(args...)
			if r.code != ExitOK {
				t.Errorf("omit %v: twice %v: exit %d: %s", omit, args, r.code, r.errOut)
				continue
			}
			window := strings.Contains(r.errOut, "no start-time argument")
			// scan has a default window (24h), runs none; "all" is none.
			asked := (args[0] == "scan" || slices.Contains(args, "--since")) && !slices.Contains(args, "all")
			wantWindow := len(omit) > 0 && asked
			if window != wantWindow {
				t.Errorf("omit %v: twice %v: says it filtered the window itself: %v, want %v\n%s", omit, args, window, wantWindow, r.errOut)
			}
			status := strings.Contains(r.errOut, "no status argument")
			if want := len(omit) > 2 && slices.Contains(args, "--status"); status != want {
				t.Errorf("omit %v: twice %v: says it filtered the status itself: %v, want %v\n%s", omit, args, status, want, r.errOut)
			}
		}
		srv.Close()
	}
}
