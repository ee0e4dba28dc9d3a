// Package detect groups every attempt of an activity or child workflow into
// its invocation and flags the hazards of at-least-once execution, probable
// duplicate side effects first, each with its evidence and one line of advice.
//
// It is pure: it reads a decoded catalyst.History and returns a Report. It
// does no I/O and imports no UI.
package detect

import (
	"strings"
	"time"

	"github.com/twice-cli/twice/catalyst"
)

// Kind is what an invocation calls.
type Kind int8

// Invocation kinds.
const (
	KindActivity      Kind = 1
	KindChildWorkflow Kind = 2
)

// String returns the kind as twice's JSON and text write it ("activity", "child-workflow"), or ""
// for the zero value.
func (v Kind) String() string {
	switch v {
	case KindActivity:
		return "activity"
	case KindChildWorkflow:
		return "child-workflow"
	}
	return ""
}

// LinkRule says which grouping rule joined an attempt (or a retry timer) to
// its invocation, in decreasing order of trust.
type LinkRule int8

// Link rules (design.md, "Grouping").
const (
	// LinkFirst marks the attempt that started the invocation: nothing
	// joined it.
	LinkFirst LinkRule = 1
	// LinkByID: the same non-empty task execution id (or, for child
	// workflows, retryParentInstanceInfo / the same instance id).
	LinkByID LinkRule = 2
	// LinkByOrigin: a retry timer's origin names the invocation, and the
	// next same-name attempt after that timer fired joins it.
	LinkByOrigin LinkRule = 3
	// LinkInferred: no ids or origins; joined by order, by a
	// "<Name>-retry" or unnamed timer in the turn of a failure, or by a
	// reused eventId.
	LinkInferred LinkRule = 4
)

// String returns the link rule as twice's JSON and text write it ("first", "by-id", "by-origin", "inferred"), or ""
// for the zero value.
func (v LinkRule) String() string {
	switch v {
	case LinkFirst:
		return "first"
	case LinkByID:
		return "by-id"
	case LinkByOrigin:
		return "by-origin"
	case LinkInferred:
		return "inferred"
	}
	return ""
}

// Outcome is how an attempt (or an invocation, by its last attempt) ended.
type Outcome int8

// Outcomes. OutcomeUnknown is never "failed" and never "fine": the history
// does not say.
const (
	OutcomeCompleted Outcome = 1
	OutcomeFailed    Outcome = 2
	// OutcomePending: no outcome yet, and the run is still running.
	OutcomePending Outcome = 3
	// OutcomeUnknown: no outcome recorded, and the run ended, stalled or
	// its status is unknown.
	OutcomeUnknown Outcome = 4
)

// String returns the outcome as twice's JSON and text write it ("completed", "failed", "pending", "unknown"), or ""
// for the zero value.
func (v Outcome) String() string {
	switch v {
	case OutcomeCompleted:
		return "completed"
	case OutcomeFailed:
		return "failed"
	case OutcomePending:
		return "pending"
	case OutcomeUnknown:
		return "unknown"
	}
	return ""
}

// Severity ranks findings. The zero value is SeverityNone.
type Severity int

// Severities, in increasing order.
const (
	SeverityNone Severity = iota
	SeverityLow
	SeverityMedium
	SeverityHigh
)

// String returns "none", "low", "medium" or "high".
func (s Severity) String() string {
	switch s {
	case SeverityLow:
		return "low"
	case SeverityMedium:
		return "medium"
	case SeverityHigh:
		return "high"
	}
	return "none"
}

// ParseSeverity parses "none", "low", "medium" or "high" (any case).
func ParseSeverity(s string) (Severity, bool) {
	for v := SeverityNone; v <= SeverityHigh; v++ {
		if strings.EqualFold(s, v.String()) {
			return v, true
		}
	}
	return SeverityNone, false
}

// Confidence says how directly the history shows a finding.
type Confidence string

// Confidences, following the seed: a duplicate is probable unless the
// history shows both executions.
const (
	ConfidenceObserved Confidence = "observed"
	ConfidenceProbable Confidence = "probable"
	ConfidencePossible Confidence = "possible"
)

// FailureClass says whether a failure can have left a side effect behind and
// whether a retry can succeed.
type FailureClass int8

