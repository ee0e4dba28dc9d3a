package report

import (
	"io"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/detect"
	"github.com/twice-cli/twice/tui/format"
)

// Mermaid gantt charts (twice show --timeline -o mermaid, twice diff -o
// mermaid, and above the findings of show and scan -o markdown): a picture
// of a run that GitHub, GitLab and most wikis draw in an issue or a pull
// request. A section per call, its attempts as bars (a failed one "crit",
// one with no outcome "active"), the backoff between them as a "done" bar,
// the outcome in the bar's words, and each finding as a milestone where its
// call ended. A first section, the run, spans the run from its start to its
// end, so the chart keeps the run's scale however many calls are drawn.
//
// The syntax is Mermaid's gantt grammar (mermaid-js/mermaid,
// packages/mermaid/src/diagrams/gantt/parser/gantt.jison): a line is a
// statement; a task is its text, ":" and its data; text ends at "#", ":",
// ";" or a newline, "%" starts a comment, and a word such as "section",
// "title", "click" or "call" starting a line is a statement of its own.
// So every text twice writes goes through the sanitizer and then
// mermaidText, which keeps letters, digits, spaces and a few harmless
// marks and writes "_" for any other ASCII character; and every task's
// text starts with a word of twice's own.
//
// Times are milliseconds since the epoch (dateFormat x): a run's own
// instants for show; for diff, each run from its own start, both drawn
// from A's start. The title says the source's time resolution.

// mermaidMaxCalls caps the calls a chart draws: the calls with findings
// first, then the first calls in order; the run's bar keeps the scale and
// a comment says how many were left out.
const mermaidMaxCalls = 60

// mermaidText makes history text safe in a Mermaid gantt statement: one
// safe line (the sanitizer), without the characters the grammar reads
// (#, :, ;, %, quotes, brackets, backticks, angle brackets, ampersands,
// backslashes), cut to n runes; "_" for the empty text.
func mermaidText(s string, n int) string {
	s = line(s)
	b := make([]byte, 0, len(s))
	runes := 0
	for _, r := range s {
		if runes == n {
			b = append(b, "…"...)
			break
		}
		runes++
		if r >= utf8.RuneSelf {
			b = utf8.AppendRune(b, r)
			continue
		}
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
			b = append(b, byte(r))
		case r == ' ' || r == '_' || r == '-' || r == '.' || r == ',' || r == '/' || r == '(' || r == ')' ||
			r == '=' || r == '+' || r == '@':
			b = append(b, byte(r))
		default:
			b = append(b, '_')
		}
	}
	if len(b) == 0 {
		return "_"
	}
	return string(b)
}

// gantt writes one chart.
type gantt struct {
	buf []byte
	n   int // tasks written, for their ids
}

func (g *gantt) line(parts ...string) {
	g.buf = append(g.buf, "    "...)
	for _, p := range parts {
		g.buf = append(g.buf, p...)
	}
	g.buf = append(g.buf, '\n')
}

// task writes a bar (or a milestone) from one instant to another, in
// milliseconds since the epoch; text is twice's own words, made safe.
func (g *gantt) task(text, tag string, from, to int64) {
	g.n++
	g.buf = append(g.buf, "    "...)
	g.buf = append(g.buf, mermaidText(text, 80)...)
	g.buf = append(g.buf, " :"...)
	if tag != "" {
		g.buf = append(g.buf, tag...)
		g.buf = append(g.buf, ", "...)
	}
	g.buf = append(g.buf, 't')
	g.buf = strconv.AppendInt(g.buf, int64(g.n), 10)
	g.buf = append(g.buf, ", "...)
	g.buf = strconv.AppendInt(g.buf, from, 10)
	g.buf = append(g.buf, ", "...)
	g.buf = strconv.AppendInt(g.buf, max(to, from), 10)
	g.buf = append(g.buf, '\n')
}

// ms is an instant in milliseconds since the epoch.
func ms(s catalyst.Stamp) int64 { return int64(s) / int64(time.Millisecond) }

// resolutionWords says how exactly a history's times are known, for a
// chart's title.
func resolutionWords(h *catalyst.History) string {
	switch {
	case h.TimeResolution <= 0:
		return "times exact to the millisecond"
	case h.TimeResolution == time.Second && h.RebuiltSpans():
		return "times printed to the second, bars rebuilt from the elapsed column"
	case h.TimeResolution == time.Second:
		return "times known to the second"
	}
	return "times known to " + format.Duration(h.TimeResolution)
}

