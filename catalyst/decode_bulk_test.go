package catalyst

import (
	"bytes"
	"errors"
	"fmt"
	"runtime/debug"
	"testing"

	"github.com/twice-cli/twice/catalyst/jsonscan"
	"go.uber.org/goleak"
)

// A history long enough to start the bulk helper decodes completely, and the
// helper is gone when Decode returns, with or without an error.
func TestLongHistoriesStartTheBulkHelperAndStopIt(t *testing.T) {
	defer goleak.VerifyNone(t)
	n := (bulkAfter + 3) << chunkBits
	doc := genProtoJSON(n)
	h, err := Decode(bytes.NewReader(doc), DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if h.Len() != n {
		t.Fatalf("%d events, want %d", h.Len(), n)
	}
	completions := 0
	for i, e := range h.All() {
		if int(e.Index) != i || e.Type == EventUnknown {
			t.Fatalf("event %d: %s", i, summary(e))
		}
		if e.Type == EventTaskCompleted {
			// Every completion pairs with the schedule two events before it.
			s := h.At(i - 2)
			if s.Type != EventTaskScheduled || s.ID != e.ScheduledID || s.ExecutionID != e.ExecutionID {
				t.Fatalf("event %d: %s\nafter %s", i, summary(e), summary(s))
			}
			completions++
		}
	}
	if completions != (n-2)/4 {
		t.Errorf("%d completions, want %d", completions, (n-2)/4)
	}

	cut := doc[:len(doc)-len(doc)/10]
	_, err = Decode(bytes.NewReader(cut), DecodeOptions{})
	var se *jsonscan.SyntaxError
	if !errors.As(err, &se) {
		t.Errorf("a cut-off long history: %v", err)
	}
	_, err = Decode(bytes.NewReader(doc), DecodeOptions{MaxEvents: n - 1})
	if !errors.Is(err, ErrTooManyEvents) {
		t.Errorf("over the cap: %v", err)
	}
}

// The headroom block is for a collector paced by GOGC: with GOGC off (the
// memory policy for large files) it would count against the memory limit,
// so none is taken.
func TestBulkTakesHeadroomOnlyWhileGOGCPacesTheCollector(t *testing.T) {
	for _, tt := range []struct {
		percent int
		want    int
	}{
		{100, gcHeadroom},
		{50, gcHeadroom},
		{-1, 0},
	} {
		t.Run(fmt.Sprintf("GOGC=%d", tt.percent), func(t *testing.T) {
			defer debug.SetGCPercent(debug.SetGCPercent(tt.percent))
			b := &bulk{}
			defer b.stop()
			if c := b.chunk(bulkAfter); cap(c) != 1<<chunkBits || len(c) != 0 {
				t.Fatalf("chunk of len %d cap %d", len(c), cap(c))
			}
			if b.ready == nil {
				t.Fatal("no helper started past bulkAfter chunks")
			}
			if len(b.headroom) != tt.want {
				t.Errorf("headroom of %d bytes, want %d", len(b.headroom), tt.want)
			}
		})
	}
}

// The second decoder of a split list gets chunks from its first, and starts
// no helper and takes no headroom of its own.
func TestASplitsBulkStartsNoHelper(t *testing.T) {
	b := &bulk{split: true}
	defer b.stop()
	for have := range bulkAfter + 2 {
		if c := b.chunk(have); cap(c) != 1<<chunkBits || len(c) != 0 {
			t.Fatalf("chunk %d: len %d cap %d", have, len(c), cap(c))
		}
	}
	if b.ready != nil || b.headroom != nil {
		t.Error("a split's bulk started a helper or took headroom")
	}
}
