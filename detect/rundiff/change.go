package rundiff

import (
	"github.com/twice-cli/twice/detect"
)

// ChangeKind says what differs. The kinds are in the order Compare ranks
// them, worst first (a finding's own severity ranks findings among
// themselves).
type ChangeKind int8

// Change kinds, worst first.
const (
	// ChangeFinding: a finding of the invocation (or a run-wide one) that
	// only one run has.
	ChangeFinding ChangeKind = iota + 1
	// ChangeStatus: the runs ended differently (or one has not).
	ChangeStatus
	// ChangeOnlyIn: an invocation only one run has.
	ChangeOnlyIn
	// ChangeAttempts: how many attempts the invocation took.
	ChangeAttempts
	// ChangeFailures: how many of its attempts failed.
	ChangeFailures
	// ChangeErrorTypes: the error types its failures had.
	ChangeErrorTypes
	// ChangeOutcome: how its last attempt ended.
	ChangeOutcome
	// ChangeWhy: why the run ended as it did.
	ChangeWhy
	// ChangeRetryDelays: the waits before its retries (a retry policy's
	// first interval and backoff).
	ChangeRetryDelays
	// ChangeRetryCoefficient: the backoff coefficient the first two
	// delays imply.
	ChangeRetryCoefficient
	// ChangeDuration: how long it (or the run) took, beyond what the two
	// sources' time resolution can tell apart.
	ChangeDuration
	// ChangeInput and ChangeOutput: the payload both runs show differs.
	ChangeInput
	ChangeOutput
	// ChangeTimers: durable timers (not retry timers) only one run has, by
	// name.
	ChangeTimers
	// ChangeEvents: external events raised or sent only in one run, by name.
	ChangeEvents
	// ChangeNotCompared: something Compare could not compare (a payload
	// withheld or redacted on one side); never a difference in itself.
	ChangeNotCompared
)

// String returns the kind as twice's JSON writes it.
func (k ChangeKind) String() string {
	switch k {
	case ChangeFinding:
		return "finding"
	case ChangeStatus:
		return "status"
	case ChangeOnlyIn:
		return "only-in-one"
	case ChangeAttempts:
		return "attempts"
	case ChangeFailures:
		return "failures"
	case ChangeErrorTypes:
		return "error-types"
	case ChangeOutcome:
		return "outcome"
	case ChangeWhy:
		return "why-ended"
	case ChangeRetryDelays:
		return "retry-delays"
	case ChangeRetryCoefficient:
		return "retry-coefficient"
	case ChangeDuration:
		return "duration"
	case ChangeInput:
		return "input"
	case ChangeOutput:
		return "output"
	case ChangeTimers:
		return "timers"
	case ChangeEvents:
		return "events"
	case ChangeNotCompared:
		return "not-compared"
	}
	return ""
}

// Title is the kind in a word or two, for people.
func (k ChangeKind) Title() string {
	switch k {
	case ChangeFinding:
		return "finding"
	case ChangeStatus:
		return "status"
	case ChangeOnlyIn:
		return "call"
	case ChangeAttempts:
		return "attempts"
	case ChangeFailures:
		return "failures"
	case ChangeErrorTypes:
		return "error types"
	case ChangeOutcome:
		return "outcome"
	case ChangeWhy:
		return "why it ended"
	case ChangeRetryDelays:
		return "retry delays"
	case ChangeRetryCoefficient:
		return "backoff"
	case ChangeDuration:
		return "took"
	case ChangeInput:
		return "input"
	case ChangeOutput:
		return "output"
	case ChangeTimers:
		return "timers"
	case ChangeEvents:
		return "events"
	case ChangeNotCompared:
		return "not compared"
	}
	return ""
}

// Change is one thing that differs between the two runs: what each shows,
// as facts (words, safe for one line, and at most one measure each, which
// the presenter words as it words every span: tui/format.Fact). A side
// that shows nothing of it has no facts ("none").
type Change struct {
	Kind ChangeKind
	A, B []detect.Fact
	// Severity is, for ChangeFinding, the finding's severity; for the
	// other kinds SeverityNone.
	Severity detect.Severity
	// Finding is, for ChangeFinding, the finding's id.
	Finding detect.FindingID
}

// rankOf orders changes, worst first: by kind, and findings among
// themselves by severity, most severe first.
func rankOf(c Change) int {
	return int(c.Kind)*16 - int(c.Severity)
}
