package table

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/twice-cli/twice/catalyst/safetext"
	"github.com/twice-cli/twice/tui/common"
	"github.com/twice-cli/twice/tui/format"
)

func press(m *Model, k *common.Keys, names ...string) {
	for _, n := range names {
		var msg tea.KeyPressMsg
		switch n {
		case "ctrl+d":
			msg = tea.KeyPressMsg{Code: 'd', Mod: tea.ModCtrl}
		case "ctrl+u":
			msg = tea.KeyPressMsg{Code: 'u', Mod: tea.ModCtrl}
		default:
			msg = tea.KeyPressMsg{Code: rune(n[0]), Text: n}
		}
		m.Update(msg, k)
	}
}

func TestCursorAndWindow(t *testing.T) {
	k := common.DefaultKeys()
	var m Model
	if m.Cursor() != -1 {
		t.Fatal("an empty list has a cursor")
	}
	m.SetHeight(10)
	m.SetLen(100)
	for _, c := range []struct {
		keys         []string
		cursor, from int
	}{
		{nil, 0, 0},
		{[]string{"j", "j"}, 2, 0},
		{[]string{"k", "k", "k"}, 0, 0},
		{[]string{"G"}, 99, 90},
		{[]string{"g"}, 0, 0},
		{[]string{"ctrl+d"}, 5, 5},
		{[]string{"ctrl+d"}, 10, 10},
		{[]string{"ctrl+u"}, 5, 5},
		{[]string{"j", "j", "j", "j", "j", "j", "j", "j", "j", "j"}, 15, 6},
	} {
		press(&m, &k, c.keys...)
		if from, _ := m.Window(); m.Cursor() != c.cursor || from != c.from {
			t.Fatalf("after %v: cursor %d window from %d, want %d and %d", c.keys, m.Cursor(), from, c.cursor, c.from)
		}
	}
	m.SetLen(12)
	if from, to := m.Window(); m.Cursor() != 11 || from != 2 || to != 12 {
		t.Errorf("after shrinking: cursor %d window [%d,%d)", m.Cursor(), from, to)
	}
	m.SetView(3, 1)
	if from, _ := m.Window(); m.Cursor() != 3 || from != 1 {
		t.Errorf("SetView(3,1): cursor %d from %d", m.Cursor(), from)
	}
	lines := m.Lines(func(i int, sel bool) string {
		if sel {
			return ">" + strconv.Itoa(i)
		}
		return strconv.Itoa(i)
	})
	if len(lines) != 10 || lines[0] != "1" || lines[2] != ">3" {
		t.Errorf("Lines = %q", lines)
	}
	m.SetLen(2)
	if lines := m.Lines(func(i int, _ bool) string { return "x" }); len(lines) != 10 || lines[2] != "" {
		t.Errorf("Lines do not pad to the height: %q", lines)
	}
}

func TestLayout(t *testing.T) {
	cols := []Column{
		{Title: "A", Width: 5},
		{Title: "B", Width: 4, Flex: 1},
		{Title: "C", Width: 6, Right: true, Drop: 1},
		{Title: "D", Width: 6, Drop: 2},
	}
	for _, c := range []struct {
		width int
		want  []int
	}{
		{40, []int{5, 20, 6, 6}},
		{24, []int{5, 4, 6, 6}},
		{20, []int{5, 7, 6, 0}},
		{12, []int{5, 6, 0, 0}},
		{5, []int{5, 4, 0, 0}},
	} {
		l := NewLayout(c.width, cols)
		if !slices.Equal(l.Widths, c.want) {
			t.Errorf("width %d: widths %v, want %v", c.width, l.Widths, c.want)
		}
		if got := format.Width(l.Row("a", "b", "7", "d")); got != c.width {
			t.Errorf("width %d: a row is %d wide", c.width, got)
		}
	}
	l := NewLayout(24, cols)
	if got := l.Row("aaaaaaa", "b", "7", "d"); got != "aaaa… b         7 d     " {
		t.Errorf("Row = %q", got)
	}
	if got := l.Header(); got != "A     B         C D     " {
		t.Errorf("Header = %q", got)
	}
}

