package rundiff

import (
	"cmp"
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/safetext"
	"github.com/twice-cli/twice/detect"
)

// comparer compares the pairs of two runs and the runs themselves.
type comparer struct {
	a, b Run
	opts Options
	// uncompared says, per side, why a payload was not compared (the
	// payload's state), each once.
	uncompared [2]map[catalyst.PayloadState]bool
}

// pairsPerWorker is the least number of pairs worth a goroutine of their
// own: a million-event run has a quarter of a million calls.
const pairsPerWorker = 20_000

// pairs compares every pair, on as many goroutines as there are cores
// (each pair is independent), and gathers what each could not compare.
func (c *comparer) pairs(pairs []Pair) {
	workers := max(1, min(runtime.GOMAXPROCS(0), len(pairs)/pairsPerWorker))
	if workers == 1 {
		for i := range pairs {
			c.pair(&pairs[i])
		}
		return
	}
	parts := make([]comparer, workers)
	var wg sync.WaitGroup
	for w := range parts {
		parts[w] = comparer{a: c.a, b: c.b, opts: c.opts}
		lo, hi := w*len(pairs)/workers, (w+1)*len(pairs)/workers
		wg.Go(func() {
			for i := lo; i < hi; i++ {
				parts[w].pair(&pairs[i])
			}
		})
	}
	wg.Wait()
	for w := range parts {
		for side := range parts[w].uncompared {
			for st := range parts[w].uncompared[side] {
				c.skip(Side(side+1), st)
			}
		}
	}
}

// pair lists what differs between the two invocations of p, worst first.
func (c *comparer) pair(p *Pair) {
	var ch []Change
	switch p.Aligned {
	case OnlyInA, OnlyInB:
		r, i, side := c.a, p.A, SideA
		if p.Aligned == OnlyInB {
			r, i, side = c.b, p.B, SideB
		}
		inv := &r.Report.Invocations[i]
		facts := []detect.Fact{detect.Words(plural(len(inv.Attempts), "attempt")), detect.Words(inv.Outcome.String())}
		ch = append(ch, sided(ChangeOnlyIn, side, facts))
		for _, f := range inv.Findings {
			ch = append(ch, findingChange(side, &r.Report.Findings[f]))
		}
	default:
		ia, ib := &c.a.Report.Invocations[p.A], &c.b.Report.Invocations[p.B]
		onlyA, onlyB := matchFindings(c.a.Report, ia.Findings, c.b.Report, ib.Findings)
		for _, f := range onlyA {
			ch = append(ch, findingChange(SideA, &c.a.Report.Findings[f]))
		}
		for _, f := range onlyB {
			ch = append(ch, findingChange(SideB, &c.b.Report.Findings[f]))
		}
		ch = c.calls(ch, ia, ib)
	}
	slices.SortStableFunc(ch, func(x, y Change) int { return cmp.Compare(rankOf(x), rankOf(y)) })
	p.Changes = ch
}

// calls compares two aligned invocations' attempts, outcome, retry
// schedule, duration, input and output.
func (c *comparer) calls(ch []Change, ia, ib *detect.Invocation) []Change {
	ha, hb := c.a.History, c.b.History
	if na, nb := len(ia.Attempts), len(ib.Attempts); na != nb {
		ch = append(ch, Change{Kind: ChangeAttempts, A: one(plural(na, "attempt")), B: one(plural(nb, "attempt"))})
	}
	if fa, fb := failures(ia), failures(ib); fa != fb {
		ch = append(ch, Change{Kind: ChangeFailures, A: one(plural(fa, "failure")), B: one(plural(fb, "failure"))})
	}
	if ta, tb := errorTypes(ia), errorTypes(ib); !slices.Equal(ta, tb) {
		ch = append(ch, Change{Kind: ChangeErrorTypes, A: words(ta), B: words(tb)})
	}
	if ia.Outcome != ib.Outcome {
		ch = append(ch, Change{Kind: ChangeOutcome, A: one(ia.Outcome.String()), B: one(ib.Outcome.String())})
	}
	da, db := retryDelays(ha, ia), retryDelays(hb, ib)
	if delaysDiffer(da, db) {
		ch = append(ch, Change{Kind: ChangeRetryDelays, A: spanFacts(da), B: spanFacts(db)})
	}
	if ca, cb := coefficient(da), coefficient(db); ca > 0 && cb > 0 && (ca-cb > 0.15 || cb-ca > 0.15) {
		ch = append(ch, Change{Kind: ChangeRetryCoefficient, A: one(times(ca)), B: one(times(cb))})
	}
	if !ia.Start.IsZero() && !ia.End.IsZero() && !ib.Start.IsZero() && !ib.End.IsZero() {
		if sa, sb := ia.Took(ha), ib.Took(hb); durationsDiffer(sa, sb) {
			ch = append(ch, Change{Kind: ChangeDuration, A: []detect.Fact{spanFact(sa)}, B: []detect.Fact{spanFact(sb)}})
		}
	}
	if pa, pb, ok := c.inputs(ia, ib); ok {
		if d, ok := c.payloads(ChangeInput, pa, pb); ok {
			ch = append(ch, d)
		}
	}
	if pa, pb, ok := c.outputs(ia, ib); ok {
		if d, ok := c.payloads(ChangeOutput, pa, pb); ok {
			ch = append(ch, d)
		}
	}
	return ch
}

