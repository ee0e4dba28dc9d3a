package format

import (
	"strconv"
	"strings"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/safetext"
	"github.com/twice-cli/twice/detect"
	"github.com/twice-cli/twice/detect/review"
)

// Markdown sanitizes history text for one line of Markdown and escapes
// every character Markdown or GitHub would interpret (emphasis, code,
// links, HTML, tables, math); "-" when empty. A hostile name can neither
// reach a terminal raw nor change the document's structure.
func Markdown(s string) string {
	if s == "" {
		return "-"
	}
	s = safetext.Line(s)
	const special = "\\`*_[]<>|!~&#$"
	if !strings.ContainsAny(s, special) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); i++ {
		if strings.IndexByte(special, s[i]) >= 0 {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// MarkdownCode sanitizes text for one line of Markdown and writes it as a
// code span that shows it as itself: no backslash escapes (inside a code
// span Markdown shows them), a fence of one backtick more than the
// longest run in the text, and a space inside each end when the text
// starts or ends with a backtick or a space. "-" when empty. Not for a
// table cell: MarkdownCodeCell.
func MarkdownCode(s string) string {
	return markdownCode(s, false)
}

// MarkdownCodeCell is MarkdownCode for a cell of a Markdown table: a "|"
// is written "\|", the table's own escape, which GitHub takes back before
// it reads the code span (the span shows "|").
func MarkdownCodeCell(s string) string {
	return markdownCode(s, true)
}

func markdownCode(s string, cell bool) string {
	if s == "" {
		return "-"
	}
	s = safetext.Line(s)
	longest, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	if cell {
		s = strings.ReplaceAll(s, "|", `\|`)
	}
	if s[0] == '`' || s[len(s)-1] == '`' || s[0] == ' ' && s[len(s)-1] == ' ' {
		s = " " + s + " "
	}
	return fence + s + fence
}

// AttemptsText names attempt numbers: "attempt 2" or "attempts 1, 2"; ""
// for none.
func AttemptsText(n []int) string {
	if len(n) == 0 {
		return ""
	}
	s := make([]string, len(n))
	for i, v := range n {
		s[i] = strconv.Itoa(v)
	}
	if len(n) == 1 {
		return "attempt " + s[0]
	}
	return "attempts " + strings.Join(s, ", ")
}

// EvidenceRef names an evidence event by position and eventId: "event 11
// (eventId 3)".
func EvidenceRef(ev detect.Evidence) string {
	s := "event " + strconv.Itoa(ev.Event)
	if ev.EventID >= 0 {
		s += " (eventId " + strconv.Itoa(int(ev.EventID)) + ")"
	}
	return s
}

// AppendFindingMarkdown appends a finding as a Markdown section for a
// ticket: a heading with its severity, id, activity, confidence and
// attempts, its invocation, explanation, evidence and advice, and what its
// activity's code says when source was given. The
// Markdown report writes each finding so, and the view copies one so (y).
func AppendFindingMarkdown(b []byte, f *detect.Finding, c *review.CodeEvidence) []byte {
	return appendFinding(b, f, c, "")
}

// AppendFindingTicket appends a finding as AppendFindingMarkdown does, for
// a ticket pasted away from twice (the view's y): under its heading, the
// run it was found in (id, workflow, app, project) and its console link,
// or why there is none; and every id its text abbreviates ("8a4f2c71…")
// written whole from ids (detect.WholeIDs). A key that is an input field
// (detect.InvocationKeys: which of a fan-out's invocations it is) follows
// the activity in the heading ("in SendInvoiceEmail for
// invoiceNumber=INV-1042"); pass the zero key for none.
func AppendFindingTicket(b []byte, run *catalyst.Run, link string, f *detect.Finding, c *review.CodeEvidence, ids []string, key detect.InputKey) []byte {
	g := *f
	g.Explanation = detect.WholeIDs(f.Explanation, ids)
	g.Advice = detect.WholeIDs(f.Advice, ids)
	g.Evidence = make([]detect.Evidence, len(f.Evidence))
	for i, ev := range f.Evidence {
		ev.Fact = ev.Fact.WholeIDs(ids)
		g.Evidence[i] = ev
	}
	if !key.IsZero() && !key.ByID {
		g.Activity += " for " + key.String()
	}
	return appendFinding(b, &g, c, TicketRunLine(run, link))
}

// TicketRunLine names a run for a ticket, in Markdown: "Run order-7731
// (CheckoutWorkflow), app payments, project default:
// <https://catalyst.diagrid.io/…>"; an id the history does not name is
// said to be unknown, and without a link the line says there is none.
func TicketRunLine(run *catalyst.Run, link string) string {
	named := func(what, v string) string {
		if v == "" {
			return what + " not named in this history"
		}
		return what + " " + Markdown(v)
	}
	s := named("Run", run.ID)
	if run.Workflow != "" {
		s += " (" + Markdown(run.Workflow) + ")"
	}
	project := run.Project.Name
	if project == "" {
		project = run.Project.UID
	}
	s += ", " + named("app", run.AppID) + ", " + named("project", project)
	if link == "" {
		return s + "; no console link (it needs the app id and the run id as plain ids)."
	}
	return s + ": <" + link + ">"
}

// appendFinding writes a finding's section; runLine, when set, follows
// its heading.
func appendFinding(b []byte, f *detect.Finding, c *review.CodeEvidence, runLine string) []byte {
	line := func(parts ...string) {
		for _, p := range parts {
			b = append(b, p...)
		}
		b = append(b, '\n')
	}
	head := "#### " + SeverityLabel(f.Severity) + ": " + string(f.ID) + " in " + Markdown(f.Activity) + " (" + string(f.Confidence)
	if at := AttemptsText(f.Attempts); at != "" {
		head += ", " + at
	}
	line(head, ")")
	if runLine != "" {
		line()
		line(runLine)
	}
	if f.Invocation != "" {
		line()
		line("Invocation ", Markdown(f.Invocation), ".")
	}
	if f.Explanation != "" {
		line()
		line(Markdown(f.Explanation))
	}
	if len(f.Evidence) > 0 {
		line()
		line("Evidence:")
		line()
		for _, ev := range f.Evidence {
			line("- ", EvidenceRef(ev), ": ", Markdown(Fact(ev.Fact)))
		}
	}
	if f.Advice != "" {
		line()
		line("**Advice:** ", Markdown(f.Advice))
	}
	if c != nil && c.Note != "" {
		// What the activity's code says (show and scan --source).
		line()
		line("**Code:** ", Markdown(c.Note))
		if c.Refusal != nil {
			line()
			line("- ", MarkdownCode(CodeLocText(c.Refusal.Location)), " ", Markdown(c.Refusal.Excerpt))
		}
		for _, h := range c.Hazards {
			line()
			line("- ", h.Rule, " at ", MarkdownCode(CodeLocText(h.Location)), ": ", Markdown(h.Message))
		}
	}
	return b
}

// CodeLocText is a place in source code: "file:line:col".
func CodeLocText(l review.Location) string {
	return l.File + ":" + strconv.Itoa(l.Line) + ":" + strconv.Itoa(l.Col)
}
