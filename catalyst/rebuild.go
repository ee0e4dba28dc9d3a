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
// from their elapsed values (each row's code, left in its Event's
// chainErr by the decoder, which it replaces) and records what it did in
// h.clock; execs are the rows' execDuration values, in row order. Two
// passes over the rows: one follows each chain and bounds its first row's
// time (growChain), one places the chain's rows (placeChain). When every
// It returns the earliest and latest times of all the rows.
func (h *History) rebuildFromElapsed(execs []execDuration) (first, last Stamp) {
	n := h.Len()
	p := placed{sorted: true}
	if n < 2 || h.TimeResolution != time.Second {
		h.clearCodes(0, n, &p)
		return p.first, p.last
	}
	var c spanClock
	done := 0 // rows before it are placed or cleared
	for i := 0; i < n; {
		if _, ok := h.printedSecond(i); !ok {
			i++
			continue
		}
		ch := h.growChain(execs, i)
		if ch.to-i >= 2 && !ch.contradicted {
			if !ch.whole {
				ch = h.boundChain(ch)
			}
			h.clearCodes(done, ch.from, &p)
			c.segs = append(c.segs, h.placeChain(ch, &p))
			done = ch.to
		}
		i = ch.next
	}
	h.clearCodes(done, n, &p)
	if len(c.segs) == 0 {
		return p.first, p.last
	}
	if !p.sorted {
		c.order = h.rebuiltOrder(c.segs, p.rows)
	}
	for _, s := range c.segs {
		// A chain's error only grows along it.
		c.maxErr = max(c.maxErr, time.Duration(h.At(int(s.to-1)).chainErr)+2*s.slack)
	}
	c.maxErr = min(max(c.maxErr, time.Nanosecond), maxRebuiltErr)
	h.clock = &c
	return p.first, p.last
}

// clearCodes clears the elapsed codes the decoder left in rows [from, to),
// which are not rebuilt, noting their times in p.
func (h *History) clearCodes(from, to int, p *placed) {
	for j := from; j < to; j++ {
		e := h.At(j)
		e.chainErr = 0
		p.span(e.Timestamp)
	}
}

// placed is what placing the chains found of the times: whether the
// rebuilt ones never go down in row order (sorted, prev), how many rows
// were rebuilt, and the earliest and latest time of all the rows.
type placed struct {
	rows        int
	sorted      bool
	prev        Stamp
	first, last Stamp
}