// inputs returns the inputs of the two invocations' first attempts.
func (c *comparer) inputs(ia, ib *detect.Invocation) (pa, pb catalyst.Payload, ok bool) {
	if len(ia.Attempts) == 0 || len(ib.Attempts) == 0 {
		return pa, pb, false
	}
	return c.a.History.At(ia.Attempts[0].Scheduled).Payload, c.b.History.At(ib.Attempts[0].Scheduled).Payload, true
}

// outputs returns the outputs of the two invocations when both completed.
func (c *comparer) outputs(ia, ib *detect.Invocation) (pa, pb catalyst.Payload, ok bool) {
	if ia.Outcome != detect.OutcomeCompleted || ib.Outcome != detect.OutcomeCompleted {
		return pa, pb, false
	}
	la, lb := &ia.Attempts[len(ia.Attempts)-1], &ib.Attempts[len(ib.Attempts)-1]
	if la.OutcomeEvent < 0 || lb.OutcomeEvent < 0 {
		return pa, pb, false
	}
	return c.a.History.At(la.OutcomeEvent).Payload, c.b.History.At(lb.OutcomeEvent).Payload, true
}

// payloads compares a payload both runs show. A payload one side does not
// show (withheld, redacted, not requested, not in its format) is not
// compared: Compare says so once for the run (ChangeNotCompared), never
// that it changed.
func (c *comparer) payloads(kind ChangeKind, pa, pb catalyst.Payload) (Change, bool) {
	if hidden(pa.State) || hidden(pb.State) {
		c.skip(SideA, pa.State)
		c.skip(SideB, pb.State)
		return Change{}, false
	}
	if la, ok := pa.WireLiteral(); ok {
		if lb, ok := pb.WireLiteral(); ok && la == lb {
			return Change{}, false // the same literal: the same text, without unquoting either
		}
	}
	ta, tb := pa.Text(), pb.Text()
	if pa.Has() && pb.Has() {
		if sameCut(ta, tb, c.a.History.PayloadCut, c.b.History.PayloadCut) {
			return Change{}, false
		}
		return Change{Kind: kind, A: one(payloadWords(ta)), B: one(payloadWords(tb))}, true
	}
	// One side or both has none: none, empty, or none-or-empty.
	if pa.State == pb.State || pa.State == catalyst.PayloadNoneOrEmpty && !pb.Has() ||
		pb.State == catalyst.PayloadNoneOrEmpty && !pa.Has() {
		return Change{}, false
	}
	return Change{Kind: kind, A: one(payloadState(pa)), B: one(payloadState(pb))}, true
}

// hidden reports whether a payload in this state is not shown by its
// source, so that it cannot be compared.
func hidden(s catalyst.PayloadState) bool {
	switch s {
	case catalyst.PayloadWithheld, catalyst.PayloadRedacted, catalyst.PayloadNotRequested, catalyst.PayloadNotInFormat:
		return true
	}
	return false
}

// skip records that a side's payload in state s was not compared.
func (c *comparer) skip(side Side, s catalyst.PayloadState) {
	if !hidden(s) {
		return
	}
	m := &c.uncompared[side-1]
	if *m == nil {
		*m = make(map[catalyst.PayloadState]bool)
	}
	(*m)[s] = true
}

// payloadState words a payload with no text.
func payloadState(p catalyst.Payload) string {
	if p.Has() {
		return payloadWords(p.Text())
	}
	return catalyst.DataSharing{}.PayloadText(p)
}

// payloadShown caps the text of a payload a change shows.
const payloadShown = 100

// payloadWords is a payload's text as a change shows it: one line, cut.
func payloadWords(text string) string { return clip(safetext.Line(text), payloadShown) }

// sameCut reports whether two payload texts are the same as far as both
// sources show them: a source that cuts payloads (the Dapr CLI, at 120
// characters and "…") shows only their start.
func sameCut(a, b string, cutA, cutB int) bool {
	if a == b {
		return true
	}
	const ellipsis = "…"
	ca := cutA > 0 && strings.HasSuffix(a, ellipsis)
	cb := cutB > 0 && strings.HasSuffix(b, ellipsis)
	if !ca && !cb {
		return false
	}
	if ca {
		a = strings.TrimSuffix(a, ellipsis)
	}
	if cb {
		b = strings.TrimSuffix(b, ellipsis)
	}
	n := min(len(a), len(b))
	if ca && cb || ca && len(a) <= len(b) || cb && len(b) <= len(a) {
		return a[:n] == b[:n]
	}
	return false
}

