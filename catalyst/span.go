package catalyst

import (
	"sort"
	"time"
)

// Span is a duration measured between two instants of a history, with how
// well the history's source knows it. History.Span measures one.
type Span struct {
	// D is the later instant less the earlier one, as measured.
	D time.Duration
	// Err bounds how far the true duration may be from D, either way: 0
	// when the source's times are the engine's own.
	Err time.Duration
	// Step is set when D was measured between the source's printed times
	// and nothing finer was known: it is their resolution (time.Second
	// for the Dapr CLI's rows), D is a difference of whole steps where
	// both ends are such times, and Err is Step. 0 otherwise.
	Step time.Duration
	// OutOfRange is set when an end is an instant a Stamp cannot hold
	// (before 1678 or after 2261): the span is not measured.
	OutOfRange bool
}

// Exact reports whether the span is as exact as the engine's own times.
func (s Span) Exact() bool { return s.Err == 0 && !s.OutOfRange }

// Coarse reports whether the span is known only to the resolution of the
// source's printed times (±Step).
func (s Span) Coarse() bool { return s.Step > 0 }

// Rebuilt reports whether the span was measured between times the
// decoder rebuilt from a finer record than the printed ones (the Dapr
// CLI's elapsed column): known to within Err, less than the resolution.
func (s Span) Rebuilt() bool { return s.Err > 0 && s.Step == 0 }

// maxRebuiltErr is the largest error a rebuilt span may carry and still be
// shown as one: past it a span is shown to the printed times' resolution,
// as though nothing finer were known (every renderer shows a rebuilt span
// under a minute to a tenth of a second at least).
const maxRebuiltErr = 100 * time.Millisecond

// Span measures the duration from one instant to another: an event's
// timestamp, a time of the run or of an attempt (which are events'
// timestamps), a timer's fireAt, or an instant from outside the history
// (the moment it was read). From the engine's own times it is to−from,
// exact. From a source whose printed times are coarser (the Dapr CLI's
// whole seconds), it is rebuilt where the decoder could rebuild both ends
// from one unbroken run of the source's finer record (the rows' elapsed),
// and otherwise measured between the printed times, known to ±the
// resolution. A fireAt is always a printed time: the CLI prints it to the
// second and nothing records it finer. A nil history's times are exact.
func (h *History) Span(from, to Stamp) Span {
	if from.OutOfRange() || to.OutOfRange() {
		return Span{OutOfRange: true}
	}
	d := to.Sub(from)
	if h == nil {
		return Span{D: d}
	}
	res := h.TimeResolution
	if res <= 0 {
		return Span{D: d}
	}
	if d == 0 && (from.IsZero() || to.IsZero() || from.IsNever() || to.IsNever()) {
		return Span{Err: res, Step: res}
	}
	c := h.clock
	if c == nil {
		return Span{D: d, Err: res, Step: res}
	}
	a, b := c.lookup(h, from), c.lookup(h, to)
	if a.found && b.found && a.seg >= 0 && a.seg == b.seg {
		err := max(a.maxErr, b.maxErr) - min(a.minErr, b.minErr) + 2*c.segs[a.seg].slack
		if err <= maxRebuiltErr {
			return Span{D: d, Err: max(err, time.Nanosecond)}
		}
	}
	// Measured between printed times: a rebuilt time is printed as its
	// whole second, which it kept.
	if a.found {
		from = from.truncate(res)
	}
	if b.found {
		to = to.truncate(res)
	}
	return Span{D: to.Sub(from), Err: res, Step: res}
}

// SpanTimes is Span between two times (a run's CreatedAt and UpdatedAt,
// say); a zero time is an absent instant.
func (h *History) SpanTimes(from, to time.Time) Span {
	return h.Span(StampOf(from), StampOf(to))
}

// Printed returns an instant of the history as its source printed it: a
// time the decoder rebuilt goes back to its printed second (the Dapr
// CLI's rows), so that no instant is shown finer than the source knew it
// (a rebuilt time is exact only relative to its neighbours). Instants of
// a source with exact times are returned as they are.
func (h *History) Printed(s Stamp) Stamp {
	if h.TimeResolution <= 0 || s.IsZero() || s.IsNever() {
		return s
	}
	return s.truncate(h.TimeResolution)
}

