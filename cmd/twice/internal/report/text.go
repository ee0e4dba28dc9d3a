package report

import (
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/safetext"
	"github.com/twice-cli/twice/detect"
	"github.com/twice-cli/twice/detect/review"
	"github.com/twice-cli/twice/tui/format"
)

// Column caps of the text tables, so one long name cannot push every row off
// the screen.
const (
	maxNameWidth = 40
	maxIDWidth   = 36
	maxTypeWidth = 28
)

// WriteText writes one run for people: the header (workflow, run, app,
// status, times, data-sharing level, console link or plain ids), the
// findings (most severe first, with evidence and advice), the invocations
// with their attempts, and, when opts.Events is set, every event in history
// order under the Dapr CLI's column names.
func WriteText(w io.Writer, a Analysis, opts Options) error {
	t := newTextWriter(w, opts)
	t.run(a.Resolve())
	return t.flush()
}

// textWriter accumulates text output in a buffer and writes it out in
// large chunks; the first write error is kept and returned by flush.
type textWriter struct {
	w    io.Writer
	buf  []byte
	opts Options
	now  time.Time
	err  error
	// spans shows the spans of the run being written, as exactly as its
	// stamps allow.
	spans format.Spans
	// ended: the run being written has ended (no retry can follow).
	ended bool
}

func newTextWriter(w io.Writer, opts Options) *textWriter {
	return &textWriter{w: w, buf: make([]byte, 0, 4096), opts: opts, now: opts.now()}
}

// endLine ends the current line, writing the buffer out once it is large.
func (t *textWriter) endLine() {
	t.buf = append(t.buf, '\n')
	if len(t.buf) >= 32<<10 {
		t.drain()
	}
}

func (t *textWriter) drain() {
	if t.err == nil && len(t.buf) > 0 {
		_, t.err = t.w.Write(t.buf)
	}
	t.buf = t.buf[:0]
}

func (t *textWriter) flush() error {
	t.drain()
	return t.err
}

// println writes safe text and a newline.
func (t *textWriter) println(parts ...string) {
	for _, p := range parts {
		t.buf = append(t.buf, p...)
	}
	t.endLine()
}

// field writes a header line: a label padded to a column, then safe text.
func (t *textWriter) field(label, value string) {
	t.buf = pad(t.buf, t.opts.Styles.Faint(label), len(label))
	for n := len(label); n < 14; n++ {
		t.buf = append(t.buf, ' ')
	}
	t.buf = append(t.buf, value...)
	t.endLine()
}

func (t *textWriter) instant(tm time.Time) string {
	return formatInstant(tm, t.opts.TimeFormat, t.now)
}

func (t *textWriter) run(a Analysis) {
	t.spans = format.SpansOf(a.History)
	t.ended = a.History.Run.Status.IsEnded()
	t.header(a)
	if a.Report == nil {
		t.println()
		t.println("Analysis: not available for this history.")
	} else {
		t.findings(a)
		t.codeActivities(a)
		t.skipped(a)
		t.invocations(a)
	}
	if t.opts.Events {
		t.events(a)
	}
}

// noLinkText says why a run has no console link, naming what is missing
// and printing the ids that are known, to search the console by hand. The
// ids are escaped once by line: quoting them again would double the
// backslashes of their escapes.
func noLinkText(r *catalyst.Run) string {
	switch {
	case r.ID == "" && r.RerunOf != "":
		return "no link: this history is a rerun of \"" + line(r.RerunOf) + "\" and does not name its own run id " +
			"(give it with --run)"
	case r.ID == "" && r.AppID == "":
		return "no link: this history names neither its app id nor its run id"
	case r.ID == "":
		return "no link: this history does not name its run id; app \"" + line(r.AppID) + "\""
	case r.AppID == "":
		return "no link: this history does not name its app id; run \"" + line(r.ID) + "\""
	}
	return "no link: an id is not a plain id; app \"" + line(r.AppID) + "\", run \"" + line(r.ID) + "\""
}

// RerunText says which run a rerun was made from, and from which event (its
// eventId, and its place in this history): the history up to that event
// is a copy of that run's.
func RerunText(h *catalyst.History) string {
	r := &h.Run
	s := "rerun of " + line(r.RerunOf) + " from eventId " + strconv.Itoa(int(r.RerunFrom))
	if fork := h.RerunFork(); fork >= 0 {
		s += " (event " + strconv.Itoa(fork) + ")"
	}
	return s + "; the events before it are copied from that run, its start included"
}

