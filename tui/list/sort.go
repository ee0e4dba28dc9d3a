package list

import (
	"cmp"
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/twice-cli/twice/tui/format"
	"github.com/twice-cli/twice/tui/table"
)

// Column is a column a list can be sorted by: the key that picks it in the
// sort menu, its column's title, and how two rows compare (nil: the rows'
// own order, as the source gives them). Compare must be safe off the UI
// goroutine: it reads only what does not change while the list shows it.
type Column struct {
	Key, Title string
	Compare    func(a, b int32) int
	// Desc, when set, makes the column's first pick sort descending (the
	// newest, longest, worst first).
	Desc bool
}

// Sort is how a list is sorted: by column Col of its columns, descending
// when Desc.
type Sort struct {
	Col  int
	Desc bool
}

// own reports whether s is the rows' own order, ascending: nothing to say
// or mark.
func (s Sort) own(cols []Column) bool {
	return s.Col < 0 || s.Col >= len(cols) || cols[s.Col].Compare == nil && !s.Desc
}

// SortText is the sort for a tab bar: "sorted by DURATION ↓" ("" for the
// rows' own order, ascending).
func SortText(cols []Column, s Sort) string {
	if s.own(cols) {
		return ""
	}
	return "sorted by " + cols[s.Col].Title + " " + format.SortArrow(s.Desc)
}

// SortMenu is the sort menu's line: each column's key and title, the
// current one's direction.
func SortMenu(cols []Column, s Sort) string {
	parts := make([]string, len(cols))
	for i, c := range cols {
		parts[i] = c.Key + " " + strings.ToLower(c.Title)
		if i == s.Col {
			parts[i] += " " + format.SortArrow(s.Desc)
		}
	}
	return "sort by: " + strings.Join(parts, " · ") + " (again: reverse; esc: cancel)"
}

// Mark returns a table's columns with the sorted one's title marked by its
// arrow and its width grown to hold it (table.Mark), and the heading's
// cells; nothing is marked in the rows' own order, ascending.
func Mark(cols []table.Column, sorts []Column, s Sort) (out []table.Column, titles []string) {
	out = cols
	if !s.own(sorts) {
		sorted := sorts[s.Col].Title
		if i := slices.IndexFunc(cols, func(c table.Column) bool { return c.Title == sorted }); i >= 0 {
			out = table.Mark(cols, i, format.SortArrow(s.Desc))
		}
	}
	titles = make([]string, len(out))
	for i, c := range out {
		titles[i] = c.Title
	}
	return out, titles
}

// comparator returns the comparison that puts rows in sort s (nil for the
// rows' own order).
func comparator(cols []Column, s Sort) func(a, b int32) int {
	if s.Col < 0 || s.Col >= len(cols) {
		return nil
	}
	c := cols[s.Col].Compare
	if c == nil {
		if !s.Desc {
			return nil
		}
		c = func(a, b int32) int { return cmp.Compare(a, b) }
	}
	if s.Desc {
		return func(a, b int32) int { return c(b, a) }
	}
	return c
}

// ColumnNamed finds a sort column by its heading, its sort key, or the
// start of its heading (the command line's ":sort duration"); the error
// lists the headings it takes.
func ColumnNamed(cols []Column, arg string) (int, error) {
	a := strings.ToLower(strings.TrimSpace(arg))
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = strings.ToLower(c.Title)
		if a != "" && (names[i] == a || c.Key == strings.TrimSpace(arg)) {
			return i, nil
		}
	}
	for i := range cols {
		if a != "" && strings.HasPrefix(names[i], a) {
			return i, nil
		}
	}
	return 0, errors.New("no column " + strconv.Quote(arg) + " to sort by here: :sort takes " + strings.Join(names, ", "))
}
