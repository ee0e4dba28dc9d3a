package runview

import (
	"sort"
	"strings"
	"sync"
	"unsafe"

	"github.com/twice-cli/twice/catalyst"
)

// payloadText is the text of every present payload of a history in the
// form a filter compares (searchForm: sanitized, lower-cased; the first
// searchBytes of each), one after another, each ended by a NUL that no
// query holds. NewIndex builds it once, off the UI goroutine; a filter then
// finds the payloads holding its query with one strings.Index pass over
// it, not a conversion per event ("customer X was charged twice": X is in
// the inputs).
type payloadText struct {
	text string
	// ends[k] is where entry k's text ends (its NUL); event[k] is the
	// event whose payload it is.
	ends  []int
	event []int32

	// The hits of the last query, shared by the tabs (each filters the
	// same query in a command of its own).
	mu   sync.Mutex
	q    string
	last *payloadHits
}

// payloadHits are the events whose payload holds a query, and the
// invocations one of whose attempts' inputs or outputs does.
type payloadHits struct {
	events, invs bitset
}

// newPayloadText indexes the payloads of h: each payload's text is
// appended as it is decoded (Payload.AppendText, no copy of its own), cut to
// searchBytes, and lower-cased in place; only text that is not printable
// ASCII goes through searchForm.
func newPayloadText(h *catalyst.History) *payloadText {
	p := &payloadText{}
	size, n := 0, 0
	for _, e := range h.All() {
		if e.Payload.Has() {
			size += min(e.Payload.Size(), searchBytes) + 1
			n++
		}
	}
	if n == 0 {
		return p
	}
	b := make([]byte, 0, size)
	p.ends, p.event = make([]int, 0, n), make([]int32, 0, n)
	for i, e := range h.All() {
		if !e.Payload.Has() {
			continue
		}
		start := len(b)
		b = e.Payload.AppendText(b)
		if len(b)-start > searchBytes {
			cut := start + searchBytes
			for cut > start && b[cut]&0xC0 == 0x80 {
				cut--
			}
			b = b[:cut]
		}
		if !lowerInPlace(b[start:]) {
			text := searchForm(string(b[start:]))
			b = append(b[:start], text...)
		}
		p.ends = append(p.ends, len(b))
		p.event = append(p.event, int32(i))
		b = append(b, 0)
	}
	p.text = unsafe.String(unsafe.SliceData(b), len(b)) // b is not written again
	return p
}

// lowerInPlace lower-cases b's ASCII letters and reports whether b is
// printable ASCII, which is its own search form (otherwise b is partly
// lower-cased, and its search form is searchForm's).
func lowerInPlace(b []byte) bool {
	for i, c := range b {
		switch {
		case c < 0x20 || c >= 0x7f:
			return false
		case 'A' <= c && c <= 'Z':
			b[i] = c + 'a' - 'A'
		}
	}
	return true
}

// size is the text's length in bytes: what a query searches.
func (p *payloadText) size() int {
	if p == nil {
		return 0
	}
	return len(p.text)
}

// hits returns the events and invocations whose payloads hold q (in search
// form, not empty); x maps events to invocations. It may run off the UI
// goroutine, in several commands at once.
func (p *payloadText) hits(x *Index, q string) *payloadHits {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.last != nil && p.q == q {
		return p.last
	}
	hit := &payloadHits{events: newBitset(len(x.eventInv)), invs: newBitset(len(x.invFlags))}
	for off := 0; off < len(p.text); {
		i := strings.Index(p.text[off:], q)
		if i < 0 {
			break
		}
		at := off + i
		k := sort.SearchInts(p.ends, at+1) // the entry whose end is past the hit
		if k == len(p.ends) {
			break
		}
		ev := int(p.event[k])
		hit.events.set(ev)
		if inv := x.eventInv[ev]; inv >= 0 {
			hit.invs.set(int(inv))
		}
		off = p.ends[k] + 1 // the next entry: each event once
	}
	p.q, p.last = q, hit
	return hit
}

// bitset is a set of small non-negative integers.
type bitset []uint64

func newBitset(n int) bitset { return make(bitset, (n+63)/64) }

func (s bitset) set(i int) { s[i>>6] |= 1 << (i & 63) }

func (s bitset) has(i int) bool { return i>>6 < len(s) && s[i>>6]&(1<<(i&63)) != 0 }