// failures counts an invocation's failed attempts.
func failures(inv *detect.Invocation) int {
	n := 0
	for i := range inv.Attempts {
		if inv.Attempts[i].Outcome == detect.OutcomeFailed {
			n++
		}
	}
	return n
}

// errorTypes lists the error types of an invocation's failures, each once
// with how many failures had it ("ReadTimeout ×2"), in the order they
// first failed; a failure with no type is "no error type".
func errorTypes(inv *detect.Invocation) []string {
	var names []string
	var counts []int
	for i := range inv.Attempts {
		f := inv.Attempts[i].Failure
		if inv.Attempts[i].Outcome != detect.OutcomeFailed || f == nil {
			continue
		}
		t := f.Type
		if t == "" {
			t = "no error type"
		}
		k := slices.Index(names, t)
		if k < 0 {
			k = len(names)
			names, counts = append(names, t), append(counts, 0)
		}
		counts[k]++
	}
	for i, n := range names {
		names[i] = clip(safetext.Line(n), 80)
		if counts[i] > 1 {
			names[i] += " ×" + strconv.Itoa(counts[i])
		}
	}
	return names
}

// retryDelays are the waits before an invocation's retries, as its
// history measures them: from a failure to its retry timer's fireAt (the
// policy's delay), or, with no timer, to the retry's scheduling.
func retryDelays(h *catalyst.History, inv *detect.Invocation) []catalyst.Span {
	var out []catalyst.Span
	for i := 1; i < len(inv.Attempts); i++ {
		a, prev := &inv.Attempts[i], &inv.Attempts[i-1]
		switch {
		case a.RetryTimer != nil && !a.RetryTimer.FireAt.IsZero() && !prev.End.IsZero():
			out = append(out, h.Span(prev.End, a.RetryTimer.FireAt))
		case a.BackoffBefore > 0:
			out = append(out, a.Backoff(h))
		}
	}
	return out
}

// delaysDiffer reports whether two retry schedules differ: one retried and
// the other did not, or a delay they both have differs beyond what the
// sources can tell apart.
func delaysDiffer(a, b []catalyst.Span) bool {
	if (len(a) == 0) != (len(b) == 0) {
		return true
	}
	for i := range min(len(a), len(b)) {
		if spansDiffer(a[i], b[i], 10, 0) {
			return true
		}
	}
	return false
}

// durationFloor is the least difference of two durations Compare reports:
// under it a run's scheduling jitter is no news.
const durationFloor = 100 * time.Millisecond

// durationsDiffer reports whether two invocations' durations differ: by
// more than both spans' error together, by a quarter of the longer at
// least, and by durationFloor at least.
func durationsDiffer(a, b catalyst.Span) bool { return spansDiffer(a, b, 4, durationFloor) }

// spansDiffer reports whether two measured spans differ by more than both
// their errors allow, by 1/frac of the longer at least, and by floor.
func spansDiffer(a, b catalyst.Span, frac int64, floor time.Duration) bool {
	d := a.D - b.D
	if d < 0 {
		d = -d
	}
	tol := errOf(a) + errOf(b)
	longer := max(abs(a.D), abs(b.D))
	return d > tol && d >= floor && int64(d)*frac >= int64(longer)
}

// errOf is how far a span may be off either way.
func errOf(s catalyst.Span) time.Duration { return max(s.Err, s.Step) }

func abs(d time.Duration) time.Duration {
	if d < 0 {
		return -d
	}
	return d
}

// coarseSteps is how many steps of a source's printed times a delay must
// span for a coefficient to be told from it (detect's shared-retry-policy
// asks as much).
const coarseSteps = 10

// coefficient is the backoff coefficient the first two delays imply, or 0
// when they cannot tell it (fewer than two; too short for their error).
func coefficient(d []catalyst.Span) float64 {
	if len(d) < 2 || d[0].D <= 0 || d[1].D <= 0 {
		return 0
	}
	for _, s := range d[:2] {
		if e := errOf(s); e > 0 && s.D < coarseSteps*e {
			return 0
		}
	}
	return float64(d[1].D) / float64(d[0].D)
}

// times words a coefficient: "×2.0".
func times(c float64) string { return fmt.Sprintf("×%.1f", c) }

// matchFindings returns the findings of fa (positions in ra.Findings) that
// fb has none of the same id to match, and those of fb likewise.
func matchFindings(ra *detect.Report, fa []int, rb *detect.Report, fb []int) (onlyA, onlyB []int) {
	return matchBy(ra, fa, rb, fb, func(a, b *detect.Finding) bool { return a.ID == b.ID })
}

