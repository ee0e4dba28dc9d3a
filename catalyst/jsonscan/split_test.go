package jsonscan

import (
	"bytes"
	"errors"
	"strings"
	"testing"
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
// after the array as if it had read it.
func TestForkAndResume(t *testing.T) {
	doc := `{"k":[{"a":1},{"b":[2,3]},{"c":"x"}],"after":true}`
	start := int64(strings.Index(doc, `{"b"`))
	s := NewReaderAt(strings.NewReader(doc), int64(len(doc)))
	if at, size := s.Input(); at == nil || size != int64(len(doc)) {
		t.Fatalf("Input() = %v, %d", at, size)
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
	// A template forked here, forked again where the rest starts.
	f := s.Fork(s.Offset()).Fork(start)
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
	if err := s.Resume(end); err != nil {
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
	if err := s.End(); err != nil {
		t.Fatal(err)
	}
}

// TestResumeRefuses: Resume skips input only where it can read past it and
// nothing would miss the bytes skipped.
func TestResumeRefuses(t *testing.T) {
	inArray := func(s *Scanner) *Scanner {
		s.BeginArray()
		s.NextElement()
		return s
	}
	const doc = `[1,2,3]`
	at := func() *Scanner { return NewReaderAt(strings.NewReader(doc), int64(len(doc))) }
	capturing := inArray(at())
	capturing.Capture(&bytes.Buffer{})
	outside := at()
	outside.BeginArray()
	outside.NextElement()
	outside.SkipValue()
	outside.NextElement()
	outside.SkipValue()
	outside.NextElement()
	outside.SkipValue()
	outside.NextElement()
	for name, c := range map[string]struct {
		s    *Scanner
		end  int64
		want string
	}{
		"bytes":        {inArray(NewBytes([]byte(doc))), 7, "NewReaderAt"},
		"capturing":    {capturing, 7, "while capturing"},
		"outside":      {outside, 7, "outside an array"},
		"behind":       {inArray(at()), 0, "behind"},
		"past the end": {inArray(at()), 8, "past the input"},
	} {
		if err := c.s.Resume(c.end); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error with %q", name, err, c.want)
		}
	}
	if f := NewBytes([]byte(doc)).Fork(1); f != nil {
		t.Error("a Scanner of bytes forked")
	}
}
