package runview

import (
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/tui/format"
	"github.com/twice-cli/twice/tui/style"
	"github.com/twice-cli/twice/tui/table"
)

// eventCells is one event's row text, sanitized once and cached.
type eventCells struct {
	pos, typ, name, id, exec, elapsed, details string
	failed                                     bool
}

// eventsTab lists every event in the engine's order, with the Dapr CLI's
// column names.
type eventsTab struct {
	d   *viewData
	tbl table.Model
	// rows are the event positions shown when a filter is active; nil shows
	// every event (no per-row work at all).
	rows     []int32
	filtered bool
	applied  filterState
	// waiting is set when a filter is asked for before the index exists.
	waiting bool
	// keptEvent and keptOffset are the selection remembered across a
	// reload.
	keptEvent, keptOffset int
	// seq numbers filter requests; pending is set while a filter command
	// runs, and pendingSel is the event to select when it answers.
	seq        int
	pending    bool
	pendingSel int
	cache      table.Cache[eventCells]
}

func newEventsTab(d *viewData) *eventsTab { return &eventsTab{d: d} }

// eventColumns are the Events tab's columns. The first (the event's
// position, which evidence refers to) is sized to the history; the name
// gets what the widest needs (once detect ran; x is nil before). When the
// list is narrow the execution id goes first, then the details (the
// detail pane shows both whole), rather than cutting them to a stub.
func eventColumns(n int, x *Index) []table.Column {
	var name int
	if x != nil {
		name = x.eventNameWidth
	}
	return []table.Column{
		{Title: "#", Width: max(len(strconv.Itoa(n-1)), 1), Right: true, Drop: 2},
		{Title: "TYPE", Width: 18},
		{Title: "NAME", Width: 8, Flex: 2, Want: name},
		{Title: "EVENTID", Width: 7, Right: true},
		{Title: "EXECUTION_ID", Width: 12, Drop: 4},
		{Title: "ELAPSED", Width: 9, Right: true, Drop: 1},
		{Title: "DETAILS", Width: 12, Flex: 3, Drop: 3},
	}
}

func (t *eventsTab) title() string { return "Events" }

func (t *eventsTab) total() int {
	if t.d.h == nil {
		return 0
	}
	return t.d.h.Len()
}

func (t *eventsTab) count() string {
	if t.filtered {
		return format.Count(len(t.rows)) + "/" + format.Count(t.total())
	}
	return format.Count(t.total())
}

func (t *eventsTab) position() string {
	if t.pending {
		return "filtering…"
	}
	if t.tbl.Len() == 0 {
		return ""
	}
	return format.Count(t.tbl.Cursor()+1) + "/" + format.Count(t.tbl.Len())
}

func (t *eventsTab) setHeight(h int) { t.tbl.SetHeight(h) }

func (t *eventsTab) rowCount() int { return t.tbl.Len() }

// event returns the event position at row i of the list.
func (t *eventsTab) event(i int) int {
	if t.filtered {
		return int(t.rows[i])
	}
	return i
}

func (t *eventsTab) remember() {
	t.keptEvent, t.keptOffset = -1, t.tbl.Offset()
	if c := t.tbl.Cursor(); c >= 0 {
		t.keptEvent = t.event(c)
	}
}

func (t *eventsTab) load(keep bool, f filterState) tea.Cmd {
	if !keep {
		// A new run, or a new generation of it: nothing cached holds.
		// (A poll that only appends keeps the cache: a row depends on its
		// event and the one before it, which did not change.)
		t.cache.Reset()
		t.keptEvent, t.keptOffset = -1, 0
	}
	t.seq++ // drop filter results computed for the old data
	t.filtered, t.rows, t.waiting, t.pending = false, nil, false, false
	t.applied = filterState{}
	t.tbl.SetLen(t.total())
	if t.keptEvent < 0 {
		t.tbl.SetCursor(0)
	} else {
		t.reselect(t.keptEvent)
		t.tbl.SetView(t.tbl.Cursor(), t.keptOffset)
	}
	return t.applyFilter(f)
}

// selectedEvent returns the selected event's position, or -1.
func (t *eventsTab) selectedEvent() int {
	if c := t.tbl.Cursor(); c >= 0 {
		return t.event(c)
	}
	return -1
}

