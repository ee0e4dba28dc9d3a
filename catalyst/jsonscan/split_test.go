package jsonscan

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"testing/iotest"
)

// TestIndentationIsSkipped: runs of spaces of every length, with tabs and
// newlines among them and across the window's edge, are whitespace.
func TestIndentationIsSkipped(t *testing.T) {
	for _, n := range []int{0, 1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 200} {
		pad := strings.Repeat(" ", n)
		doc := "{\n" + pad + `"a":` + pad + "1,\n\t" + pad + "\r\n" + pad + `"b"` + pad + ":[" + pad + "2" + pad + "]" + pad + "\n}" + pad
		for name, s := range scanners(doc) {
			got, err := walk(s)
			if err != nil || got != `{a:1,b:[2]}` {
				t.Errorf("%s, %d spaces: got %q, %v", name, n, got, err)
			}
		}
	}
}

// TestStringValueOrNull: a string is read as StringValue reads it, null is
// consumed and reported, and anything else is StringValue's error with
// nothing consumed.
func TestStringValueOrNull(t *testing.T) {
	s := NewSize(strings.NewReader(`["a\nb", null, 5, nul]`), 64)
	if err := s.BeginArray(); err != nil {
		t.Fatal(err)
	}
	s.NextElement()
	if b, null, err := s.StringValueOrNull(); string(b) != "a\nb" || null || err != nil {
		t.Fatalf("string: %q %v %v", b, null, err)
	}
	s.NextElement()
	if b, null, err := s.StringValueOrNull(); b != nil || !null || err != nil {
		t.Fatalf("null: %q %v %v", b, null, err)
	}
	s.NextElement()
	var ve *ValueError
	if _, null, err := s.StringValueOrNull(); null || !errors.As(err, &ve) || ve.Kind != '5' {
		t.Fatalf("number: %v %v", null, err)
	}
	if v, err := s.Int32(); v != 5 || err != nil {
		t.Fatalf("the number was consumed: %d %v", v, err)
	}
	s.NextElement()
	var se *SyntaxError
	if _, _, err := s.StringValueOrNull(); !errors.As(err, &se) {
		t.Fatalf("bad literal: %v, want a syntax error", err)
	}
}

// TestForkAndResume: a fork reads the rest of an array from where it is
// told, with offsets and depth as the original's; the original resumes
// after the array as if it had read it, its capture complete.
func TestForkAndResume(t *testing.T) {
	doc := `{"k":[{"a":1},{"b":[2,3]},{"c":"x"}],"after":true}`
	start := int64(strings.Index(doc, `{"b"`))
	s := NewSize(iotest.HalfReader(strings.NewReader(doc)), 64)
	var captured bytes.Buffer
	if err := s.Capture(&captured); err != nil {
		t.Fatal(err)
	}
	if err := s.BeginObject(); err != nil {
		t.Fatal(err)
	}
	if k, _, _ := s.NextKey(); string(k) != "k" {
		t.Fatalf("key %q", k)
	}
	if err := s.BeginArray(); err != nil {
		t.Fatal(err)
	}
	s.SetMaxDepth(5)
	f := s.Fork(strings.NewReader(doc[start:]), start)
	if f.Offset() != start || f.Depth() != 2 {
		t.Fatalf("fork at %d, depth %d", f.Offset(), f.Depth())
	}
	var elems []string
	for {
		raw, err := f.RawValue()
		if err != nil {
			t.Fatal(err)
		}
		elems = append(elems, string(raw))
		more, err := f.NextElement()
		if err != nil {
			t.Fatal(err)
		}
		if !more {
			break
		}
	}
	end := f.Offset()
	if strings.Join(elems, " ") != `{"b":[2,3]} {"c":"x"}` || doc[end-1] != ']' {
		t.Fatalf("fork read %q, ending at %d", elems, end)
	}
	// The original reads the first element, then takes over.
	if more, err := s.NextElement(); !more || err != nil {
		t.Fatal(more, err)
	}
	if err := s.SkipValue(); err != nil {
		t.Fatal(err)
	}
	if more, err := s.NextElement(); !more || err != nil || s.Offset() != start {
		t.Fatalf("at %d, want %d: %v %v", s.Offset(), start, more, err)
	}
	if err := s.Resume(strings.NewReader(doc[end:]), end, strings.NewReader(doc[start:end])); err != nil {
		t.Fatal(err)
	}
	if k, more, err := s.NextKey(); string(k) != "after" || !more || err != nil {
		t.Fatalf("after resume: %q %v %v", k, more, err)
	}
	if v, err := s.Bool(); !v || err != nil {
		t.Fatal(v, err)
	}
	if _, more, err := s.NextKey(); more || err != nil {
		t.Fatal(more, err)
	}
	if err := s.EndCapture(); err != nil || captured.String() != doc {
		t.Fatalf("captured %q, %v", captured.String(), err)
	}
	if err := s.End(); err != nil {
		t.Fatal(err)
	}

	// Misuse and a short read of the skipped bytes.
	o := NewBytes([]byte(`{"a":1}`))
	o.BeginObject()
	if err := o.Resume(strings.NewReader(""), 7, nil); err == nil {
		t.Error("Resume outside an array: no error")
	}
	c := NewBytes([]byte(`[1,2,3]`))
	c.Capture(&bytes.Buffer{})
	c.BeginArray()
	c.NextElement()
	if err := c.Resume(strings.NewReader(""), 7, strings.NewReader("1")); err == nil {
		t.Error("skipped bytes cut short: no error")
	}
}
