package report

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/detect"
	"github.com/twice-cli/twice/fixtures"
	"github.com/twice-cli/twice/tui/format"
)

// demoAnalysis opens a bundled demo and analyses it as the command line
// does.
func demoAnalysis(t *testing.T, name string) Analysis {
	t.Helper()
	h, err := fixtures.OpenDemo(name, fixtures.OpenOptions{})
	if err != nil {
		t.Fatalf("demo %s: %v", name, err)
	}
	return Analysis{History: h, Report: detect.Analyze(h, detect.Options{Now: testNow()})}
}

// Spans written as if exact ("1.00s", "9.00s", "1.0 s", "2.00s backoff"):
// what whole-second stamps cannot tell.
var exactSpan = regexp.MustCompile(`\b\d+\.\d+ ?(s|ms)\b`)

const resolutionLegend = "times in this source are whole seconds"

// cardDeclinedRowsOnly is demo:card-declined's rows (the Dapr CLI's
// JSON, v1.18) with every row's elapsed left out, as another tool might
// write them: only whole seconds are left to measure spans by.
func cardDeclinedRowsOnly(t *testing.T) Analysis {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "..", "..", "fixtures", "demo", "card-declined.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		History []map[string]any `json:"history"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	for _, row := range doc.History {
		delete(row, "elapsed")
	}
	rows, err := json.Marshal(doc.History)
	if err != nil {
		t.Fatal(err)
	}
	h, err := catalyst.Decode(bytes.NewReader(rows), catalyst.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return Analysis{History: h, Report: detect.Analyze(h, detect.Options{Now: testNow()})}
}

// TestWholeSecondSpansAreMarked: the Dapr CLI's rows with no elapsed
// column (demo:card-declined's, left out) have only whole seconds. Every
// span the text, Markdown and timeline writers print from them is whole
// seconds marked "~" (or "<1s"), never "1.00s"; the legend says why once
// per table. Before issue 20, the text said "Duration 9.00s", "after 2.00s
// backoff", "failed after 1.0 s"; and the evidence said "~1 s" where the
// attempt line said "~1s".
func TestWholeSecondSpansAreMarked(t *testing.T) {
	a := cardDeclinedRowsOnly(t)
	if a.History.TimeResolution.Seconds() != 1 || a.History.RebuiltSpans() {
		t.Fatalf("rows without elapsed decoded with TimeResolution %v, rebuilt %v; want 1s, none",
			a.History.TimeResolution, a.History.RebuiltSpans())
	}
	opts := textOptions(format.ISO, true)
	text := render(t, func(b *bytes.Buffer) error { return WriteText(b, a, opts) })
	md := render(t, func(b *bytes.Buffer) error { return WriteMarkdown(b, []Analysis{a}, opts) })
	tl := render(t, func(b *bytes.Buffer) error { return WriteTimeline(b, a, opts, 100) })
	for _, tc := range []struct {
		name, out string
		want      []string
		legends   int
	}{
		{"text", text, []string{
			"Duration      ~9s",
			"attempt 1 failed after ~1s:",      // detect's evidence, worded as the attempt line is
			"attempt 2 ran it again ~2s later", // detect's evidence
			"→ failed at event 6 after ~1s:",   // the attempt line
			"joined by-id, after ~2s backoff",  // the attempt line
			"completed  <1s ",                  // reserve_inventory's DURATION: not "-"
			"failed     ~8s ",                  // charge_card's DURATION
			"TimerFired          ↳ charge_card retry  -        -                                     ~2s", // ELAPSED
		}, 2},
		{"markdown", md, []string{`after \~2s backoff`, `| \~8s |`, "> Times in this source are whole seconds"}, 1}, // "~" escaped: GFM strikes through
		{"timeline", tl, []string{"· ~9s across", "+0s", "~+9s"}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, w := range tc.want {
				if !strings.Contains(tc.out, w) {
					t.Errorf("missing %q in:\n%s", w, tc.out)
				}
			}
			if m := exactSpan.FindAllString(tc.out, -1); m != nil {
				t.Errorf("spans written as if exact: %q in:\n%s", m, tc.out)
			}
			if n := strings.Count(strings.ToLower(tc.out), resolutionLegend); n != tc.legends {
				t.Errorf("the resolution legend is said %d times, want %d:\n%s", n, tc.legends, tc.out)
			}
		})
	}
}

