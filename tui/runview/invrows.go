package runview

import (
	"slices"

	"github.com/twice-cli/twice/tui/table"
)

// invRows maps list positions of the Invocations tab to rows without
// building a row per invocation: the rows are the base invocations (those
// the filter kept, in the list's sort), with the attempts of the few
// expanded ones inserted after them. A lookup walks the expanded
// invocations only, so expanding one of a million costs what expanding one
// of ten does.
type invRows struct {
	base table.Order
	// open are the expanded invocations shown, by base position.
	open []openInv
	// extra is the number of attempt rows.
	extra int
}

// openInv is an expanded invocation: its position among the base rows, its
// index, and its number of attempts.
type openInv struct{ pos, inv, attempts int32 }

// newInvRows lays out base with the invocations in expanded opened;
// attempts gives an invocation's number of attempts.
func newInvRows(base table.Order, expanded []int32, attempts func(inv int32) int32) invRows {
	r := invRows{base: base}
	for _, inv := range expanded {
		pos, ok := base.Find(inv)
		if !ok {
			continue
		}
		k := attempts(inv)
		r.open = append(r.open, openInv{int32(pos), inv, k})
		r.extra += int(k)
	}
	slices.SortFunc(r.open, func(a, b openInv) int { return int(a.pos - b.pos) })
	return r
}

// len is the number of rows.
func (r *invRows) len() int { return r.base.Len() + r.extra }

// at returns the row at list position p.
func (r *invRows) at(p int) invRow {
	extra := 0
	for _, o := range r.open {
		head := int(o.pos) + extra // the expanded invocation's own row
		if p <= head {
			break
		}
		if p <= head+int(o.attempts) {
			return invRow{o.inv, int32(p - head - 1)}
		}
		extra += int(o.attempts)
	}
	return invRow{r.base.At(p - extra), -1}
}

// find returns the list position of row x, or of its invocation's row when
// that invocation is not expanded; ok is false when the invocation is not
// shown.
func (r *invRows) find(x invRow) (int, bool) {
	pos, ok := r.base.Find(x.inv)
	if !ok {
		return 0, false
	}
	extra := 0
	for _, o := range r.open {
		if o.pos > int32(pos) {
			break
		}
		if o.pos == int32(pos) && x.att >= 0 && x.att < o.attempts {
			return pos + extra + 1 + int(x.att), true
		}
		if o.pos < int32(pos) {
			extra += int(o.attempts)
		}
	}
	return pos + extra, true
}
