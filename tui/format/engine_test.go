package format

// Checks on histories of detect's engine suite (detect/testdata/engine:
// workflows run on durabletask-go v0.12.1's own engine, read as protojson
// and as the Dapr CLI v1.18.0's rows; detect/engine_test.go says how they
// are made).

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/detect"
)

func engineHistory(t *testing.T, file string) (*catalyst.History, *detect.Report) {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "..", "detect", "testdata", "engine", file))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	h, err := catalyst.Decode(f, catalyst.DecodeOptions{Provenance: catalyst.Provenance{Surface: catalyst.SurfaceFile}})
	if err != nil {
		t.Fatal(err)
	}
	return h, detect.Analyze(h, detect.Options{})
}

// TestOpenAttemptIsDrawnAndSaid: an attempt with no outcome is drawn from
// its scheduling to the end of what the history tells, ending in "?", and
// its invocation is said to be open that long — after a timed-out attempt
// (terminate-open-attempt: the retry hangs until the run is terminated) as
// alone (running-attempt-open). Before, the retry's stretch merged with
// the timed-out attempt's "may run" tail and the invocation said it took
// as long as the first attempt.
func TestOpenAttemptIsDrawnAndSaid(t *testing.T) {
	for _, file := range []string{"terminate-open-attempt.history.json", "terminate-open-attempt.cli.json",
		"running-attempt-open.history.json", "running-attempt-open.cli.json"} {
		h, r := engineHistory(t, file)
		if strings.HasPrefix(file, "running-") {
			// Saved 6.3 h after its last event, still running: the open
			// attempt ran at least until then.
			h.Run.Provenance.Recorded = &catalyst.Recording{CapturedAt: KnownUntil(h, time.Time{}).Time().Add(378 * time.Minute)}
		}
		inv := &r.Invocations[0]
		open := &inv.Attempts[len(inv.Attempts)-1]
		axis := RunAxis(h, 0, time.Time{}, 60)
		row := TimelineRow(nil, h, inv, axis)
		from := axis.cell(open.Start)
		if len(inv.Attempts) > 1 && from > 0 && row[from-1] != MarkBackoff {
			t.Errorf("%s: the open retry's start (cell %d) is not after its backoff: %s", file, from, AppendMarks(nil, row))
		}
		for c := from; c < len(row)-1; c++ {
			if row[c] != MarkOpen {
				t.Errorf("%s: cell %d of the open attempt is %q: %s", file, c, row[c].Glyph(), AppendMarks(nil, row))
				break
			}
		}
		if row[len(row)-1] != MarkUnknown {
			t.Errorf("%s: the open attempt does not end in ?: %s", file, AppendMarks(nil, row))
		}
		d := InvocationDuration(SpansOf(h), h, inv, time.Time{})
		want := KnownUntil(h, time.Time{}).Sub(inv.Start)
		if !strings.HasPrefix(d, "open ≥") || d != "open ≥"+SpansOf(h).Duration(want) {
			t.Errorf("%s: duration %q, want open ≥%s", file, d, SpansOf(h).Duration(want))
		}
	}
}
