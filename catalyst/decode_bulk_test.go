package catalyst

import (
	"bytes"
	"errors"
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
