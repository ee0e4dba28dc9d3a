package table

import (
	"strings"

	"github.com/twice-cli/twice/tui/format"
)

// Column describes one column of a list: its heading, its width, and how it
// gives way when the list is narrow.
type Column struct {
	Title string
	// Width is the column's fixed width; with Flex > 0 it is the minimum.
	Width int
	// Flex shares the width left over between flexible columns, by weight.
	Flex int
	// Want is the width a flexible column's content needs; 0 means as much
	// as there is (a column of free text). A column with a Want never gets
	// more than it.
	Want int
	// Right aligns the column's text to the right.
	Right bool
	// Drop is the order in which columns are hidden when the list is too
	// narrow: the highest Drop goes first; 0 is never hidden.
	Drop int
	// Firm keeps an optional column while the columns fit at their minimum
	// widths: it is never hidden only to give a flexible column what it
	// wants (that column is cut, or shows a shorter form, instead).
	Firm bool
}

// Layout is the widths of a list's columns at one width; a hidden column has
// width 0.
type Layout struct {
	Cols   []Column
	Widths []int
	Width  int
}

// gap is the space between columns.
const gap = 1

// comfort is the width up to which a flexible column's Want is worth hiding
// optional columns for: a name of 24 columns reads; past that, a long
// name is cut rather than the start time or the duration hidden.
const comfort = 24

// NewLayout fits cols into width columns (the row's gutter excluded).
// Optional columns are hidden, highest Drop first, while the shown columns
// do not fit at their minimum widths, and then while the flexible columns
// cannot have what they want (up to comfort): a column of secondary facts
// gives way before a name or an id is cut. The room left goes first to the
// flexible columns with a Want, by Flex weight, each up to its Want, then
// to the free-text columns (Want 0); with none, it is left blank at the
// end of the row.
func NewLayout(width int, cols []Column) Layout {
	l := Layout{Cols: cols, Widths: make([]int, len(cols)), Width: width}
	shown := make([]bool, len(cols))
	for i := range shown {
		shown[i] = true
	}
	for need(cols, shown, false) > width && dropOne(cols, shown, false) {
	}
	for need(cols, shown, true) > width && dropOne(cols, shown, true) {
	}
	for i, c := range cols {
		if shown[i] {
			l.Widths[i] = c.Width
		}
	}
	l.share(shown, max(width-need(cols, shown, false), 0))
	return l
}

// need is the width the shown columns take at their minimum widths, or at
// the widths they want (up to comfort).
func need(cols []Column, shown []bool, wanted bool) int {
	total, n := 0, 0
	for i, c := range cols {
		if !shown[i] {
			continue
		}
		n++
		w := c.Width
		if wanted && c.Flex > 0 {
			w = max(w, min(c.Want, comfort))
		}
		total += w
	}
	return total + gap*max(n-1, 0)
}

// share gives spare columns to the shown flexible columns: first to those
// with a Want, by Flex weight, each up to its Want but no further than
// comfort while another still lacks that much (one long name does not
// starve the others); then each up to its Want; then what is left to the
// free-text columns (no Want), by Flex weight.
func (l *Layout) share(shown []bool, spare int) {
	spare = l.fill(shown, spare, true, comfort)
	spare = l.fill(shown, spare, true, 0)
	l.fill(shown, spare, false, 0)
}

// fill shares spare among the shown flexible columns with a Want (up to
// it, or up to limit when limit > 0), or among those without one, and
// returns what is left.
func (l *Layout) fill(shown []bool, spare int, wanting bool, limit int) int {
	room := func(i int) int {
		c := l.Cols[i]
		switch {
		case !shown[i] || c.Flex <= 0 || (c.Want > 0) != wanting:
			return 0
		case wanting && limit > 0:
			return max(min(c.Want, limit)-l.Widths[i], 0)
		case wanting:
			return max(c.Want-l.Widths[i], 0)
		}
		return spare
	}
	for spare > 0 {
		weight := 0
		for i := range l.Cols {
			if room(i) > 0 {
				weight += l.Cols[i].Flex
			}
		}
		if weight == 0 {
			return spare
		}
		given := 0
		for i, c := range l.Cols {
			if r := room(i); r > 0 {
				add := min(spare*c.Flex/weight, r)
				l.Widths[i] += add
				given += add
			}
		}
		if given == 0 {
			// Less is left than one column per weight: give it one at a
			// time, leftmost first.
			for i := range l.Cols {
				if given < spare && room(i) > 0 {
					l.Widths[i]++
					given++
				}
			}
		}
		spare -= given
	}
	return 0
}

// dropOne hides the shown column with the highest Drop (only the ones that
// are not Firm when it is for a wanted width); false when none can go.
func dropOne(cols []Column, shown []bool, forWant bool) bool {
	best := -1
	for i, c := range cols {
		if forWant && c.Firm {
			continue
		}
		if shown[i] && c.Drop > 0 && (best < 0 || c.Drop > cols[best].Drop) {
			best = i
		}
	}
	if best < 0 {
		return false
	}
	shown[best] = false
	return true
}

// Row lays out one row's cells (safe text, possibly styled), fitting each to
// its column and cutting the whole to the layout's width.
func (l Layout) Row(cells ...string) string {
	var b strings.Builder
	b.Grow(l.Width + 16)
	first := true
	for i, w := range l.Widths {
		if w == 0 {
			continue
		}
		if !first {
			b.WriteByte(' ')
		}
		first = false
		var cell string
		if i < len(cells) {
			cell = cells[i]
		}
		if l.Cols[i].Right {
			b.WriteString(format.PadLeft(cell, w))
		} else {
			b.WriteString(format.Pad(cell, w))
		}
	}
	return format.Pad(b.String(), l.Width)
}

// Header lays out the column titles.
func (l Layout) Header() string {
	titles := make([]string, len(l.Cols))
	for i, c := range l.Cols {
		titles[i] = c.Title
	}
	return l.Row(titles...)
}

// Need is the width cols take when every column has what it wants (a
// flexible column its Want, up to maxWant), gaps included; 0 when a column
// of free text (a flexible one without a Want) would take any width given.
func Need(cols []Column, maxWant int) int {
	total := 0
	for i, c := range cols {
		w := c.Width
		if c.Flex > 0 {
			if c.Want == 0 {
				return 0
			}
			w = max(w, min(c.Want, maxWant))
		}
		if i > 0 {
			total += gap
		}
		total += w
	}
	return total
}

// Mark returns cols with column i's title followed by mark (a sort arrow)
// and the column widened to hold the two: the mark is part of the
// column's width, so it never cuts the title. cols is not changed; i out
// of range returns cols.
func Mark(cols []Column, i int, mark string) []Column {
	if i < 0 || i >= len(cols) || mark == "" {
		return cols
	}
	out := append([]Column(nil), cols...)
	c := &out[i]
	c.Title += mark
	w := format.Width(c.Title)
	c.Width = max(c.Width, w)
	if c.Flex > 0 && c.Want > 0 {
		c.Want = max(c.Want, w)
	}
	return out
}

// Used is the width the shown columns take, gaps included: less than the
// layout's width when every column has what it wants and the rest is
// blank.
func (l Layout) Used() int {
	total, n := 0, 0
	for _, w := range l.Widths {
		if w > 0 {
			total += w
			n++
		}
	}
	return total + gap*max(n-1, 0)
}