// ForeignStartText says that the history's start names another run than
// the one read (catalyst.Run.ForeignStart), what that likely means, and
// what twice cannot know: which event a rerun started from.
func ForeignStartText(r *catalyst.Run) string {
	x := line(r.ForeignStart())
	return "the history's first event (executionStarted) names run \"" + x + "\", not this run: likely a rerun of \"" + x +
		"\" made by a Dapr version that does not mark reruns (1.16), or the server answered for the wrong run; " +
		"which event a rerun started from is not known"
}

func (t *textWriter) header(a Analysis) {
	h := a.History
	r := &h.Run
	if r.ID == "" {
		// The Dapr CLI's JSON, for one, does not print the instance id.
		t.println(t.opts.Styles.Heading("Run (id not in this history)"))
	} else {
		t.println(t.opts.Styles.Heading("Run " + line(r.ID)))
	}
	t.field("Workflow", line(r.Workflow))
	t.field("App", line(r.AppID))
	if r.Project.Name != "" || r.Project.UID != "" {
		t.field("Project", projectText(r.Project))
	}
	t.field("Status", statusText(r.Status))
	t.field("Created", t.instant(t.spans.Printed(r.CreatedAt)))
	t.field("Updated", t.instant(t.spans.Printed(r.UpdatedAt)))
	if until, _ := r.RanUntil(t.now); !r.CreatedAt.IsZero() && !r.UpdatedAt.IsZero() && until.After(r.CreatedAt) {
		t.field("Duration", durationSoFar(t.spans, r, t.opts.TimeFormat, t.now))
	}
	if r.ExecutionID != "" {
		t.field("Execution", line(r.ExecutionID))
	}
	if r.ParentID != "" {
		t.field("Parent", line(r.ParentID))
	}
	if r.RerunOf != "" {
		t.field("Rerun", RerunText(h))
	}
	if r.ForeignStart() != "" {
		t.field("Start", ForeignStartText(r))
	}
	t.field("Source", sourceText(h))
	if r.Provenance.Recorded != nil {
		t.field("Recorded", recordedText(r.Provenance.Recorded, t.opts.TimeFormat, t.now))
		if d := r.Provenance.Recorded.Description; d != "" {
			t.field("About", line(d))
		}
	}
	if h.Lossy {
		t.field("Lossy", "yes: this format drops facts the engine recorded (sub-second times, stack traces, child instance ids)")
	}
	if h.UnknownFields > 0 {
		t.field("Skipped", plural(h.UnknownFields, "unrecognised field"))
	}
	if n := format.OutOfRangeNote(h); n != "" {
		t.field("Out of range", line(n))
	}
	ds := r.DataSharing
	t.field("Data sharing", dataSharingText(h))
	if link, ok := a.Link(t.opts.Console); ok {
		t.field("Console", link)
	} else {
		t.field("Console", noLinkText(r))
	}
	t.field("Input", payloadCell(r.Input, ds))
	t.field("Output", payloadCell(r.Output, ds))
	if r.CustomStatus.State != catalyst.PayloadNone {
		t.field("Custom status", payloadCell(r.CustomStatus, ds))
	}
	if why := format.RunWhy(h); why != "" {
		// Why it failed, was terminated or stalled, as the view's header
		// says it.
		t.field("Why", why)
	}
	t.field("Events", strconv.Itoa(h.Len()))
}

// dataSharingText is the header's data-sharing line: the level, and, when
// payloads are withheld, how many and what withheld means — said once here,
// while the payloads themselves only say "withheld".
func dataSharingText(h *catalyst.History) string {
	r := &h.Run
	text := safetext.Line(r.DataSharing.LevelText())
	switch n := withheldCount(h); {
	case n > 0:
		text += "; " + plural(n, "event payload") + " " + format.WithheldWord + ": " + withheldMeaning
	case r.Input.State == catalyst.PayloadWithheld || r.Output.State == catalyst.PayloadWithheld ||
		r.CustomStatus.State == catalyst.PayloadWithheld:
		text += "; the run's payloads " + format.WithheldWord + ": " + withheldMeaning
	}
	return text
}

