package report

import (
	"io"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/detect"
	"github.com/twice-cli/twice/detect/review"
)

// WriteJSON writes the runs as one JSON document, {"runs":[…]}, in the
// shape docs/json-output.md documents. Keys are snake_case and stable;
// absent values are omitted; every string passes safetext.AppendJSON.
func WriteJSON(w io.Writer, runs []Analysis, opts Options) error {
	s := NewJSONStream(w, opts)
	for _, a := range runs {
		s.Run(a)
	}
	return s.Close(nil)
}

// WriteJSONL writes one run object per line (each the same object as an
// element of WriteJSON's "runs").
func WriteJSONL(w io.Writer, runs []Analysis, opts Options) error {
	e := newJSONEnc(w)
	for _, a := range runs {
		writeRunJSON(e, a, opts.Console)
		e.buf = append(e.buf, '\n')
		e.comma = false
	}
	return e.flush()
}

// JSONStream writes {"runs":[…]} one run at a time, so a fleet scan can
// release each history once it is written. Close ends the document,
// optionally with the fleet summary.
type JSONStream struct {
	e    *jsonEnc
	opts Options
	// lines writes JSONL (one object per line) instead of one document.
	lines bool
	// notRead are the histories a scan could not read.
	notRead []NotRead
}

// NewJSONStream starts a JSON document on w.
func NewJSONStream(w io.Writer, opts Options) *JSONStream {
	s := &JSONStream{e: newJSONEnc(w), opts: opts}
	s.e.beginObject()
	s.e.key("runs")
	s.e.beginArray()
	return s
}

// NewJSONLStream starts JSON Lines on w: each run is one line, and Close
// writes the summary, if any, as a last line {"summary":{…}}.
func NewJSONLStream(w io.Writer, opts Options) *JSONStream {
	return &JSONStream{e: newJSONEnc(w), opts: opts, lines: true}
}

// Run writes one run.
func (s *JSONStream) Run(a Analysis) {
	writeRunJSON(s.e, a, s.opts.Console)
	if s.lines {
		s.e.buf = append(s.e.buf, '\n')
		s.e.comma = false
	}
	s.e.maybeDrain()
}

// NotRead records a history a scan of files or run ids could not read.
// Close lists them under "not_read", after "runs" (in JSON Lines, as one
// more line {"not_read":[…]}), each {"source", "id", "app_id", "error"}.
func (s *JSONStream) NotRead(n NotRead) { s.notRead = append(s.notRead, n) }

// writeNotRead writes the "not_read" member, when any history was not read.
func (s *JSONStream) writeNotRead() {
	if len(s.notRead) == 0 {
		return
	}
	e := s.e
	e.key("not_read")
	e.beginArray()
	for _, n := range s.notRead {
		e.beginObject()
		e.strField("source", n.Source)
		e.strField("id", n.RunID)
		e.strField("app_id", n.AppID)
		e.strField("error", n.Err)
		e.endObject()
	}
	e.endArray()
}

// Close ends the document, adding the histories not read and the fleet
// summary when f is not nil, and flushes. It returns the first write error.
func (s *JSONStream) Close(f *Fleet) error {
	e := s.e
	if s.lines {
		if len(s.notRead) > 0 {
			e.beginObject()
			s.writeNotRead()
			e.endObject()
			e.buf = append(e.buf, '\n')
			e.comma = false
		}
		if f != nil {
			e.beginObject()
			e.key("summary")
			writeFleetJSON(e, f)
			e.endObject()
			e.buf = append(e.buf, '\n')
		}
		return e.flush()
	}
	e.endArray()
	s.writeNotRead()
	if f != nil {
		e.key("summary")
		writeFleetJSON(e, f)
	}
	e.endObject()
	e.buf = append(e.buf, '\n')
	return e.flush()
}

