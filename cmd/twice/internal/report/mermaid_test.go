package report

import (
	"bytes"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/safetext/hostiletest"
	"github.com/twice-cli/twice/detect"
	"github.com/twice-cli/twice/detect/rundiff"
	"github.com/twice-cli/twice/fixtures"
	"github.com/twice-cli/twice/fixtures/gen"
)

// ganttKeywords start a statement of their own in Mermaid's gantt lexer
// (mermaid-js/mermaid, packages/mermaid/src/diagrams/gantt/parser/gantt.jison
// at 03ce281, case-insensitive): a task's text must not start with one.
var ganttKeywords = []string{"gantt", "dateformat", "inclusiveenddates", "topaxis", "axisformat", "tickinterval",
	"includes", "excludes", "todaymarker", "weekday", "title", "accdescription", "acctitle", "accdescr", "section",
	"click", "href", "call"}

var (
	ganttDate  = regexp.MustCompile(`^\d\d\d\d-\d\d-\d\d`)
	ganttID    = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]*$`)
	ganttInt   = regexp.MustCompile(`^-?\d+$`)
	ganttAxis  = map[string]bool{"%M:%S.%L": true, "%H:%M:%S": true, "%d %H:%M": true}
	ganttTags  = map[string]bool{"done": true, "active": true, "crit": true, "milestone": true}
	ganttStart = "gantt"
)

// ganttChart is what checkGantt read of a chart.
type ganttChart struct {
	title    string
	sections []string
	// tasks are each section's tasks' texts and their times.
	tasks    []ganttTask
	comments []string
}

type ganttTask struct {
	section  int
	text     string
	tags     []string
	from, to int64
}

// checkGantt parses a chart by the rules of Mermaid's gantt lexer and
// grammar for the statements twice writes, and fails on anything the
// lexer would read otherwise: a text holding "#", ":", ";" or "%", a task
// whose text starts with a keyword or a date, a tag Mermaid does not know,
// a task id used twice, a start or an end that is not milliseconds
// (dateFormat x), an end before its start.
func checkGantt(t *testing.T, chart string) ganttChart {
	t.Helper()
	var g ganttChart
	lines := strings.Split(strings.TrimSuffix(chart, "\n"), "\n")
	if len(lines) == 0 || strings.TrimSpace(lines[0]) != ganttStart {
		t.Fatalf("a chart starts with %q:\n%s", ganttStart, chart)
	}
	ids := map[string]bool{}
	bad := func(i int, why string) {
		t.Helper()
		t.Errorf("line %d %q: %s\n%s", i+1, lines[i], why, chart)
	}
	for i, raw := range lines[1:] {
		i++
		l := strings.TrimLeft(raw, " \t")
		if strings.ContainsAny(raw, "\r\x00") {
			bad(i, "a control character")
		}
		low := strings.ToLower(l)
		switch {
		case l == "":
		case strings.HasPrefix(l, "%%"):
			g.comments = append(g.comments, l)
		case strings.HasPrefix(low, "title "):
			if strings.ContainsAny(l, "#;%") {
				bad(i, "a title ends at # or ;, and % starts a comment")
			}
			g.title = l[len("title "):]
		case l == "dateFormat x":
		case strings.HasPrefix(l, "axisFormat "):
			if !ganttAxis[l[len("axisFormat "):]] {
				bad(i, "an axis format twice does not write")
			}
		case strings.HasPrefix(low, "section "):
			name := l[len("section "):]
			if strings.TrimSpace(name) == "" || strings.ContainsAny(name, "#:;%") {
				bad(i, "a section's name is text up to #, :, ; (and % starts a comment)")
			}
			g.sections = append(g.sections, name)
		default:
			text, data, ok := strings.Cut(l, ":")
			if !ok {
				bad(i, "a task is text, \":\" and its data")
				continue
			}
			if strings.TrimSpace(text) == "" || strings.ContainsAny(text, "#;%") {
				bad(i, "a task's text is up to #, :, ; (and % starts a comment)")
			}
			for _, k := range ganttKeywords {
				if strings.HasPrefix(strings.ToLower(text), k) {
					bad(i, "the task's text starts with the keyword "+k)
				}
			}
			if ganttDate.MatchString(text) {
				bad(i, "the task's text starts with a date")
			}
			if strings.ContainsAny(data, "#;%:") {
				bad(i, "a task's data is up to # or ;")
			}
			fields := strings.Split(data, ",")
			for k := range fields {
				fields[k] = strings.TrimSpace(fields[k])
			}
			var tags []string
			for len(fields) > 0 && ganttTags[fields[0]] {
				tags, fields = append(tags, fields[0]), fields[1:]
			}
			if len(fields) != 3 || !ganttID.MatchString(fields[0]) || !ganttInt.MatchString(fields[1]) || !ganttInt.MatchString(fields[2]) {
				bad(i, "a task's data is [tags,] id, start, end (milliseconds)")
				continue
			}
			if ids[fields[0]] {
				bad(i, "the id "+fields[0]+" is used twice")
			}
			ids[fields[0]] = true
			from, _ := strconv.ParseInt(fields[1], 10, 64)
			to, _ := strconv.ParseInt(fields[2], 10, 64)
			if to < from {
				bad(i, "it ends before it starts")
			}
			if len(g.sections) == 0 {
				bad(i, "a task before any section")
			}
			g.tasks = append(g.tasks, ganttTask{section: len(g.sections) - 1, text: strings.TrimSpace(text), tags: tags, from: from, to: to})
		}
	}
	if g.title == "" || len(g.tasks) == 0 {
		t.Errorf("no title or no task:\n%s", chart)
	}
	return g
}

func TestMermaidDemos(t *testing.T) {
	for _, d := range fixtures.Demos() {
		t.Run(d.Name, func(t *testing.T) {
			a := demoAnalysis(t, d.Name)
			var b bytes.Buffer
			if err := WriteMermaid(&b, a, Options{Now: testNow}); err != nil {
				t.Fatal(err)
			}
			g := checkGantt(t, b.String())
			// One section per call, and the run's.
			if len(g.sections) != len(a.Report.Invocations)+1 {
				t.Errorf("%d sections for %d calls", len(g.sections), len(a.Report.Invocations))
			}
			attempts, milestones := 0, 0
			for _, tk := range g.tasks {
				if strings.HasPrefix(tk.text, "attempt ") {
					attempts++
				}
				if len(tk.tags) > 0 && tk.tags[0] == "milestone" {
					milestones++
				}
			}
			want := 0
			for _, inv := range a.Report.Invocations {
				want += len(inv.Attempts)
			}
			if attempts != want {
				t.Errorf("%d attempt bars for %d attempts", attempts, want)
			}
			if milestones != len(a.Report.Findings)-runWideFindings(a.Report) {
				t.Errorf("%d milestones for %d findings", milestones, len(a.Report.Findings))
			}
			if !strings.Contains(g.title, "times ") {
				t.Errorf("the title %q does not say the time resolution", g.title)
			}
		})
	}
}

func runWideFindings(r *detect.Report) int {
	n := 0
	for _, f := range r.Findings {
		if f.InvocationIndex < 0 {
			n++
		}
	}
	return n
}

// TestMermaidResolution: the title says how exactly the source's times are
// known.
func TestMermaidResolution(t *testing.T) {
	for name, want := range map[string]string{
		"payment-timeout": "times exact to the millisecond",
		"card-declined":   "times printed to the second, bars rebuilt from the elapsed column",
	} {
		var b bytes.Buffer
		if err := WriteMermaid(&b, demoAnalysis(t, name), Options{Now: testNow}); err != nil {
			t.Fatal(err)
		}
		if g := checkGantt(t, b.String()); !strings.Contains(g.title, want) {
			t.Errorf("%s: title %q, want it to say %q", name, g.title, want)
		}
	}
}

// TestMermaidHostileNames draws histories with hostile text in every
// field: every chart parses, and nothing reaches it raw.
func TestMermaidHostileNames(t *testing.T) {
	samples := hostiletest.Corpus(false)
	samples = append(samples,
		hostiletest.Sample{Name: "gantt syntax", Value: "a:b;c#d%%e\nsection x\n```\n<b>&amp;"},
		hostiletest.Sample{Name: "a keyword first", Value: "click call href title section"},
		hostiletest.Sample{Name: "a date first", Value: "2026-11-03 Charge"},
		hostiletest.Sample{Name: "a comment", Value: "x%% a comment"},
		hostiletest.Sample{Name: "a directive", Value: "%%{init: {'theme':'dark'}}%%"},
	)
	for _, s := range samples {
		for _, doc := range hostiletest.Documents(s.Value) {
			if doc.Name == "fixture" {
				continue // a saved history: the same dapr-cli document inside
			}
			h, err := catalyst.Decode(bytes.NewReader(doc.Bytes), catalyst.DecodeOptions{})
			if err != nil {
				t.Fatalf("%s in %s: %v", s.Name, doc.Name, err)
			}
			a := Analysis{History: h, Report: detect.Analyze(h, detect.Options{})}
			// A name the activity and the sections cannot tell apart from
			// syntax: the activity's name is the planted one.
			var b bytes.Buffer
			if err := WriteMermaid(&b, a, Options{Now: testNow}); err != nil {
				t.Fatal(err)
			}
			what := s.Name + " in " + doc.Name
			out := b.String()
			checkGantt(t, out)
			if v, bad := hostiletest.FindUnsafe(out, false); bad {
				t.Errorf("%s: raw %U in the chart", what, v.Rune)
			}
			if strings.Contains(out, "```") {
				t.Errorf("%s: a code fence in the chart would end its Markdown block", what)
			}
			var md bytes.Buffer
			if err := WriteMarkdown(&md, []Analysis{a}, Options{Now: testNow}); err != nil {
				t.Fatal(err)
			}
			if n := strings.Count(md.String(), "```"); n != 2 {
				t.Errorf("%s: the Markdown has %d fences, want the chart's 2", what, n)
			}
			d := Diff{A: a, B: a, Diff: rundiff.Compare(rundiff.Run{History: h, Report: a.Report}, rundiff.Run{History: h, Report: a.Report}, rundiff.Options{})}
			b.Reset()
			if err := WriteDiffMermaid(&b, d, Options{Now: testNow}); err != nil {
				t.Fatal(err)
			}
			checkGantt(t, b.String())
		}
	}
}

