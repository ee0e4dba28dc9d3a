package jsonscan

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"strconv"
)

// scanString consumes the string literal at s.pos and returns its bounds in
// the window, quotes included, and whether it holds escapes.
func (s *Scanner) scanString() (start, end int, escaped bool, err error) {
	start = s.pos
	i := start + 1
	for {
		buf := s.buf[:s.end]
		i = skipPlain(buf, i)
		if i < len(buf) {
			switch c := buf[i]; {
			case c == '"':
				s.pos = i + 1
				return start, i + 1, escaped, nil
			case c == '\\':
				escaped = true
				if i+6 > len(buf) && !s.eof {
					break // refill below, then look again
				}
				n := escapeLen(buf[i:])
				if n <= 0 {
					if n == 0 {
						return 0, 0, false, s.eofAt(len(buf), "in a string escape")
					}
					return 0, 0, false, s.syntaxAt(i, "invalid escape "+strconv.Quote(string(buf[i:min(len(buf), i+6)]))+" in a string")
				}
				i += n
				continue
			default:
				return 0, 0, false, s.syntaxAt(i, fmt.Sprintf("control character 0x%02x in a string (it must be escaped)", c))
			}
		}
		shift, ok := s.refill(start)
		start -= shift
		i -= shift
		if !ok {
			if s.err != nil {
				return 0, 0, false, s.err
			}
			if i < s.end {
				continue // an escape at the very end: decide it now that EOF is known
			}
			return 0, 0, false, s.eofAt(s.end, "in a string")
		}
	}
}

// skipPlain returns the index of the first byte at or after i that is a
// quote, a backslash or a control character, or len(b). It looks at eight
// bytes at a time while none of them is one.
func skipPlain(b []byte, i int) int {
	for i+8 <= len(b) {
		if m := specialMask(binary.LittleEndian.Uint64(b[i:])); m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
		i += 8
	}
	for i < len(b) && strPlain[b[i]] {
		i++
	}
	return i
}

const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// specialMask returns a word whose lowest set bit is the high bit of the
// first byte of w (in memory order) that is '"', '\\' or below 0x20, or 0
// when there is none. Borrows can set bits above the first such byte, never
// below it.
func specialMask(w uint64) uint64 {
	quote := w ^ (ones * '"')
	slash := w ^ (ones * '\\')
	return ((quote - ones) | (slash - ones) | (w - ones*0x20)) &^ w & highs
}

// escapeLen validates the escape at the start of b (b[0] == '\\') and
// returns its length, 0 when b ends inside it, or -1 when it is invalid.
func escapeLen(b []byte) int {
	if len(b) < 2 {
		return 0
	}
	switch b[1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return 2
	case 'u':
		for j := 2; j < 6; j++ {
			if j >= len(b) {
				return 0
			}
			if unhex(b[j]) < 0 {
				return -1
			}
		}
		return 6
	}
	return -1
}