// writeRunJSON writes one element of "runs".
func writeRunJSON(e *jsonEnc, a Analysis, console string) {
	h := a.History
	r := &h.Run
	e.beginObject()

	e.key("source")
	writeSourceJSON(e, r.Provenance)
	e.strField("format", string(h.Format))
	e.key("lossy")
	e.bool(h.Lossy)
	// Durations stay in milliseconds; this says how exact the printed
	// times are: 1000 for whole-second stamps (the Dapr CLI's), 0 for the
	// engine's own. Where the decoder rebuilt spans finer than that from
	// the CLI's elapsed column, spans_rebuilt says so and each span's
	// *_error_ms how well it is known. Instants are written as printed.
	e.intField("time_resolution_ms", h.TimeResolution.Milliseconds())
	if h.RebuiltSpans() {
		e.boolField("spans_rebuilt", true)
	}
	e.js.Resolution, e.js.OutOfRange = h.TimeResolution, h.OutOfRange()
	defer func() { e.js.Resolution, e.js.OutOfRange = 0, nil }()
	if h.UnknownFields > 0 {
		e.intField("unknown_fields", int64(h.UnknownFields))
	}
	if notes := h.OutOfRange(); len(notes) > 0 {
		// Timestamps twice cannot hold (before 1678, after 2261), as given;
		// spans to them are not measured.
		e.key("out_of_range")
		e.beginArray()
		for _, n := range notes {
			e.beginObject()
			e.intField("event", int64(n.Event))
			e.strField("field", n.Field)
			e.strField("text", n.Text)
			e.endObject()
		}
		e.endArray()
	}

	e.key("run")
	printed := *r
	printed.CreatedAt, printed.UpdatedAt = h.PrintedTime(r.CreatedAt), h.PrintedTime(r.UpdatedAt)
	printed.UnfinishedTermination = h.PrintedTime(r.UnfinishedTermination)
	writeRunInfoJSON(e, &printed)

	// While a pending report is computed, one core is left to it.
	gate := a.pendingDone()
	e.key("events")
	e.beginArray()
	writeElements(e, h.Len(), eventsPerSegment, gate, func(e *jsonEnc, i int) {
		e.event(h.At(i))
	})
	e.endArray()

	e.key("withheld")
	e.beginArray()
	level := string(r.DataSharing.Level)
	reason := r.DataSharing.WithheldText()
	writeElements(e, h.Len(), withheldPerSegment, gate, func(e *jsonEnc, i int) {
		ev := h.At(i)
		if ev.Payload.State != catalyst.PayloadWithheld {
			return
		}
		e.beginObject()
		e.intField("event_index", int64(ev.Index))
		e.intField("event_id", int64(ev.ID))
		e.nameField("field", ev.Type.PayloadField())
		e.strField("reason", reason)
		e.strField("level", level)
		e.endObject()
	})
	e.endArray()

	if link, ok := a.Link(console); ok {
		e.strField("link", link)
	}
	// Everything above needs no analysis; a pending report is waited for
	// only now.
	if a = a.Resolve(); a.Report != nil {
		writeReportJSON(e, h, a.Report, a.Code)
	}
	e.endObject()
}

func writeSourceJSON(e *jsonEnc, p catalyst.Provenance) {
	e.beginObject()
	e.strField("surface", string(p.Surface))
	e.strField("location", p.Location)
	e.strField("endpoint", p.Endpoint)
	if rec := p.Recorded; rec != nil {
		e.key("recorded")
		e.beginObject()
		e.strField("surface", string(rec.Surface))
		e.strField("producer", rec.Producer)
		e.timeField("captured_at", rec.CapturedAt)
		e.boolField("truncated", rec.Truncated)
		e.strField("description", rec.Description)
		e.strField("unverified", rec.Unverified)
		e.endObject()
	}
	e.endObject()
}

func writeRunInfoJSON(e *jsonEnc, r *catalyst.Run) {
	e.beginObject()
	writeRunInfoMembers(e, r)
	e.endObject()
}

// writeRunInfoMembers writes the members of a "run" object.
func writeRunInfoMembers(e *jsonEnc, r *catalyst.Run) {
	e.strField("id", r.ID)
	e.strField("app_id", r.AppID)
	e.strField("workflow", r.Workflow)
	e.strField("status", string(r.Status))
	e.strField("status_normalized", string(r.Status.Normalized()))
	if r.HistoryStatus != "" && !r.HistoryStatus.Is(r.Status) {
		// The source reported one status; the history's events end in
		// another.
		e.strField("history_status", string(r.HistoryStatus.Normalized()))
	}
	e.timeField("unfinished_termination_at", r.UnfinishedTermination)
	e.timeField("created_at", r.CreatedAt)
	e.timeField("updated_at", r.UpdatedAt)
	e.strField("execution_id", r.ExecutionID)
	if r.Project.Name != "" || r.Project.UID != "" {
		e.key("project")
		e.beginObject()
		e.strField("name", r.Project.Name)
		e.strField("uid", r.Project.UID)
		e.endObject()
	}
	e.key("data_sharing")
	e.beginObject()
	e.key("level")
	e.str(string(r.DataSharing.Level))
	e.key("filtered")
	e.bool(r.DataSharing.Filtered)
	e.key("inferred")
	e.bool(r.DataSharing.Inferred)
	e.endObject()
	writePayloadJSON(e, "input", r.Input)
	writePayloadJSON(e, "output", r.Output)
	writePayloadJSON(e, "custom_status", r.CustomStatus)
	e.strField("failure_message", r.FailureMessage)
	e.strField("parent_id", r.ParentID)
	if r.RerunOf != "" {
		e.key("rerun_of")
		e.beginObject()
		e.strField("id", r.RerunOf)
		e.intField("from_event_id", int64(r.RerunFrom))
		e.endObject()
	}
	if x := r.ForeignStart(); x != "" {
		// No from_event_id: an unmarked rerun does not say where it forked.
		e.key("start_names_other_run")
		e.beginObject()
		e.strField("id", x)
		e.strField("note", ForeignStartText(r))
		e.endObject()
	}
}

