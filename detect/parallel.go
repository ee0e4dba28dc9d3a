package detect

import (
	"maps"
	"runtime"
	"sync"
)

const (
	// minInvocationsPerWorker is the fewest invocations one goroutine of
	// the per-invocation checks is given: below it, starting goroutines
	// and merging their findings costs more than it saves.
	minInvocationsPerWorker = 8192
	// maxInvocationWorkers caps the goroutines the per-invocation checks
	// use, however many cores there are.
	maxInvocationWorkers = 4
)

// invocationWorkers returns how many goroutines the per-invocation checks
// of n invocations use: one per core, at most maxInvocationWorkers, each
// with at least minInvocationsPerWorker invocations.
func invocationWorkers(n int) int {
	return max(1, min(runtime.GOMAXPROCS(0), maxInvocationWorkers, n/minInvocationsPerWorker))
}

// check runs the catalogue's per-invocation checks on every invocation,
// then its run-wide ones (timeout races, a shared retry policy, the run's
// own payloads), with workers
// goroutines for the per-invocation checks and, beside them, one more for
// the run-wide checks. The invocations are split into contiguous ranges,
// each checked by a detector of its own (its own findings, skips,
// counters, text buffer and caches, and its own copy of the failure
// classes known so far), as are the run-wide checks; the results are then
// taken in the order one detector would have raised them: the ranges in
// invocation order, then the run-wide checks. The findings, their order
// and the skipped checks are therefore those of one detector doing every
// check in turn. (The run-wide checks read the invocations, never the
// findings.)
func (d *detector) check(workers int) {
	n := len(d.b.invs)
	workers = min(workers, n)
	if workers < 2 {
		for k := range n {
			d.invocationFindings(k)
		}
		d.runWide()
		return
	}
	fork := func() *detector {
		return &detector{s: d.s, h: d.h, b: d.b, opts: d.opts, rep: d.rep, ln: line{res: d.h.TimeResolution},
			fc: &failureClasses{cache: maps.Clone(d.fc.cache)}}
	}
	parts := make([]*detector, workers+1)
	for w := range parts {
		parts[w] = fork()
	}
	var wg sync.WaitGroup
	for w, p := range parts[:workers] {
		lo, hi := n*w/workers, n*(w+1)/workers
		wg.Go(func() {
			for k := lo; k < hi; k++ {
				p.invocationFindings(k)
			}
		})
	}
	wide := parts[workers]
	wg.Go(wide.runWide)
	wg.Wait()
	for _, p := range parts {
		d.takeFindings(p)
	}
}

// runWide runs the catalogue's run-wide checks, in its order.
func (d *detector) runWide() {
	for _, c := range catalogue {
		if c.run != nil {
			c.run(d)
		}
	}
}

// takeFindings appends what p found, skipped and counted to d's own, in
// the order p raised them. Into a detector that has found nothing yet, p's
// blocks of findings are taken as they are (all full but the last, as add
// keeps them).
func (d *detector) takeFindings(p *detector) {
	if d.nFound == 0 {
		d.found, d.nFound = p.found, p.nFound
		p.found, p.nFound = nil, 0
	}
	for _, block := range p.found {
		for i := range block {
			rf := &block[i]
			d.add(rf.f, rf.order, rf.inv1, rf.inv2)
		}
	}
	d.skipped = append(d.skipped, p.skipped...)
	d.hidden += p.hidden
	d.inputSkips += p.inputSkips
}
