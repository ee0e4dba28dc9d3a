package report

import (
	"io"
	"strings"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/detect"
	"github.com/twice-cli/twice/tui/format"
)

// timelineName caps the NAME column of the text timeline.
const timelineName = 24

// WriteTimeline writes a run's timeline as text, width columns wide, for a
// ticket: the picture the view's Timeline tab draws (format.TimelineRow),
// one row per invocation, each attempt a bar on one time axis from the
// run's start to its last event, with the axis, the legend, and the worst
// finding's glyph on the rows it concerns. A run that is still running,
// read live, is drawn to now.
func WriteTimeline(w io.Writer, a Analysis, opts Options, width int) error {
	a = a.Resolve()
	t := newTextWriter(w, opts)
	h := a.History
	t.spans = format.SpansOf(h)
	r := &h.Run
	title := "Timeline of run " + line(r.ID)
	if r.ID == "" {
		title = "Timeline of a run of " + line(r.Workflow) + " (id not in this history)"
	}
	t.println(opts.Styles.Heading(title))
	status := statusText(r.Status)
	if why := format.RunWhy(h); why != "" {
		status += ": " + why
	}
	t.println("  ", line(r.Workflow), " · ", status)
	if a.Report == nil || len(a.Report.Invocations) == 0 {
		t.println("  no activity or child workflow in this history: nothing to draw")
		return t.flush()
	}
	invs := a.Report.Invocations
	nameW := len("NAME")
	for i := range invs {
		nameW = max(nameW, min(nameWidth(invs[i].Name), timelineName))
	}
	barW := max(width-2-2-nameW-1, 10)
	start := catalyst.StampOf(r.CreatedAt)
	if r.CreatedAt.IsZero() && h.Len() > 0 {
		start = h.At(0).Timestamp
	}
	axis := format.RunAxis(h, start, t.now, barW)
	t.println("  start ", format.ExactStamp(h.Printed(axis.From)), " · end ", format.ExactStamp(h.Printed(axis.To)),
		" · ", t.spans.Between(axis.From, axis.To), " across ", plural(barW, "column"))
	if l := t.spans.Legend(); l != "" {
		t.println("  ", opts.Styles.Faint(l))
	}
	t.println()
	t.buf = append(t.buf, "    "...)
	t.buf = pad(t.buf, "NAME", nameW+1)
	t.buf = append(t.buf, strings.TrimRight(axis.Ticks(start), " ")...)
	t.endLine()
	var marks []format.Mark
	for i := range invs {
		inv := &invs[i]
		glyph := " "
		if sev := inv.Severity(a.Report); sev > detect.SeverityNone {
			glyph = format.SeverityGlyph(sev)
		}
		t.buf = append(t.buf, "  "...)
		t.buf = append(t.buf, opts.Styles.severityText(inv.Severity(a.Report), glyph)...)
		t.buf = append(t.buf, ' ')
		t.buf = pad(t.buf, fit(line(inv.Name), nameW), nameW+1)
		marks = format.TimelineRow(marks, h, inv, axis)
		t.buf = format.AppendMarks(t.buf, marks)
		t.buf = trimRight(t.buf)
		t.endLine()
	}
	t.println()
	t.println("  ", format.TimelineLegendLine(), "  ▲◆● finding")
	return t.flush()
}

// nameWidth is the display width of a history name once sanitized.
func nameWidth(name string) int { return width(line(name)) }
