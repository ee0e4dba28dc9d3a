package catalyst_test

import (
	"bytes"
	"testing"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/jsonscan"
	"github.com/twice-cli/twice/fixtures/gen"
)

// BenchmarkDecodeGenerated decodes the generator's realistic histories
// (retries with backoff, timeouts, crashes, fan-out, child workflows,
// varied payloads) in each wire format at 10k, 100k and 1M events, read as
// a file is: with the bytes readable at any offset, so a long list is
// decoded on two cores. The input is generated only when its benchmark runs.
func BenchmarkDecodeGenerated(b *testing.B) {
	for _, format := range []catalyst.Format{catalyst.FormatProtoJSON, catalyst.FormatCatalyst, catalyst.FormatDaprCLI} {
		for _, n := range []int{10_000, 100_000, 1_000_000} {
			b.Run(string(format)+"/"+gen.SizeName(n), func(b *testing.B) {
				var buf bytes.Buffer
				if err := gen.Write(&buf, gen.Options{Events: n, Seed: 1, Format: format}); err != nil {
					b.Fatal(err)
				}
				doc := buf.Bytes()
				b.SetBytes(int64(len(doc)))
				b.ReportAllocs()
				b.ResetTimer()
				for b.Loop() {
					h, err := catalyst.DecodeAll(jsonscan.NewReaderAt(bytes.NewReader(doc), int64(len(doc))), catalyst.DecodeOptions{})
					if err != nil {
						b.Fatal(err)
					}
					if h.Len() != n {
						b.Fatalf("%d events, want %d", h.Len(), n)
					}
				}
				b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
			})
		}
	}
}