func writePayloadJSON(e *jsonEnc, name string, p catalyst.Payload) {
	e.key(name)
	e.beginObject()
	e.payloadBody(p)
	e.endObject()
}

func writeReportJSON(e *jsonEnc, h *catalyst.History, r *detect.Report, code *review.Joined) {
	e.key("invocations")
	e.beginArray()
	writeElements(e, len(r.Invocations), invocationsPerSegment, nil, func(e *jsonEnc, i int) {
		writeInvocationJSON(e, h, r, i, &r.Invocations[i])
	})
	e.endArray()

	e.key("findings")
	e.beginArray()
	writeElements(e, len(r.Findings), findingsPerSegment, nil, func(e *jsonEnc, i int) {
		writeFindingJSON(e, &r.Findings[i], code.Finding(i))
	})
	e.endArray()

	e.key("skipped_checks")
	e.beginArray()
	for _, s := range r.Skipped {
		e.beginObject()
		e.strField("check", s.Check)
		e.strField("invocation", s.Invocation)
		e.strField("reason", s.Reason)
		e.strField("level", string(s.Level))
		e.endObject()
	}
	e.endArray()
	writeCodeJSON(e, code)
}

func writeInvocationJSON(e *jsonEnc, h *catalyst.History, r *detect.Report, k int, inv *detect.Invocation) {
	e.beginObject()
	e.nameField("kind", inv.Kind.String())
	e.strField("name", inv.Name)
	e.strField("key", inv.Key)
	e.nameField("link_rule", inv.LinkRule.String())
	e.nameField("class", inv.Class.String())
	e.nameField("outcome", inv.Outcome.String())
	e.key("severity")
	e.name(inv.Severity(r).String())
	e.stampField("start", inv.Start)
	e.stampField("end", inv.End)
	if !inv.Start.IsZero() && !inv.End.IsZero() {
		e.spanFields("duration_ms", "duration_error_ms", inv.Took(h))
	}
	e.boolField("reused_instance_id", inv.ReusedInstanceID)
	if inv.OpenRetry != nil {
		e.key("open_retry")
		writeRetryTimerJSON(e, inv.OpenRetry)
	}
	e.key("findings")
	e.beginArray()
	for _, i := range inv.Findings {
		e.int(int64(i))
	}
	e.endArray()
	e.key("attempts")
	e.beginArray()
	for i := range inv.Attempts {
		note, _ := r.Note(k, inv.Attempts[i].Number)
		writeAttemptJSON(e, h, &inv.Attempts[i], note.Text)
	}
	e.endArray()
	e.endObject()
}

// writeAttemptJSON writes an attempt; note is why its outcome was inferred
// or is unknown ("" when its outcome, if any, was tied by id).
func writeAttemptJSON(e *jsonEnc, h *catalyst.History, a *detect.Attempt, note string) {
	e.beginObject()
	e.intField("number", int64(a.Number))
	e.intField("scheduled_event", int64(a.Scheduled))
	e.intField("scheduled_id", int64(a.ScheduledID))
	e.strField("execution_id", a.ExecutionID)
	e.strField("instance_id", a.InstanceID)
	e.nameField("link", a.Link.String())
	e.nameField("outcome", a.Outcome.String())
	if a.OutcomeEvent >= 0 {
		e.intField("outcome_event", int64(a.OutcomeEvent))
	}
	e.nameField("outcome_link", a.OutcomeLink.String())
	e.strField("outcome_reason", note)
	if len(a.ExtraOutcomes) > 0 {
		e.key("extra_outcome_events")
		e.beginArray()
		for _, x := range a.ExtraOutcomes {
			e.int(int64(x))
		}
		e.endArray()
	}
	e.stampField("start", a.Start)
	e.stampField("end", a.End)
	if !a.End.IsZero() {
		e.spanFields("duration_ms", "duration_error_ms", a.Took(h))
	}
	if a.BackoffBefore != 0 {
		e.spanFields("backoff_ms", "backoff_error_ms", a.Backoff(h))
	}
	if f := a.Failure; f != nil {
		e.strField("error_type", f.Type)
		e.strField("error_message", f.Message)
		e.boolField("non_retriable", f.NonRetriable)
	}
	e.nameField("failure_class", a.FailureClass.String())
	if a.RetryTimer != nil {
		e.key("retry_timer")
		writeRetryTimerJSON(e, a.RetryTimer)
	}
	e.endObject()
}

