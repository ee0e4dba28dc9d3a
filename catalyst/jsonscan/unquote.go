package jsonscan

// AppendUnquoted appends the contents of the JSON string literal lit (quotes
// included, already validated) to dst, decoding its escapes
// (AppendUnescaped).
func AppendUnquoted(dst, lit []byte) []byte {
	if len(lit) < 2 {
		return dst
	}
	return AppendUnescaped(dst, lit[1:len(lit)-1])
}

// AppendUnescaped appends body, the text between a JSON string literal's
// quotes, to dst with its escapes decoded: JSON's own, \/ and surrogate
// pairs included. A \u escape of an unpaired surrogate becomes U+FFFD; an
// escape that is not JSON's (which the Scanner never accepts) is copied as
// it is, backslash and all; other bytes, invalid UTF-8 included, are
// copied as they are.
func AppendUnescaped[T ~string | ~[]byte](dst []byte, body T) []byte {
	for i := 0; i < len(body); {
		c := body[i]
		if c != '\\' || i+1 >= len(body) {
			dst = append(dst, c)
			i++
			continue
		}
		if c, ok := simpleEscape(body[i+1]); ok {
			dst = append(dst, c)
			i += 2
			continue
		}
		if body[i+1] != 'u' {
			dst = append(dst, '\\', body[i+1])
			i += 2
			continue
		}
		r, n := unicodeEscape(body[i:])
		if n == 0 {
			dst = append(dst, '\\', 'u')
			i += 2
			continue
		}
		dst = appendRune(dst, r)
		i += n
	}
	return dst
}

// UnescapedLen returns len(AppendUnescaped(nil, body)) without building
// the text.
func UnescapedLen[T ~string | ~[]byte](body T) int {
	n := 0
	for i := 0; i < len(body); {
		if body[i] != '\\' || i+1 >= len(body) {
			n++
			i++
			continue
		}
		if _, ok := simpleEscape(body[i+1]); ok {
			n++
			i += 2
			continue
		}
		if body[i+1] != 'u' {
			n += 2
			i += 2
			continue
		}
		r, k := unicodeEscape(body[i:])
		if k == 0 {
			n += 2
			i += 2
			continue
		}
		n += runeLen(r)
		i += k
	}
	return n
}

// simpleEscape returns the byte a one-letter escape (the letter after the
// backslash) stands for.
func simpleEscape(c byte) (byte, bool) {
	switch c {
	case '"', '\\', '/':
		return c, true
	case 'b':
		return '\b', true
	case 'f':
		return '\f', true
	case 'n':
		return '\n', true
	case 'r':
		return '\r', true
	case 't':
		return '\t', true
	}
	return 0, false
}

// unicodeEscape decodes \uXXXX (and a following low surrogate) at the start
// of b, returning the rune and the bytes used, or n == 0 if b holds none.
func unicodeEscape[T ~string | ~[]byte](b T) (r rune, n int) {
	r1, ok := hex4(b)
	if !ok {
		return 0, 0
	}
	switch {
	case 0xD800 <= r1 && r1 < 0xDC00:
		if r2, ok := hex4(b[6:]); ok && 0xDC00 <= r2 && r2 < 0xE000 {
			return (r1-0xD800)<<10 | (r2 - 0xDC00) + 0x10000, 12
		}
		return 0xFFFD, 6
	case 0xDC00 <= r1 && r1 < 0xE000:
		return 0xFFFD, 6
	}
	return r1, 6
}

// hex4 reads the rune of a \uXXXX escape at the start of b.
func hex4[T ~string | ~[]byte](b T) (rune, bool) {
	if len(b) < 6 || b[0] != '\\' || b[1] != 'u' {
		return 0, false
	}
	var v rune
	for i := 2; i < 6; i++ {
		d := unhex(b[i])
		if d < 0 {
			return 0, false
		}
		v = v<<4 | rune(d)
	}
	return v, true
}

// appendRune appends the UTF-8 encoding of r (a valid, non-surrogate rune).
func appendRune(dst []byte, r rune) []byte {
	switch {
	case r < 0x80:
		return append(dst, byte(r))
	case r < 0x800:
		return append(dst, 0xC0|byte(r>>6), 0x80|byte(r)&0x3F)
	case r < 0x10000:
		return append(dst, 0xE0|byte(r>>12), 0x80|byte(r>>6)&0x3F, 0x80|byte(r)&0x3F)
	}
	return append(dst, 0xF0|byte(r>>18), 0x80|byte(r>>12)&0x3F, 0x80|byte(r>>6)&0x3F, 0x80|byte(r)&0x3F)
}

// runeLen is the length of appendRune's encoding of r.
func runeLen(r rune) int {
	switch {
	case r < 0x80:
		return 1
	case r < 0x800:
		return 2
	case r < 0x10000:
		return 3
	}
	return 4
}
