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
// from their elapsed values (el, one per event, which it uses up) and
// records what it did in h.clock; execs are the rows' execDuration values,
// in row order. Two passes over the rows: one follows each chain and
// bounds its first row's time (growChain), one places the chain's rows
// (placeChain). When every row was rebuilt, it returns the earliest and
// latest of their times (all, false otherwise).
func (h *History) rebuildFromElapsed(el []elapsedCode, execs []execDuration) (first, last Stamp, all bool) {
	n := h.Len()
	if n < 2 || len(el) != n || h.TimeResolution != time.Second {
		return 0, 0, false
	}
	var c spanClock
	p := placed{sorted: true}
	for i := 0; i < n; {
		if _, ok := h.printedSecond(i); !ok {
			i++
			continue
		}
		ch := h.growChain(el, execs, i)
		switch {
		case ch.to-i < 2:
		case ch.contradicted:
			h.dropChain(ch.from, ch.next)
		default:
			if !ch.whole {
				h.dropChain(ch.to, ch.next)
				ch = h.boundChain(el, ch)
			}
			c.segs = append(c.segs, h.placeChain(el, ch, &p))
		}
		i = ch.next
	}
	if len(c.segs) == 0 {
		return 0, 0, false
	}
	all = c.segs[0].from == 0 && p.rows == n
	c.order = h.rebuiltOrder(c.segs, p.rows, all && p.sorted, p.sorted)
	for _, s := range c.segs {
		// A chain's error only grows along it.
		c.maxErr = max(c.maxErr, time.Duration(h.At(int(s.to-1)).chainErr)+2*s.slack)
	}
	c.maxErr = min(max(c.maxErr, time.Nanosecond), maxRebuiltErr)
	h.clock = &c
	return p.first, p.last, all
}

// placed is what placing the chains found of the rebuilt times, in row
// order: how many, whether they never go down, the earliest and latest.
type placed struct {
	rows        int
	sorted      bool
	prev        Stamp
	first, last Stamp
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
// which the CLI measures that). For each row it takes in, it records its
// error since row from (chainErr) and, in place of its elapsed, its offset
// from row from less the printed seconds between them (placeChain).
func (h *History) growChain(el []elapsedCode, execs []execDuration, from int) chain {
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
	first := h.At(from)
	first.chainErr = 0
	prevID := first.ID
	for j := from + 1; j < n; j++ {
		ev := h.At(j)
		v, verr, ok := el[j].value()
		if prevID > 0 && ev.ID > 0 {
			// Sorted by eventId, not time: the difference may be -v.
			verr += 2 * v
		}
		prevID = ev.ID
		sj := int64(ev.Timestamp)
		if !ok || sj == 0 || sj%sec != 0 { // StampNever is no whole second
			ch.to, ch.next = j, j
			break
		}
		c, e = c+int64(v), e+int64(verr)
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
		el[j] = elapsedCode(c - (sj - s0))
		ev.chainErr = uint32(e)
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

// dropChain clears what growChain recorded in rows [from, to) that are
// not rebuilt after all.
func (h *History) dropChain(from, to int) {
	for j := from; j < to; j++ {
		h.At(j).chainErr = 0
	}
}

// offset is row j's offset from its chain's first row, from what growChain
// left in el and the printed seconds.
func (h *History) offset(el []elapsedCode, ch chain, j int) int64 {
	if j == ch.from {
		return 0
	}
	return int64(el[j]) + int64(h.At(j).Timestamp-h.At(ch.from).Timestamp)
}

// boundChain bounds the first row's time of the chain [from, to) again:
// growChain's bounds took in rows past to.
func (h *History) boundChain(el []elapsedCode, ch chain) chain {
	const sec = int64(time.Second)
	s0, _ := h.printedSecond(ch.from)
	ch.lo, ch.hi, ch.slo, ch.shi, ch.whole = s0, s0+sec, s0, s0+sec, true
	for j := ch.from + 1; j < ch.to; j++ {
		c, e := h.offset(el, ch, j), int64(h.At(j).chainErr)
		sj := int64(h.At(j).Timestamp)
		ch.lo, ch.hi = max(ch.lo, sj-c-e), min(ch.hi, sj+sec-c+e)
		ch.slo, ch.shi = max(ch.slo, sj-c), min(ch.shi, sj+sec-c)
	}
	return ch
}

// placeChain rebuilds the times of a chain: it puts the first row in the
// middle of the window every printed second leaves it (the strict one
// where it is not empty), and every row at the first's time plus its
// offset, within its printed second.
func (h *History) placeChain(el []elapsedCode, ch chain, p *placed) clockSeg {
	const sec = int64(time.Second)
	t0 := ch.lo + (ch.hi-ch.lo)/2
	if ch.slo < ch.shi {
		t0 = ch.slo + (ch.shi-ch.slo)/2
	}
	s0 := int64(h.At(ch.from).Timestamp)
	var slack int64
	for j := ch.from; j < ch.to; j++ {
		ev := h.At(j)
		sj := int64(ev.Timestamp)
		var t int64
		if j == ch.from {
			t = t0
		} else {
			t = t0 + int64(el[j]) + (sj - s0)
		}
		pt := min(max(t, sj), sj+sec-1)
		if pt == sj {
			// A rebuilt time is never a whole second, so that a printed
			// time (a fireAt, a row not rebuilt) is never taken for one.
			pt++
		}
		slack = max(slack, abs64(pt-t))
		ts := Stamp(pt)
		ev.Timestamp = ts
		if ts < p.prev {
			p.sorted = false
		}
		if p.rows == 0 || ts < p.first {
			p.first = ts
		}
		p.prev, p.last = ts, max(p.last, ts)
		p.rows++
	}
	return clockSeg{from: int32(ch.from), to: int32(ch.to), slack: time.Duration(slack)}
}

// rebuiltOrder returns the rebuilt rows (total of them, in segs) in time
// order, or nil when the history's own order is that (none: every row is
// rebuilt, and their times never go down); sorted says whether the
// rebuilt rows' times never go down in row order.
func (h *History) rebuiltOrder(segs []clockSeg, total int, none, sorted bool) []int32 {
	if none {
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