// runSpan is where a run's chart starts and ends: its creation (else its
// first event) and its last update (else its last event, or now for a
// run still running).
func runSpan(h *catalyst.History, now time.Time) (from, to catalyst.Stamp) {
	r := &h.Run
	from = catalyst.StampOf(r.CreatedAt)
	if r.CreatedAt.IsZero() && h.Len() > 0 {
		from = h.At(0).Timestamp
	}
	to = catalyst.StampOf(r.UpdatedAt)
	for _, e := range h.All() {
		if e.Timestamp > to {
			to = e.Timestamp
		}
	}
	if !r.Status.IsEnded() && r.Provenance.Live() {
		to = max(to, catalyst.StampOf(now))
	}
	return from, max(to, from)
}

// drawnCalls picks the calls a chart draws: every call when there are few,
// else those with findings, then the first ones, up to mermaidMaxCalls, in
// order.
func drawnCalls(r *detect.Report) []int {
	n := len(r.Invocations)
	if n <= mermaidMaxCalls {
		out := make([]int, n)
		for i := range out {
			out[i] = i
		}
		return out
	}
	pick := make([]bool, n)
	left := mermaidMaxCalls
	for i := range r.Invocations {
		if left > 0 && len(r.Invocations[i].Findings) > 0 {
			pick[i], left = true, left-1
		}
	}
	for i := 0; i < n && left > 0; i++ {
		if !pick[i] {
			pick[i], left = true, left-1
		}
	}
	var out []int
	for i, p := range pick {
		if p {
			out = append(out, i)
		}
	}
	return out
}

// call draws one call's attempts, backoffs and findings, shifted by shift
// milliseconds; end is where an attempt with no outcome is drawn to.
func (g *gantt) call(h *catalyst.History, r *detect.Report, inv *detect.Invocation, shift int64, end catalyst.Stamp) {
	sp := format.SpansOf(h)
	last := inv.Start
	for k := range inv.Attempts {
		a := &inv.Attempts[k]
		if k > 0 && !inv.Attempts[k-1].End.IsZero() && a.Start > inv.Attempts[k-1].End {
			prev := inv.Attempts[k-1].End
			g.task("backoff "+sp.Between(prev, a.Start), "done", ms(prev)+shift, ms(a.Start)+shift)
		}
		to, tag := a.End, ""
		words := "attempt " + strconv.Itoa(a.Number) + " " + a.Outcome.String()
		switch a.Outcome {
		case detect.OutcomeFailed:
			tag = "crit"
			if a.Failure != nil && a.Failure.Type != "" {
				words += " " + a.Failure.Type
			}
		case detect.OutcomePending, detect.OutcomeUnknown:
			tag, to = "active", end
		}
		if to.IsZero() {
			to = end
		}
		if a.Outcome == detect.OutcomeCompleted || a.Outcome == detect.OutcomeFailed {
			words += " after " + sp.Between(a.Start, a.End)
		}
		g.task(words, tag, ms(a.Start)+shift, ms(to)+shift)
		last = max(last, to)
	}
	for _, f := range inv.Findings {
		fd := &r.Findings[f]
		g.task("finding "+fd.Severity.String()+" "+string(fd.ID), "milestone", ms(last)+shift, ms(last)+shift)
	}
}

// WriteMermaid writes a run's timeline as a Mermaid gantt chart (no code
// fence).
func WriteMermaid(w io.Writer, a Analysis, opts Options) error {
	a = a.Resolve()
	g := &gantt{}
	g.run(a, opts)
	_, err := w.Write(g.buf)
	return err
}

// run writes the chart of one run.
func (g *gantt) run(a Analysis, opts Options) {
	h := a.History
	r := &h.Run
	from, to := runSpan(h, opts.now())
	g.buf = append(g.buf, "gantt\n"...)
	g.line("title ", mermaidText("Run "+first(r.ID, "(id not in this history)")+" of "+r.Workflow+", "+resolutionWords(h), 200))
	g.line("dateFormat x")
	g.line("axisFormat ", axisFormat(to.Sub(from)))
	if a.Report == nil {
		g.line("%% no analysis: nothing to draw")
		return
	}
	calls := drawnCalls(a.Report)
	if left := len(a.Report.Invocations) - len(calls); left > 0 {
		g.line("%% ", strconv.Itoa(left), " of ", strconv.Itoa(len(a.Report.Invocations)),
			" calls are not drawn: those with findings first, then the first calls")
	}
	g.line("section the run")
	g.task("run "+statusText(r.Status)+" in "+format.SpansOf(h).Between(from, to), "done", ms(from), ms(to))
	// Calls of one name are told apart by the input field that differs
	// between them (the view's INPUT column), else by their ids.
	keys := detect.InvocationKeys(h, a.Report)
	for _, i := range calls {
		inv := &a.Report.Invocations[i]
		name := inv.Name
		if i < len(keys) && !keys[i].IsZero() {
			name += " " + keys[i].String()
		}
		g.line("section ", mermaidText(name, 60))
		g.call(h, a.Report, inv, 0, to)
	}
}

