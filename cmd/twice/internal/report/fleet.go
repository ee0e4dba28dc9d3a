package report

import (
	"cmp"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/safetext"
	"github.com/twice-cli/twice/detect"
	"github.com/twice-cli/twice/tui/format"
)

// DefaultWorstRuns is how many of the worst runs a fleet summary lists.
const DefaultWorstRuns = 10

// Fleet summarises a scan of many runs: how many were scanned, how many had
// findings, the findings per activity, the worst runs with their links, and
// the runs that could not be read. Add runs from one goroutine.
type Fleet struct {
	// Query is the run-list filter the scan used.
	Query catalyst.RunQuery
	// Listed is the number of runs the list returned; Partial and Reason
	// say when the list was cut short.
	Listed  int
	Partial bool
	Reason  string
	// Scanned counts the runs analysed; WithFindings those with at least
	// one finding.
	Scanned      int
	WithFindings int
	// Failed are the runs that could not be read, with why.
	Failed []RunFailure
	// Concurrency is how many histories were read at once when the scan
	// ended (lowered when the server rate-limited).
	Concurrency int

	keep       int
	activities map[string]*ActivityTally
	worst      []RunSummary
}

// RunFailure is a run a scan could not read.
type RunFailure struct {
	Run catalyst.Run
	Err string
}

// ActivityTally counts one activity's findings across a scan.
type ActivityTally struct {
	Name     string
	Findings int
	Runs     int
	Worst    detect.Severity
	ByID     map[detect.FindingID]int
}

// RunSummary is one run in a fleet summary.
type RunSummary struct {
	Run      catalyst.Run
	Worst    detect.Severity
	Findings int
	Counts   [detect.SeverityHigh + 1]int
	Link     string
}

// NewFleet returns an empty summary that keeps the keep worst runs.
func NewFleet(q catalyst.RunQuery, keep int) *Fleet {
	if keep <= 0 {
		keep = DefaultWorstRuns
	}
	return &Fleet{Query: q, keep: keep, activities: map[string]*ActivityTally{}}
}

// Add counts one analysed run.
func (f *Fleet) Add(a Analysis, console string) {
	f.Scanned++
	a = a.Resolve()
	if a.Report == nil || len(a.Report.Findings) == 0 {
		return
	}
	f.WithFindings++
	seen := map[string]bool{}
	for _, fd := range a.Report.Findings {
		t := f.activities[fd.Activity]
		if t == nil {
			t = &ActivityTally{Name: fd.Activity, ByID: map[detect.FindingID]int{}}
			f.activities[fd.Activity] = t
		}
		t.Findings++
		t.ByID[fd.ID]++
		t.Worst = max(t.Worst, fd.Severity)
		if !seen[fd.Activity] {
			seen[fd.Activity] = true
			t.Runs++
		}
	}
	s := RunSummary{Run: a.History.Run, Worst: a.Worst(), Findings: len(a.Report.Findings), Counts: severityCounts(a.Report)}
	s.Run.Input, s.Run.Output, s.Run.CustomStatus = catalyst.Payload{}, catalyst.Payload{}, catalyst.Payload{}
	if link, ok := a.Link(console); ok {
		s.Link = link
	}
	f.worst = append(f.worst, s)
	slices.SortStableFunc(f.worst, compareRuns)
	if len(f.worst) > f.keep {
		f.worst = f.worst[:f.keep]
	}
}

// compareRuns orders the worst runs first: by worst severity, then by the
// number of findings at each severity, then by run id.
func compareRuns(x, y RunSummary) int {
	if c := cmp.Compare(y.Worst, x.Worst); c != 0 {
		return c
	}
	for s := detect.SeverityHigh; s >= detect.SeverityNone; s-- {
		if c := cmp.Compare(y.Counts[s], x.Counts[s]); c != 0 {
			return c
		}
	}
	return strings.Compare(x.Run.ID, y.Run.ID)
}

// AddFailure records a run that could not be read.
func (f *Fleet) AddFailure(run catalyst.Run, err error) {
	f.Failed = append(f.Failed, RunFailure{Run: run, Err: err.Error()})
}

// Activities returns the per-activity tallies, most findings first.
func (f *Fleet) Activities() []*ActivityTally {
	out := make([]*ActivityTally, 0, len(f.activities))
	for _, t := range f.activities {
		out = append(out, t)
	}
	slices.SortFunc(out, func(x, y *ActivityTally) int {
		if c := cmp.Compare(y.Worst, x.Worst); c != 0 {
			return c
		}
		if c := cmp.Compare(y.Findings, x.Findings); c != 0 {
			return c
		}
		return strings.Compare(x.Name, y.Name)
	})
	return out
}

