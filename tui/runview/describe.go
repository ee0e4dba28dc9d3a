package runview

import (
	"strconv"
	"strings"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/safetext"
	"github.com/twice-cli/twice/detect"
	"github.com/twice-cli/twice/detect/review"
	"github.com/twice-cli/twice/tui/format"
)

// text accumulates the detail pane's lines. Everything added is safe: raw
// history and report text goes through format.Line or format.TextBlock.
type text struct {
	d        *viewData
	out      []string
	withheld bool
}

func (b *text) line(s string) { b.out = append(b.out, s) }

func (b *text) blank() {
	if len(b.out) > 0 && b.out[len(b.out)-1] != "" {
		b.out = append(b.out, "")
	}
}

func (b *text) heading(s string) {
	b.blank()
	b.line(b.d.c.Styles.Title.Render(s))
}

// kv adds "label: value"; value must be safe. Empty values are skipped.
func (b *text) kv(indent, label, value string) {
	if value == "" {
		return
	}
	b.line(indent + b.d.c.Styles.Label.Render(label+":") + " " + format.CapLine(value))
}

// block adds a label and multi-line safe text below it, indented.
func (b *text) block(indent, label string, lines []string) {
	b.line(indent + b.d.c.Styles.Label.Render(label+":"))
	for _, l := range lines {
		b.line(indent + "  " + l)
	}
}

// payload adds a payload under its field name: pretty-printed text, or its
// mark (withheld payloads name the data-sharing level).
func (b *text) payload(indent, field string, p catalyst.Payload) {
	if p.State == catalyst.PayloadWithheld {
		b.withheld = true
	}
	lines := format.PayloadBlock(p, b.d.ds)
	if len(lines) == 1 && !p.Has() {
		b.kv(indent, field, lines[0])
		return
	}
	b.block(indent, field, lines)
}

// failure adds a failure's type, message, stack trace and inner failures.
func (b *text) failure(indent string, f *catalyst.Failure) {
	for depth := 0; f != nil && depth < 8; depth++ {
		label := "error"
		if depth > 0 {
			label = "caused by"
		}
		head := format.Line(f.Type)
		if f.NonRetriable {
			head += " (non-retriable)"
		}
		b.kv(indent, label, head)
		if f.Message != "" {
			msg := format.TextBlock(f.Message)
			if len(msg) == 1 {
				b.kv(indent, "message", msg[0])
			} else {
				b.block(indent, "message", msg)
			}
		}
		if f.StackTrace != "" {
			b.block(indent, "stack trace", format.TextBlock(f.StackTrace))
		}
		f = f.Inner
	}
}

// at is an instant exactly, with its offset from the run's start:
// "2026-…Z · run +30.52s". How long ago it was is in the header; inside a
// run, what matters is when things happened relative to each other.
func (b *text) at(s catalyst.Stamp) string { return b.from(s, b.d.start, "run") }

// from is an instant exactly, with its offset from base, named what:
// "2026-…Z · invocation +0s"; only the instant when base is unknown.
func (b *text) from(s, base catalyst.Stamp, what string) string {
	if s.IsZero() {
		return ""
	}
	if s.IsNever() {
		return "never"
	}
	// The instant as the source printed it (a rebuilt time is exact only
	// relative to its neighbours); the offset as the history measures it.
	exact := format.Exact(b.d.h.Printed(s).Time())
	if base.IsZero() || base.IsNever() {
		return exact
	}
	return exact + " · " + what + " " + b.d.spans().Offset(base, s)
}

// eventRef names an event by position and eventId: "#12 (eventId 3)".
func eventRef(h *catalyst.History, ev int) string {
	if ev < 0 || ev >= h.Len() {
		return "-"
	}
	s := "#" + strconv.Itoa(ev)
	if id := h.At(ev).ID; id >= 0 {
		s += " (eventId " + strconv.Itoa(int(id)) + ")"
	}
	return s
}

// finish closes the pane with the console link (or the plain ids) and,
// when a payload shown was withheld, what to do about it.
func (b *text) finish() []string {
	lines := b.d.linkLines(b.withheld)
	if len(b.out) == 0 || b.out[len(b.out)-1] == "" {
		lines = lines[1:] // one blank line between the facts and the link
	}
	b.out = append(b.out, lines...)
	return b.out
}

