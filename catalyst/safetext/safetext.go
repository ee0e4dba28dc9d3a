// Package safetext is twice's one sanitizer: every string that came from a
// history (names, ids, errors, stack traces, payloads) passes through it
// before it reaches a terminal.
//
// History text is written by arbitrary application code, so it is treated as
// hostile. Rather than parse escape sequences (filters built as state
// machines fail at the edges), safetext escapes every character that a
// terminal would interpret instead of print: C0 controls, DEL, C1 controls,
// Unicode format characters (bidi overrides, zero-width characters, BOM) and
// line/paragraph separators. Each is shown in place as a visible escape
// (\x1b, \r, \u202e) so the evidence stays readable; invalid UTF-8 becomes
// U+FFFD. The result holds only printable characters, so its display width is
// exactly what a layout engine measures, and sanitizing twice changes nothing.
//
// Sanitize, then style, then lay out: lipgloss and ansi.Truncate measure and
// preserve escape sequences, they do not remove them.
//
// It is part of twice, not a library: its API follows twice's needs. It is
// used by every top-level folder (catalyst, detect, fixtures, tui, cmd), so
// it cannot sit under one folder's internal/ (docs/architecture.md,
// "Packages").
package safetext

import (
	"math/bits"
	"strconv"
	"unicode"
	"unicode/utf8"
)

// Line returns s made safe for a single-line field (a table cell, a header,
// a status line): every control character, including newline, tab and
// carriage return, is escaped.
func Line(s string) string { return clean(s, false) }

// Block returns s made safe for a multi-line pane (a stack trace, a
// payload): newlines and tabs are kept; every other control character,
// carriage return included, is escaped.
func Block(s string) string { return clean(s, true) }

// IsSafe reports whether Line(s) == s: s holds only printable characters.
func IsSafe(s string) bool { return firstUnsafe(s, false) < 0 }

func clean(s string, multiline bool) string {
	i := firstUnsafe(s, multiline)
	if i < 0 {
		return s
	}
	buf := make([]byte, 0, len(s)+16)
	buf = append(buf, s[:i]...)
	for i < len(s) {
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			buf = append(buf, c)
			i++
			continue
		}
		if c < utf8.RuneSelf {
			buf = appendEscape(buf, rune(c), multiline)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			buf = append(buf, "\uFFFD"...)
		} else if needsEscape(r) {
			buf = appendEscape(buf, r, multiline)
		} else {
			buf = append(buf, s[i:i+size]...)
		}
		i += size
	}
	return string(buf)
}

// firstUnsafe returns the byte offset of the first character that must be
// escaped, or -1.
func firstUnsafe(s string, multiline bool) int {
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			if multiline && (c == '\n' || c == '\t') {
				i++
				continue
			}
			return i
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || needsEscape(r) {
			return i
		}
		i += size
	}
	return -1
}

// needsEscape reports whether a non-ASCII rune would be interpreted or be
// invisible rather than printed: C1 controls, format characters (bidi,
// zero-width, BOM, tags), and line and paragraph separators.
func needsEscape(r rune) bool {
	return unicode.IsControl(r) || unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp,
		// Invisible yet not format characters: variation selectors, the
		// combining grapheme joiner and the Hangul fillers make two names
		// that look the same differ, and shift columns.
		unicode.Variation_Selector, unicode.Other_Default_Ignorable_Code_Point)
}

// appendEscape appends the visible escape of r. In multi-line mode newline
// and tab are kept as they are.
func appendEscape(buf []byte, r rune, multiline bool) []byte {
	switch r {
	case '\n':
		if multiline {
			return append(buf, '\n')
		}
		return append(buf, `\n`...)
	case '\t':
		if multiline {
			return append(buf, '\t')
		}
		return append(buf, `\t`...)
	case '\r':
		return append(buf, `\r`...)
	}
	switch {
	case r < 0x80:
		buf = append(buf, `\x`...)
		return appendHex(buf, uint64(r), 2)
	case r <= 0xFFFF:
		buf = append(buf, `\u`...)
		return appendHex(buf, uint64(r), 4)
	}
	buf = append(buf, `\U`...)
	return appendHex(buf, uint64(r), 8)
}

func appendHex(buf []byte, v uint64, width int) []byte {
	h := strconv.FormatUint(v, 16)
	for i := len(h); i < width; i++ {
		buf = append(buf, '0')
	}
	return append(buf, h...)
}