// matchBy returns the findings of fa (positions in ra.Findings) that no
// unused finding of fb matches (same), and those of fb left unmatched.
func matchBy(ra *detect.Report, fa []int, rb *detect.Report, fb []int, same func(a, b *detect.Finding) bool) (onlyA, onlyB []int) {
	used := make([]bool, len(fb))
next:
	for _, i := range fa {
		for k, j := range fb {
			if !used[k] && same(&ra.Findings[i], &rb.Findings[j]) {
				used[k] = true
				continue next
			}
		}
		onlyA = append(onlyA, i)
	}
	for k, j := range fb {
		if !used[k] {
			onlyB = append(onlyB, j)
		}
	}
	return onlyA, onlyB
}

// runWide lists the positions of a report's run-wide findings.
func runWide(r *detect.Report) []int {
	var out []int
	for i := range r.Findings {
		if r.Findings[i].InvocationIndex < 0 {
			out = append(out, i)
		}
	}
	return out
}

// matchRunWide is matchFindings for run-wide findings: the same id about
// the same activity.
func matchRunWide(ra, rb *detect.Report) (onlyA, onlyB []int) {
	return matchBy(ra, runWide(ra), rb, runWide(rb), func(a, b *detect.Finding) bool {
		return a.ID == b.ID && a.Activity == b.Activity
	})
}

// findingChanges lists the findings only one run has: those of the
// invocations of pairs (in the order of pairs), then the run-wide ones;
// most severe first.
func findingChanges(a, b Run, pairs []Pair) []FindingChange {
	var out []FindingChange
	for k := range pairs {
		p := &pairs[k]
		switch {
		case p.A < 0:
			for _, f := range b.Report.Invocations[p.B].Findings {
				out = append(out, FindingChange{Side: SideB, Index: f, Pair: k})
			}
		case p.B < 0:
			for _, f := range a.Report.Invocations[p.A].Findings {
				out = append(out, FindingChange{Side: SideA, Index: f, Pair: k})
			}
		default:
			onlyA, onlyB := matchFindings(a.Report, a.Report.Invocations[p.A].Findings, b.Report, b.Report.Invocations[p.B].Findings)
			for _, f := range onlyA {
				out = append(out, FindingChange{Side: SideA, Index: f, Pair: k})
			}
			for _, f := range onlyB {
				out = append(out, FindingChange{Side: SideB, Index: f, Pair: k})
			}
		}
	}
	onlyA, onlyB := matchRunWide(a.Report, b.Report)
	for _, f := range onlyA {
		out = append(out, FindingChange{Side: SideA, Index: f, Pair: -1})
	}
	for _, f := range onlyB {
		out = append(out, FindingChange{Side: SideB, Index: f, Pair: -1})
	}
	sev := func(c FindingChange) detect.Severity {
		if c.Side == SideB {
			return b.Report.Findings[c.Index].Severity
		}
		return a.Report.Findings[c.Index].Severity
	}
	slices.SortStableFunc(out, func(x, y FindingChange) int { return cmp.Compare(sev(y), sev(x)) })
	return out
}

// findingChange is a change for a finding only side has.
func findingChange(side Side, f *detect.Finding) Change {
	words := string(f.ID) + " (" + f.Severity.String() + ", " + string(f.Confidence) + ")"
	c := sided(ChangeFinding, side, one(words))
	c.Severity, c.Finding = f.Severity, f.ID
	return c
}

// sided is a change that only side shows anything of.
func sided(kind ChangeKind, side Side, facts []detect.Fact) Change {
	if side == SideB {
		return Change{Kind: kind, B: facts}
	}
	return Change{Kind: kind, A: facts}
}

// one is a single fact of words.
func one(s string) []detect.Fact { return []detect.Fact{detect.Words(s)} }

// words is a fact of words each.
func words(ss []string) []detect.Fact {
	var out []detect.Fact
	for _, s := range ss {
		out = append(out, detect.Words(s))
	}
	return out
}

// spanFact states a measured span.
func spanFact(sp catalyst.Span) detect.Fact {
	return detect.Fact{Kind: detect.MeasureSpan, Value: int64(sp.D), Err: sp.Err, Resolution: sp.Step}
}

// spanFacts states measured spans, one fact each.
func spanFacts(sps []catalyst.Span) []detect.Fact {
	var out []detect.Fact
	for _, sp := range sps {
		out = append(out, spanFact(sp))
	}
	return out
}

// plural says a count of things: "1 attempt", "3 attempts".
func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

// clip cuts s (one safe line) to at most n runes, ending it with "…".
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	runes := 0
	for i := range s {
		if runes == n-1 {
			if utf8.RuneCountInString(s[i:]) <= 1 {
				return s
			}
			return s[:i] + "…"
		}
		runes++
	}
	return s
}
