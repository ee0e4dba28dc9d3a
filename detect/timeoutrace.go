package detect

import (
	"sort"

	"github.com/twice-cli/twice/catalyst"
)

// FindingTimeoutRace: an activity lost a race against a workflow timer and
// was called again as a new call while the first may still run.
const FindingTimeoutRace FindingID = "timeout-race"

var timeoutRaceCheck = Check{
	ID:       FindingTimeoutRace,
	Title:    "an activity that lost a race against a timer, then called again",
	Short:    "timeout race",
	Severity: SeverityHigh,
	Doc: "An activity raced a workflow timer, the timer fired first, and the workflow called the activity " +
		"again as a new call: nothing cancels the first call, so both may run. High when the activity's " +
		"name reads as a side effect, medium when the name says nothing, low for reads and idempotent writes.",
	run: (*detector).timeoutRaces,
}

// timeoutRaces flags an activity that raced a workflow timer which fired
// first, after which the workflow called the same activity again as a new
// call (a new task execution id): the first call was never cancelled, so
// both may run (history-format.md §2.4, example C).
//
// The signature: a timer that is not a retry timer (origin createTimer, or
// none) created in the turn an activity was scheduled; it fires while that
// attempt has no outcome; in the turn it fires, an attempt of the same name
// starts a new invocation.
func (d *detector) timeoutRaces() {
	s := d.s
	var used map[int32]bool
	for t := range s.timers {
		tr := &s.timers[t]
		if tr.target >= 0 || tr.fired < 0 {
			continue
		}
		te := d.h.At(int(tr.pos))
		if te.Origin != catalyst.OriginCreateTimer && te.Origin != catalyst.OriginNone || te.FireAt.IsNever() {
			continue
		}
		lo, hi := s.attemptsInTurn(tr.turn)
		for a := lo; a < hi; a++ {
			ra := &s.attempts[a]
			if ra.child || ra.gen != tr.gen || used[a] || ra.outcome >= 0 && ra.outcome < tr.fired {
				continue
			}
			b, ok := s.raceRetry(tr, a, used)
			if !ok {
				continue
			}
			if used == nil {
				used = make(map[int32]bool)
			}
			used[a], used[b] = true, true
			d.addRace(int32(t), a, b)
			break
		}
	}
}

// attemptsInTurn returns the range [lo, hi) of attempt records scheduled in
// turn (they are contiguous: turns never decrease along the history).
func (s *scan) attemptsInTurn(turn int32) (lo, hi int32) {
	lo = int32(sort.Search(len(s.attempts), func(i int) bool { return s.attempts[i].turn >= turn }))
	hi = lo
	for int(hi) < len(s.attempts) && s.attempts[hi].turn == turn {
		hi++
	}
	return lo, hi
}

// raceRetry finds the new call of a's activity made in the turn the race
// timer fired in.
func (s *scan) raceRetry(tr *timerRec, a int32, used map[int32]bool) (int32, bool) {
	name := s.nameOf(a)
	rootA := s.find(a)
	lo, hi := s.attemptsInTurn(tr.firedTurn)
	for b := lo; b < hi; b++ {
		rb := &s.attempts[b]
		if rb.child || rb.gen != tr.gen || rb.pos < tr.fired || used[b] || s.nameOf(b) != name {
			continue
		}
		if root := s.find(b); root != b || root == rootA {
			continue
		}
		return b, true
	}
	return -1, false
}

