package detect

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/safetext"
)

// nearPayloadLimit is where a payload counts as near the 4 MiB gRPC body
// limit at which Dapr stalls a run.
const nearPayloadLimit = 3 << 20

// maxAttemptEvidence caps the attempts a finding lists one by one.
const maxAttemptEvidence = 8

// detector runs the findings catalogue over grouped invocations.
type detector struct {
	s    *scan
	h    *catalyst.History
	b    built
	opts Options
	// found holds the findings in the order they were raised, in blocks
	// of findingBlock: a growing slice would copy them again and again.
	found   [][]rankedFinding
	nFound  int
	skipped []SkippedCheck
	// hidden counts the retried invocations whose inputs are not visible;
	// inputSkips, those of them already named by their own skipped check.
	hidden     int
	inputSkips int
	// ln is the buffer facts are built in.
	ln line
	// names caches the text derived from each activity name.
	names map[string]*nameText
	// explanations caches explanations that many findings share.
	explanations map[explanationKey]string
	// fc classifies failures, once per distinct message.
	fc *failureClasses
	// rep is the report being built: its invocations and outcome notes
	// are complete before the checks run, which only read them.
	rep *Report
}

// untied reports whether attempt a of invocation k may have an outcome
// the history records without saying which call it closes: its outcome is
// unknown for want of an id, not because none was recorded.
func (d *detector) untied(k int, a *Attempt) bool {
	return d.rep != nil && len(d.rep.OutcomeNotes) > 0 && d.rep.OutcomeUntied(k, a.Number)
}

// explanationKey identifies an explanation by what it is built from.
type explanationKey struct {
	id                           FindingID
	conf                         Confidence
	name, fact                   string
	trigger, number, completions int
	// differ: the attempts' inputs differ; ids: the calls carry task
	// execution ids.
	differ, ids bool
}

// rankedFinding is a finding with the history position it is anchored at
// (ties in severity keep history order) and the invocations it concerns
// (-1: none).
type rankedFinding struct {
	f          Finding
	order      int
	inv1, inv2 int
}

// findingBlock is how many findings one block of detector.found holds.
const findingBlock = 1024

// add records a finding anchored at history position order, concerning up
// to two invocations (-1 for none).
func (d *detector) add(f Finding, order, inv1, inv2 int) {
	last := len(d.found) - 1
	if last < 0 || len(d.found[last]) == cap(d.found[last]) {
		d.found = append(d.found, make([]rankedFinding, 0, findingBlock))
		last++
	}
	d.found[last] = append(d.found[last], rankedFinding{f: f, order: order, inv1: inv1, inv2: inv2})
	d.nFound++
}

// foundAt returns the i-th finding raised.
func (d *detector) foundAt(i int32) *rankedFinding {
	return &d.found[i/findingBlock][i%findingBlock]
}

func (d *detector) evidence(pos int, fact string) Evidence {
	ev := Evidence{Event: pos, Fact: fact, EventID: -1}
	if pos >= 0 && pos < d.h.Len() {
		ev.EventID = d.h.At(pos).ID
	}
	return ev
}

// severityFor maps an activity class to a duplicate's severity; none for
// reads and already idempotent writes.
func severityFor(c ActivityClass) Severity {
	switch c {
	case ClassSideEffect:
		return SeverityHigh
	case ClassUnknown:
		return SeverityMedium
	}
	return SeverityNone
}

func allNumbers(inv *Invocation) []int {
	ns := make([]int, len(inv.Attempts))
	for i := range inv.Attempts {
		ns[i] = inv.Attempts[i].Number
	}
	return ns
}

// attemptEvidence lists each attempt's scheduling (for retries) and outcome,
// the first and last few when there are many. observed says the finding's
// confidence is observed: only then does a second outcome read as a second
// execution.
func (d *detector) attemptEvidence(k int, inv *Invocation, subject string, observed bool) []Evidence {
	n := len(inv.Attempts)
	ev := make([]Evidence, 0, 2*min(n, maxAttemptEvidence)+2)
	for i := range inv.Attempts {
		if n > maxAttemptEvidence && i == maxAttemptEvidence/2 {
			ev = append(ev, d.evidence(inv.Attempts[i].Scheduled,
				d.ln.str("… ").num(n-maxAttemptEvidence+1).str(" more attempts …").done()))
		}
		if n > maxAttemptEvidence && i >= maxAttemptEvidence/2 && i < n-maxAttemptEvidence/2+1 {
			continue
		}
		a := &inv.Attempts[i]
		if i > 0 {
			ev = append(ev, d.evidence(a.Scheduled, d.retryFact(inv, i)))
		}
		pos, fact := outcomeFact(&d.ln, a, subject, d.untied(k, a))
		ev = append(ev, d.evidence(pos, fact))
		for _, x := range a.ExtraOutcomes {
			ev = append(ev, d.evidence(x, d.extraFact(a, x, observed)))
		}
	}
	// A late outcome reads best where it happened.
	slices.SortStableFunc(ev, func(a, b Evidence) int { return cmp.Compare(a.Event, b.Event) })
	return ev
}

