package report

import (
	"bytes"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/detect"
	"github.com/twice-cli/twice/detect/rundiff"
	"github.com/twice-cli/twice/tui/format"
)

// Diff is two runs compared (twice diff): each run's analysis, where it was
// read from, and what differs.
type Diff struct {
	A, B Analysis
	// NameA and NameB say where each run was read from (the argument:
	// a file, "-", demo:NAME, a run id).
	NameA, NameB string
	Diff         *rundiff.Diff
}

// pairTitle names a pair: its name and how it was aligned.
func pairTitle(p *rundiff.Pair) string {
	s := line(p.Name)
	if p.Kind == detect.KindChildWorkflow {
		s += " (child workflow)"
	}
	how := p.Aligned.Words()
	if p.Aligned == rundiff.AlignedByKey {
		how += " " + strconv.Quote(trimmed(line(p.Key), 60))
	}
	return s + " · " + how
}

// runLine says which run a side is: its id, workflow, status, how long it
// took, and where it was read from.
func runLine(a Analysis, name string) string {
	h := a.History
	r := &h.Run
	id := r.ID
	if id == "" {
		id = "(id not in this history)"
	}
	s := line(id) + " · " + line(r.Workflow) + " · " + statusText(r.Status)
	if r.Status.IsEnded() && !r.CreatedAt.IsZero() && !r.UpdatedAt.IsZero() {
		s += " · took " + format.SpansOf(h).BetweenTimes(r.CreatedAt, r.UpdatedAt)
	}
	if name != "" {
		s += " · " + line(name)
	}
	return s
}

// resolutionLine says how exactly each side's times are known.
func resolutionLine(d Diff) string {
	res := func(h *catalyst.History) string {
		var s string
		switch {
		case h.TimeResolution <= 0:
			return "exact"
		case h.TimeResolution == time.Second:
			s = "whole seconds"
		default:
			s = "printed to " + format.Duration(h.TimeResolution)
		}
		if h.RebuiltSpans() {
			s += ", spans rebuilt from elapsed"
		}
		return s
	}
	return "times: A " + res(d.A.History) + "; B " + res(d.B.History) +
		" (a span marked ~ is known to ±the resolution; differences within it are not reported)"
}

// WriteDiffText writes two runs compared, for a terminal or a pipe: the two
// runs, the findings only one has, what differs in the runs, then each
// aligned pair of invocations that differs, worst first, and the names of
// those that do not.
func WriteDiffText(w io.Writer, d Diff, opts Options) error {
	t := newTextWriter(w, opts)
	st := opts.Styles
	t.println(st.Heading("Diff of two runs"))
	t.println("  A  ", runLine(d.A, d.NameA))
	t.println("  B  ", runLine(d.B, d.NameB))
	t.println("  ", st.Faint(resolutionLine(d)))
	t.println()
	df := d.Diff
	if !df.Changed() {
		t.println("No differences: the same calls, attempts, outcomes and findings.")
		return t.flush()
	}
	if len(df.Findings) > 0 {
		t.println(st.Heading("Findings only one run has: " + strconv.Itoa(len(df.Findings))))
		for _, c := range capped(df.Findings, diffListed) {
			f := df.Finding(c)
			t.println("  only in ", c.Side.String(), "  ", st.severityText(f.Severity, format.SeverityLabel(f.Severity)),
				"  ", string(f.ID), " (", string(f.Confidence), ")  ", findingWhere(f))
		}
		if n := len(df.Findings) - diffListed; n > 0 {
			t.println("  and ", strconv.Itoa(n), " more (-o json lists every one)")
		}
		t.println()
	}
	if len(df.Run) > 0 {
		t.println(st.Heading("The runs"))
		t.changes(df.Run)
		t.println()
	}
	changed, onlyA, onlyB := 0, 0, 0
	for i := range df.Pairs {
		p := &df.Pairs[i]
		switch {
		case p.Aligned == rundiff.OnlyInA:
			onlyA++
		case p.Aligned == rundiff.OnlyInB:
			onlyB++
		case p.Changed():
			changed++
		}
	}
	t.println(st.Heading("Calls: " + strconv.Itoa(len(df.Pairs)) + " (" + strconv.Itoa(changed) + " differ, " +
		strconv.Itoa(onlyA) + " only in A, " + strconv.Itoa(onlyB) + " only in B)"))
	shown := 0
	for i := range df.Pairs {
		p := &df.Pairs[i]
		if !p.Changed() {
			continue
		}
		if shown++; shown > diffListed {
			continue
		}
		t.println("  ", pairTitle(p))
		t.changes(p.Changes)
	}
	if n := changed + onlyA + onlyB - diffListed; n > 0 {
		t.println("  and ", strconv.Itoa(n), " more calls that differ (-o json lists every one)")
	}
	if same := sameNames(df, line); len(same) > 0 {
		t.println("  the same in both: ", strings.Join(same, ", "))
	}
	return t.flush()
}

