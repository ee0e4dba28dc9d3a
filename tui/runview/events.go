package runview

import (
	"cmp"
	"math"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/tui/common"
	"github.com/twice-cli/twice/tui/format"
	"github.com/twice-cli/twice/tui/list"
	"github.com/twice-cli/twice/tui/table"
)

// eventCells is one event's row text, sanitized once and cached.
type eventCells struct {
	pos, typ, name, id, exec, elapsed, details string
	failed, derived                            bool
}

// eventsTab lists every event in the engine's order (or sorted by a
// column), with the Dapr CLI's column names; a row that closes a call is
// named after it.
type eventsTab struct {
	d    *viewData
	rows list.Model
	// seen is the widest cells of the rows shown since the run loaded:
	// the columns take that width (it only grows, so the layout does not
	// shift back and forth while scrolling).
	seen  eventWidths
	cache table.Cache[eventCells]
	// cachedFor is the index the cached names were made with: the names of
	// completion rows come with it.
	cachedFor *Index
}

func newEventsTab(d *viewData) *eventsTab {
	return &eventsTab{d: d}
}

// eventWidths are the widths the Events tab's variable cells need (0:
// not known).
type eventWidths struct{ exec, when, elapsed, details int }

// eventColumns are the Events tab's columns. The first (the event's
// position, which evidence refers to) is sized to the history; the name
// gets what the widest needs (once detect ran; x is nil before), the
// execution id, ELAPSED and DETAILS what the rows seen need (w). When the
// list is narrow the execution id goes first, then the details (the
// detail pane shows both whole), rather than cutting them to a stub. ds
// names the level withheld payloads were withheld at, once, in the
// DETAILS heading.
func eventColumns(n int, x *Index, withheld string, w eventWidths, tf format.TimeFormat) []table.Column {
	var name int
	if x != nil {
		name = x.eventNameWidth
	}
	details := "DETAILS"
	if withheld != "" {
		details += " (" + withheld + ")"
	}
	if w.details > 0 {
		w.details = max(w.details, format.Width(details))
	}
	// TIME is the event's stamp in the time format (--time-format), to
	// line the events up with logs. An ISO instant gives way after the
	// execution id and the details (the detail pane shows both); an age
	// ("2.1h ago", the same on most rows of one run) before them.
	whenDrop := 3
	if tf == format.Relative {
		whenDrop = 6
	}
	return []table.Column{
		{Title: "#", Width: max(len(strconv.Itoa(n-1)), 1), Right: true, Drop: 2, Firm: true},
		{Title: "TYPE", Width: 18},
		{Title: "NAME", Width: 8, Flex: 2, Want: name},
		{Title: "EVENTID", Width: 7, Right: true},
		{Title: "EXECUTION_ID", Width: 12, Flex: 1, Want: w.exec, Drop: 5},
		{Title: "TIME", Width: max(len("TIME"), w.when), Right: true, Drop: whenDrop, Firm: true},
		{Title: "ELAPSED", Width: max(9, w.elapsed), Right: true, Drop: 1, Firm: true},
		{Title: details, Width: 12, Flex: 3, Want: w.details, Drop: 4},
	}
}

// widths notes the widest cells of the rows on screen and returns the
// widest seen since the run loaded.
func (t *eventsTab) widths() eventWidths {
	if t.d.h == nil {
		return t.seen
	}
	from, to := t.rows.Table().Window()
	for i := from; i < to; i++ {
		c := t.cells(int(t.rows.At(i).Item))
		t.seen.exec = max(t.seen.exec, format.Width(c.exec))
		t.seen.elapsed = max(t.seen.elapsed, format.Width(c.elapsed))
		t.seen.details = max(t.seen.details, format.Width(c.details), 1)
	}
	// TIME's width is known from the history's ends: its cells are
	// instants of one form (ISO) or ages between the first's and the
	// last's.
	if n := t.d.h.Len(); n > 0 {
		t.seen.when = max(format.Width(t.when(0)), format.Width(t.when(n-1)))
	}
	return t.seen
}