// TestLayoutWants: optional columns give way to names that want room (up
// to comfort), flexible columns never get more than they want, and a
// free-text column takes what is left.
func TestLayoutWants(t *testing.T) {
	cols := func(name, id int) []Column {
		return []Column{
			{Title: "STATUS", Width: 6},
			{Title: "NAME", Width: 6, Flex: 1, Want: name},
			{Title: "ID", Width: 6, Flex: 1, Want: id},
			{Title: "APP", Width: 5, Drop: 2},
			{Title: "AGE", Width: 5, Drop: 1},
		}
	}
	for _, c := range []struct {
		name       string
		width      int
		nameW, idW int
		want       []int
	}{
		// Everything fits: names get what they want, the rest is blank.
		{"roomy", 60, 10, 8, []int{6, 10, 8, 5, 5}},
		// 6+10+8+5+5+4 = 38 > 34: APP goes so the names are whole.
		{"app gives way", 34, 10, 8, []int{6, 10, 8, 0, 5}},
		// Even without APP and AGE the names do not fit: both go, and the
		// names share what there is.
		{"both go", 24, 12, 12, []int{6, 8, 8, 0, 0}},
		// A name far longer than comfort hides an optional column only
		// for comfort's sake (6+24+8+5+5+4 = 52 > 50) ...
		{"long name, narrow", 50, 200, 8, []int{6, 28, 8, 0, 5}},
		// ... and when comfort fits, it is cut to what is left.
		{"long name", 54, 200, 8, []int{6, 26, 8, 5, 5}},
		// With room to spare the long name gets it, up to its want.
		{"long name, wide", 300, 200, 8, []int{6, 200, 8, 5, 5}},
	} {
		t.Run(c.name, func(t *testing.T) {
			l := NewLayout(c.width, cols(c.nameW, c.idW))
			if !slices.Equal(l.Widths, c.want) {
				t.Errorf("width %d: widths %v, want %v", c.width, l.Widths, c.want)
			}
			if got := format.Width(l.Row("a", "b", "c", "d", "e")); got != c.width {
				t.Errorf("a row is %d wide, want %d", got, c.width)
			}
		})
	}
	// A Firm column is not hidden for a name's wanted width (the name is
	// cut instead: 6+10+8+5+5+4 = 38 > 34), only when the minimum widths
	// do not fit (6+6+6+5+5+4 = 32 > 30).
	firm := cols(10, 8)
	firm[3].Firm, firm[4].Firm = true, true
	if l := NewLayout(34, firm); !slices.Equal(l.Widths, []int{6, 7, 7, 5, 5}) {
		t.Errorf("firm: widths %v, want [6 7 7 5 5]", l.Widths)
	}
	if l := NewLayout(30, firm); !slices.Equal(l.Widths, []int{6, 8, 8, 0, 5}) {
		t.Errorf("firm, too narrow: widths %v, want [6 8 8 0 5]", l.Widths)
	}
	// A free-text column (no Want) takes all that is left.
	free := []Column{{Title: "NAME", Width: 4, Flex: 1, Want: 6}, {Title: "DETAILS", Width: 4, Flex: 1}}
	if l := NewLayout(40, free); !slices.Equal(l.Widths, []int{6, 33}) {
		t.Errorf("free text: widths %v, want [6 33]", l.Widths)
	}
	// A name is filled to what it wants before free text shares the rest,
	// whatever their weights.
	weighted := []Column{{Title: "NAME", Width: 8, Flex: 2, Want: 16}, {Title: "DETAILS", Width: 12, Flex: 3}}
	if l := NewLayout(36, weighted); !slices.Equal(l.Widths, []int{16, 19}) {
		t.Errorf("weighted: widths %v, want [16 19]", l.Widths)
	}
}

func TestTermsWidest(t *testing.T) {
	b := NewTermsBuilder(2, 4)
	b.Add([]string{"TaskScheduled", "ChargeCard"}, "x")
	b.Add([]string{"TimerCreated", "ChargeCard-retry"}, "y")
	bad := "BadActivityName\x1b[2J" // longer shown escaped than raw
	b.Add([]string{"TaskFailed", bad}, "z")
	b.Add([]string{"WorkflowStarted", ""}, "")
	terms := b.Terms()
	if want := format.Width(safetext.Line(bad)); want <= len(bad) || terms.Widest(1) != want {
		t.Errorf("Widest(1) = %d, want the escaped name's width %d", terms.Widest(1), want)
	}
	if got := terms.Widest(0); got != len("WorkflowStarted") {
		t.Errorf("Widest(0) = %d", got)
	}
	if got := terms.Widest(3); got != 0 {
		t.Errorf("Widest of a column the rows do not have = %d", got)
	}
}