// sameNames names the calls that are the same in both runs, each name
// once with how many calls it has ("LoadSettings ×3"), the first 20 names
// and how many more; word makes a name safe for the output.
func sameNames(d *rundiff.Diff, word func(string) string) []string {
	var names []string
	count := map[string]int{}
	for i := range d.Pairs {
		p := &d.Pairs[i]
		if p.Changed() {
			continue
		}
		if count[p.Name] == 0 {
			names = append(names, p.Name)
		}
		count[p.Name]++
	}
	out := make([]string, 0, min(len(names), 21))
	for i, n := range names {
		if i == 20 {
			out = append(out, "and "+strconv.Itoa(len(names)-20)+" more names")
			break
		}
		w := word(n)
		if count[n] > 1 {
			w += " ×" + strconv.Itoa(count[n])
		}
		out = append(out, w)
	}
	return out
}

// diffListed caps the findings and the calls that differ that text and
// Markdown list (a ticket, a terminal); JSON lists every one.
const diffListed = 200

// capped is the first n of xs.
func capped[T any](xs []T, n int) []T { return xs[:min(len(xs), n)] }

// changedPairs counts the pairs that differ (those only one run has too).
func changedPairs(d *rundiff.Diff) int {
	n := 0
	for i := range d.Pairs {
		if d.Pairs[i].Changed() {
			n++
		}
	}
	return n
}

// findingWhere says what a finding concerns: its activity and invocation.
func findingWhere(f *detect.Finding) string {
	if f.Activity == "" {
		return "(run-wide)"
	}
	return line(f.Activity)
}

// changes writes a list of changes, one a line: "    attempts  A 1 attempt → B 2 attempts".
func (t *textWriter) changes(cs []rundiff.Change) {
	w := 0
	for _, c := range cs {
		w = max(w, len(c.Kind.Title()))
	}
	for _, c := range cs {
		t.buf = append(t.buf, "    "...)
		t.buf = pad(t.buf, c.Kind.Title(), w+2)
		if c.Kind == rundiff.ChangeNotCompared {
			t.buf = append(t.buf, notCompared(c)...)
			t.endLine()
			continue
		}
		t.buf = append(t.buf, "A "...)
		t.buf = append(t.buf, format.Facts(c.A)...)
		t.buf = append(t.buf, "  →  B "...)
		t.buf = append(t.buf, format.Facts(c.B)...)
		t.endLine()
	}
}

// notCompared words what was not compared on each side: "B: payloads
// withheld: …".
func notCompared(c rundiff.Change) string {
	var parts []string
	if len(c.A) > 0 {
		parts = append(parts, "A: "+format.Facts(c.A))
	}
	if len(c.B) > 0 {
		parts = append(parts, "B: "+format.Facts(c.B))
	}
	return strings.Join(parts, "; ")
}

// WriteDiffMarkdown writes two runs compared for a ticket: the runs, the
// findings only one has, and a table of what differs, worst first. History
// text is sanitized and Markdown-escaped.
func WriteDiffMarkdown(w io.Writer, d Diff, opts Options) error {
	t := newTextWriter(w, opts)
	df := d.Diff
	t.println("## Diff of two runs")
	t.println()
	t.mdRow("", "Run")
	t.mdRow("---", "---")
	t.mdRow("A", md(runLine(d.A, d.NameA)))
	t.mdRow("B", md(runLine(d.B, d.NameB)))
	t.println()
	t.println("_", md(resolutionLine(d)), "_")
	t.println()
	if !df.Changed() {
		t.println("No differences: the same calls, attempts, outcomes and findings.")
	}
	if len(df.Findings) > 0 {
		t.println("### Findings only one run has")
		t.println()
		t.mdRow("Only in", "Severity", "Finding", "Confidence", "Call")
		t.mdRow("---", "---", "---", "---", "---")
		for _, c := range capped(df.Findings, diffListed) {
			f := df.Finding(c)
			t.mdRow(c.Side.String(), f.Severity.String(), md(string(f.ID)), string(f.Confidence), md(findingWhere(f)))
		}
		if n := len(df.Findings) - diffListed; n > 0 {
			t.println()
			t.println("And ", strconv.Itoa(n), " more (`-o json` lists every one).")
		}
		t.println()
	}
	if df.Changed() {
		t.println("### What differs")
		t.println()
		t.mdRow("Call", "Aligned", "What", "A", "B")
		t.mdRow("---", "---", "---", "---", "---")
		for _, c := range df.Run {
			if c.Kind == rundiff.ChangeNotCompared {
				t.mdRow("(the run)", "", c.Kind.Title(), md(notCompared(c)), "")
				continue
			}
			t.mdRow("(the run)", "", c.Kind.Title(), md(format.Facts(c.A)), md(format.Facts(c.B)))
		}
		rows := 0
		for i := range df.Pairs {
			p := &df.Pairs[i]
			if !p.Changed() {
				continue
			}
			if rows++; rows > diffListed {
				break
			}
			name, how := md(p.Name), p.Aligned.String()
			if p.Aligned == rundiff.AlignedByKey {
				how += " " + strconv.Quote(trimmed(line(p.Key), 60))
			}
			how = md(how)
			for _, c := range p.Changes {
				t.mdRow(name, how, c.Kind.Title(), md(format.Facts(c.A)), md(format.Facts(c.B)))
				name, how = "″", "″"
			}
		}
		if rows > diffListed {
			t.println()
			t.println("And ", strconv.Itoa(changedPairs(df)-diffListed), " more calls that differ (`-o json` lists every one).")
		}
		if same := sameNames(df, md); len(same) > 0 {
			t.println()
			t.println("The same in both: ", strings.Join(same, ", "), ".")
		}
	}
	t.println()
	t.println("### Timelines")
	t.println()
	var chart bytes.Buffer
	if err := WriteDiffMermaid(&chart, d, opts); err != nil {
		return err
	}
	t.buf = append(t.buf, mermaidBlock(chart.Bytes())...)
	t.println()
	t.println("_Generated by twice on ", t.now.UTC().Format(time.RFC3339), "._")
	return t.flush()
}

