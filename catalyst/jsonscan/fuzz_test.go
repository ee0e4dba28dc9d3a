package jsonscan

import (
	"bytes"
	"encoding/json"
	"testing"
	"testing/iotest"
)

// FuzzScanner checks that the scanner accepts exactly what encoding/json
// accepts, in memory and through a small window, and that a captured value
// is exactly the document's bytes.
func FuzzScanner(f *testing.F) {
	for _, seed := range []string{
		`{"events":[{"eventId":-1,"timestamp":"2026-08-20T10:00:00.512Z","workflowStarted":{}}]}`,
		`[1,-0.5e+3,true,false,null,"a\u00e9\n",{"k":[]}]`,
		`{"a":1,}`, `[01]`, "\"\x01\"", `"\ud800"`, `{"a" 1}`, `[1 2]`, ` {} x`, `[[[[`, `"\u12`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		want := json.Valid(doc)
		for name, s := range map[string]*Scanner{
			"bytes":  NewBytes(doc),
			"window": NewSize(iotest.HalfReader(bytes.NewReader(doc)), 64),
		} {
			var captured bytes.Buffer
			if err := s.Capture(&captured); err != nil && want {
				t.Fatalf("%s: Capture: %v", name, err)
			}
			err := s.SkipValue()
			if err == nil {
				if err = s.EndCapture(); err != nil {
					t.Fatalf("%s: EndCapture: %v", name, err)
				}
				err = s.End()
			}
			if got := err == nil; got != want {
				t.Fatalf("%s: scanner valid=%v (%v), encoding/json valid=%v for %q", name, got, err, want, doc)
			}
			if want && !bytes.Equal(captured.Bytes(), bytes.TrimSpace(doc)) {
				t.Fatalf("%s: captured %q, want %q", name, captured.Bytes(), bytes.TrimSpace(doc))
			}
		}
		// The token API agrees too.
		if _, err := walk(NewBytes(doc)); (err == nil) != want {
			t.Fatalf("walk: %v, encoding/json valid=%v for %q", err, want, doc)
		}
	})
}
