package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"github.com/twice-cli/twice/tui/format"
	"math"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/safetext/hostiletest"
	"github.com/twice-cli/twice/detect"
)

func textOptions(tf format.TimeFormat, events bool) Options {
	return Options{Now: testNow, TimeFormat: tf, Events: events}
}

func render(t *testing.T, write func(*bytes.Buffer) error) string {
	t.Helper()
	var b bytes.Buffer
	if err := write(&b); err != nil {
		t.Fatalf("render: %v", err)
	}
	return b.String()
}

func TestWriteText(t *testing.T) {
	for _, tc := range []struct {
		name   string
		tf     format.TimeFormat
		events bool
	}{
		{"show_iso", format.ISO, true},
		{"show_relative", format.Relative, true},
		{"scan_iso", format.ISO, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := render(t, func(b *bytes.Buffer) error { return WriteText(b, sampleAnalysis(), textOptions(tc.tf, tc.events)) })
			golden.RequireEqual(t, out)
		})
	}
}

// TestWriteTextWithheldIsNamedNeverEmpty: every withheld payload says
// "withheld", and what that means, with the level, is said once per table
// (the header's data-sharing line, the event table's legend), not on every
// row.
func TestWriteTextWithheldIsNamedNeverEmpty(t *testing.T) {
	out := render(t, func(b *bytes.Buffer) error { return WriteText(b, sampleAnalysis(), textOptions(format.ISO, true)) })
	// The run's input, output and custom status, and every event payload
	// (ExecutionStarted, 3 TaskScheduled, 2 TaskCompleted, ExecutionCompleted).
	cells := strings.Count(out, "input=withheld") + strings.Count(out, "output=withheld") +
		strings.Count(out, "Input         withheld\n") + strings.Count(out, "Output        withheld\n") +
		strings.Count(out, "Custom status withheld\n")
	if cells != 3+7 {
		t.Errorf("%d payloads say withheld, want 10:\n%s", cells, out)
	}
	if got := strings.Count(out, "withheld: not shared at this organization's data-sharing level (metadata)"); got != 1 {
		t.Errorf("the event table's legend names the level %d times, want once:\n%s", got, out)
	}
	for _, bad := range []string{"input=empty", "output=empty", "input=;", "output=;", "Input         empty", "Output        empty"} {
		if strings.Contains(out, bad) {
			t.Errorf("output shows a withheld payload as empty (%q)", bad)
		}
	}
	if !strings.Contains(out, "Data sharing  metadata; 7 event payloads withheld: not shared at this organization's data-sharing level\n") {
		t.Errorf("header does not count the withheld payloads:\n%s", out)
	}
}

