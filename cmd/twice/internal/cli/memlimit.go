package cli

import (
	"math"
	"os"
	"runtime/debug"
)

// Memory policy for large files. Left alone, Go's collector lets the heap
// grow to twice what survived its last collection; on a million-event
// history that collection happens during the decode, so the decoded events,
// detect's working set and its report pile up with nothing collected in
// between (a peak of about 2.2 times the file). A scan of one file promises
// to stay within twice the file's size, so once a file of
// memoryLimitMinInput or more is decoded, the runtime gets a soft memory
// limit of twice the file's size less memoryOverhead until its run is
// written: the collector then runs when the heap nears the limit (two or
// three cycles, at the end of detect), which costs a few tens of
// milliseconds, not earlier. Decoding itself stays far below the limit. It
// is soft: an input whose live data alone is larger is still read, with
// more collection. A GOMEMLIMIT set by the user wins.
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

// limitMemoryFor sets the runtime's soft memory limit for reading the file
// at path (memoryLimitFor its size) and returns a function that restores
// the previous limit. It does nothing when GOMEMLIMIT is set or the file
// is small or not a regular file.
func (f *Factory) limitMemoryFor(path string) (restore func()) {
	restore = func() {}
	if f.Env.getenv("GOMEMLIMIT") != "" {
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
	prev := debug.SetMemoryLimit(limit)
	return func() { debug.SetMemoryLimit(prev) }
}