func (t *eventsTab) applyFilter(f filterState) tea.Cmd {
	if f == t.applied && !t.waiting && !t.pending {
		return nil
	}
	t.seq++
	t.waiting, t.pending = false, false
	sel := t.selectedEvent()
	if !f.active() {
		t.filtered, t.rows, t.applied = false, nil, f
		t.tbl.SetLen(t.total())
		t.reselect(sel)
		return nil
	}
	x := t.d.idx
	if x == nil {
		// Filters need the index; show everything until it arrives.
		t.waiting = true
		t.filtered, t.rows = false, nil
		t.tbl.SetLen(t.total())
		t.reselect(sel)
		return nil
	}
	var from []int32
	if t.filtered && f.narrows(t.applied) {
		// A longer query or one more toggle only removes rows: refine the
		// rows shown.
		from = t.rows
	}
	if len(x.eventFlags) <= syncRows {
		t.setRows(f, selectRows(x.eventTerms, x.eventFlags, f, from), sel)
		return nil
	}
	t.pending, t.pendingSel = true, sel
	return filterCmd(t.d, TabEvents, t.seq, x.eventTerms, x.eventFlags, f, from)
}

// filteredRows takes the rows a filter command computed, unless a newer request
// superseded it.
func (t *eventsTab) filteredRows(msg filteredMsg) {
	if msg.seq != t.seq || !t.pending {
		return
	}
	t.pending = false
	t.setRows(msg.f, msg.rows, t.pendingSel)
}

func (t *eventsTab) setRows(f filterState, rows []int32, sel int) {
	t.rows, t.filtered, t.applied = rows, true, f
	t.tbl.SetLen(len(rows))
	t.reselect(sel)
}

// reselect puts the cursor on event ev, or on the nearest shown event after
// it.
func (t *eventsTab) reselect(ev int) {
	if ev < 0 {
		t.tbl.SetCursor(0)
		return
	}
	if !t.filtered {
		t.tbl.SetCursor(ev)
		return
	}
	t.tbl.SetCursor(sort.Search(len(t.rows), func(i int) bool { return int(t.rows[i]) >= ev }))
}

// selectEvent puts the cursor on event ev; false when the filter hides it.
func (t *eventsTab) selectEvent(ev int) bool {
	if !t.filtered {
		t.tbl.SetCursor(ev)
		return true
	}
	i := sort.Search(len(t.rows), func(i int) bool { return int(t.rows[i]) >= ev })
	if i == len(t.rows) || int(t.rows[i]) != ev {
		return false
	}
	t.tbl.SetCursor(i)
	return true
}

func (t *eventsTab) update(msg tea.KeyPressMsg) tea.Cmd {
	t.tbl.Update(msg, &t.d.c.Keys)
	return nil
}

func (t *eventsTab) keys() []key.Binding { return nil }

func (t *eventsTab) lines(width, height int) []string {
	h := t.d.h
	if h.Len() == 0 {
		return []string{"", " this history has no events"}
	}
	if t.filtered && len(t.rows) == 0 {
		return []string{"", " no event matches the filter (esc clears it)"}
	}
	gutter := 2
	l := table.NewLayout(width-gutter, eventColumns(h.Len(), t.d.idx))
	s := t.d.c.Styles
	out := make([]string, 0, height)
	head := "  " + l.Header()
	if t.waiting {
		head = format.Pad(" "+t.d.spinner+" analyzing: the filter applies when it finishes", width)
	}
	out = append(out, s.Heading.Render(head))
	out = append(out, t.tbl.Lines(func(i int, selected bool) string {
		ev := t.event(i)
		c := t.cells(ev)
		mark := " "
		if t.d.isNew(ev) {
			mark = "+"
		}
		if selected {
			return s.Selected.Render("›" + mark + l.Row(c.pos, c.typ, c.name, c.id, c.exec, c.elapsed, c.details))
		}
		typ := c.typ
		if c.failed {
			typ = s.Tone(style.ToneBad).Render(typ)
		}
		row := " " + mark + l.Row(c.pos, typ, c.name, c.id, c.exec, c.elapsed, c.details)
		if mark == "+" {
			return s.New.Render(row)
		}
		return row
	})...)
	return out
}

// cells returns event ev's row text, built once.
func (t *eventsTab) cells(ev int) *eventCells {
	c := t.cache.Get(ev, t.buildCells)
	if ev == 0 {
		// The first row's ELAPSED is its age, which moves with the clock.
		c.elapsed = "Age:" + format.Duration(t.d.c.Now().Sub(t.d.h.At(0).Timestamp.Time()))
		if t.d.h.At(0).Timestamp.IsZero() {
			c.elapsed = "-"
		}
	}
	return c
}