// PrintedTime is Printed for a time (a zero time stays zero).
func (h *History) PrintedTime(t time.Time) time.Time {
	if t.IsZero() {
		return t
	}
	s := StampOf(t)
	if s.OutOfRange() {
		return t // a time.Time holds it as given
	}
	return h.Printed(s).Time()
}

// RebuiltSpans reports whether the decoder rebuilt some of the history's
// times from a finer record than its printed ones (the Dapr CLI's elapsed
// column), so that spans between them are known better than
// TimeResolution (see Span).
func (h *History) RebuiltSpans() bool { return h.clock != nil }

// RebuiltErr is the largest error a rebuilt span of the history may carry
// (a span across a whole chain); 0 when none was rebuilt. A time axis drawn
// from rebuilt times labels its ticks no finer than this.
func (h *History) RebuiltErr() time.Duration {
	if h.clock == nil {
		return 0
	}
	return h.clock.maxErr
}

// truncate rounds s down to a multiple of res (res > 0).
func (s Stamp) truncate(res time.Duration) Stamp {
	r := Stamp(res)
	m := s % r
	if m < 0 {
		m += r
	}
	return s - m
}

// spanClock is what the decoder kept of the times it rebuilt: the runs of
// rows it rebuilt as one chain (segments), and how to find a rebuilt time's
// row. Each rebuilt row's own error since its segment's first row is in
// its Event (chainErr).
type spanClock struct {
	segs []clockSeg
	// order lists the rebuilt events by timestamp when their times go
	// down in row order (nil: they never do).
	order []int32
	// maxErr is History.RebuiltErr.
	maxErr time.Duration
}

// clockSeg is one run of rows, [from, to), whose times were rebuilt from
// one chain of elapsed values.
type clockSeg struct {
	from, to int32
	// slack is the most a rebuilt time was moved to keep it in its printed
	// second: a span between two of the segment's times may be off by
	// twice it on top of the chain's own error.
	slack time.Duration
}

// clockHit is what a lookup found of an instant among the rebuilt times.
type clockHit struct {
	found bool
	// seg is the segment of every row at that instant, -1 when they are in
	// different ones.
	seg            int
	minErr, maxErr time.Duration
}

// lookup finds the rebuilt rows whose time is s. A rebuilt time is never a
// whole second, so a whole-second instant (a printed time, a fireAt) is
// never taken for one.
func (c *spanClock) lookup(h *History, s Stamp) clockHit {
	var hit clockHit
	if s.IsZero() || s.IsNever() || s%Stamp(time.Second) == 0 {
		return hit
	}
	add := func(i, seg int) {
		err := time.Duration(h.At(i).chainErr)
		switch {
		case !hit.found:
			hit = clockHit{found: true, seg: seg, minErr: err, maxErr: err}
			return
		case seg != hit.seg:
			hit.seg = -1
		}
		hit.minErr, hit.maxErr = min(hit.minErr, err), max(hit.maxErr, err)
	}
	if c.order != nil {
		k := sort.Search(len(c.order), func(k int) bool { return h.At(int(c.order[k])).Timestamp >= s })
		for ; k < len(c.order) && h.At(int(c.order[k])).Timestamp == s; k++ {
			add(int(c.order[k]), c.segOf(int(c.order[k])))
		}
		return hit
	}
	// The rebuilt times never go down in row order, across the segments:
	// the first segment that reaches s, then its first row at s, and on
	// into the next segments while their rows are at s.
	k := sort.Search(len(c.segs), func(k int) bool { return h.At(int(c.segs[k].to-1)).Timestamp >= s })
	for ; k < len(c.segs); k++ {
		seg := c.segs[k]
		from, n := int(seg.from), int(seg.to-seg.from)
		i := from + sort.Search(n, func(i int) bool { return h.At(from+i).Timestamp >= s })
		for ; i < int(seg.to); i++ {
			if h.At(i).Timestamp != s {
				return hit
			}
			add(i, k)
		}
	}
	return hit
}

// segOf returns the segment holding row i, or -1.
func (c *spanClock) segOf(i int) int {
	j := sort.Search(len(c.segs), func(j int) bool { return int(c.segs[j].to) > i })
	if j < len(c.segs) && int(c.segs[j].from) <= i {
		return j
	}
	return -1
}
