package report

import (
	"bytes"
	"io"
	"testing"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/detect"
	"github.com/twice-cli/twice/fixtures/gen"
)

// generated decodes and analyses a history of n events from the project's
// benchmark generator (fixtures/gen: a long workflow of plain, retried and
// fanned-out calls with payloads, about 165 bytes an event in protojson).
func generated(tb testing.TB, n int) Analysis {
	tb.Helper()
	pr, pw := io.Pipe()
	go func() { pw.CloseWithError(gen.Write(pw, gen.Options{Events: n, Seed: 1})) }()
	h, err := catalyst.Decode(pr, catalyst.DecodeOptions{Provenance: catalyst.Provenance{Surface: catalyst.SurfaceFile, Location: "generated.json"}})
	if err != nil {
		tb.Fatal(err)
	}
	return Analysis{History: h, Report: detect.Analyze(h, detect.Options{})}
}

// BenchmarkWriteJSON measures `scan -o json` output (the writer alone, not
// decoding or detect) at 10k, 100k and 1M events.
func BenchmarkWriteJSON(b *testing.B) {
	for _, n := range []int{10_000, 100_000, 1_000_000} {
		b.Run(gen.SizeName(n), func(b *testing.B) {
			a := generated(b, n)
			var size countingWriter
			if err := WriteJSON(&size, []Analysis{a}, Options{}); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			b.SetBytes(int64(size))
			b.ReportAllocs()
			for b.Loop() {
				if err := WriteJSON(io.Discard, []Analysis{a}, Options{}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(size)/1e6, "MB/doc")
			b.ReportMetric(float64(a.History.Len())*float64(b.N)/b.Elapsed().Seconds(), "events/s")
		})
	}
}

// BenchmarkWriteText measures `show` piped: the text with the event table.
func BenchmarkWriteText(b *testing.B) {
	for _, n := range []int{10_000, 100_000, 1_000_000} {
		b.Run(gen.SizeName(n), func(b *testing.B) {
			a := generated(b, n)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				if err := WriteText(io.Discard, a, Options{Now: testNow, Events: true}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

type countingWriter int

func (c *countingWriter) Write(p []byte) (int, error) {
	*c += countingWriter(len(p))
	return len(p), nil
}

// TestGeneratedHistoryJSON writes a generated history with detect's real
// report and decodes it into the documented shape: every key the writer
// emits for real data is documented, and every event is there.
func TestGeneratedHistoryJSON(t *testing.T) {
	a := generated(t, 5000)
	if len(a.Report.Invocations) == 0 {
		t.Fatalf("the generated history has no invocations")
	}
	var buf bytes.Buffer
	if err := WriteJSON(&buf, []Analysis{a}, Options{}); err != nil {
		t.Fatal(err)
	}
	var doc jsonDoc
	decodeStrict(t, buf.Bytes(), &doc)
	checkRequired(t, &doc.Runs[0])
	if got := len(doc.Runs[0].Events); got != a.History.Len() {
		t.Errorf("decoded %d events, want %d", got, a.History.Len())
	}
	if got := len(doc.Runs[0].Findings); got != len(a.Report.Findings) {
		t.Errorf("decoded %d findings, want %d", got, len(a.Report.Findings))
	}
}