// TestCLISpansRebuiltFromElapsed: demo:card-declined is the Dapr CLI's
// JSON (v1.18) as the CLI prints it: whole-second times, and each row's
// elapsed since the row above, measured between the engine's exact times.
// The spans between rows are rebuilt from them and written to the digit
// they are known to, with no "~"; instants are still written as printed;
// the legend says so. Before, the same rows read "failed after ~1 s",
// "~2s backoff", "Duration ~9s".
func TestCLISpansRebuiltFromElapsed(t *testing.T) {
	a := demoAnalysis(t, "card-declined")
	if !a.History.RebuiltSpans() {
		t.Fatal("demo:card-declined's spans were not rebuilt from its elapsed column")
	}
	opts := textOptions(format.ISO, true)
	text := render(t, func(b *bytes.Buffer) error { return WriteText(b, a, opts) })
	md := render(t, func(b *bytes.Buffer) error { return WriteMarkdown(b, []Analysis{a}, opts) })
	tl := render(t, func(b *bytes.Buffer) error { return WriteTimeline(b, a, opts, 100) })
	for _, tc := range []struct {
		name, out string
		want      []string
		legends   int
	}{
		{"text", text, []string{
			"Created       2026-09-22T16:40:12.000Z", // as printed, not the rebuilt instant
			"Duration      9.0s",                     // ±11 ms over the rows' elapsed values
			"attempt 1 failed after 748.0ms:",        // detect's evidence: the row's own "748.0ms"
			"attempt 2 ran it again 2.06s later",     // detect's evidence: ±5.2 ms
			"→ failed at event 6 after 748.0ms:",     // the attempt line: the row's own "748.0ms"
			"joined by-id, after 2.06s backoff",      // ±5.2 ms
			"completed  360.0ms ",                    // reserve_inventory's DURATION
			"failed     8.2s ",                       // charge_card's DURATION
			"TimerFired          ↳ charge_card retry  -        -                                     2.00s", // ELAPSED
		}, 2},
		{"markdown", md, []string{"after 2.06s backoff", "| 8.2s |", "> Times in this source are whole seconds; spans are rebuilt"}, 1},
		{"timeline", tl, []string{"· 9.0s across", "+0s", "+9.0s"}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, w := range tc.want {
				if !strings.Contains(tc.out, w) {
					t.Errorf("missing %q in:\n%s", w, tc.out)
				}
			}
			for _, l := range strings.Split(tc.out, "\n") {
				if !strings.Contains(strings.ToLower(l), resolutionLegend) && regexp.MustCompile(`~[+-]?\d`).MatchString(l) {
					t.Errorf("a span between rows is marked ±1s: %q", l)
				}
			}
			if n := strings.Count(strings.ToLower(tc.out), resolutionLegend); n != tc.legends {
				t.Errorf("the resolution legend is said %d times, want %d:\n%s", n, tc.legends, tc.out)
			}
		})
	}
}

// TestExactSpansUnchanged: a protojson demo's stamps are the engine's, to
// the nanosecond; its spans keep their decimals, with no mark and no
// legend.
func TestExactSpansUnchanged(t *testing.T) {
	a := demoAnalysis(t, "email-503")
	if a.History.TimeResolution != 0 {
		t.Fatalf("demo:email-503 decoded with TimeResolution %v, want 0", a.History.TimeResolution)
	}
	opts := textOptions(format.ISO, true)
	text := render(t, func(b *bytes.Buffer) error { return WriteText(b, a, opts) })
	md := render(t, func(b *bytes.Buffer) error { return WriteMarkdown(b, []Analysis{a}, opts) })
	tl := render(t, func(b *bytes.Buffer) error { return WriteTimeline(b, a, opts, 100) })
	for name, c := range map[string]struct {
		out  string
		want []string
	}{
		"text": {text, []string{"Duration      7.30s", "after 5.06s backoff", "failed after 1.22s:", "completed at event 13 after 667.0ms",
			"attempt 1 failed after 1.22s:", "attempt 2 completed after 667.0ms"}}, // the evidence says spans as the attempt lines do
		"markdown": {md, []string{"after 5.06s backoff", "| 6.95s |"}},
		"timeline": {tl, []string{"7.30s across", "+3.65s", "+7.30s"}},
	} {
		for _, w := range c.want {
			if !strings.Contains(c.out, w) {
				t.Errorf("%s: missing %q in:\n%s", name, w, c.out)
			}
		}
		if strings.Contains(strings.ToLower(c.out), resolutionLegend) || strings.Contains(c.out, "<1s") ||
			regexp.MustCompile(`~[+-]?\d`).MatchString(c.out) {
			t.Errorf("%s: an exact source's spans are marked approximate:\n%s", name, c.out)
		}
	}
}

