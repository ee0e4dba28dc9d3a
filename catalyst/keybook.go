package catalyst

import "github.com/twice-cli/twice/catalyst/jsonscan"

// keyBookFields is how many fields a keyBook tells apart: field numbers 1
// to keyBookFields-1 (0 is the start of an object, or a key the decoder
// does not know).
const keyBookFields = 64

// keyBook remembers how the keys of one kind of object follow each other
// in the input: for each field, the literals (jsonscan.KeyLit) of the two
// fields last seen after it. A long history is written by one tool, so the
// next key is nearly always one of those two, with the same separator and
// indentation as before; next recognises it with a few word comparisons
// where NextKey would scan it and the decoder would look its name up.
// Anything else (a new key, another spacing, the end of the object)
// misses; the decoder reads the key as usual and teaches the book with
// learn. A guess is only ever taken when the input holds exactly the bytes
// it was learnt from, so the book changes how fast a key is read, never
// what is read.
type keyBook struct {
	// after is allocated when the first key is learnt: a decoder uses one
	// book of the two it has, and other formats neither.
	after *[keyBookFields][2]keyBookEntry
	// hit is the literal next last matched.
	hit *jsonscan.KeyLit
}

type keyBookEntry struct {
	lit   jsonscan.KeyLit
	field uint8 // 0: empty
}

// next returns the field whose key comes next in the input after field
// prev (0: at the start of an object), having consumed the key, or 0
// having consumed nothing.
func (kb *keyBook) next(sc *jsonscan.Scanner, prev uint8) uint8 {
	if kb.after == nil {
		return 0
	}
	e := &kb.after[prev%keyBookFields]
	if e[0].field != 0 && sc.NextKeyIs(&e[0].lit) {
		kb.hit = &e[0].lit
		return e[0].field
	}
	if e[1].field != 0 && sc.NextKeyIs(&e[1].lit) {
		kb.hit = &e[1].lit
		return e[1].field
	}
	return 0
}

// learn records that field followed prev, its key read by the NextKey
// call that has just returned: it becomes the first guess after prev.
func (kb *keyBook) learn(sc *jsonscan.Scanner, prev, field uint8) {
	if field == 0 || field >= keyBookFields {
		return
	}
	lit, ok := sc.LastKeyLit()
	if !ok {
		return
	}
	if kb.after == nil {
		kb.after = new([keyBookFields][2]keyBookEntry)
	}
	e := &kb.after[prev%keyBookFields]
	if e[0].field != 0 {
		e[1] = e[0]
	}
	e[0] = keyBookEntry{lit: lit, field: field}
}