// withheldMeaning is what a withheld payload is (the level is named next
// to it).
const withheldMeaning = "not shared at this organization's data-sharing level"

// durationSoFar prints a run's duration; for a run that has not ended, as
// the time so far (to now, or for a saved run to when it was saved: at
// least that long) and when its last event was, so that a run waiting for
// hours does not read as one that took minutes.
func durationSoFar(sp format.Spans, r *catalyst.Run, f format.TimeFormat, now time.Time) string {
	until, atLeast := r.RanUntil(now)
	if until.Before(r.UpdatedAt) {
		until = r.UpdatedAt
	}
	d := sp.BetweenTimes(r.CreatedAt, until)
	updated := formatInstant(sp.Printed(r.UpdatedAt), f, now)
	switch {
	case r.Status.IsEnded():
		return d
	case atLeast:
		return "≥" + d + ": still running when saved (last event " + updated + ")"
	}
	return d + " so far (last event " + updated + ")"
}

// projectText prints a project's name and uid.
func projectText(p catalyst.Project) string {
	switch {
	case p.Name != "" && p.UID != "":
		return line(p.Name) + " (uid " + line(p.UID) + ")"
	case p.Name != "":
		return line(p.Name)
	}
	return "uid " + line(p.UID)
}

// statusText prints the normalised status, and the reported spelling when
// it differs in more than case.
func statusText(s catalyst.Status) string {
	if s == "" {
		return "not reported"
	}
	n := s.Normalized()
	if !strings.EqualFold(string(s), string(n)) {
		return line(string(n)) + " (reported as " + line(string(s)) + ")"
	}
	return line(string(n))
}

// sourceText says where a history was read from and in which format.
func sourceText(h *catalyst.History) string {
	p := h.Run.Provenance
	var b strings.Builder
	switch p.Surface {
	case catalyst.SurfaceFile:
		b.WriteString("file " + line(p.Location))
	case catalyst.SurfaceStdin:
		b.WriteString("standard input")
	case catalyst.SurfaceDemo:
		b.WriteString("bundled demo " + line(p.Location))
	case catalyst.SurfaceCatalystMCP:
		b.WriteString("Catalyst MCP")
		if p.Endpoint != "" {
			b.WriteString(" at " + line(p.Endpoint))
		}
	default:
		b.WriteString(line(string(p.Surface)))
	}
	if h.Format != "" {
		b.WriteString(" (" + h.Format.Description() + ")")
	}
	return b.String()
}

// recordedText describes the fixture a history was read from.
func recordedText(r *catalyst.Recording, f format.TimeFormat, now time.Time) string {
	var b strings.Builder
	b.WriteString("by ")
	b.WriteString(line(r.Producer))
	b.WriteString(", ")
	b.WriteString(formatInstant(r.CapturedAt, f, now))
	if r.Surface != "" {
		b.WriteString(", from " + line(string(r.Surface)))
	}
	if r.Truncated {
		b.WriteString("; TRUNCATED: the recorded history is partial")
	}
	if r.Unverified != "" {
		b.WriteString("; " + line(r.Unverified))
	}
	return b.String()
}

// sortedFindings returns the findings' positions, most severe first, ties
// in report order.
func sortedFindings(r *detect.Report) []int {
	idx := make([]int, len(r.Findings))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(x, y int) int {
		return int(r.Findings[y].Severity) - int(r.Findings[x].Severity)
	})
	return idx
}

// countsText prints "1 high, 2 medium" (omitting zero counts).
func countsText(c [detect.SeverityHigh + 1]int) string {
	var parts []string
	for s := detect.SeverityHigh; s >= detect.SeverityNone; s-- {
		if c[s] > 0 {
			parts = append(parts, strconv.Itoa(c[s])+" "+s.String())
		}
	}
	return strings.Join(parts, ", ")
}

// attemptsText prints attempt numbers: "attempt 2" or "attempts 1, 2".
func attemptsText(n []int) string { return format.AttemptsText(n) }

// evidenceRef names an evidence event by position and eventId.
func evidenceRef(ev detect.Evidence) string { return format.EvidenceRef(ev) }