// describeEvent shows every field of one event.
func describeEvent(d *viewData, ev int) (string, []string) {
	h := d.h
	e := h.At(ev)
	b := &text{d: d}
	title := "Event #" + strconv.Itoa(ev) + " · " + format.Line(e.TypeLabel())
	b.kv("", "type", format.Line(e.TypeName()))
	if e.Detail != nil && e.Detail.TypeName != "" && e.Detail.TypeName != e.TypeName() {
		b.kv("", "on the wire", format.Line(e.Detail.TypeName))
	}
	if e.Name != "" {
		b.kv("", "name", format.Line(e.Name))
	}
	b.kv("", "position", strconv.Itoa(ev))
	b.kv("", "eventId", strconv.Itoa(int(e.ID)))
	b.kv("", "timestamp", b.at(e.Timestamp))
	switch e.Type {
	case catalyst.EventTaskCompleted, catalyst.EventTaskFailed, catalyst.EventChildWorkflowCompleted, catalyst.EventChildWorkflowFailed:
		b.kv("", "taskScheduledId", idText(e.ScheduledID))
	case catalyst.EventTimerFired:
		b.kv("", "timerId", idText(e.TimerID))
	}
	if !e.FireAt.IsZero() {
		b.kv("", "fireAt", b.at(e.FireAt))
	}
	if e.ExecutionID != "" {
		b.kv("", "execution id", format.Line(e.ExecutionID))
	}
	if o := e.Origin.String(); o != "" {
		b.kv("", "origin", o)
		if e.OriginID != "" {
			b.kv("", "origin id", format.Line(e.OriginID))
		}
	}
	if e.InstanceID != "" {
		b.kv("", "instance id", format.Line(e.InstanceID))
	}
	if r := e.Router; r != nil {
		route := format.Line(r.Source)
		if r.Target != "" {
			route += " → " + format.Line(r.Target)
		}
		b.kv("", "router", route)
	}
	if x := e.Detail; x != nil {
		b.kv("", "workflow status", safetext.Line(string(x.WorkflowStatus)))
		b.kv("", "version", safetext.Line(x.Version))
		b.kv("", "parent", safetext.Line(joinNonEmpty(" ", x.ParentName, x.ParentInstanceID)))
		b.kv("", "retry parent", safetext.Line(x.RetryParentInstanceID))
		b.kv("", "rerun of", safetext.Line(x.RerunParentInstanceID))
		b.kv("", "stall reason", safetext.Line(x.StallReason))
		b.kv("", "stall description", safetext.Line(x.StallDescription))
	}
	if x := d.idx; x != nil {
		if ii, ai := x.invocationOf(ev); ii >= 0 {
			inv := &x.Report.Invocations[ii]
			b.kv("", "invocation", "attempt "+strconv.Itoa(ai+1)+" of "+strconv.Itoa(len(inv.Attempts))+
				" of "+format.Line(inv.Name)+" ("+format.Line(inv.Key)+")")
		}
		for _, fi := range x.evidence[ev] {
			f := &x.Report.Findings[fi]
			b.kv("", "evidence for", format.SeverityMark(f.Severity)+" "+format.FindingWord(f.ID, f.Confidence)+
				" "+format.Line(f.Activity))
		}
	}
	if e.Failure != nil {
		b.blank()
		b.failure("", e.Failure)
	}
	if field := e.Type.PayloadField(); field != "" {
		b.blank()
		b.payload("", field, e.Payload)
	}
	if e.Type == catalyst.EventUnknown && e.Detail != nil && e.Detail.Raw != "" {
		b.heading("raw JSON (twice does not know this event type)")
		for _, l := range format.PayloadBlock(catalyst.PresentPayload(e.Detail.Raw), d.ds) {
			b.line("  " + l)
		}
	}
	b.finish()
	// Last, for reference (the facts and the link come first): the wire
	// bytes of known events are not kept, for speed and memory, so this is
	// the event as twice's JSON output writes it, and says so.
	b.heading(eventJSONHeading)
	for _, l := range eventJSONLines(b.d.h, e) {
		b.line("  " + l)
	}
	return title, b.out
}