// span widens [first, last] to ts, unless it is absent or never.
func (p *placed) span(ts Stamp) {
	if ts == 0 || ts == StampNever {
		return
	}
	if p.first == 0 || ts < p.first {
		p.first = ts
	}
	p.last = max(p.last, ts)
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

// A row's elapsed (the time since the row above) is its code's ns, known
// to its code's err; where both rows have an eventId the CLI sorted them
// by it, not by time (dclient.go), so the difference may be -ns: twice ns
// more. The loops below say so inline: they run for every row.

// chain is a run of rows [from, to) whose times one chain of elapsed
// values ties; rebuilding goes on at row next (to ≤ next: the rows between
// are left as printed).
type chain struct {
	from, to, next int
	// [lo, hi) is where the first row's exact time may be given every
	// row's printed second and the chain's error; [slo, shi) the same
	// without the error, which keeps every rebuilt time in its printed
	// second where it is not empty. whole says they bound [from, to).
	lo, hi, slo, shi int64
	whole            bool
	// contradicted: an execDuration in the chain disagrees with it.
	contradicted bool
}

// growChain follows the chain that starts at row from as far as the
// elapsed values and printed seconds allow, bounding its first row's time
// as it goes, and checks it against the execDuration of any
// ExecutionCompleted row in it when it starts at the first row (from
// which the CLI measures that).
func (h *History) growChain(execs []execDuration, from int) chain {
	const sec = int64(time.Second)
	n := h.Len()
	s0, _ := h.printedSecond(from)
	ch := chain{from: from, to: n, next: n, lo: s0, hi: s0 + sec, slo: s0, shi: s0 + sec, whole: true}
	// loRow and hiRow are the rows that set the ends of [lo, hi).
	loRow, hiRow := from, from
	x := 0
	for x < len(execs) && int(execs[x].row) <= from {
		x++
	}
	// nextExec is the next row with an execDuration (n: none).
	nextExec := n
	if x < len(execs) {
		nextExec = int(execs[x].row)
	}
	badRow := n
	var c, e int64
	prevID := h.At(from).ID
	for j := from + 1; j < n; j++ {
		ev := h.At(j)
		code := elapsedCode(ev.chainErr)
		d, err := code.ns(), code.err()
		if prevID > 0 && ev.ID > 0 {
			err += 2 * d // sorted by eventId
		}
		prevID = ev.ID
		sj := int64(ev.Timestamp)
		if code == elapsedNone || sj == 0 || sj%sec != 0 { // StampNever is no whole second
			ch.to, ch.next = j, j
			break
		}
		c, e = c+d, e+err
		if e > int64(maxChainErr) {
			ch.to, ch.next = j, j
			break
		}
		jlo, jhi := sj-c-e, sj+sec-c+e
		switch {
		case jlo >= ch.hi:
			// The chain puts row j later than row hiRow's second allows:
			// an elapsed value after hiRow is wrong.
			ch.to, ch.next, ch.whole = hiRow+1, j, false
		case jhi <= ch.lo:
			ch.to, ch.next, ch.whole = loRow+1, j, false
		}
		if !ch.whole {
			break
		}
		if jlo > ch.lo {
			ch.lo, loRow = jlo, j
		}
		if jhi < ch.hi {
			ch.hi, hiRow = jhi, j
		}
		ch.slo, ch.shi = max(ch.slo, sj-c), min(ch.shi, sj+sec-c)
		if j == nextExec {
			for ; x < len(execs) && int(execs[x].row) == j; x++ {
				v, verr, ok := execs[x].code.value()
				if from == 0 && ok && abs64(c-int64(v)) > e+int64(verr) && badRow == n {
					badRow = j
				}
			}
			nextExec = n
			if x < len(execs) {
				nextExec = int(execs[x].row)
			}
		}
	}
	ch.contradicted = badRow < ch.to
	return ch
}

// boundChain bounds the first row's time of the chain [from, to) again:
// growChain's bounds took in rows past to.
func (h *History) boundChain(ch chain) chain {
	const sec = int64(time.Second)
	s0, _ := h.printedSecond(ch.from)
	ch.lo, ch.hi, ch.slo, ch.shi, ch.whole = s0, s0+sec, s0, s0+sec, true
	var c, e int64
	for j := ch.from + 1; j < ch.to; j++ {
		ev := h.At(j)
		code := elapsedCode(ev.chainErr)
		d, err := code.ns(), code.err()
		if h.At(j-1).ID > 0 && ev.ID > 0 {
			err += 2 * d // sorted by eventId
		}
		c, e = c+d, e+err
		sj := int64(ev.Timestamp)
		ch.lo, ch.hi = max(ch.lo, sj-c-e), min(ch.hi, sj+sec-c+e)
		ch.slo, ch.shi = max(ch.slo, sj-c), min(ch.shi, sj+sec-c)
	}
	return ch
}

// placeChain rebuilds the times of a chain: it puts the first row in the
// middle of the window every printed second leaves it (the strict one
// where it is not empty), and every row at the first's time plus the
// elapsed values since, within its printed second; each row's error since
// the first replaces its elapsed code.
func (h *History) placeChain(ch chain, p *placed) clockSeg {
	const sec = int64(time.Second)
	t0 := ch.lo + (ch.hi-ch.lo)/2
	if ch.slo < ch.shi {
		t0 = ch.slo + (ch.shi-ch.slo)/2
	}
	var slack, c, e int64
	prevID := int32(0)
	for j := ch.from; j < ch.to; j++ {
		ev := h.At(j)
		if j > ch.from {
			code := elapsedCode(ev.chainErr)
			d, err := code.ns(), code.err()
			if prevID > 0 && ev.ID > 0 {
				err += 2 * d // sorted by eventId
			}
			c, e = c+d, e+err
		}
		prevID = ev.ID
		sj := int64(ev.Timestamp)
		t := t0 + c
		pt := min(max(t, sj), sj+sec-1)
		if pt == sj {
			// A rebuilt time is never a whole second, so that a printed
			// time (a fireAt, a row not rebuilt) is never taken for one.
			pt++
		}
		slack = max(slack, abs64(pt-t))
		ts := Stamp(pt)
		ev.Timestamp, ev.chainErr = ts, uint32(e)
		if ts < p.prev {
			p.sorted = false
		}
		p.prev = ts
		p.span(ts)
		p.rows++
	}
	return clockSeg{from: int32(ch.from), to: int32(ch.to), slack: time.Duration(slack)}
}

// rebuiltOrder returns the rebuilt rows (total of them, in segs) in time
// order, for finding a rebuilt time's rows where their times go down in
// row order.
func (h *History) rebuiltOrder(segs []clockSeg, total int) []int32 {
	order := make([]int32, 0, total)
	for _, s := range segs {
		for i := s.from; i < s.to; i++ {
			order = append(order, i)
		}
	}
	slices.SortStableFunc(order, func(a, b int32) int {
		return cmp.Compare(h.At(int(a)).Timestamp, h.At(int(b)).Timestamp)
	})
	return order
}

func abs64(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}