// Failure classes.
const (
	// FailureAmbiguous: transient, and the request may have reached the
	// provider (timeouts, deadlines, resets, EOF, 502/503/504, gRPC
	// UNAVAILABLE/DEADLINE_EXCEEDED): the side effect may have committed.
	FailureAmbiguous FailureClass = 1
	// FailureSafe: transient, and the request never reached the provider
	// (429, connection refused).
	FailureSafe FailureClass = 2
	// FailurePermanent: retrying cannot succeed (non-retriable, validation,
	// 4xx, business rejections).
	FailurePermanent FailureClass = 3
	// FailureUnclassified: the message says nothing twice recognises.
	FailureUnclassified FailureClass = 4
)

// String returns the failure class as twice's JSON and text write it ("transient-ambiguous", "transient-safe", "permanent", "unclassified"), or ""
// for the zero value.
func (v FailureClass) String() string {
	switch v {
	case FailureAmbiguous:
		return "transient-ambiguous"
	case FailureSafe:
		return "transient-safe"
	case FailurePermanent:
		return "permanent"
	case FailureUnclassified:
		return "unclassified"
	}
	return ""
}

// ActivityClass says what an activity's name suggests it does.
type ActivityClass int8

// Activity classes.
const (
	ClassSideEffect ActivityClass = 1
	ClassReadOnly   ActivityClass = 2
	ClassIdempotent ActivityClass = 3
	ClassUnknown    ActivityClass = 4
)

// String returns the activity class as twice's JSON and text write it ("side-effect", "read-only", "idempotent", "unknown"), or ""
// for the zero value.
func (v ActivityClass) String() string {
	switch v {
	case ClassSideEffect:
		return "side-effect"
	case ClassReadOnly:
		return "read-only"
	case ClassIdempotent:
		return "idempotent"
	case ClassUnknown:
		return "unknown"
	}
	return ""
}

// Report is what detect found in one history.
type Report struct {
	// Invocations in the order their first attempt was scheduled.
	Invocations []Invocation
	// Findings, most severe first; ties keep history order.
	Findings []Finding
	// Skipped lists the checks that could not run and why (payloads
	// withheld at the data-sharing level, redacted, ...).
	Skipped []SkippedCheck
	// OutcomeNotes say, for the attempts whose outcome the source did not
	// tie to them by id, how it was inferred or why it is unknown; in
	// invocation and attempt order. Analyze sets them; Note finds one.
	OutcomeNotes []OutcomeNote
}

// Invocation is one logical call of an activity or child workflow, with
// every attempt the engine scheduled for it. Its one-byte fields come last,
// together, so that they share one word: a million-event history has a
// quarter of a million invocations.
type Invocation struct {
	// Name is the activity or child-workflow name.
	Name string
	// Key identifies the invocation: the shared task execution id, the
	// first attempt's execution id (by-origin), the child's instance id,
	// or, with no ids, "event:<eventId>" of its first attempt.
	Key string
	// Attempts in the order they were scheduled.
	Attempts []Attempt
	// Start is the first attempt's scheduled time, End the last outcome's.
	Start catalyst.Stamp
	End   catalyst.Stamp
	// Findings are positions in Report.Findings that concern this invocation.
	Findings []int
	// OpenRetry is a retry timer of this invocation that no attempt
	// followed: it has not fired yet, or the history ends before the retry
	// (nil when every retry timer led to an attempt).
	OpenRetry *RetryTimer
	Kind      Kind
	// LinkRule is the least trusted rule that joined any of its attempts
	// (LinkFirst for a single attempt), or LinkInferred when an attempt's
	// outcome was tied to it by inference (Attempt.OutcomeLink).
	LinkRule LinkRule
	// Class is what the name suggests the activity does (after overrides).
	Class ActivityClass
	// Outcome is the last attempt's outcome.
	Outcome Outcome
	// ReusedInstanceID is set when child-workflow attempts reused one
	// instance id (earlier attempts' histories were overwritten).
	ReusedInstanceID bool
	// noted: an attempt of it has an outcome note (Report.Note).
	noted bool
}

// Severity returns the worst severity of the invocation's findings.
func (inv *Invocation) Severity(r *Report) Severity {
	worst := SeverityNone
	for _, i := range inv.Findings {
		if s := r.Findings[i].Severity; s > worst {
			worst = s
		}
	}
	return worst
}

// Duration is the time from the first attempt's scheduling to the last
// outcome, or 0 when either is unknown.
func (inv *Invocation) Duration() time.Duration { return inv.End.Sub(inv.Start) }

// Took is the invocation's span as h, its history, measures it
// (catalyst.History.Span).
func (inv *Invocation) Took(h *catalyst.History) catalyst.Span { return h.Span(inv.Start, inv.End) }