// retryFact says when and how a later attempt joined its invocation.
func (d *detector) retryFact(inv *Invocation, i int) string {
	a, kind := &inv.Attempts[i], inv.Kind
	l := d.ln.attempt(a.Number).str(" scheduled")
	if a.BackoffBefore > 0 {
		l.str(" ").dur(a.BackoffBefore).str(" later")
	}
	switch {
	case a.Link == LinkByID && kind == KindChildWorkflow:
		l.str(", linked by its instance id or retry parent")
	case a.Link == LinkByID:
		l.str(", same task_execution_id")
	case a.Link == LinkByOrigin:
		l.str(", linked by its retry timer's origin")
	case a.Link == LinkInferred && d.childRetryOrigin(a) != "":
		// The rows (the Dapr CLI's) print no child instance ids, but the
		// retry timer's origin names the child it retries.
		id := d.childRetryOrigin(a)
		l.str(", linked by its retry timer's origin: a retry of child ").str(safetext.Line(clip(id, 80)))
		if first := d.originAttempt(inv.Attempts[:i], id); first > 0 {
			l.str(", the id the engine gives ").attempt(first).str("'s child")
		} else {
			l.str(", created after ").attempt(inv.Attempts[i-1].Number).str(" failed")
		}
	case a.Link == LinkInferred:
		l.str(", linked by order: a retry timer followed the failure and no id or origin ties them")
	}
	return l.done()
}

// childRetryOrigin is the child instance id the childWorkflowRetry origin
// of the retry timer before a names, or "".
func (d *detector) childRetryOrigin(a *Attempt) string {
	if a.RetryTimer == nil {
		return ""
	}
	e := d.h.At(a.RetryTimer.Created)
	if e.Origin != catalyst.OriginChildWorkflowRetry {
		return ""
	}
	return e.OriginID
}

// originAttempt is the number of the attempt among earlier whose child the
// engine gave the instance id id (parent:<its action id in hex>), or 0.
func (d *detector) originAttempt(earlier []Attempt, id string) int {
	for _, b := range earlier {
		if d.s.engineChildID(id, b.ScheduledID) {
			return b.Number
		}
	}
	return 0
}

// extraFact says what a further outcome of one attempt (at pos) shows, by
// what the history holds: a completion after a recorded failure is a second
// outcome, not proof of a second execution; only a second completion, in a
// finding that is observed, says the task executed twice.
func (d *detector) extraFact(a *Attempt, pos int, observed bool) string {
	e := d.h.At(pos)
	failed := e.Type == catalyst.EventTaskFailed || e.Type == catalyst.EventChildWorkflowFailed
	l := d.ln.str("attempt ").num(a.Number)
	switch {
	case failed && a.Outcome == OutcomeFailed:
		l.str(" failed again")
	case failed:
		l.str(" also failed after its completion was recorded")
	case a.Outcome == OutcomeFailed:
		l.str(" also completed after its failure was recorded")
	default:
		l.str(" completed again")
	}
	l.str(", a second outcome for the same scheduled task")
	if observed && !failed && a.Outcome == OutcomeCompleted {
		// Two completions of one task: two executions ran to the end. A
		// completion after a failure may be the failed run finishing late.
		l.str(" — it executed twice")
	}
	if failed {
		l.str(": ").str(failureText(e.Failure))
	}
	return l.done()
}

// invocationFindings runs the per-invocation checks.
func (d *detector) invocationFindings(k int) {
	inv := &d.b.invs[k]
	if len(inv.Attempts) == 1 && inv.Outcome == OutcomeCompleted && !d.b.large[k] &&
		len(inv.Attempts[0].ExtraOutcomes) == 0 {
		return // one attempt, completed once: nothing to find
	}
	if inv.Kind == KindActivity {
		d.duplicate(k)
	} else {
		d.childRetried(k)
	}
	d.retriedPermanent(k)
	d.unknownOutcome(k)
	if d.b.large[k] {
		d.largePayloads(k)
	}
	if len(inv.Attempts) > 1 {
		for i := range inv.Attempts {
			if !visible(d.h.At(inv.Attempts[i].Scheduled).Payload) {
				d.hidden++
				break
			}
		}
	}
}

