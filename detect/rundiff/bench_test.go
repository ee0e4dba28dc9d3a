package rundiff

import (
	"bytes"
	"syscall"
	"testing"
	"time"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/jsonscan"
	"github.com/twice-cli/twice/detect"
	"github.com/twice-cli/twice/fixtures/gen"
)

// generated is the protojson of a history of n events from the benchmark
// generator (fixtures/gen), run seed.
func generated(tb testing.TB, n int, seed int64) []byte {
	tb.Helper()
	b, err := gen.Bytes(gen.Options{Events: n, Seed: seed})
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// analysed decodes and analyses a generated history.
func analysed(tb testing.TB, doc []byte) Run {
	tb.Helper()
	h, err := catalyst.DecodeAll(jsonscan.NewReaderAt(bytes.NewReader(doc), int64(len(doc))), catalyst.DecodeOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	return Run{History: h, Report: detect.Analyze(h, detect.Options{})}
}

// BenchmarkCompare measures Compare alone on two analysed runs of n
// events each (different seeds: every pair differs somewhere).
func BenchmarkCompare(b *testing.B) {
	for _, n := range []int{10_000, 100_000, 1_000_000} {
		b.Run(gen.SizeName(n), func(b *testing.B) {
			ra, rb := analysed(b, generated(b, n, 1)), analysed(b, generated(b, n, 2))
			b.ReportAllocs()
			b.ResetTimer()
			cpu0 := cpuTime()
			for b.Loop() {
				Compare(ra, rb, Options{})
			}
			b.ReportMetric((cpuTime()-cpu0).Seconds()/float64(b.N), "cpu-s/op")
		})
	}
}

// BenchmarkDiff1M measures what twice diff does with two 1M-event
// histories in memory: decode both, analyse both, compare (target: under
// 3 s, issue 25).
func BenchmarkDiff1M(b *testing.B) {
	da, db := generated(b, 1_000_000, 1), generated(b, 1_000_000, 2)
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime()
	for b.Loop() {
		Compare(analysed(b, da), analysed(b, db), Options{})
	}
	// The machine may be shared: the CPU time it took says what an idle
	// two-core machine would take (wall time at most this, at least half).
	b.ReportMetric((cpuTime()-cpu0).Seconds()/float64(b.N), "cpu-s/op")
}

// cpuTime is the CPU time the process has used, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
