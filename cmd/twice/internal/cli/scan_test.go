package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/twice-cli/twice/fixtures"
)

// demoFiles writes every bundled demo to a folder, as `twice record` would
// have, and returns their paths in name order.
func demoFiles(t *testing.T) []string {
	t.Helper()
	dir := t.TempDir()
	var paths []string
	for _, d := range fixtures.Demos() {
		data, err := os.ReadFile(filepath.Join("..", "..", "..", "..", "fixtures", "demo", d.Name+".json"))
		if err != nil {
			t.Fatalf("demo %s: %v", d.Name, err)
		}
		p := filepath.Join(dir, d.Name+".json")
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	sort.Strings(paths)
	return paths
}

// severityRank orders the summary's severities.
var severityRank = map[string]int{"high": 3, "medium": 2, "low": 1, "none": 0}

// TestScanOfManyFilesBeginsWithASummary: `scan fixtures/demo/*.json` prints
// one line per run first, the most severe first, so the first high finding
// is on the first lines, not after every earlier run; then the runs. A
// file that could not be read is in the summary too. One run has no
// summary.
func TestScanOfManyFilesBeginsWithASummary(t *testing.T) {
	files := demoFiles(t)
	bad := writeFile(t, "bad.json", `{"events":[`)
	r := newHarness(t).run(append(append([]string{"scan"}, files...), bad)...)
	if r.code != ExitError {
		t.Fatalf("exit %d, want 1 (one file not read)\n%s", r.code, r.errOut)
	}
	lines := strings.Split(r.out, "\n")
	if !strings.HasPrefix(lines[0], "Scan summary: "+strconv.Itoa(len(files))+" runs, ") || !strings.HasSuffix(lines[0], "; 1 not read") {
		t.Errorf("headline %q", lines[0])
	}
	prev := 4
	for i, f := range files {
		l := lines[2+i]
		fields := strings.Fields(l)
		if len(fields) < 6 {
			t.Fatalf("summary line %q", l)
		}
		rank, ok := severityRank[fields[1]]
		if !ok || rank > prev {
			t.Errorf("summary line %d %q is not in severity order", i, l)
		}
		prev = rank
		if !strings.Contains(r.out[:strings.Index(r.out, separator)], f) {
			t.Errorf("the summary does not name %s", f)
		}
	}
	if fields := strings.Fields(lines[2]); fields[1] != "high" {
		t.Errorf("the first run listed is not a high one: %q", lines[2])
	}
	if !strings.Contains(r.out[:strings.Index(r.out, separator)], "Not read: 1") {
		t.Errorf("the summary does not list the file not read:\n%s", r.out)
	}
	if got := strings.Count(r.out, "\nRun "); got != len(files) {
		t.Errorf("%d runs printed after the summary, want %d", got, len(files))
	}

	md := newHarness(t).run(append([]string{"scan", "-o", "markdown"}, files...)...)
	if md.code != ExitOK || !strings.HasPrefix(md.out, "## Scan summary: ") || strings.Index(md.out, "| ▲ high |") > strings.Index(md.out, "## Run ") {
		t.Errorf("markdown: exit %d, no summary first:\n%.600s", md.code, md.out)
	}

	one := newHarness(t).run("scan", files[0])
	if strings.Contains(one.out, "Scan summary") {
		t.Errorf("a scan of one run prints a summary:\n%.300s", one.out)
	}
	for _, format := range []string{"json", "jsonl"} {
		r := newHarness(t).run("scan", "-o", format, files[0], files[1])
		if strings.Contains(r.out, "Scan summary") || strings.Contains(r.out, "not_read") {
			t.Errorf("%s: a summary or not_read with every file read:\n%.300s", format, r.out)
		}
	}
}

// TestScanJSONListsFilesNotRead: in JSON, a scan of files lists the files
// it could not read under not_read, besides saying so on stderr.
func TestScanJSONListsFilesNotRead(t *testing.T) {
	bad := writeFile(t, "bad.json", `{"events":[`)
	good := chargeFile(t)
	r := newHarness(t).run("scan", "-o", "json", bad, good)
	if r.code != ExitError {
		t.Fatalf("exit %d", r.code)
	}
	var doc struct {
		Runs    []json.RawMessage `json:"runs"`
		NotRead []struct {
			Source string `json:"source"`
			Error  string `json:"error"`
		} `json:"not_read"`
	}
	if err := json.Unmarshal([]byte(r.out), &doc); err != nil {
		t.Fatalf("%v\n%s", err, r.out)
	}
	if len(doc.Runs) != 1 || len(doc.NotRead) != 1 || doc.NotRead[0].Source != bad || !strings.Contains(doc.NotRead[0].Error, "invalid JSON") {
		t.Errorf("runs %d, not_read %+v", len(doc.Runs), doc.NotRead)
	}
	if !strings.Contains(r.errOut, bad) {
		t.Errorf("stderr does not name the file: %q", r.errOut)
	}
}

// TestFileErrorsNameThePathOnce: an error about a file names it once, in
// show and in scan (the loader's and the system's errors already name it).
func TestFileErrorsNameThePathOnce(t *testing.T) {
	bad := writeFile(t, "cut.json", `{"events":[`)
	notJSON := writeFile(t, "text.json", "hello")
	empty := writeFile(t, "empty.json", "")
	good := chargeFile(t)
	for _, file := range []string{bad, notJSON, empty} {
		for _, args := range [][]string{{"show", file}, {"scan", file, good}, {"scan", "-o", "json", file, good}} {
			r := newHarness(t).run(args...)
			if r.code != ExitError {
				t.Errorf("%v: exit %d", args, r.code)
			}
			first := strings.SplitN(r.errOut, "\n", 2)[0]
			if n := strings.Count(first, file); n != 1 {
				t.Errorf("%v: %q names the file %d times, want once", args, first, n)
			}
		}
	}
}

// TestOverdueAfterFlag: --overdue-after sets how long a pending attempt of
// a running run may wait before its outcome is called unknown; a negative
// value is a usage error.
func TestOverdueAfterFlag(t *testing.T) {
	// The worker-crash demo's create_shipment attempt has waited 6.3 h.
	def := newHarness(t).run("scan", "demo:worker-crash")
	if !strings.Contains(def.out, "unknown-outcome") {
		t.Fatalf("the demo no longer has an unknown outcome at the default:\n%s", def.out)
	}
	long := newHarness(t).run("scan", "--overdue-after", "24h", "demo:worker-crash")
	if long.code != ExitOK || strings.Contains(long.out, "unknown-outcome") {
		t.Errorf("--overdue-after 24h: exit %d, still unknown:\n%s", long.code, long.out)
	}
	short := newHarness(t).run("scan", "--overdue-after", "1h", "-o", "json", "demo:worker-crash")
	if !strings.Contains(short.out, `"id":"unknown-outcome"`) {
		t.Errorf("--overdue-after 1h: no unknown outcome:\n%.400s", short.out)
	}
	for _, cmd := range []string{"scan", "show"} {
		for _, v := range []string{"-5m", "soon"} {
			if r := newHarness(t).run(cmd, "--overdue-after", v, "demo:worker-crash"); r.code != ExitUsage {
				t.Errorf("%s --overdue-after %s: exit %d, want 2 (%s)", cmd, v, r.code, r.errOut)
			}
		}
	}
	// show takes it too.
	if r := newHarness(t).run("show", "--overdue-after", "24h", "-o", "text", "demo:worker-crash"); r.code != ExitOK || strings.Contains(r.out, "unknown-outcome") {
		t.Errorf("show --overdue-after 24h: exit %d, still unknown:\n%s", r.code, r.out)
	}
	if r := newHarness(t).run("show", "-o", "text", "demo:worker-crash"); !strings.Contains(r.out, "unknown-outcome") {
		t.Errorf("show at the default: no unknown outcome:\n%s", r.out)
	}
}
