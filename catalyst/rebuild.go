package catalyst

import (
	"cmp"
	"slices"
	"time"
)

// Rebuilding the Dapr CLI's times. Each row prints its time truncated to
// the second and, in elapsed, the time since the row above measured
// between the engine's exact times (elapsed.go). Within a run of rows
// whose elapsed values are all readable, a row's exact time is the first
// row's plus the elapsed values since, each off by at most half its
// printed last digit: a chain. The first row's own time is not printed,
// but every row's printed second bounds it: the chain must put each row in
// its second. Where the bounds leave some choice (they always leave a
// window: the CLI never prints anything finer), the first row is put in
// the middle of it, so every rebuilt time keeps its printed second and a
// span between two rebuilt times is the sum of the elapsed values between
// them, off by the sum of their errors. The absolute times are no better
// than the window, so instants are still shown as printed
// (History.Printed); only spans gain.
//
// The CLI sorts the rows before it measures (dapr/cli v1.18.0
// pkg/workflow/dclient/dclient.go InstanceHistory): by eventId where both
// rows have a positive one, else by time. A row and the one above are in
// time order unless both have a positive eventId (two of a turn's actions,
// which durabletask-go v0.12.1 appends in map order): there the elapsed is
// the size of a difference that may be negative, and is taken as positive
// with twice its size added to the error. (The CLI's stable sort is an
// insertion sort with merges; the comparator mixes two keys, so this
// holds of neighbours that an insertion pass placed, which on every
// generated history is all of them.)
//
// A chain ends where a row's elapsed is unreadable, missing, or in minutes
// or hours (±3 s or more: no better than the printed second), where its
// error passes maxChainErr, and where the printed seconds contradict it:
// a row the chain puts outside the second it printed, whatever the first
// row's time, shows that some elapsed value between it and the row that
// bounds the window is wrong, and the rows in between are not rebuilt.
// An ExecutionCompleted row's execDuration (its details: its time less the
// first row's, measured the same way) checks the chain from the first row;
// a chain it contradicts is not rebuilt. Rows not rebuilt keep their
// printed second, and a span with such a row at either end, or between
// two chains, is known only to ±1 s.

// execDuration is an ExecutionCompleted row's execDuration, from its
// details: the time from the first row to it, as the CLI measured it.
type execDuration struct {
	row  int32
	code elapsedCode
}

// maxChainErr is the most error a chain may gather before it ends: past
// it no span along it could be shown finer than the printed seconds.
const maxChainErr = time.Second

// rebuildFromElapsed replaces the timestamps of the rows it can rebuild
// from their elapsed values (el, one per event) and records what it did in
// h.clock; execs are the rows' execDuration values, in row order.
func (h *History) rebuildFromElapsed(el []elapsedCode, execs []execDuration) {
	n := h.Len()
	if n < 2 || len(el) != n || h.TimeResolution != time.Second {
		return
	}
	var c spanClock
	for i := 0; i < n; {
		if _, ok := h.printedSecond(i); !ok {
			i++
			continue
		}
		to, next := h.growChain(el, i)
		if to-i >= 2 {
			if seg, ok := h.placeChain(el, execs, i, to); ok {
				c.segs = append(c.segs, seg)
			}
		}
		i = next
	}
	if len(c.segs) == 0 {
		return
	}
	c.order = h.rebuiltOrder(c.segs)
	for _, s := range c.segs {
		// A chain's error only grows along it.
		c.maxErr = max(c.maxErr, time.Duration(h.At(int(s.to-1)).chainErr)+2*s.slack)
	}
	c.maxErr = min(max(c.maxErr, time.Nanosecond), maxRebuiltErr)
	h.clock = &c
}

// printedSecond returns row i's printed time in nanoseconds; ok is false
// when it has none or it is not a whole second (not the CLI's).
func (h *History) printedSecond(i int) (int64, bool) {
	ts := h.At(i).Timestamp
	if ts.IsZero() || ts.IsNever() || ts%Stamp(time.Second) != 0 {
		return 0, false
	}
	return int64(ts), true
}

// step returns row j's elapsed (the time since row j-1) and its error;
// ok is false when it says nothing usable.
func (h *History) step(el []elapsedCode, j int) (d, err int64, ok bool) {
	v, e, ok := el[j].value()
	if !ok {
		return 0, 0, false
	}
	if h.At(j-1).ID > 0 && h.At(j).ID > 0 {
		// Sorted by eventId, not time: the difference may be -v.
		e += 2 * v
	}
	return int64(v), int64(e), true
}

