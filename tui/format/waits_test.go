package format

import (
	"strings"
	"testing"
	"time"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/detect"
)

// TestWaitLanes: a run's durable timers, waits for external events and
// suspensions are lanes of their own, a retry's timer is not (its
// invocation's row shows it), and each lane draws its stretches and where
// they ended.
func TestWaitLanes(t *testing.T) {
	t0 := time.Date(2026, 8, 20, 9, 0, 0, 0, time.UTC)
	at := func(m int) catalyst.Stamp { return catalyst.StampOf(t0.Add(time.Duration(m) * time.Minute)) }
	ev := []catalyst.Event{
		{Type: catalyst.EventExecutionStarted, ID: -1, Timestamp: at(0)},
		{Type: catalyst.EventTimerCreated, Name: "poll", ID: 0, Origin: catalyst.OriginCreateTimer, FireAt: at(10), Timestamp: at(0)},
		{Type: catalyst.EventTimerFired, ID: -1, TimerID: 0, Timestamp: at(10)},
		{Type: catalyst.EventTimerCreated, Name: "Charge-retry", ID: 1, Origin: catalyst.OriginActivityRetry, OriginID: "x", FireAt: at(11), Timestamp: at(10)},
		{Type: catalyst.EventTimerFired, ID: -1, TimerID: 1, Timestamp: at(11)},
		{Type: catalyst.EventTimerCreated, Name: "approval", ID: 2, Origin: catalyst.OriginExternalEvent, OriginID: "Approval", FireAt: at(2000), Timestamp: at(20)},
		{Type: catalyst.EventExecutionSuspended, ID: -1, Timestamp: at(25)},
		{Type: catalyst.EventExecutionResumed, ID: -1, Timestamp: at(30)},
		{Type: catalyst.EventEventRaised, Name: "approval", ID: -1, Timestamp: at(35)},
		{Type: catalyst.EventEventRaised, Name: "cancel", ID: -1, Timestamp: at(38)},
		{Type: catalyst.EventExecutionCompleted, ID: 3, Timestamp: at(40)},
	}
	h := catalyst.NewHistory(catalyst.Run{ID: "r"}, ev...)
	lanes := WaitLanes(h, &detect.Report{}, 8)
	var got []string
	a := Axis{From: at(0), To: at(40), Now: at(40), Width: 40}
	for i := range lanes {
		got = append(got, lanes[i].Label+"|"+string(AppendMarks(nil, lanes[i].Row(nil, a))))
	}
	want := []string{
		"timer poll|──────────○                             ",
		"event Approval|                    ~~~~~~~~~~~~~~~»    ",
		"suspended|                         ══════         ",
		"event cancel|" + strings.Repeat(" ", 38) + "» ",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("lanes:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if capped := WaitLanes(h, &detect.Report{}, 2); len(capped) != 2 || capped[1].Label != "other waits" {
		t.Errorf("capped at 2: %d lanes, the last %q", len(capped), capped[len(capped)-1].Label)
	}
}
