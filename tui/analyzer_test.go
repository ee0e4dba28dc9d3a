package tui

import (
	"testing"
	"time"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/detect"
)

// A live run's pending attempt is judged against the clock, as the command
// line does; a saved one's against its own last instant.
func TestAnalyzerJudgesLiveRunsByTheClock(t *testing.T) {
	t0 := time.Date(2026, 8, 20, 9, 0, 0, 0, time.UTC)
	now := func() time.Time { return t0.Add(2 * time.Hour) }
	pending := func(surface catalyst.Surface) *catalyst.History {
		h := catalyst.NewHistory(catalyst.Run{ID: "r", AppID: "a", Workflow: "W", Status: catalyst.StatusRunning,
			Provenance: catalyst.Provenance{Surface: surface}})
		h.Append(catalyst.Event{Type: catalyst.EventWorkflowStarted, ID: -1, Timestamp: catalyst.StampOf(t0)})
		h.Append(catalyst.Event{Type: catalyst.EventExecutionStarted, ID: -1, Name: "W", Timestamp: catalyst.StampOf(t0)})
		h.Append(catalyst.Event{Type: catalyst.EventTaskScheduled, ID: 0, Name: "ChargeCard", ExecutionID: "x1",
			Timestamp: catalyst.StampOf(t0.Add(time.Second))})
		return h
	}
	severity := func(r *detect.Report) detect.Severity {
		for _, f := range r.Findings {
			if f.ID == detect.FindingUnknownOutcome {
				return f.Severity
			}
		}
		return detect.SeverityNone
	}
	analyze := analyzer(detect.Options{}, now)
	if got := severity(analyze(pending(catalyst.SurfaceCatalystMCP))); got != detect.SeverityMedium {
		t.Errorf("live run pending 2h: unknown outcome at %v, want medium (overdue by the clock)", got)
	}
	if got := severity(analyze(pending(catalyst.SurfaceFile))); got == detect.SeverityMedium {
		t.Errorf("saved run: judged by the clock (%v), not by its own last instant", got)
	}
}