// Attempt is one scheduled task (or child-workflow creation) of an
// invocation. Its small fields come last, together, so that they share one
// word.
type Attempt struct {
	// Number is the attempt's position in its invocation, from 1.
	Number int
	// Scheduled is the position in the history of its taskScheduled or
	// childWorkflowCreated event; ScheduledID (below) is that event's eventId.
	Scheduled int
	// ExecutionID is its task execution id; InstanceID its child instance id.
	ExecutionID string
	InstanceID  string
	// OutcomeEvent is the position of the event that recorded its outcome
	// (-1: none).
	OutcomeEvent int
	// ExtraOutcomes are positions of further completions or failures for
	// this same attempt (a late or duplicated completion).
	ExtraOutcomes []int
	// RetryTimer is the retry timer that preceded this attempt, if any.
	RetryTimer *RetryTimer
	// Start is when it was scheduled, End when its outcome was recorded.
	Start catalyst.Stamp
	End   catalyst.Stamp
	// BackoffBefore is the wait between the previous attempt's outcome and
	// this attempt's scheduling (0 for the first). Show it as the history
	// measures it (Backoff).
	BackoffBefore time.Duration
	// Failure and its class (FailureClass, below), when the attempt failed.
	Failure     *catalyst.Failure
	ScheduledID int32
	// Link is the rule that joined it to the invocation.
	Link LinkRule
	// Outcome is how it ended (see OutcomeEvent).
	Outcome      Outcome
	FailureClass FailureClass
	// OutcomeLink is how its outcome event was tied to it: LinkByID (the
	// event's scheduled id or task execution id), LinkInferred (the
	// source gave no id and the history still decided; Report.Note says
	// why), or 0 when it has no outcome event.
	OutcomeLink LinkRule
}

// Duration is the time from scheduling to outcome, or 0 when unknown.
// Show it as the history measures it (Took).
func (a *Attempt) Duration() time.Duration { return a.End.Sub(a.Start) }

// Took is the span from scheduling to outcome as h, the attempt's history,
// measures it (catalyst.History.Span: how well the source knows it); a
// zero span when the outcome is unknown.
func (a *Attempt) Took(h *catalyst.History) catalyst.Span { return h.Span(a.Start, a.End) }

// Backoff is the span from the previous attempt's outcome to this one's
// scheduling as h measures it; a zero span when there is none.
func (a *Attempt) Backoff(h *catalyst.History) catalyst.Span {
	if a.BackoffBefore == 0 || a.Start.IsZero() {
		return catalyst.Span{}
	}
	// The previous attempt's outcome, exactly: Start less the wait.
	return h.Span(a.Start-catalyst.Stamp(a.BackoffBefore), a.Start)
}

// RetryTimer is the durable timer the engine waited on before a retry.
type RetryTimer struct {
	// Created and Fired are positions in the history (Fired -1: not fired).
	Created int
	Fired   int
	FireAt  catalyst.Stamp
	// Link is the rule that tied the timer to the invocation.
	Link LinkRule
}

// Finding is one hazard with its evidence.
type Finding struct {
	ID         FindingID
	Severity   Severity
	Confidence Confidence
	// Activity is the activity or child-workflow name.
	Activity string
	// Invocation is the invocation's Key ("" for run-wide findings such as
	// shared-retry-policy); InvocationIndex its position in
	// Report.Invocations (-1 when run-wide).
	Invocation      string
	InvocationIndex int
	// Attempts are the numbers of every attempt the finding concerns:
	// those it is about, and those its evidence cites, ascending.
	Attempts []int
	// Evidence lists the events that support the finding, each with a
	// one-line fact, in history order, each fact once.
	Evidence []Evidence
	// Explanation says what happened and why it matters, in the seed's words.
	Explanation string
	// Advice is one line from the seed's hazard table.
	Advice string
}

// Evidence is one event supporting a finding.
type Evidence struct {
	// Event is the position in the history; EventID the engine's eventId.
	Event   int
	EventID int32
	// Fact is one line, e.g. "attempt 1 failed after 30.52s: read
	// timeout — the charge may have committed", its span a value the
	// presenter words (tui/format.Fact). It does not name Event again:
	// whoever prints it puts the event first.
	Fact Fact
}

// SkippedCheck is a check that could not run, and why.
type SkippedCheck struct {
	// Check names it ("identical inputs", "distinct outputs", "payload size").
	Check string
	// Invocation is the key of the invocation it concerns ("" for all).
	Invocation string
	// Reason says why, naming the data-sharing level where that is the cause.
	Reason string
	// Level is the data-sharing level that withheld the payloads, if any.
	Level catalyst.Level
}
