package format

import (
	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/safetext"
	"github.com/twice-cli/twice/detect"
)

// DerivedMark marks a name an event does not carry but takes from the call
// it closes ("↳ ChargeCard" on a TaskCompleted): derived, not reported.
const DerivedMark = "↳ "

// CallOf finds, for each event that closes a call — TaskCompleted,
// TaskFailed, ChildWorkflow*Completed/Failed, TimerFired — the event that
// opened that call, so the event tables can name the row after it (the
// history names only the opening event, so a filter for /ChargeCard would
// miss its failure and its completion).
//
// It pairs by the ids the history carries (taskScheduledId, timerId,
// within one generation of the workflow), and, where the source does not
// carry them, by the pairing detect made (rep may be nil): an outcome
// detect tied to its attempt by inference is named after it too, marked
// derived like the rest.
func CallOf(h *catalyst.History, rep *detect.Report) []int32 {
	n := h.Len()
	of := make([]int32, n)
	for i := range of {
		of[i] = -1
	}
	// The events that open a call or a timer, by eventId: one table, as
	// the engine numbers both from one counter.
	var opened idTable
	for i, e := range h.All() {
		switch e.Type {
		case catalyst.EventExecutionStarted:
			// A new generation (continue-as-new) numbers its calls afresh.
			opened.reset()
		case catalyst.EventTaskScheduled, catalyst.EventChildWorkflowCreated, catalyst.EventTimerCreated:
			opened.set(e.ID, int32(i), e.Type == catalyst.EventTimerCreated)
		case catalyst.EventTaskCompleted, catalyst.EventTaskFailed,
			catalyst.EventChildWorkflowCompleted, catalyst.EventChildWorkflowFailed:
			if e.HasScheduledID() {
				of[i] = opened.get(e.ScheduledID, false)
			}
		case catalyst.EventTimerFired:
			if e.HasTimerID() {
				of[i] = opened.get(e.TimerID, true)
			}
		}
	}
	if rep == nil {
		return of
	}
	set := func(ev, from int) {
		if ev >= 0 && ev < n && from >= 0 && from < n && of[ev] < 0 {
			of[ev] = int32(from)
		}
	}
	for k := range rep.Invocations {
		inv := &rep.Invocations[k]
		for ai := range inv.Attempts {
			a := &inv.Attempts[ai]
			set(a.OutcomeEvent, a.Scheduled)
			for _, x := range a.ExtraOutcomes {
				set(x, a.Scheduled)
			}
			if t := a.RetryTimer; t != nil {
				// A retry timer opens the attempt it waits for.
				set(t.Created, a.Scheduled)
				set(t.Fired, t.Created)
			}
		}
	}
	return of
}

// idTable maps eventIds to the positions of the events that carry them:
// a slice for the small, dense ids engines give, a map for any other. A
// timer and a call are told apart, so a completion is never paired with a
// timer of the same id (nor the reverse).
type idTable struct {
	dense  []int32 // position+1, negated for a timer; 0: none
	sparse map[int32]int32
}

// denseIDs bounds the ids the slice holds.
const denseIDs = 1 << 22

func (t *idTable) reset() {
	clear(t.dense)
	clear(t.sparse)
}

func (t *idTable) set(id, pos int32, timer bool) {
	if id < 0 {
		return
	}
	v := pos + 1
	if timer {
		v = -v
	}
	if id < denseIDs {
		for int(id) >= len(t.dense) {
			t.dense = append(t.dense, make([]int32, max(len(t.dense), 64))...)
		}
		t.dense[id] = v
		return
	}
	if t.sparse == nil {
		t.sparse = make(map[int32]int32)
	}
	t.sparse[id] = v
}

// get returns the position of the call (or timer) with id, -1 for none.
func (t *idTable) get(id int32, timer bool) int32 {
	var v int32
	switch {
	case id < 0:
	case id < denseIDs && int(id) < len(t.dense):
		v = t.dense[id]
	case id >= denseIDs:
		v = t.sparse[id]
	}
	switch {
	case v > 0 && !timer:
		return v - 1
	case v < 0 && timer:
		return -v - 1
	}
	return -1
}

// EventName is the NAME cell of event i: its own name, sanitized; else,
// for an event that closes a call (of from CallOf, nil while it is not
// known), that call's name marked DerivedMark ("↳ ChargeCard"; a retry
// timer with no name of its own: "↳ ChargeCard retry"); else "-". derived
// says which.
func EventName(h *catalyst.History, of []int32, i int) (name string, derived bool) {
	e := h.At(i)
	if e.Name != "" {
		return Line(e.Name), false
	}
	if call := CallName(h, of, i); call != "" {
		return DerivedMark + call, true
	}
	return "-", false
}

// CallName is the sanitized name of the call event i closes (or, for a
// retry timer, of the attempt it waits for: "ChargeCard retry"), "" when
// there is none: the name EventName derives, without its mark.
func CallName(h *catalyst.History, of []int32, i int) string {
	raw := RawCallName(h, of, i)
	if raw == "" {
		return ""
	}
	return safetext.Line(raw)
}

// RawCallName is CallName before it is sanitized (for a search index,
// which sanitizes what it is given).
func RawCallName(h *catalyst.History, of []int32, i int) string {
	for hops, at := 0, i; hops < 2 && at < len(of) && of[at] >= 0; hops++ {
		at = int(of[at])
		call := h.At(at)
		if call.Name == "" {
			continue // a retry timer without a name: on to its attempt
		}
		if t := h.At(i).Type; (t == catalyst.EventTimerCreated || t == catalyst.EventTimerFired) &&
			call.Type != catalyst.EventTimerCreated {
			return call.Name + " retry"
		}
		return call.Name
	}
	return ""
}