// WorstRuns returns the worst runs, worst first.
func (f *Fleet) WorstRuns() []RunSummary { return f.worst }

// byIDText prints "duplicate-side-effect 4, timeout-race 1".
func byIDText(m map[detect.FindingID]int) string {
	ids := make([]string, 0, len(m))
	for id := range m {
		ids = append(ids, string(id))
	}
	slices.Sort(ids)
	for i, id := range ids {
		ids[i] = id + " " + strconv.Itoa(m[detect.FindingID(id)])
	}
	return strings.Join(ids, ", ")
}

// queryText describes a run query (format.QueryText).
func queryText(q catalyst.RunQuery, tf format.TimeFormat, now time.Time) string {
	return format.QueryText(q, tf, now)
}

// WriteFleetText writes the fleet summary for people.
func WriteFleetText(w io.Writer, f *Fleet, opts Options) error {
	t := newTextWriter(w, opts)
	st := opts.Styles
	t.println(st.Heading("Scan of " + queryText(f.Query, opts.TimeFormat, t.now)))
	listed := strconv.Itoa(f.Listed)
	if f.Partial {
		listed += " (partial list: " + line(f.Reason) + ")"
	}
	t.field("Runs listed", listed)
	t.field("Runs scanned", strconv.Itoa(f.Scanned))
	t.field("With findings", strconv.Itoa(f.WithFindings))
	if len(f.Failed) > 0 {
		t.field("Not read", strconv.Itoa(len(f.Failed))+" (listed below)")
	}
	acts := f.Activities()
	t.println()
	if len(acts) == 0 {
		t.println(st.Heading("Findings per activity: none"))
	} else {
		t.println(st.Heading("Findings per activity"))
		nameW := len("ACTIVITY")
		for _, a := range acts {
			nameW = max(nameW, min(width(line(a.Name)), maxNameWidth))
		}
		t.buf = append(t.buf, "  "...)
		t.buf = pad(t.buf, "ACTIVITY", nameW+2)
		t.buf = append(t.buf, "FINDINGS  RUNS  WORST      BY FINDING"...)
		t.endLine()
		for _, a := range acts {
			t.buf = append(t.buf, "  "...)
			t.buf = pad(t.buf, fit(line(a.Name), nameW), nameW+2)
			t.buf = pad(t.buf, strconv.Itoa(a.Findings), len("FINDINGS  "))
			t.buf = pad(t.buf, strconv.Itoa(a.Runs), len("RUNS  "))
			t.buf = append(t.buf, st.Severity(a.Worst)...)
			for n := width(SeverityMark(a.Worst)); n < len("WORST      "); n++ {
				t.buf = append(t.buf, ' ')
			}
			t.buf = append(t.buf, byIDText(a.ByID)...)
			t.endLine()
		}
	}
	if worst := f.WorstRuns(); len(worst) > 0 {
		t.println()
		t.println(st.Heading("Worst runs"))
		for _, r := range worst {
			t.buf = append(t.buf, "  "...)
			t.buf = append(t.buf, st.Severity(r.Worst)...)
			t.buf = append(t.buf, "  "...)
			t.buf = append(t.buf, line(r.Run.ID)...)
			t.buf = append(t.buf, "  "...)
			t.buf = append(t.buf, line(r.Run.Workflow)...)
			t.buf = append(t.buf, "  app "...)
			t.buf = append(t.buf, line(r.Run.AppID)...)
			t.buf = append(t.buf, "  "...)
			t.buf = append(t.buf, line(string(r.Run.Status.Normalized()))...)
			t.buf = append(t.buf, "  "...)
			t.buf = append(t.buf, plural(r.Findings, "finding")...)
			t.buf = append(t.buf, " ("...)
			t.buf = append(t.buf, countsText(r.Counts)...)
			t.buf = append(t.buf, ")"...)
			t.endLine()
			if r.Link != "" {
				t.println("      ", r.Link)
			}
		}
	}
	if len(f.Failed) > 0 {
		t.println()
		t.println(st.Heading("Not read"))
		for _, fl := range f.Failed {
			t.println("  ", line(fl.Run.ID), " (app ", line(fl.Run.AppID), "): ", safetext.Line(fl.Err))
		}
	}
	return t.flush()
}

