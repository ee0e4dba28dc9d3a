package detect

import (
	"slices"
	"testing"
)

// TestFindingIndexesDoNotAlias: each invocation's finding positions are its
// own, though they share one allocation: appending to one changes no other.
func TestFindingIndexesDoNotAlias(t *testing.T) {
	r := Analyze(benchHistory(20_000, 1), Options{})
	var withFindings []int
	for k := range r.Invocations {
		if f := r.Invocations[k].Findings; len(f) > 0 {
			if cap(f) != len(f) {
				t.Fatalf("invocation %d: findings %v have room for %d", k, f, cap(f))
			}
			withFindings = append(withFindings, k)
		}
	}
	if len(withFindings) < 2 {
		t.Fatalf("%d invocations with findings: too few to test", len(withFindings))
	}
	before := slices.Clone(r.Invocations[withFindings[1]].Findings)
	inv := &r.Invocations[withFindings[0]]
	inv.Findings = append(inv.Findings, -1)
	if got := r.Invocations[withFindings[1]].Findings; !slices.Equal(got, before) {
		t.Fatalf("appending to one invocation's findings changed another's: %v, was %v", got, before)
	}
}

// TestCountKinds counts what the scan keeps records for.
func TestCountKinds(t *testing.T) {
	h := benchHistory(5000, 1)
	c := countKinds(h)
	var want kindCounts
	for _, e := range h.All() {
		switch {
		case e.Type.String() == "TaskScheduled":
			want.attempts++
			want.tasks++
		case e.Type.String() == "ChildWorkflowCreated":
			want.attempts++
		case e.Type.String() == "TimerCreated":
			want.timers++
		case e.Type.String() == "TimerFired":
			want.fired++
		case e.Type.String() == "TaskFailed" || e.Type.String() == "ChildWorkflowFailed":
			want.failures++
		}
		if e.Type.IsNumbered() {
			want.numbered++
		}
	}
	if c != want || c.attempts == 0 || c.timers == 0 || c.failures == 0 {
		t.Fatalf("counted %+v, want %+v", c, want)
	}
}
