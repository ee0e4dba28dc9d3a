package jsonscan

// AppendUnquoted appends the contents of the JSON string literal lit (quotes
// included, already validated) to dst, decoding its escapes. A \u escape of
// an unpaired surrogate becomes U+FFFD; other bytes are copied as they are.
func AppendUnquoted(dst, lit []byte) []byte {
	if len(lit) < 2 {
		return dst
	}
	b := lit[1 : len(lit)-1]
	for i := 0; i < len(b); {
		c := b[i]
		if c != '\\' || i+1 >= len(b) {
			dst = append(dst, c)
			i++
			continue
		}
		switch b[i+1] {
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		case 'u':
			r, n := unicodeEscape(b[i:])
			if n == 0 {
				dst = append(dst, b[i:i+2]...)
				i += 2
				continue
			}
			dst = appendRune(dst, r)
			i += n
			continue
		default: // '"', '\\', '/'
			dst = append(dst, b[i+1])
		}
		i += 2
	}
	return dst
}

// unicodeEscape decodes \uXXXX (and a following low surrogate) at the start
// of b, returning the rune and the bytes used, or n == 0 if b holds none.
func unicodeEscape(b []byte) (r rune, n int) {
	hex4 := func(b []byte) (rune, bool) {
		if len(b) < 6 || b[0] != '\\' || b[1] != 'u' {
			return 0, false
		}
		var v rune
		for _, c := range b[2:6] {
			d := unhex(c)
			if d < 0 {
				return 0, false
			}
			v = v<<4 | rune(d)
		}
		return v, true
	}
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
