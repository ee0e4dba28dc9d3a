//go:build cgo

package langs

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/twice-cli/twice/detect/review"
)

// benchLines is how many lines of each language BenchmarkReviewSize
// reviews: TWICE_BENCH_REVIEW_LINES, or 25,000 (a tenth of issue 21's
// 250,000, to keep a run short; peak heap grows with the lines kept, so
// compare the same size).
func benchLines(b *testing.B) int {
	if s := os.Getenv("TWICE_BENCH_REVIEW_LINES"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n <= 0 {
			b.Fatalf("TWICE_BENCH_REVIEW_LINES=%q: want a positive number of lines", s)
		}
		return n
	}
	return 25_000
}

// corpusTree writes copies of detect/review's corpus for one language
// into a temporary folder until it holds at least lines lines, as
// .ci/bench's review tree does, and returns the folder and its lines.
func corpusTree(b *testing.B, lang string, lines int) (string, int) {
	src := filepath.Join("..", "testdata", "corpus", lang)
	type file struct {
		rel  string
		text []byte
	}
	var files []file
	per := 0
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		text, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		files = append(files, file{rel, text})
		if review.LangOfFile(p) != "" {
			per += bytes.Count(text, []byte("\n"))
		}
		return nil
	})
	if err != nil || per == 0 {
		b.Fatalf("corpus %s: %v (%d lines)", src, err, per)
	}
	dir := b.TempDir()
	total := 0
	for i := 1; total < lines; i++ {
		for _, f := range files {
			p := filepath.Join(dir, "copy"+strconv.Itoa(i), f.rel)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				b.Fatal(err)
			}
			if err := os.WriteFile(p, f.text, 0o600); err != nil {
				b.Fatal(err)
			}
		}
		total += per
	}
	return dir, total
}

// peakHeap samples the live heap (objects not yet freed) every
// millisecond until stop is called, and returns the most it saw.
func peakHeap() (stop func() uint64) {
	var peak atomic.Uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			metrics.Read(s)
			if v := s[0].Value.Uint64(); v > peak.Load() {
				peak.Store(v)
			}
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	})
	return func() uint64 {
		close(done)
		wg.Wait()
		return peak.Load()
	}
}

// BenchmarkReviewSize reviews a tree of corpus copies per language (issue
// 21: 250,000 lines in under 5 s and under 300 MB). Beside time, bytes and
// allocations per review it reports lines/s and peak-heap-MB, the most
// heap the review held live at once: the number that sets the process's
// resident memory. Run at the size with
//
//	TWICE_BENCH_REVIEW_LINES=250000 go test ./detect/review/langs \
//	    -run '^$' -bench ReviewSize -benchtime 1x -benchmem
func BenchmarkReviewSize(b *testing.B) {
	lines := benchLines(b)
	for _, lang := range []string{"go", "python", "csharp"} {
		b.Run(lang, func(b *testing.B) {
			dir, n := corpusTree(b, lang, lines)
			opts := Options()
			var peak uint64
			b.ReportAllocs()
			for b.Loop() {
				runtime.GC()
				stop := peakHeap()
				rep, err := review.Review(context.Background(), []string{dir}, opts)
				p := stop()
				if err != nil {
					b.Fatal(err)
				}
				if len(rep.Skipped) > 0 {
					b.Fatalf("skipped %d files, first %s: %s", len(rep.Skipped), rep.Skipped[0].File, rep.Skipped[0].Reason)
				}
				peak = max(peak, p)
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "lines/s")
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
		})
	}
}
