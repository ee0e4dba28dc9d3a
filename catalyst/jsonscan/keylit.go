package jsonscan

import (
	"bytes"
	"encoding/binary"
)

// KeyLitMax is the longest key literal LastKeyLit keeps, in bytes.
const KeyLitMax = 48

// KeyLit is the exact bytes one object member's key took in the input, as
// NextKey consumed them: any whitespace, the ',' before a member that is
// not the object's first, the quoted key and its ':' (`,\n    "appID":`).
// A decoder reading many objects of one shape keeps the literals it has
// met and offers them back to NextKeyIs, which recognises the next key
// with a few word comparisons instead of a scan. Only LastKeyLit makes
// one: its bytes are always ones NextKey accepted, in the same position
// (first member or not), so matching them is the same as reading them.
type KeyLit struct {
	// head holds the bytes in whole words, as far as they fill them; tail
	// is the last eight bytes (overlapping head).
	head  [KeyLitMax/8 - 1]uint64
	tail  uint64
	n     uint8 // bytes, 8 to KeyLitMax
	words uint8 // whole words in head: (n-1)/8
	first bool
}

// LastKeyLit returns the literal of the key NextKey has just read, given
// from, the offset the scanner was at when NextKey was called: the bytes
// from there through the key's colon, if they are still in the window, 8
// to KeyLitMax long, and make up one key (whitespace, a ',' unless the
// member was its object's first, the quoted key, whitespace, the ':'),
// which they do unless something else was read since.
func (s *Scanner) LastKeyLit(from int64) (lit KeyLit, ok bool) {
	f := from - s.base
	if f < 0 || int64(s.pos)-f < 8 || int64(s.pos)-f > KeyLitMax {
		return lit, false
	}
	b := s.buf[f:s.pos]
	first, ok := keyShape(b)
	if !ok {
		return lit, false
	}
	lit.n, lit.words = uint8(len(b)), uint8((len(b)-1)/8)
	for j := range lit.words {
		lit.head[j] = binary.LittleEndian.Uint64(b[8*j:])
	}
	lit.tail = binary.LittleEndian.Uint64(b[len(b)-8:])
	lit.first = first
	return lit, true
}

// keyShape reports whether b is one member's key as NextKey reads it:
// whitespace, a ',' and whitespace unless the member is its object's first
// (first), a string without escapes, whitespace, and a ':' as the last
// byte. A key with an escape is not taken (it is rare, and the check
// stays one search for the closing quote).
func keyShape(b []byte) (first, ok bool) {
	if len(b) == 0 || b[len(b)-1] != ':' {
		return false, false
	}
	i := skipSpace(b, 0)
	first = true
	if i < len(b) && b[i] == ',' {
		first = false
		i = skipSpace(b, i+1)
	}
	if i >= len(b) || b[i] != '"' {
		return false, false
	}
	end := bytes.IndexByte(b[i+1:], '"')
	if end < 0 || bytes.IndexByte(b[i+1:i+1+end], '\\') >= 0 {
		return false, false
	}
	return first, skipSpace(b, i+end+2) == len(b)-1
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && isSpace[b[i]] {
		i++
	}
	return i
}

// NextKeyIs reads the next key of the innermost object when the input
// continues with lit (and the key would be the object's first exactly
// when lit's was): it consumes lit and returns true, as NextKey would
// have read it. Otherwise it consumes nothing and returns false; NextKey
// then reads whatever comes (another key, the end of the object, or an
// error).
func (s *Scanner) NextKeyIs(lit *KeyLit) bool {
	n := int(lit.n)
	rest := s.buf[s.pos:s.end]
	if n < 8 || len(rest) < n {
		return false
	}
	// The last word first: after a different key, it differs there.
	if binary.LittleEndian.Uint64(rest[n-8:]) != lit.tail {
		return false
	}
	for j, w := range lit.head[:lit.words] {
		if binary.LittleEndian.Uint64(rest[8*j:]) != w {
			return false
		}
	}
	top := len(s.stack) - 1
	if top < 0 || s.err != nil {
		return false
	}
	if st := s.stack[top]; st&inArray != 0 || (st&beforeFirst != 0) != lit.first {
		return false
	}
	s.stack[top] = 0
	s.pos += n
	return true
}

// Key returns the key the literal holds, unescaped.
func (lit *KeyLit) Key() []byte {
	var raw [KeyLitMax]byte
	n := int(lit.n)
	for j, w := range lit.head[:lit.words] {
		binary.LittleEndian.PutUint64(raw[8*j:], w)
	}
	binary.LittleEndian.PutUint64(raw[n-8:], lit.tail)
	// Only whitespace and a ',' come before the key's opening quote, and
	// only whitespace and the ':' after its closing one.
	open := bytes.IndexByte(raw[:n], '"')
	closing := bytes.LastIndexByte(raw[:n], '"')
	if open < 0 || closing <= open {
		return nil
	}
	return AppendUnquoted(nil, raw[open:closing+1])
}