// TestMermaidKeepsScale: a long run keeps its scale (the run's bar spans
// it; the axis reads days and hours), and a run of many calls draws the
// calls with findings first, says how many it left out, and still spans
// the whole run.
func TestMermaidKeepsScale(t *testing.T) {
	t0 := time.Date(2026, 11, 3, 9, 0, 0, 0, time.UTC)
	h := catalyst.NewHistory(catalyst.Run{ID: "long", Workflow: "W", Status: "COMPLETED", CreatedAt: t0, UpdatedAt: t0.Add(72 * time.Hour)})
	h.Format = catalyst.FormatProtoJSON
	at := func(d time.Duration) catalyst.Stamp { return catalyst.StampOf(t0.Add(d)) }
	h.Append(catalyst.Event{Type: catalyst.EventExecutionStarted, ID: -1, Timestamp: at(0)})
	const calls = 200
	for i := range calls {
		x := fmt.Sprintf("x%d", i)
		h.Append(catalyst.Event{Type: catalyst.EventTaskScheduled, ID: int32(2 * i), Name: "SendEmail", ExecutionID: x, Timestamp: at(time.Duration(i) * time.Minute)})
		if i == calls-1 {
			// The last call timed out and was retried: a finding.
			h.Append(catalyst.Event{Type: catalyst.EventTaskFailed, ID: -1, ScheduledID: int32(2 * i), ExecutionID: x,
				Timestamp: at(time.Duration(i)*time.Minute + 30*time.Second), Failure: &catalyst.Failure{Type: "Timeout", Message: "read timeout"}})
			h.Append(catalyst.Event{Type: catalyst.EventTaskScheduled, ID: int32(2*i + 1), Name: "SendEmail", ExecutionID: x, Timestamp: at(time.Duration(i)*time.Minute + 40*time.Second)})
			h.Append(catalyst.Event{Type: catalyst.EventTaskCompleted, ID: -1, ScheduledID: int32(2*i + 1), ExecutionID: x, Timestamp: at(71 * time.Hour)})
			continue
		}
		h.Append(catalyst.Event{Type: catalyst.EventTaskCompleted, ID: -1, ScheduledID: int32(2 * i), ExecutionID: x, Timestamp: at(time.Duration(i)*time.Minute + time.Second)})
	}
	h.Append(catalyst.Event{Type: catalyst.EventExecutionCompleted, ID: -1, Timestamp: at(72 * time.Hour)})
	a := Analysis{History: h, Report: detect.Analyze(h, detect.Options{})}
	var b bytes.Buffer
	if err := WriteMermaid(&b, a, Options{Now: testNow}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	g := checkGantt(t, out)
	if !strings.Contains(out, "axisFormat %d %H:%M") {
		t.Errorf("a three-day run's axis does not read days:\n%.300s", out)
	}
	if run := g.tasks[0]; run.to-run.from != (72 * time.Hour).Milliseconds() {
		t.Errorf("the run's bar spans %dms, want 72h", run.to-run.from)
	}
	if len(g.sections) != mermaidMaxCalls+1 {
		t.Errorf("%d sections, want the run's and %d calls", len(g.sections), mermaidMaxCalls)
	}
	if len(g.comments) != 1 || !strings.Contains(g.comments[0], "140 of 200 calls are not drawn") {
		t.Errorf("comments %q", g.comments)
	}
	var finding bool
	for _, tk := range g.tasks {
		finding = finding || strings.Contains(tk.text, "duplicate-side-effect")
	}
	if !finding {
		t.Error("the call with a finding, the last, is not drawn")
	}
}

// TestMermaidDiff draws the demo twins: each run from its own start, the
// pairs that differ marked.
func TestMermaidDiff(t *testing.T) {
	a, b := demoAnalysis(t, "card-declined"), demoAnalysis(t, "card-declined-no-retry")
	d := Diff{A: a, B: b, Diff: rundiff.Compare(rundiff.Run{History: a.History, Report: a.Report},
		rundiff.Run{History: b.History, Report: b.Report}, rundiff.Options{})}
	var buf bytes.Buffer
	if err := WriteDiffMermaid(&buf, d, Options{Now: testNow}); err != nil {
		t.Fatal(err)
	}
	g := checkGantt(t, buf.String())
	runA, runB := g.tasks[0], g.tasks[1]
	if runA.from != runB.from || !strings.HasPrefix(runA.text, "A run failed in 9.0s") || !strings.HasPrefix(runB.text, "B run failed in 1.61s") {
		t.Errorf("the runs' bars: %+v %+v", runA, runB)
	}
	if g.sections[1] != "≠ charge_card (by-name)" {
		t.Errorf("sections %q", g.sections)
	}
}

// TestDiffListsAreCapped: text and Markdown of two large runs compared
// list the first findings and calls that differ and say how many more
// there are; JSON lists every one.
func TestDiffListsAreCapped(t *testing.T) {
	run := func(seed int64) Analysis {
		doc, err := gen.Bytes(gen.Options{Events: 20_000, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		h, err := catalyst.Decode(bytes.NewReader(doc), catalyst.DecodeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return Analysis{History: h, Report: detect.Analyze(h, detect.Options{})}
	}
	a, b := run(1), run(2)
	d := Diff{A: a, B: b, Diff: rundiff.Compare(rundiff.Run{History: a.History, Report: a.Report},
		rundiff.Run{History: b.History, Report: b.Report}, rundiff.Options{})}
	changed := 0
	for i := range d.Diff.Pairs {
		if d.Diff.Pairs[i].Changed() {
			changed++
		}
	}
	if changed <= diffListed {
		t.Fatalf("only %d calls differ: too few to cap", changed)
	}
	var text, md, js bytes.Buffer
	if err := WriteDiffText(&text, d, Options{Now: testNow}); err != nil {
		t.Fatal(err)
	}
	if err := WriteDiffMarkdown(&md, d, Options{Now: testNow}); err != nil {
		t.Fatal(err)
	}
	if err := WriteDiffJSON(&js, d, Options{Now: testNow}); err != nil {
		t.Fatal(err)
	}
	more := fmt.Sprintf("and %d more calls that differ", changed-diffListed)
	if !strings.Contains(text.String(), more) || !strings.Contains(strings.ToLower(md.String()), more) {
		t.Errorf("text or Markdown does not say %q", more)
	}
	if n := strings.Count(js.String(), `"aligned"`); n != len(d.Diff.Pairs) {
		t.Errorf("JSON lists %d pairs of %d", n, len(d.Diff.Pairs))
	}
}

// TestMermaidTellsFanOutCallsApart: a fan-out's calls of one name, as
// durabletask-go's engine recorded them (detect/testdata/engine), are each
// a section named by the input field that differs between them, as the
// view's INPUT column names them, never eight sections of one name.
func TestMermaidTellsFanOutCallsApart(t *testing.T) {
	raw, err := os.ReadFile("../../../../detect/testdata/engine/fan-out-map-order.history.json")
	if err != nil {
		t.Fatal(err)
	}
	h, err := catalyst.Decode(bytes.NewReader(raw), catalyst.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	a := Analysis{History: h, Report: detect.Analyze(h, detect.Options{})}
	var b bytes.Buffer
	if err := WriteMermaid(&b, a, Options{Now: testNow}); err != nil {
		t.Fatal(err)
	}
	g := checkGantt(t, b.String())
	keys := detect.InvocationKeys(h, a.Report)
	seen := map[string]bool{}
	for _, sec := range g.sections {
		if !strings.HasPrefix(sec, "SendEmail") {
			continue
		}
		if seen[sec] {
			t.Errorf("two sections named %q: the calls are not told apart", sec)
		}
		seen[sec] = true
	}
	if len(seen) < 2 {
		t.Fatalf("sections %q: want the fan-out's SendEmail calls", g.sections)
	}
	for i, inv := range a.Report.Invocations {
		if inv.Name != "SendEmail" {
			continue
		}
		if keys[i].IsZero() {
			t.Fatalf("call %d has no input key: the test's history no longer tells its calls apart", i)
		}
		if want := "SendEmail " + keys[i].String(); !seen[want] {
			t.Errorf("no section %q in %q", want, g.sections)
		}
	}
}
