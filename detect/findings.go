package detect

import (
	"cmp"
	"math"
	"slices"
	"strconv"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/safetext"
)

// maxAttemptEvidence caps the attempts a finding lists one by one.
const maxAttemptEvidence = 8

// detector runs the findings catalogue (catalogue.go) over grouped
// invocations: the state every check shares.
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

// evidence is a fact of words only about the event at pos.
func (d *detector) evidence(pos int, text string) Evidence { return d.evidenceOf(pos, Words(text)) }

// evidenceOf is a fact about the event at pos.
func (d *detector) evidenceOf(pos int, fact Fact) Evidence {
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
			ev = append(ev, d.evidenceOf(a.Scheduled, d.retryFact(inv, i)))
		}
		pos, fact := outcomeFact(&d.ln, a, subject, d.untied(k, a))
		ev = append(ev, d.evidenceOf(pos, fact))
		for _, x := range a.ExtraOutcomes {
			ev = append(ev, d.evidence(x, d.extraFact(a, x, observed)))
		}
	}
	// A late outcome reads best where it happened.
	slices.SortStableFunc(ev, func(a, b Evidence) int { return cmp.Compare(a.Event, b.Event) })
	return ev
}

// retryFact says when and how a later attempt joined its invocation.
func (d *detector) retryFact(inv *Invocation, i int) Fact {
	a, kind := &inv.Attempts[i], inv.Kind
	l := d.ln.attempt(a.Number).str(" scheduled")
	if a.BackoffBefore > 0 {
		l.str(" ").spanOf(a.Backoff(d.h)).str(" later")
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
	return l.fact()
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

// invocationFindings runs the catalogue's per-invocation checks on
// invocation k.
func (d *detector) invocationFindings(k int) {
	inv := &d.b.invs[k]
	if len(inv.Attempts) == 1 && inv.Outcome == OutcomeCompleted && !d.b.large[k] &&
		len(inv.Attempts[0].ExtraOutcomes) == 0 {
		return // one attempt, completed once: nothing to find
	}
	for _, c := range catalogue {
		if c.invocation != nil {
			c.invocation(d, k)
		}
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
	if cut := d.h.PayloadCut; cut > 0 {
		// A check that cannot see past the cut has not run.
		l := d.ln.str(d.h.Format.Noun()).str(" cuts inputs and outputs at ").num(cut).str(" characters")
		if run := d.h.RunOutputCut; run > 0 && run != cut {
			l.str(" (a run's output at ").num(run).str(")")
		}
		d.skip("payload size", "", l.str("; inputs and outputs over the size threshold cannot be found").done(),
			catalyst.PayloadNotInFormat)
	}
	if d.s.hidden == 0 {
		return
	}
	state := d.s.hiddenState
	payloads := "1 activity or child-workflow payload is"
	if d.s.hidden != 1 {
		payloads = strconv.Itoa(d.s.hidden) + " activity and child-workflow payloads are"
	}
	if d.h.PayloadCut <= 0 {
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
