package catalyst

// bulk is what a long decode adds to a short one, past its first few
// thousand events (measured on a 2-core machine decoding a million-event,
// 129 MB protojson file; see the package's BenchmarkDecode):
//
//   - Event chunks are allocated on a helper goroutine, a couple ahead, with
//     every page touched. A fresh chunk is 600 KB the kernel has not mapped
//     yet; taking those page faults (about 85 ms for a million events) off
//     the decoding goroutine lets the second core absorb them. The decoder
//     never waits for the helper: when none is ready it makes its own.
//   - Headroom for the garbage collector: a 64 MiB block, never written (so
//     never resident), held while the decode runs. The collector's goal is
//     twice the live heap; counting the block, a decode that builds 150 MB
//     of events runs one collection instead of six, which saves about 12%
//     of the CPU time and does not change the peak memory.
//
// stop ends the helper and releases the headroom; every decode that may
// start them calls it before returning.
type bulk struct {
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

func newChunk() []Event { return make([]Event, 0, 1<<chunkBits) }

// chunk returns an empty chunk for a history that holds have chunks.
func (b *bulk) chunk(have int) []Event {
	if b == nil || have < bulkAfter {
		return newChunk()
	}
	if b.ready == nil {
		b.headroom = make([]byte, gcHeadroom)
		b.ready = make(chan []Event, bulkAhead)
		b.quit = make(chan struct{})
		b.stopped = make(chan struct{})
		go b.fill()
	}
	select {
	case c := <-b.ready:
		return c
	default:
		return newChunk()
	}
}

// fill makes chunks until stopped.
func (b *bulk) fill() {
	defer close(b.stopped)
	for {
		c := newChunk()
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
