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
}

func newTimelineTab(d *viewData, inv *invocationsTab) *timelineTab {
	t := &timelineTab{d: d, inv: inv}
	t.rows.Follow(&inv.rows)
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

// footer keeps the legend's line below the rows.
func (t *timelineTab) footer(h int) int { return t.legendRows(h) }

// selected returns the selected invocation, -1 for none.
func (t *timelineTab) selected() int32 { return t.rows.SelectedItem() }

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
	}
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
	return []common.Legend{l}
}

// whole is the axis of the whole run, width cells wide.
func (t *timelineTab) whole(width int) format.Axis {
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

// at is the instant zoom centres on: the selected invocation's start, else
// the middle of the view.
func (t *timelineTab) at(a format.Axis) catalyst.Stamp {
	if inv := t.selected(); inv >= 0 && t.d.idx != nil {
		if s := t.d.idx.Report.Invocations[inv].Start; !s.IsZero() && !s.IsNever() {
			return s
		}
	}
	return a.From + catalyst.Stamp(a.Span()/2)
}

// zoom narrows the axis (factor > 1) or widens it around the selection.
func (t *timelineTab) zoom(factor float64) {
	const width = 100 // any: zoom keeps instants, not cells
	whole := t.whole(width)
	a := t.axis(width)
	if !a.Valid() {
		return
	}
	t.view = a.Zoom(factor, t.at(a), whole)
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

// enterHint names what enter does on the selected invocation.
func (t *timelineTab) enterHint() key.Help {
	inv := t.selected()
	switch {
	case inv < 0:
		return key.Help{}
	case t.d.childOfAttempt(int(inv), -1) != nil:
		return key.Help{Key: "enter", Desc: "open child run"}
	}
	return key.Help{Key: "enter", Desc: "attempts"}
}

// enter opens the selected invocation's child run, or shows it in the
// Invocations tab.
func (t *timelineTab) enter(tea.KeyPressMsg) tea.Cmd {
	inv := t.selected()
	if inv < 0 {
		return nil
	}
	if cmd := t.d.openChildOfAttempt(int(inv), -1); cmd != nil {
		return cmd
	}
	return t.d.showInvocation(int(inv))
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
	if x := t.d.idx; x.fanOut() {
		// A fan-out's labels add what tells its rows apart.
		nameW = min(max(x.labelWidth, 4), timelineName+timelineKey, max(width/3, 4))
	}
	barW := width - 3 - nameW - 1
	if barW < 8 {
		return []string{"", " too narrow for a timeline: widen the window, or p hides the detail pane"}
	}
	a := t.axis(barW)
	head := "   " + format.Pad("NAME", nameW) + " " + a.Ticks(t.d.start)
	out := make([]string, 0, height)
	out = append(out, s.Heading.Render(format.Pad(head, width)))
	rep := t.d.idx.Report
	out = append(out, t.rows.Table().Lines(func(i int, selected bool) string {
		ii := t.rows.At(i).Item
		inv := &rep.Invocations[ii]
		cursor, glyph := " ", " "
		if selected {
			cursor = t.d.cursor()
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
	if t.legendRows(height) > 0 {
		out = append(out, s.Faint.Render(format.Pad(" "+format.TimelineLegendFit(width-1), width)))
	}
	return out
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
		if marks[i] == format.MarkBackoff {
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
	return "timeline:" + strconv.Itoa(int(inv))
}

func (t *timelineTab) describe() (string, []string) {
	inv := t.selected()
	if inv < 0 || t.d.idx == nil {
		return t.d.noInvocation()
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
	return invocationCopy(&t.d.idx.Report.Invocations[inv], -1)
}
