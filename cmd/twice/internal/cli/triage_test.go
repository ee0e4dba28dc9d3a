package cli

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/twice-cli/twice/fixtures"
)

// TestScanReadsTheRestWhateverTheReason: a scan of several arguments reads
// every one it can and lists the others under not_read, whatever the
// reason — a corrupt file, a missing one, an argument that names nothing —
// and exits 1; a single argument that names nothing is still an error of
// its own.
func TestScanReadsTheRestWhateverTheReason(t *testing.T) {
	bad := writeFile(t, "bad.json", `{"events":[`)
	missing := filepath.Join(t.TempDir(), "missing.json")
	good := chargeFile(t)
	r := newHarness(t).run("scan", "-o", "json", missing, bad, good, "no-such-run")
	if r.code != ExitError {
		t.Fatalf("exit %d\n%s", r.code, r.errOut)
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
	var sources []string
	for _, n := range doc.NotRead {
		sources = append(sources, n.Source)
	}
	if len(doc.Runs) != 1 || strings.Join(sources, ",") != missing+","+bad+",no-such-run" {
		t.Errorf("runs %d, not_read %v", len(doc.Runs), sources)
	}
	if !strings.Contains(r.errOut, "3 of 4 runs could not be read") {
		t.Errorf("stderr: %q", r.errOut)
	}
	text := newHarness(t).run("scan", missing, good)
	if text.code != ExitError || !strings.Contains(text.out, "Run A-7731") || !strings.Contains(text.errOut, "missing.json\" does not exist") {
		t.Errorf("text: exit %d, the run or the missing file's error is not said:\n%s\n%s", text.code, text.out, text.errOut)
	}
	if one := newHarness(t).run("scan", missing); one.code == ExitOK || one.out != "" {
		t.Errorf("a scan of one missing file: exit %d, out %q", one.code, one.out)
	}
}

// TestUnknownActivityNamesAreWarned: a name given to --read-only or
// --side-effect that matches no activity of the runs read is said on
// standard error, with the activities there are; a name that matches
// (in any case) is not.
func TestUnknownActivityNamesAreWarned(t *testing.T) {
	good := chargeFile(t)
	r := newHarness(t).run("scan", good, "--read-only", "ChargeCrad", "--side-effect", "CHARGE_card")
	if !strings.Contains(r.errOut, `twice: --read-only "ChargeCrad" matches no activity in the runs read (their activities: charge_card)`) {
		t.Errorf("no warning for a name that matches nothing:\n%s", r.errOut)
	}
	if strings.Contains(r.errOut, "CHARGE_card") {
		t.Errorf("a name that matches was warned about:\n%s", r.errOut)
	}
	show := newHarness(t).run("show", good, "--side-effect", "Nothing")
	if !strings.Contains(show.errOut, `--side-effect "Nothing" matches no activity`) {
		t.Errorf("show does not warn:\n%s", show.errOut)
	}
}

// TestShowTimeline: twice show --timeline prints the run's timeline as
// text, the view's picture, 100 columns wide when piped.
func TestShowTimeline(t *testing.T) {
	r := newHarness(t).run("show", "demo:payment-timeout", "--timeline")
	if r.code != ExitOK {
		t.Fatalf("exit %d: %s", r.code, r.errOut)
	}
	for _, l := range strings.Split(strings.TrimRight(r.out, "\n"), "\n") {
		if w := len([]rune(l)); w > 100 {
			t.Errorf("a line is %d columns wide: %q", w, l)
		}
	}
	golden.RequireEqual(t, []byte(r.out))
	if bad := newHarness(t).run("show", "demo:payment-timeout", "--timeline", "-o", "json"); bad.code != ExitUsage {
		t.Errorf("--timeline with -o json: exit %d", bad.code)
	}
}

// TestDemoListWraps: on a terminal, twice demo list wraps each description
// under its name to the terminal's width, never splitting an id; piped, a
// fact is one line.
func TestDemoListWraps(t *testing.T) {
	h := newHarness(t)
	f, out, _ := h.factory()
	f.IO.TerminalWidth = func() int { return 80 }
	if code := Execute(t.Context(), f, []string{"demo", "list"}); code != ExitOK {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(strings.TrimRight(out.String(), "\n"), "\n")
	for _, l := range lines {
		if w := len([]rune(l)); w > 80 {
			t.Errorf("a line is %d columns wide: %q", w, l)
		}
	}
	if !regexp.MustCompile(`\n +trip-3391`).MatchString(out.String()) && !strings.Contains(out.String(), "run trip-3391") {
		t.Errorf("an id was split:\n%s", out.String())
	}
	piped := newHarness(t).run("demo", "list")
	if n := strings.Count(piped.out, "\n"); n != 2+2*len(fixtures.Demos()) {
		t.Errorf("piped: %d lines, want a line per fact:\n%s", n, piped.out)
	}
}
