package detect

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/twice-cli/twice/catalyst"
)

// pairIDless ties the outcomes whose source gave no scheduled id (the Dapr
// CLI prints none on ChildWorkflowFailed, nor on v1.16's SubOrch* rows) to
// the call they close, where the history still decides, and marks each
// such tie inferred with its reason:
//   - only one call of the outcome's kind, scheduled before it in its
//     generation, has no outcome of its own: it is that one;
//   - several have, but a child workflow's failure is followed by a retry
//     timer whose childWorkflowRetry origin names the failed child's
//     instance, and exactly one of them has that instance id (the engine
//     names a child "<parent>:<its eventId in hex>" when the workflow gives
//     none; engineChildID): it is that one.
//
// Otherwise the outcome stays untied, and each call that was open when it
// arrived notes that an outcome the history records may be its own
// (untiedNote). Outcomes are taken in history order, in one sweep over the
// attempts (both are in history order), so the cost is the attempts plus,
// per outcome, the calls still open.
func (s *scan) pairIDless() {
	if len(s.idless) == 0 {
		return
	}
	// open holds, per kind (activity, child), the attempts scheduled before
	// the sweep's place that had no outcome then; closed ones are dropped
	// as they are met.
	var open [2][]int32
	var cands []int32
	var untied map[int32]*untiedOutcomes
	next := 0
	resorted := false
	for _, o := range s.idless {
		for ; next < len(s.attempts) && s.attempts[next].pos < o.pos; next++ {
			if r := &s.attempts[next]; r.outcome < 0 {
				k := 0
				if r.child {
					k = 1
				}
				open[k] = append(open[k], int32(next))
			}
		}
		e := s.h.At(int(o.pos))
		child := e.Type == catalyst.EventChildWorkflowCompleted || e.Type == catalyst.EventChildWorkflowFailed
		k := 0
		if child {
			k = 1
		}
		kept := open[k][:0]
		cands = cands[:0]
		for _, a := range open[k] {
			r := &s.attempts[a]
			if r.outcome >= 0 {
				continue
			}
			kept = append(kept, a)
			if r.gen == o.gen {
				cands = append(cands, a)
			}
		}
		open[k] = kept
		why := fmt.Sprintf("the %s at event %d carries no scheduled id (%s does not print it)",
			e.TypeName(), o.pos, s.h.Format.Noun())
		switch {
		case len(cands) == 1:
			what := "call"
			if child {
				what = "child workflow call"
			}
			s.pairInferred(cands[0], o, e, &resorted, why+"; it is the only "+what+
				" scheduled before it with no outcome of its own, so it closes that one (inferred)")
		case len(cands) > 1:
			if a, timer, ok := s.retryTimerNames(cands, o, e); ok {
				s.pairInferred(a, o, e, &resorted, fmt.Sprintf("%s; the retry timer at event %d names the failed child "+
					"instance %s, the id the engine gives the call at event %d, so it closes that one (inferred)",
					why, timer, clip(s.h.At(int(timer)).OriginID, 80), s.attempts[a].pos))
				continue
			}
			if untied == nil {
				untied = make(map[int32]*untiedOutcomes)
			}
			for _, a := range cands {
				u := untied[a]
				if u == nil {
					u = &untiedOutcomes{fewestOpen: len(cands), mostOpen: len(cands)}
					untied[a] = u
				}
				u.events = append(u.events, o.pos)
				u.fewestOpen, u.mostOpen = min(u.fewestOpen, len(cands)), max(u.mostOpen, len(cands))
			}
		}
	}
	for a, u := range untied {
		if s.attempts[a].outLink == rankInferred {
			continue // a later outcome was tied to it; its note says how
		}
		s.note(a, u.events[0], s.untiedNote(u, s.attempts[a].child))
	}
	if resorted {
		s.sortFailures()
	}
}

// untiedOutcomes are the id-less outcomes that may be one open call's, and
// the fewest and most calls of its kind open when one of them arrived.
type untiedOutcomes struct {
	events               []int32
	fewestOpen, mostOpen int
}

// maxUntiedNamed bounds how many untied outcomes a note names.
const maxUntiedNamed = 3

