package review

import (
	"github.com/twice-cli/twice/detect"
)

// RuleID is a review rule's stable id; it appears in JSON and SARIF output.
type RuleID string

// The rules (issue 18), each a hazard of the seed's table or one of its Rules.
const (
	RuleKeyGeneratedInBody RuleID = "key-generated-in-body"
	RuleUnkeyedSideEffect  RuleID = "unkeyed-side-effect"
	RuleCheckThenAct       RuleID = "check-then-act"
	RulePerAttemptKey      RuleID = "per-attempt-key"
	RuleRetryInBody        RuleID = "retry-in-body"
	RuleSharedRetryPolicy  RuleID = "shared-retry-policy"
	RuleRetriedRejection   RuleID = "retried-rejection"
	RuleLargePayload       RuleID = "large-payload"
)

// Rule describes one rule: what it means and what to do, in the seed's
// terms.
type Rule struct {
	ID RuleID
	// Name is a short title.
	Name string
	// Severity is the rule's default severity.
	Severity detect.Severity
	// Why says why the shape is a hazard when an activity runs twice.
	Why string
	// Fix is the seed's fix.
	Fix string
}

// Rules returns the catalogue, in a stable order.
func Rules() []Rule {
	return []Rule{
		{RuleKeyGeneratedInBody, "Idempotency key generated inside the activity body", detect.SeverityHigh,
			"A key made inside the body (a fresh UUID, the current time, a random value) differs on every attempt, so the retry carries a new key and nothing downstream can recognise the duplicate. A key generated in the body is not an idempotency key.",
			"Derive the key from the activity input (a natural key such as the order id) or from the activity context's task execution id, which every retry of one invocation shares."},
		{RuleUnkeyedSideEffect, "Side effect with no idempotency key or conditional write", detect.SeverityMedium,
			"Activities run at least once. A write that carries no stable key, or is not conditional on one, repeats when the activity is retried: two rows, two charges, two messages, a double count, duplicated content.",
			"Make the write refuse the duplicate: a unique constraint then upsert or insert-ignore; the provider's idempotency key header; a dedupe record or provider-side key for email and SMS; an idempotent set instead of an increment; a deterministic message id; a write to a key derived from the idempotency key instead of an append."},
		{RuleCheckThenAct, "Check-then-act is the only protection", detect.SeverityMedium,
			"Reading for the key and then writing unconditionally leaves a gap: two attempts can both read \"absent\" and both write, and a timed-out attempt may still be running while its retry starts.",
			"Make the write itself refuse the duplicate (ON CONFLICT DO NOTHING, an upsert, a compare-and-swap, an etag or version precondition, IF NOT EXISTS). Keep the read only as a latency optimisation in front of it."},
		{RulePerAttemptKey, "Key derived from a per-attempt id", detect.SeverityHigh,
			"Each retry attempt is a new scheduled task with its own scheduling id, and a retried child workflow is a new instance with a new instance id: a key derived from either differs on every attempt.",
			"Use a natural key from the input (the order id), or the activity context's task execution id where every retry of one invocation shares it (the Go and Python SDKs; not .NET's, whose SDK schedules each retry as a new task with a new id); for a child workflow, derive the key from the parent or pass it down in the child's input."},
		{RuleRetryInBody, "Retry loop inside the activity body", detect.SeverityMedium,
			"A retry written inside the body is invisible to history, does not survive a worker crash, and multiplies with the engine's own retries.",
			"Remove it and configure the retry policy where the activity is called, in the orchestrator; engine retries use durable timers and every attempt appears in history."},
		{RuleSharedRetryPolicy, "One retry policy for activities of different failure classes", detect.SeverityLow,
			"One policy applied to activities that fail in different ways retries permanent rejections on the same schedule as transient failures.",
			"Give each failure class its own policy: retry transient failures (timeouts, resets, 429, 503); call activities that can reject permanently with no retry policy, or return the rejection as a value."},
		{RuleRetriedRejection, "Business rejection raised at a call site with a retry policy", detect.SeverityMedium,
			"A rejection that can never succeed (a declined card, a validation failure, a permanent 4xx) raised as an error spends the retry budget and delays the real failure.",
			"Return the rejection as data (for example {\"outcome\": \"rejected\", \"reason\": …}) and let the orchestrator branch on it; reserve the retry policy for transient failures."},
		{RuleLargePayload, "Activity returns a whole response body or document", detect.SeverityLow,
			"Activity outputs are stored in the workflow history: a whole document slows every replay of the instance and can exceed the state store's limits, late and under load.",
			"Return a status and a reference (an id, a key), not the body; keep the document where it lives."},
	}
}

// RuleByID returns a rule's description.
func RuleByID(id RuleID) (Rule, bool) {
	for _, r := range Rules() {
		if r.ID == id {
			return r, true
		}
	}
	return Rule{}, false
}

// Location is a place in a reviewed file.
type Location struct {
	// File is the path under the reviewed root, with forward slashes.
	File string
	Line int
	Col  int
}