func unhex(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'a' <= c && c <= 'f':
		return int(c-'a') + 10
	case 'A' <= c && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// String consumes a string value and returns its literal, quotes and escapes
// included, exactly as in the input (valid until the next call).
func (s *Scanner) String() ([]byte, error) {
	c, err := s.valueStart()
	if err != nil {
		return nil, err
	}
	if c != '"' {
		return nil, s.kindError(c, "a string")
	}
	start := s.pos
	if i := skipPlain(s.buf[:s.end], start+1); i < s.end && s.buf[i] == '"' {
		s.pos = i + 1
		return s.buf[start : i+1], nil
	}
	start, end, _, err := s.scanString()
	if err != nil {
		return nil, err
	}
	return s.buf[start:end], nil
}

// StringValue consumes a string value and returns its contents, unescaped
// (valid until the next call). Invalid UTF-8 is passed through; an invalid
// \u surrogate becomes U+FFFD.
func (s *Scanner) StringValue() ([]byte, error) {
	c, err := s.valueStart()
	if err != nil {
		return nil, err
	}
	return s.stringAt(c)
}

// stringAt is StringValue once the value's first byte, c, is found.
func (s *Scanner) stringAt(c byte) ([]byte, error) {
	if c != '"' {
		return nil, s.kindError(c, "a string")
	}
	start := s.pos
	if i := skipPlain(s.buf[:s.end], start+1); i < s.end && s.buf[i] == '"' {
		s.pos = i + 1
		return s.buf[start+1 : i], nil
	}
	start, end, escaped, err := s.scanString()
	if err != nil {
		return nil, err
	}
	if escaped {
		s.scratch = AppendUnquoted(s.scratch[:0], s.buf[start:end])
		return s.scratch, nil
	}
	return s.buf[start+1 : end-1], nil
}

// StringValueOrNull is StringValue for a string that may be null: a null is
// consumed and reported with null set (and no error), which is much cheaper
// than StringValue's error for a value of another kind. Any other kind is
// StringValue's *ValueError, nothing consumed.
func (s *Scanner) StringValueOrNull() (b []byte, null bool, err error) {
	c, err := s.valueStart()
	if err != nil {
		return nil, false, err
	}
	if c == 'n' {
		return nil, true, s.literal("null")
	}
	b, err = s.stringAt(c)
	return b, false, err
}

// scanNumber consumes the number at s.pos and returns its bounds.
func (s *Scanner) scanNumber() (start, end int, err error) {
	start = s.pos
	i := start
	for {
		for i < s.end && numByte[s.buf[i]] {
			i++
		}
		if i < s.end {
			break
		}
		shift, ok := s.refill(start)
		start -= shift
		i -= shift
		if !ok {
			if s.err != nil {
				return 0, 0, s.err
			}
			break
		}
	}
	if bad := validNumber(s.buf[start:i]); bad >= 0 {
		if start+bad == s.end {
			return 0, 0, s.eofAt(s.end, "in a number")
		}
		return 0, 0, s.syntaxAt(start+bad, "invalid number "+strconv.Quote(string(s.buf[start:i])))
	}
	s.pos = i
	return start, i, nil
}

// validNumber checks b against JSON's number grammar and returns the index
// of the first byte that breaks it (len(b) when b ends too early), or -1.
func validNumber(b []byte) int {
	i := 0
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i == len(b):
		return i
	case b[i] == '0':
		i++
		if i < len(b) && isDigit(b[i]) {
			return i // leading zero
		}
	case isDigit(b[i]):
		for i < len(b) && isDigit(b[i]) {
			i++
		}
	default:
		return i
	}
	if i < len(b) && b[i] == '.' {
		i++
		if i == len(b) || !isDigit(b[i]) {
			return i
		}
		for i < len(b) && isDigit(b[i]) {
			i++
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i == len(b) || !isDigit(b[i]) {
			return i
		}
		for i < len(b) && isDigit(b[i]) {
			i++
		}
	}
	if i != len(b) {
		return i
	}
	return -1
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// Number consumes a number and returns its text, validated against JSON's
// grammar (valid until the next call).
func (s *Scanner) Number() ([]byte, error) {
	c, err := s.valueStart()
	if err != nil {
		return nil, err
	}
	if c != '-' && !isDigit(c) {
		return nil, s.kindError(c, "a number")
	}
	start, end, err := s.scanNumber()
	if err != nil {
		return nil, err
	}
	return s.buf[start:end], nil
}

// Int64 consumes a number that is an integer (no fraction or exponent) and
// returns it. A number out of range or not an integer is a *ValueError (the
// number is consumed).
func (s *Scanner) Int64() (int64, error) {
	off := s.Offset()
	b, err := s.Number()
	if err != nil {
		return 0, err
	}
	v, ok := ParseInt(b)
	if !ok {
		return 0, &ValueError{Offset: off, Kind: b[0], Msg: "number " + string(b) + " is not an integer in range"}
	}
	return v, nil
}

// Int32 is Int64 for a number that fits in an int32.
func (s *Scanner) Int32() (int32, error) {
	// Fast path: a short integer wholly in the window, followed by a byte
	// that cannot continue a number.
	if p := s.pos; p+11 < s.end {
		b := s.buf[p : p+12]
		i, neg := 0, false
		if b[0] == '-' {
			i, neg = 1, true
		}
		if c := b[i]; '1' <= c && c <= '9' || c == '0' && !numByte[b[i+1]] {
			var v int64
			j := i
			for ; j < 11 && isDigit(b[j]); j++ {
				v = v*10 + int64(b[j]-'0')
			}
			if !numByte[b[j]] {
				if neg {
					v = -v
				}
				if v == int64(int32(v)) {
					s.pos = p + j
					return int32(v), nil
				}
			}
		}
	}
	off := s.Offset()
	b, err := s.Number()
	if err != nil {
		return 0, err
	}
	v, ok := ParseInt(b)
	if !ok || v != int64(int32(v)) {
		return 0, &ValueError{Offset: off, Kind: b[0], Msg: "number " + string(b) + " is not a 32-bit integer"}
	}
	return int32(v), nil
}

// ParseInt parses b as a decimal integer (an optional '-' and at most 18
// digits); ok is false for anything else.
func ParseInt(b []byte) (v int64, ok bool) {
	neg := len(b) > 0 && b[0] == '-'
	if neg {
		b = b[1:]
	}
	if len(b) == 0 || len(b) > 18 {
		return 0, false
	}
	for _, c := range b {
		if !isDigit(c) {
			return 0, false
		}
		v = v*10 + int64(c-'0')
	}
	if neg {
		v = -v
	}
	return v, true
}

// literal consumes the literal word (true, false or null) at s.pos.
func (s *Scanner) literal(word string) error {
	for s.end-s.pos < len(word) {
		if _, ok := s.refill(s.pos); !ok {
			break
		}
	}
	if s.err != nil {
		return s.err
	}
	n := min(len(word), s.end-s.pos)
	for j := 0; j < n; j++ {
		if s.buf[s.pos+j] != word[j] {
			return s.syntaxAt(s.pos+j, "invalid literal (want "+word+")")
		}
	}
	if n < len(word) {
		return s.eofAt(s.end, "in the literal "+word)
	}
	s.pos += len(word)
	return nil
}

// Bool consumes true or false.
func (s *Scanner) Bool() (bool, error) {
	c, err := s.valueStart()
	if err != nil {
		return false, err
	}
	switch c {
	case 't':
		return true, s.literal("true")
	case 'f':
		return false, s.literal("false")
	}
	return false, s.kindError(c, "a boolean")
}

// Null consumes null.
func (s *Scanner) Null() error {
	c, err := s.valueStart()
	if err != nil {
		return err
	}
	if c != 'n' {
		return s.kindError(c, "null")
	}
	return s.literal("null")
}

// RawValue consumes the next value and returns a copy of its bytes, exactly
// as in the input.
func (s *Scanner) RawValue() ([]byte, error) {
	if _, err := s.valueStart(); err != nil {
		return nil, err
	}
	start := s.pos
	own := s.mark < 0
	if own {
		s.mark = start
	}
	// The mark keeps start in the window; refills shift it with the mark.
	markBefore := s.mark
	err := s.SkipValue()
	start -= markBefore - s.mark
	if own {
		s.mark = -1
	}
	if err != nil {
		return nil, err
	}
	return append([]byte(nil), s.buf[start:s.pos]...), nil
}