// axisFormat is the axis's format for a chart spanning d: seconds for a
// short run, hours for a long one.
func axisFormat(d time.Duration) string {
	switch {
	case d < time.Minute:
		return "%M:%S.%L"
	case d < 24*time.Hour:
		return "%H:%M:%S"
	}
	return "%d %H:%M"
}

func first(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// WriteDiffMermaid writes two runs compared as one Mermaid gantt chart:
// each aligned pair of calls as a section, A's attempts then B's, each
// run from its own start (both drawn from A's start), the sections of
// pairs that differ marked "≠", the runs' own bars first.
func WriteDiffMermaid(w io.Writer, d Diff, opts Options) error {
	a, b := d.A.Resolve(), d.B.Resolve()
	ha, hb := a.History, b.History
	fa, ta := runSpan(ha, opts.now())
	fb, tb := runSpan(hb, opts.now())
	shift := ms(fa) - ms(fb) // B drawn from A's start
	g := &gantt{}
	g.buf = append(g.buf, "gantt\n"...)
	g.line("title ", mermaidText("Diff of run A "+ha.Run.ID+" and run B "+hb.Run.ID+", each from its own start, A "+
		resolutionWords(ha)+", B "+resolutionWords(hb), 240))
	g.line("dateFormat x")
	g.line("axisFormat ", axisFormat(max(ta.Sub(fa), tb.Sub(fb))))
	g.line("section the runs")
	g.task("A run "+statusText(ha.Run.Status)+" in "+format.SpansOf(ha).Between(fa, ta), "done", ms(fa), ms(ta))
	g.task("B run "+statusText(hb.Run.Status)+" in "+format.SpansOf(hb).Between(fb, tb), "done", ms(fb)+shift, ms(tb)+shift)
	pairs := d.Diff.Pairs
	if len(pairs) > mermaidMaxCalls {
		g.line("%% ", strconv.Itoa(len(pairs)-mermaidMaxCalls), " of ", strconv.Itoa(len(pairs)),
			" pairs of calls are not drawn: those that differ come first")
		pairs = pairs[:mermaidMaxCalls]
	}
	for i := range pairs {
		p := &pairs[i]
		mark := ""
		if p.Changed() {
			mark = "≠ "
		}
		g.line("section ", mark, mermaidText(p.Name, 60), " (", p.Aligned.String(), ")")
		if p.A >= 0 {
			g.prefixed("A ", func() { g.call(ha, a.Report, &a.Report.Invocations[p.A], 0, ta) })
		}
		if p.B >= 0 {
			g.prefixed("B ", func() { g.call(hb, b.Report, &b.Report.Invocations[p.B], shift, tb) })
		}
	}
	_, err := w.Write(g.buf)
	return err
}

// prefixed runs draw, then starts each task line it wrote with prefix (A
// or B: twice's own word, so a task's text still starts with one).
func (g *gantt) prefixed(prefix string, draw func()) {
	start := len(g.buf)
	draw()
	var out []byte
	rest := g.buf[start:]
	for len(rest) > 0 {
		i := 0
		for i < len(rest) && rest[i] != '\n' {
			i++
		}
		ln := rest[:i]
		if len(ln) > 4 {
			out = append(out, ln[:4]...)
			out = append(out, prefix...)
			out = append(out, ln[4:]...)
		} else {
			out = append(out, ln...)
		}
		out = append(out, '\n')
		if i < len(rest) {
			i++
		}
		rest = rest[i:]
	}
	g.buf = append(g.buf[:start], out...)
}

// mermaidBlock is a chart in a Markdown code block that GitHub, GitLab and
// most wikis draw.
func mermaidBlock(chart []byte) []byte {
	out := make([]byte, 0, len(chart)+16)
	out = append(out, "```mermaid\n"...)
	out = append(out, chart...)
	return append(out, "```\n"...)
}

// markdownChart is a run's chart as a Markdown code block.
func markdownChart(a Analysis, opts Options) []byte {
	g := &gantt{}
	g.run(a, opts)
	return mermaidBlock(g.buf)
}
