package format

import (
	"github.com/twice-cli/twice/catalyst"
)

// whyChars caps the reason RunWhy gives, in characters.
const whyChars = 300

// RunWhy says why a run that failed, was terminated or stalled ended so,
// in one sanitized line: the failure's type and message, the termination's
// reason, the stall's reason and description; for a failure the history
// records no details of, the last failed call it holds. For a run asked to
// terminate while suspended that no completion followed, it says that; and
// where the source reported a status the history's own events do not end
// in, it says both. It is "" for a run in another state. The header of
// every view of a run says it first.
func RunWhy(h *catalyst.History) string {
	var why string
	switch h.Run.Status.Normalized() {
	case catalyst.StatusFailed:
		why = failureWhy(h)
	case catalyst.StatusTerminated:
		why = terminatedWhy(h)
	case catalyst.StatusStalled:
		why = stalledWhy(h)
	}
	if !h.Run.UnfinishedTermination.IsZero() {
		why = joinWhy(why, unfinishedTerminationWhy(h))
	}
	if st, hs := h.Run.Status, h.Run.HistoryStatus; st != "" && hs != "" && !st.Is(hs) {
		why = joinWhy(why, "the source reports "+Line(string(st.Normalized()))+"; the history's events end "+
			Line(string(hs.Normalized())))
	}
	return why
}

func joinWhy(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// unfinishedTerminationWhy says that the run was asked to terminate while
// it was suspended and that no completion followed: durabletask-go v0.12.1
// records the request and keeps the run suspended.
func unfinishedTerminationWhy(h *catalyst.History) string {
	why := "a termination was requested while the run was suspended"
	for i := h.Len() - 1; i >= 0; i-- {
		if e := h.At(i); e.Type == catalyst.EventExecutionTerminated {
			why += " (event " + Count(i)
			switch {
			case e.Payload.Has():
				why += ": " + Clip(e.Payload.Text(), whyChars)
			case e.Payload.State == catalyst.PayloadNotInFormat:
				why += "; this format does not print its reason"
			}
			why += ")"
			break
		}
	}
	return why + " and no completion followed: the engine keeps a suspended run suspended"
}

func failureWhy(h *catalyst.History) string {
	for i := h.Len() - 1; i >= 0; i-- {
		e := h.At(i)
		if e.Type == catalyst.EventExecutionCompleted && e.Failure != nil {
			return failureText(e.Failure)
		}
	}
	if h.Run.FailureMessage != "" {
		return Clip(h.Run.FailureMessage, whyChars)
	}
	// No details of the run's own failure: the last call that failed is
	// the likely cause, and is named as such.
	for i := h.Len() - 1; i >= 0; i-- {
		e := h.At(i)
		if (e.Type == catalyst.EventTaskFailed || e.Type == catalyst.EventChildWorkflowFailed) && e.Failure != nil {
			what := "the last failed call"
			if call := lastCallName(h, i); call != "" {
				what = call
			}
			return "no failure details recorded; " + what + " failed (event " + Count(i) + "): " + failureText(e.Failure)
		}
	}
	return "no failure details in this history"
}

// failureText is a failure as "Type: message" (the message alone when it
// has no type).
func failureText(f *catalyst.Failure) string {
	switch {
	case f.Type != "" && f.Message != "":
		return Clip(f.Type+": "+f.Message, whyChars)
	case f.Type != "":
		return Clip(f.Type, whyChars)
	}
	return Clip(f.Message, whyChars)
}

// lastCallName is the name of the call event i closes, paired by the
// history's own ids.
func lastCallName(h *catalyst.History, i int) string {
	e := h.At(i)
	if !e.HasScheduledID() {
		return ""
	}
	for j := i - 1; j >= 0; j-- {
		c := h.At(j)
		if (c.Type == catalyst.EventTaskScheduled || c.Type == catalyst.EventChildWorkflowCreated) && c.ID == e.ScheduledID {
			return Line(c.Name)
		}
	}
	return ""
}

func terminatedWhy(h *catalyst.History) string {
	for i := h.Len() - 1; i >= 0; i-- {
		e := h.At(i)
		if e.Type != catalyst.EventExecutionTerminated {
			continue
		}
		switch {
		case e.Payload.Has():
			return "terminated: " + Clip(e.Payload.Text(), whyChars)
		case e.Payload.State == catalyst.PayloadNotInFormat && terminationOutput(h, i).Has():
			// The Dapr CLI prints no reason on the termination's row, but
			// the engine completes a terminated run with the termination's
			// output as the run's (durabletask-go v0.12.1
			// backend/runtimestate/applier.go), and the CLI prints that.
			return "terminated: " + Clip(terminationOutput(h, i).Text(), whyChars) +
				" (the termination's output, printed as the run's)"
		case !e.Payload.Has() && e.Payload.State != catalyst.PayloadNone && e.Payload.State != catalyst.PayloadEmpty:
			return "terminated; the reason is " + PayloadLine(e.Payload, h.Run.DataSharing, whyChars)
		}
		return "terminated; no reason recorded"
	}
	if h.Run.FailureMessage != "" {
		return Clip(h.Run.FailureMessage, whyChars)
	}
	return "terminated; this history does not record the termination"
}

// terminationOutput is the output of the terminated completion that
// follows the termination at i, or an absent payload.
func terminationOutput(h *catalyst.History, i int) catalyst.Payload {
	for j := i + 1; j < h.Len(); j++ {
		if e := h.At(j); e.Type == catalyst.EventExecutionCompleted {
			if e.Detail != nil && e.Detail.WorkflowStatus.Is(catalyst.StatusTerminated) {
				return e.Payload
			}
			break
		}
	}
	return catalyst.AbsentPayload(catalyst.PayloadNone)
}

func stalledWhy(h *catalyst.History) string {
	for i := h.Len() - 1; i >= 0; i-- {
		e := h.At(i)
		if e.Type != catalyst.EventExecutionStalled || e.Detail == nil {
			continue
		}
		d := e.Detail
		switch {
		case d.StallReason != "" && d.StallDescription != "":
			return Clip(d.StallReason+": "+d.StallDescription, whyChars)
		case d.StallReason != "":
			return Clip(d.StallReason, whyChars)
		case d.StallDescription != "":
			return Clip(d.StallDescription, whyChars)
		}
	}
	return "stalled; this history records no reason"
}
