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
	calls := make(map[int32]int32)
	timers := make(map[int32]int32)
	for i, e := range h.All() {
		switch e.Type {
		case catalyst.EventExecutionStarted:
			// A new generation (continue-as-new) numbers its calls afresh.
			clear(calls)
			clear(timers)
		case catalyst.EventTaskScheduled, catalyst.EventChildWorkflowCreated:
			if e.ID >= 0 {
				calls[e.ID] = int32(i)
			}
		case catalyst.EventTimerCreated:
			if e.ID >= 0 {
				timers[e.ID] = int32(i)
			}
		case catalyst.EventTaskCompleted, catalyst.EventTaskFailed,
			catalyst.EventChildWorkflowCompleted, catalyst.EventChildWorkflowFailed:
			if e.HasScheduledID() {
				if at, ok := calls[e.ScheduledID]; ok {
					of[i] = at
				}
			}
		case catalyst.EventTimerFired:
			if e.HasTimerID() {
				if at, ok := timers[e.TimerID]; ok {
					of[i] = at
				}
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
