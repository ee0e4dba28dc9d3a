package detect

// Spans of the Dapr CLI's rows, rebuilt from their elapsed column
// (catalyst/rebuild.go), against the engine's exact times they were
// printed from.

import (
	"testing"
	"time"

	"github.com/dapr/durabletask-go/api/protos"

	"github.com/twice-cli/twice/catalyst"
)

// checkRowSpans compares the span between every two of h's rows with the
// span between the engine's exact times they were printed from (exact[i]
// is row i's): a rebuilt span is within its error of it, one measured
// between printed times within its step, and every row is still printed
// at the second the CLI printed. It returns how many spans were rebuilt
// and how many were not.
func checkRowSpans(t testing.TB, name string, h *catalyst.History, exact []time.Time) (rebuilt, coarse int) {
	t.Helper()
	if h.Len() != len(exact) {
		t.Fatalf("%s: %d rows, %d exact times", name, h.Len(), len(exact))
	}
	for i := range h.Len() {
		if got, want := h.Printed(h.At(i).Timestamp).Time(), exact[i].Truncate(time.Second); !got.Equal(want) {
			t.Errorf("%s: row %d is printed at %v, the CLI printed %v", name, i, got, want)
		}
	}
	for i := range h.Len() {
		for j := range h.Len() {
			sp := h.Span(h.At(i).Timestamp, h.At(j).Timestamp)
			want := exact[j].Sub(exact[i])
			off := sp.D - want
			if off < 0 {
				off = -off
			}
			switch {
			case sp.Rebuilt():
				rebuilt++
				if off > sp.Err {
					t.Errorf("%s: rows %d→%d: rebuilt %v ±%v, exact %v", name, i, j, sp.D, sp.Err, want)
				}
			case sp.Coarse():
				coarse++
				if off >= sp.Step {
					t.Errorf("%s: rows %d→%d: %v ±%v, exact %v", name, i, j, sp.D, sp.Step, want)
				}
			default:
				t.Errorf("%s: rows %d→%d: a span of the CLI's rows is exact: %+v", name, i, j, sp)
			}
		}
	}
	return rebuilt, coarse
}

// cliExactTimes returns the engine's times of events in the order the
// CLI prints their rows.
func cliExactTimes(events []*protos.HistoryEvent) []time.Time {
	sorted := append([]*protos.HistoryEvent(nil), events...)
	rsCLISort(sorted)
	out := make([]time.Time, len(sorted))
	for i, e := range sorted {
		out[i] = e.GetTimestamp().AsTime()
	}
	return out
}

// TestEngineCLIRebuiltSpans: on every engine-generated run, every span
// between two of the CLI's rows is rebuilt from the rows' elapsed values
// and matches the protojson's exact span within the error it states; the
// attempts' durations and backoffs, and the invocations', match those read
// from the protojson. Before, every such span was whole seconds, ±1 s
// ("~1 s" for 748 ms).
func TestEngineCLIRebuiltSpans(t *testing.T) {
	cli := engineSources[len(engineSources)-1]
	for _, run := range engineRuns(t) {
		h, r := engineRead(t, run, cli)
		if !h.RebuiltSpans() {
			t.Errorf("%s: no span rebuilt", run.name)
			continue
		}
		if _, coarse := checkRowSpans(t, run.name, h, cliExactTimes(engineEvents(t, run))); coarse > 0 {
			t.Errorf("%s: %d spans between rows not rebuilt", run.name, coarse)
		}
		ph, pr := engineRead(t, run, engineSources[0])
		// An attempt is the same call in both: its scheduling event's id.
		type call struct {
			took, backoff time.Duration
			hasEnd        bool
		}
		exact := map[int32]call{}
		for _, inv := range pr.Invocations {
			for _, a := range inv.Attempts {
				exact[a.ScheduledID] = call{a.Took(ph).D, a.Backoff(ph).D, !a.End.IsZero()}
			}
		}
		attempts := 0
		for _, inv := range r.Invocations {
			for _, a := range inv.Attempts {
				want, ok := exact[a.ScheduledID]
				if !ok {
					t.Errorf("%s: %s attempt %d (eventId %d) is not in the protojson", run.name, inv.Name, a.Number, a.ScheduledID)
					continue
				}
				if want.hasEnd {
					attempts++
					checkSpan(t, run.name+" "+inv.Name+" took", a.Took(h), want.took)
				}
				if a.Number > 1 && a.BackoffBefore != 0 {
					checkSpan(t, run.name+" "+inv.Name+" backoff", a.Backoff(h), want.backoff)
				}
			}
		}
		if attempts == 0 && run.name != "running-attempt-open" {
			t.Errorf("%s: no attempt compared", run.name)
		}
	}
}

// checkSpan requires sp to be rebuilt and within its error of want.
func checkSpan(t *testing.T, what string, sp catalyst.Span, want time.Duration) {
	t.Helper()
	off := sp.D - want
	if off < 0 {
		off = -off
	}
	if !sp.Rebuilt() || off > sp.Err {
		t.Errorf("%s: %+v, exact %v", what, sp, want)
	}
}