// sorts are the columns the Events tab sorts by; the first is history
// order.
func (t *eventsTab) sorts() []list.Column {
	h := t.d.h
	var callOf []int32
	if t.d.idx != nil {
		callOf = t.d.idx.callOf
	}
	name := func(i int32) string {
		if n := h.At(int(i)).Name; n != "" {
			return n
		}
		return format.RawCallName(h, callOf, int(i))
	}
	gap := func(i int32) int64 {
		if i == 0 {
			return 0
		}
		return int64(h.At(int(i)).Timestamp.Sub(h.At(int(i - 1)).Timestamp))
	}
	return []list.Column{
		{Key: "#", Title: "#"},
		{Key: "t", Title: "TYPE", Compare: func(a, b int32) int {
			return strings.Compare(h.At(int(a)).TypeLabel(), h.At(int(b)).TypeLabel())
		}},
		{Key: "n", Title: "NAME", Compare: func(a, b int32) int { return strings.Compare(name(a), name(b)) }},
		{Key: "i", Title: "EVENTID", Compare: func(a, b int32) int { return cmp.Compare(h.At(int(a)).ID, h.At(int(b)).ID) }},
		{Key: "x", Title: "EXECUTION_ID", Compare: func(a, b int32) int {
			return strings.Compare(h.At(int(a)).ExecutionID, h.At(int(b)).ExecutionID)
		}},
		{Key: "e", Title: "ELAPSED", Compare: func(a, b int32) int { return cmp.Compare(gap(a), gap(b)) }},
	}
}

func (t *eventsTab) title() string { return "Events" }

func (t *eventsTab) list() *list.Model { return &t.rows }

// source: every event; filtered and sorted once the index is built.
func (t *eventsTab) source() list.Source {
	h, x := t.d.h, t.d.idx
	if h == nil {
		return list.Source{}
	}
	src := list.Source{Len: h.Len(), Columns: t.sorts()}
	if x == nil {
		// Filters need the index: every event is shown, in order, until
		// it arrives.
		return src
	}
	src.Select = selectBy(x.eventFlags, func(f list.Filter) *table.Query {
		p := x.eventTerms.Prepare(f.Query)
		if f.Query != "" {
			p.Extra = eventExtra(x, h, searchForm(f.Query))
		}
		return p
	})
	return src
}

func (t *eventsTab) load(keep bool, f list.Filter) tea.Cmd {
	if !keep {
		// A new run, or a new generation of it: nothing cached holds.
		// (A poll that only appends keeps the cache: a row depends on its
		// event and the one before it, which did not change.)
		t.cache.Reset()
		t.seen = eventWidths{}
	}
	if t.cachedFor != t.d.idx {
		// Completion rows are named once the index pairs them.
		t.cache.Reset()
		t.cachedFor = t.d.idx
	}
	t.rows.SyncMax = t.d.idx.syncMax(0)
	return t.rows.Load(t.source(), f, keep, -1)
}

// showEvent is the command that shows event ev in the Events tab.
func (d *viewData) showEvent(ev int) tea.Cmd {
	if t, ok := tabOf[*eventsTab](d); ok && d.h != nil && ev >= 0 && ev < d.h.Len() {
		return d.show(t, nil, list.Row{Item: int32(ev), Sub: -1})
	}
	return nil
}

// selectedEvent returns the selected event's position, or -1.
func (t *eventsTab) selectedEvent() int { return int(t.rows.SelectedItem()) }

// bindings: enter on an event of a child workflow opens the child's run.
func (t *eventsTab) bindings() []common.Binding {
	return []common.Binding{
		{Key: t.d.c.Keys.Enter, Group: common.GroupRunView, Bar: inList, Hint: t.enterHint, Do: t.enter},
	}
}

