package detect

import (
	"strings"

	"github.com/twice-cli/twice/catalyst"
)

// FindingLargePayload: an input or output over the size threshold, or a
// run stalled for payload size.
const FindingLargePayload FindingID = "large-payload"

var largePayloadCheck = Check{
	ID:       FindingLargePayload,
	Title:    "an input or output over the size threshold",
	Short:    "large payload",
	Severity: SeverityLow,
	Doc: "An input or output over the size threshold (64 KiB unless configured), or a run stalled for " +
		"payload size: payloads are stored in the history, slow every replay and can exceed the state " +
		"store's limits. Medium from 3 MiB, near the 4 MiB gRPC limit at which Dapr stalls a run.",
	invocation: func(d *detector, k int) {
		if d.b.large[k] {
			d.largePayloads(k)
		}
	},
	run: (*detector).runPayloads,
}

// nearPayloadLimit is where a payload counts as near the 4 MiB gRPC body
// limit at which Dapr stalls a run.
const nearPayloadLimit = 3 << 20

// largePayloads flags an invocation's inputs and outputs over the threshold.
func (d *detector) largePayloads(k int) {
	inv := &d.b.invs[k]
	limit := d.opts.LargePayloadBytes
	var nums []int
	var ev []Evidence
	largest := 0
	check := func(a *Attempt, pos int, what string) {
		p := d.h.At(pos).Payload
		if !visible(p) {
			return
		}
		size, over := payloadOver(p, limit)
		if !over {
			return
		}
		largest = max(largest, size)
		if len(nums) == 0 || nums[len(nums)-1] != a.Number {
			nums = append(nums, a.Number)
		}
		ev = append(ev, d.evidenceOf(pos, d.ln.attempt(a.Number).str(" ").str(what).str(" is ").size(size).fact()))
	}
	for i := range inv.Attempts {
		a := &inv.Attempts[i]
		check(a, a.Scheduled, "input")
		if a.OutcomeEvent >= 0 && d.h.At(a.OutcomeEvent).Type.PayloadField() == "output" {
			check(a, a.OutcomeEvent, "output")
		}
	}
	if len(nums) == 0 {
		return
	}
	d.add(d.largeFinding(inv.Name, inv.Key, k, nums, ev, largest), inv.Attempts[0].Scheduled, k, -1)
}

func (d *detector) largeFinding(name, key string, k int, nums []int, ev []Evidence, largest int) Finding {
	sev := SeverityLow
	if largest >= nearPayloadLimit {
		sev = SeverityMedium
	}
	return Finding{
		ID:              FindingLargePayload,
		Severity:        sev,
		Confidence:      ConfidenceObserved,
		Activity:        name,
		Invocation:      key,
		InvocationIndex: k,
		Attempts:        nums,
		Evidence:        ev,
		Explanation: "Inputs and outputs are serialized into the workflow's history: a large payload slows every " +
			"later replay of this run and can exceed the state store's limits, a failure that surfaces late, under " +
			"load (Dapr stalls a run whose payload nears the 4 MiB gRPC limit).",
		Advice: "Pass identifiers, not documents: return a status and a reference, not a response body.",
	}
}

// payloadOver reports a payload's size when it is over limit, reading the
// wire form's length first so small payloads are never unquoted.
func payloadOver(p catalyst.Payload, limit int) (int, bool) {
	if lit, ok := p.WireLiteral(); ok && len(lit) <= limit {
		return 0, false
	}
	n := p.Size()
	return n, n > limit
}

// runPayloads flags the workflow's own large payloads and stalls for payload
// size.
func (d *detector) runPayloads() {
	limit := d.opts.LargePayloadBytes
	for _, pos32 := range d.s.runPayloadEvents {
		pos := int(pos32)
		e := d.h.At(pos)
		size, over := payloadOver(e.Payload, limit)
		if !over {
			continue
		}
		what := "the workflow's " + e.Type.PayloadField()
		if e.Type != catalyst.EventExecutionStarted && e.Type != catalyst.EventExecutionCompleted {
			what = "the " + e.TypeName() + " payload"
		}
		ev := []Evidence{d.evidenceOf(pos, d.ln.str(what).str(" is ").size(size).fact())}
		d.add(d.largeFinding(d.workflowName(), "", -1, nil, ev, size), pos, -1, -1)
	}
	for _, pos32 := range d.s.stalls {
		pos := int(pos32)
		e := d.h.At(pos)
		if e.Detail == nil || !mentionsPayloadSize(e.Detail.StallReason+" "+e.Detail.StallDescription) {
			continue
		}
		fact := "the run stalled: " + clip(e.Detail.StallReason, 40)
		if e.Detail.StallDescription != "" {
			fact += ": " + clip(e.Detail.StallDescription, 160)
		}
		f := d.largeFinding(d.workflowName(), "", -1, nil, []Evidence{d.evidence(pos, fact)}, nearPayloadLimit)
		d.add(f, pos, -1, -1)
	}
}

func mentionsPayloadSize(s string) bool {
	s = strings.ToLower(s)
	return strings.Contains(s, "payload_size") || strings.Contains(s, "payload size")
}

func (d *detector) workflowName() string {
	if d.h.Run.Workflow != "" {
		return d.h.Run.Workflow
	}
	return d.s.workflow
}
