package runview

import (
	"math"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/detect"
	"github.com/twice-cli/twice/tui/common"
	"github.com/twice-cli/twice/tui/format"
	"github.com/twice-cli/twice/tui/list"
	"github.com/twice-cli/twice/tui/table"
)

// timelineTab draws one row per invocation, each attempt a bar on one time
// axis from the run's start to its last event (or now, for a live run
// still running): the backoff between attempts dotted, a mark where each
// outcome arrived, an attempt whose end is unknown open, attempts that ran
// at once overlapped (format.TimelineRow), and the worst finding's glyph
// on the rows it concerns. It shows the Invocations tab's rows, filtered
// and sorted as they are, with a cursor of its own; + and - zoom the axis
// around the selected invocation, < and > move it, 0 shows the whole run.
type timelineTab struct {
	d   *viewData
	inv *invocationsTab
	// rows follows the Invocations tab's list: its rows, filter and sort,
	// with a cursor of its own.
	rows list.Model
	// view is the part of the run the axis shows; zero: the whole run.
	view   format.Axis
	zoomed bool
	// marks is a row's buffer.
	marks []format.Mark
	// expanded are the invocations (by key) whose attempts the Timeline
	// shows, each on a line of its own (space).
	expanded map[string]bool
	// one is an attempt's row, drawn as an invocation of that attempt.
	one detect.Invocation
	// drawn is where the last frame drew the bars (a click finds the
	// attempt under the pointer).
	drawn drawnBars
}

// drawnBars is where a frame drew the bars: from which column, on which
// axis.
type drawnBars struct {
	from int
	axis format.Axis
}

// clickAt selects the attempt drawn at column x of the selected
// invocation's row (its attempts unfolded): a click on an attempt's bar
// shows that attempt in the detail pane. A click elsewhere leaves the
// row selected.
func (t *timelineTab) clickAt(x int) {
	inv, a := t.selected(), t.drawn.axis
	if inv < 0 || t.selectedAttempt() >= 0 || !a.Valid() || x < t.drawn.from || x >= t.drawn.from+a.Width {
		return
	}
	ai := attemptAt(&t.d.idx.Report.Invocations[inv], a, x-t.drawn.from)
	if ai < 0 {
		return
	}
	t.fold(inv, true)
	t.rows.Select(list.Row{Item: inv, Sub: int32(ai)})
}

// attemptAt is the attempt of inv drawn at cell c of axis a: the last one
// whose bar (its start to its outcome, or to the axis' Now while open)
// covers the cell, else the one that ends nearest it within a cell; -1
// for none.
func attemptAt(inv *detect.Invocation, a format.Axis, c int) int {
	from := a.From + catalyst.Stamp(float64(a.Span())*float64(c)/float64(a.Width))
	to := a.From + catalyst.Stamp(float64(a.Span())*float64(c+1)/float64(a.Width))
	for i := len(inv.Attempts) - 1; i >= 0; i-- {
		at := &inv.Attempts[i]
		if !known(at.Start) {
			continue
		}
		end := at.End
		if !known(end) || at.OutcomeEvent < 0 {
			end = a.Now
		}
		if at.Start < to && end >= from {
			return i
		}
	}
	return -1
}

func newTimelineTab(d *viewData, inv *invocationsTab) *timelineTab {
	t := &timelineTab{d: d, inv: inv, expanded: make(map[string]bool)}
	t.rows.Follow(&inv.rows)
	t.rows.Lines = func(order table.Order) list.Layout {
		var open []int32
		invs := t.inv.invocations()
		if x := t.d.idx; x != nil {
			for k := range t.expanded {
				if i, ok := x.invByKey[k]; ok {
					open = append(open, i)
				}
			}
		}
		return list.Sparse(order, open, func(i int32) int32 { return int32(len(invs[i].Attempts)) })
	}
	return t
}

func (t *timelineTab) title() string { return "Timeline" }

func (t *timelineTab) list() *list.Model { return &t.rows }

// source is the Invocations tab's: this tab shows its rows.
func (t *timelineTab) source() list.Source { return t.inv.source() }

// note is the zoom for the tab bar ("zoom ×8 (0: whole run)", short:
// "zoom ×8"); "" when the whole run is shown.
func (t *timelineTab) note(long bool) string {
	if !t.zoomed || t.d.h == nil {
		return ""
	}
	const width = 100
	n := "zoom ×" + zoomFactor(float64(t.whole(width).Span())/float64(t.axis(width).Span()))
	if long {
		n += " (0: whole run)"
	}
	return n
}

