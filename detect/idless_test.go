package detect

import (
	"strings"
	"testing"
	"time"

	"github.com/twice-cli/twice/catalyst"
)

// TestIDlessChildOutcomes: child workflow outcomes whose source gave no
// scheduled id (catalyst.NoID: a Dapr CLI ChildWorkflowFailed row, or any
// SubOrch* row of CLI v1.16) are tied to a call only where the history
// decides, and marked inferred; otherwise every call open when they
// arrived is untied: its outcome is unknown, never "no outcome recorded",
// and the unknown-outcome finding is possible, not observed.
func TestIDlessChildOutcomes(t *testing.T) {
	type want struct {
		outcomes []Outcome
		links    []LinkRule
		untied   []bool
		// note is a phrase the first untied attempt's note must hold.
		note string
		// unknown is the confidence of the unknown-outcome findings ("":
		// none).
		unknown Confidence
	}
	tests := []struct {
		name  string
		build func(b *hb)
		want  want
	}{
		{
			name: "one call open: the failure is its own, inferred",
			build: func(b *hb) {
				b.child("ShipA", "", "")
				b.turn().childFail(catalyst.NoID, "carrier down")
				b.turn().complete(catalyst.StatusFailed)
			},
			want: want{outcomes: []Outcome{OutcomeFailed}, links: []LinkRule{LinkInferred}, untied: []bool{false}},
		},
		{
			name: "a later completion tied by id leaves one call for the failure",
			build: func(b *hb) {
				b.child("ShipA", "", "")
				b2 := b.child("ShipB", "", "")
				b.turn().childFail(catalyst.NoID, "carrier down")
				b.turn().childDone(b2)
				b.turn().complete(catalyst.StatusFailed)
			},
			want: want{outcomes: []Outcome{OutcomeFailed, OutcomeCompleted}, links: []LinkRule{LinkInferred, LinkByID},
				untied: []bool{false, false}},
		},
		{
			name: "three calls, three outcomes without ids: all untied, every outcome named",
			build: func(b *hb) {
				b.child("ShipA", "", "")
				b.child("ShipB", "", "")
				b.child("ShipC", "", "")
				b.turn().childFail(catalyst.NoID, "carrier down")
				b.turn().childDone(catalyst.NoID)
				b.turn().childDone(catalyst.NoID)
				b.turn().complete(catalyst.StatusFailed)
			},
			want: want{outcomes: []Outcome{OutcomeUnknown, OutcomeUnknown, OutcomeUnknown},
				links: []LinkRule{0, 0, 0}, untied: []bool{true, true, true},
				note: "the ChildWorkflowFailed at event 6, the ChildWorkflowCompleted at event 8 and the " +
					"ChildWorkflowCompleted at event 10 carry no scheduled id",
				unknown: ConfidencePossible},
		},
		{
			name: "a call tied by id is not among the untied",
			build: func(b *hb) {
				a := b.child("ShipA", "", "")
				b.child("ShipB", "", "")
				b.child("ShipC", "", "")
				b.turn().childDone(a)
				b.turn().childFail(catalyst.NoID, "carrier down")
				b.turn().complete(catalyst.StatusFailed)
			},
			want: want{outcomes: []Outcome{OutcomeCompleted, OutcomeUnknown, OutcomeUnknown},
				links: []LinkRule{LinkByID, 0, 0}, untied: []bool{false, true, true},
				note: "arrived while 2 child workflow calls, this one among them", unknown: ConfidencePossible},
		},
		{
			name: "a retry timer's origin names the failed child: inferred",
			build: func(b *hb) {
				b.child("ShipA", "", "")
				b.child("ShipB", "", "")
				b.turn().childFail(catalyst.NoID, "carrier down")
				b.timer(time.Second, "ShipB-retry", catalyst.OriginChildWorkflowRetry, "run-1:0001")
				b.turn().complete(catalyst.StatusFailed)
			},
			// ShipA then has no outcome at all: that is observed.
			want: want{outcomes: []Outcome{OutcomeUnknown, OutcomeFailed}, links: []LinkRule{0, LinkInferred},
				untied: []bool{false, false}, unknown: ConfidenceObserved},
		},
		{
			// durabletask-go v0.12 on names a child by the last four hex
			// digits of its action id: "run-1:0001" is action 1's and
			// action 0x10001's.
			name: "an origin two actions' ids end in is no evidence",
			build: func(b *hb) {
				b.next = 1
				b.child("ShipA", "", "")
				b.next = 0x10001
				b.child("ShipB", "", "")
				b.turn().childFail(catalyst.NoID, "carrier down")
				b.timer(time.Second, "Ship-retry", catalyst.OriginChildWorkflowRetry, "run-1:0001")
				b.turn().complete(catalyst.StatusFailed)
			},
			want: want{outcomes: []Outcome{OutcomeUnknown, OutcomeUnknown}, links: []LinkRule{0, 0},
				untied: []bool{true, true}, note: "which of them it closes is not known", unknown: ConfidencePossible},
		},
		{
			name: "a run still running: the untied call is unknown, not merely pending",
			build: func(b *hb) {
				b.child("ShipA", "", "")
				b.child("ShipB", "", "")
				b.turn().childDone(catalyst.NoID)
			},
			want: want{outcomes: []Outcome{OutcomePending, OutcomePending}, links: []LinkRule{0, 0},
				untied: []bool{true, true}, note: "which of them it closes is not known", unknown: ConfidencePossible},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := newHB("OrderWorkflow")
			b.turn().start("exec-1")
			b.run.Status = catalyst.StatusRunning
			tt.build(b)
			h := b.history()
			r := Analyze(h, Options{})
			checkInvariants(t, h, r)
			var outcomes []Outcome
			var links []LinkRule
			var untied []bool
			note := ""
			for k := range r.Invocations {
				for i := range r.Invocations[k].Attempts {
					a := &r.Invocations[k].Attempts[i]
					outcomes, links = append(outcomes, a.Outcome), append(links, a.OutcomeLink)
					u := r.OutcomeUntied(k, a.Number)
					untied = append(untied, u)
					n, noted := r.Note(k, a.Number)
					if (a.OutcomeLink == LinkInferred || u) && !noted {
						t.Errorf("%s: no note says why its outcome is inferred or unknown", r.Invocations[k].Name)
					}
					if u && note == "" {
						note = n.Text
					}
				}
			}
			if got, w := describeOutcomes(outcomes, links, untied), describeOutcomes(tt.want.outcomes, tt.want.links,
				tt.want.untied); got != w {
				t.Errorf("attempts %s, want %s", got, w)
			}
			if !strings.Contains(note, tt.want.note) {
				t.Errorf("note %q, want it to hold %q", note, tt.want.note)
			}
			var conf Confidence
			for _, f := range r.Findings {
				if f.ID != FindingUnknownOutcome {
					continue
				}
				conf = f.Confidence
				if conf != ConfidencePossible {
					continue // a call with no outcome at all
				}
				for _, ev := range f.Evidence {
					if strings.Contains(ev.Fact.Text, "no recorded outcome") || strings.Contains(ev.Fact.Text, "has had no outcome") {
						t.Errorf("%s: %q, but an outcome the history records may be its own", f.Activity, ev.Fact.Text)
					}
				}
			}
			if conf != tt.want.unknown {
				t.Errorf("unknown-outcome confidence %q, want %q", conf, tt.want.unknown)
			}
		})
	}
}