// describeInvocation shows an invocation: its findings, then every attempt.
func describeInvocation(d *viewData, ii int) (string, []string) {
	rep := d.idx.Report
	inv := &rep.Invocations[ii]
	b := &text{d: d}
	title := format.Line(inv.Name) + " · " + inv.Kind.String() + " · " + format.Plural(len(inv.Attempts), "attempt")
	if k := d.idx.inputKey(ii); !k.IsZero() {
		title = format.Line(inv.Name) + " · " + keyText(inv, k) + " · " + inv.Kind.String() + " · " + format.Plural(len(inv.Attempts), "attempt")
	}
	outcome, _ := format.OutcomeMark(inv.Outcome)
	if dur, open := format.InvocationSpan(d.h, inv, d.c.Now()); open {
		outcome += ", open ≥" + d.spans().Show(dur)
	} else if dur.D != 0 {
		outcome += ", took " + d.spans().Show(dur)
	}
	b.kv("", "outcome", outcome)
	// What is wrong and why comes first: it is what the user opened the
	// run for. The facts it rests on follow.
	for _, fi := range inv.Findings {
		b.finding(&rep.Findings[fi], d.idx.Code.Finding(fi))
	}
	if len(inv.Findings) > 0 {
		b.blank()
	}
	if t := inv.OpenRetry; t != nil {
		if b.d.h.Run.Status.IsEnded() {
			b.kv("", "retry never ran", "timer "+eventRef(b.d.h, t.Created)+" was due "+format.ExactStamp(t.FireAt)+"; the run ended first")
		} else {
			b.kv("", "retry pending", "timer "+eventRef(b.d.h, t.Created)+" fires "+format.ExactStamp(t.FireAt)+"; no attempt followed it yet")
		}
	}
	if inv.ReusedInstanceID {
		b.line("child instance id reused: earlier attempts' histories were overwritten")
	}
	b.kv("", "started", b.at(inv.Start))
	b.kv("", "ended", b.at(inv.End))
	b.kv("", "key", format.Line(inv.Key))
	b.kv("", "grouped", linkRuleText(inv.LinkRule))
	b.kv("", "class", inv.Class.String())
	for ai := range inv.Attempts {
		a := &inv.Attempts[ai]
		mark, _ := format.OutcomeMark(a.Outcome)
		b.heading("Attempt " + strconv.Itoa(ai+1) + " · " + mark + " · " + attemptSpan(b.d.spans(), inv, a))
		b.attempt("  ", ii, inv, ai)
	}
	return title, b.finish()
}

// describeAttempt shows one attempt in full.
func describeAttempt(d *viewData, ii, ai int) (string, []string) {
	inv := &d.idx.Report.Invocations[ii]
	b := &text{d: d}
	title := format.Line(inv.Name) + " · attempt " + strconv.Itoa(ai+1) + " of " + strconv.Itoa(len(inv.Attempts))
	b.kv("", "when", attemptSpan(d.spans(), inv, &inv.Attempts[ai])+" from the invocation's start")
	b.attempt("", ii, inv, ai)
	return title, b.finish()
}

// attempt adds one attempt's facts: ids, times, backoff, outcome, error,
// stack trace and payloads.
func (b *text) attempt(indent string, ii int, inv *detect.Invocation, ai int) {
	h := b.d.h
	a := &inv.Attempts[ai]
	note, _ := b.d.idx.Report.Note(ii, a.Number)
	b.kv(indent, "scheduled", eventRef(h, a.Scheduled)+", taskScheduledId "+strconv.Itoa(int(a.ScheduledID)))
	b.kv(indent, "execution id", safetext.Line(a.ExecutionID))
	b.kv(indent, "instance id", safetext.Line(a.InstanceID))
	b.kv(indent, "joined", linkRuleText(a.Link))
	start := b.from(a.Start, inv.Start, "invocation")
	if ai == 0 && !a.Start.IsZero() && a.Start == inv.Start {
		// The invocation's start is this attempt's: exact whatever the
		// stamps' resolution.
		start = format.ExactStamp(h.Printed(a.Start)) + " · invocation +0s"
	}
	b.kv(indent, "start", start)
	b.kv(indent, "end", b.from(a.End, inv.Start, "invocation"))
	if dur := a.Duration(); dur != 0 {
		b.kv(indent, "took", b.d.spans().Show(a.Took(h)))
	}
	if ai > 0 {
		b.kv(indent, "backoff before", b.d.spans().Show(a.Backoff(h)))
	}
	if t := a.RetryTimer; t != nil {
		timer := "created " + eventRef(h, t.Created)
		if t.Fired >= 0 {
			timer += ", fired " + eventRef(h, t.Fired)
		} else {
			timer += ", not fired"
		}
		timer += ", fireAt " + format.ExactStamp(t.FireAt) + " (" + linkRuleText(t.Link) + ")"
		b.kv(indent, "retry timer", timer)
	}
	outcome, _ := format.OutcomeMark(a.Outcome)
	if a.OutcomeEvent >= 0 {
		outcome += " at " + eventRef(h, a.OutcomeEvent)
	}
	b.kv(indent, "outcome", outcome)
	if a.OutcomeLink == detect.LinkInferred {
		b.kv(indent, "outcome tied", "inferred: "+format.Line(note.Text))
	} else if note.Text != "" {
		b.kv(indent, "outcome unknown", format.Line(note.Text))
	}
	for _, ev := range a.ExtraOutcomes {
		b.kv(indent, "also recorded", eventRef(h, ev)+" "+format.Line(h.At(ev).TypeName()))
	}
	if a.Failure != nil {
		b.kv(indent, "failure class", a.FailureClass.String())
		b.failure(indent, a.Failure)
	}
	if a.Scheduled >= 0 && a.Scheduled < h.Len() {
		b.payload(indent, "input", h.At(a.Scheduled).Payload)
	}
	if a.OutcomeEvent >= 0 && a.OutcomeEvent < h.Len() {
		if e := h.At(a.OutcomeEvent); e.Type.PayloadField() == "output" {
			b.payload(indent, "output", e.Payload)
		}
	}
}