func (t *textWriter) findings(a Analysis) {
	r := a.Report
	st := t.opts.Styles
	t.println()
	if len(r.Findings) == 0 {
		t.println(st.Heading("Findings: none"))
		return
	}
	t.println(st.Heading("Findings: "+strconv.Itoa(len(r.Findings))), " (", countsText(severityCounts(r)), ")")
	for _, i := range sortedFindings(r) {
		f := &r.Findings[i]
		t.buf = append(t.buf, "  "...)
		t.buf = append(t.buf, st.Severity(f.Severity)...)
		for n := width(SeverityMark(f.Severity)); n < 10; n++ {
			t.buf = append(t.buf, ' ')
		}
		t.buf = append(t.buf, string(f.ID)...)
		t.buf = append(t.buf, "  "...)
		t.buf = append(t.buf, line(f.Activity)...)
		t.buf = append(t.buf, "  "...)
		t.buf = append(t.buf, string(f.Confidence)...)
		if at := attemptsText(f.Attempts); at != "" {
			t.buf = append(t.buf, "  "...)
			t.buf = append(t.buf, at...)
		}
		if f.Invocation != "" {
			t.buf = append(t.buf, "  invocation "...)
			t.buf = append(t.buf, line(f.Invocation)...)
		}
		t.endLine()
		if f.Explanation != "" {
			t.println("            ", line(f.Explanation))
		}
		for _, ev := range f.Evidence {
			t.println("            - ", evidenceRef(ev), ": ", line(format.Fact(ev.Fact)))
		}
		if f.Advice != "" {
			t.println("            advice: ", line(f.Advice))
		}
		t.code(a.Code.Finding(i))
	}
}

// code prints what the activity's source says about a finding (--source).
func (t *textWriter) code(c *review.CodeEvidence) {
	if c == nil {
		return
	}
	if c.Note != "" {
		t.println("            code: ", line(c.Note))
	}
	if c.Refusal != nil {
		t.println("              ", line(codeLocText(c.Refusal.Location)), "  ", line(c.Refusal.Excerpt))
	}
	for _, h := range c.Hazards {
		t.println("              ", h.Rule, "  ", line(codeLocText(h.Location)), "  ", line(h.Excerpt))
	}
}

func codeLocText(l review.Location) string { return format.CodeLocText(l) }

// codeActivities lists the run's activities as the source defines them.
func (t *textWriter) codeActivities(a Analysis) {
	if a.Report == nil || a.Code == nil {
		return
	}
	t.println()
	t.println(t.opts.Styles.Heading("Code (--source)"))
	for _, c := range a.Code.Activities {
		if !c.Found {
			t.println("  ", line(c.Name), "  not found in the source given")
			continue
		}
		t.println("  ", line(c.Name), "  ", line(codeLocText(c.Definition)), "  ", plural(len(c.Hazards), "hazard"))
		for _, h := range c.Hazards {
			t.println("    ", h.Severity.String(), "  ", h.Rule, "  ", line(codeLocText(h.Location)), "  ", line(h.Message))
		}
		for _, r := range c.Refusals {
			t.println("    refuses a duplicate: ", line(codeLocText(r.Location)), "  ", line(r.Message))
		}
	}
}

func (t *textWriter) skipped(a Analysis) {
	r := a.Report
	if len(r.Skipped) == 0 {
		return
	}
	t.println()
	t.println(t.opts.Styles.Heading("Checks not run: " + strconv.Itoa(len(r.Skipped))))
	for _, s := range r.Skipped {
		t.buf = append(t.buf, "  "...)
		t.buf = append(t.buf, line(s.Check)...)
		if s.Invocation != "" {
			t.buf = append(t.buf, " (invocation "...)
			t.buf = append(t.buf, line(s.Invocation)...)
			t.buf = append(t.buf, ')')
		}
		t.buf = append(t.buf, ": "...)
		t.buf = append(t.buf, line(s.Reason)...)
		t.endLine()
	}
}

// outcomeText prints an outcome; unknown is spelled out so it is never read
// as failed or fine. untied: an outcome the history records without an id
// may be this one's (detect.OutcomeNote.Untied), so none is not "recorded".
func outcomeText(o detect.Outcome, untied bool) string {
	if untied && (o == detect.OutcomeUnknown || o == detect.OutcomePending) {
		return "unknown (no outcome tied to it by id)"
	}
	if o == detect.OutcomeUnknown {
		return "unknown (no outcome recorded)"
	}
	if o == 0 {
		return "-"
	}
	return o.String()
}

