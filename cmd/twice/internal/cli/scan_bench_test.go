package cli

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/fixtures/gen"
)

// countingWriter discards what it is given and counts it.
type countingWriter struct{ n int64 }

func (w *countingWriter) Write(p []byte) (int, error) {
	w.n += int64(len(p))
	return len(p), nil
}

// BenchmarkScanCommand runs `twice scan -o json FILE` in the process, as a
// user runs it, on a generated history of each size in each format:
// opening the file, decoding it on two cores, detect, and writing the JSON
// (discarded, counted). `.ci/bench` measures the same command as a whole
// process; this one is what `.ci/pgo` profiles for cmd/twice/default.pgo.
//
//	go test -run '^$' -bench 'ScanCommand/catalyst/1M' -benchtime 3x ./cmd/twice/internal/cli
func BenchmarkScanCommand(b *testing.B) {
	formats := []catalyst.Format{catalyst.FormatProtoJSON, catalyst.FormatCatalyst, catalyst.FormatDaprCLI, catalyst.FormatFixture}
	for _, format := range formats {
		for _, n := range []int{10_000, 100_000, 1_000_000} {
			name := strings.TrimPrefix(string(format), "twice-")
			b.Run(name+"/"+gen.SizeName(n), func(b *testing.B) {
				path := filepath.Join(b.TempDir(), "history.json")
				f, err := os.Create(path)
				if err != nil {
					b.Fatal(err)
				}
				w := bufio.NewWriterSize(f, 1<<20)
				if err := gen.Write(w, gen.Options{Events: n, Seed: 1, Format: format}); err != nil {
					b.Fatal(err)
				}
				if err := w.Flush(); err != nil {
					b.Fatal(err)
				}
				if err := f.Close(); err != nil {
					b.Fatal(err)
				}
				env := Env{LookupEnv: func(string) (string, bool) { return "", false }, Now: time.Now, Version: "bench", WorkDir: b.TempDir()}
				b.ReportAllocs()
				b.ResetTimer()
				var out countingWriter
				for b.Loop() {
					out.n = 0
					var errOut strings.Builder
					streams := &IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut,
						IsStdinTTY: func() bool { return false }, IsStdoutTTY: func() bool { return false }}
					if code := Execute(context.Background(), NewFactory(streams, env), []string{"scan", "-o", "json", path}); code != ExitOK {
						b.Fatalf("exit %d: %s", code, errOut.String())
					}
				}
				if out.n == 0 {
					b.Fatal("the scan wrote nothing")
				}
				b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
				b.ReportMetric(float64(out.n)/1e6, "MB-out")
			})
		}
	}
}

// TestDefaultPGOIsAProfile: the profile go build optimizes twice with is
// there and is a pprof profile (gzip-compressed protobuf): a truncated or
// replaced file would make every build fail or lose the optimization.
func TestDefaultPGOIsAProfile(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "default.pgo"))
	if err != nil {
		t.Fatalf("cmd/twice/default.pgo: %v (regenerate it with .ci/pgo)", err)
	}
	if len(b) < 1024 || b[0] != 0x1f || b[1] != 0x8b {
		t.Fatalf("cmd/twice/default.pgo is %d bytes and not a gzip-compressed profile (regenerate it with .ci/pgo)", len(b))
	}
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil || len(raw) == 0 {
		t.Fatalf("cmd/twice/default.pgo does not decompress: %v", err)
	}
	for _, fn := range []string{"catalyst.(*decoder).flatEvent", "detect.(*invocationFill).run", "format.(*JSON).AppendEvent"} {
		if !bytes.Contains(raw, []byte(fn)) {
			t.Errorf("cmd/twice/default.pgo has no samples in %s: it is not a profile of a scan", fn)
		}
	}
}