func describeOutcomes(outcomes []Outcome, links []LinkRule, untied []bool) string {
	var b strings.Builder
	for i := range outcomes {
		b.WriteString(outcomes[i].String() + "/" + links[i].String())
		if untied[i] {
			b.WriteString("/untied")
		}
		b.WriteString(" ")
	}
	return b.String()
}

// TestSortFailures: the failed attempts end in outcome order whatever the
// order they were recorded in (one sorted list, two sorted runs, any).
func TestSortFailures(t *testing.T) {
	outcomes := []int32{40, 10, 30, 20, 50, 0, 60}
	for _, order := range [][]int32{
		{5, 1, 3, 2, 0, 4, 6}, // sorted
		{5, 3, 0, 6, 1, 2, 4}, // 0 30 40 60 | 10 20 50
		{1, 2, 5, 4, 6, 3, 0}, // runs of every length
		{6},
		{},
		{6, 5},
	} {
		s := &scan{attempts: make([]attemptRec, len(outcomes))}
		for a, o := range outcomes {
			s.attempts[a].outcome = o
		}
		s.failures = append([]int32(nil), order...)
		s.sortFailures()
		if len(s.failures) != len(order) {
			t.Fatalf("%v: %d failures, want %d", order, len(s.failures), len(order))
		}
		seen := map[int32]bool{}
		for i, a := range s.failures {
			seen[a] = true
			if i > 0 && outcomes[a] < outcomes[s.failures[i-1]] {
				t.Errorf("%v sorted to %v: not in outcome order", order, s.failures)
				break
			}
		}
		for _, a := range order {
			if !seen[a] {
				t.Errorf("%v sorted to %v: %d lost", order, s.failures, a)
			}
		}
	}
}
