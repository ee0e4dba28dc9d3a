package report

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

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

// TestWholeSecondSpansAreMarked: demo:card-declined is the Dapr CLI's JSON
// (v1.18), whose times are whole seconds. Every span the text, Markdown and
// timeline writers print from it is whole seconds marked "~" (or "<1s"),
// never "1.00s"; the legend says why once per table. Before, the text said
// "Duration 9.00s", "after 2.00s backoff", "failed after 1.0 s"; and the
// evidence said "~1 s" where the attempt line said "~1s".
func TestWholeSecondSpansAreMarked(t *testing.T) {
	a := demoAnalysis(t, "card-declined")
	if a.History.TimeResolution.Seconds() != 1 {
		t.Fatalf("demo:card-declined decoded with TimeResolution %v, want 1s", a.History.TimeResolution)
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
// per run how exact they are: 1000 for whole-second stamps, 0 for the
// engine's own.
func TestJSONCarriesTimeResolution(t *testing.T) {
	for _, tc := range []struct {
		demo       string
		resolution int64
		backoff    float64 // the second attempt of the retried activity
	}{
		{"card-declined", 1000, 2000},
		{"email-503", 0, 5063},
	} {
		t.Run(tc.demo, func(t *testing.T) {
			a := demoAnalysis(t, tc.demo)
			out := render(t, func(b *bytes.Buffer) error { return WriteJSON(b, []Analysis{a}, Options{Now: testNow}) })
			var doc struct {
				Runs []struct {
					TimeResolutionMS *int64 `json:"time_resolution_ms"`
					Invocations      []struct {
						Attempts []struct {
							BackoffMS float64 `json:"backoff_ms"`
						} `json:"attempts"`
					} `json:"invocations"`
				} `json:"runs"`
			}
			if err := json.Unmarshal([]byte(out), &doc); err != nil {
				t.Fatalf("json: %v", err)
			}
			r := doc.Runs[0]
			if r.TimeResolutionMS == nil || *r.TimeResolutionMS != tc.resolution {
				t.Errorf("time_resolution_ms = %v, want %d", r.TimeResolutionMS, tc.resolution)
			}
			if n := strings.Count(out, `"time_resolution_ms"`); n != 1 {
				t.Errorf("time_resolution_ms written %d times, want once per run", n)
			}
			found := false
			for _, inv := range r.Invocations {
				if len(inv.Attempts) > 1 && inv.Attempts[1].BackoffMS == tc.backoff {
					found = true
				}
			}
			if !found {
				t.Errorf("no second attempt with backoff_ms %v: the milliseconds must stay as measured", tc.backoff)
			}
		})
	}
}
