package jsonscan

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// walk reads a whole document through the token API, returning a canonical
// rendering (keys unescaped, string values as literals) or the first error.
func walk(s *Scanner) (string, error) {
	var out strings.Builder
	var stack []bool // true: array
	for {
		k, err := s.PeekKind()
		if err != nil {
			return "", err
		}
		switch k {
		case '{':
			err = s.BeginObject()
			stack = append(stack, false)
			out.WriteByte('{')
		case '[':
			err = s.BeginArray()
			stack = append(stack, true)
			out.WriteByte('[')
		case '"':
			var b []byte
			b, err = s.String()
			out.Write(b)
		case 't', 'f':
			var v bool
			v, err = s.Bool()
			if v {
				out.WriteString("true")
			} else {
				out.WriteString("false")
			}
		case 'n':
			err = s.Null()
			out.WriteString("null")
		default:
			var b []byte
			b, err = s.Number()
			out.Write(b)
		}
		if err != nil {
			return "", err
		}
		for {
			if len(stack) == 0 {
				return out.String(), s.End()
			}
			var more bool
			if stack[len(stack)-1] {
				more, err = s.NextElement()
				if more && !strings.HasSuffix(out.String(), "[") {
					out.WriteByte(',')
				}
			} else {
				var key []byte
				key, more, err = s.NextKey()
				if more {
					if !strings.HasSuffix(out.String(), "{") {
						out.WriteByte(',')
					}
					out.WriteString(string(key) + ":")
				}
			}
			if err != nil {
				return "", err
			}
			if more {
				break
			}
			if stack[len(stack)-1] {
				out.WriteByte(']')
			} else {
				out.WriteByte('}')
			}
			stack = stack[:len(stack)-1]
		}
	}
}

// scanners returns the ways a document can be scanned: in memory, through
// a tiny window, and one byte per Read.
func scanners(doc string) map[string]*Scanner {
	return map[string]*Scanner{
		"bytes":      NewBytes([]byte(doc)),
		"window64":   NewSize(strings.NewReader(doc), 64),
		"onebyte":    NewSize(iotest.OneByteReader(strings.NewReader(doc)), 64),
		"halfreader": NewSize(iotest.HalfReader(strings.NewReader(doc)), 100),
	}
}

func TestWalkValidDocuments(t *testing.T) {
	tests := []struct{ doc, want string }{
		{`{}`, `{}`},
		{` [ ] `, `[]`},
		{`{"a":1,"b":[true,false,null],"c":{"d":"e"}}`, `{a:1,b:[true,false,null],c:{d:"e"}}`},
		{`[-0, 0.5, -1.25e+10, 1E-3, 123456789012345678901234567890]`, `[-0,0.5,-1.25e+10,1E-3,123456789012345678901234567890]`},
		{`{"k\u00e9y\n":"v\"\\\/\b\f\n\r\t\u0041"}`, "{k\u00e9y\n:\"v\\\"\\\\\\/\\b\\f\\n\\r\\t\\u0041\"}"},
		{"\"invalid \xff utf-8 is passed through\"", "\"invalid \xff utf-8 is passed through\""},
		{"\t\r\n 42 \n", `42`},
		{`"\ud83d\ude00"`, `"\ud83d\ude00"`},
	}
	for _, tt := range tests {
		for name, s := range scanners(tt.doc) {
			got, err := walk(s)
			if err != nil || got != tt.want {
				t.Errorf("%s %q: got %q, %v; want %q", name, tt.doc, got, err, tt.want)
			}
		}
	}
}