// enter opens the selected event's child run, if it has one.
func (t *eventsTab) enter(tea.KeyPressMsg) tea.Cmd {
	if ev := t.selectedEvent(); ev >= 0 {
		return t.d.openChildOfEvent(ev)
	}
	return nil
}

// enterHint shows enter on the key bar when the selected event has a child
// run to open.
func (t *eventsTab) enterHint() key.Help {
	if ev := t.selectedEvent(); ev >= 0 && t.d.childOfEvent(ev) != nil {
		return key.Help{Key: "enter", Desc: "open child run"}
	}
	return key.Help{}
}

func (t *eventsTab) lines(width, height int) []string {
	h := t.d.h
	if h.Len() == 0 {
		return []string{"", " this history has no events"}
	}
	if t.rows.Applied().Active() && !t.rows.Pending() && t.rows.Len() == 0 {
		return []string{"", " no event matches the filter (esc clears it)"}
	}
	gutter := 2
	l := t.layout(width - gutter)
	titles := make([]string, len(l.Cols))
	for i, c := range l.Cols {
		titles[i] = c.Title
	}
	s := t.d.c.Styles
	out := make([]string, 0, height)
	head := "  " + l.Row(titles...)
	if t.rows.Waiting() {
		head = format.Pad(" "+t.d.spinner+" analyzing: the filter applies when it finishes", width)
	}
	out = append(out, s.Heading.Render(head))
	out = append(out, t.rows.Table().Lines(func(i int, selected bool) string {
		ev := int(t.rows.At(i).Item)
		c := t.cells(ev)
		mark := " "
		if t.d.isNew(ev) {
			mark = "+"
		}
		if selected {
			return s.Selected.Render(t.d.cursor() + mark + l.Row(c.pos, c.typ, c.name, c.id, c.exec, t.when(ev), c.elapsed, c.details))
		}
		typ, name := c.typ, c.name
		if c.failed {
			typ = s.Tone(format.ToneBad).Render(typ)
		}
		if c.derived {
			name = s.Faint.Render(name)
		}
		row := " " + mark + l.Row(c.pos, typ, name, c.id, c.exec, t.when(ev), c.elapsed, c.details)
		if mark == "+" {
			return s.New.Render(row)
		}
		return row
	})...)
	return out
}

// used is the width the Events tab's columns take when given width, each
// what its rows need (the rest goes to the detail pane).
func (t *eventsTab) used(width int) int { return 2 + table.NewLayout(width-2, t.columns()).Used() }

// layout lays the columns out at width: each takes what its rows need;
// DETAILS, when it cannot have that, is hidden — unless it fits at its
// minimum once the others have theirs, then it takes the rest, cut (a
// list as wide as the screen, the pane below it: used leaves the list no
// such width beside the pane).
func (t *eventsTab) layout(width int) table.Layout {
	cols := t.columns()
	l := table.NewLayout(width, cols)
	if d := len(cols) - 1; l.Widths[d] == 0 && cols[d].Want > 0 {
		cols[d].Want = 0
		if free := table.NewLayout(width, cols); free.Widths[d] > 0 {
			return free
		}
	}
	return l
}

// columns are the Events tab's columns for the rows seen, the sorted one
// marked.
func (t *eventsTab) columns() []table.Column {
	cols, _ := list.Mark(eventColumns(t.d.h.Len(), t.d.idx, t.d.withheldHeading(), t.widths(), t.d.c.TimeFormat), t.sorts(), t.rows.SortState())
	return cols
}

// need is the width the Events tab's columns want for the rows seen; the
// detail pane takes the rest (listWidth keeps it its minimum).
func (t *eventsTab) need(int) int {
	if t.d.h == nil || t.d.h.Len() == 0 {
		return 0
	}
	return 2 + table.Need(t.columns(), math.MaxInt) // the name's want is capped already
}