func TestCache(t *testing.T) {
	var c Cache[string]
	builds := 0
	build := func(i int) string { builds++; return strconv.Itoa(i) }
	for _, i := range []int{0, 5000, 0, 5000, 123456} {
		if got := *c.Get(i, build); got != strconv.Itoa(i) {
			t.Fatalf("Get(%d) = %q", i, got)
		}
	}
	if builds != 3 {
		t.Errorf("%d builds for 3 distinct rows", builds)
	}
	c.Reset()
	c.Get(0, build)
	if builds != 4 {
		t.Error("Reset did not forget")
	}
}

// row is a test row: its shared texts and its own text.
type row struct {
	shared []string
	own    string
}

func buildTerms(rows []row) *Terms {
	b := NewTermsBuilder(2, len(rows))
	for _, r := range rows {
		b.Add(r.shared, r.own)
	}
	return b.Terms()
}

// brute is what a query must select: every row one of whose texts,
// sanitized and lower-cased, contains it.
func brute(rows []row, flags []uint8, need uint8, q string) []int32 {
	var out []int32
	q = strings.ToLower(q)
	for i, r := range rows {
		if flags[i]&need != need {
			continue
		}
		for _, s := range append(append([]string{}, r.shared...), r.own) {
			if strings.Contains(strings.ToLower(safetext.Line(s)), q) {
				out = append(out, int32(i))
				break
			}
		}
	}
	return out
}

func TestTermsSelectMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	names := []string{"ChargeCard", "SendEmail", "Refund\x1b[2J", "ReadOrder", "Charge\u200bCard", ""}
	types := []string{"TaskScheduled", "TaskFailed", "TimerCreated"}
	hex := "0123456789abcdef-"
	rows := make([]row, 3000)
	flags := make([]uint8, len(rows))
	for i := range rows {
		id := make([]byte, 12)
		for j := range id {
			id[j] = hex[rng.IntN(len(hex))]
		}
		rows[i] = row{shared: []string{types[rng.IntN(len(types))], names[rng.IntN(len(names))]}, own: string(id)}
		flags[i] = uint8(rng.IntN(4))
	}
	terms := buildTerms(rows)
	queries := []string{"", "c", "C", "ch", "charge", "chargecard", "task", "failed", "\\x1b", "\\u200b", "1", "a1", "ab-", "f-0", "zzz", "-", "0"}
	for _, need := range []uint8{0, 1, 3} {
		for _, q := range queries {
			p := terms.Prepare(q)
			got := p.Select(nil, flags, need, nil)
			want := brute(rows, flags, need, q)
			if !slices.Equal(got, want) {
				t.Fatalf("query %q need %d: %d rows, want %d", q, need, len(got), len(want))
			}
			for _, i := range want {
				if !p.Match(int(i)) {
					t.Fatalf("Match(%d) false for query %q", i, q)
				}
			}
			// Refining a broader result gives the same rows.
			if len(q) > 1 {
				broad := terms.Prepare(q[:1]).Select(nil, flags, 0, nil)
				if refined := p.Select(nil, flags, need, broad); !slices.Equal(refined, want) {
					t.Fatalf("query %q refined from %q: %d rows, want %d", q, q[:1], len(refined), len(want))
				}
			}
		}
	}
}

// TestMarkWidensTheColumn: a sort arrow added to a title is part of its
// column's width, so a full header never reads "DURATIO…".
func TestMarkWidensTheColumn(t *testing.T) {
	cols := []Column{{Title: "NAME", Flex: 1, Width: 4, Want: 6}, {Title: "DURATION", Width: 8, Right: true}, {Title: "FLAG", Width: 4}}
	marked := Mark(cols, 1, "↑")
	if cols[1].Title != "DURATION" || cols[1].Width != 8 {
		t.Fatalf("Mark changed its argument: %+v", cols[1])
	}
	l := NewLayout(40, marked)
	if h := l.Header(); !strings.Contains(h, "DURATION↑ FLAG") {
		t.Errorf("header %q: the arrow cut the title or its gap", h)
	}
	if m := Mark(cols, 0, "↓"); m[0].Want != 6 || m[0].Width != 5 {
		t.Errorf("flexible column marked: %+v, want Width 5 (NAME↓), Want 6", m[0])
	}
	if m := Mark(cols, -1, "↓"); &m[0] != &cols[0] {
		t.Errorf("no column: cols should come back as they are")
	}
}