func (d *detector) addRace(t, a, b int32) {
	s := d.s
	tr := &s.timers[t]
	ka, kb := int(d.b.invOf[a]), int(d.b.invOf[b])
	invA := &d.b.invs[ka]
	attA := attemptAt(invA, int(s.attempts[a].pos))
	attB := attemptAt(&d.b.invs[kb], int(s.attempts[b].pos))
	te := d.h.At(int(tr.pos))
	nt := d.textOf(invA.Name)
	l := &d.ln

	// fireAt is printed to the second wherever the times are (the Dapr
	// CLI's rows): the wait is measured as between printed times.
	wait := d.h.Span(tr.turnStart, te.FireAt)
	if wait.D <= 0 {
		wait = d.h.Span(te.Timestamp, te.FireAt)
	}
	l.str(nt.quoted).str(" ").attempt(attA.Number).str(" scheduled, raced against a ")
	if wait.D > 0 {
		l.spanOf(wait).str(" ")
	}
	ev := make([]Evidence, 0, 4)
	ev = append(ev,
		d.evidenceOf(attA.Scheduled, l.str("timer (event ").num(int(tr.pos)).str(")").fact()),
		d.evidence(int(tr.fired), l.str("the timer fired first while the call had no outcome").done()))
	l.str(nt.quoted).str(" called again as a new call")
	if attB.ExecutionID != "" {
		l.str(", task_execution_id ").id(attB.ExecutionID)
		if attA.ExecutionID != "" {
			l.str(" (the first call's was ").id(attA.ExecutionID).str(")")
		}
	}
	ev = append(ev, d.evidence(attB.Scheduled, l.done()))

	conf := ConfidenceProbable
	switch {
	case attA.OutcomeEvent > int(tr.fired) && attA.Outcome == OutcomeCompleted:
		conf = ConfidenceObserved
		l.str("the first call completed late")
		afterScheduling(l, attA).str(": both calls ran")
		ev = append(ev, d.evidenceOf(attA.OutcomeEvent, l.fact()))
	case attA.OutcomeEvent > int(tr.fired):
		l.str("the first call failed late")
		afterScheduling(l, attA).str(": ").str(failureText(attA.Failure))
		ev = append(ev, d.evidenceOf(attA.OutcomeEvent, l.fact()))
	case attA.Outcome == OutcomePending:
		ev = append(ev, d.evidence(attA.Scheduled, "the first call has no outcome yet: it may still be running"))
	case d.untied(ka, attA):
		ev = append(ev, d.evidence(attA.Scheduled, "the first call has no outcome the history ties to it"))
	default:
		ev = append(ev, d.evidence(attA.Scheduled, "the first call has no recorded outcome"))
	}

	// What the first call shares with the second decides the words: a read
	// repeats no side effect, and a history with no task_execution_id says
	// nothing of one.
	ids := attA.ExecutionID != "" && attB.ExecutionID != ""
	sev := severityFor(invA.Class)
	var advice string
	switch {
	case sev == SeverityNone:
		sev = SeverityLow
		advice = "Not an idempotency concern for a read-only or idempotent call, but the abandoned call still " +
			"runs: give the activity its own deadline rather than racing a timer if the wasted work matters."
	case ids:
		advice = l.str(nt.hazard).str("; key ").str(nt.subject).str(" on a natural key from the workflow's input: " +
			"the two calls have different task_execution_ids, so that id cannot deduplicate them.").done()
	default:
		advice = l.str(nt.hazard).str("; key ").str(nt.subject).str(" on a natural key from the workflow's input: " +
			"the two calls are separate scheduled tasks, so nothing the engine gives each call can deduplicate them.").done()
	}
	key := explanationKey{id: FindingTimeoutRace, name: invA.Name, ids: ids}
	expl, ok := d.explanations[key]
	if !ok {
		l.str(nt.quoted).str(" raced a workflow timer and the timer won; the workflow then called ").
			str(nt.quoted).str(" again as a new call")
		if ids {
			l.str(", under a new task_execution_id")
		}
		l.str(". Nothing cancels the first call: it may still be running")
		if severityFor(invA.Class) == SeverityNone {
			l.str(", so the two calls may overlap; for a read-only or already idempotent call that repeats work, " +
				"not a side effect.")
		} else {
			l.str(", so both calls can perform ").str(nt.subject).str(".")
		}
		expl = l.done()
		if d.explanations == nil {
			d.explanations = make(map[explanationKey]string)
		}
		d.explanations[key] = expl
	}
	d.add(Finding{
		ID:              FindingTimeoutRace,
		Severity:        sev,
		Confidence:      conf,
		Activity:        invA.Name,
		Invocation:      invA.Key,
		InvocationIndex: ka,
		Attempts:        []int{attA.Number},
		Evidence:        ev,
		Explanation:     expl,
		Advice:          advice,
	}, attA.Scheduled, ka, kb)
}

func afterScheduling(l *line, a *Attempt) *line {
	if d := a.Duration(); d > 0 {
		l.str(", ").span(a.Start, a.End).str(" after it was scheduled")
	}
	return l
}

// attemptAt returns the invocation's attempt scheduled at pos.
func attemptAt(inv *Invocation, pos int) *Attempt {
	i := sort.Search(len(inv.Attempts), func(i int) bool { return inv.Attempts[i].Scheduled >= pos })
	return &inv.Attempts[i]
}