// growChain follows the chain that starts at row from as far as the
// elapsed values and printed seconds allow. The rows [from, to) are one
// chain; rebuilding goes on at row next (to ≤ next: the rows between are
// left as printed).
func (h *History) growChain(el []elapsedCode, from int) (to, next int) {
	const sec = int64(time.Second)
	n := h.Len()
	s0, _ := h.printedSecond(from)
	// [lo, hi) is where the first row's exact time may be, given every
	// row so far with the chain's error; loRow and hiRow are the rows
	// that set its ends.
	lo, hi := s0, s0+sec
	loRow, hiRow := from, from
	var c, e int64
	for j := from + 1; j < n; j++ {
		d, err, ok := h.step(el, j)
		sj, okj := h.printedSecond(j)
		if !ok || !okj {
			return j, j
		}
		c, e = c+d, e+err
		if e > int64(maxChainErr) {
			return j, j
		}
		jlo, jhi := sj-c-e, sj+sec-c+e
		switch {
		case jlo >= hi:
			// The chain puts row j later than row hiRow's second allows:
			// an elapsed value after hiRow is wrong.
			return hiRow + 1, j
		case jhi <= lo:
			return loRow + 1, j
		}
		if jlo > lo {
			lo, loRow = jlo, j
		}
		if jhi < hi {
			hi, hiRow = jhi, j
		}
	}
	return n, n
}

// placeChain rebuilds the times of the chain [from, to): it checks it
// against the execDuration of any ExecutionCompleted row in it (when it
// starts at the first row, from which the CLI measures that), then puts
// the first row in the middle of the window every printed second leaves
// it, and every row at the first's time plus the elapsed values since.
// ok is false when execDuration contradicts the chain.
func (h *History) placeChain(el []elapsedCode, execs []execDuration, from, to int) (clockSeg, bool) {
	const sec = int64(time.Second)
	s0, _ := h.printedSecond(from)
	// The window without the chain's error (strict), where it is not
	// empty, keeps every rebuilt time in its printed second; the one with
	// it (lo, hi) always holds the first row's true time.
	slo, shi := s0, s0+sec
	lo, hi := slo, shi
	x := 0
	for x < len(execs) && int(execs[x].row) <= from {
		x++
	}
	var c, e int64
	for j := from + 1; j < to; j++ {
		d, err, _ := h.step(el, j)
		c, e = c+d, e+err
		sj, _ := h.printedSecond(j)
		slo, shi = max(slo, sj-c), min(shi, sj+sec-c)
		lo, hi = max(lo, sj-c-e), min(hi, sj+sec-c+e)
		for ; x < len(execs) && int(execs[x].row) == j; x++ {
			if from != 0 {
				continue
			}
			v, verr, ok := execs[x].code.value()
			if ok && abs64(c-int64(v)) > e+int64(verr) {
				return clockSeg{}, false
			}
		}
	}
	t0 := lo + (hi-lo)/2
	if slo < shi {
		t0 = slo + (shi-slo)/2
	}
	var slack int64
	c, e = 0, 0
	for j := from; j < to; j++ {
		if j > from {
			d, err, _ := h.step(el, j)
			c, e = c+d, e+err
		}
		sj, _ := h.printedSecond(j)
		t := t0 + c
		pt := min(max(t, sj), sj+sec-1)
		if pt == sj {
			// A rebuilt time is never a whole second, so that a printed
			// time (a fireAt, a row not rebuilt) is never taken for one.
			pt++
		}
		slack = max(slack, abs64(pt-t))
		ev := h.At(j)
		ev.Timestamp = Stamp(pt)
		ev.chainErr = uint32(e)
	}
	return clockSeg{from: int32(from), to: int32(to), slack: time.Duration(slack)}, true
}

// rebuiltOrder returns the rebuilt rows in time order, or nil when every
// row is rebuilt and the history's order is already that.
func (h *History) rebuiltOrder(segs []clockSeg) []int32 {
	covered := segs[0].from == 0 && int(segs[len(segs)-1].to) == h.Len()
	total := 0
	for i, s := range segs {
		total += int(s.to - s.from)
		if i > 0 && s.from != segs[i-1].to {
			covered = false
		}
	}
	sorted := true
	var prev Stamp
	for _, s := range segs {
		for i := s.from; i < s.to; i++ {
			ts := h.At(int(i)).Timestamp
			if ts < prev {
				sorted = false
			}
			prev = ts
		}
	}
	if covered && sorted {
		return nil
	}
	order := make([]int32, 0, total)
	for _, s := range segs {
		for i := s.from; i < s.to; i++ {
			order = append(order, i)
		}
	}
	if !sorted {
		slices.SortStableFunc(order, func(a, b int32) int {
			return cmp.Compare(h.At(int(a)).Timestamp, h.At(int(b)).Timestamp)
		})
	}
	return order
}

func abs64(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}
