package report

import (
	"cmp"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/detect"
)

// NotRead is a history a scan of files or run ids could not read: the
// argument as given, and why.
type NotRead struct {
	// Source is the argument: a path, "-", "demo:NAME" or a run id.
	Source string
	// RunID and AppID name a run read live, when it was one.
	RunID string
	AppID string
	// Err is the error, as text.
	Err string
}

// scanLine is one run of a scan summary.
type scanLine struct {
	pos      int
	run      *catalyst.Run
	source   string
	worst    detect.Severity
	findings int
	counts   [detect.SeverityHigh + 1]int
}

// scanLines returns one line per run, the most severe first (then the most
// findings at each severity), ties in the order the runs were given.
func scanLines(runs []Analysis) []scanLine {
	lines := make([]scanLine, len(runs))
	for i := range runs {
		a := runs[i].Resolve()
		l := scanLine{pos: i, run: &a.History.Run, source: shortSource(a.History.Run.Provenance), worst: a.Worst()}
		if a.Report != nil {
			l.findings = len(a.Report.Findings)
			l.counts = severityCounts(a.Report)
		}
		lines[i] = l
	}
	slices.SortStableFunc(lines, func(x, y scanLine) int {
		if c := cmp.Compare(y.worst, x.worst); c != 0 {
			return c
		}
		for s := detect.SeverityHigh; s >= detect.SeverityNone; s-- {
			if c := cmp.Compare(y.counts[s], x.counts[s]); c != 0 {
				return c
			}
		}
		return cmp.Compare(x.pos, y.pos)
	})
	return lines
}

// shortSource names where a run was read from in a few words: the file or
// demo, standard input, or Catalyst. The text is the source's own: escape
// it (line, md) to print it.
func shortSource(p catalyst.Provenance) string {
	switch p.Surface {
	case catalyst.SurfaceFile, catalyst.SurfaceDemo:
		return p.Location
	case catalyst.SurfaceStdin:
		return "standard input"
	case catalyst.SurfaceCatalystMCP:
		return "Catalyst"
	}
	return string(p.Surface)
}

// scanHeadline counts the runs, those with findings, the findings by
// severity and the histories not read: "3 runs, 2 with findings; 2
// findings (1 high, 1 medium); 1 not read".
func scanHeadline(runs []Analysis, lines []scanLine, notRead int) string {
	var total [detect.SeverityHigh + 1]int
	with, findings := 0, 0
	for _, l := range lines {
		if l.findings > 0 {
			with++
		}
		findings += l.findings
		for s := range total {
			total[s] += l.counts[s]
		}
	}
	s := plural(len(runs), "run") + ", " + strconv.Itoa(with) + " with findings; " + plural(findings, "finding") + countsSuffix(total)
	if notRead > 0 {
		s += "; " + strconv.Itoa(notRead) + " not read"
	}
	return s
}

// notReadName names a history that was not read, its text escaped by esc
// (line for text, md for Markdown).
func notReadName(n NotRead, esc func(string) string) string {
	if n.RunID != "" {
		return "run " + esc(n.RunID) + " (app " + esc(n.AppID) + ")"
	}
	if n.Source == "-" {
		return "standard input"
	}
	return esc(n.Source)
}

// notReadText says why a history was not read, naming it once: most
// errors already name their file.
func notReadText(n NotRead, esc func(string) string) string {
	if n.RunID == "" && n.Source != "" && n.Source != "-" && strings.Contains(n.Err, n.Source) {
		return esc(n.Err)
	}
	return notReadName(n, esc) + ": " + esc(n.Err)
}

// WriteScanSummaryText writes the summary a scan of several runs prints
// before the runs themselves: a headline, then one line per run, the most
// severe first (worst severity, findings, run id, workflow, source), then
// the histories that could not be read.
func WriteScanSummaryText(w io.Writer, runs []Analysis, notRead []NotRead, opts Options) error {
	t := newTextWriter(w, opts)
	st := opts.Styles
	lines := scanLines(runs)
	t.println(st.Heading("Scan summary: " + scanHeadline(runs, lines, len(notRead))))
	runW, wfW := len("RUN"), len("WORKFLOW")
	for _, l := range lines {
		runW = max(runW, min(width(line(l.run.ID)), maxIDWidth))
		wfW = max(wfW, min(width(line(l.run.Workflow)), maxNameWidth))
	}
	worstW, findingsW := width(SeverityMark(detect.SeverityMedium))+2, len("FINDINGS  ")
	t.buf = append(t.buf, "  "...)
	t.buf = pad(t.buf, "WORST", worstW)
	t.buf = pad(t.buf, "FINDINGS", findingsW)
	t.buf = pad(t.buf, "RUN", runW+2)
	t.buf = pad(t.buf, "WORKFLOW", wfW+2)
	t.buf = append(t.buf, "SOURCE"...)
	t.endLine()
	for _, l := range lines {
		t.buf = append(t.buf, "  "...)
		t.buf = append(t.buf, st.Severity(l.worst)...)
		for n := width(SeverityMark(l.worst)); n < worstW; n++ {
			t.buf = append(t.buf, ' ')
		}
		t.buf = pad(t.buf, strconv.Itoa(l.findings), findingsW)
		t.buf = pad(t.buf, fit(line(l.run.ID), runW), runW+2)
		t.buf = pad(t.buf, fit(line(l.run.Workflow), wfW), wfW+2)
		t.buf = append(t.buf, line(l.source)...)
		t.endLine()
	}
	if len(notRead) > 0 {
		t.println()
		t.println(st.Heading("Not read: " + strconv.Itoa(len(notRead))))
		for _, n := range notRead {
			t.println("  ", notReadText(n, line))
		}
	}
	return t.flush()
}

// WriteScanSummaryMarkdown is WriteScanSummaryText as Markdown, ending with
// a rule before the runs.
func WriteScanSummaryMarkdown(w io.Writer, runs []Analysis, notRead []NotRead, opts Options) error {
	t := newTextWriter(w, opts)
	lines := scanLines(runs)
	t.println("## Scan summary: ", md(scanHeadline(runs, lines, len(notRead))))
	t.println()
	t.mdRow("Worst", "Findings", "Run", "Workflow", "Source")
	t.mdRow("---", "---", "---", "---", "---")
	for _, l := range lines {
		t.mdRow(SeverityMark(l.worst), strconv.Itoa(l.findings)+countsSuffix(l.counts), md(l.run.ID), md(l.run.Workflow), md(l.source))
	}
	if len(notRead) > 0 {
		t.println()
		t.println("Not read:")
		t.println()
		for _, n := range notRead {
			t.println("- ", notReadText(n, md))
		}
	}
	t.println()
	t.println("---")
	t.println()
	return t.flush()
}

// countsSuffix is " (1 high, 2 medium)", or "" with no findings.
func countsSuffix(c [detect.SeverityHigh + 1]int) string {
	if s := countsText(c); s != "" {
		return " (" + s + ")"
	}
	return ""
}