// duplicate flags an invocation whose side effect may have happened more
// than once.
func (d *detector) duplicate(k int) {
	inv := &d.b.invs[k]
	sev := severityFor(inv.Class)
	if sev == SeverityNone {
		return
	}
	// What raised the finding: an attempt's ambiguous failure, missing
	// outcome, unrecognised failure, or a second failed outcome.
	const (
		trigAmbiguous = iota + 1
		trigNoOutcome
		trigUnclassified
		trigExtraFailure
		trigUntied
	)
	var completions []int // positions of completion events
	conf := Confidence("")
	trigger, trigNum, trigFact := 0, 0, ""
	raise := func(c Confidence, what, number int, fact string) {
		if confidenceRank(c) > confidenceRank(conf) {
			conf, trigger, trigNum, trigFact = c, what, number, fact
		}
	}
	n := len(inv.Attempts)
	for i := range inv.Attempts {
		a := &inv.Attempts[i]
		if a.Outcome == OutcomeCompleted {
			completions = append(completions, a.OutcomeEvent)
		}
		// A second outcome for one attempt: it executed twice. A failure
		// among its outcomes counts by its class.
		for _, x := range a.ExtraOutcomes {
			e := d.h.At(x)
			if e.Type == catalyst.EventTaskCompleted {
				completions = append(completions, x)
				if a.Outcome == OutcomeFailed {
					d.raiseForFailure(raise, a.FailureClass, trigExtraFailure, a.Number, failureText(a.Failure))
				}
				continue
			}
			d.raiseForFailure(raise, d.fc.class(e.Failure), trigExtraFailure, a.Number, failureText(e.Failure))
		}
		if i == n-1 {
			break
		}
		switch {
		case a.Outcome == OutcomeFailed && a.FailureClass == FailureAmbiguous:
			raise(ConfidenceProbable, trigAmbiguous, a.Number, failureText(a.Failure))
		case a.Outcome == OutcomeUnknown && d.untied(k, a):
			// An outcome the history records may be this attempt's.
			raise(ConfidencePossible, trigUntied, a.Number, "")
		case a.Outcome == OutcomePending || a.Outcome == OutcomeUnknown:
			raise(ConfidenceProbable, trigNoOutcome, a.Number, "")
		case a.Outcome == OutcomeFailed && a.FailureClass == FailureUnclassified:
			raise(ConfidencePossible, trigUnclassified, a.Number, failureText(a.Failure))
		}
	}
	if len(completions) >= 2 {
		conf = ConfidenceObserved
	}
	if conf == "" {
		return
	}
	nt := d.textOf(inv.Name)
	inputFacts, inputsDiffer := d.compareInputs(k)
	differ := inputsDiffer && inv.LinkRule == LinkInferred
	if differ {
		conf = ConfidencePossible
	}
	ev := d.attemptEvidence(k, inv, nt.subject, conf == ConfidenceObserved)
	ev = append(ev, inputFacts...)
	ev = append(ev, d.compareOutputs(k, completions)...)

	key := explanationKey{id: FindingDuplicateSideEffect, conf: conf, name: inv.Name, fact: trigFact,
		trigger: trigger, number: trigNum, completions: len(completions), differ: differ}
	expl, ok := d.explanations[key]
	if !ok {
		l := &d.ln
		if len(completions) >= 2 {
			l.str("The history shows this call executing more than once: it records ").num(len(completions)).
				str(" completions for this one call. Activities run at least once, never exactly once; unless ").
				str(nt.subject).str(" is keyed on a value stable across retries and the write is conditional on " +
				"that key, it happened twice.")
		} else {
			if trigger == trigExtraFailure {
				l.str("Attempt ").num(trigNum).str(" of ").str(nt.quoted)
			} else {
				l.str("The engine ran ").str(nt.quoted).str(" again after attempt ").num(trigNum)
			}
			switch trigger {
			case trigAmbiguous:
				l.str(" failed ambiguously (").str(trigFact).str("), so ").str(nt.subject).
					str(" may have committed before the failure reached the history.")
			case trigNoOutcome:
				l.str(" left no recorded outcome, so ").str(nt.subject).str(" may have committed.")
			case trigUntied:
				l.str(" has no outcome the history ties to it (an outcome without a scheduled id may be its own), so ").
					str(nt.subject).str(" may have committed.")
			case trigUnclassified:
				l.str(" failed with an error twice does not recognise (").str(trigFact).str("); if it came after ").
					str(nt.subject).str(" committed, it ran twice.")
			case trigExtraFailure:
				l.str(" recorded two outcomes for one scheduled task, one a failure (").str(trigFact).
					str("): if the run that failed had committed ").str(nt.subject).
					str(" before it failed, it happened twice.")
			}
			l.str(" Nothing inside the activity can tell: its inputs are identical by design, so only the " +
				"outside world can refuse the duplicate.")
		}
		if differ {
			l.str(" The attempts were linked by order and their inputs differ, so they may be separate calls.")
		}
		expl = l.done()
		if d.explanations == nil {
			d.explanations = make(map[explanationKey]string)
		}
		d.explanations[key] = expl
	}
	d.add(Finding{
		ID:              FindingDuplicateSideEffect,
		Severity:        sev,
		Confidence:      conf,
		Activity:        inv.Name,
		Invocation:      inv.Key,
		InvocationIndex: k,
		Attempts:        allNumbers(inv),
		Evidence:        ev,
		Explanation:     expl,
		Advice:          keyAdvice(d.ln.str(nt.hazard).str("; "), inv, nt.subject).str(".").done(),
	}, inv.Attempts[0].Scheduled, k, -1)
}

