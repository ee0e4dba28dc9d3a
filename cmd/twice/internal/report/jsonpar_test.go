package report

import (
	"bytes"
	"io"
	"testing"
	"time"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/detect"
	"github.com/twice-cli/twice/detect/review"
	"github.com/twice-cli/twice/fixtures/gen"
)

// analysed decodes and analyses a generated history.
func analysed(t *testing.T, opts gen.Options) Analysis {
	t.Helper()
	pr, pw := io.Pipe()
	go func() { pw.CloseWithError(gen.Write(pw, opts)) }()
	h, err := catalyst.Decode(pr, catalyst.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return Analysis{History: h, Report: detect.Analyze(h, detect.Options{})}
}

// runJSON writes one run object with the given number of helpers.
func runJSON(a Analysis, helpers int) []byte {
	var b bytes.Buffer
	e := newJSONEnc(&b)
	e.helpers = helpers
	writeRunJSON(e, a, "")
	if err := e.flush(); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// TestParallelJSONIsByteForByte: the long arrays encoded by segments on
// several goroutines give exactly the bytes one goroutine writes, with the
// report ready or still being computed, with and without withheld payloads.
func TestParallelJSONIsByteForByte(t *testing.T) {
	for _, opts := range []gen.Options{
		{Events: 30_000, Seed: 4},
		{Events: 20_000, Seed: 9, Format: catalyst.FormatCatalyst, Level: catalyst.LevelMetadata},
	} {
		a := analysed(t, opts)
		if n := len(a.Report.Invocations); n < 3*invocationsPerSegment || len(a.Report.Findings) < 3*findingsPerSegment {
			t.Fatalf("only %d invocations and %d findings: too few segments to test", n, len(a.Report.Findings))
		}
		want := runJSON(a, 0)
		for _, helpers := range []int{1, 3} {
			if got := runJSON(a, helpers); !bytes.Equal(got, want) {
				t.Fatalf("level %q, %d helpers: the document differs from one goroutine's (%d vs %d bytes)",
					opts.Level, helpers, len(got), len(want))
			}
			// Detect still running while the events are written.
			pending := Pending(a.History, func(*catalyst.History) (*detect.Report, *review.Joined) {
				time.Sleep(20 * time.Millisecond)
				return a.Report, a.Code
			})
			if got := runJSON(pending, helpers); !bytes.Equal(got, want) {
				t.Fatalf("level %q, %d helpers, pending report: the document differs", opts.Level, helpers)
			}
		}
	}
}

// TestParallelJSONEmptySegments: an array whose elements are written by
// few segments (most segments write nothing) gets its commas right.
func TestParallelJSONEmptySegments(t *testing.T) {
	for _, every := range []int{1, 7, 3000, 100_000} {
		var seq, par bytes.Buffer
		for _, c := range []struct {
			b       *bytes.Buffer
			helpers int
		}{{&seq, 0}, {&par, 2}} {
			e := newJSONEnc(c.b)
			e.helpers = c.helpers
			e.beginArray()
			writeElements(e, 20_000, 100, nil, func(e *jsonEnc, i int) {
				if i%every == every-1 {
					e.int(int64(i))
				}
			})
			e.endArray()
			if err := e.flush(); err != nil {
				t.Fatal(err)
			}
		}
		if seq.String() != par.String() {
			t.Fatalf("every %d: %q vs %q", every, trim(par.String()), trim(seq.String()))
		}
	}
}

func trim(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}