// durationText is an invocation's DURATION cell: "-" without an end (or,
// from exact stamps, when it took no time at all).
func durationText(sp format.Spans, h *catalyst.History, inv *detect.Invocation, now time.Time) string {
	if s := format.InvocationDuration(sp, h, inv, now); s != "" {
		return s
	}
	return "-"
}

func (t *textWriter) invocations(a Analysis) {
	r := a.Report
	st := t.opts.Styles
	t.println()
	if len(r.Invocations) == 0 {
		t.println(st.Heading("Invocations: none"), " (no activity or child workflow was scheduled)")
		return
	}
	t.println(st.Heading("Invocations: " + strconv.Itoa(len(r.Invocations))))
	if l := t.spans.Legend(); l != "" {
		t.println("  ", st.Faint(l))
	}
	nameW := len("NAME")
	for i := range r.Invocations {
		nameW = max(nameW, min(width(line(r.Invocations[i].Name)), maxNameWidth))
	}
	durations := make([]string, len(r.Invocations))
	durW := len("DURATION")
	for i := range r.Invocations {
		durations[i] = durationText(t.spans, a.History, &r.Invocations[i], t.now)
		durW = max(durW, width(durations[i]))
	}
	cols := []struct {
		title string
		w     int
	}{{"#", len(strconv.Itoa(len(r.Invocations)))}, {"NAME", nameW}, {"KIND", len("child-workflow")},
		{"ATTEMPTS", len("ATTEMPTS")}, {"OUTCOME", len("completed")}, {"DURATION", durW},
		{"CLASS", len("side-effect")}, {"LINK", len("by-origin")}, {"FLAG", 0}}
	t.buf = append(t.buf, "  "...)
	for i, c := range cols {
		if i == len(cols)-1 {
			t.buf = append(t.buf, c.title...)
			break
		}
		t.buf = pad(t.buf, c.title, c.w+2)
	}
	t.endLine()
	for i := range r.Invocations {
		inv := &r.Invocations[i]
		sev := inv.Severity(r)
		outcome := inv.Outcome.String()
		cells := []string{strconv.Itoa(i + 1), fit(line(inv.Name), nameW), inv.Kind.String(),
			strconv.Itoa(len(inv.Attempts)), outcome, durations[i],
			inv.Class.String(), inv.LinkRule.String()}
		t.buf = append(t.buf, "  "...)
		for j, c := range cells {
			t.buf = pad(t.buf, c, cols[j].w+2)
		}
		if sev > detect.SeverityNone {
			t.buf = append(t.buf, st.Severity(sev)...)
		}
		t.buf = trimRight(t.buf)
		t.endLine()
		if len(inv.Attempts) > 1 || len(inv.Findings) > 0 || inv.Outcome == detect.OutcomeUnknown || inv.ReusedInstanceID ||
			inv.OpenRetry != nil || inv.LinkRule == detect.LinkInferred {
			t.attempts(r, i, inv)
		}
	}
}

// trimRight drops trailing spaces of the current line.
func trimRight(buf []byte) []byte {
	for len(buf) > 0 && buf[len(buf)-1] == ' ' {
		buf = buf[:len(buf)-1]
	}
	return buf
}

func (t *textWriter) attempts(r *detect.Report, k int, inv *detect.Invocation) {
	indent := "       "
	if inv.Key != "" {
		t.println(indent, "key ", line(inv.Key))
	}
	if inv.ReusedInstanceID {
		t.println(indent, "the child instance id was reused: earlier attempts' histories were overwritten")
	}
	for i := range inv.Attempts {
		t.buf = append(t.buf, indent...)
		note, _ := r.Note(k, inv.Attempts[i].Number)
		t.buf = appendAttempt(t.buf, t.spans, &inv.Attempts[i], note)
		t.endLine()
	}
	if rt := inv.OpenRetry; rt != nil {
		t.println(indent, openRetryText(rt, t.ended))
	}
}

// openRetryText describes a retry timer no attempt has followed: one that
// may still lead to an attempt, or, in a run that ended (ended), one that
// never will.
func openRetryText(rt *detect.RetryTimer, ended bool) string {
	s := "retry timer event " + strconv.Itoa(rt.Created)
	switch {
	case rt.Fired >= 0:
		s += " fired at event " + strconv.Itoa(rt.Fired) + " but no attempt followed in this history"
	case ended:
		s += " had not fired (due " + format.ExactStamp(rt.FireAt) + ") when the run ended: the retry never ran"
	default:
		s += " has not fired (due " + format.ExactStamp(rt.FireAt) + "): another attempt may follow"
	}
	return s
}

