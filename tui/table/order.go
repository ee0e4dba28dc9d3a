package table

import (
	"slices"
	"sort"
)

// Order is the rows a list shows, in the order it shows them: the rows a
// filter kept (or all of them), in their own order or sorted by a column.
// Unsorted and unfiltered it holds nothing at all, so a million rows cost
// nothing until they are filtered or sorted.
type Order struct {
	// rows are the rows shown, in display order; nil shows all n rows in
	// their own order.
	rows []int32
	n    int
	// pos maps a row to its display position (-1: not shown) when the rows
	// are sorted; nil when rows are ascending (found by binary search).
	pos []int32
}

// NewOrder returns the order of n rows: kept (ascending; nil for all n),
// sorted with cmp when cmp is not nil (stably: ties keep their order).
// It may take a while for a large list: call it off the UI goroutine.
func NewOrder(n int, kept []int32, cmp func(a, b int32) int) Order {
	o := Order{rows: kept, n: n}
	if cmp == nil {
		return o
	}
	if o.rows == nil {
		o.rows = make([]int32, n)
		for i := range o.rows {
			o.rows[i] = int32(i)
		}
	} else {
		o.rows = slices.Clone(o.rows)
	}
	slices.SortStableFunc(o.rows, cmp)
	o.pos = make([]int32, n)
	for i := range o.pos {
		o.pos[i] = -1
	}
	for p, r := range o.rows {
		o.pos[r] = int32(p)
	}
	return o
}

// Len returns the number of rows shown.
func (o *Order) Len() int {
	if o.rows == nil {
		return o.n
	}
	return len(o.rows)
}

// At returns the row shown at display position p.
func (o *Order) At(p int) int32 {
	if o.rows == nil {
		return int32(p)
	}
	return o.rows[p]
}

// Find returns the display position of row r; ok is false when it is not
// shown.
func (o *Order) Find(r int32) (int, bool) {
	switch {
	case r < 0 || int(r) >= o.n:
		return 0, false
	case o.rows == nil:
		return int(r), true
	case o.pos != nil:
		p := o.pos[r]
		return int(p), p >= 0
	}
	i := sort.Search(len(o.rows), func(i int) bool { return o.rows[i] >= r })
	return i, i < len(o.rows) && o.rows[i] == r
}

// Nearest returns the display position of row r, or, when it is not shown
// and the rows are in their own order, of the first shown row after it (0
// when sorted).
func (o *Order) Nearest(r int32) int {
	if p, ok := o.Find(r); ok {
		return p
	}
	if o.rows == nil || o.pos != nil {
		return 0
	}
	return sort.Search(len(o.rows), func(i int) bool { return o.rows[i] >= r })
}