// untiedNote says why an open call's outcome is unknown although the
// history records outcomes that may be its own: none of them names the
// call it closes.
func (s *scan) untiedNote(u *untiedOutcomes, child bool) string {
	var b strings.Builder
	for i, p := range u.events {
		if i == maxUntiedNamed {
			fmt.Fprintf(&b, " and %d more", len(u.events)-i)
			break
		}
		switch {
		case i == 0:
		case i == len(u.events)-1:
			b.WriteString(" and ")
		default:
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "the %s at event %d", s.h.At(int(p)).TypeName(), p)
	}
	what := "calls"
	if child {
		what = "child workflow calls"
	}
	if len(u.events) == 1 {
		fmt.Fprintf(&b, " carries no scheduled id (%s does not print it) and arrived while %d %s, this one among them, "+
			"had no outcome of their own: which of them it closes is not known, so this attempt's outcome is unknown",
			s.h.Format.Noun(), u.fewestOpen, what)
	} else {
		open := strconv.Itoa(u.fewestOpen)
		if u.mostOpen > u.fewestOpen {
			open += " to " + strconv.Itoa(u.mostOpen)
		}
		fmt.Fprintf(&b, " carry no scheduled id (%s does not print it) and each arrived while %s %s, this "+
			"one among them, had no outcome of their own: which call each closes is not known, so this attempt's "+
			"outcome is unknown", s.h.Format.Noun(), open, what)
	}
	return b.String()
}

// pairInferred ties outcome o to attempt a, inferred, for the reason given.
func (s *scan) pairInferred(a int32, o deferredOutcome, e *catalyst.Event, resorted *bool, reason string) {
	if s.setOutcome(a, o.pos, o.turn, e) {
		*resorted = true
	}
	s.attempts[a].outLink = rankInferred
	s.note(a, o.pos, reason)
}

func (s *scan) note(a, event int32, text string) {
	if s.notes == nil {
		s.notes = make(map[int32]outcomeNote)
	}
	s.notes[a] = outcomeNote{event: event, text: text}
}

// retryTimerNames finds, for a child workflow's failure, the first
// childWorkflowRetry timer after it in its generation, and the one open
// call whose engine-given instance id the timer's origin names.
func (s *scan) retryTimerNames(open []int32, o deferredOutcome, e *catalyst.Event) (a, timer int32, ok bool) {
	if e.Type != catalyst.EventChildWorkflowFailed {
		return -1, -1, false
	}
	// The timers are in history order: start at the first after o.
	first := sort.Search(len(s.timers), func(t int) bool { return s.timers[t].pos > o.pos })
	for t := first; t < len(s.timers); t++ {
		tr := &s.timers[t]
		te := s.h.At(int(tr.pos))
		if tr.gen > o.gen {
			break // generations only grow along the history
		}
		if tr.gen != o.gen || te.Origin != catalyst.OriginChildWorkflowRetry || te.OriginID == "" {
			continue
		}
		found := int32(-1)
		for _, c := range open {
			if s.engineChildID(te.OriginID, s.attempts[c].id) {
				if found >= 0 {
					return -1, -1, false
				}
				found = c
			}
		}
		return found, tr.pos, found >= 0
	}
	return -1, -1, false
}

// engineChildID reports whether id is the instance id the engine gives a
// child workflow created by action eventID when the workflow names none:
// the parent's id, ':' and the action id in hex, as four or more digits
// (durabletask-go v0.10/v0.11 backend/runtimestate: "%s:%04x") or as its
// last four (v0.12 on, api/helpers GenerateChildWorkflowInstanceID, which
// wraps every 0x10000 actions). When the run's id is unknown (the Dapr
// CLI's rows do not name it), the suffix alone is compared.
func (s *scan) engineChildID(id string, eventID int32) bool {
	if eventID < 0 {
		return false
	}
	i := strings.LastIndexByte(id, ':')
	if i < 0 {
		return false
	}
	suffix := id[i+1:]
	wide := strconv.FormatInt(int64(eventID), 16)
	for len(wide) < 4 {
		wide = "0" + wide
	}
	last4 := strconv.FormatInt(0x10000+int64(eventID), 16)
	if suffix != wide && suffix != last4[len(last4)-4:] {
		return false
	}
	return s.h.Run.ID == "" || id[:i] == s.h.Run.ID
}