func (t *eventsTab) buildCells(ev int) eventCells {
	h := t.d.h
	e := h.At(ev)
	c := eventCells{
		pos:     strconv.Itoa(ev),
		typ:     format.Line(e.TypeLabel()),
		name:    format.Line(e.Name),
		id:      eventIDText(e),
		exec:    format.Line(e.ExecutionID),
		details: eventDetails(e, t.d.ds),
		failed:  isFailure(e),
	}
	if ev > 0 {
		c.elapsed = elapsed(h.At(ev-1).Timestamp, e.Timestamp)
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
func elapsed(prev, cur catalyst.Stamp) string {
	if prev.IsZero() || cur.IsZero() || prev.IsNever() || cur.IsNever() {
		return "-"
	}
	return format.Duration(cur.Sub(prev))
}

// eventDetails is the DETAILS column: the one-line summary of the event's
// own facts, in the Dapr CLI's vocabulary, with its payload's text or mark.
func eventDetails(e *catalyst.Event, ds catalyst.DataSharing) string {
	var parts []string
	add := func(s string) { parts = append(parts, s) }
	switch e.Type {
	case catalyst.EventExecutionStarted:
		add("workflowStart")
		if e.Detail != nil && e.Detail.ParentInstanceID != "" {
			add("parent=" + format.Line(e.Detail.ParentInstanceID))
		}
	case catalyst.EventTaskCompleted, catalyst.EventChildWorkflowCompleted, catalyst.EventTaskFailed,
		catalyst.EventChildWorkflowFailed:
		if e.HasScheduledID() {
			add("eventId=" + strconv.Itoa(int(e.ScheduledID)))
		}
	case catalyst.EventTimerCreated:
		add("fireAt=" + fireAt(e.FireAt))
		if o := e.Origin.String(); o != "" {
			if e.OriginID != "" {
				o += "(" + format.Line(e.OriginID) + ")"
			}
			add("origin=" + o)
		}
	case catalyst.EventTimerFired:
		if e.HasTimerID() {
			add("timerId=" + strconv.Itoa(int(e.TimerID)))
		}
	case catalyst.EventEventRaised:
		add("event=" + format.Line(e.Name))
	case catalyst.EventEventSent:
		add("event=" + format.Line(e.Name) + "->" + format.Line(e.InstanceID))
	case catalyst.EventChildWorkflowCreated:
		if e.InstanceID != "" {
			add("instance=" + format.Line(e.InstanceID))
		}
	case catalyst.EventExecutionCompleted:
		if e.Detail != nil && e.Detail.WorkflowStatus != "" {
			add("status=" + format.Line(string(e.Detail.WorkflowStatus)))
		}
	case catalyst.EventExecutionStalled:
		if e.Detail != nil {
			add("reason=" + format.Line(e.Detail.StallReason))
		}
	case catalyst.EventUnknown:
		add("unknown type")
	}
	if f := e.Failure; f != nil {
		text := format.Line(f.Type)
		if f.Message != "" {
			text += ": " + format.Line(trimText(f.Message, 200))
		}
		if f.NonRetriable {
			text += " (non-retriable)"
		}
		add(text)
	}
	if field := e.Type.PayloadField(); field != "" && e.Payload.State != catalyst.PayloadNone {
		add(field + "=" + payloadShort(e.Payload, ds))
	}
	return strings.Join(parts, ", ")
}

// payloadShort is a payload on a row: its first characters, or a short mark
// ("withheld (metadata)").
func payloadShort(p catalyst.Payload, ds catalyst.DataSharing) string {
	if p.State == catalyst.PayloadWithheld {
		if ds.Level == catalyst.LevelUnknown {
			return "‹withheld: level not reported›"
		}
		return "‹withheld (" + format.Line(string(ds.Level)) + ")›"
	}
	if !p.Has() {
		return "‹" + ds.PayloadText(p) + "›"
	}
	return format.PayloadLine(p, ds, 120)
}

// fireAt shows a timer's fire time exactly ("never" for an indefinite wait).
func fireAt(s catalyst.Stamp) string {
	if s.IsNever() {
		return "never"
	}
	return format.Exact(s.Time())
}

// trimText cuts raw text to about n bytes before it is sanitized, so a huge
// message costs nothing on a row.
func trimText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

func (t *eventsTab) selection() string {
	c := t.tbl.Cursor()
	if t.d.h == nil || c < 0 {
		return ""
	}
	return "event:" + strconv.Itoa(t.event(c))
}

func (t *eventsTab) describe() (string, []string) {
	c := t.tbl.Cursor()
	switch {
	case t.d.h == nil:
		return "Event", nil
	case t.d.h.Len() == 0:
		return "Event", []string{"this history has no events"}
	case c < 0:
		return "Event", []string{"no event matches the filter"}
	}
	return describeEvent(t.d, t.event(c))
}
