package table

import (
	"strings"

	"github.com/twice-cli/twice/catalyst/safetext"
	"github.com/twice-cli/twice/tui/format"
)

// maxShared is the most shared columns a Terms can have.
const maxShared = 5

// Terms is the search index of a list: for each row, the texts a filter
// matches against. It is built once per history (off the UI goroutine) so
// that a filter keystroke costs one tight loop over the rows:
//
//   - shared texts (names, types) repeat across rows: each row stores one
//     id for its combination of them, and a query tests each combination
//     once, not each row;
//   - an own text (an id), nearly unique per row, carries a character mask
//     and a character-pair mask that reject most rows without comparing
//     strings.
//
// Texts are matched sanitized and lower-cased, so the user types what the
// screen shows (an escaped "\x1b" included).
type Terms struct {
	n     int
	texts []string   // distinct shared texts
	masks []uint64   // their character masks
	combo [][]uint32 // per combination: indexes into texts
	rows  []uint32   // per row: its combination
	own   []string   // per row: its own text ("" when the list has none)
	omask []uint64   // its character mask
	opair []pairMask // its character pairs
	// anyMask and anyPair are the union of every row's masks: a query they
	// do not hold matches no own text, and Select skips them.
	anyMask uint64
	anyPair pairMask
}

// TermsBuilder builds Terms row by row.
type TermsBuilder struct {
	t      *Terms
	shared int
	texts  map[string]uint32
	combos map[[maxShared]uint32]uint32
	// empty is the id of "" once it has one (-1 before): most rows leave
	// most of their columns empty.
	empty int64
}

// NewTermsBuilder starts Terms whose rows have shared shared texts (at most
// four) and an own text, sized for about rows rows.
func NewTermsBuilder(shared, rows int) *TermsBuilder {
	return &TermsBuilder{
		t: &Terms{
			rows:  make([]uint32, 0, rows),
			own:   make([]string, 0, rows),
			omask: make([]uint64, 0, rows),
			opair: make([]pairMask, 0, rows),
		},
		shared: min(shared, maxShared),
		texts:  make(map[string]uint32),
		combos: make(map[[maxShared]uint32]uint32),
		empty:  -1,
	}
}

// Add appends one row: its shared texts and its own text, raw (they are
// sanitized here). Missing shared texts are empty; extra ones are ignored.
func (b *TermsBuilder) Add(shared []string, own string) {
	var key [maxShared]uint32
	for c := 0; c < b.shared; c++ {
		var s string
		if c < len(shared) {
			s = shared[c]
		}
		key[c] = b.text(s)
	}
	id, ok := b.combos[key]
	if !ok {
		id = uint32(len(b.t.combo))
		b.t.combo = append(b.t.combo, append([]uint32(nil), key[:b.shared]...))
		b.combos[key] = id
	}
	t := b.t
	t.rows = append(t.rows, id)
	s, m, pm := searchForm(own)
	t.own = append(t.own, s)
	t.omask = append(t.omask, m)
	t.opair = append(t.opair, pm)
	t.anyMask |= m
	t.anyPair[0] |= pm[0]
	t.anyPair[1] |= pm[1]
	t.n++
}

// Widest returns the display width of the widest text in shared column c
// (texts are measured sanitized, as rows show them; "" counts as "-"). It
// costs the distinct combinations, not the rows.
func (t *Terms) Widest(c int) int {
	w := 0
	seen := make(map[uint32]bool)
	for _, ids := range t.combo {
		if c >= len(ids) || seen[ids[c]] {
			continue
		}
		seen[ids[c]] = true
		w = max(w, format.Width(t.texts[ids[c]]), 1)
	}
	return w
}

// Terms returns the index built so far.
func (b *TermsBuilder) Terms() *Terms { return b.t }

func (b *TermsBuilder) text(raw string) uint32 {
	if raw == "" && b.empty >= 0 {
		return uint32(b.empty)
	}
	if id, ok := b.texts[raw]; ok {
		return id
	}
	if raw == "" {
		b.empty = int64(len(b.t.texts))
	}
	id := uint32(len(b.t.texts))
	s := searchText(raw)
	b.t.texts = append(b.t.texts, s)
	b.t.masks = append(b.t.masks, charMask(s))
	b.texts[raw] = id
	return id
}

// Query is a filter query prepared against one Terms.
type Query struct {
	t     *Terms
	q     string
	mask  uint64
	pairs pairMask
	combo []bool
	empty bool
	// exact is set when the masks decide a row alone (a one-letter or
	// one-digit query), so no string is compared.
	exact bool
	// noOwn is set when no row's own text can match.
	noOwn bool
	// Extra, when set, is asked about a row its texts do not match: a
	// list matches texts it does not index this way (a payload, searched
	// only when a filter runs). It must be safe to call off the UI
	// goroutine.
	Extra func(row int) bool
}