// Hazard is one rule's finding at one place.
type Hazard struct {
	Rule     RuleID
	Severity detect.Severity
	// Activity is the activity's registered name (as the history shows
	// it); for orchestrator rules, the called activity's, and Workflow is
	// the orchestrator's.
	Activity string
	Workflow string
	Location
	// Excerpt is the source line at Location, trimmed. It is untrusted
	// text: renderers sanitize it.
	Excerpt string
	// Message says what was found here, specifically.
	Message string
	// Via lists the helper calls that lead from the activity body to the
	// hazard, outermost first ("send_receipt at app.py:31").
	Via []string
}

// Guard is a write that refuses its own duplicate: a conditional write
// keyed from the input (the join cites it: "probably refused downstream").
type Guard struct {
	Location
	Excerpt string
	// What names the mechanism ("INSERT … ON CONFLICT", "Idempotency-Key
	// header", "SETNX").
	What string
}

// KeyNote is a key twice can vouch for neither way: one whose source it
// cannot see (never a guard, never "from the input"), or a constant one,
// shared by every operation.
type KeyNote struct {
	Location
	Excerpt string
	// What says what the key is and why twice cannot vouch for it.
	What string
	// Unseen marks a key whose source twice cannot see (false: a
	// constant).
	Unseen bool
}

// Opaque is a call into code twice cannot see from the activity.
type Opaque struct {
	Location
	// Call is the called name as written; Target the resolved one.
	Call   string
	Target string
}

// Activity is one activity twice found registered, with what its body
// does.
type Activity struct {
	// Name is the registered name; Func the function that implements it.
	Name string
	Func string
	Lang Lang
	// Location is where the function is defined; Registered where it is
	// registered.
	Location
	Registered Location
	// Hazards found in the body (and in the helpers it calls), and at the
	// call sites that call it.
	Hazards []Hazard
	// Guards are conditional writes that refuse a duplicate, keyed from
	// the input.
	Guards []Guard
	// Keys are keys twice can vouch for neither way (KeyNote).
	Keys []KeyNote
	// Opaque lists the calls twice could not follow.
	Opaque []Opaque
	// Unresolved is set when the registration names a function twice did
	// not find in the reviewed tree.
	Unresolved bool
	// Discovered is "inferred" when no registration twice could read names
	// it: a workflow calls it (or the SDK's signature marks it), and it is
	// reviewed as the activity of that name; "" when a registration does.
	Discovered string
}

// DiscoveredInferred marks an activity or workflow found without a
// registration twice could read.
const DiscoveredInferred = "inferred"

// Unresolved is a name a workflow calls, or a registration, that twice
// could not follow to a body it reviewed: never a silent zero.
type Unresolved struct {
	// Name is the called or registered name, as written or resolved.
	Name string
	// Kind is KindActivity or KindWorkflow.
	Kind DefKind
	// Location is where it is called or registered.
	Location
	// Reason says why twice did not review it ("not in the reviewed tree",
	// "registered through run-time discovery", "factory result not
	// followed").
	Reason string
}

// The reasons an activity or workflow is unresolved.
const (
	ReasonNotInTree      = "not in the reviewed tree"
	ReasonRuntime        = "registered through run-time discovery"
	ReasonFactory        = "factory result not followed"
	ReasonComputedTarget = "the called name is computed at run time"
)

// Workflow is one orchestrator twice found registered.
type Workflow struct {
	Name string
	Func string
	Lang Lang
	Location
	// Discovered is "inferred" when no registration twice could read
	// names it: it calls activities (or the SDK's signature marks it).
	Discovered string
}

// Skipped is a file twice did not review, and why.
type Skipped struct {
	File   string
	Reason string
}

// Report is what a review found.
type Report struct {
	// Roots are the paths reviewed, as given.
	Roots []string
	// Activities, by registered name.
	Activities []Activity
	// Workflows, by registered name.
	Workflows []Workflow
	// Hazards, all of them, by file, line and rule.
	Hazards []Hazard
	// Files and Lines count what was parsed, per language.
	Files map[Lang]int
	Lines map[Lang]int
	// Skipped lists files that could not be reviewed (parse errors, a
	// language this build cannot parse).
	Skipped []Skipped
	// Unavailable names the languages this build cannot review, with why.
	Unavailable map[Lang]string
	// Builds lists the files that compile differently per build
	// configuration (C#'s #if DEBUG … #else …) and the one reviewed:
	// Release, the code that runs in production.
	Builds []BuildNote
	// Unresolved lists every name a workflow calls and every registration
	// twice could not follow to a reviewed body, with where and why.
	Unresolved []Unresolved
	// SDKImported is set when a parsed file imports a Dapr workflow SDK
	// (a review that finds nothing in such a tree says so).
	SDKImported bool
	// rowsUsed are the library rows that answered a question about the
	// code (the corpus test checks every row is exercised).
	rowsUsed map[*api]bool
}

// BuildNote says which build configuration's code a file was reviewed as.
type BuildNote struct {
	File  string
	Build string
}

// Activity returns the activity registered under name, or nil.
func (r *Report) Activity(name string) *Activity {
	for i := range r.Activities {
		if r.Activities[i].Name == name {
			return &r.Activities[i]
		}
	}
	return nil
}

// Worst returns the highest severity among the hazards.
func (r *Report) Worst() detect.Severity {
	w := detect.SeverityNone
	for _, h := range r.Hazards {
		if h.Severity > w {
			w = h.Severity
		}
	}
	return w
}
