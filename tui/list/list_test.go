package list

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/twice-cli/twice/tui/table"
)

// numbers is a source of n items, item i's text its decimal, flagged
// Failed when odd; sorted by the text (a column) or by value descending.
func numbers(n int, calls *int) Source {
	text := func(i int32) string { return strconv.Itoa(int(i)) }
	return Source{
		Len: n,
		Select: func(f Filter, from []int32) []int32 {
			if calls != nil {
				*calls++
			}
			var out []int32
			test := func(i int32) {
				if f.Need&Failed != 0 && i%2 == 0 {
					return
				}
				if strings.Contains(text(i), f.Query) {
					out = append(out, i)
				}
			}
			if from != nil {
				for _, i := range from {
					test(i)
				}
				return out
			}
			for i := range int32(n) {
				test(i)
			}
			return out
		},
		Columns: []Column{
			{Key: "#", Title: "#"},
			{Key: "t", Title: "TEXT", Compare: func(a, b int32) int { return strings.Compare(text(a), text(b)) }},
			{Key: "v", Title: "VALUE", Desc: true, Compare: func(a, b int32) int { return cmp.Compare(a, b) }},
		},
	}
}

// items returns the items l shows, in order.
func items(l *Model) []int32 {
	var out []int32
	for p := range l.Len() {
		out = append(out, l.At(p).Item)
	}
	return out
}

func TestApplyFiltersAndSortsAtOnceWhenSmall(t *testing.T) {
	var l Model
	src := numbers(12, nil)
	l.Reset(src.Len)
	if cmd := l.Apply(src, Filter{Query: "1"}, -1); cmd != nil {
		t.Fatal("a small list was filtered in a command")
	}
	if got := items(&l); !slices.Equal(got, []int32{1, 10, 11}) || l.Count() != "3/12" {
		t.Fatalf("/1: %v, count %s", got, l.Count())
	}
	l.PickSort(2, src.Columns) // VALUE: descending when first picked
	l.Resort(src)
	if got := items(&l); !slices.Equal(got, []int32{11, 10, 1}) || l.SortState() != (Sort{Col: 2, Desc: true}) {
		t.Fatalf("by value: %v (%+v)", got, l.SortState())
	}
	l.PickSort(2, src.Columns) // again: reversed
	l.Resort(src)
	if got := items(&l); !slices.Equal(got, []int32{1, 10, 11}) {
		t.Fatalf("by value, reversed: %v", got)
	}
	// A filter that matches nothing shows nothing (not every item).
	l.Apply(src, Filter{Query: "x"}, -1)
	if l.Len() != 0 || l.Count() != "0/12" {
		t.Fatalf("/x: %v, count %s", items(&l), l.Count())
	}
}

func TestApplyNarrowsTheLastResultUnlessTheItemsChanged(t *testing.T) {
	var l Model
	calls := 0
	src := numbers(30, &calls)
	l.Reset(src.Len)
	l.Apply(src, Filter{Query: "1"}, -1)
	narrowed := src
	narrowed.Select = func(f Filter, from []int32) []int32 {
		if from == nil {
			t.Error("a narrower query tested every item again")
		}
		return src.Select(f, from)
	}
	l.Apply(narrowed, Filter{Query: "1", Need: Failed}, -1)
	if got := items(&l); !slices.Equal(got, []int32{1, 11, 13, 15, 17, 19, 21}) {
		t.Fatalf("/1 failed: %v", got)
	}
	l.Changed()
	every := src
	every.Select = func(f Filter, from []int32) []int32 {
		if from != nil {
			t.Error("after Changed, the filter narrowed a stale result")
		}
		return src.Select(f, from)
	}
	l.Apply(every, Filter{Query: "11", Need: Failed}, -1)
	if got := items(&l); !slices.Equal(got, []int32{11}) {
		t.Fatalf("/11 failed: %v", got)
	}
	calls = 0
	if l.Refilter(src, Filter{Query: "11", Need: Failed}) != nil || calls != 0 {
		t.Error("the filter on screen was computed again")
	}
}