// TestJSONCarriesTimeResolution: the JSON keeps milliseconds and says once
// per run how exact the printed times are: 1000 for whole-second stamps, 0
// for the engine's own; where spans were rebuilt from the Dapr CLI's
// elapsed column, spans_rebuilt says so and each span's *_error_ms how
// well it is known (1000 where it was not rebuilt). Instants are written
// as printed.
func TestJSONCarriesTimeResolution(t *testing.T) {
	for _, tc := range []struct {
		name       string
		analysis   func(t *testing.T) Analysis
		resolution int64
		rebuilt    bool
		// the second attempt of the retried activity
		backoff, backoffErr float64
	}{
		{"card-declined", func(t *testing.T) Analysis { return demoAnalysis(t, "card-declined") }, 1000, true, 2063, 5.2},
		{"card-declined rows without elapsed", cardDeclinedRowsOnly, 1000, false, 2000, 1000},
		{"email-503", func(t *testing.T) Analysis { return demoAnalysis(t, "email-503") }, 0, false, 5063, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := tc.analysis(t)
			out := render(t, func(b *bytes.Buffer) error { return WriteJSON(b, []Analysis{a}, Options{Now: testNow, Events: true}) })
			var doc struct {
				Runs []struct {
					TimeResolutionMS *int64 `json:"time_resolution_ms"`
					SpansRebuilt     bool   `json:"spans_rebuilt"`
					Events           []struct {
						Timestamp time.Time `json:"timestamp"`
					} `json:"events"`
					Invocations []struct {
						Attempts []struct {
							Start      time.Time `json:"start"`
							BackoffMS  float64   `json:"backoff_ms"`
							BackoffErr *float64  `json:"backoff_error_ms"`
						} `json:"attempts"`
					} `json:"invocations"`
				} `json:"runs"`
			}
			if err := json.Unmarshal([]byte(out), &doc); err != nil {
				t.Fatalf("json: %v", err)
			}
			r := doc.Runs[0]
			if r.TimeResolutionMS == nil || *r.TimeResolutionMS != tc.resolution || r.SpansRebuilt != tc.rebuilt {
				t.Errorf("time_resolution_ms = %v, spans_rebuilt %v; want %d, %v", r.TimeResolutionMS, r.SpansRebuilt, tc.resolution, tc.rebuilt)
			}
			if n := strings.Count(out, `"time_resolution_ms"`); n != 1 {
				t.Errorf("time_resolution_ms written %d times, want once per run", n)
			}
			found := false
			for _, inv := range r.Invocations {
				if len(inv.Attempts) < 2 {
					continue
				}
				a2 := inv.Attempts[1]
				if math.Abs(a2.BackoffMS-tc.backoff) > 0.01 {
					continue
				}
				found = true
				switch {
				case tc.backoffErr == 0 && a2.BackoffErr != nil:
					t.Errorf("an exact backoff has backoff_error_ms %v", *a2.BackoffErr)
				case tc.backoffErr > 0 && (a2.BackoffErr == nil || math.Abs(*a2.BackoffErr-tc.backoffErr) > 0.01):
					t.Errorf("backoff_error_ms %v, want %v", a2.BackoffErr, tc.backoffErr)
				}
				if tc.resolution > 0 && a2.Start.Nanosecond() != 0 {
					t.Errorf("the attempt's start %v is written finer than the CLI printed it", a2.Start)
				}
			}
			if !found {
				t.Errorf("no second attempt with backoff_ms %v: the milliseconds must stay as measured", tc.backoff)
			}
			for i, e := range r.Events {
				if tc.resolution > 0 && e.Timestamp.Nanosecond() != 0 {
					t.Errorf("event %d's timestamp %v is written finer than the CLI printed it", i, e.Timestamp)
				}
			}
		})
	}
}