func writeRetryTimerJSON(e *jsonEnc, rt *detect.RetryTimer) {
	e.beginObject()
	e.intField("created_event", int64(rt.Created))
	if rt.Fired >= 0 {
		e.intField("fired_event", int64(rt.Fired))
	}
	e.stampField("fire_at", rt.FireAt)
	e.nameField("link", rt.Link.String())
	e.endObject()
}

func writeFindingJSON(e *jsonEnc, f *detect.Finding, c *review.CodeEvidence) {
	e.beginObject()
	e.strField("id", string(f.ID))
	e.key("severity")
	e.name(f.Severity.String())
	e.strField("confidence", string(f.Confidence))
	e.strField("activity", f.Activity)
	e.strField("invocation", f.Invocation)
	if f.InvocationIndex >= 0 {
		e.intField("invocation_index", int64(f.InvocationIndex))
	}
	e.key("attempts")
	e.beginArray()
	for _, n := range f.Attempts {
		e.int(int64(n))
	}
	e.endArray()
	e.key("evidence")
	e.beginArray()
	for _, ev := range f.Evidence {
		e.beginObject()
		e.intField("event", int64(ev.Event))
		e.intField("event_id", int64(ev.EventID))
		e.factField("fact", ev.Fact)
		e.endObject()
	}
	e.endArray()
	e.strField("explanation", f.Explanation)
	e.strField("advice", f.Advice)
	if c != nil {
		e.key("code")
		e.beginObject()
		e.boolField("found", c.Found)
		e.boolField("not_found", !c.Found)
		if c.Found {
			e.key("definition")
			writeCodeLocJSON(e, c.Definition)
		}
		e.strField("verdict", string(c.Verdict))
		e.strField("note", c.Note)
		if c.Refusal != nil {
			e.key("refusal")
			writeCodeHazardJSON(e, *c.Refusal)
		}
		e.key("hazards")
		e.beginArray()
		for _, h := range c.Hazards {
			writeCodeHazardJSON(e, h)
		}
		e.endArray()
		e.endObject()
	}
	e.endObject()
}

func writeCodeLocJSON(e *jsonEnc, l review.Location) {
	e.beginObject()
	e.strField("file", l.File)
	e.intField("line", int64(l.Line))
	e.intField("column", int64(l.Col))
	e.endObject()
}

func writeCodeHazardJSON(e *jsonEnc, h review.CodeHazard) {
	e.beginObject()
	e.strField("rule", h.Rule)
	if h.Rule != "" {
		e.nameField("severity", h.Severity.String())
	}
	e.key("location")
	writeCodeLocJSON(e, h.Location)
	e.strField("excerpt", h.Excerpt)
	e.strField("message", h.Message)
	e.endObject()
}

// writeCodeJSON writes the run's activities as the source defines them
// (--source): "code": [{"activity", "found", "definition", "hazards",
// "refusals"}].
func writeCodeJSON(e *jsonEnc, code *review.Joined) {
	if code == nil {
		return
	}
	e.key("code")
	e.beginArray()
	for _, c := range code.Activities {
		e.beginObject()
		e.strField("activity", c.Name)
		e.key("found")
		e.bool(c.Found)
		if c.Found {
			e.key("definition")
			writeCodeLocJSON(e, c.Definition)
		}
		e.key("hazards")
		e.beginArray()
		for _, h := range c.Hazards {
			writeCodeHazardJSON(e, h)
		}
		e.endArray()
		e.key("refusals")
		e.beginArray()
		for _, h := range c.Refusals {
			writeCodeHazardJSON(e, h)
		}
		e.endArray()
		e.endObject()
	}
	e.endArray()
}
