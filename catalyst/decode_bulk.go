package catalyst

import (
	"runtime/metrics"

	"github.com/twice-cli/twice/catalyst/hugepage"
)

// bulk is what a long decode adds to a short one, past its first few
// thousand events (measured on a 2-core machine decoding a million-event,
// 129 MB protojson file; see the package's BenchmarkDecode):
//
//   - Event chunks are allocated on a helper goroutine, a couple ahead, with
//     every page touched. A fresh chunk is 600 KB the kernel has not mapped
//     yet; taking those page faults (about 85 ms for a million events) off
//     the decoding goroutine lets the second core absorb them. The decoder
//     never waits for the helper: when none is ready it makes its own.
//   - Those chunks are advised for transparent huge pages, where Linux
//     offers them on request: a million events then fault in 2 MiB at a
//     time, some 40,000 fewer page faults, which cut the time of `twice scan`
//     on a 165 MB protojson file by about a tenth.
//   - Headroom for the garbage collector: a 64 MiB block, never written (so
//     never resident), held while the decode runs. The collector's goal is
//     twice the live heap; counting the block, a decode that builds 150 MB
//     of events runs one collection instead of six, which saves about 12%
//     of the CPU time and does not change the peak memory. It is taken only
//     while GOGC paces the collector: with GOGC off, a memory limit does,
//     and the block would count against the limit and bring on collections
//     it was meant to spare.
//
// The second decoder of a split list (decode_split.go) has a bulk of its
// own marked split: its part of the list is large by construction, so its
// chunks are advised from the first, and it starts no helper (the two
// decoders already keep both cores busy) and takes no headroom (the first
// decoder's serves the process).
//
// stop ends the helper and releases the headroom; every decode that may
// start them calls it before returning.
type bulk struct {
	split    bool
	ready    chan []Event
	quit     chan struct{}
	stopped  chan struct{}
	headroom []byte
}

// bulkAfter is how many chunks a decode fills before it starts the helper
// and takes the headroom: short histories do neither.
const bulkAfter = 16

// bulkAhead is how many chunks the helper prepares ahead.
const bulkAhead = 2

// gcHeadroom is the size of the headroom block.
const gcHeadroom = 64 << 20

// newChunk makes an empty chunk.
func newChunk() []Event { return make([]Event, 0, 1<<chunkBits) }

// newBulkChunk makes an empty chunk advised for huge pages, before it is
// written.
func newBulkChunk() []Event {
	c := newChunk()
	hugepage.Advise(c)
	return c
}

// collectorPacedByGOGC reports whether GOGC is on: off, only a memory limit
// (if any) starts a collection. The runtime reports off (-1) as the
// uint64 of -1.
func collectorPacedByGOGC() bool {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	return s[0].Value.Kind() != metrics.KindUint64 || int64(s[0].Value.Uint64()) >= 0
}

// chunk returns an empty chunk for a history that holds have chunks.
func (b *bulk) chunk(have int) []Event {
	switch {
	case b == nil || (have < bulkAfter && !b.split):
		return newChunk()
	case b.split:
		return newBulkChunk()
	}
	if b.ready == nil {
		if collectorPacedByGOGC() {
			b.headroom = make([]byte, gcHeadroom)
		}
		b.ready = make(chan []Event, bulkAhead)
		b.quit = make(chan struct{})
		b.stopped = make(chan struct{})
		go b.fill()
	}
	select {
	case c := <-b.ready:
		return c
	default:
		return newBulkChunk()
	}
}

// fill makes chunks until stopped.
func (b *bulk) fill() {
	defer close(b.stopped)
	for {
		c := newBulkChunk()
		all := c[:cap(c)]
		for i := 0; i < len(all); i += 16 { // 16 events < one 4 KiB page
			all[i].Index = 0
		}
		select {
		case b.ready <- c:
		case <-b.quit:
			return
		}
	}
}

// stop ends the helper, if one was started, waits for it, and releases the
// headroom.
func (b *bulk) stop() {
	if b == nil || b.ready == nil {
		return
	}
	close(b.quit)
	<-b.stopped
	b.headroom = nil
}
