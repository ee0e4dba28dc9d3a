package jsonscan

import (
	"bytes"
	"strings"
	"testing"
	"testing/iotest"
)

// keyLitDocs are documents whose keys repeat, in the ways a key literal
// could be mistaken: the same bytes as an object's first member and as a
// later one, a comma missing before bytes a first member once took,
// escaped keys, keys too long or too short for a literal, whitespace
// around the colon, and keys cut by the end of the input.
var keyLitDocs = []string{
	"[\n  {\n    \"namespace\": \"default\",\n    \"appID\": \"orders\"\n  },\n  {\n    \"namespace\": \"default\",\n    \"appID\": \"orders\"\n  }\n]",
	`[{"event_id":-1,"event_type":"A"},{"event_id":0,"event_type":"B"},{"event_type":"C","event_id":1}]`,
	`[{ "abcdefgh":1},{"b":1 "abcdefgh":1}]`,
	`[{"abcdefgh":1},{"x":0 "abcdefgh":1}]`,
	`[{"x":0, "abcdefgh":1},{ "abcdefgh":1}]`,
	`[{"a\u0062cdefgh":1},{"abcdefgh":2,"a\u0062cdefgh":3}]`,
	`[{"k" :1,"k" :2},{"k" :3}]`,
	`[{"abcdefgh":1,"abcdefgh":2}]`,
	`[{"` + strings.Repeat("k", 60) + `":1},{"` + strings.Repeat("k", 60) + `":2}]`,
	`[{"a":1},{"a":1},{"a"`,
	`[{"abcdefgh":1},{"abcdefgh"`,
	`{"abcdefgh":{"abcdefgh":{"abcdefgh":[]}}}`,
	`[{"abcdefgh":1},["abcdefgh":1]]`,
}

// TestNextKeyIsReadsWhatNextKeyReads walks documents offering every key
// literal met so far before each key: the keys read, the values, and
// where and why a document fails are exactly those of NextKey alone,
// whatever the window.
func TestNextKeyIsReadsWhatNextKeyReads(t *testing.T) {
	matched := 0
	for _, doc := range keyLitDocs {
		want, wantErr := walk(NewBytes([]byte(doc)))
		for name, s := range scanners(doc) {
			var lits []KeyLit
			got, err := walkWith(s, &lits)
			if got != want || errText(err) != errText(wantErr) {
				t.Errorf("%s, %q:\nwith literals %q, %v\nNextKey alone %q, %v", name, doc, got, err, want, wantErr)
			}
			if name == "bytes" {
				matched += countMatches(doc)
			}
		}
	}
	if matched == 0 {
		t.Fatal("no literal was ever matched: the test proves nothing")
	}
}

// countMatches is how many keys of doc NextKeyIs recognises, in memory.
func countMatches(doc string) int {
	s := NewBytes([]byte(doc))
	var lits []KeyLit
	n := 0
	if err := s.BeginArray(); err != nil {
		return 0
	}
	for {
		more, err := s.NextElement()
		if err != nil || !more || s.BeginObject() != nil {
			return n
		}
		for {
			hit := false
			for i := range lits {
				if s.NextKeyIs(&lits[i]) {
					hit, n = true, n+1
					break
				}
			}
			if !hit {
				from := s.Offset()
				_, more, err := s.NextKey()
				if err != nil || !more {
					break
				}
				if lit, ok := s.LastKeyLit(from); ok {
					lits = append(lits, lit)
				}
			}
			if s.SkipValue() != nil {
				return n
			}
		}
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestLastKeyLit: a literal is the bytes NextKey consumed, whitespace and
// separator included; there is none once the value has been read, for a
// key with an escape, too short or too long, or at an object's end.
func TestLastKeyLit(t *testing.T) {
	s := NewBytes([]byte("{\"first\" :1,\n  \"second\": 2, \"th\\u0069rd\":3, \"k\":3,\"" + strings.Repeat("x", 50) + "\":4}"))
	if err := s.BeginObject(); err != nil {
		t.Fatal(err)
	}
	wantKeys := []string{"first", "second", "", "", ""}
	for i, want := range wantKeys {
		from := s.Offset()
		if _, more, err := s.NextKey(); err != nil || !more {
			t.Fatalf("key %d: %v %v", i, more, err)
		}
		lit, ok := s.LastKeyLit(from)
		if ok != (want != "") {
			t.Fatalf("key %d: LastKeyLit ok=%v, want %v", i, ok, want != "")
		}
		if ok && string(lit.Key()) != want {
			t.Errorf("key %d: literal's key %q, want %q", i, lit.Key(), want)
		}
		if err := s.SkipValue(); err != nil {
			t.Fatal(err)
		}
		if _, ok := s.LastKeyLit(from); ok {
			t.Errorf("key %d: a literal after its value was read", i)
		}
	}
	from := s.Offset()
	if _, more, err := s.NextKey(); more || err != nil {
		t.Fatalf("end: %v %v", more, err)
	}
	if _, ok := s.LastKeyLit(from); ok {
		t.Error("a literal at the end of the object")
	}
	// Bytes read past a key, into a nested object's first key, are not
	// one key.
	s = NewBytes([]byte(`{"abc":{"defgh":1}}`))
	_ = s.BeginObject()
	from = s.Offset()
	_, _, _ = s.NextKey()
	_ = s.BeginObject()
	_, _, _ = s.NextKey()
	if lit, ok := s.LastKeyLit(from); ok {
		t.Errorf("a literal %q across two keys", lit.Key())
	}
}

// keyShape accepts exactly one key without escapes, with its separator.
func TestKeyShape(t *testing.T) {
	for _, tt := range []struct {
		in        string
		first, ok bool
	}{
		{`"abcdefgh":`, true, true},
		{` "a" :`, true, true},
		{",\n    \"appID\":", false, true},
		{`,"a\"b":`, false, false},
		{`,"a\\":`, false, false},
		{`,"a\u0062":`, false, false},
		{`,"a":1`, false, false},
		{`,"a":{"b":`, false, false},
		{`"a","b":`, true, false},
		{`,,"a":`, false, false},
		{`"a"`, true, false},
		{`:`, true, false},
		{`,"a:`, false, false},
	} {
		first, ok := keyShape([]byte(tt.in))
		if ok != tt.ok || ok && first != tt.first {
			t.Errorf("keyShape(%q) = %v, %v; want %v, %v", tt.in, first, ok, tt.first, tt.ok)
		}
	}
}

// FuzzKeyLit: on any document, offering key literals changes nothing.
func FuzzKeyLit(f *testing.F) {
	for _, doc := range keyLitDocs {
		f.Add([]byte(doc))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		want, wantErr := walk(NewBytes(doc))
		for name, s := range map[string]*Scanner{
			"bytes":  NewBytes(doc),
			"window": NewSize(iotest.HalfReader(bytes.NewReader(doc)), 64),
		} {
			var lits []KeyLit
			got, err := walkWith(s, &lits)
			if got != want || errText(err) != errText(wantErr) {
				t.Fatalf("%s: with literals %q, %v; NextKey alone %q, %v", name, got, err, want, wantErr)
			}
		}
	})
}