func TestSyntaxErrors(t *testing.T) {
	tests := []struct {
		doc    string
		offset int64
		msg    string
	}{
		{`{"a":1`, 6, "unexpected end of input inside an object"},
		{`{"a":1,}`, 7, "trailing comma before '}'"},
		{`[1,2,]`, 5, "trailing comma before ']'"},
		{`[1 2]`, 3, "found '2' where ',' or ']' after an array element was expected"},
		{`{"a" 1}`, 5, "found '1' where ':' after an object key was expected"},
		{`{a:1}`, 1, "found 'a' where a string key was expected"},
		{`[01]`, 2, `invalid number "01"`},
		{`[1.]`, 3, `invalid number "1."`},
		{`[-]`, 2, `invalid number "-"`},
		{`[1e]`, 3, `invalid number "1e"`},
		{`[+1]`, 1, "found '+' where a value was expected"},
		{"[\"a\x01b\"]", 3, "control character 0x01 in a string"},
		{`["\x"]`, 2, `invalid escape "\\x\"]"`},
		{`["\u12G4"]`, 2, `invalid escape`},
		{`"abc`, 4, "unexpected end of input in a string"},
		{`[tru]`, 4, "invalid literal (want true)"},
		{`nul`, 3, "unexpected end of input in the literal null"},
		{`{} {}`, 3, "trailing data after the JSON value: found '{'"},
		{`1 2`, 2, "trailing data after the JSON value: found '2'"},
		{``, 0, "unexpected end of input where a value was expected"},
		{`]`, 0, "found ']' where a value was expected"},
	}
	for _, tt := range tests {
		for name, s := range scanners(tt.doc) {
			_, err := walk(s)
			if tt.doc == "" {
				err = s.SkipValue()
			}
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Errorf("%s %q: error %v, want a SyntaxError", name, tt.doc, err)
				continue
			}
			if se.Offset != tt.offset || !strings.Contains(se.Msg, tt.msg) {
				t.Errorf("%s %q: got offset %d %q; want %d %q", name, tt.doc, se.Offset, se.Msg, tt.offset, tt.msg)
			}
			if json.Valid([]byte(tt.doc)) {
				t.Errorf("%q: encoding/json accepts what the scanner rejects", tt.doc)
			}
		}
	}
}

func TestErrorsAreSticky(t *testing.T) {
	s := NewBytes([]byte(`[1,,2]`))
	_, err := walk(s)
	if err == nil {
		t.Fatal("want an error")
	}
	if _, err2 := s.PeekKind(); err2 != err || s.Err() != err || s.SkipValue() != err {
		t.Errorf("later calls returned %v, %v; want the first error %v", err2, s.Err(), err)
	}
}

func TestDepthLimit(t *testing.T) {
	for _, tt := range []struct {
		depth int
		ok    bool
	}{{DefaultMaxDepth, true}, {DefaultMaxDepth + 1, false}} {
		doc := strings.Repeat("[", tt.depth) + strings.Repeat("]", tt.depth)
		for name, s := range map[string]*Scanner{"bytes": NewBytes([]byte(doc)), "reader": NewSize(strings.NewReader(doc), 64)} {
			err := s.SkipValue()
			if err == nil {
				err = s.End()
			}
			if tt.ok != (err == nil) {
				t.Errorf("%s depth %d: error %v, want ok=%v", name, tt.depth, err, tt.ok)
			}
			if !tt.ok && (err == nil || !strings.Contains(err.Error(), "nesting deeper than 10000 levels")) {
				t.Errorf("%s depth %d: error %v, want the nesting limit", name, tt.depth, err)
			}
			if json.Valid([]byte(doc)) != tt.ok {
				t.Errorf("depth %d: encoding/json disagrees", tt.depth)
			}
		}
	}
	s := NewBytes([]byte(`[[[1]]]`))
	s.SetMaxDepth(2)
	if err := s.SkipValue(); err == nil || !strings.Contains(err.Error(), "deeper than 2") {
		t.Errorf("SetMaxDepth(2): %v", err)
	}
}

func TestDeepNestingInObjects(t *testing.T) {
	// Object nesting goes through the same stack: a million levels is an
	// error at the limit, not a stack overflow.
	doc := strings.Repeat(`{"a":`, 1_000_000)
	s := NewBytes([]byte(doc))
	if err := s.SkipValue(); err == nil || !strings.Contains(err.Error(), "nesting deeper") {
		t.Errorf("got %v, want the nesting limit", err)
	}
}