// zoomFactor prints a zoom factor as a person would say it: whole numbers
// whole (8, not 8.000000000000002), others to one decimal (1.5), large
// ones rounded (341).
func zoomFactor(f float64) string {
	if f >= 10 {
		return strconv.FormatFloat(math.Round(f), 'f', 0, 64)
	}
	return strconv.FormatFloat(math.Round(f*10)/10, 'f', -1, 64)
}

// legendRows is the line the legend takes below the rows, when the tab
// has room for it besides its heading and a row or two (the marks are
// shapes: without the legend they cannot be read).
func (t *timelineTab) legendRows(h int) int {
	if h >= 4 {
		return 1
	}
	return 0
}

// footer keeps the lanes of waits and the legend's line below the rows.
func (t *timelineTab) footer(h int) int { return t.waitRows(h) + t.legendRows(h) }

// waitRows is the number of lanes of waits shown under the rows: each the
// run has, while the heading and two rows keep their room.
func (t *timelineTab) waitRows(h int) int {
	if t.d.idx == nil {
		return 0
	}
	return min(len(t.d.idx.waits), max(h-t.legendRows(h)-3, 0))
}

// selected returns the selected invocation, -1 for none.
func (t *timelineTab) selected() int32 {
	if t.d.idx == nil {
		return -1
	}
	return t.rows.SelectedItem()
}

// selectedAttempt returns the selected attempt's position in its
// invocation, -1 on an invocation's own line.
func (t *timelineTab) selectedAttempt() int32 {
	if t.selected() < 0 {
		return -1
	}
	return t.rows.Selected().Sub
}

// timelinePlace is what the Timeline keeps in a place: its zoom.
type timelinePlace struct {
	view   format.Axis
	zoomed bool
}

func (t *timelineTab) place() any { return timelinePlace{t.view, t.zoomed} }

func (t *timelineTab) restore(p any) {
	if z, ok := p.(timelinePlace); ok {
		t.view, t.zoomed = z.view, z.zoomed
	}
}

// load resets the zoom for a new run; the cursor goes to the invocation
// the Invocations tab selects.
func (t *timelineTab) load(keep bool, _ list.Filter) tea.Cmd {
	if !keep {
		t.view, t.zoomed = format.Axis{}, false
		t.expanded = make(map[string]bool)
	}
	t.rows.Relayout()
	if sel := t.inv.selectedInvocation(); sel >= 0 {
		t.rows.Select(list.Row{Item: sel, Sub: -1})
	}
	return nil
}

// legend explains the Timeline's marks.
func (t *timelineTab) legend() []common.Legend {
	l := common.Legend{Title: "Timeline"}
	for _, m := range format.TimelineLegend {
		l.Marks = append(l.Marks, [2]string{m[0], m[2]})
	}
	if t.d.idx != nil && len(t.d.idx.waits) > 0 {
		for _, m := range format.WaitLegend {
			l.Marks = append(l.Marks, [2]string{m[0], m[2]})
		}
	}
	return []common.Legend{l}
}

// whole is the axis of the whole run, width cells wide.
func (t *timelineTab) whole(width int) format.Axis {
	if x := t.d.idx; x != nil && t.d.h.Len() > 0 {
		// The index's latest stamp, or the last event's when a poll's
		// events arrived before their analysis.
		latest := max(x.latest, t.d.h.At(t.d.h.Len()-1).Timestamp)
		if latest.IsNever() {
			latest = x.latest
		}
		return format.RunAxisAfter(t.d.h, t.d.start, latest, t.d.c.Now(), width)
	}
	return format.RunAxis(t.d.h, t.d.start, t.d.c.Now(), width)
}

// axis is the axis the rows are drawn on: the zoomed view, or the whole
// run; width cells wide.
func (t *timelineTab) axis(width int) format.Axis {
	whole := t.whole(width)
	if !t.zoomed {
		return whole
	}
	a := t.view
	a.Width, a.Now = width, whole.Now
	return a
}

// at is the instant zoom keeps in place: the moment that matters for the
// selected row (moment), else the middle of the view.
func (t *timelineTab) at(a format.Axis) catalyst.Stamp {
	if inv := t.selected(); inv >= 0 {
		if s := moment(&t.d.idx.Report.Invocations[inv], int(t.selectedAttempt())); !s.IsZero() && !s.IsNever() {
			return s
		}
	}
	return a.From + catalyst.Stamp(a.Span()/2)
}

