package runview

import (
	"testing"

	"github.com/twice-cli/twice/detect"
	"github.com/twice-cli/twice/tui/internal/tuitest"
)

// BenchmarkEventFilter measures one filter of a million events from
// scratch (the worst case of a keystroke: nothing to refine).
func BenchmarkEventFilter(b *testing.B) {
	h := tuitest.Big(1_000_000)
	x := NewIndex(h, detect.Analyze(h, detect.Options{}))
	dst := make([]int32, 0, h.Len())
	for _, q := range []string{"s", "st", "step1", "1", "12", "4a1", "e1b2", "timeout"} {
		b.Run(q, func(b *testing.B) {
			n := 0
			for i := 0; i < b.N; i++ {
				p := x.eventTerms.Prepare(q)
				n = len(p.Select(dst[:0], x.eventFlags, 0, nil))
			}
			b.ReportMetric(float64(n), "rows")
		})
	}
}

// BenchmarkNewIndex measures indexing a million-event history and its
// report (done once per load, off the UI goroutine).
func BenchmarkNewIndex(b *testing.B) {
	h := tuitest.Big(1_000_000)
	rep := detect.Analyze(h, detect.Options{})
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		NewIndex(h, rep)
	}
}
