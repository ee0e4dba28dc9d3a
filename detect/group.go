package detect

import (
	"cmp"
	"slices"
	"sort"
	"strings"

	"github.com/twice-cli/twice/catalyst"
)

// linkTimers ties retry timers to invocations and the attempts that followed
// them. Timers whose origin named an attempt (by-origin, tied before) are
// paired with the failure they follow: the failure of the invocation's
// latest attempt before the timer, in whatever turn it was recorded (the Go
// SDK makes a retry only when the workflow awaits the task, which can be
// turns after the failure), else a failure of the same name recorded in
// the timer's turn. Timers with no usable origin are paired with a failure
// recorded in the turn that created them (inferred). Then, in the order the
// timers fired, the first same-name attempt of the turn each fired in joins
// the timer's invocation; an activity's by-origin timer that fired in a turn
// with no such attempt (a suspended run's) is followed by the next attempt
// of its task execution id.
func (s *scan) linkTimers() {
	if len(s.timers) == 0 {
		return
	}
	// latest maps an invocation's root to its latest attempt joined by a
	// retry timer so far (child attempts with new ids join only so).
	latest := make(map[int32]int32)
	w := failureWindow{s: s}
	for t := range s.timers {
		if s.timers[t].link == rankByOrigin {
			s.pairOriginFailure(int32(t), &w, latest, true)
		}
	}
	w = failureWindow{s: s}
	for t := range s.timers {
		if s.timers[t].target < 0 {
			s.linkInferred(int32(t), &w)
		}
	}
	retries := 0
	for _, t := range s.firedOrder {
		if s.timers[t].target >= 0 {
			retries++
		}
	}
	next := nextAttemptIndex{s: s, cursor: make(map[turnName]int32, retries)}
	for _, t := range s.firedOrder {
		tr := &s.timers[t]
		if tr.target < 0 {
			continue
		}
		if tr.link == rankByOrigin && tr.failure < 0 {
			s.pairOriginFailure(t, &w, latest, false)
		}
		b, ok := next.find(tr)
		if !ok && tr.link == rankByOrigin && !tr.child {
			b, ok = s.nextByExec(tr)
		}
		if !ok {
			if tr.link == rankInferred {
				// An origin-less timer that no same-name attempt followed was
				// not a retry timer after all (a user timer in that turn).
				if tr.failure >= 0 {
					s.attempts[tr.failure].failPaired = false
				}
				tr.target, tr.failure, tr.link = -1, -1, rankNone
			}
			continue
		}
		s.attempts[b].claimed = true
		s.attempts[b].timer = t
		tr.next = b
		s.union(b, tr.target, tr.link)
		latest[s.find(b)] = b
	}
	for t := range s.timers {
		// Retry timers that have not fired (a pending retry).
		if tr := &s.timers[t]; tr.link == rankByOrigin && tr.failure < 0 {
			s.pairOriginFailure(int32(t), &w, latest, false)
		}
	}
}

// pairOriginFailure pairs a timer the scan tied to an invocation by its
// origin with the failure it follows: the failure of the invocation's
// latest attempt before the timer (the origin names the invocation; its
// attempts fail and retry in order), when that failure is recorded before
// the timer and not yet paired. On the first pass (first), while child
// attempts with new ids are not yet joined to their invocation, it falls
// back to the first unpaired failure of the same name and kind recorded in
// the turn that created the timer.
func (s *scan) pairOriginFailure(t int32, w *failureWindow, latest map[int32]int32, first bool) {
	tr := &s.timers[t]
	cand := tr.target
	if tr.child {
		if l, ok := latest[s.find(tr.target)]; ok && s.attempts[l].pos < tr.pos {
			cand = l
		}
	}
	if r := &s.attempts[cand]; r.failed && r.outcome >= 0 && r.outcome < tr.pos && !r.failPaired {
		r.failPaired = true
		tr.failure = cand
		return
	}
	if !first {
		return
	}
	name := s.nameOf(tr.target)
	if f, ok := w.take(tr.turn, func(a int32) bool {
		return s.attempts[a].child == tr.child && s.nameOf(a) == name
	}); ok {
		tr.failure = f
	}
}

