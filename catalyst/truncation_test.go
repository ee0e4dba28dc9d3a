package catalyst

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"testing/iotest"

	"github.com/twice-cli/twice/catalyst/safetext/hostiletest"
)

// wholeDocuments returns every document under testdata that decodes, and
// the hostile documents of each format, by name.
func wholeDocuments(t *testing.T) map[string][]byte {
	t.Helper()
	docs := map[string][]byte{}
	files, err := filepath.Glob(filepath.Join("testdata", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Decode(bytes.NewReader(b), DecodeOptions{}); err == nil {
			docs[filepath.Base(f)] = b
		}
	}
	for _, d := range hostiletest.Documents(hostiletest.Joined()) {
		if d.Name != "fixture" {
			docs["hostile-"+d.Name] = d.Bytes
		}
	}
	return docs
}

// isDocumentedError reports whether err is one of the kinds Decode documents.
func isDocumentedError(err error) bool {
	var fe *FormatError
	var de *DecodeError
	var te *ToolError
	return errors.As(err, &fe) || errors.As(err, &de) || errors.As(err, &te) || errors.Is(err, ErrEmpty)
}

// onlySpace reports whether b is JSON whitespace.
func onlySpace(b []byte) bool { return len(bytes.TrimLeft(b, " \t\r\n")) == 0 }

// cutPoints returns the offsets a document of n bytes is cut at: every one
// for a short document; otherwise the first and last 48 (where a cut
// leaves an almost complete document) and 48 more spread between.
func cutPoints(n int) []int {
	var cuts []int
	step := max(1, n/48)
	for i := 0; i < n; i++ {
		if n <= 400 || i < 48 || i >= n-48 || i%step == 0 {
			cuts = append(cuts, i)
		}
	}
	return cuts
}

// TestTruncatedHistoriesAreErrors cuts every history of every format (and
// MCP results wrapping them) at many byte offsets: each cut is an error of a
// documented kind, never a shorter history passed off as complete. Only a
// cut that removes nothing but trailing whitespace decodes, and then to the
// whole history. Every seventh cut is also read one byte at a time, the
// streaming path a pipe takes.
func TestTruncatedHistoriesAreErrors(t *testing.T) {
	for name, doc := range wholeDocuments(t) {
		full, err := Decode(bytes.NewReader(doc), DecodeOptions{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		want := summaries(full)
		for _, cut := range cutPoints(len(doc)) {
			check := func(how string, h *History, err error) {
				switch {
				case err != nil && h != nil:
					t.Fatalf("%s cut at %d (%s): a history and an error: %v", name, cut, how, err)
				case err != nil && !isDocumentedError(err):
					t.Fatalf("%s cut at %d (%s): undocumented error %T: %v", name, cut, how, err, err)
				case err == nil && !onlySpace(doc[cut:]):
					t.Fatalf("%s cut at %d of %d (%s): decoded %d of %d events without an error",
						name, cut, len(doc), how, h.Len(), full.Len())
				case err == nil && !slices.Equal(summaries(h), want):
					t.Fatalf("%s cut at %d (%s): the history differs from the whole document's", name, cut, how)
				}
			}
			h, err := Decode(bytes.NewReader(doc[:cut]), DecodeOptions{})
			check("in memory", h, err)
			if cut%7 == 0 {
				h, err = Decode(iotest.OneByteReader(bytes.NewReader(doc[:cut])), DecodeOptions{})
				check("one byte at a time", h, err)
			}
		}
	}
}

// TestEventCapIsAnErrorNotAPartialHistory: a history longer than MaxEvents
// is an error wrapping ErrTooManyEvents, never its first MaxEvents events.
func TestEventCapIsAnErrorNotAPartialHistory(t *testing.T) {
	for name, doc := range wholeDocuments(t) {
		full, err := Decode(bytes.NewReader(doc), DecodeOptions{})
		if err != nil || full.Len() < 2 {
			continue
		}
		h, err := Decode(bytes.NewReader(doc), DecodeOptions{MaxEvents: full.Len() - 1})
		if h != nil || !errors.Is(err, ErrTooManyEvents) {
			t.Errorf("%s: cap %d of %d events gave %v, %v", name, full.Len()-1, full.Len(), h != nil, err)
		}
		if h, err := Decode(bytes.NewReader(doc), DecodeOptions{MaxEvents: full.Len()}); err != nil || h.Len() != full.Len() {
			t.Errorf("%s: cap at exactly %d events: %v", name, full.Len(), err)
		}
	}
}