// raiseForFailure raises a duplicate's confidence for a failure among an
// attempt's several outcomes: ambiguous is probable, unrecognised possible;
// a safe or permanent failure did not commit.
func (d *detector) raiseForFailure(raise func(Confidence, int, int, string), class FailureClass,
	trigger, number int, fact string) {
	switch class {
	case FailureAmbiguous:
		raise(ConfidenceProbable, trigger, number, fact)
	case FailureUnclassified:
		raise(ConfidencePossible, trigger, number, fact)
	}
}

func confidenceRank(c Confidence) int {
	switch c {
	case ConfidenceObserved:
		return 3
	case ConfidenceProbable:
		return 2
	case ConfidencePossible:
		return 1
	}
	return 0
}

// compareInputs compares the attempts' inputs when they are visible: the
// same input confirms one logical call. When they are not, it records the
// skipped check.
func (d *detector) compareInputs(k int) (facts []Evidence, differ bool) {
	inv := &d.b.invs[k]
	if len(inv.Attempts) < 2 {
		return nil, false
	}
	first := d.h.At(inv.Attempts[0].Scheduled).Payload
	cut := false
	for i := range inv.Attempts {
		p := d.h.At(inv.Attempts[i].Scheduled).Payload
		cut = cut || d.cutInput(p)
		if !visible(p) {
			d.inputSkips++
			d.skip("identical inputs", inv.Key, withheldReason("the attempts' inputs are", p.State,
				d.h.Run.DataSharing)+"; the grouping rests on ids, timers and order alone", p.State)
			return nil, false
		}
		if i > 0 && !sameText(p, first) {
			a := &inv.Attempts[i]
			return []Evidence{d.evidence(a.Scheduled, "attempt "+strconv.Itoa(a.Number)+
				"'s input differs from attempt 1's")}, true
		}
	}
	if len(inv.Attempts) == 2 {
		d.ln.str("both attempts' inputs are identical")
	} else {
		d.ln.str("the inputs of all ").num(len(inv.Attempts)).str(" attempts are identical")
	}
	if cut {
		// Equal up to the cut says nothing of the rest.
		d.ln.str(" as far as the Dapr CLI's JSON prints them (it cuts them at ").num(cliInputLimit).
			str(" characters): whether they are identical beyond that is not known")
		return []Evidence{d.evidence(inv.Attempts[0].Scheduled, d.ln.done())}, false
	}
	return []Evidence{d.evidence(inv.Attempts[0].Scheduled, d.ln.str(": one logical call").done())}, false
}

// cliInputLimit is where the Dapr CLI cuts an input (dapr/cli
// pkg/workflow/history.go: trim(…, 120), then "…").
const cliInputLimit = 120

// cutInput reports whether p is an input the Dapr CLI cut: its rows end a
// cut payload with "…" after 120 runes.
func (d *detector) cutInput(p catalyst.Payload) bool {
	if d.h.Format != catalyst.FormatDaprCLI || p.State != catalyst.PayloadPresent {
		return false
	}
	text := p.Text()
	return strings.HasSuffix(text, "…") && utf8.RuneCountInString(text) == cliInputLimit+1
}

// sameText reports whether two payloads hold the same text, comparing
// their wire forms first: equal literals need no unquoting.
func sameText(a, b catalyst.Payload) bool {
	if la, ok := a.WireLiteral(); ok {
		if lb, ok := b.WireLiteral(); ok && la == lb {
			return true
		}
	}
	return a.Text() == b.Text()
}

// compareOutputs compares the outputs of two or more completions of one call
// by their id-like fields.
func (d *detector) compareOutputs(k int, completions []int) []Evidence {
	if len(completions) < 2 {
		return nil
	}
	inv := &d.b.invs[k]
	var texts []string
	for _, pos := range completions {
		p := d.h.At(pos).Payload
		if !visible(p) {
			d.skip("distinct outputs", inv.Key, withheldReason("the completions' outputs are", p.State,
				d.h.Run.DataSharing)+"; whether both calls produced a result (two charge ids) cannot be checked here", p.State)
			return nil
		}
		texts = append(texts, p.Text())
	}
	for j := 1; j < len(texts); j++ {
		if field, a, b, ok := differingID(texts[0], texts[j]); ok {
			return []Evidence{d.evidence(completions[j], "the completions returned different "+clip(field, 40)+
				" values ("+clip(a, 40)+" and "+clip(b, 40)+"): two distinct results, so it happened twice")}
		}
	}
	if field, v, ok := sharedID(texts); ok {
		return []Evidence{d.evidence(completions[1], "every completion returned the same "+clip(field, 40)+
			" ("+clip(v, 40)+"): the provider may have deduplicated the second call")}
	}
	return nil
}

