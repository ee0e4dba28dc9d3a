// Package diffview is the view of two runs compared (m on the run list
// marks a run, d compares it with the selected one): the two runs' calls
// aligned as twice diff aligns them (detect/rundiff), each pair drawn as
// two timelines on one time axis, A's from A's start and B's from B's, the
// pairs that differ marked "≠" and listed first, and a detail pane with
// what differs in the selected pair. esc returns to the list.
package diffview

import (
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/detect"
	"github.com/twice-cli/twice/detect/rundiff"
	"github.com/twice-cli/twice/tui/common"
	"github.com/twice-cli/twice/tui/format"
)

// Run is one side: a history and its analysis.
type Run = rundiff.Run

// LoadedMsg carries the two runs compared, or why they could not be read,
// to the view that asked (To).
type LoadedMsg struct {
	To   *Model
	Seq  int
	A, B Run
	Diff *rundiff.Diff
	Err  error
}

// The view's states, for its bindings.
const (
	inList common.Scope = 1 << iota
	inWait
)

// Model is the diff view.
type Model struct {
	c    *common.Common
	w, h int
	a, b catalyst.Run // the runs asked for (names while loading)
	d    *rundiff.Diff
	err  string
	// cursor is the selected row: 0 the runs, k the pair k-1.
	cursor, offset int
	keys           []common.Binding
	// Made once per comparison (SetDiff), not per frame: nameW is the
	// NAME column's width, [fa, ta] and [fb, tb] each run's span
	// (runSpan walks its history), changed the pairs that differ.
	nameW          int
	fa, ta, fb, tb catalyst.Stamp
	changed        int
}

// New returns the view of run a compared with run b, waiting for their
// histories (SetDiff).
func New(c *common.Common, a, b catalyst.Run) *Model {
	m := &Model{c: c, a: a, b: b}
	m.keys = m.bindings()
	return m
}

// Runs returns the two runs compared.
func (m *Model) Runs() (a, b catalyst.Run) { return m.a, m.b }

// Diff returns the comparison, nil while it loads.
func (m *Model) Diff() *rundiff.Diff { return m.d }

// Compare compares two analysed runs as twice diff does: same-name calls
// aligned by the input value that tells them apart (detect.InvocationKeys),
// and why a run ended in the view's words (format.RunWhy).
func Compare(a, b Run) *rundiff.Diff {
	keys := func(h *catalyst.History, r *detect.Report) []string {
		out := make([]string, len(r.Invocations))
		for i, k := range detect.InvocationKeys(h, r) {
			if !k.ByID && k.Field != "" {
				out[i] = k.String()
			}
		}
		return out
	}
	return rundiff.Compare(a, b, rundiff.Options{Keys: keys, Why: format.RunWhy})
}

// SetDiff shows the comparison (or the error that kept it from being made).
func (m *Model) SetDiff(d *rundiff.Diff, err error) {
	m.d, m.err = d, ""
	if d != nil {
		m.nameW = len("the runs")
		for i := range d.Pairs {
			m.nameW = max(m.nameW, min(format.Width(format.Line(d.Pairs[i].Name)), 24))
		}
		m.fa, m.ta = runSpan(d.A.History)
		m.fb, m.tb = runSpan(d.B.History)
		m.changed = changedPairs(d)
	}
	if err != nil {
		m.err = format.Line(err.Error())
		return
	}
	m.a, m.b = d.A.History.Run, d.B.History.Run
	m.cursor, m.offset = 0, 0
}

// Update handles a message: key presses through the view's bindings.
func (m *Model) Update(msg tea.Msg) tea.Cmd {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		cmd, _ := m.Keys().Handle(k)
		return cmd
	}
	return nil
}

// SetSize sets the size the view renders at.
func (m *Model) SetSize(w, h int) { m.w, m.h = w, h }

// Capturing is false: the view has no text field.
func (m *Model) Capturing() bool { return false }

// Keys returns the view's keys and its state.
func (m *Model) Keys() common.KeyMap {
	s := inList
	if m.d == nil {
		s = inWait
	}
	return common.KeyMap{Bindings: m.keys, Scope: s}
}