// appendAttempt describes one attempt on one line: its scheduling event,
// ids, outcome, duration, backoff and retry timer, and failure, then, when
// its outcome was inferred or is unknown for want of an id, why (note).
func appendAttempt(buf []byte, sp format.Spans, at *detect.Attempt, note detect.OutcomeNote) []byte {
	buf = append(buf, "attempt "...)
	buf = strconv.AppendInt(buf, int64(at.Number), 10)
	buf = append(buf, ": event "...)
	buf = strconv.AppendInt(buf, int64(at.Scheduled), 10)
	buf = append(buf, " (eventId "...)
	buf = strconv.AppendInt(buf, int64(at.ScheduledID), 10)
	buf = append(buf, ')')
	if at.ExecutionID != "" {
		buf = append(buf, ", execution "...)
		buf = append(buf, line(at.ExecutionID)...)
	}
	if at.InstanceID != "" {
		buf = append(buf, ", instance "...)
		buf = append(buf, line(at.InstanceID)...)
	}
	if at.Link != 0 && at.Link != detect.LinkFirst {
		buf = append(buf, ", joined "...)
		buf = append(buf, at.Link.String()...)
	}
	if at.BackoffBefore > 0 {
		buf = append(buf, ", after "...)
		buf = sp.AppendShow(buf, at.Backoff(sp.History()))
		buf = append(buf, " backoff"...)
	}
	if rt := at.RetryTimer; rt != nil {
		buf = append(buf, ", retry timer event "...)
		buf = strconv.AppendInt(buf, int64(rt.Created), 10)
		if rt.Link != 0 {
			buf = append(buf, " ("...)
			buf = append(buf, rt.Link.String()...)
			buf = append(buf, ')')
		}
	}
	buf = append(buf, " → "...)
	buf = append(buf, outcomeText(at.Outcome, note.Untied)...)
	if at.OutcomeEvent >= 0 && at.Outcome != detect.OutcomePending && at.Outcome != detect.OutcomeUnknown {
		buf = append(buf, " at event "...)
		buf = strconv.AppendInt(buf, int64(at.OutcomeEvent), 10)
	}
	if d := at.Duration(); d > 0 {
		buf = append(buf, " after "...)
		buf = sp.AppendShow(buf, sp.Span(at.Start, at.End))
	}
	for _, x := range at.ExtraOutcomes {
		buf = append(buf, ", another outcome at event "...)
		buf = strconv.AppendInt(buf, int64(x), 10)
	}
	if f := at.Failure; f != nil {
		buf = append(buf, ": "...)
		if at.FailureClass != 0 {
			buf = append(buf, at.FailureClass.String()...)
			buf = append(buf, ", "...)
		}
		if f.Type != "" {
			buf = append(buf, line(f.Type)...)
			buf = append(buf, ": "...)
		}
		buf = append(buf, trimmed(f.Message, 160)...)
		if f.NonRetriable {
			buf = append(buf, " (non-retriable)"...)
		}
	}
	if note.Text != "" {
		buf = append(buf, " — "...)
		if at.OutcomeLink == detect.LinkInferred {
			buf = append(buf, "outcome inferred: "...)
		}
		buf = append(buf, line(note.Text)...)
	}
	return buf
}

// eventColumns are the widths of the event table.
type eventColumns struct {
	index, typ, name, id, exec int
}

func measureEvents(h *catalyst.History, callOf []int32) eventColumns {
	c := eventColumns{index: len("#"), typ: len("TYPE"), name: len("NAME"), id: len("EVENTID"), exec: len("EXECUTION_ID")}
	c.index = max(c.index, len(strconv.Itoa(h.Len()-1)))
	for i, e := range h.All() {
		c.typ = max(c.typ, min(width(line(e.TypeLabel())), maxTypeWidth))
		if e.Name != "" {
			c.name = max(c.name, min(width(line(e.Name)), maxNameWidth))
		} else if n := format.CallName(h, callOf, i); n != "" {
			c.name = max(c.name, min(width(format.DerivedMark)+width(n), maxNameWidth))
		}
		if e.ID >= 0 {
			c.id = max(c.id, len(strconv.Itoa(int(e.ID))))
		}
		if x := eventExecutionID(e); x != "" {
			c.exec = max(c.exec, min(width(line(x)), maxIDWidth))
		}
	}
	return c
}

