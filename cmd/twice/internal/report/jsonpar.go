package report

import (
	"runtime"
	"sync"
	"time"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/tui/format"
)

// The long arrays of a run (events, withheld payloads, invocations,
// findings) are encoded in segments of consecutive elements, so that more
// than one core can encode them: the writing goroutine encodes a segment
// straight into its own buffer, as it would alone, while helper goroutines
// encode the segments just ahead of it into buffers of their own; the
// writing goroutine writes each segment in order, whoever encoded it. The
// document is byte for byte what one goroutine writes.
//
// While detect still runs (scan -o json writes the events meanwhile), one
// core is left to it: the helper that would take it waits until the report
// is ready, because the invocations cannot be written before then and
// detect is the longer of the two.

// Elements per segment, sized so that a segment is about 256 KB of JSON.
const (
	eventsPerSegment      = 1024
	withheldPerSegment    = 2048
	invocationsPerSegment = 512
	findingsPerSegment    = 64
)

// segmentsAhead is how many segments each goroutine may hold encoded ahead
// of the writer: with the buffers reused from section to section, it bounds
// the writer's memory to a few MB.
const segmentsAhead = 2

// segmentBuffer is the capacity a new segment buffer starts with, room for
// a typical segment: grown by appending from nothing, each would leave a
// trail of smaller copies behind.
const segmentBuffer = 512 << 10

// maxHelpers caps the helper goroutines of a section.
const maxHelpers = 7

// writeElements writes n array elements with encode (each call writes the
// element at position i, or nothing), in order, after what e already holds.
// per is the elements of one segment. gate, when not nil, is closed once
// detect is done: until then one helper fewer runs.
func writeElements(e *jsonEnc, n, per int, gate <-chan struct{}, encode func(e *jsonEnc, i int)) {
	helpers := e.helpers
	segs := (n + per - 1) / per
	if helpers <= 0 || segs < 2 {
		for i := range n {
			encode(e, i)
			e.maybeDrain()
		}
		return
	}
	s := &section{n: n, per: per, encode: encode, segs: make([]segment, segs), res: e.js.Resolution, oor: e.js.OutOfRange,
		window: segmentsAhead * (helpers + 1), finished: make(chan struct{}), free: e.spare}
	s.cond = sync.NewCond(&s.mu)
	var wg sync.WaitGroup
	for h := range helpers {
		wait := gate
		if h > 0 {
			wait = nil // only one core is left to detect
		}
		wg.Go(func() { s.help(wait) })
	}
	s.write(e)
	s.mu.Lock()
	s.closed = true
	s.cond.Broadcast()
	s.mu.Unlock()
	close(s.finished)
	wg.Wait()
	e.spare = s.free
}

// helperCount is how many helper goroutines a section may use: one per
// core beyond the writer's.
func helperCount() int { return min(runtime.GOMAXPROCS(0)-1, maxHelpers) }

// section is one array being written by segments.
type section struct {
	n, per int
	encode func(e *jsonEnc, i int)
	window int
	// res is the writer's format.JSON Resolution, which the helpers' own
	// encoders take.
	res time.Duration
	// oor is the writer's format.JSON OutOfRange, alike.
	oor []catalyst.StampText

	mu   sync.Mutex
	cond *sync.Cond
	// next is the first segment nobody has claimed; written, how many
	// segments the writer has written.
	next, written int
	segs          []segment
	// free holds buffers of written segments, for reuse.
	free [][]byte
	// closed is set, and finished closed, when the writer is done: helpers
	// still waiting leave.
	closed   bool
	finished chan struct{}
}

// segment is one range of elements a helper encoded.
type segment struct {
	buf  []byte
	done bool
}

// write writes every segment in order. The segment due next it encodes
// itself, straight into e, when nobody has claimed it; one a helper
// encoded it writes out. While the segment due is still being encoded by a
// helper, it encodes a later one into a buffer, as the helpers do.
func (s *section) write(e *jsonEnc) {
	// wrote: some element has been written (the next one needs a comma).
	wrote := e.comma
	var ahead *jsonEnc
	s.mu.Lock()
	for k := 0; k < len(s.segs); {
		switch {
		case s.segs[k].done:
			buf := s.segs[k].buf
			s.mu.Unlock()
			if len(buf) > 0 {
				if wrote {
					e.buf = append(e.buf, ',')
				}
				wrote = true
				e.write(buf)
			}
			s.mu.Lock()
			s.segs[k].buf = nil
			s.free = append(s.free, buf[:0])
		case s.next == k:
			s.next++
			s.mu.Unlock()
			e.comma = wrote
			s.encodeSegment(e, k, true)
			wrote = e.comma
			s.mu.Lock()
		default:
			if s.claimable() {
				if ahead == nil {
					ahead = &jsonEnc{js: format.JSON{Resolution: s.res, OutOfRange: s.oor}}
				}
				s.encodeAhead(ahead)
			} else {
				s.cond.Wait()
			}
			continue
		}
		k++
		s.written = k
		s.cond.Broadcast()
	}
	s.mu.Unlock()
	e.comma = wrote
}

// claimable reports whether a segment may be claimed now: one is left, and
// claiming it keeps the segments encoded ahead of the writer within the
// window. s.mu is held.
func (s *section) claimable() bool {
	return s.next < len(s.segs) && s.next < s.written+s.window
}

// encodeAhead claims the next segment and encodes it with e into a buffer
// for the writer. s.mu is held, and released while encoding.
func (s *section) encodeAhead(e *jsonEnc) {
	k := s.next
	s.next++
	if n := len(s.free); n > 0 {
		e.buf, s.free = s.free[n-1], s.free[:n-1]
	} else {
		e.buf = make([]byte, 0, segmentBuffer)
	}
	s.mu.Unlock()

	e.comma = false
	s.encodeSegment(e, k, false)

	s.mu.Lock()
	s.segs[k] = segment{buf: e.buf, done: true}
	e.buf = nil
	s.cond.Broadcast()
}

// help encodes segments ahead of the writer until none are left, once gate
// (if any) is closed.
func (s *section) help(gate <-chan struct{}) {
	if gate != nil {
		select {
		case <-gate:
		case <-s.finished:
			return
		}
	}
	e := &jsonEnc{js: format.JSON{Resolution: s.res, OutOfRange: s.oor}}
	s.mu.Lock()
	defer s.mu.Unlock()
	for {
		for !s.closed && s.next < len(s.segs) && !s.claimable() {
			s.cond.Wait()
		}
		if s.closed || s.next >= len(s.segs) {
			return
		}
		s.encodeAhead(e)
	}
}

// encodeSegment encodes the elements of segment k into e; drain lets e
// write out as it goes (the writer's own encoder).
func (s *section) encodeSegment(e *jsonEnc, k int, drain bool) {
	lo, hi := k*s.per, min((k+1)*s.per, s.n)
	for i := lo; i < hi; i++ {
		s.encode(e, i)
		if drain {
			e.maybeDrain()
		}
	}
}
