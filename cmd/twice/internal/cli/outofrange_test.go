package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOutOfRangeTimestampsKeptAndSaid (issue 26, item 12): timestamps a
// Stamp cannot hold (before 1678, after 2261) were clamped without a word:
// an event of 1500 showed as 1677-09-21, a run updated in 3000 as
// 9999-12-31 with a duration of 0s. Now each is kept as given, listed as
// out of range, and a span to it says "out of range".
func TestOutOfRangeTimestampsKeptAndSaid(t *testing.T) {
	src, err := os.ReadFile("../../../../catalyst/testdata/catalyst-flat-envelope.json")
	if err != nil {
		t.Fatal(err)
	}
	doc := strings.Replace(string(src), `"timestamp":"2026-08-22T02:00:05Z"`, `"timestamp":"1500-01-01T00:00:00Z"`, 1)
	doc = strings.Replace(doc, `"lastUpdatedAt":"2026-08-22T02:04:41Z"`, `"lastUpdatedAt":"3000-01-01T00:00:00Z"`, 1)
	if doc == string(src) {
		t.Fatal("the fixture changed: nothing replaced")
	}
	path := filepath.Join(t.TempDir(), "oor.json")
	if err := os.WriteFile(path, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t)
	text := h.run("show", path, "-o", "text", "--time-format", "iso")
	json := newHarness(t).run("show", path, "-o", "json")
	md := newHarness(t).run("show", path, "-o", "markdown", "--time-format", "iso")
	for name, res := range map[string]result{"text": text, "json": json, "markdown": md} {
		if res.code != ExitOK {
			t.Fatalf("%s: exit %d: %s", name, res.code, res.errOut)
		}
		for _, clamped := range []string{"1677-09-21", "9999-12-31", "2262-04-11"} {
			if strings.Contains(res.out, clamped) {
				t.Errorf("%s shows a clamped instant %s", name, clamped)
			}
		}
		for _, want := range []string{"1500-01-01T00:00:00", "3000-01-01T00:00:00"} {
			if !strings.Contains(res.out, want) {
				t.Errorf("%s does not keep %s as given", name, want)
			}
		}
	}
	for _, want := range []string{"Updated       3000-01-01T00:00:00.000Z", "Duration      out of range", "Out of range  the run's last_updated_at \"3000-01-01T00:00:00Z\", event 1's timestamp \"1500-01-01T00:00:00Z\""} {
		if !strings.Contains(text.out, want) {
			t.Errorf("text lacks %q:\n%s", want, text.out)
		}
	}
	for _, want := range []string{`"timestamp":"1500-01-01T00:00:00Z"`, `"out_of_range":[{"event":-1,"field":"last_updated_at","text":"3000-01-01T00:00:00Z"}`} {
		if !strings.Contains(json.out, want) {
			t.Errorf("JSON lacks %s", want)
		}
	}
}
