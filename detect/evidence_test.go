package detect

import (
	"strconv"
	"strings"
	"testing"
)

// TestEvidenceSaysEachFactOnce: over every scenario, a finding's evidence
// is in history order, never repeats a line, never names its own event
// again ("event 7: attempt 1 (event 7) failed" said it twice), and its
// attempts list every attempt of its invocation the evidence cites.
func TestEvidenceSaysEachFactOnce(t *testing.T) {
	for _, sc := range scenarios() {
		t.Run(sc.name, func(t *testing.T) {
			r := Analyze(sc.build(), Options{})
			for _, f := range r.Findings {
				last := -1
				seen := map[string]bool{}
				for _, ev := range f.Evidence {
					if ev.Event >= 0 && ev.Event < last {
						t.Errorf("%s: evidence out of history order: event %d after %d", f.ID, ev.Event, last)
					}
					last = max(last, ev.Event)
					if self := "(event " + strconv.Itoa(ev.Event) + ")"; strings.Contains(ev.Fact.Text, self) {
						t.Errorf("%s: event %d's fact names it again: %q", f.ID, ev.Event, ev.Fact.Text)
					}
					line := strconv.Itoa(ev.Event) + ":" + factText(ev.Fact)
					if seen[line] {
						t.Errorf("%s: evidence repeats %q", f.ID, line)
					}
					seen[line] = true
				}
				if f.InvocationIndex < 0 {
					continue
				}
				inv := &r.Invocations[f.InvocationIndex]
				for i := range inv.Attempts {
					a := &inv.Attempts[i]
					if citesAttempt(f.Evidence, a) && !contains(f.Attempts, a.Number) {
						t.Errorf("%s: evidence cites attempt %d, attempts lists %v", f.ID, a.Number, f.Attempts)
					}
				}
				for i := 1; i < len(f.Attempts); i++ {
					if f.Attempts[i] <= f.Attempts[i-1] {
						t.Errorf("%s: attempts %v not ascending", f.ID, f.Attempts)
					}
				}
			}
		})
	}
}

func contains(ns []int, n int) bool {
	for _, v := range ns {
		if v == n {
			return true
		}
	}
	return false
}