// Prepare evaluates q (a case-insensitive substring) against every distinct
// combination of shared texts once. The empty query matches every row.
func (t *Terms) Prepare(q string) *Query {
	q = strings.ToLower(q)
	p := &Query{t: t, q: q, mask: charMask(q), pairs: pairsOf(q), empty: q == ""}
	p.exact = len(q) == 1 && ('a' <= q[0] && q[0] <= 'z' || '0' <= q[0] && q[0] <= '9')
	if p.empty || t == nil {
		return p
	}
	p.noOwn = t.anyMask&p.mask != p.mask || !t.anyPair.holds(p.pairs)
	hit := make([]bool, len(t.texts))
	for i, s := range t.texts {
		hit[i] = p.mask&t.masks[i] == p.mask && strings.Contains(s, q)
	}
	p.combo = make([]bool, len(t.combo))
	for i, ids := range t.combo {
		for _, id := range ids {
			if hit[id] {
				p.combo[i] = true
				break
			}
		}
	}
	return p
}

// Match reports whether row i matches the query.
func (p *Query) Match(i int) bool {
	if p.empty {
		return true
	}
	t := p.t
	if t == nil || i < 0 || i >= t.n {
		return false
	}
	return p.combo[t.rows[i]] || !p.noOwn && p.ownMatch(i) || p.Extra != nil && p.Extra(i)
}

// ownMatch tests row i's own text: the masks first, the string only when
// they cannot tell.
func (p *Query) ownMatch(i int) bool {
	t := p.t
	if t.omask[i]&p.mask != p.mask || !t.opair[i].holds(p.pairs) {
		return false
	}
	return p.exact || strings.Contains(t.own[i], p.q)
}

// Select appends to dst the rows that match the query and whose flags hold
// every bit of need: the rows in from when from is not nil (a narrower
// query refines the previous result; dst may be from[:0]), else every row.
// flags has one entry per row.
func (p *Query) Select(dst []int32, flags []uint8, need uint8, from []int32) []int32 {
	if from != nil {
		for _, i := range from {
			if flags[i]&need == need && p.Match(int(i)) {
				dst = append(dst, i)
			}
		}
		return dst
	}
	n := len(flags)
	if p.empty {
		for i := 0; i < n; i++ {
			if flags[i]&need == need {
				dst = append(dst, int32(i))
			}
		}
		return dst
	}
	rows, omask, opair, combo, mask, extra := p.t.rows[:n], p.t.omask[:n], p.t.opair[:n], p.combo, p.mask, p.Extra
	if p.noOwn {
		for i := 0; i < n; i++ {
			if flags[i]&need == need && (combo[rows[i]] || extra != nil && extra(i)) {
				dst = append(dst, int32(i))
			}
		}
		return dst
	}
	for i := 0; i < n; i++ {
		if flags[i]&need != need {
			continue
		}
		if combo[rows[i]] || omask[i]&mask == mask && opair[i].holds(p.pairs) && (p.exact || strings.Contains(p.t.own[i], p.q)) ||
			extra != nil && extra(i) {
			dst = append(dst, int32(i))
		}
	}
	return dst
}

// pairMask is a 128-bit set of the adjacent character pairs in a text (a
// Bloom filter of its bigrams): a text can contain a query only if its set
// holds every pair of the query's. It rejects most ids for queries of two
// characters or more without comparing strings.
type pairMask [2]uint64

func pairsOf(s string) pairMask {
	var m pairMask
	for i := 1; i < len(s); i++ {
		h := (uint(s[i-1])*31 + uint(s[i])) & 127
		m[h>>6] |= 1 << (h & 63)
	}
	return m
}

func (m pairMask) holds(q pairMask) bool {
	return m[0]&q[0] == q[0] && m[1]&q[1] == q[1]
}

// searchForm returns raw's search text and its masks in one pass over it;
// ids are plain lower-case ASCII, which needs no copy.
func searchForm(raw string) (text string, mask uint64, pairs pairMask) {
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c < 0x20 || c >= 0x7f || 'A' <= c && c <= 'Z' {
			text = searchText(raw)
			return text, charMask(text), pairsOf(text)
		}
		mask |= 1 << charBit(c)
		if i > 0 {
			h := (uint(raw[i-1])*31 + uint(c)) & 127
			pairs[h>>6] |= 1 << (h & 63)
		}
	}
	return raw, mask, pairs
}

// searchText is the form texts are matched in: sanitized, lower-cased.
func searchText(raw string) string {
	return strings.ToLower(safetext.Line(raw))
}

// charMask has a bit for each character class present in s: one per letter
// and digit, a few for punctuation, one for everything else. A row can match
// a query only if its mask holds every bit of the query's.
func charMask(s string) uint64 {
	var m uint64
	for i := 0; i < len(s); i++ {
		m |= 1 << charBit(s[i])
	}
	return m
}

func charBit(c byte) uint {
	switch {
	case 'a' <= c && c <= 'z':
		return uint(c - 'a')
	case 'A' <= c && c <= 'Z':
		return uint(c - 'A')
	case '0' <= c && c <= '9':
		return 26 + uint(c-'0')
	case c < 0x80:
		return 36 + uint(c)%27
	}
	return 63
}
