package detect

import (
	"fmt"
	"math"
	"time"

	"github.com/twice-cli/twice/catalyst"
)

// FindingSharedRetryPolicy: one backoff schedule retried both a permanent
// rejection and a transient failure.
const FindingSharedRetryPolicy FindingID = "shared-retry-policy"

var sharedPolicyCheck = Check{
	ID:       FindingSharedRetryPolicy,
	Title:    "one backoff schedule for a rejection and a transient failure",
	Short:    "shared policy",
	Severity: SeverityLow,
	Doc: "One backoff schedule (its first interval and coefficient, read from the retry timers) retried both " +
		"a permanent rejection and a transient failure, in different activities of one run: one retry " +
		"policy applied to every call retries rejections that can never succeed.",
	run: (*detector).sharedRetryPolicy,
}

// policySample is the backoff schedule one invocation's retry timers show,
// and the failure classes it retried.
type policySample struct {
	inv           int32
	first, second time.Duration // the first two retry delays (0: unknown)
	firstTimer    int32
	firstFailure  int32 // attempt record of the failure the first timer followed
	permanent     bool
	transient     bool
}

// coefficient is the backoff coefficient the first two delays imply, or 0
// when either is unknown.
func (p *policySample) coefficient() float64 {
	if p.first <= 0 || p.second <= 0 {
		return 0
	}
	return float64(p.second) / float64(p.first)
}

// coefficientRange is the range of coefficients the first two delays allow
// when each was measured between stamps of resolution res and so may be off
// by up to res (from whole-second stamps, 5 s then 10 s is anything from
// ×1.5 to ×2.75); lo = hi = coefficient() from exact stamps; 0, 0 when
// unknown, or when the first delay is within one step (from whole seconds,
// 1 s then 2 s allows any coefficient over ×0.5).
func (p *policySample) coefficientRange(res time.Duration) (lo, hi float64) {
	c := p.coefficient()
	if c == 0 || res <= 0 {
		return c, c
	}
	if p.first <= res {
		// The first delay may have been next to nothing: any coefficient
		// fits, which is not knowing it.
		return 0, 0
	}
	lo = float64(max(p.second-res, 0)) / float64(p.first+res)
	return lo, float64(p.second+res) / float64(p.first-res)
}

// coefficientText is "(×2.0)" where the delays tell the coefficient to a
// tenth: from exact stamps, or delays of at least coarseSteps steps of
// coarse ones; "" otherwise.
func (p *policySample) coefficientText(res time.Duration) string {
	c := p.coefficient()
	if c == 0 || (res > 0 && (p.first < coarseSteps*res || p.second < coarseSteps*res)) {
		return ""
	}
	return fmt.Sprintf(" (×%.1f)", c)
}

// coarseSteps is how many steps of the stamps' resolution a delay must span
// for the coefficient it gives to be printed as one number.
const coarseSteps = 10

// sharedRetryPolicy flags one backoff schedule (first interval and
// coefficient, inferred from each retry timer's fireAt minus the start of
// the turn that created it) retrying both a permanent rejection and a
// transient failure, in different activities of one run.
func (d *detector) sharedRetryPolicy() {
	s, fc := d.s, d.fc
	retried := 0
	for t := range s.timers {
		if s.timers[t].target >= 0 && s.timers[t].failure >= 0 {
			retried++
		}
	}
	samples := make([]policySample, 0, retried)
	// index maps an invocation to its sample, plus one (0: none yet).
	index := make([]int32, len(d.b.invs))
	for t := range s.timers {
		tr := &s.timers[t]
		if tr.target < 0 || tr.failure < 0 {
			continue
		}
		fe := s.h.At(int(s.attempts[tr.failure].outcome))
		base := tr.turnStart
		if base.IsZero() {
			base = fe.Timestamp
		}
		// fireAt is printed to the second wherever the times are (the
		// Dapr CLI's rows): the delay is measured as between printed
		// times, whatever the decoder rebuilt of the base.
		delay := s.h.Span(base, s.h.At(int(tr.pos)).FireAt).D
		if delay <= 0 {
			continue
		}
		inv := d.b.invOf[tr.failure]
		i := int(index[inv]) - 1
		if i < 0 {
			i = len(samples)
			index[inv] = int32(i + 1)
			samples = append(samples, policySample{inv: inv, first: delay, firstTimer: int32(t), firstFailure: tr.failure})
		} else if samples[i].second == 0 {
			samples[i].second = delay
		}
		switch fc.class(fe.Failure) {
		case FailurePermanent:
			samples[i].permanent = true
		case FailureAmbiguous, FailureSafe:
			samples[i].transient = true
		}
	}
	if len(samples) < 2 {
		return
	}
	// Cluster by first interval, quantized: whole-second timestamps (the
	// Dapr CLI) blur intervals by up to a second.
	quantum := 100 * time.Millisecond
	if d.h.Lossy {
		quantum = time.Second
	}
	var clusters [][]int
	byBucket := make(map[int64]int)
	for i := range samples {
		bucket := int64(math.Round(float64(samples[i].first) / float64(quantum)))
		c, ok := byBucket[bucket]
		if !ok {
			c = len(clusters)
			byBucket[bucket] = c
			clusters = append(clusters, nil)
		}
		clusters[c] = append(clusters[c], i)
	}
	for _, members := range clusters {
		d.sharedPolicyIn(samples, members)
	}
}

