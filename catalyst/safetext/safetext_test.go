package safetext

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestLine(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"plain ascii is unchanged", "ChargeCard attempt 1", "ChargeCard attempt 1"},
		{"wide and accented text is kept", "café 支付 ✓", "café 支付 ✓"},
		{"clear screen", "\x1b[2J", `\x1b[2J`},
		{"window title", "\x1b]0;pwned\x07", `\x1b]0;pwned\x07`},
		{"osc 52 clipboard write", "\x1b]52;c;Y3VybA==\x07", `\x1b]52;c;Y3VybA==\x07`},
		{"carriage return overwrite", "ok\rFAILED", `ok\rFAILED`},
		{"newline and tab", "a\nb\tc", `a\nb\tc`},
		{"backspace bell nul del", "\b\a\x00\x7f", `\x08\x07\x00\x7f`},
		{"c1 csi", "x\u009b2Jy", `x\u009b2Jy`},
		{"bidi override", "abc\u202edef", `abc\u202edef`},
		{"zero width space", "Charge\u200bCard", `Charge\u200bCard`},
		{"tag character above the BMP", "a\U000E0041b", `a\U000e0041b`},
		{"line separator", "a\u2028b", `a\u2028b`},
		{"invalid utf-8", "a\xffb", "a\uFFFDb"},
		{"tview markup is plain text", "[red]boom", "[red]boom"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Line(tt.in); got != tt.want {
				t.Errorf("Line(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestBlockKeepsNewlinesAndTabsOnly(t *testing.T) {
	in := "Traceback:\n\tFile \"x.py\"\r\n\x1b[31mboom"
	want := "Traceback:\n\tFile \"x.py\"\\r\n\\x1b[31mboom"
	if got := Block(in); got != want {
		t.Errorf("Block = %q, want %q", got, want)
	}
}

func TestSafeOutputHasOnlyPrintableRunesAndIsIdempotent(t *testing.T) {
	in := "\x1b]8;;https://evil\x1b\\ok\x1b]8;;\x1b\\\u009b\u202e\u200b\xfe\r\n\t\x00"
	for _, f := range []func(string) string{Line, Block} {
		out := f(in)
		for _, r := range out {
			if r == '\n' || r == '\t' {
				continue
			}
			if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
				t.Fatalf("unsafe rune %U survived in %q", r, out)
			}
		}
		if f(out) != out {
			t.Errorf("not idempotent: %q -> %q", out, f(out))
		}
	}
	if !IsSafe(Line(in)) || IsSafe(in) {
		t.Error("IsSafe disagrees with Line")
	}
}

func TestAppendJSONEscapesTerminalControlsAndRoundTrips(t *testing.T) {
	in := "q\"\\ \x1b[2J \u009b \u202e \u2028 \x7f <&> \U000E0041 ok"
	lit := string(AppendJSON(nil, in))
	for _, bad := range []string{"\x1b", "\u009b", "\u202e", "\u2028", "\x7f", "\U000E0041"} {
		if strings.Contains(lit, bad) {
			t.Errorf("literal %q holds raw %q", lit, bad)
		}
	}
	if !strings.Contains(lit, "<&>") {
		t.Errorf("literal %q escaped HTML characters", lit)
	}
	var back string
	if err := json.Unmarshal([]byte(lit), &back); err != nil {
		t.Fatalf("literal %q does not parse: %v", lit, err)
	}
	if back != in {
		t.Errorf("round trip = %q, want %q", back, in)
	}
	if got := string(AppendJSON(nil, "a\xffb")); got != `"a\ufffdb"` || !utf8.ValidString(got) {
		t.Errorf("invalid utf-8 literal = %q", got)
	}
}

func TestInertJSONLiteral(t *testing.T) {
	for _, tc := range []struct {
		lit  string
		want bool
	}{
		{`"plain {\"a\":1}"`, true},
		{`"a long plain literal, longer than one word"`, true},
		{`"esc \u001b"`, false},
		{`"an escaped backslash then u: \\u is text"`, true},
		{`"escaped backslash last \\"`, true},
		{"\"raw \u202e\"", false},
		{"\"del \x7f\"", false},
		{"\"tab \t raw\"", false},
		{`"slash \/ ok"`, true},
	} {
		if got := InertJSONLiteral(tc.lit); got != tc.want {
			t.Errorf("InertJSONLiteral(%q) = %v, want %v", tc.lit, got, tc.want)
		}
	}
}

// TestPlainJSONRunStopsAtTheFirstSpecialByte checks the eight-bytes-at-a-time
// scan against the rule it implements, byte by byte: every byte value at
// every offset of a word and its tail, behind plain text and behind other
// special bytes (whose borrows and carries must not hide or invent a stop);
// and InertJSONLiteral, built on it, against its rule.
func TestPlainJSONRunStopsAtTheFirstSpecialByte(t *testing.T) {
	special := func(c byte) bool { return c < 0x20 || c >= 0x7f || c == '"' || c == '\\' }
	want := func(s string, i int) int {
		for ; i < len(s); i++ {
			if special(s[i]) {
				return i
			}
		}
		return i
	}
	inert := func(lit string) bool {
		for i := 0; i < len(lit); i++ {
			c := lit[i]
			if c < 0x20 || c >= 0x7f {
				return false
			}
			if c == '\\' {
				if i++; i < len(lit) && lit[i] == 'u' {
					return false
				}
			}
		}
		return true
	}
	check := func(s string, from int) {
		t.Helper()
		if got, w := plainJSONRun(s, from), want(s, from); got != w {
			t.Fatalf("plainJSONRun(%q, %d) = %d, want %d", s, from, got, w)
		}
		if got, w := InertJSONLiteral(s), inert(s); got != w {
			t.Fatalf("InertJSONLiteral(%q) = %v, want %v", s, got, w)
		}
	}
	for n := 0; n <= 19; n++ {
		for pos := 0; pos < n; pos++ {
			for c := 0; c < 256; c++ {
				b := []byte(strings.Repeat("a", n))
				b[pos] = byte(c)
				check(string(b), 0)
				// A second byte after it, from each of the edge values.
				for _, d := range []byte{0x00, 0x1f, 0x20, '!', '"', '#', '[', '\\', ']', 'u', 0x7e, 0x7f, 0x80, 0xfe, 0xff} {
					if pos+1 < n {
						b2 := append([]byte(nil), b...)
						b2[pos+1] = d
						check(string(b2), 0)
					}
					if pos > 0 {
						b2 := append([]byte(nil), b...)
						b2[pos-1] = d
						check(string(b2), 0)
					}
				}
			}
		}
	}
	for from := 0; from <= 10; from++ {
		check(`0123456789"abcdef\0123`, from)
	}
	// From every start: a special byte before the start is not the answer,
	// even inside the last eight bytes, which are scanned as one word.
	rng := rand.New(rand.NewPCG(9, 10))
	alphabet := []byte{'a', 'a', 'a', 'a', 'z', '"', '\\', 0x00, 0x1f, 0x7f, 0x80, 0xff}
	for range 20000 {
		b := make([]byte, rng.IntN(41))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		for from := 0; from <= len(b); from++ {
			check(string(b), from)
		}
	}
}

// BenchmarkAppendJSON measures the JSON string writer on the text a history
// holds most: ids, names and payloads.
func BenchmarkAppendJSON(b *testing.B) {
	inputs := []struct{ name, s string }{
		{"id", "26e23d7f-022b-42d1-8c05-eeab555417d3"},
		{"name", "CreateShipment"},
		{"payload", `{"batchId":"b-NDrsfKnH","orders":500}`},
		{"unicode", "café 支付 ✓ and a little more text"},
	}
	for _, in := range inputs {
		b.Run(in.name, func(b *testing.B) {
			b.SetBytes(int64(len(in.s)))
			buf := make([]byte, 0, 256)
			for b.Loop() {
				buf = AppendJSON(buf[:0], in.s)
			}
		})
	}
}