// childRetried flags a retried child workflow.
func (d *detector) childRetried(k int) {
	inv := &d.b.invs[k]
	if len(inv.Attempts) < 2 {
		return
	}
	first := inv.Attempts[0].InstanceID
	var detail, expl string
	switch {
	case inv.ReusedInstanceID:
		detail = "every attempt reused child instance id " + clip(first, 60)
		expl = "The child workflow " + quoteName(inv.Name) + " ran " + strconv.Itoa(len(inv.Attempts)) +
			" times under one instance id: Dapr resets a finished instance when it is created again, so only the " +
			"last attempt's history survives, and whatever the earlier attempts did is no longer visible in the child."
	case first == "":
		detail = "this history format does not record child instance ids"
		expl = "The child workflow " + quoteName(inv.Name) + " was retried: a retried child workflow is a new " +
			"instance with a new instance id, so a key derived from the child's instance id is not stable."
	default:
		detail = "attempt 1 ran as " + clip(first, 60) + ", attempt 2 as " + clip(inv.Attempts[1].InstanceID, 60)
		expl = "The child workflow " + quoteName(inv.Name) + " was retried as new instances with new instance ids, " +
			"unlike an activity retry, which keeps one task_execution_id: a key derived from the child's instance id " +
			"changes per attempt and deduplicates nothing."
	}
	ev := d.attemptEvidence(k, inv, "the child's side effects", false)
	ev = append(ev, d.evidence(inv.Attempts[1].Scheduled, detail))
	d.add(Finding{
		ID:              FindingChildWorkflowRetried,
		Severity:        SeverityMedium,
		Confidence:      ConfidenceObserved,
		Activity:        inv.Name,
		Invocation:      inv.Key,
		InvocationIndex: k,
		Attempts:        allNumbers(inv),
		Evidence:        ev,
		Explanation:     expl,
		Advice: "Derive the child's idempotency keys from the parent, or pass the key down in the child's input; " +
			"never key on the child's own instance id.",
	}, inv.Attempts[0].Scheduled, k, -1)
}

// retriedPermanent flags attempts retried after a failure that cannot
// succeed on retry.
func (d *detector) retriedPermanent(k int) {
	inv := &d.b.invs[k]
	n := len(inv.Attempts)
	var nums []int
	var ev []Evidence
	nonRetriable := false
	for i := range inv.Attempts {
		a := &inv.Attempts[i]
		if a.Outcome != OutcomeFailed || a.FailureClass != FailurePermanent {
			continue
		}
		var retry Evidence
		switch {
		case i < n-1:
			next := &inv.Attempts[i+1]
			retry = d.evidence(next.Scheduled, "attempt "+strconv.Itoa(next.Number)+" ran it again"+laterText(next, d.h.TimeResolution))
		case inv.OpenRetry != nil:
			retry = d.evidence(inv.OpenRetry.Created, "a retry timer is set to run it again")
		default:
			continue
		}
		nums = append(nums, a.Number)
		pos, fact := outcomeFact(&d.ln, a, "", false)
		ev = append(ev, d.evidence(pos, fact), retry)
		if a.Failure != nil && a.Failure.NonRetriable {
			nonRetriable = true
		}
	}
	if len(nums) == 0 {
		return
	}
	label := "Attempt "
	if len(nums) > 1 {
		label = "Attempts "
	}
	expl := label + joinNumbers(nums) + " failed with an error a retry cannot change, and the retry policy " +
		"ran " + quoteName(inv.Name) + " again: a permanent rejection consumes the retry budget and delays the real " +
		"failure without any chance of succeeding."
	if nonRetriable {
		expl += " The failure was even marked non-retriable, and it was retried all the same."
	}
	d.add(Finding{
		ID:              FindingRetriedPermanentFailure,
		Severity:        SeverityMedium,
		Confidence:      ConfidenceObserved,
		Activity:        inv.Name,
		Invocation:      inv.Key,
		InvocationIndex: k,
		Attempts:        nums,
		Evidence:        ev,
		Explanation:     expl,
		Advice:          "Return the rejection as data (a typed result the orchestrator branches on) and reserve the retry policy for transient failures.",
	}, inv.Attempts[0].Scheduled, k, -1)
}

func laterText(a *Attempt, res time.Duration) string {
	if a.BackoffBefore > 0 {
		return " " + fmtSpan(a.BackoffBefore, res) + " later"
	}
	return ""
}

