package catalyst

import "github.com/twice-cli/twice/catalyst/jsonscan"

// keyBookFields is how many field numbers a keyBook has places for. A
// field numbered keyBookFields or more is never learnt, and nothing is
// guessed after it: its key, and the key after it, are read with NextKey
// every time, as if there were no book. (Catalyst's flattened fields and
// the CLI's row keys number fewer: flat.go and daprcli.go say so where
// they number them.)
const keyBookFields = 64

// keyBookSlots is how many places a keyBook has for what follows a field:
// one per field number (below keyBookFields) and event type (below 16),
// fewer than all, so later types share places with earlier ones.
const keyBookSlots = 1024

// keyBook remembers how the keys of one kind of object follow each other
// in the input: for each field, in each type of event, the literals
// (jsonscan.KeyLit) of the two fields last seen after it. A long history
// is written by one tool, so the next key is nearly always one of those
// two, with the same separator and indentation as before; next recognises
// it with a few word comparisons where NextKey would scan it and the
// decoder would look its name up. Anything else (a new key, another
// spacing, the end of the object) misses; the decoder reads the key as
// usual and teaches the book with learn. A guess is only ever taken when
// the input holds exactly the bytes it was learnt from, and a literal
// names one field wherever it was learnt, so the book changes how fast a
// key is read, never what is read.
type keyBook struct {
	// after is allocated when the first key is learnt: a decoder uses one
	// book of the two it has, and other formats neither.
	after *[keyBookSlots][2]keyBookEntry
	// hit is the literal next last matched.
	hit *jsonscan.KeyLit
}

type keyBookEntry struct {
	lit   jsonscan.KeyLit
	field uint8 // 0: empty
}

// slot is where the book keeps what follows field prev (0: the start of
// an object) in an event of type t (EventUnknown until the type is read).
func (kb *keyBook) slot(prev uint8, t EventType) *[2]keyBookEntry {
	return &kb.after[(uint(t)*keyBookFields+uint(prev))%keyBookSlots]
}

// read reads the next key after field prev in an event of type t: from
// the book when it holds it, else with NextKey, numbering it with number
// (0: a key the decoder does not know) and teaching the book. key is what
// NextKey read, nil when the book knew the key (keyOf names it either
// way); more is false at the end of the object.
func (kb *keyBook) read(sc *jsonscan.Scanner, prev uint8, t EventType, number func(key []byte) uint8) (field uint8, key []byte, more bool, err error) {
	if f := kb.next(sc, prev, t); f != 0 {
		return f, nil, true, nil
	}
	from := sc.Offset()
	if key, more, err = sc.NextKey(); err != nil || !more {
		return 0, nil, more, err
	}
	field = number(key)
	kb.learn(sc, from, prev, t, field)
	return field, key, true, nil
}

// keyOf is the key read returned, or for one the book knew, the key its
// literal holds.
func (kb *keyBook) keyOf(key []byte) []byte {
	if key == nil {
		return kb.hit.Key()
	}
	return key
}

// next returns the field whose key comes next in the input after field
// prev in an event of type t, having consumed the key, or 0 having
// consumed nothing.
func (kb *keyBook) next(sc *jsonscan.Scanner, prev uint8, t EventType) uint8 {
	if kb.after == nil || prev >= keyBookFields {
		return 0
	}
	e := kb.slot(prev, t)
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

// learn records that field followed prev in an event of type t, its key
// read by the NextKey call that has just returned, called at offset from:
// it becomes the first guess there.
func (kb *keyBook) learn(sc *jsonscan.Scanner, from int64, prev uint8, t EventType, field uint8) {
	if field == 0 || field >= keyBookFields || prev >= keyBookFields {
		return
	}
	lit, ok := sc.LastKeyLit(from)
	if !ok {
		return
	}
	if kb.after == nil {
		kb.after = new([keyBookSlots][2]keyBookEntry)
	}
	e := kb.slot(prev, t)
	if e[0].field != 0 {
		e[1] = e[0]
	}
	e[0] = keyBookEntry{lit: lit, field: field}
}