func writeFleetJSON(e *jsonEnc, f *Fleet) {
	e.beginObject()
	e.key("query")
	e.beginObject()
	e.strField("project", f.Query.Project)
	e.strField("app_id", f.Query.AppID)
	e.strField("workflow", f.Query.Workflow)
	e.strField("status", string(f.Query.Status))
	e.timeField("since", f.Query.Since)
	e.timeField("until", f.Query.Until)
	e.endObject()
	e.intField("runs_listed", int64(f.Listed))
	e.boolField("partial", f.Partial)
	e.strField("partial_reason", f.Reason)
	e.intField("runs_scanned", int64(f.Scanned))
	e.intField("runs_with_findings", int64(f.WithFindings))
	if f.Concurrency > 0 {
		e.intField("concurrency", int64(f.Concurrency))
	}
	e.key("activities")
	e.beginArray()
	for _, a := range f.Activities() {
		e.beginObject()
		e.key("name")
		e.str(a.Name)
		e.intField("findings", int64(a.Findings))
		e.intField("runs", int64(a.Runs))
		e.key("worst")
		e.str(a.Worst.String())
		e.key("by_finding")
		e.beginObject()
		ids := make([]string, 0, len(a.ByID))
		for id := range a.ByID {
			ids = append(ids, string(id))
		}
		slices.Sort(ids)
		for _, id := range ids {
			e.sep()
			e.buf = safetext.AppendJSON(e.buf, id)
			e.buf = append(e.buf, ':')
			e.comma = false
			e.int(int64(a.ByID[detect.FindingID(id)]))
		}
		e.endObject()
		e.endObject()
	}
	e.endArray()
	e.key("worst_runs")
	e.beginArray()
	for _, r := range f.WorstRuns() {
		e.beginObject()
		e.strField("id", r.Run.ID)
		e.strField("app_id", r.Run.AppID)
		e.strField("workflow", r.Run.Workflow)
		e.strField("status", string(r.Run.Status))
		e.key("worst")
		e.str(r.Worst.String())
		e.intField("findings", int64(r.Findings))
		e.strField("link", r.Link)
		e.endObject()
	}
	e.endArray()
	e.key("not_read")
	e.beginArray()
	for _, fl := range f.Failed {
		e.beginObject()
		e.strField("id", fl.Run.ID)
		e.strField("app_id", fl.Run.AppID)
		e.strField("error", fl.Err)
		e.endObject()
	}
	e.endArray()
	e.endObject()
}

// WriteFleetMarkdown writes the fleet summary as Markdown for a ticket.
func WriteFleetMarkdown(w io.Writer, f *Fleet, opts Options) error {
	t := newTextWriter(w, opts)
	t.println("## twice scan: ", md(queryText(f.Query, opts.TimeFormat, t.now)))
	t.println()
	t.mdRow("Fact", "Value")
	t.mdRow("---", "---")
	listed := strconv.Itoa(f.Listed)
	if f.Partial {
		listed += " (partial list: " + md(f.Reason) + ")"
	}
	t.mdRow("Runs listed", listed)
	t.mdRow("Runs scanned", strconv.Itoa(f.Scanned))
	t.mdRow("Runs with findings", strconv.Itoa(f.WithFindings))
	t.mdRow("Runs not read", strconv.Itoa(len(f.Failed)))
	t.println()
	acts := f.Activities()
	if len(acts) == 0 {
		t.println("### Findings per activity: none")
	} else {
		t.println("### Findings per activity")
		t.println()
		t.mdRow("Activity", "Findings", "Runs", "Worst", "By finding")
		t.mdRow("---", "---", "---", "---", "---")
		for _, a := range acts {
			t.mdRow(md(a.Name), strconv.Itoa(a.Findings), strconv.Itoa(a.Runs), SeverityMark(a.Worst), byIDText(a.ByID))
		}
	}
	if worst := f.WorstRuns(); len(worst) > 0 {
		t.println()
		t.println("### Worst runs")
		t.println()
		t.mdRow("Worst", "Run", "Workflow", "App", "Status", "Findings", "Console")
		t.mdRow("---", "---", "---", "---", "---", "---", "---")
		for _, r := range worst {
			link := "no link"
			if r.Link != "" {
				link = "<" + r.Link + ">"
			}
			t.mdRow(SeverityMark(r.Worst), md(r.Run.ID), md(r.Run.Workflow), md(r.Run.AppID),
				md(string(r.Run.Status.Normalized())), strconv.Itoa(r.Findings)+" ("+countsText(r.Counts)+")", link)
		}
	}
	if len(f.Failed) > 0 {
		t.println()
		t.println("### Runs not read")
		t.println()
		for _, fl := range f.Failed {
			t.println("- ", md(fl.Run.ID), " (app ", md(fl.Run.AppID), "): ", md(fl.Err))
		}
	}
	t.println()
	t.println("_Generated by twice on ", t.now.UTC().Format(time.RFC3339), "._")
	return t.flush()
}