// AppendJSON appends s as a JSON string literal that is inert on a terminal
// and round-trips: besides what JSON requires, it escapes DEL, C1 controls,
// format characters (bidi, zero-width), and line and paragraph separators as
// \uXXXX (surrogate pairs above the BMP). Invalid UTF-8 becomes \ufffd.
// It never escapes '<', '>' or '&'.
func AppendJSON(buf []byte, s string) []byte {
	buf = append(buf, '"')
	start := 0
	for i := 0; ; {
		if i = plainJSONRun(s, i); i >= len(s) {
			break
		}
		c := s[i]
		if c < utf8.RuneSelf {
			buf = append(buf, s[start:i]...)
			switch c {
			case '"', '\\':
				buf = append(buf, '\\', c)
			case '\n':
				buf = append(buf, `\n`...)
			case '\r':
				buf = append(buf, `\r`...)
			case '\t':
				buf = append(buf, `\t`...)
			default:
				buf = append(buf, `\u`...)
				buf = appendHex(buf, uint64(c), 4)
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			buf = append(buf, s[start:i]...)
			buf = append(buf, `\ufffd`...)
			i++
			start = i
			continue
		}
		if needsEscape(r) {
			buf = append(buf, s[start:i]...)
			if r > 0xFFFF {
				r1, r2 := utf16Surrogates(r)
				buf = append(buf, `\u`...)
				buf = appendHex(buf, uint64(r1), 4)
				buf = append(buf, `\u`...)
				buf = appendHex(buf, uint64(r2), 4)
			} else {
				buf = append(buf, `\u`...)
				buf = appendHex(buf, uint64(r), 4)
			}
			i += size
			start = i
			continue
		}
		i += size
	}
	buf = append(buf, s[start:]...)
	return append(buf, '"')
}

// InertJSONLiteral reports whether lit, a JSON string literal from a
// history, may be copied into JSON output in place of AppendJSON of its
// text: it holds only printable ASCII and no \u escape (one could spell a
// control character). Its other escapes (\n, \", \\) are inert as they are.
func InertJSONLiteral(lit string) bool {
	for i := 0; ; i++ {
		if i = plainJSONRun(lit, i); i >= len(lit) {
			return true
		}
		switch lit[i] {
		case '"':
		case '\\':
			if i++; i < len(lit) && lit[i] == 'u' {
				return false
			}
		default:
			return false
		}
	}
}

// plainJSONRun returns the offset of the first byte of s at or after i that
// AppendJSON must look at (a quote, a backslash, a byte below 0x20, DEL or
// any non-ASCII byte), or len(s). It tests eight bytes at a time: most
// history text (ids, names, timestamps) is plain ASCII.
func plainJSONRun(s string, i int) int {
	start := i
	for ; i+8 <= len(s); i += 8 {
		if m := jsonSpecial(word(s[i : i+8])); m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
	}
	if j := len(s) - 8; i < len(s) && j >= start {
		// The tail, as the last eight bytes: those from start to i were
		// found plain, and a plain byte neither borrows nor carries, so the
		// first one marked is at i or after.
		if m := jsonSpecial(word(s[j:])); m != 0 {
			return j + bits.TrailingZeros64(m)>>3
		}
		return len(s)
	}
	for ; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			return i
		}
	}
	return i
}

// word is the first eight bytes of b (len(b) ≥ 8) as a little-endian word.
func word(b string) uint64 {
	_ = b[7]
	return uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
		uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
}

const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// jsonSpecial returns a word whose lowest set bit is the high bit of the
// first byte of w (in memory order, little-endian) that plainJSONRun stops
// at, or 0 when there is none. A byte equal to '"' or '\\', or below 0x20,
// borrows in a subtraction; DEL carries into the high bit when one is
// added; a non-ASCII byte has it already. Borrows and carries only move
// upwards, so they can set bits above the first such byte, never below it.
func jsonSpecial(w uint64) uint64 {
	quote := (w ^ (ones * '"')) - ones
	slash := (w ^ (ones * '\\')) - ones
	low := w - ones*0x20
	return ((quote|slash|low)&^w | w | (w + ones)) & highs
}

func utf16Surrogates(r rune) (hi, lo rune) {
	r -= 0x10000
	return 0xD800 + (r>>10)&0x3FF, 0xDC00 + r&0x3FF
}