func TestLongTokensCrossTheWindow(t *testing.T) {
	big := strings.Repeat("x", 5<<20)
	doc := `{"payload":"` + big + `\n","n":12345678901234567890123}`
	s := NewSize(iotest.HalfReader(strings.NewReader(doc)), 4096)
	if err := s.BeginObject(); err != nil {
		t.Fatal(err)
	}
	key, more, err := s.NextKey()
	if err != nil || !more || string(key) != "payload" {
		t.Fatalf("key %q %v %v", key, more, err)
	}
	v, err := s.StringValue()
	if err != nil || len(v) != len(big)+1 || v[len(v)-1] != '\n' {
		t.Fatalf("value of %d bytes, %v; want %d", len(v), err, len(big)+1)
	}
	if _, _, err := s.NextKey(); err != nil {
		t.Fatal(err)
	}
	n, err := s.Number()
	if err != nil || string(n) != "12345678901234567890123" {
		t.Fatalf("number %q %v", n, err)
	}
	if _, more, err := s.NextKey(); more || err != nil {
		t.Fatal("want the end of the object", more, err)
	}
	if err := s.End(); err != nil {
		t.Fatal(err)
	}
	if s.Offset() != int64(len(doc)) {
		t.Errorf("Offset %d, want %d", s.Offset(), len(doc))
	}
}

func TestKeyWithWhitespaceAtTheWindowEdge(t *testing.T) {
	// The key must survive a refill between its closing quote and the colon.
	for pad := 0; pad < 70; pad++ {
		doc := `{"` + strings.Repeat("k", pad) + `"` + strings.Repeat(" ", 70) + `:1}`
		s := NewSize(strings.NewReader(doc), 64)
		if err := s.BeginObject(); err != nil {
			t.Fatal(err)
		}
		key, _, err := s.NextKey()
		if err != nil || string(key) != strings.Repeat("k", pad) {
			t.Fatalf("pad %d: key %q, %v", pad, key, err)
		}
	}
}

func TestStringValueUnescapes(t *testing.T) {
	tests := []struct{ lit, want string }{
		{`"plain"`, "plain"},
		{`"a\"b\\c\/d"`, `a"b\c/d`},
		{`"\b\f\n\r\t"`, "\b\f\n\r\t"},
		{`"\u00e9\u20ac"`, "é€"},
		{`"\ud83d\ude00"`, "😀"},
		{`"\ud800x"`, "\uFFFDx"},
		{`"\udc00"`, "\uFFFD"},
		{`"\ud83d\u0041"`, "\uFFFDA"},
		{"\"\xff\xfe\"", "\xff\xfe"},
	}
	for _, tt := range tests {
		got, err := NewBytes([]byte(tt.lit)).StringValue()
		if err != nil || string(got) != tt.want {
			t.Errorf("StringValue(%s) = %q, %v; want %q", tt.lit, got, err, tt.want)
		}
		var want string
		if json.Unmarshal([]byte(tt.lit), &want) == nil && !strings.ContainsRune(tt.want, 0xFFFD) && want != tt.want {
			t.Errorf("%s: encoding/json decodes %q", tt.lit, want)
		}
	}
}

func TestIntegers(t *testing.T) {
	tests := []struct {
		doc   string
		v     int32
		isErr bool
	}{
		{`0`, 0, false}, {`-1`, -1, false}, {`2147483647`, 2147483647, false},
		{`-2147483648`, -2147483648, false}, {`2147483648`, 0, true}, {`1.5`, 0, true},
		{`1e3`, 0, true}, {`00`, 0, true}, {`"1"`, 0, true},
	}
	for _, tt := range tests {
		for _, pad := range []string{"", "             "} {
			doc := "[" + tt.doc + pad + "]"
			s := NewBytes([]byte(doc))
			_ = s.BeginArray()
			_, _ = s.NextElement()
			v, err := s.Int32()
			if (err != nil) != tt.isErr || v != tt.v {
				t.Errorf("Int32(%s) = %d, %v; want %d, error %v", doc, v, err, tt.v, tt.isErr)
			}
		}
	}
	v, err := NewBytes([]byte(`-9007199254740993`)).Int64()
	if err != nil || v != -9007199254740993 {
		t.Errorf("Int64 = %d, %v", v, err)
	}
}