func TestLargeListComputesInACommand(t *testing.T) {
	l := Model{SyncMax: 10}
	src := numbers(50, nil)
	l.Reset(src.Len)
	l.Select(Row{Item: 7, Sub: -1})
	cmd := l.Apply(src, Filter{Query: "3"}, l.SelectedItem())
	if cmd == nil || !l.Pending() || l.Position() != "filtering…" {
		t.Fatalf("a large list was filtered on the key press (pending %v, %q)", l.Pending(), l.Position())
	}
	stale := cmd().(FilteredMsg)
	// A newer request supersedes it; its answer is dropped.
	cmd = l.Apply(src, Filter{Query: "4"}, l.SelectedItem())
	if l.Take(stale) {
		t.Fatal("a superseded answer was taken")
	}
	var other Model
	if other.Take(cmd().(FilteredMsg)) {
		t.Fatal("another list took this one's answer")
	}
	if !l.Take(cmd().(FilteredMsg)) || l.Pending() {
		t.Fatal("the list did not take its own answer")
	}
	if got := items(&l); !slices.Equal(got, []int32{4, 14, 24, 34, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49}) {
		t.Fatalf("/4: %v", got)
	}
	// Every item in its own order costs nothing: no command.
	if cmd := l.Apply(src, Filter{}, -1); cmd != nil || l.Len() != 50 {
		t.Error("clearing the filter of an unsorted list went to a command")
	}
	// A selection made while a command runs holds when it answers.
	l.PickSort(1, src.Columns)
	cmd = l.Resort(src)
	l.Select(Row{Item: 42, Sub: -1})
	l.Take(cmd().(FilteredMsg))
	if l.SelectedItem() != 42 {
		t.Errorf("selected %d after the sort, want 42", l.SelectedItem())
	}
}

func TestWaitingForAnIndex(t *testing.T) {
	var l Model
	src := Source{Len: 5} // no Select yet
	l.Reset(src.Len)
	l.Apply(src, Filter{Query: "3"}, -1)
	if !l.Waiting() || l.Len() != 5 || l.Position() != "" || l.Count() != "5" {
		t.Fatalf("waiting %v, %d lines, position %q, count %q", l.Waiting(), l.Len(), l.Position(), l.Count())
	}
	if l.Refilter(numbers(5, nil), Filter{Query: "3"}); l.Waiting() || !slices.Equal(items(&l), []int32{3}) {
		t.Fatalf("the filter did not apply once it could: %v", items(&l))
	}
	if (&Model{}).Count() != "0" {
		t.Error("an empty list's count")
	}
	var unknown Model
	unknown.Apply(Source{Unknown: true}, Filter{}, -1)
	if unknown.Count() != "…" {
		t.Errorf("unknown items count %q", unknown.Count())
	}
}

func TestLinesOfTheirOwn(t *testing.T) {
	open := map[int32]bool{2: true}
	l := Model{Lines: func(o table.Order) Layout {
		var opened []int32
		for i := range open {
			opened = append(opened, i)
		}
		return Sparse(o, opened, func(int32) int32 { return 2 })
	}}
	src := numbers(5, nil)
	l.Reset(src.Len)
	l.Apply(src, Filter{}, -1)
	if l.Len() != 7 || l.At(3) != (Row{2, 0}) || l.At(5) != (Row{3, -1}) {
		t.Fatalf("lines: %d, %v %v", l.Len(), l.At(3), l.At(5))
	}
	l.Select(Row{2, 1})
	if l.Selected() != (Row{2, 1}) || l.SelectedItem() != 2 {
		t.Fatalf("selected %v", l.Selected())
	}
	delete(open, 2)
	l.Relayout()
	if l.Len() != 5 {
		t.Fatalf("folded: %d lines", l.Len())
	}
	// Filtered, the selection goes to the nearest item shown after it.
	l.Select(Row{2, -1})
	l.Apply(src, Filter{Need: Failed}, l.SelectedItem())
	if l.SelectedItem() != 3 {
		t.Errorf("item 2 hidden: selected %d, want 3", l.SelectedItem())
	}
}