// nextByExec finds the attempt an activity's by-origin retry timer led to
// when none followed in the turn it fired in: the first unclaimed attempt
// of its generation with the origin's task execution id scheduled after it
// fired (a suspended run fires the timer in one turn and schedules the
// retry in the turn that resumes it).
func (s *scan) nextByExec(tr *timerRec) (int32, bool) {
	id := s.h.At(int(tr.pos)).OriginID
	best := int32(-1)
	for _, e := range s.execs.run(s.execs.keyOf(id, tr.gen)) {
		r := &s.attempts[e.attempt]
		if r.gen != tr.gen || r.claimed || r.child || r.pos < tr.fired || s.execOf(e.attempt) != id {
			continue
		}
		if best < 0 || r.pos < s.attempts[best].pos {
			best = e.attempt
		}
	}
	return best, best >= 0
}

// linkInferred pairs a timer with no usable origin with a failure recorded
// in the turn it was created in: a timer named "<Name>-retry" with a failure
// of Name, an unnamed one with the turn's first unpaired failure. Timers
// created for an external event or by the workflow itself are never retry
// timers.
func (s *scan) linkInferred(t int32, w *failureWindow) {
	tr := &s.timers[t]
	e := s.h.At(int(tr.pos))
	if e.Origin == catalyst.OriginCreateTimer || e.Origin == catalyst.OriginExternalEvent {
		return
	}
	wantChild := -1 // either kind
	switch e.Origin {
	case catalyst.OriginActivityRetry:
		wantChild = 0
	case catalyst.OriginChildWorkflowRetry:
		wantChild = 1
	}
	prefix, named := retryTimerPrefix(e.Name)
	if e.Origin == catalyst.OriginNone && !named {
		return
	}
	f, ok := w.take(tr.turn, func(a int32) bool {
		r := &s.attempts[a]
		if wantChild == 0 && r.child || wantChild == 1 && !r.child {
			return false
		}
		return prefix == "" || strings.EqualFold(s.nameOf(a), prefix)
	})
	if !ok {
		return
	}
	tr.target, tr.failure, tr.link, tr.child = f, f, rankInferred, s.attempts[f].child
}

// retryTimerPrefix says whether a timer's name reads as a retry timer's:
// unnamed (Python, .NET), "<Name>-retry" (Go, Rust; prefix is Name), or a
// name whose last word is "retry" ("activityRetry"; prefix ""). named is
// false for any other name.
func retryTimerPrefix(name string) (prefix string, named bool) {
	if name == "" {
		return "", true
	}
	for _, sep := range []string{"-retry", "_retry", ".retry", ":retry"} {
		if len(name) > len(sep) && strings.EqualFold(name[len(name)-len(sep):], sep) {
			return name[:len(name)-len(sep)], true
		}
	}
	words := SplitWords(name)
	if len(words) > 0 && words[len(words)-1] == "retry" {
		return "", true
	}
	return "", false
}

func (s *scan) nameOf(a int32) string { return s.h.At(int(s.attempts[a].pos)).Name }

// inputsDiffer reports whether the inputs of attempts a and b are both
// visible and differ: then they are different calls, whatever their order
// suggests. Only links inferred from order ask it; ids and origins are the
// engine's own word.
func (s *scan) inputsDiffer(a, b int32) bool {
	pa := s.h.At(int(s.attempts[a].pos)).Payload
	pb := s.h.At(int(s.attempts[b].pos)).Payload
	return visible(pa) && visible(pb) && !sameText(pa, pb)
}

// failureWindow walks the failures turn by turn, as timers are visited in
// creation order (turns never decrease along the history).
type failureWindow struct {
	s     *scan
	ready bool
	turn  int32
	end   int // one past the last failure of the turn
	first int // first failure of the turn that may still be unpaired
}

// take pairs the first unpaired failure of turn that ok accepts, marks it
// paired and returns its attempt.
func (w *failureWindow) take(turn int32, ok func(int32) bool) (int32, bool) {
	s := w.s
	if !w.ready || turn != w.turn {
		// Move the window to the failures recorded in turn.
		i := sort.Search(len(s.failures), func(i int) bool {
			return s.attempts[s.failures[i]].outcomeTurn >= turn
		})
		j := i
		for j < len(s.failures) && s.attempts[s.failures[j]].outcomeTurn == turn {
			j++
		}
		w.ready, w.turn, w.end, w.first = true, turn, j, i
	}
	for w.first < w.end && s.attempts[s.failures[w.first]].failPaired {
		w.first++
	}
	for i := w.first; i < w.end; i++ {
		a := s.failures[i]
		if !s.attempts[a].failPaired && ok(a) {
			s.attempts[a].failPaired = true
			return a, true
		}
	}
	return -1, false
}