// bindings are the view's keys.
func (m *Model) bindings() []common.Binding {
	k := &m.c.Keys
	move := func(b key.Binding, d int) common.Binding {
		return common.Binding{Key: b, Group: common.GroupMove, In: inList, Do: func(tea.KeyPressMsg) tea.Cmd { m.move(d); return nil }}
	}
	back := k.Back
	back.SetHelp("esc", "back to the list")
	return []common.Binding{
		move(k.Up, -1), move(k.Down, 1), move(k.PageUp, -pageRows), move(k.PageDown, pageRows),
		move(k.Top, -1<<30), move(k.Bottom, 1<<30),
		{Key: back, Group: common.GroupDiff, Bar: inList | inWait, Do: func(tea.KeyPressMsg) tea.Cmd {
			return func() tea.Msg { return common.BackMsg{} }
		}},
	}
}

// pageRows is how far a page key moves.
const pageRows = 10

// rows counts the view's rows: the runs and each pair.
func (m *Model) rows() int {
	if m.d == nil {
		return 0
	}
	return 1 + len(m.d.Pairs)
}

// move moves the cursor by d rows.
func (m *Model) move(d int) {
	n := m.rows()
	if n == 0 {
		return
	}
	m.cursor = min(max(m.cursor+d, 0), n-1)
}

// Legend says what the view's marks mean.
func (m *Model) Legend() []common.Legend {
	return []common.Legend{{Title: "Diff", Marks: [][2]string{
		{"≠", "the pair differs (the detail pane says how)"},
		{"A B", "each run's timeline, from its own start, on one axis"},
		{">", "the selected row"},
	}}}
}

// Selected describes the selected row for a status line: its name.
func (m *Model) Selected() string {
	if m.d == nil || m.cursor == 0 {
		return "the runs"
	}
	return format.Line(m.d.Pairs[m.cursor-1].Name)
}

// View draws the view: the two runs, the axis, the pairs (two lines each),
// and the detail pane.
func (m *Model) View() string {
	if m.w <= 0 || m.h <= 0 {
		return ""
	}
	var lines []string
	add := func(s string) { lines = append(lines, format.Fit(s, m.w)) }
	if m.d == nil {
		add("Comparing run " + format.Line(m.a.ID) + " (A) with run " + format.Line(m.b.ID) + " (B)")
		if m.err != "" {
			add("")
			for _, l := range format.Wrap("could not compare them: "+m.err, m.w) {
				add(l)
			}
		} else {
			add("reading both runs…")
		}
		return pad(lines, m.h)
	}
	d := m.d
	ha, hb := d.A.History, d.B.History
	add("A  " + runLine(ha))
	add("B  " + runLine(hb))
	detail := m.detail()
	detailH := min(len(detail)+1, max(m.h/3, 4))
	listH := max(m.h-len(lines)-1-detailH, 2)
	// The axis: the longer run's span, each run from its own start.
	nameW := m.nameW
	barW := max(m.w-2-(nameW+3)-2, 8)
	fa, ta, fb, tb := m.fa, m.ta, m.fb, m.tb
	span := max(ta.Sub(fa), tb.Sub(fb), time.Millisecond)
	axA := format.Axis{From: fa, To: fa + catalyst.Stamp(span), Now: fa + catalyst.Stamp(span), Width: barW, Spans: format.SpansOf(ha)}
	axB := format.Axis{From: fb, To: fb + catalyst.Stamp(span), Now: fb + catalyst.Stamp(span), Width: barW, Spans: format.SpansOf(hb)}
	add(strings.Repeat(" ", 2+nameW+3+2) + strings.TrimRight(axA.Ticks(fa), " "))
	// The rows, two lines each, scrolled to keep the cursor on screen.
	per := 2
	visible := max(listH/per, 1)
	if m.cursor < m.offset {
		m.offset = m.cursor
	}
	if m.cursor >= m.offset+visible {
		m.offset = m.cursor - visible + 1
	}
	var marks []format.Mark
	for r := m.offset; r < m.rows() && r < m.offset+visible; r++ {
		cur := "  "
		if r == m.cursor {
			cur = "> "
		}
		name, mark := "the runs", " "
		var ia, ib *detect.Invocation
		if r > 0 {
			p := &d.Pairs[r-1]
			name = format.Line(p.Name)
			if p.Changed() {
				mark = "≠"
			}
			if p.A >= 0 {
				ia = &d.A.Report.Invocations[p.A]
			}
			if p.B >= 0 {
				ib = &d.B.Report.Invocations[p.B]
			}
		} else if len(d.Run) > 0 || len(d.Findings) > 0 {
			mark = "≠"
		}
		first := cur + format.Pad(format.Fit(mark+" "+name, nameW+2), nameW+3)
		second := cur + strings.Repeat(" ", nameW+3)
		side := func(prefix string, h *catalyst.History, inv *detect.Invocation, ax format.Axis, from, to catalyst.Stamp) string {
			switch {
			case r == 0:
				marks = runBar(marks, ax, from, to)
			case inv == nil:
				return prefix + " " + format.Line("(no such call in run "+prefix+")")
			default:
				marks = format.TimelineRow(marks, h, inv, ax)
			}
			return prefix + " " + string(format.AppendMarks(nil, marks))
		}
		first += side("A", ha, ia, axA, fa, ta)
		second += side("B", hb, ib, axB, fb, tb)
		if r == m.cursor {
			first, second = m.c.Styles.Selected.Render(format.Fit(first, m.w)), m.c.Styles.Selected.Render(format.Fit(second, m.w))
		}
		add(first)
		add(second)
	}
	for len(lines) < m.h-detailH {
		add("")
	}
	add(strings.Repeat("─", m.w))
	for _, l := range detail {
		if len(lines) >= m.h {
			break
		}
		add(l)
	}
	return pad(lines, m.h)
}

