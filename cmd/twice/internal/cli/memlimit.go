package cli

import (
	"math"
	"os"
	"runtime/debug"
)

// Memory policy for large files. Left alone, Go's collector runs each time
// the heap doubles: on a million-event history that is several collections
// during the decode, each marking every event decoded so far, and the
// decoded events, detect's working set and its report then pile up to about
// 2.2 times the file. A scan of one file promises to stay within twice the
// file's size, so while a file of memoryLimitMinInput or more is read,
// analysed and written, the runtime gets a soft memory limit of twice the
// file's size less memoryOverhead, and the collector runs only when the
// heap nears that limit (GOGC off): two or three collections near the end
// rather than six spread over the run, which saves about a tenth of the
// CPU. It is soft: an input whose live data alone is larger is still read,
// with more collection. A GOMEMLIMIT or GOGC set by the user wins.
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
// at path (memoryLimitFor its size), turns off collection by heap growth,
// and returns a function that restores both. It does nothing when
// GOMEMLIMIT or GOGC is set or the file is small or not a regular file.
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
	prev := debug.SetMemoryLimit(limit)
	prevPercent := debug.SetGCPercent(-1)
	return func() {
		debug.SetGCPercent(prevPercent)
		debug.SetMemoryLimit(prev)
	}
}