// unknownOutcome flags an invocation whose last attempt has no outcome in a
// run that ended or stalled, or that is still running long after the
// attempt was scheduled, or whose history does not say when it was read.
//
// The confidence is about the outcome being unknown, not about a side
// effect: when the run ended or stalled, the history itself shows that the
// attempt never recorded an outcome (observed); while the run is running,
// the attempt may simply still be in flight (possible).
func (d *detector) unknownOutcome(k int) {
	inv := &d.b.invs[k]
	a := &inv.Attempts[len(inv.Attempts)-1]
	conf := ConfidenceObserved
	sev := SeverityMedium
	var fact string
	untied := false
	advice := "Reconcile with the outside world (the provider's records, an intent record keyed on the idempotency " +
		"key) before running it again; do not resolve an unknown outcome by guessing."
	switch {
	case (a.Outcome == OutcomeUnknown || a.Outcome == OutcomePending) && d.untied(k, a):
		// The history records outcomes that may be this call's, without
		// saying which call each closes: that the outcome is unknown is
		// twice's reading of a format that drops ids, not an observation.
		conf, untied = ConfidencePossible, true
		state := d.stateText()
		if a.Outcome == OutcomePending {
			state = "is still running"
		}
		fact = attemptLabel(a) + " has no outcome the history ties to it, and the run " + state
		advice = "See how each call ended where the ids are kept: the child runs themselves, or this run's history " +
			"read from Catalyst or as protojson (twice show RUN --app APP). Until then, do not resolve an unknown " +
			"outcome by guessing."
		if inv.Kind != KindChildWorkflow {
			advice = "See how each call ended where the ids are kept: this run's history read from Catalyst or as " +
				"protojson (twice show RUN --app APP). Until then, do not resolve an unknown outcome by guessing."
		}
	case a.Outcome == OutcomeUnknown:
		fact = attemptLabel(a) + " has no recorded outcome and the run " + d.stateText()
	case a.Outcome == OutcomePending:
		now, known := d.now()
		wait := now.Sub(a.Start)
		conf = ConfidencePossible
		switch {
		case wait > d.opts.OverdueAfter:
			fact = attemptLabel(a) + " has had no outcome for " + fmtSpan(wait, d.h.TimeResolution) + " while the run is still running"
		case !known:
			// A plain file (no capture time) read with no clock: silence
			// would pass for "fine", and the seed says unknown is unknown.
			sev = SeverityLow
			fact = attemptLabel(a) + " has no outcome by the end of this history; it does not say when it was " +
				"captured, so whether the attempt is still running cannot be told"
			advice = "Read the run live, or save it with twice record (which keeps the capture time), to see whether " +
				"it is still running; if it never finishes, reconcile with the outside world before running it " +
				"again, and do not resolve an unknown outcome by guessing."
		default:
			return
		}
	default:
		return
	}
	if inv.Class == ClassReadOnly || inv.Class == ClassIdempotent {
		sev = SeverityLow
	}
	subject := subjectOf(inv.Name)
	if inv.Kind == KindChildWorkflow {
		subject = "the child workflow's work"
	}
	explanation := "The outcome of " + quoteName(inv.Name) + " is unknown: it may have run, partly run, or not run " +
		"at all, and " + subject + " may or may not have happened. The history does not say it failed, and it " +
		"does not say it is fine."
	if untied {
		explanation = "The outcome of " + quoteName(inv.Name) + " is unknown: the history records an outcome " +
			"without a scheduled id that may be this call's, but not which call it closes, so the call may have " +
			"completed, failed, or not finished, and " + subject + " may or may not have happened."
	}
	d.add(Finding{
		ID:              FindingUnknownOutcome,
		Severity:        sev,
		Confidence:      conf,
		Activity:        inv.Name,
		Invocation:      inv.Key,
		InvocationIndex: k,
		Attempts:        []int{a.Number},
		Evidence:        []Evidence{d.evidence(a.Scheduled, fact)},
		Explanation:     explanation,
		Advice:          advice,
	}, a.Scheduled, k, -1)
}

// now is the instant a running run's pending attempts are judged against:
// Options.Now, else the latest instant the history itself vouches for (its
// last event, the run's last update, or when a saved history was captured).
// known is false when that instant may be long before the history was read:
// no Options.Now, no capture time, and not a live read (a plain file or
// stdin: a Dapr CLI dump, raw protojson).
func (d *detector) now() (now catalyst.Stamp, known bool) {
	if !d.opts.Now.IsZero() {
		return catalyst.StampOf(d.opts.Now), true
	}
	ref := max(d.s.latest, catalyst.StampOf(d.h.Run.UpdatedAt))
	prov := &d.h.Run.Provenance
	if rec := prov.Recorded; rec != nil && !rec.CapturedAt.IsZero() {
		return max(ref, catalyst.StampOf(rec.CapturedAt)), true
	}
	return ref, prov.Recorded == nil && prov.Surface == catalyst.SurfaceCatalystMCP
}

func (d *detector) stateText() string {
	switch d.s.state {
	case stateStalled:
		return "stalled"
	case stateEnded:
		return "ended (" + clip(string(d.h.Run.Status.Normalized()), 30) + ")"
	}
	return "has an unrecognised status (" + clip(string(d.h.Run.Status), 30) + ")"
}

