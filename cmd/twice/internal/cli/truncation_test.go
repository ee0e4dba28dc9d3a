package cli

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/twice-cli/twice/catalyst/safetext/hostiletest"
)

// TestCutHistoriesPrintNothingAsComplete cuts a history of every format
// (and a saved history wrapping one) at offsets across it, and reads it
// from a file and from standard input: show exits 1 and prints nothing on
// standard output in any format — no partial report — and says which input
// was cut; a scan of a good file and the cut one prints the good run only,
// names the cut one, and exits 1.
func TestCutHistoriesPrintNothingAsComplete(t *testing.T) {
	good := writeFile(t, "good.json", cleanHistory)
	for _, d := range hostiletest.Documents("x") {
		doc := string(d.Bytes)
		body := strings.TrimRight(doc, " \n")
		for _, cut := range []int{1, 2, len(body) / 5, len(body) / 3, len(body) / 2, 2 * len(body) / 3, len(body) - 10, len(body) - 2, len(body) - 1} {
			what := d.Name + " cut at " + strconv.Itoa(cut)
			file := writeFile(t, "cut.json", body[:cut])
			for _, o := range []string{"text", "json", "jsonl", "markdown"} {
				r := newHarness(t).run("show", "-o", o, file)
				if r.code != ExitError || r.out != "" || !strings.Contains(r.errOut, "cut.json") {
					t.Errorf("%s: show -o %s: exit %d, stdout %.200q, stderr %.300q", what, o, r.code, r.out, r.errOut)
				}
			}
			h := newHarness(t)
			h.in = body[:cut]
			if r := h.run("show", "-o", "json", "-"); r.code != ExitError || r.out != "" || r.errOut == "" {
				t.Errorf("%s: show - : exit %d, stdout %.200q, stderr %.300q", what, r.code, r.out, r.errOut)
			}
			r := newHarness(t).run("scan", "-o", "json", good, file)
			var out struct {
				Runs []json.RawMessage `json:"runs"`
			}
			if err := json.Unmarshal([]byte(r.out), &out); err != nil || len(out.Runs) != 1 {
				t.Errorf("%s: scan of a good and a cut file: %v, %d runs:\n%.300s", what, err, len(out.Runs), r.out)
			}
			if r.code != ExitError || !strings.Contains(r.errOut, "cut.json") || !strings.Contains(r.errOut, "1 of 2 runs could not be read") {
				t.Errorf("%s: scan: exit %d, stderr %.300q", what, r.code, r.errOut)
			}
		}
	}
}

// TestATruncatedRecordingSaysSoEverywhere: a saved history its recorder
// marked truncated (known to be partial) is labelled so in text, Markdown
// and JSON, never shown as a complete history.
func TestATruncatedRecordingSaysSoEverywhere(t *testing.T) {
	var doc string
	for _, d := range hostiletest.Documents("x") {
		if d.Name == "fixture" {
			doc = strings.Replace(string(d.Bytes), `"truncated":false`, `"truncated":true`, 1)
		}
	}
	file := writeFile(t, "partial.json", doc)
	for _, o := range []string{"text", "markdown"} {
		r := newHarness(t).run("show", "-o", o, file)
		if r.code != ExitOK || !strings.Contains(r.out, "TRUNCATED: the recorded history is partial") {
			t.Errorf("show -o %s: exit %d, no truncation mark:\n%s", o, r.code, r.out)
		}
	}
	r := newHarness(t).run("show", "-o", "json", file)
	var out struct {
		Runs []struct {
			Source struct {
				Recorded struct {
					Truncated bool `json:"truncated"`
				} `json:"recorded"`
			} `json:"source"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(r.out), &out); err != nil || len(out.Runs) != 1 || !out.Runs[0].Source.Recorded.Truncated {
		t.Errorf("show -o json: %v, %.300s", err, r.out)
	}
}
