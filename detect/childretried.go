package detect

import "strconv"

// FindingChildWorkflowRetried: a child workflow was retried.
const FindingChildWorkflowRetried FindingID = "child-workflow-retried"

var childRetriedCheck = Check{
	ID:       FindingChildWorkflowRetried,
	Title:    "a child workflow retried",
	Short:    "child retried",
	Severity: SeverityMedium,
	Doc: "A child workflow was retried: as new instances with new instance ids, so a key derived from the " +
		"child's instance id changes per attempt, or under one reused id, so the earlier attempts' history " +
		"is overwritten.",
	invocation: func(d *detector, k int) {
		if d.b.invs[k].Kind == KindChildWorkflow {
			d.childRetried(k)
		}
	},
}

// childRetried flags a retried child workflow.
func (d *detector) childRetried(k int) {
	inv := &d.b.invs[k]
	if len(inv.Attempts) < 2 {
		return
	}
	first := inv.Attempts[0].InstanceID
	var detail, expl string
	switch {
	case inv.ReusedInstanceID:
		detail = "every attempt reused child instance id " + clip(first, 60)
		expl = "The child workflow " + quoteName(inv.Name) + " ran " + strconv.Itoa(len(inv.Attempts)) +
			" times under one instance id: Dapr resets a finished instance when it is created again, so only the " +
			"last attempt's history survives, and whatever the earlier attempts did is no longer visible in the child."
	case first == "":
		detail = "this history format does not record child instance ids"
		expl = "The child workflow " + quoteName(inv.Name) + " was retried: a retried child workflow is a new " +
			"instance with a new instance id, so a key derived from the child's instance id is not stable."
	default:
		detail = "attempt 1 ran as " + clip(first, 60) + ", attempt 2 as " + clip(inv.Attempts[1].InstanceID, 60)
		expl = "The child workflow " + quoteName(inv.Name) + " was retried as new instances with new instance ids, " +
			"unlike an activity retry, which keeps one task_execution_id: a key derived from the child's instance id " +
			"changes per attempt and deduplicates nothing."
	}
	ev := d.attemptEvidence(k, inv, "the child's side effects", false)
	ev = append(ev, d.evidence(inv.Attempts[1].Scheduled, detail))
	d.add(Finding{
		ID:              FindingChildWorkflowRetried,
		Severity:        SeverityMedium,
		Confidence:      ConfidenceObserved,
		Activity:        inv.Name,
		Invocation:      inv.Key,
		InvocationIndex: k,
		Attempts:        allNumbers(inv),
		Evidence:        ev,
		Explanation:     expl,
		Advice: "Derive the child's idempotency keys from the parent, or pass the key down in the child's input; " +
			"never key on the child's own instance id.",
	}, inv.Attempts[0].Scheduled, k, -1)
}
