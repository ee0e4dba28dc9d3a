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
//     names a child "<parent>:<its eventId in 4 hex digits>" when the
//     workflow gives none): it is that one.
//
// Otherwise the outcome stays untied and each open call notes why its own
// outcome is unknown. Outcomes are taken in history order.
func (s *scan) pairIDless() {
	if len(s.idless) == 0 {
		return
	}
	resorted := false
	for _, o := range s.idless {
		e := s.h.At(int(o.pos))
		child := e.Type == catalyst.EventChildWorkflowCompleted || e.Type == catalyst.EventChildWorkflowFailed
		var open []int32
		for a := range s.attempts {
			r := &s.attempts[a]
			if r.pos > o.pos {
				break
			}
			if r.child == child && r.gen == o.gen && r.outcome < 0 {
				open = append(open, int32(a))
			}
		}
		what := "a call"
		if child {
			what = "a child workflow call"
		}
		why := fmt.Sprintf("the %s at event %d carries no scheduled id (%s does not print it)",
			e.TypeName(), o.pos, formatName(s.h.Format))
		switch {
		case len(open) == 1:
			s.pairInferred(open[0], o, e, &resorted, why+"; it is the only "+strings.TrimPrefix(what, "a ")+
				" scheduled before it with no outcome of its own, so it closes that one (inferred)")
		case len(open) > 1:
			if a, timer, ok := s.retryTimerNames(open, o, e); ok {
				s.pairInferred(a, o, e, &resorted, fmt.Sprintf("%s; the retry timer at event %d names the failed child "+
					"instance %s, the id the engine gives the call at event %d, so it closes that one (inferred)",
					why, timer, clip(s.h.At(int(timer)).OriginID, 80), s.attempts[a].pos))
				continue
			}
			for _, a := range open {
				s.note(a, o.pos, fmt.Sprintf("%s and %d calls of its kind were open: which one it closes is "+
					"not known, so this attempt's outcome is unknown", why, len(open)))
			}
		}
	}
	if resorted {
		sort.Slice(s.failures, func(i, j int) bool {
			return s.attempts[s.failures[i]].outcome < s.attempts[s.failures[j]].outcome
		})
	}
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
	for t := range s.timers {
		tr := &s.timers[t]
		te := s.h.At(int(tr.pos))
		if tr.pos < o.pos || tr.gen != o.gen || te.Origin != catalyst.OriginChildWorkflowRetry || te.OriginID == "" {
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
// the parent's id, ':' and the action id in four or more hex digits
// (durabletask-go api/helpers GenerateChildWorkflowInstanceID). When the
// run's id is unknown (the Dapr CLI's rows do not name it), the suffix
// alone is compared.
func (s *scan) engineChildID(id string, eventID int32) bool {
	if eventID < 0 {
		return false
	}
	i := strings.LastIndexByte(id, ':')
	if i < 0 {
		return false
	}
	hex := strconv.FormatInt(int64(eventID), 16)
	for len(hex) < 4 {
		hex = "0" + hex
	}
	if id[i+1:] != hex {
		return false
	}
	return s.h.Run.ID == "" || id[:i] == s.h.Run.ID
}

// engineChild returns the child attempt of the current generation whose
// engine-given instance id is id (engineChildID), if there is one.
func (s *scan) engineChild(id string) (int32, bool) {
	i := strings.LastIndexByte(id, ':')
	if i < 0 || len(id)-i-1 < 4 {
		return -1, false
	}
	n, err := strconv.ParseUint(id[i+1:], 16, 31)
	if err != nil {
		return -1, false
	}
	ref := s.ids.get(int32(n))
	if ref <= 0 || !s.attempts[ref-1].child || !s.engineChildID(id, int32(n)) {
		return -1, false
	}
	return ref - 1, true
}

// formatName names the history's format in a reason.
func formatName(f catalyst.Format) string {
	if f == catalyst.FormatDaprCLI {
		return "the Dapr CLI's JSON"
	}
	return "this history's format"
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
		for j := range inv.Attempts {
			if inv.Attempts[j].Scheduled == int(s.attempts[ai].pos) {
				r.OutcomeNotes = append(r.OutcomeNotes, OutcomeNote{Invocation: k, Attempt: j + 1,
					Event: int(n.event), Text: n.text})
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
}

// Note returns the outcome note of attempt number attempt of invocation
// inv, if it has one.
func (r *Report) Note(inv, attempt int) (OutcomeNote, bool) {
	i := sort.Search(len(r.OutcomeNotes), func(i int) bool {
		n := r.OutcomeNotes[i]
		return n.Invocation > inv || n.Invocation == inv && n.Attempt >= attempt
	})
	if i < len(r.OutcomeNotes) && r.OutcomeNotes[i].Invocation == inv && r.OutcomeNotes[i].Attempt == attempt {
		return r.OutcomeNotes[i], true
	}
	return OutcomeNote{}, false
}
