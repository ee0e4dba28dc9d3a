package list

import (
	"slices"
	"sort"

	"github.com/twice-cli/twice/tui/table"
)

// Row is one line of a list: an item (a row of its source), or, Sub ≥ 0,
// one of the lines that follow it (an invocation's attempts, a finding's
// evidence). Sub is -1 on the item's own line.
type Row struct{ Item, Sub int32 }

// Layout lays the items a list shows, in its order, out as its lines.
type Layout interface {
	// Len is the number of lines.
	Len() int
	// At returns the line at position p.
	At(p int) Row
	// Find returns the position of r, or of its item's own line when r's
	// line is not shown; ok is false when the item is not shown.
	Find(r Row) (p int, ok bool)
}

// flat is the layout of a list without lines of its own: one per item.
type flat struct{ o table.Order }

func (f flat) Len() int     { return f.o.Len() }
func (f flat) At(p int) Row { return Row{f.o.At(p), -1} }
func (f flat) Find(r Row) (int, bool) {
	return f.o.Find(r.Item)
}

// Sparse lays out the items in order with the lines of the few opened
// ones after them (lines gives how many an item has): a lookup walks the
// opened items only, so opening one of a million items costs what opening
// one of ten does.
func Sparse(order table.Order, opened []int32, lines func(item int32) int32) Layout {
	r := &sparse{base: order}
	for _, item := range opened {
		pos, ok := order.Find(item)
		if !ok {
			continue
		}
		k := lines(item)
		r.open = append(r.open, openItem{int32(pos), item, k})
		r.extra += int(k)
	}
	slices.SortFunc(r.open, func(a, b openItem) int { return int(a.pos - b.pos) })
	return r
}

// sparse is Sparse's layout.
type sparse struct {
	base table.Order
	// open are the opened items shown, by base position.
	open []openItem
	// extra is the number of their lines.
	extra int
}

// openItem is an opened item: its position among the items shown, the
// item, and its number of lines.
type openItem struct{ pos, item, lines int32 }

func (r *sparse) Len() int { return r.base.Len() + r.extra }

func (r *sparse) At(p int) Row {
	extra := 0
	for _, o := range r.open {
		head := int(o.pos) + extra // the opened item's own line
		if p <= head {
			break
		}
		if p <= head+int(o.lines) {
			return Row{o.item, int32(p - head - 1)}
		}
		extra += int(o.lines)
	}
	return Row{r.base.At(p - extra), -1}
}

func (r *sparse) Find(x Row) (int, bool) {
	pos, ok := r.base.Find(x.Item)
	if !ok {
		return 0, false
	}
	extra := 0
	for _, o := range r.open {
		if o.pos > int32(pos) {
			break
		}
		if o.pos == int32(pos) && x.Sub >= 0 && x.Sub < o.lines {
			return pos + extra + 1 + int(x.Sub), true
		}
		if o.pos < int32(pos) {
			extra += int(o.lines)
		}
	}
	return pos + extra, true
}

// Dense lays out the items in order, each followed by its lines (lines
// gives how many): a lookup is a binary search over the items shown,
// whatever their number.
func Dense(order table.Order, lines func(item int32) int) Layout {
	r := &dense{order: order, start: make([]int32, order.Len())}
	for p := range r.start {
		r.start[p] = int32(r.n)
		r.n += 1 + lines(order.At(p))
	}
	return r
}

// dense is Dense's layout: start holds each item's line.
type dense struct {
	order table.Order
	start []int32
	n     int
}

func (r *dense) Len() int { return r.n }

func (r *dense) At(p int) Row {
	k := sort.Search(len(r.start), func(i int) bool { return int(r.start[i]) > p }) - 1
	return Row{r.order.At(k), int32(p) - r.start[k] - 1}
}

func (r *dense) Find(x Row) (int, bool) {
	k, ok := r.order.Find(x.Item)
	if !ok {
		return 0, false
	}
	p := int(r.start[k])
	next := r.n
	if k+1 < len(r.start) {
		next = int(r.start[k+1])
	}
	if x.Sub >= 0 && p+1+int(x.Sub) < next {
		return p + 1 + int(x.Sub), true
	}
	return p, true
}
