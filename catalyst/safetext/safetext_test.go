package safetext

import (
	"encoding/json"
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
