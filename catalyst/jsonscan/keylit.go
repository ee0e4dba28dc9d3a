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

// LastKeyLit returns the literal of the key the last NextKey call
// returned, if nothing has been read since and its bytes are still in the
// window, at least 8 and at most KeyLitMax long.
func (s *Scanner) LastKeyLit() (lit KeyLit, ok bool) {
	from, end := s.keyFrom-s.base, s.keyEnd-s.base
	if s.keyEnd < 0 || end != int64(s.pos) || from < 0 || end-from < 8 || end-from > KeyLitMax {
		return lit, false
	}
	b := s.buf[from:end]
	lit.n, lit.words = uint8(len(b)), uint8((len(b)-1)/8)
	for j := range lit.words {
		lit.head[j] = binary.LittleEndian.Uint64(b[8*j:])
	}
	lit.tail = binary.LittleEndian.Uint64(b[len(b)-8:])
	lit.first = s.keyFirst
	return lit, true
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