// engineChild returns the one child attempt of the current generation
// whose engine-given instance id is id (engineChildID). A four-digit
// suffix may be the last four digits of a larger action id: when more than
// one child attempt has such an id, which one is meant is not known, and
// there is none.
func (s *scan) engineChild(id string) (int32, bool) {
	i := strings.LastIndexByte(id, ':')
	if i < 0 || len(id)-i-1 < 4 {
		return -1, false
	}
	suffix := id[i+1:]
	n, err := strconv.ParseUint(suffix, 16, 31)
	if err != nil {
		return -1, false
	}
	found := int32(-1)
	ambiguous := false
	consider := func(eventID int32) {
		ref := s.ids.get(eventID)
		if ref <= 0 || !s.attempts[ref-1].child || !s.engineChildID(id, eventID) {
			return
		}
		if found >= 0 && found != ref-1 {
			ambiguous = true
		}
		found = ref - 1
	}
	consider(int32(n))
	if len(suffix) == 4 {
		for e := int64(n) + 0x10000; e < int64(s.ids.high); e += 0x10000 {
			consider(int32(e))
		}
		for e := range s.ids.sparse {
			if e > 0xffff && e&0xffff == int32(n) {
				consider(e)
			}
		}
	}
	if ambiguous {
		return -1, false
	}
	return found, found >= 0
}

// attachNotes copies the scan's outcome notes into the report, in
// invocation and attempt order.
func (s *scan) attachNotes(r *Report, b *built) {
	if len(s.notes) == 0 {
		return
	}
	for ai, n := range s.notes {
		k := int(b.invOf[ai])
		inv := &r.Invocations[k]
		inv.noted = true
		for j := range inv.Attempts {
			if inv.Attempts[j].Scheduled == int(s.attempts[ai].pos) {
				r.OutcomeNotes = append(r.OutcomeNotes, OutcomeNote{Invocation: k, Attempt: j + 1,
					Event: int(n.event), Text: n.text, Untied: s.attempts[ai].outLink != rankInferred})
				break
			}
		}
	}
	sort.Slice(r.OutcomeNotes, func(i, j int) bool {
		a, b := r.OutcomeNotes[i], r.OutcomeNotes[j]
		if a.Invocation != b.Invocation {
			return a.Invocation < b.Invocation
		}
		return a.Attempt < b.Attempt
	})
}

// OutcomeNote says why an attempt's outcome was tied to it by inference,
// or why it could not be tied at all: its source gave no scheduled id.
type OutcomeNote struct {
	// Invocation is the position in Report.Invocations, Attempt the
	// attempt's number in it (from 1).
	Invocation int
	Attempt    int
	// Event is the position of the outcome event concerned.
	Event int
	// Text is the reason, in one line.
	Text string
	// Untied: the history records outcomes with no scheduled id that may
	// be this attempt's, and which call each closes is not known. Its
	// outcome is unknown for want of an id, not because none was recorded
	// (otherwise the outcome was tied by inference).
	Untied bool
}

// OutcomeUntied reports whether attempt number attempt of invocation inv
// may have one of the outcomes the source did not tie to any call (see
// OutcomeNote.Untied): say its outcome is unknown, never that none was
// recorded.
func (r *Report) OutcomeUntied(inv, attempt int) bool {
	n, ok := r.Note(inv, attempt)
	return ok && n.Untied
}

// Note returns the outcome note of attempt number attempt of invocation
// inv, if it has one.
func (r *Report) Note(inv, attempt int) (OutcomeNote, bool) {
	if inv < 0 || inv >= len(r.Invocations) || !r.Invocations[inv].noted {
		// Most invocations have none: renderers ask for every attempt.
		return OutcomeNote{}, false
	}
	i := sort.Search(len(r.OutcomeNotes), func(i int) bool {
		n := r.OutcomeNotes[i]
		return n.Invocation > inv || n.Invocation == inv && n.Attempt >= attempt
	})
	if i < len(r.OutcomeNotes) && r.OutcomeNotes[i].Invocation == inv && r.OutcomeNotes[i].Attempt == attempt {
		return r.OutcomeNotes[i], true
	}
	return OutcomeNote{}, false
}