// runBar draws a run from its start to its end on an axis: its bar.
func runBar(dst []format.Mark, ax format.Axis, from, to catalyst.Stamp) []format.Mark {
	dst = dst[:0]
	span := float64(ax.To.Sub(ax.From))
	for c := range ax.Width {
		at := ax.From + catalyst.Stamp(float64(c)/float64(ax.Width)*span)
		if at >= from && at <= to {
			dst = append(dst, format.MarkAttempt)
		} else {
			dst = append(dst, format.MarkNone)
		}
	}
	return dst
}

// runSpan is a run's start (its creation, else its first event) and end
// (its last update or last event, whichever is later).
func runSpan(h *catalyst.History) (from, to catalyst.Stamp) {
	from = catalyst.StampOf(h.Run.CreatedAt)
	if h.Run.CreatedAt.IsZero() && h.Len() > 0 {
		from = h.At(0).Timestamp
	}
	to = max(catalyst.StampOf(h.Run.UpdatedAt), format.Latest(h))
	return from, max(to, from)
}

// runLine says which run a side is.
func runLine(h *catalyst.History) string {
	r := &h.Run
	s := format.Line(r.ID) + " · " + format.Line(r.Workflow) + " · " + format.Line(string(r.Status.Normalized()))
	if r.Status.IsEnded() && !r.CreatedAt.IsZero() && !r.UpdatedAt.IsZero() {
		s += " · took " + format.SpansOf(h).BetweenTimes(r.CreatedAt, r.UpdatedAt)
	}
	return s
}

// detail is the detail pane's lines: what differs in the selected row.
func (m *Model) detail() []string {
	d := m.d
	var out []string
	var changes []rundiff.Change
	if m.cursor == 0 {
		out = append(out, "The runs: "+format.Plural(len(d.Findings), "finding")+" only one has, "+
			format.Plural(m.changed, "call")+" that differ")
		for _, c := range d.Findings {
			f := d.Finding(c)
			out = append(out, "  only in "+c.Side.String()+": "+format.SeverityLabel(f.Severity)+" "+string(f.ID)+
				" in "+format.Line(f.Activity))
		}
		changes = d.Run
	} else {
		p := &d.Pairs[m.cursor-1]
		how := p.Aligned.Words()
		if p.Aligned == rundiff.AlignedByKey {
			how += " " + format.Line(p.Key)
		}
		out = append(out, format.Line(p.Name)+" · "+how)
		if !p.Changed() {
			out = append(out, "  the same in both runs")
		}
		changes = p.Changes
	}
	for _, c := range changes {
		out = append(out, "  "+format.Pad(c.Kind.Title(), 13)+"A "+format.Facts(c.A)+"  →  B "+format.Facts(c.B))
	}
	return out
}

// changedPairs counts the pairs that differ.
func changedPairs(d *rundiff.Diff) int {
	n := 0
	for i := range d.Pairs {
		if d.Pairs[i].Changed() {
			n++
		}
	}
	return n
}

// pad makes lines exactly h lines.
func pad(lines []string, h int) string {
	for len(lines) < h {
		lines = append(lines, "")
	}
	return strings.Join(lines[:h], "\n")
}
