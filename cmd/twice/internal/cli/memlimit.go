package cli

import (
	"math"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"time"
)

// Memory policy for large files. Left alone, Go's collector runs each time
// the heap doubles: on a million-event history that is several collections
// during the decode, each marking every event decoded so far, and the
// decoded events, detect's working set and its report then pile up to about
// 2.2 times the file. For histories of ordinary events (the bench's, about
// 160 bytes of file each) a scan stays within twice the file's size: while
// a file of memoryLimitMinInput or more is read, analysed and written, the
// runtime gets a soft memory limit of twice the file's size less
// memoryOverhead, and the collector runs only when the heap nears that
// limit (GOGC off): at most two or three collections near the end rather
// than six spread over the run (on the bench's million-event files: none
// for three formats, one or two for protojson, whose heap ends within a few
// MB of the limit), which saves about a tenth of the CPU.
//
// The bound is per event, not per byte: a decoded event costs about 160
// bytes of heap with its share of detect's arrays, whatever its size in the
// file. A history of tiny events (`{"workflowStarted":{}}`, 23 bytes each)
// needs about seven times its file: 10M of them, 230 MB, peak at 1.43 GB.
// No limit can hold that; the policy notices instead: when the live heap
// after a collection is past the limit (the collector would otherwise run
// back to back, which made that scan 12 s instead of 3.5 s), it lifts the
// limit and gives pacing back to GOGC for the rest of the read. A GOMEMLIMIT
// or GOGC set by the user wins.
const (
	// memoryLimitMinInput is the smallest file the limit is set for:
	// below it, the process's fixed costs dominate and a limit would only
	// make the collector busier.
	memoryLimitMinInput = 64 << 20
	// memoryOverhead is what the process's resident memory holds beyond
	// what the Go runtime counts against the limit: the binary's pages
	// (about 9 MiB) and some slack.
	memoryOverhead = 12 << 20
)

// memoryLimitFor returns the soft memory limit for reading a file of size
// bytes, or 0 for none.
func memoryLimitFor(size int64) int64 {
	if size < memoryLimitMinInput || size > math.MaxInt64/4 {
		return 0
	}
	return 2*size - memoryOverhead
}

// limitMemoryFor applies the policy while the file at path is read (its
// limit is memoryLimitFor its size) and returns the function that ends it.
// It does nothing when GOMEMLIMIT or GOGC is set or the file is small or
// not a regular file.
func (f *Factory) limitMemoryFor(path string) (restore func()) {
	restore = func() {}
	if f.Env.getenv("GOMEMLIMIT") != "" || f.Env.getenv("GOGC") != "" {
		return restore
	}
	info, err := os.Stat(path)
	if err != nil || !info.Mode().IsRegular() {
		return restore
	}
	limit := memoryLimitFor(info.Size())
	if limit == 0 {
		return restore
	}
	return f.memory.enter(limit)
}

// memoryPolicy is the policy's state: the large files being read, the
// limit they were given together, and the collector's settings before the
// first of them. Reads may overlap (the view can start a reload before an
// earlier read ends): the limit is their sum while they do, and the
// settings from before the first are restored after the last.
type memoryPolicy struct {
	mu          sync.Mutex
	active      int
	total       int64
	prevLimit   int64
	prevPercent int
	// lifted is set once the live heap outgrew the limit: the collector
	// paces by GOGC until the last read ends.
	lifted bool
	// stop ends the watch of the live heap.
	stop chan struct{}
	// every is how often the live heap is looked at (0: watchEvery).
	every time.Duration
}

// watchEvery is how often the policy looks at the live heap.
const watchEvery = 50 * time.Millisecond

// watch lifts the limit when the live heap after a collection passes it,
// until stop is closed.
func (p *memoryPolicy) watch(stop chan struct{}) {
	every := p.every
	if every <= 0 {
		every = watchEvery
	}
	t := time.NewTicker(every)
	defer t.Stop()
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	for {
		select {
		case <-stop:
			return
		case <-t.C:
		}
		metrics.Read(sample)
		if sample[0].Value.Kind() != metrics.KindUint64 {
			return
		}
		live := sample[0].Value.Uint64()
		p.mu.Lock()
		if p.active > 0 && !p.lifted && live > uint64(p.total) {
			p.lifted = true
			debug.SetMemoryLimit(p.prevLimit)
			percent := p.prevPercent
			if percent < 0 {
				percent = 100
			}
			debug.SetGCPercent(percent)
		}
		p.mu.Unlock()
	}
}

// enter adds a read given limit and returns the function that ends it
// (calling it more than once ends it once).
func (p *memoryPolicy) enter(limit int64) (leave func()) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.active == 0 {
		p.prevLimit = debug.SetMemoryLimit(-1) // -1 reads it
		p.prevPercent = debug.SetGCPercent(-1)
		p.lifted = false
		p.stop = make(chan struct{})
		go p.watch(p.stop)
	}
	p.active++
	p.total += limit
	if !p.lifted {
		debug.SetMemoryLimit(p.total)
	}
	var once sync.Once
	return func() { once.Do(func() { p.leave(limit) }) }
}

func (p *memoryPolicy) leave(limit int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.active--
	p.total -= limit
	if p.active > 0 {
		if !p.lifted {
			debug.SetMemoryLimit(p.total)
		}
		return
	}
	close(p.stop)
	debug.SetGCPercent(p.prevPercent)
	debug.SetMemoryLimit(p.prevLimit)
}
