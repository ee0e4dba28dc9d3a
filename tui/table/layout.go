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
	// Right aligns the column's text to the right.
	Right bool
	// Drop is the order in which columns are hidden when the list is too
	// narrow: the highest Drop goes first; 0 is never hidden.
	Drop int
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

// NewLayout fits cols into width columns (the row's gutter excluded).
func NewLayout(width int, cols []Column) Layout {
	l := Layout{Cols: cols, Widths: make([]int, len(cols)), Width: width}
	shown := make([]bool, len(cols))
	for i := range shown {
		shown[i] = true
	}
	for {
		fixed, flex, n := 0, 0, 0
		for i, c := range cols {
			if !shown[i] {
				continue
			}
			n++
			fixed += c.Width
			flex += c.Flex
		}
		fixed += gap * max(n-1, 0)
		if fixed <= width || !dropOne(cols, shown) {
			spare := max(width-fixed, 0)
			given := 0
			lastFlex := -1
			for i, c := range cols {
				if !shown[i] {
					continue
				}
				l.Widths[i] = c.Width
				if c.Flex > 0 && flex > 0 {
					add := spare * c.Flex / flex
					l.Widths[i] += add
					given += add
					lastFlex = i
				}
			}
			if lastFlex >= 0 {
				l.Widths[lastFlex] += spare - given
			}
			return l
		}
	}
}

// dropOne hides the shown column with the highest Drop; false when none can go.
func dropOne(cols []Column, shown []bool) bool {
	best := -1
	for i, c := range cols {
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