// eventExecutionID is the EXECUTION_ID cell: the task execution id of a
// task event, the workflow execution id of executionStarted.
func eventExecutionID(e *catalyst.Event) string {
	switch e.Type {
	case catalyst.EventTaskScheduled, catalyst.EventTaskCompleted, catalyst.EventTaskFailed, catalyst.EventExecutionStarted:
		return e.ExecutionID
	}
	return ""
}

func (t *textWriter) events(a Analysis) {
	h := a.History
	t.println()
	t.println(t.opts.Styles.Heading("Events: " + strconv.Itoa(h.Len())))
	if h.Len() == 0 {
		return
	}
	ds := h.Run.DataSharing
	if withheldCount(h) > 0 {
		// Said once for the table; its rows say only "withheld".
		t.println("  ", t.opts.Styles.Faint(format.WithheldLegend(ds)))
	}
	if l := t.spans.Legend(); l != "" {
		// ELAPSED is a span between two stamps.
		t.println("  ", t.opts.Styles.Faint(l))
	}
	callOf := format.CallOf(h, a.Report)
	c := measureEvents(h, callOf)
	t.buf = append(t.buf, "  "...)
	t.buf = pad(t.buf, "#", c.index+2)
	t.buf = pad(t.buf, "TYPE", c.typ+2)
	t.buf = pad(t.buf, "NAME", c.name+2)
	t.buf = pad(t.buf, "EVENTID", c.id+2)
	t.buf = pad(t.buf, "EXECUTION_ID", c.exec+2)
	t.buf = pad(t.buf, "ELAPSED", 10)
	t.buf = append(t.buf, "DETAILS"...)
	t.endLine()
	var prev catalyst.Stamp
	var num [12]byte
	negative := false
	for i, e := range h.All() {
		t.buf = append(t.buf, "  "...)
		t.buf = pad(t.buf, string(strconv.AppendInt(num[:0], int64(i), 10)), c.index+2)
		t.buf = pad(t.buf, fit(line(e.TypeLabel()), c.typ), c.typ+2)
		name, _ := format.EventName(h, callOf, i)
		t.buf = pad(t.buf, fit(name, c.name), c.name+2)
		if e.ID >= 0 && (e.Type.IsNumbered() || e.ID > 0) {
			t.buf = pad(t.buf, string(strconv.AppendInt(num[:0], int64(e.ID), 10)), c.id+2)
		} else {
			t.buf = pad(t.buf, "-", c.id+2)
		}
		t.buf = pad(t.buf, fit(line(eventExecutionID(e)), c.exec), c.exec+2)
		t.buf = pad(t.buf, t.elapsed(i, prev, e.Timestamp), 10)
		negative = negative || (i > 0 && !prev.IsZero() && !e.Timestamp.IsZero() && e.Timestamp.Sub(prev) < 0)
		prev = e.Timestamp
		t.buf = format.AppendDetails(t.buf, e, ds)
		t.buf = trimRight(t.buf)
		t.endLine()
	}
	if negative {
		t.println()
		t.println(t.opts.Styles.Faint(negativeElapsedNote))
	}
}

// negativeElapsedNote is printed once under an event table with a negative
// ELAPSED.
const negativeElapsedNote = "A negative ELAPSED is history order, not a clock error: an event is stamped when it happened (an outcome, a timer firing) and recorded after the WorkflowStarted of the turn that handles it."

// elapsed is the ELAPSED cell: the time since the previous event in history
// order, negative when the engine stamped this one earlier (events are
// never re-sorted); for the first row, its age ("Age:2.1h") in relative
// mode and "-" in ISO mode (the header gives the absolute start).
func (t *textWriter) elapsed(i int, prev, ts catalyst.Stamp) string {
	if ts.IsZero() {
		return "-"
	}
	if i == 0 {
		if t.opts.TimeFormat == format.Relative {
			return "Age:" + t.spans.Between(ts, catalyst.StampOf(t.now))
		}
		return "-"
	}
	if prev.IsZero() {
		return "-"
	}
	return t.spans.Between(prev, ts)
}
