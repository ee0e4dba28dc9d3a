package safetext

import (
	"encoding/json"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

func FuzzSanitize(f *testing.F) {
	for _, s := range []string{"", "plain", "\x1b[2J", "\x1b]52;c;eA==\x07", "a\rb", "\u009b", "\u202e", "\u200b",
		"\xff", "a\nb\tc", "[red]x", "\x1b]8;;x", "é支付😀", "\U000E0041", "\u2028",
		"Charge\ufe0fCard", "a\u034fb", "\u3164", "\uffa0", "\U000E0100"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, multiline := range []bool{false, true} {
			out := clean(s, multiline)
			for _, r := range out {
				if multiline && (r == '\n' || r == '\t') {
					continue
				}
				if unsafeRune(r) {
					t.Fatalf("unsafe rune %U survived: %q", r, out)
				}
			}
			if !utf8.ValidString(out) {
				t.Fatalf("invalid utf-8 in output %q", out)
			}
			if again := clean(out, multiline); again != out {
				t.Fatalf("not idempotent: %q -> %q", out, again)
			}
			// Nothing in the output is a sequence a terminal would act on,
			// so the layout engine's width is the width of what it shows.
			if stripped := ansi.Strip(out); stripped != out {
				t.Fatalf("output holds an escape sequence: %q", out)
			}
		}
		lit := AppendJSON(nil, s)
		var back string
		if err := json.Unmarshal(lit, &back); err != nil {
			t.Fatalf("AppendJSON(%q) = %s: %v", s, lit, err)
		}
		if utf8.ValidString(s) && back != s {
			t.Fatalf("JSON round trip: %q -> %q", s, back)
		}
		for _, r := range string(lit) {
			if unsafeRune(r) {
				t.Fatalf("raw %U in JSON literal %s", r, lit)
			}
		}
	})
}

// unsafeRune is what must never survive sanitizing, stated apart from the
// code under test: controls, format characters (bidi, zero-width, tags),
// line and paragraph separators, and the invisible characters that are
// neither (variation selectors, the grapheme joiner, Hangul fillers).
func unsafeRune(r rune) bool {
	return unicode.IsControl(r) || unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp,
		unicode.Variation_Selector, unicode.Other_Default_Ignorable_Code_Point)
}
