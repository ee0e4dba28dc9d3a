package detect

import (
	"fmt"
	"math"
	"time"
)

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

// coefficient is the backoff coefficient the first two delays imply, or 0.
func (p *policySample) coefficient() float64 {
	if p.first <= 0 || p.second <= 0 {
		return 0
	}
	return float64(p.second) / float64(p.first)
}

// sharedRetryPolicy flags one backoff schedule (first interval and
// coefficient, inferred from each retry timer's fireAt minus the start of
// the turn that created it) retrying both a permanent rejection and a
// transient failure, in different activities of one run.
func (d *detector) sharedRetryPolicy(fc *failureClasses) {
	s := d.s
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
		delay := s.h.At(int(tr.pos)).FireAt.Sub(base)
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
			conf, ok := coefficientsMatch(p.coefficient(), t.coefficient())
			if !ok {
				continue
			}
			d.addSharedPolicy(p, t, conf)
			return
		}
	}
}

// coefficientsMatch compares two inferred coefficients: both known and
// within 15% is probable; one unknown is possible; both known and apart is
// no match.
func coefficientsMatch(a, b float64) (Confidence, bool) {
	if a == 0 || b == 0 {
		return ConfidencePossible, true
	}
	if math.Abs(a-b) <= 0.15*math.Max(a, b) {
		return ConfidenceProbable, true
	}
	return "", false
}

func (d *detector) addSharedPolicy(p, t *policySample, conf Confidence) {
	invP, invT := &d.b.invs[p.inv], &d.b.invs[t.inv]
	fact := func(smp *policySample, inv *Invocation, what string) Evidence {
		pos := int(d.s.timers[smp.firstTimer].pos)
		fe := d.s.h.At(int(d.s.attempts[smp.firstFailure].outcome))
		return d.evidence(pos, quoteName(inv.Name)+" retried after "+what+" ("+failureText(fe.Failure)+
			") by a retry timer with "+scheduleText(smp))
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

func scheduleText(p *policySample) string {
	text := "a " + fmtDuration(p.first) + " first backoff"
	if c := p.coefficient(); c > 0 {
		text += fmt.Sprintf(" (×%.1f)", c)
	}
	return text
}