// sharedPolicyIn reports the first pair of one cluster where a permanent
// rejection and a transient failure of different activities were retried on
// compatible schedules.
func (d *detector) sharedPolicyIn(samples []policySample, members []int) {
	for _, pi := range members {
		p := &samples[pi]
		if !p.permanent {
			continue
		}
		for _, ti := range members {
			t := &samples[ti]
			if !t.transient || t.permanent || d.b.invs[t.inv].Name == d.b.invs[p.inv].Name {
				continue
			}
			pLo, pHi := p.coefficientRange(d.h.TimeResolution)
			tLo, tHi := t.coefficientRange(d.h.TimeResolution)
			conf, ok := coefficientsMatch(pLo, pHi, tLo, tHi)
			if !ok {
				continue
			}
			d.addSharedPolicy(p, t, conf)
			return
		}
	}
}

// coefficientsMatch compares two inferred coefficients, each a range
// [lo, hi] (a point from exact stamps; 0 when unknown): both known and some
// value of each within 15% of the other is probable; one unknown is
// possible; both known and apart is no match. From exact stamps this is
// |a−b| ≤ 15% of the larger; from whole-second stamps rounding alone
// neither makes nor breaks a match.
func coefficientsMatch(aLo, aHi, bLo, bHi float64) (Confidence, bool) {
	if aHi == 0 || bHi == 0 {
		return ConfidencePossible, true
	}
	if aLo <= bHi/0.85 && bLo <= aHi/0.85 {
		return ConfidenceProbable, true
	}
	return "", false
}

func (d *detector) addSharedPolicy(p, t *policySample, conf Confidence) {
	invP, invT := &d.b.invs[p.inv], &d.b.invs[t.inv]
	fact := func(smp *policySample, inv *Invocation, what string) Evidence {
		pos := int(d.s.timers[smp.firstTimer].pos)
		fe := d.s.h.At(int(d.s.attempts[smp.firstFailure].outcome))
		l := d.ln.str(quoteName(inv.Name)).str(" retried after ").str(what).str(" (").str(failureText(fe.Failure)).
			str(") by a retry timer with a ").spanOf(catalyst.Span{D: smp.first, Err: d.h.TimeResolution, Step: d.h.TimeResolution}).str(" first backoff").str(smp.coefficientText(d.h.TimeResolution))
		return d.evidenceOf(pos, l.fact())
	}
	ev := []Evidence{
		fact(p, invP, "a permanent failure"),
		fact(t, invT, "a transient failure"),
	}
	order := min(ev[0].Event, ev[1].Event)
	d.add(Finding{
		ID:              FindingSharedRetryPolicy,
		Severity:        SeverityLow,
		Confidence:      conf,
		Activity:        invP.Name,
		InvocationIndex: -1,
		Evidence:        ev,
		Explanation: "One backoff schedule retried both a permanent rejection (" + quoteName(invP.Name) +
			") and a transient failure (" + quoteName(invT.Name) + "): one retry policy applied to every call " +
			"retries rejections that can never succeed on the same schedule as transient failures.",
		Advice: "One retry policy per failure class: give call sites that can raise a business rejection no retry " +
			"policy, or return the rejection as data; reserve the policy for transient failures.",
	}, order, int(p.inv), int(t.inv))
}