func TestWrongKindConsumesNothing(t *testing.T) {
	s := NewBytes([]byte(`["x", 5]`))
	_ = s.BeginArray()
	_, _ = s.NextElement()
	_, err := s.Int32()
	var ve *ValueError
	if !errors.As(err, &ve) || ve.Kind != '"' || ve.Offset != 1 || ve.Msg != "found a string, want a number" {
		t.Fatalf("Int32 on a string: %#v", err)
	}
	if v, err := s.StringValue(); err != nil || string(v) != "x" {
		t.Fatalf("the string is still there: %q %v", v, err)
	}
	_, _ = s.NextElement()
	if _, err := s.Bool(); !errors.As(err, &ve) || ve.Kind != '5' {
		t.Fatalf("Bool on a number: %v", err)
	}
	if err := s.SkipValue(); err != nil {
		t.Fatal(err)
	}
}

func TestRawValueAndMark(t *testing.T) {
	doc := `[{"a": [1, "two", {"b": null}]}, "next"]`
	for name, s := range scanners(doc) {
		_ = s.BeginArray()
		_, _ = s.NextElement()
		if err := s.Mark(); err != nil {
			t.Fatal(err)
		}
		raw, err := s.RawValue()
		if err != nil || string(raw) != `{"a": [1, "two", {"b": null}]}` {
			t.Errorf("%s: RawValue %q, %v", name, raw, err)
		}
		if string(s.Marked()) != string(raw) {
			t.Errorf("%s: Marked %q", name, s.Marked())
		}
		s.Unmark()
		if s.Marked() != nil {
			t.Errorf("%s: Marked after Unmark", name)
		}
		_, _ = s.NextElement()
		if v, err := s.StringValue(); err != nil || string(v) != "next" {
			t.Errorf("%s: after RawValue: %q %v", name, v, err)
		}
	}
}

