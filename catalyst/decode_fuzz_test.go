package catalyst

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"testing/iotest"

	"github.com/twice-cli/twice/catalyst/jsonscan"
)

// FuzzDecode checks that any input gives either an error of a documented
// kind and no history, or a history of at most one event per input byte
// whose events are numbered in order; and that reading through a tiny
// window gives the same answer as reading the whole input at once.
func FuzzDecode(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*"))
	for _, file := range files {
		if b, err := os.ReadFile(file); err == nil && len(b) < 16<<10 {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		h, err := Decode(bytes.NewReader(doc), DecodeOptions{})
		if err != nil {
			var fe *FormatError
			var de *DecodeError
			var te *ToolError
			if h != nil || !(errors.As(err, &fe) || errors.As(err, &de) || errors.As(err, &te) || errors.Is(err, ErrEmpty)) {
				t.Fatalf("Decode returned %v and an error of an undocumented kind: %T %v", h, err, err)
			}
		} else {
			if h.Len() > len(doc) {
				t.Fatalf("%d events from %d bytes", h.Len(), len(doc))
			}
			for i, e := range h.All() {
				if int(e.Index) != i {
					t.Fatalf("event %d has index %d", i, e.Index)
				}
			}
		}
		sc := jsonscan.NewSize(iotest.HalfReader(bytes.NewReader(doc)), 64)
		h2, err2 := DecodeValue(sc, DecodeOptions{})
		if err2 == nil {
			if err2 = sc.End(); err2 != nil {
				h2 = nil
			}
		}
		if (err == nil) != (err2 == nil) {
			t.Fatalf("whole input: %v; through a small window: %v", err, err2)
		}
		if err == nil && !slices.Equal(summaries(h), summaries(h2)) {
			t.Fatalf("the two reads decoded different events:\n%q\n%q", summaries(h), summaries(h2))
		}
	})
}