// turnName keys the search for the next attempt of one name in one turn.
type turnName struct {
	turn  int32
	child bool
	name  string
}

// nextAttemptIndex finds, for a fired retry timer, the first unclaimed
// attempt of the same name and kind scheduled after it fired in the turn it
// fired in. A per-(turn, name) cursor keeps a turn with many retries linear.
type nextAttemptIndex struct {
	s      *scan
	cursor map[turnName]int32
	// byName holds, for rows that are not in the engine's order, each
	// generation's attempts of one name and kind in eventId order.
	byName map[turnName][]int32
}

// findByID finds the attempt a fired retry timer led to where the rows
// are not in the engine's order (the Dapr CLI sorts them by eventId and
// time, which can put the retry before the timer fired): the first
// unclaimed attempt of the same name, kind and generation whose eventId
// is above the timer's (the engine numbers a workflow's actions in the
// order it takes them).
func (n *nextAttemptIndex) findByID(tr *timerRec) (int32, bool) {
	s := n.s
	if n.byName == nil {
		n.byName = make(map[turnName][]int32)
		for a := range s.attempts {
			r := &s.attempts[a]
			k := turnName{turn: r.gen, child: r.child, name: s.nameOf(int32(a))}
			n.byName[k] = append(n.byName[k], int32(a))
		}
		byID := func(i, j int32) int { return cmp.Compare(s.attempts[i].id, s.attempts[j].id) }
		for _, list := range n.byName {
			// The CLI sorts rows by eventId, so most lists already are.
			if !slices.IsSortedFunc(list, byID) {
				slices.SortStableFunc(list, byID)
			}
		}
	}
	list := n.byName[turnName{turn: tr.gen, child: tr.child, name: s.nameOf(tr.target)}]
	timerID := s.h.At(int(tr.pos)).ID
	i := sort.Search(len(list), func(i int) bool { return s.attempts[list[i]].id > timerID })
	targetRoot := s.find(tr.target)
	for ; i < len(list); i++ {
		b := list[i]
		r := &s.attempts[b]
		if r.claimed {
			continue
		}
		if root := s.find(b); root != targetRoot && root != b ||
			tr.link == rankInferred && s.inputsDiffer(tr.target, b) {
			continue
		}
		return b, true
	}
	return -1, false
}

func (n *nextAttemptIndex) find(tr *timerRec) (int32, bool) {
	s := n.s
	if s.byActionID {
		return n.findByID(tr)
	}
	name := s.nameOf(tr.target)
	key := turnName{turn: tr.firedTurn, child: tr.child, name: name}
	i, ok := n.cursor[key]
	if !ok {
		i = int32(sort.Search(len(s.attempts), func(i int) bool {
			return s.attempts[i].turn >= tr.firedTurn
		}))
	}
	targetRoot := s.find(tr.target)
	open := int32(-1) // first attempt skipped for a reason particular to this timer
	for ; int(i) < len(s.attempts) && s.attempts[i].turn == tr.firedTurn; i++ {
		r := &s.attempts[i]
		if r.claimed || r.child != tr.child || r.gen != tr.gen || s.nameOf(i) != name {
			continue
		}
		if root := s.find(i); r.pos < tr.fired || root != targetRoot && root != i ||
			tr.link == rankInferred && s.inputsDiffer(tr.target, i) {
			// Scheduled before this timer fired, already a later attempt of
			// another invocation, or (linked by order alone) called with
			// another input, so a different call: another timer may still
			// claim it.
			if open < 0 {
				open = i
			}
			continue
		}
		if open < 0 {
			open = i + 1
		}
		n.cursor[key] = open
		return i, true
	}
	if open < 0 {
		open = i
	}
	n.cursor[key] = open
	return -1, false
}