// largePayloads flags an invocation's inputs and outputs over the threshold.
func (d *detector) largePayloads(k int) {
	inv := &d.b.invs[k]
	limit := d.opts.LargePayloadBytes
	var nums []int
	var ev []Evidence
	largest := 0
	check := func(a *Attempt, pos int, what string) {
		p := d.h.At(pos).Payload
		if !visible(p) {
			return
		}
		size, over := payloadOver(p, limit)
		if !over {
			return
		}
		largest = max(largest, size)
		if len(nums) == 0 || nums[len(nums)-1] != a.Number {
			nums = append(nums, a.Number)
		}
		ev = append(ev, d.evidence(pos, "attempt "+strconv.Itoa(a.Number)+" "+what+" is "+fmtBytes(size)))
	}
	for i := range inv.Attempts {
		a := &inv.Attempts[i]
		check(a, a.Scheduled, "input")
		if a.OutcomeEvent >= 0 && d.h.At(a.OutcomeEvent).Type.PayloadField() == "output" {
			check(a, a.OutcomeEvent, "output")
		}
	}
	if len(nums) == 0 {
		return
	}
	d.add(d.largeFinding(inv.Name, inv.Key, k, nums, ev, largest), inv.Attempts[0].Scheduled, k, -1)
}

func (d *detector) largeFinding(name, key string, k int, nums []int, ev []Evidence, largest int) Finding {
	sev := SeverityLow
	if largest >= nearPayloadLimit {
		sev = SeverityMedium
	}
	return Finding{
		ID:              FindingLargePayload,
		Severity:        sev,
		Confidence:      ConfidenceObserved,
		Activity:        name,
		Invocation:      key,
		InvocationIndex: k,
		Attempts:        nums,
		Evidence:        ev,
		Explanation: "Inputs and outputs are serialized into the workflow's history: a large payload slows every " +
			"later replay of this run and can exceed the state store's limits, a failure that surfaces late, under " +
			"load (Dapr stalls a run whose payload nears the 4 MiB gRPC limit).",
		Advice: "Pass identifiers, not documents: return a status and a reference, not a response body.",
	}
}

// payloadOver reports a payload's size when it is over limit, reading the
// wire form's length first so small payloads are never unquoted.
func payloadOver(p catalyst.Payload, limit int) (int, bool) {
	if lit, ok := p.WireLiteral(); ok && len(lit) <= limit {
		return 0, false
	}
	n := p.Size()
	return n, n > limit
}

// runPayloads flags the workflow's own large payloads and stalls for payload
// size.
func (d *detector) runPayloads() {
	limit := d.opts.LargePayloadBytes
	for _, pos32 := range d.s.runPayloadEvents {
		pos := int(pos32)
		e := d.h.At(pos)
		size, over := payloadOver(e.Payload, limit)
		if !over {
			continue
		}
		what := "the workflow's " + e.Type.PayloadField()
		if e.Type != catalyst.EventExecutionStarted && e.Type != catalyst.EventExecutionCompleted {
			what = "the " + e.TypeName() + " payload"
		}
		ev := []Evidence{d.evidence(pos, what+" is "+fmtBytes(size))}
		d.add(d.largeFinding(d.workflowName(), "", -1, nil, ev, size), pos, -1, -1)
	}
	for _, pos32 := range d.s.stalls {
		pos := int(pos32)
		e := d.h.At(pos)
		if e.Detail == nil || !mentionsPayloadSize(e.Detail.StallReason+" "+e.Detail.StallDescription) {
			continue
		}
		fact := "the run stalled: " + clip(e.Detail.StallReason, 40)
		if e.Detail.StallDescription != "" {
			fact += ": " + clip(e.Detail.StallDescription, 160)
		}
		f := d.largeFinding(d.workflowName(), "", -1, nil, []Evidence{d.evidence(pos, fact)}, nearPayloadLimit)
		d.add(f, pos, -1, -1)
	}
}

func mentionsPayloadSize(s string) bool {
	s = strings.ToLower(s)
	return strings.Contains(s, "payload_size") || strings.Contains(s, "payload size")
}

func (d *detector) workflowName() string {
	if d.h.Run.Workflow != "" {
		return d.h.Run.Workflow
	}
	return d.s.workflow
}

// skip records a check that could not run, naming the data-sharing level
// when payloads were withheld.
func (d *detector) skip(check, key, reason string, state catalyst.PayloadState) {
	level := catalyst.LevelUnknown
	if state == catalyst.PayloadWithheld {
		level = d.h.Run.DataSharing.Level
	}
	d.skipped = append(d.skipped, SkippedCheck{Check: check, Invocation: key, Reason: reason, Level: level})
}