func TestLoadKeepsThePlace(t *testing.T) {
	var l Model
	src := numbers(100, nil)
	l.SetHeight(10)
	l.Load(src, Filter{}, false, 40)
	if l.SelectedItem() != 40 {
		t.Fatalf("fallback: selected %d", l.SelectedItem())
	}
	l.Table().SetView(45, 41)
	l.Remember()
	l.Load(src, Filter{}, true, 3)
	if l.SelectedItem() != 45 || l.Table().Offset() != 41 {
		t.Errorf("kept: selected %d at offset %d, want 45 at 41", l.SelectedItem(), l.Table().Offset())
	}
	l.Load(src, Filter{}, false, -1)
	if l.SelectedItem() != 0 {
		t.Errorf("new data: selected %d, want the first", l.SelectedItem())
	}
}

func TestAFollowerSharesItemsNotItsCursor(t *testing.T) {
	var lead, tl Model
	tl.Follow(&lead)
	src := numbers(20, nil)
	lead.Reset(src.Len)
	lead.Apply(src, Filter{Query: "1"}, -1)
	lead.Select(Row{Item: 12, Sub: -1})
	if !tl.Follows(&lead) || tl.Len() != lead.Len() || tl.Count() != lead.Count() {
		t.Fatalf("follower: %d lines, count %s; lead %d, %s", tl.Len(), tl.Count(), lead.Len(), lead.Count())
	}
	tl.Select(Row{Item: 15, Sub: -1})
	if lead.SelectedItem() != 12 || tl.SelectedItem() != 15 || tl.Position() != "7/11" {
		t.Errorf("cursors: lead %d, follower %d (%s)", lead.SelectedItem(), tl.SelectedItem(), tl.Position())
	}
	tl.PickSort(2, src.Columns)
	tl.Resort(src)
	if lead.SortState().Col != 2 || lead.At(0).Item != 19 || tl.At(0).Item != 19 {
		t.Errorf("a follower's sort is its lead's: %+v, first %d", lead.SortState(), lead.At(0).Item)
	}
	if (&Model{}).Follows(&lead) {
		t.Error("two lists follow each other")
	}
}

func TestSortWordsAndMarks(t *testing.T) {
	cols := numbers(1, nil).Columns
	if got := SortText(cols, Sort{}); got != "" {
		t.Errorf("own order: %q", got)
	}
	if got := SortText(cols, Sort{Col: 0, Desc: true}); got != "sorted by # ↓" {
		t.Errorf("own order, reversed: %q", got)
	}
	if got := SortMenu(cols, Sort{Col: 1}); got != "sort by: # # · t text ↑ · v value (again: reverse; esc: cancel)" {
		t.Errorf("menu: %q", got)
	}
	tcols := []table.Column{{Title: "#", Width: 3}, {Title: "TEXT", Width: 4}}
	if _, titles := Mark(tcols, cols, Sort{}); !slices.Equal(titles, []string{"#", "TEXT"}) {
		t.Errorf("own order marked: %v", titles)
	}
	if out, titles := Mark(tcols, cols, Sort{Col: 1}); !slices.Equal(titles, []string{"#", "TEXT↑"}) || out[1].Width < 5 {
		t.Errorf("by text: %v (%+v)", titles, out)
	}
}

func TestFilterWords(t *testing.T) {
	f := Filter{Query: "charge\x1b"}.Toggle(Failed).Toggle(Flagged)
	if got := f.Text(); got != `/charge\x1b failed flagged` {
		t.Errorf("text %q", got)
	}
	if !f.Narrows(Filter{Query: "ch", Need: Failed}) || f.Narrows(Filter{Need: Retried}) || (Filter{}).Active() {
		t.Error("narrows/active")
	}
	if f.Toggle(Failed).Need != Flagged {
		t.Error("toggle twice")
	}
}