// moment is the instant that matters on an invocation's row (att < 0) or
// one of its attempts: where two attempts overlap (a later one started
// while an earlier one ran, or may have), else where an attempt was left
// open (no outcome), else where the first failure arrived, else its start.
func moment(inv *detect.Invocation, att int) catalyst.Stamp {
	if att >= 0 && att < len(inv.Attempts) {
		a := &inv.Attempts[att]
		if a.Outcome == detect.OutcomeFailed && known(a.End) {
			return a.End
		}
		return a.Start
	}
	var ranTo catalyst.Stamp // the latest an earlier attempt ran, or may have
	for i := range inv.Attempts {
		a := &inv.Attempts[i]
		if i > 0 && known(a.Start) && ranTo > a.Start {
			return a.Start
		}
		switch {
		case !known(a.End) || a.OutcomeEvent < 0:
			ranTo = catalyst.Stamp(math.MaxInt64)
		case a.FailureClass == detect.FailureAmbiguous:
			ranTo = max(ranTo, catalyst.Stamp(math.MaxInt64))
		default:
			ranTo = max(ranTo, a.End)
		}
	}
	for i := range inv.Attempts {
		if a := &inv.Attempts[i]; known(a.Start) && (!known(a.End) || a.OutcomeEvent < 0) {
			return a.Start
		}
	}
	for i := range inv.Attempts {
		if a := &inv.Attempts[i]; a.Outcome == detect.OutcomeFailed && known(a.End) {
			return a.End
		}
	}
	return inv.Start
}

// known reports whether a stamp is an instant.
func known(s catalyst.Stamp) bool { return !s.IsZero() && !s.IsNever() }

// zoom narrows the axis (factor > 1) or widens it around the selection.
func (t *timelineTab) zoom(factor float64) {
	const width = 100 // any: zoom keeps instants, not cells
	whole := t.whole(width)
	a := t.axis(width)
	if !a.Valid() {
		return
	}
	at := t.at(a)
	t.view = a.Zoom(factor, at, whole)
	if factor > 1 {
		// Zooming in is to look at the moment: in the middle.
		t.view = t.view.Centre(at, whole)
	}
	t.zoomed = t.view.From != whole.From || t.view.To != whole.To
}

// pan moves the zoomed axis by frac of its span.
func (t *timelineTab) pan(frac float64) {
	if !t.zoomed {
		return
	}
	const width = 100
	t.view = t.axis(width).Pan(frac, t.whole(width))
}

// bindings: enter shows the selected invocation's attempts (or opens its
// child run); while the list has the keys, + and - zoom the axis, 0 shows
// the whole run; < and > move it.
func (t *timelineTab) bindings() []common.Binding {
	k := &t.d.c.Keys
	return []common.Binding{
		{Key: k.Enter, Group: common.GroupRunView, Bar: inList, Hint: t.enterHint, Do: t.enter},
		{Key: k.Expand, Group: common.GroupRunView, Bar: inList, Hint: t.expandHint, Do: t.expandKey},
		{Key: k.Zoom, Group: common.GroupTimeline, In: inList, Bar: inList, Hint: t.hint(key.Help{Key: "+/-", Desc: "zoom"}), Do: t.zoomKey},
		{Key: k.PanLeft, Group: common.GroupTimeline, Bar: inList, Hint: t.hint(k.PanLeft.Help()), Do: t.panKey(-0.25)},
		{Key: k.PanRight, Group: common.GroupTimeline, Bar: inList, Hint: t.hint(k.PanRight.Help()), Do: t.panKey(0.25)},
	}
}

// hint shows h on the key bar while an invocation is selected.
func (t *timelineTab) hint(h key.Help) func() key.Help {
	return func() key.Help {
		if t.selected() < 0 {
			return key.Help{}
		}
		return h
	}
}

// enterHint names what enter does on the selected row.
func (t *timelineTab) enterHint() key.Help {
	inv := t.selected()
	switch {
	case inv < 0:
		return key.Help{}
	case t.selectedAttempt() >= 0:
		return key.Help{Key: "enter", Desc: "attempt's details"}
	case t.d.childOfAttempt(int(inv), -1) != nil:
		return key.Help{Key: "enter", Desc: "open child run"}
	}
	return key.Help{Key: "enter", Desc: "invocation"}
}

