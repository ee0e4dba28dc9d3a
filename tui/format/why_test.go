package format

import (
	"strings"
	"testing"
	"time"

	"github.com/twice-cli/twice/catalyst"
)

// TestRunWhy: a failed, terminated or stalled run says why, from what the
// history holds; a run in another state says nothing.
func TestRunWhy(t *testing.T) {
	run := func(status catalyst.Status, evs ...catalyst.Event) *catalyst.History {
		return catalyst.NewHistory(catalyst.Run{Status: status}, evs...)
	}
	sched := catalyst.Event{Type: catalyst.EventTaskScheduled, Name: "ChargeCard", ID: 3}
	failed := catalyst.Event{Type: catalyst.EventTaskFailed, ID: -1, ScheduledID: 3,
		Failure: &catalyst.Failure{Type: "CardDeclined", Message: "insufficient funds"}}
	for _, c := range []struct {
		name string
		h    *catalyst.History
		want string
	}{
		{"completed", run("COMPLETED"), ""},
		{"failed with details", run("FAILED", catalyst.Event{Type: catalyst.EventExecutionCompleted,
			Failure: &catalyst.Failure{Type: "TaskFailedError", Message: "activity failed"}}), "TaskFailedError: activity failed"},
		{"failed, the run's message", catalyst.NewHistory(catalyst.Run{Status: "FAILED", FailureMessage: "boom\x1b[2J"}), `boom\x1b[2J`},
		{"failed, only a call's failure", run("FAILED", sched, failed),
			"no failure details recorded; ChargeCard failed (event 1): CardDeclined: insufficient funds"},
		{"failed, nothing", run("FAILED"), "no failure details in this history"},
		{"terminated with a reason", run("TERMINATED", catalyst.Event{Type: catalyst.EventExecutionTerminated,
			Payload: catalyst.PresentPayload(`"operator: stuck"`)}), `terminated: "operator: stuck"`},
		{"terminated, reason withheld", catalyst.NewHistory(catalyst.Run{Status: "TERMINATED",
			DataSharing: catalyst.DataSharing{Filtered: true, Level: catalyst.LevelMetadata}},
			catalyst.Event{Type: catalyst.EventExecutionTerminated, Payload: catalyst.AbsentPayload(catalyst.PayloadWithheld)}),
			"terminated; the reason is withheld: not shared at this organization's data-sharing level (metadata)"},
		{"terminated, reason not printed, output printed", run("TERMINATED",
			catalyst.Event{Type: catalyst.EventExecutionTerminated, Payload: catalyst.AbsentPayload(catalyst.PayloadNotInFormat)},
			catalyst.Event{Type: catalyst.EventExecutionCompleted, Payload: catalyst.PresentPayload("cancelled by ops"),
				Detail: &catalyst.EventDetail{WorkflowStatus: "TERMINATED"}}),
			"terminated: cancelled by ops (the termination's output, printed as the run's)"},
		{"asked to terminate while suspended", catalyst.NewHistory(catalyst.Run{Status: "suspended", HistoryStatus: "suspended",
			UnfinishedTermination: time.Date(2026, 8, 20, 10, 0, 0, 0, time.UTC)},
			catalyst.Event{Type: catalyst.EventExecutionSuspended},
			catalyst.Event{Type: catalyst.EventExecutionTerminated, Payload: catalyst.PresentPayload("ops")}),
			"a termination was requested while the run was suspended (event 1: ops) and no completion followed: " +
				"the engine keeps a suspended run suspended"},
		{"reported otherwise", catalyst.NewHistory(catalyst.Run{Status: "RUNNING", HistoryStatus: "suspended"}),
			"the source reports running; the history's events end suspended"},
		{"stalled", run("STALLED", catalyst.Event{Type: catalyst.EventExecutionStalled,
			Detail: &catalyst.EventDetail{StallReason: "PatchMismatch", StallDescription: "v2 patch not in the worker"}}),
			"PatchMismatch: v2 patch not in the worker"},
	} {
		if got := RunWhy(c.h); got != c.want {
			t.Errorf("%s: RunWhy = %q, want %q", c.name, got, c.want)
		}
	}
	long := run("FAILED", catalyst.Event{Type: catalyst.EventExecutionCompleted,
		Failure: &catalyst.Failure{Type: "E", Message: strings.Repeat("x", 10000)}})
	if got := RunWhy(long); Width(got) > whyChars+1 {
		t.Errorf("a long reason is %d wide", Width(got))
	}
}