func TestWriteTextNoLinkPrintsPlainIDs(t *testing.T) {
	tests := []struct {
		name, app, run, want string
	}{
		{"no app id", "", "welcome-u-20931", `no link: this history does not name its app id; run "welcome-u-20931"`},
		{"no run id", "notifier", "", `no link: this history does not name its run id; app "notifier"`},
		{"neither", "", "", "no link: this history names neither its app id nor its run id"},
		{"not plain", "notifier", "a/b\x1b[2J", `no link: an id is not a plain id; app "notifier", run "a/b\x1b[2J"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := sampleAnalysis()
			a.History.Run.AppID, a.History.Run.ID = tt.app, tt.run
			out := render(t, func(b *bytes.Buffer) error { return WriteText(b, a, textOptions(format.ISO, false)) })
			if strings.Contains(out, "catalyst.diagrid.io") {
				t.Errorf("got a link:\n%s", out)
			}
			if !strings.Contains(out, "Console       "+tt.want+"\n") {
				t.Errorf("want %q in:\n%s", tt.want, out)
			}
			if tt.run == "" && !strings.HasPrefix(out, "Run (id not in this history)\n") {
				t.Errorf("an unknown run id is not said so:\n%s", out)
			}
			if strings.Contains(tt.want, `\`) {
				return // Markdown escapes the backslashes again
			}
			mdOut := render(t, func(b *bytes.Buffer) error { return WriteMarkdown(b, []Analysis{a}, Options{Now: testNow}) })
			if !strings.Contains(mdOut, "| Console | "+tt.want+" |\n") {
				t.Errorf("Markdown: want %q in:\n%s", tt.want, mdOut)
			}
		})
	}
}

func TestWriteTextWithoutReport(t *testing.T) {
	a := sampleAnalysis()
	a.Report = nil
	out := render(t, func(b *bytes.Buffer) error { return WriteText(b, a, textOptions(format.ISO, false)) })
	if !strings.Contains(out, "Analysis: not available") || strings.Contains(out, "Findings") {
		t.Errorf("a missing analysis must be said, not shown as no findings:\n%s", out)
	}
}

func TestWriteTextFindingsMostSevereFirst(t *testing.T) {
	a := sampleAnalysis()
	low := detect.Finding{ID: detect.FindingSharedRetryPolicy, Severity: detect.SeverityLow, Activity: "RenderTemplate", InvocationIndex: -1}
	med := detect.Finding{ID: detect.FindingUnknownOutcome, Severity: detect.SeverityMedium, Activity: "RenderTemplate", InvocationIndex: 0}
	a.Report.Findings = append([]detect.Finding{low}, append(a.Report.Findings, med)...)
	out := render(t, func(b *bytes.Buffer) error { return WriteText(b, a, textOptions(format.ISO, false)) })
	hi := strings.Index(out, "▲ high")
	me := strings.Index(out, "◆ medium")
	lo := strings.Index(out, "● low")
	if hi < 0 || me < 0 || lo < 0 || !(hi < me && me < lo) {
		t.Errorf("findings are not most severe first (high %d, medium %d, low %d):\n%s", hi, me, lo, out)
	}
	if !strings.Contains(out, "Findings: 3 (1 high, 1 medium, 1 low)") {
		t.Errorf("summary counts are wrong:\n%s", out)
	}
}

var sgr = regexp.MustCompile("\x1b\\[[0-9;]*m")

func TestColour(t *testing.T) {
	opts := textOptions(format.ISO, false)
	plain := render(t, func(b *bytes.Buffer) error { return WriteText(b, sampleAnalysis(), opts) })
	if strings.Contains(plain, "\x1b") {
		t.Errorf("colour off, but the output has escape sequences")
	}
	opts.Styles = NewStyles(true)
	coloured := render(t, func(b *bytes.Buffer) error { return WriteText(b, sampleAnalysis(), opts) })
	if !sgr.MatchString(coloured) {
		t.Fatalf("colour on, but no SGR sequence in the output")
	}
	if !strings.Contains(coloured, "▲ high") {
		t.Errorf("colour must not be the only signal: glyph and word are missing")
	}
	if got := sgr.ReplaceAllString(coloured, ""); got != plain {
		t.Errorf("coloured output differs from plain output beyond SGR:\n%s\n---\n%s", got, plain)
	}
}

// TestHostileStringsNeverReachOutputRaw plants every hostile sample in
// every string field and checks text, Markdown, JSON and JSONL output.
func TestHostileStringsNeverReachOutputRaw(t *testing.T) {
	samples := append(hostiletest.Corpus(false), hostiletest.Sample{Name: "joined", Value: hostiletest.Joined()})
	for _, s := range samples {
		t.Run(strings.ReplaceAll(s.Name, "/", "-"), func(t *testing.T) {
			a := hostileAnalysis(s.Value)
			fleet := NewFleet(catalyst.RunQuery{Project: s.Value, AppID: s.Value, Workflow: s.Value, Status: catalyst.Status(s.Value)}, 0)
			fleet.Add(a, "")
			fleet.AddFailure(catalyst.Run{ID: s.Value, AppID: s.Value}, errors.New(s.Value))
			list := catalyst.RunList{Runs: []catalyst.Run{a.History.Run}, Partial: true, Reason: s.Value}
			outputs := map[string]func(*bytes.Buffer) error{
				"text": func(b *bytes.Buffer) error {
					return WriteText(b, a, Options{Now: testNow, Events: true, Styles: NewStyles(true)})
				},
				"text-relative": func(b *bytes.Buffer) error {
					return WriteText(b, a, Options{Now: testNow, Events: true, TimeFormat: format.Relative})
				},
				"markdown": func(b *bytes.Buffer) error { return WriteMarkdown(b, []Analysis{a}, Options{Now: testNow}) },
				"json":     func(b *bytes.Buffer) error { return WriteJSON(b, []Analysis{a}, Options{Now: testNow}) },
				"jsonl":    func(b *bytes.Buffer) error { return WriteJSONL(b, []Analysis{a}, Options{Now: testNow}) },
				"fleet":    func(b *bytes.Buffer) error { return WriteFleetText(b, fleet, Options{Now: testNow}) },
				"runs": func(b *bytes.Buffer) error {
					return WriteRunListText(b, catalyst.RunQuery{Project: s.Value, AppID: s.Value}, list, Options{Now: testNow})
				},
				"runs-json":  func(b *bytes.Buffer) error { return WriteRunListJSON(b, list, Options{Now: testNow}) },
				"fleet-json": func(b *bytes.Buffer) error { s := NewJSONStream(b, Options{}); s.Run(a); return s.Close(fleet) },
			}
			for name, write := range outputs {
				out := sgr.ReplaceAllString(render(t, write), "")
				if v, bad := hostiletest.FindUnsafe(out, false); bad {
					lo, hi := max(0, v.Offset-40), min(len(out), v.Offset+40)
					t.Errorf("%s: raw %U at byte %d: %q", name, v.Rune, v.Offset, out[lo:hi])
				}
			}
		})
	}
}

func TestMarkdown(t *testing.T) {
	out := render(t, func(b *bytes.Buffer) error {
		return WriteMarkdown(b, []Analysis{sampleAnalysis()}, Options{Now: testNow})
	})
	golden.RequireEqual(t, out)
}

// TestMarkdownEscapesStructure checks that history text cannot add table
// cells, emphasis, links or HTML to the report.
func TestMarkdownEscapesStructure(t *testing.T) {
	a := sampleAnalysis()
	a.Report.Invocations[1].Name = "Send|Email *now* [x](https://evil.example) <img src=x> `code` $x$"
	a.Report.Findings[0].Activity = a.Report.Invocations[1].Name
	out := render(t, func(b *bytes.Buffer) error { return WriteMarkdown(b, []Analysis{a}, Options{Now: testNow}) })
	unescapedPipe := regexp.MustCompile(`(^|[^\\])\|`)
	for _, l := range strings.Split(out, "\n") {
		if !strings.HasPrefix(l, "| 2 |") {
			continue
		}
		if n := len(unescapedPipe.FindAllString(l, -1)); n != 11 {
			t.Errorf("row has %d cell separators, want 11: %s", n, l)
		}
	}
	for _, raw := range []string{"*now*", "[x](", "`code`", "$x$"} {
		if strings.Contains(out, raw) {
			t.Errorf("markdown carries %q unescaped", raw)
		}
	}
	if regexp.MustCompile(`(^|[^\\])<img`).MatchString(out) {
		t.Errorf("markdown carries HTML unescaped")
	}
	if !strings.Contains(out, `Send\|Email \*now\* \[x\](https://evil.example) \<img src=x\> \`+"`code\\`"+` \$x\$`) {
		t.Errorf("escaped name not found:\n%s", out)
	}
}

func TestHumanize(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{
		{0, "0s"},
		{500, "500ns"},
		{1500 * time.Nanosecond, "1.5µs"},
		{14400 * time.Microsecond, "14.4ms"},
		{10030 * time.Millisecond, "10.03s"},
		{-2 * time.Second, "-2.00s"},
		{90 * time.Second, "1.5m"},
		{126 * time.Minute, "2.1h"},
		{47*time.Hour + 18*time.Minute, "47.3h"},
		{49*time.Hour + 18*time.Minute, "2.1d"},
	} {
		if got := humanize(tc.d); got != tc.want {
			t.Errorf("humanize(%v) = %q, want %q", tc.d, got, tc.want)
		}
	}
}

func TestTrimmed(t *testing.T) {
	for _, tc := range []struct {
		in   string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"exactly10!", 10, "exactly10!"},
		{"eleven chars", 10, "eleven cha…"},
		{"äöüäöüäöüäöü", 3, "äöü…"},
		{"a\x1bb", 10, `a\x1bb`},
	} {
		if got := trimmed(tc.in, tc.n); got != tc.want {
			t.Errorf("trimmed(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
		}
	}
}

// appendInt writes what strconv.AppendInt does, across its fast range's
// edges, every digit count, and the values it leaves to strconv.
func TestAppendIntMatchesStrconv(t *testing.T) {
	vals := []int64{0, 1, 9, 10, 11, 99, 100, 101, 999, 1000, 12345, 99999999, 100000000, 100000001,
		-1, -10, -99999999, math.MaxInt64, math.MinInt64}
	for p := int64(1); p < 1e18; p *= 10 {
		vals = append(vals, p-1, p, p+1, 7*p+3)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		vals = append(vals, rng.Int64N(1e9), -rng.Int64N(1e9))
	}
	for _, v := range vals {
		got := string(appendInt([]byte("x"), v))
		if want := "x" + strconv.FormatInt(v, 10); got != want {
			t.Fatalf("appendInt(%d) = %q, want %q", v, got, want)
		}
	}
}

// TestStampMatchesRFC3339Nano checks the fast timestamp writer against the
// standard library over random instants, including the per-day cache.
func TestStampMatchesRFC3339Nano(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	e := newJSONEnc(&bytes.Buffer{})
	var prev int64 = 1_700_000_000_000_000_000
	const day = 86400 * int64(time.Second)
	for i := 0; i < 30000; i++ {
		var ns int64
		switch i % 6 {
		case 0:
			ns = rng.Int64N(1 << 62)
		case 1:
			ns = prev + rng.Int64N(1000) // same second mostly
		case 2:
			ns = prev - prev%1e9 // whole second
		case 3:
			ns = prev - prev%day + day - 1 - rng.Int64N(2e9) // just before midnight
		case 4:
			ns = prev - prev%day + day + rng.Int64N(2e9) // just after it
		default:
			ns = prev + rng.Int64N(5e9)
		}
		prev = ns
		e.buf = e.buf[:0]
		e.comma = false
		e.stamp(catalyst.Stamp(ns))
		want := `"` + time.Unix(0, ns).UTC().Format(time.RFC3339Nano) + `"`
		if string(e.buf) != want {
			t.Fatalf("stamp(%d) = %s, want %s", ns, e.buf, want)
		}
	}
	for _, s := range []catalyst.Stamp{catalyst.StampNever, catalyst.StampOf(time.Date(1969, 7, 20, 20, 17, 40, 5, time.UTC))} {
		e.buf = e.buf[:0]
		e.comma = false
		e.stamp(s)
		if want := `"` + s.Time().Format(time.RFC3339Nano) + `"`; string(e.buf) != want {
			t.Errorf("stamp(%d) = %s, want %s", s, e.buf, want)
		}
	}
}

func TestMillis(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{
		{10030 * time.Millisecond, "10030"},
		{664200 * time.Microsecond, "664.2"},
		{1500 * time.Nanosecond, "0.001"},
		{123456 * time.Microsecond, "123.456"},
		{-1500 * time.Microsecond, "-1.5"},
	} {
		e := newJSONEnc(&bytes.Buffer{})
		e.millis(tc.d)
		if string(e.buf) != tc.want {
			t.Errorf("millis(%v) = %s, want %s", tc.d, e.buf, tc.want)
		}
		var f float64
		if err := json.Unmarshal(e.buf, &f); err != nil {
			t.Errorf("millis(%v) is not a JSON number: %v", tc.d, err)
		}
	}
}

func TestPartialRunListGivesAdviceOnce(t *testing.T) {
	for _, tt := range []struct{ reason, want string }{
		{"page 3 failed: timeout", "The list is partial: page 3 failed: timeout. Narrow the filter (--since, --status, --app) to see every run.\n"},
		{"stopped at the page cap (20 pages); the server offers more pages: narrow the query (--since, --status, --app)",
			"The list is partial: stopped at the page cap (20 pages); the server offers more pages: narrow the query (--since, --status, --app).\n"},
	} {
		list := catalyst.RunList{Runs: []catalyst.Run{{ID: "a", AppID: "b"}}, Partial: true, Reason: tt.reason}
		out := render(t, func(b *bytes.Buffer) error {
			return WriteRunListText(b, catalyst.RunQuery{Project: "default"}, list, Options{Now: testNow})
		})
		if !strings.HasSuffix(out, tt.want) || strings.Count(out, "--since") != 1 {
			t.Errorf("got:\n%s\nwant it to end with:\n%s", out, tt.want)
		}
	}
}