// expandHint names what space does: fold or show the selected
// invocation's attempts.
func (t *timelineTab) expandHint() key.Help {
	inv := t.selected()
	if inv < 0 {
		return key.Help{}
	}
	if t.expanded[t.d.idx.Report.Invocations[inv].Key] {
		return key.Help{Key: t.d.c.Keys.Expand.Help().Key, Desc: "fold attempts"}
	}
	return key.Help{Key: t.d.c.Keys.Expand.Help().Key, Desc: "attempts"}
}

// enter on an attempt shows it in the detail pane (and gives the pane the
// keys); on an invocation, opens its child run, or shows it in the
// Invocations tab.
func (t *timelineTab) enter(tea.KeyPressMsg) tea.Cmd {
	inv := t.selected()
	if inv < 0 {
		return nil
	}
	if t.selectedAttempt() >= 0 {
		msg := detailMsg{to: t.d}
		return func() tea.Msg { return msg }
	}
	if cmd := t.d.openChildOfAttempt(int(inv), -1); cmd != nil {
		return cmd
	}
	return t.d.showInvocation(int(inv))
}

// expandKey shows or folds the selected invocation's attempts, each on a
// line of its own.
func (t *timelineTab) expandKey(tea.KeyPressMsg) tea.Cmd {
	inv := t.selected()
	if inv < 0 {
		return nil
	}
	t.fold(inv, !t.expanded[t.d.idx.Report.Invocations[inv].Key])
	t.rows.Select(list.Row{Item: inv, Sub: -1})
	return nil
}

// fold shows (open) or folds invocation inv's attempts.
func (t *timelineTab) fold(inv int32, open bool) {
	k := t.d.idx.Report.Invocations[inv].Key
	if open {
		t.expanded[k] = true
	} else {
		delete(t.expanded, k)
	}
	t.rows.Relayout()
}

// zoomKey zooms in (+), out (-) or back to the whole run (0).
func (t *timelineTab) zoomKey(msg tea.KeyPressMsg) tea.Cmd {
	k := &t.d.c.Keys
	switch {
	case key.Matches(msg, k.Grow):
		t.zoom(2)
	case key.Matches(msg, k.Shrink):
		t.zoom(0.5)
	default:
		t.view, t.zoomed = format.Axis{}, false
	}
	return nil
}

// panKey returns the handler that moves the zoomed axis by frac of its
// span.
func (t *timelineTab) panKey(frac float64) func(tea.KeyPressMsg) tea.Cmd {
	return func(tea.KeyPressMsg) tea.Cmd {
		t.pan(frac)
		return nil
	}
}

// timelineName is the width the NAME column takes at most: the bars need
// the room; timelineKey more for the key that tells a fan-out's rows
// apart.
const (
	timelineName = 24
	timelineKey  = 10
)