// cells returns event ev's row text, built once.
func (t *eventsTab) cells(ev int) *eventCells {
	c := t.cache.Get(ev, t.buildCells)
	if ev == 0 {
		// The first row's ELAPSED is its age, which moves with the clock,
		// in relative times (as the Dapr CLI prints it); in ISO times, "-"
		// (its TIME says when).
		c.elapsed = "-"
		if ts := t.d.h.At(0).Timestamp; !ts.IsZero() && t.d.c.TimeFormat == format.Relative {
			c.elapsed = "Age:" + t.d.spans().Between(ts, catalyst.StampOf(t.d.c.Now()))
		}
	}
	return c
}

// when is event ev's TIME cell: its stamp in the time format (relative
// ones move with the clock, so the cell is not kept).
func (t *eventsTab) when(ev int) string {
	ts := t.d.h.At(ev).Timestamp
	if ts.IsZero() {
		return "-"
	}
	if ts.OutOfRange() {
		// Before 1678 or after 2261: as given, never a clamped instant.
		text, _ := t.d.h.TimestampText(ev)
		return format.Line(text) + " (" + format.OutOfRangeText + ")"
	}
	// As the source printed it: a time rebuilt from the Dapr CLI's
	// elapsed column is exact only relative to its neighbours.
	return format.Instant(t.d.h.Printed(ts).Time(), t.d.c.TimeFormat, t.d.c.Now())
}

func (t *eventsTab) buildCells(ev int) eventCells {
	h := t.d.h
	e := h.At(ev)
	var callOf []int32
	if t.d.idx != nil {
		callOf = t.d.idx.callOf
	}
	name, derived := format.EventName(h, callOf, ev)
	c := eventCells{
		pos:     strconv.Itoa(ev),
		typ:     format.Line(e.TypeLabel()),
		name:    name,
		derived: derived,
		id:      eventIDText(e),
		exec:    format.Line(e.ExecutionID),
		details: string(format.AppendDetails(nil, e, t.d.ds)),
		failed:  isFailure(e),
	}
	if ev > 0 {
		c.elapsed = elapsed(t.d.spans(), h.At(ev-1).Timestamp, e.Timestamp)
	}
	return c
}

// eventIDText is the EVENTID column: the engine's eventId for numbered
// events, "-" for the others (-1).
func eventIDText(e *catalyst.Event) string {
	if e.ID < 0 {
		return "-"
	}
	return strconv.Itoa(int(e.ID))
}

// elapsed is the ELAPSED column: the time since the previous event.
func elapsed(sp format.Spans, prev, cur catalyst.Stamp) string {
	if prev.IsZero() || cur.IsZero() || prev.IsNever() || cur.IsNever() {
		return "-"
	}
	return sp.Between(prev, cur)
}

func (t *eventsTab) selection() string {
	ev := t.selectedEvent()
	if t.d.h == nil || ev < 0 {
		return ""
	}
	return "event:" + strconv.Itoa(ev)
}

func (t *eventsTab) describe() (string, []string) {
	ev := t.selectedEvent()
	switch {
	case t.d.h == nil:
		return "Event", nil
	case t.d.h.Len() == 0:
		return "Event", []string{"this history has no events"}
	case ev < 0:
		return "Event", []string{"no event matches the filter"}
	}
	return describeEvent(t.d, ev)
}

// matches names what the filter matched on the selected event.
func (t *eventsTab) matches(q string) []string {
	if t.d.idx == nil {
		return nil
	}
	return eventMatches(t.d.h, t.d.idx.callOf, t.selectedEvent(), q)
}

// copyTarget is what y copies on the Events tab: the selected event's JSON,
// as show -o json writes it.
func (t *eventsTab) copyTarget() (text, what string) {
	ev := t.selectedEvent()
	if t.d.h == nil || ev < 0 {
		return "", ""
	}
	return string(eventJSON(t.d.h, t.d.h.At(ev), 0)), "event #" + strconv.Itoa(ev) + "'s JSON"
}