// runSkips records the run-wide checks that payloads kept from running.
func (d *detector) runSkips() {
	if d.h.Format == catalyst.FormatDaprCLI {
		// A check that cannot see past 120 characters has not run.
		d.skip("payload size", "", "the Dapr CLI's JSON cuts inputs and outputs at 120 characters (a run's output "+
			"at 160); inputs and outputs over the size threshold cannot be found", catalyst.PayloadNotInFormat)
	}
	if d.s.hidden == 0 {
		return
	}
	state := d.s.hiddenState
	payloads := "1 activity or child-workflow payload is"
	if d.s.hidden != 1 {
		payloads = strconv.Itoa(d.s.hidden) + " activity and child-workflow payloads are"
	}
	if d.h.Format != catalyst.FormatDaprCLI {
		d.skip("payload size", "", withheldReason(payloads, state, d.h.Run.DataSharing)+
			"; inputs and outputs over the size threshold cannot be found", state)
	}
	// Invocations whose own check was skipped are named there already;
	// this line speaks for the rest.
	rest := d.hidden - d.inputSkips
	if rest <= 0 {
		return
	}
	noun := "retried invocation"
	if rest != 1 {
		noun += "s"
	}
	if d.inputSkips > 0 {
		noun = "other " + noun
	}
	d.skip("identical inputs", "", withheldReason("the inputs of "+strconv.Itoa(rest)+" "+noun+" are", state, d.h.Run.DataSharing)+
		"; whether retries repeated the same input cannot be confirmed", state)
}

// finish sorts the findings (most severe first, ties in history order) and
// indexes them from their invocations.
func (d *detector) finish(r *Report) {
	order := make([]int32, d.nFound)
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortStableFunc(order, func(i, j int32) int {
		a, b := d.foundAt(i), d.foundAt(j)
		if a.f.Severity != b.f.Severity {
			return cmp.Compare(b.f.Severity, a.f.Severity)
		}
		return cmp.Compare(a.order, b.order)
	})
	// Each invocation's finding positions share one backing array.
	concerns := func(rf *rankedFinding, visit func(k int)) {
		if rf.inv1 >= 0 {
			visit(rf.inv1)
		}
		if rf.inv2 >= 0 && rf.inv2 != rf.inv1 {
			visit(rf.inv2)
		}
	}
	counts := make([]int32, len(r.Invocations))
	total := 0
	for _, o := range order {
		concerns(d.foundAt(o), func(k int) { counts[k]++; total++ })
	}
	backing := make([]int, total)
	r.Findings = make([]Finding, len(order))
	for i, o := range order {
		rf := d.foundAt(o)
		r.Findings[i] = rf.f
		if len(r.OutcomeNotes) > 0 {
			d.noteEvidence(r, &r.Findings[i])
		}
		tidyEvidence(r, &r.Findings[i])
		concerns(rf, func(k int) {
			inv := &r.Invocations[k]
			if inv.Findings == nil {
				n := int(counts[k])
				inv.Findings, backing = backing[:0:n], backing[n:]
			}
			inv.Findings = append(inv.Findings, i)
		})
	}
	d.found = nil
	r.Skipped = d.skipped
}

// tidyEvidence puts a finding's evidence in history order (events the
// history does not hold last), says each fact once, and lists in Attempts
// every attempt of its invocation the evidence cites.
func tidyEvidence(r *Report, f *Finding) {
	key := func(e Evidence) int {
		if e.Event < 0 {
			return math.MaxInt
		}
		return e.Event
	}
	if !slices.IsSortedFunc(f.Evidence, func(a, b Evidence) int { return cmp.Compare(key(a), key(b)) }) {
		slices.SortStableFunc(f.Evidence, func(a, b Evidence) int { return cmp.Compare(key(a), key(b)) })
	}
	f.Evidence = slices.CompactFunc(f.Evidence, func(a, b Evidence) bool { return a.Event == b.Event && a.Fact == b.Fact })
	if f.InvocationIndex < 0 || f.InvocationIndex >= len(r.Invocations) {
		return
	}
	inv := &r.Invocations[f.InvocationIndex]
	var more []int
	for i := range inv.Attempts {
		a := &inv.Attempts[i]
		if slices.Contains(f.Attempts, a.Number) || !citesAttempt(f.Evidence, a) {
			continue
		}
		more = append(more, a.Number)
	}
	if len(more) > 0 {
		f.Attempts = append(append(make([]int, 0, len(f.Attempts)+len(more)), f.Attempts...), more...)
		slices.Sort(f.Attempts)
	}
}

// citesAttempt reports whether evidence cites one of an attempt's events:
// its scheduling, its outcomes, its retry timer.
func citesAttempt(ev []Evidence, a *Attempt) bool {
	for _, e := range ev {
		switch {
		case e.Event < 0:
		case e.Event == a.Scheduled, e.Event == a.OutcomeEvent, slices.Contains(a.ExtraOutcomes, e.Event):
			return true
		case a.RetryTimer != nil && (e.Event == a.RetryTimer.Created || e.Event == a.RetryTimer.Fired):
			return true
		}
	}
	return false
}

// noteEvidence adds to a finding the reason each of its attempts' outcome
// was inferred or is unknown: a finding resting on an inferred pairing
// says so.
func (d *detector) noteEvidence(r *Report, f *Finding) {
	if f.InvocationIndex < 0 {
		return
	}
	for _, n := range f.Attempts {
		if note, ok := r.Note(f.InvocationIndex, n); ok {
			f.Evidence = append(f.Evidence[:len(f.Evidence):len(f.Evidence)], d.evidence(note.Event, note.Text))
		}
	}
}