func (t *timelineTab) lines(width, height int) []string {
	s := t.d.c.Styles
	switch {
	case t.d.idx == nil:
		return t.d.analyzing(width)
	case len(t.inv.invocations()) == 0:
		return []string{"", " no activity in this history",
			" (" + format.Plural(t.d.h.Len(), "event") + ": see the Events tab)"}
	case t.rows.Len() == 0 && !t.rows.Pending():
		return []string{"", " no invocation matches the filter (esc clears it)"}
	}
	nameW := min(max(t.d.idx.nameWidth, 4), timelineName, max(width/3, 4))
	if x := t.d.idx; x.fanOut() || x.waitWidth > nameW {
		// A fan-out's labels add what tells its rows apart; the waits'
		// say what they wait for.
		nameW = min(max(x.labelWidth, x.waitWidth, nameW, 4), timelineName+timelineKey, max(width/3, 4))
	}
	barW := width - 3 - nameW - 1
	if barW < 8 {
		return []string{"", " too narrow for a timeline: widen the window, or p hides the detail pane"}
	}
	a := t.axis(barW)
	t.drawn = drawnBars{from: 3 + nameW + 1, axis: a}
	head := "   " + format.Pad("NAME", nameW) + " " + a.Ticks(t.d.start)
	out := make([]string, 0, height)
	out = append(out, s.Heading.Render(format.Pad(head, width)))
	rep := t.d.idx.Report
	out = append(out, t.rows.Table().Lines(func(i int, selected bool) string {
		r := t.rows.At(i)
		ii := r.Item
		inv := &rep.Invocations[ii]
		cursor, glyph := " ", " "
		if selected {
			cursor = t.d.cursor()
		}
		if r.Sub >= 0 {
			return t.attemptRow(inv, int(r.Sub), cursor, selected, nameW, width, a)
		}
		var sev detect.Severity
		if len(inv.Findings) > 0 {
			sev = rep.Findings[worstFinding(rep, inv)].Severity
			glyph = format.SeverityGlyph(sev)
		}
		t.marks = format.TimelineRow(t.marks, t.d.h, inv, a)
		name := format.Pad(label(inv.Name, t.d.idx.inputKey(int(ii)), nameW), nameW)
		if selected {
			bar := string(format.AppendMarks(nil, t.marks))
			return s.Selected.Render(format.Pad(cursor+glyph+" "+name+" "+bar, width))
		}
		return cursor + s.Alert(format.SeverityAlert(sev)).Render(glyph) + " " + name + " " + t.styledBar(t.marks)
	})...)
	waits := t.d.idx.waits[:t.waitRows(height)]
	for i := range waits {
		t.marks = waits[i].Row(t.marks, a)
		out = append(out, "   "+s.Faint.Render(format.Pad(format.Line(waits[i].Label), nameW))+" "+t.styledBar(t.marks))
	}
	if t.legendRows(height) > 0 {
		legend := format.TimelineLegendFit(width - 1)
		if len(waits) > 0 {
			legend = format.TimelineLegendWaits(width - 1)
		}
		out = append(out, s.Faint.Render(format.Pad(" "+legend, width)))
	}
	return out
}

// attemptRow is an unfolded attempt's line: its number and outcome in the
// NAME column, its own bar (its span, its outcome) on the axis.
func (t *timelineTab) attemptRow(inv *detect.Invocation, ai int, cursor string, selected bool, nameW, width int, a format.Axis) string {
	s := t.d.c.Styles
	at := &inv.Attempts[ai]
	mark, _ := format.OutcomeMark(at.Outcome)
	name := format.Pad("└ #"+strconv.Itoa(at.Number)+" "+mark, nameW)
	t.one = *inv
	t.one.Attempts = inv.Attempts[ai : ai+1]
	t.marks = format.TimelineRow(t.marks, t.d.h, &t.one, a)
	if selected {
		bar := string(format.AppendMarks(nil, t.marks))
		return s.Selected.Render(format.Pad(cursor+"  "+name+" "+bar, width))
	}
	return cursor + "  " + name + " " + t.styledBar(t.marks)
}

// styledBar renders a row's marks, each run of one mark in its tone.
func (t *timelineTab) styledBar(marks []format.Mark) string {
	s := t.d.c.Styles
	var b strings.Builder
	for i := 0; i < len(marks); {
		j := i
		for j < len(marks) && marks[j] == marks[i] {
			j++
		}
		run := strings.Repeat(marks[i].Glyph(), j-i)
		if marks[i] == format.MarkBackoff || marks[i] == format.MarkTimer {
			b.WriteString(s.Faint.Render(run))
		} else {
			b.WriteString(s.Tone(marks[i].Tone()).Render(run))
		}
		i = j
	}
	return b.String()
}

// need: the Timeline takes the width there is (the bars use it).
func (t *timelineTab) need(int) int { return 0 }

func (t *timelineTab) selection() string {
	inv := t.selected()
	if inv < 0 || t.d.idx == nil {
		return ""
	}
	return "timeline:" + strconv.Itoa(int(inv)) + ":" + strconv.Itoa(int(t.selectedAttempt()))
}

func (t *timelineTab) describe() (string, []string) {
	inv := t.selected()
	if inv < 0 || t.d.idx == nil {
		return t.d.noInvocation()
	}
	if ai := t.selectedAttempt(); ai >= 0 {
		return describeAttempt(t.d, int(inv), int(ai))
	}
	return describeInvocation(t.d, int(inv))
}

func (t *timelineTab) matches(q string) []string {
	if t.d.idx == nil {
		return nil
	}
	return invocationMatches(t.d.h, t.d.idx.Report, int(t.selected()), q)
}

func (t *timelineTab) copyTarget() (text, what string) {
	inv := t.selected()
	if inv < 0 || t.d.idx == nil {
		return "", ""
	}
	return invocationCopy(&t.d.idx.Report.Invocations[inv], int(t.selectedAttempt()))
}