func TestCaptureWritesTheValueExactlyOnce(t *testing.T) {
	value := `{"events":[` + strings.Repeat(`{"eventId":-1,"x":"`+strings.Repeat("y", 50)+`"},`, 200) + `{}]}`
	doc := `{"schema_version":1,  "history":   ` + value + ` , "after":true}`
	for name, s := range scanners(doc) {
		var got bytes.Buffer
		_ = s.BeginObject()
		for {
			key, more, err := s.NextKey()
			if err != nil || !more {
				break
			}
			if string(key) != "history" {
				_ = s.SkipValue()
				continue
			}
			if err := s.Capture(iotest.TruncateWriter(&got, 1<<30)); err != nil {
				t.Fatal(err)
			}
			if err := s.SkipValue(); err != nil {
				t.Fatal(err)
			}
			if err := s.EndCapture(); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.End(); err != nil {
			t.Fatal(err)
		}
		if got.String() != value {
			t.Errorf("%s: captured %d bytes, want the %d bytes of the value", name, got.Len(), len(value))
		}
	}
}

func TestCaptureReportsWriteErrors(t *testing.T) {
	s := NewSize(strings.NewReader(`"`+strings.Repeat("a", 1000)+`"`), 64)
	boom := errors.New("disk full")
	if err := s.Capture(errWriter{boom}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.String(); err != nil {
		t.Fatal(err)
	}
	if err := s.EndCapture(); !errors.Is(err, boom) {
		t.Errorf("EndCapture = %v, want the writer's error", err)
	}
}

type errWriter struct{ err error }

func (w errWriter) Write([]byte) (int, error) { return 0, w.err }

func TestReadErrorsAreReported(t *testing.T) {
	boom := errors.New("connection reset")
	s := NewSize(io.MultiReader(strings.NewReader(`{"a":"`+strings.Repeat("b", 100)), iotest.ErrReader(boom)), 64)
	err := s.SkipValue()
	var re *ReadError
	if !errors.As(err, &re) || !errors.Is(err, boom) {
		t.Fatalf("got %v, want a ReadError wrapping the reader's error", err)
	}
	if re.Offset != 106 {
		t.Errorf("offset %d, want 106", re.Offset)
	}
}

func TestPeekDoesNotConsume(t *testing.T) {
	doc := "  " + strings.Repeat(`{"a":1}`, 100)
	s := NewSize(strings.NewReader(doc), 64)
	head, err := s.Peek(500)
	if err != nil || string(head) != doc[2:502] {
		t.Fatalf("Peek = %q, %v", head, err)
	}
	if s.Offset() != 2 {
		t.Errorf("Offset after Peek = %d, want 2 (whitespace only)", s.Offset())
	}
	head, err = NewBytes([]byte(`[1]`)).Peek(100)
	if err != nil || string(head) != `[1]` {
		t.Errorf("short Peek = %q, %v", head, err)
	}
}

func TestAPIMisuse(t *testing.T) {
	s := NewBytes([]byte(`[1]`))
	if _, _, err := s.NextKey(); err == nil {
		t.Error("NextKey outside an object")
	}
	_ = s.BeginArray()
	if _, _, err := s.NextKey(); err == nil {
		t.Error("NextKey in an array")
	}
	if err := s.End(); err == nil {
		t.Error("End with an array open")
	}
	if _, err := NewBytes([]byte(`{}`)).NextElement(); err == nil {
		t.Error("NextElement outside an array")
	}
}

func TestKindName(t *testing.T) {
	for c, want := range map[byte]string{'{': "an object", '[': "an array", '"': "a string", 't': "a boolean",
		'n': "null", '-': "a number", '7': "a number", 'x': "", 0: ""} {
		if got := KindName(c); got != want {
			t.Errorf("KindName(%q) = %q, want %q", c, got, want)
		}
	}
}

func TestSpecialMaskFindsTheFirstSpecialByte(t *testing.T) {
	for i := 0; i < 8; i++ {
		for _, special := range []byte{'"', '\\', 0, 0x1f} {
			b := []byte("abcdefgh")
			b[i] = special
			if i+1 < 8 {
				b[i+1] = '"' // a later special byte must not hide the first
			}
			if got := skipPlain(b, 0); got != i {
				t.Errorf("special %#x at %d in %q: skipPlain = %d", special, i, b, got)
			}
		}
	}
	if got := skipPlain([]byte("\x80\xff\x20\x7f!#[]"), 0); got != 8 {
		t.Errorf("plain high bytes: skipPlain = %d, want 8", got)
	}
}

// TestNextKeyIs: NextKeyIs takes a key only when the input holds exactly
// the quoted key and its colon (after whitespace, and after the ',' for any
// member but the first), consuming what NextKey would; otherwise it
// consumes nothing and NextKey reads on as if it had not been called.
func TestNextKeyIs(t *testing.T) {
	for _, c := range []struct {
		doc, quoted string
		want        bool
	}{
		{"{\n    \"name\": 1}", `"name":`, true},          // first member, indented
		{`{"name":1,"z":2}`, `"name":`, true},             // first member, others after
		{`{"a":0,"name":1}`, `"name":`, true},             // not the first: after ','
		{"{\"a\":0,\r\n\t\t\"name\":1}", `"name":`, true}, // other whitespace
		{"{\"a\":0,\n\t\"name\" :1}", `"name":`, false},   // space before the colon
		{`{"a":0 ,"name":1}`, `"name":`, false},           // space before the comma
		{`{"a":0,"names":1}`, `"name":`, false},           // a longer key
		{`{"a":0,"nam":1}`, `"name":`, false},             // a shorter key
		{`{"a":0,"n\u0061me":1}`, `"name":`, false},       // escaped: NextKey unescapes it
		{`{"a":0}`, `"name":`, false},                     // the end of the object
		{`{"a":0"name":1}`, `"name":`, false},             // no comma: NextKey's error
		{`{"a":0 "name":1}`, `"name":`, false},            // a space, no comma
		{`{"a":0,,"name":1}`, `"name":`, false},           // two commas: NextKey's error
		{`{"a":0,"na`, `"name":`, false},                  // cut off
	} {
		s := NewBytes([]byte(c.doc))
		if err := s.BeginObject(); err != nil {
			t.Fatal(err)
		}
		if c.doc[1] == '"' && !strings.HasPrefix(c.doc, `{"name"`) {
			if _, _, err := s.NextKey(); err != nil {
				t.Fatal(err)
			}
			if err := s.SkipValue(); err != nil {
				t.Fatal(err)
			}
		}
		before := s.Offset()
		got := s.NextKeyIs(c.quoted)
		if got != c.want {
			t.Errorf("%s: NextKeyIs(%s) = %v, want %v", c.doc, c.quoted, got, c.want)
			continue
		}
		if !got {
			if s.Offset() != before {
				t.Errorf("%s: a miss consumed %d bytes", c.doc, s.Offset()-before)
			}
			// NextKey reads on from the same place: compare with a fresh
			// scanner that never called NextKeyIs.
			fresh := NewBytes([]byte(c.doc))
			_ = fresh.BeginObject()
			if c.doc[1] == '"' {
				_, _, _ = fresh.NextKey()
				_ = fresh.SkipValue()
			}
			k1, m1, e1 := s.NextKey()
			k2, m2, e2 := fresh.NextKey()
			if string(k1) != string(k2) || m1 != m2 || (e1 == nil) != (e2 == nil) {
				t.Errorf("%s: after a miss NextKey gives %q %v %v, want %q %v %v", c.doc, k1, m1, e1, k2, m2, e2)
			}
			continue
		}
		if v, err := s.Int32(); err != nil || v != 1 {
			t.Errorf("%s: the value after the key is %d, %v; want 1", c.doc, v, err)
		}
		// The rest of the object reads as it would after NextKey.
		var rest []string
		var err error
		for {
			var key []byte
			var more bool
			if key, more, err = s.NextKey(); err != nil || !more {
				break
			}
			rest = append(rest, string(key))
			if err = s.SkipValue(); err != nil {
				break
			}
		}
		if err == nil {
			err = s.End()
		}
		if want := strings.Count(c.doc, ",") - strings.Count(c.doc[:strings.Index(c.doc, "name")], ","); err != nil || len(rest) != want {
			t.Errorf("%s: after the member: keys %q, %v; want %d more keys and the end", c.doc, rest, err, want)
		}
	}
	// Outside an object, or in an array, it takes nothing.
	s := NewBytes([]byte(`["name":1]`))
	if s.NextKeyIs(`"name":`) {
		t.Error("NextKeyIs took a key outside any object")
	}
	_ = s.BeginArray()
	if s.NextKeyIs(`"name":`) {
		t.Error("NextKeyIs took a key inside an array")
	}
}

// TestResetBytes: a scanner reset over a new document reads it as a new
// one would, whatever the last one left (an error, open objects).
func TestResetBytes(t *testing.T) {
	s := NewBytes([]byte(`{"a":[1,`))
	if err := s.BeginObject(); err != nil {
		t.Fatal(err)
	}
	if err := s.SkipValue(); err == nil { // no key read: an error, and sticky
		_ = s.SkipValue()
	}
	s.ResetBytes([]byte(`{"k":"v\n"}`))
	if err := s.BeginObject(); err != nil {
		t.Fatalf("after ResetBytes: %v", err)
	}
	k, more, err := s.NextKey()
	if err != nil || !more || string(k) != "k" {
		t.Fatalf("NextKey = %q, %v, %v", k, more, err)
	}
	v, err := s.StringValue()
	if err != nil || string(v) != "v\n" {
		t.Fatalf("StringValue = %q, %v", v, err)
	}
	if _, more, err := s.NextKey(); more || err != nil {
		t.Fatalf("end of object: more %v, err %v", more, err)
	}
	if err := s.End(); err != nil {
		t.Fatal(err)
	}
}