// WriteDiffJSON writes two runs compared as one JSON document
// (docs/json-output.md, "twice diff").
func WriteDiffJSON(w io.Writer, d Diff, opts Options) error {
	e := newJSONEnc(w)
	df := d.Diff
	e.beginObject()
	e.key("diff")
	e.beginObject()
	side := func(key string, a Analysis, name string) {
		h := a.History
		r := &h.Run
		e.key(key)
		e.beginObject()
		e.strField("location", name)
		e.strField("id", r.ID)
		e.strField("app_id", r.AppID)
		e.strField("workflow", r.Workflow)
		e.strField("status", string(r.Status.Normalized()))
		e.key("time_resolution_ms")
		e.millis(h.TimeResolution)
		e.endObject()
	}
	side("a", d.A, d.NameA)
	side("b", d.B, d.NameB)
	e.key("changed")
	e.bool(df.Changed())
	e.key("findings")
	e.beginArray()
	for _, c := range df.Findings {
		f := df.Finding(c)
		e.beginObject()
		e.nameField("only_in", strings.ToLower(c.Side.String()))
		e.nameField("id", string(f.ID))
		e.nameField("severity", f.Severity.String())
		e.nameField("confidence", string(f.Confidence))
		e.strField("activity", f.Activity)
		e.strField("invocation", f.Invocation)
		e.key("pair")
		e.int(int64(c.Pair))
		e.endObject()
	}
	e.endArray()
	e.key("run")
	e.diffChanges(df.Run)
	e.key("pairs")
	e.beginArray()
	for i := range df.Pairs {
		p := &df.Pairs[i]
		e.beginObject()
		e.nameField("kind", p.Kind.String())
		e.strField("name", p.Name)
		e.key("a")
		e.int(int64(p.A))
		e.key("b")
		e.int(int64(p.B))
		e.nameField("aligned", p.Aligned.String())
		e.strField("key", p.Key)
		e.key("changes")
		e.diffChanges(p.Changes)
		e.endObject()
		e.maybeDrain()
	}
	e.endArray()
	e.endObject()
	e.endObject()
	e.buf = append(e.buf, '\n')
	return e.flush()
}

// diffChanges writes a list of changes: each its kind and each side's
// facts, a span also in milliseconds with how far it may be off.
func (e *jsonEnc) diffChanges(cs []rundiff.Change) {
	e.beginArray()
	for _, c := range cs {
		e.beginObject()
		e.nameField("kind", c.Kind.String())
		if c.Kind == rundiff.ChangeFinding {
			e.nameField("finding", string(c.Finding))
			e.nameField("severity", c.Severity.String())
		}
		for _, s := range []struct {
			key   string
			facts []detect.Fact
		}{{"a", c.A}, {"b", c.B}} {
			e.key(s.key)
			e.beginArray()
			for _, f := range s.facts {
				e.beginObject()
				e.factField("text", f)
				if sp, ok := f.Span(); ok {
					e.key("ms")
					e.millis(sp.D)
					e.key("error_ms")
					e.millis(sp.Err)
				}
				e.endObject()
			}
			e.endArray()
		}
		e.endObject()
	}
	e.endArray()
}