// finding adds a finding's mark, explanation, confidence and advice, and
// what its activity's code says (code: nil for nothing).
func (b *text) finding(f *detect.Finding, code *review.CodeEvidence) {
	b.heading(format.SeverityMark(f.Severity) + " " + format.FindingWord(f.ID, f.Confidence) + " — " + string(f.ID))
	b.kv("  ", "confidence", string(f.Confidence))
	if f.Explanation != "" {
		b.line("  " + format.Line(f.Explanation))
	}
	if f.Advice != "" {
		b.kv("  ", "advice", format.Line(f.Advice))
	}
	if code != nil && code.Note != "" {
		b.kv("  ", "code", format.Line(code.Note))
	}
}

// describeFinding shows a finding with all its evidence.
func describeFinding(d *viewData, fi int) (string, []string) {
	rep := d.idx.Report
	f := &rep.Findings[fi]
	b := &text{d: d}
	title := format.SeverityMark(f.Severity) + " " + string(f.ID) + " · " + format.Line(f.Activity) + d.idx.keySuffix(f)
	b.kv("", "severity", format.SeverityMark(f.Severity))
	b.kv("", "confidence", string(f.Confidence))
	b.kv("", "activity", format.Line(f.Activity))
	if k := d.idx.inputKey(f.InvocationIndex); !k.IsZero() && !k.ByID {
		b.kv("", "input", format.Line(k.String()))
	}
	if f.Invocation != "" {
		b.kv("", "invocation", format.Line(f.Invocation))
	}
	if len(f.Attempts) > 0 {
		nums := make([]string, len(f.Attempts))
		for i, a := range f.Attempts {
			nums[i] = strconv.Itoa(a)
		}
		b.kv("", "attempts", strings.Join(nums, ", "))
	}
	if f.Explanation != "" {
		b.blank()
		b.line(format.Line(f.Explanation))
	}
	if len(f.Evidence) > 0 {
		b.heading("Evidence (its └ rows in the list: enter on one shows the event)")
		for _, ev := range f.Evidence {
			b.line("  " + eventRef(d.h, ev.Event) + ": " + format.Line(format.Fact(ev.Fact)))
		}
	}
	if f.Advice != "" {
		b.blank()
		b.kv("", "advice", format.Line(f.Advice))
	}
	if code := d.idx.Code.Finding(fi); code != nil {
		b.heading("Code (--source)")
		b.code(code)
	}
	for _, s := range rep.Skipped {
		if s.Invocation == "" || s.Invocation == f.Invocation {
			b.kv("", "not checked", format.Line(s.Check)+": "+format.Line(s.Reason))
			if s.Level != catalyst.LevelUnknown {
				b.withheld = true
			}
		}
	}
	return title, b.finish()
}

// describeEvidence shows the event an evidence line points to, with the
// fact it supports.
func describeEvidence(d *viewData, fi, ei int) (string, []string) {
	f := &d.idx.Report.Findings[fi]
	ev := f.Evidence[ei]
	if ev.Event < 0 || ev.Event >= d.h.Len() {
		return "Evidence", []string{format.Line(format.Fact(ev.Fact)), "", "the event it names is not in this history"}
	}
	title, lines := describeEvent(d, ev.Event)
	head := []string{
		d.c.Styles.Label.Render("evidence:") + " " + format.Line(format.Fact(ev.Fact)),
		d.c.Styles.Label.Render("press enter to show it in the Events tab"),
		"",
	}
	return title, append(head, lines...)
}

// linkRuleText says how an attempt was joined to its invocation.
func linkRuleText(r detect.LinkRule) string {
	switch r {
	case detect.LinkFirst:
		return "first attempt"
	case detect.LinkByID:
		return "by task execution id"
	case detect.LinkByOrigin:
		return "by retry-timer origin"
	case detect.LinkInferred:
		return "inferred (no ids or origins in this history)"
	}
	return r.String()
}

// idText shows an id, or says the history's format does not carry it.
func idText(id int32) string {
	if id == catalyst.NoID {
		return "not in this format"
	}
	return strconv.Itoa(int(id))
}

func joinNonEmpty(sep string, parts ...string) string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, sep)
}
