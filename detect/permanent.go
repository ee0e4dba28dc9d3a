package detect

import ()

// FindingRetriedPermanentFailure: attempts were retried after a failure a
// retry cannot change.
const FindingRetriedPermanentFailure FindingID = "retried-permanent-failure"

var permanentCheck = Check{
	ID:       FindingRetriedPermanentFailure,
	Title:    "a failure that cannot succeed, retried",
	Short:    "retried permanent",
	Severity: SeverityMedium,
	Doc: "Attempts retried after a failure a retry cannot change: one marked non-retriable, a validation " +
		"error, a 4xx other than 408 and 429, a business rejection (declined, insufficient funds, not " +
		"found). The retry policy spends its budget and delays the real failure.",
	invocation: (*detector).retriedPermanent,
}

// retriedPermanent flags attempts retried after a failure that cannot
// succeed on retry.
func (d *detector) retriedPermanent(k int) {
	inv := &d.b.invs[k]
	n := len(inv.Attempts)
	var nums []int
	var ev []Evidence
	nonRetriable := false
	for i := range inv.Attempts {
		a := &inv.Attempts[i]
		if a.Outcome != OutcomeFailed || a.FailureClass != FailurePermanent {
			continue
		}
		var retry Evidence
		switch {
		case i < n-1:
			next := &inv.Attempts[i+1]
			l := d.ln.attempt(next.Number).str(" ran it again")
			if next.BackoffBefore > 0 {
				l.str(" ").spanOf(next.Backoff(d.h)).str(" later")
			}
			retry = d.evidenceOf(next.Scheduled, l.fact())
		case inv.OpenRetry != nil:
			retry = d.evidence(inv.OpenRetry.Created, "a retry timer is set to run it again")
		default:
			continue
		}
		nums = append(nums, a.Number)
		pos, fact := outcomeFact(&d.ln, a, "", false)
		ev = append(ev, d.evidenceOf(pos, fact), retry)
		if a.Failure != nil && a.Failure.NonRetriable {
			nonRetriable = true
		}
	}
	if len(nums) == 0 {
		return
	}
	label := "Attempt "
	if len(nums) > 1 {
		label = "Attempts "
	}
	expl := label + joinNumbers(nums) + " failed with an error a retry cannot change, and the retry policy " +
		"ran " + quoteName(inv.Name) + " again: a permanent rejection consumes the retry budget and delays the real " +
		"failure without any chance of succeeding."
	if nonRetriable {
		expl += " The failure was even marked non-retriable, and it was retried all the same."
	}
	d.add(Finding{
		ID:              FindingRetriedPermanentFailure,
		Severity:        SeverityMedium,
		Confidence:      ConfidenceObserved,
		Activity:        inv.Name,
		Invocation:      inv.Key,
		InvocationIndex: k,
		Attempts:        nums,
		Evidence:        ev,
		Explanation:     expl,
		Advice:          "Return the rejection as data (a typed result the orchestrator branches on) and reserve the retry policy for transient failures.",
	}, inv.Attempts[0].Scheduled, k, -1)
}
