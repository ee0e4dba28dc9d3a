package catalyst

import (
	"encoding/binary"
	"math/bits"
	"unsafe"
)

// internSlots is the size of an interner's table (a power of two).
const internSlots = 1 << 12

// internMax is the longest string an interner keeps; longer ones are
// copied every time (they rarely repeat: messages, payloads).
const internMax = 96

// interner hands out one string for each recently seen byte sequence, so
// that the activity names, app ids and task execution ids a history repeats
// thousands of times share their memory. It is a direct-mapped cache, not a
// map: it never grows, a collision only costs a copy, and a decode builds
// its own (nothing is shared between decodes). Copies come from an arena.
type interner struct {
	slots []internSlot
	arena arena
}

type internSlot struct {
	hash uint64
	s    string
}

func newInterner() *interner {
	return &interner{slots: make([]internSlot, internSlots)}
}

// str returns b as a string, reusing an earlier copy when it has one.
func (in *interner) str(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if len(b) > internMax {
		return in.arena.str(b)
	}
	h := internHash(b)
	slot := &in.slots[h&(internSlots-1)]
	// Comparing the hash first keeps a miss from reading the old string,
	// which is rarely still in the cache.
	if slot.hash == h && slot.s == string(b) {
		return slot.s
	}
	s := in.arena.str(b)
	*slot = internSlot{hash: h, s: s}
	return s
}

// internHash mixes the length and the first and last eight bytes: enough to
// spread names and ids (UUIDs differ in their first bytes) over the slots.
// It needs no seed: a collision costs a copy, never a wrong answer.
func internHash(b []byte) uint64 {
	var head, tail uint64
	if len(b) >= 8 {
		head = binary.LittleEndian.Uint64(b)
		tail = binary.LittleEndian.Uint64(b[len(b)-8:])
	} else {
		for i, c := range b {
			head |= uint64(c) << (8 * i)
		}
	}
	hi, lo := bits.Mul64(head^uint64(len(b)), 0x9E3779B97F4A7C15)
	h := hi ^ lo ^ tail
	hi, lo = bits.Mul64(h, 0xD6E8FEB86659FD93)
	return hi ^ lo
}

// arenaBlock is the size of the blocks an arena copies strings into.
const arenaBlock = 64 << 10

// arena copies strings into shared blocks: one allocation per 64 KiB block
// instead of one per string, in memory the garbage collector never scans
// (a block holds no pointers). A block is only ever appended to, so the
// strings carved from it never change; it lives as long as any of them.
// Strings over a quarter of a block get their own allocation.
type arena struct {
	block []byte
}

// str returns a copy of b.
func (a *arena) str(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if len(b) > arenaBlock/4 {
		return string(b)
	}
	if len(b) > cap(a.block)-len(a.block) {
		a.block = make([]byte, 0, arenaBlock)
	}
	start := len(a.block)
	a.block = append(a.block, b...)
	return unsafe.String(&a.block[start], len(b))
}

// routers shares one *Router per (source, target) pair within a decode.
type routers struct {
	byPair map[string]*Router
	key    []byte
}

// get returns the shared router for the pair, or nil when both are empty.
func (r *routers) get(source, target string) *Router {
	if source == "" && target == "" {
		return nil
	}
	// The source's length, then both ids: no two pairs share a key, whatever
	// bytes the ids hold.
	r.key = binary.AppendUvarint(r.key[:0], uint64(len(source)))
	r.key = append(append(r.key, source...), target...)
	if rt, ok := r.byPair[string(r.key)]; ok {
		return rt
	}
	if r.byPair == nil {
		r.byPair = make(map[string]*Router)
	}
	rt := &Router{Source: source, Target: target}
	r.byPair[string(r.key)] = rt
	return rt
}
