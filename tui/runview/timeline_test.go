package runview

import (
	"testing"
	"time"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/detect"
)

// TestMoment: + zooms around the moment that matters on a Timeline row:
// where attempts overlap, else an open attempt, else the first failure,
// else the start; on an attempt's row, its failure or its start.
func TestMoment(t *testing.T) {
	s := func(n int) catalyst.Stamp { return catalyst.Stamp(int64(n) * int64(time.Second)) }
	failed := func(from, to int, class detect.FailureClass) detect.Attempt {
		return detect.Attempt{Start: s(from), End: s(to), OutcomeEvent: 1, Outcome: detect.OutcomeFailed, FailureClass: class}
	}
	done := func(from, to int) detect.Attempt {
		return detect.Attempt{Start: s(from), End: s(to), OutcomeEvent: 1, Outcome: detect.OutcomeCompleted}
	}
	open := detect.Attempt{Start: s(50), OutcomeEvent: -1, Outcome: detect.OutcomeUnknown}
	tests := []struct {
		name string
		atts []detect.Attempt
		att  int
		want catalyst.Stamp
	}{
		{"a timeout's retry overlaps it: the retry's start", []detect.Attempt{failed(10, 40, detect.FailureAmbiguous), done(45, 46)}, -1, s(45)},
		{"an open attempt: its start", []detect.Attempt{done(10, 20), open}, -1, s(50)},
		{"a permanent failure, then a retry: the failure", []detect.Attempt{failed(10, 12, detect.FailurePermanent), done(20, 21)}, -1, s(12)},
		{"nothing wrong: the start", []detect.Attempt{done(10, 12)}, -1, s(10)},
		{"an attempt's row: its failure", []detect.Attempt{failed(10, 12, detect.FailurePermanent), done(20, 21)}, 0, s(12)},
		{"an attempt's row: its start", []detect.Attempt{failed(10, 12, detect.FailurePermanent), done(20, 21)}, 1, s(20)},
	}
	for _, tt := range tests {
		inv := &detect.Invocation{Attempts: tt.atts, Start: tt.atts[0].Start}
		if got := moment(inv, tt.att); got != tt.want {
			t.Errorf("%s: moment %v, want %v", tt.name, got, tt.want)
		}
	}
}
