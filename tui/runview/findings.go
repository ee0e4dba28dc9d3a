package runview

import (
	"strconv"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/safetext"
	"github.com/twice-cli/twice/detect"
	"github.com/twice-cli/twice/tui/format"
	"github.com/twice-cli/twice/tui/table"
)

// findRow is one row of the Findings tab: a finding, or one of its evidence
// lines (ev ≥ 0).
type findRow struct{ f, ev int32 }

// findingsTab lists the findings, most severe first, each followed by its
// evidence; enter on evidence shows its event, enter on a finding its
// invocation.
type findingsTab struct {
	d       *viewData
	tbl     table.Model
	rows    []findRow
	shown   int // findings shown (after the filter)
	applied filterState
	kept    findRow
	keptOff int
}

func newFindingsTab(d *viewData) *findingsTab { return &findingsTab{d: d, kept: findRow{-1, -1}} }

// findingColumns are the Findings tab's columns: the finding's stable id
// (what JSON output and the docs call it) and the activity get what they
// need before the confidence is shown.
func findingColumns(x *Index) []table.Column {
	var activity int
	if x != nil {
		activity = x.nameWidth
	}
	return []table.Column{
		{Title: "SEVERITY", Width: 8},
		{Title: "FINDING", Width: 10, Flex: 1, Want: len(detect.FindingRetriedPermanentFailure)},
		{Title: "ACTIVITY", Width: 10, Flex: 1, Want: activity},
		{Title: "CONFIDENCE", Width: 10, Drop: 1},
	}
}

func (t *findingsTab) title() string { return "Findings" }

func (t *findingsTab) total() int {
	if t.d.idx == nil {
		return 0
	}
	return len(t.d.idx.Report.Findings)
}

func (t *findingsTab) count() string {
	if t.d.idx == nil {
		return "…"
	}
	if t.applied.active() {
		return format.Count(t.shown) + "/" + format.Count(t.total())
	}
	return format.Count(t.total())
}

func (t *findingsTab) position() string {
	if t.tbl.Len() == 0 {
		return ""
	}
	return format.Count(t.tbl.Cursor()+1) + "/" + format.Count(t.tbl.Len())
}

func (t *findingsTab) setHeight(h int) { t.tbl.SetHeight(h) }

func (t *findingsTab) rowCount() int { return t.tbl.Len() }

func (t *findingsTab) selected() (findRow, bool) {
	c := t.tbl.Cursor()
	if c < 0 || c >= len(t.rows) {
		return findRow{}, false
	}
	return t.rows[c], true
}

func (t *findingsTab) remember() {
	t.kept, t.keptOff = findRow{-1, -1}, t.tbl.Offset()
	if r, ok := t.selected(); ok {
		t.kept = r
	}
}

func (t *findingsTab) load(keep bool, f filterState) tea.Cmd {
	t.rebuild(f)
	if !keep || t.kept.f < 0 || !t.selectRow(t.kept) {
		t.tbl.SetCursor(0)
		return nil
	}
	t.tbl.SetView(t.tbl.Cursor(), t.keptOff)
	return nil
}

// applyFilter filters the findings (there are few: always at once).
func (t *findingsTab) applyFilter(f filterState) tea.Cmd {
	if f != t.applied {
		t.rebuild(f)
	}
	return nil
}

// rebuild lists the findings matching f, each followed by its evidence.
func (t *findingsTab) rebuild(f filterState) {
	prev, ok := t.selected()
	t.applied = f
	t.rows = t.rows[:0]
	t.shown = 0
	x := t.d.idx
	if x != nil {
		q := x.findTerms.Prepare(f.query)
		need := f.flags() &^ flagFlagged // every finding is flagged
		for fi := range x.Report.Findings {
			fd := &x.Report.Findings[fi]
			if need != 0 {
				ii := fd.InvocationIndex
				if ii < 0 || ii >= len(x.invFlags) || x.invFlags[ii]&need != need {
					continue
				}
			}
			if !q.Match(fi) {
				continue
			}
			t.shown++
			t.rows = append(t.rows, findRow{int32(fi), -1})
			for ei := range fd.Evidence {
				t.rows = append(t.rows, findRow{int32(fi), int32(ei)})
			}
		}
	}
	t.tbl.SetLen(len(t.rows))
	if ok {
		t.selectRow(prev)
	}
}

// selectRow puts the cursor on r, or on its finding; false when hidden.
func (t *findingsTab) selectRow(r findRow) bool {
	parent := -1
	for i, row := range t.rows {
		if row == r {
			t.tbl.SetCursor(i)
			return true
		}
		if row.f == r.f && row.ev < 0 {
			parent = i
		}
	}
	if parent >= 0 {
		t.tbl.SetCursor(parent)
		return true
	}
	return false
}

func (t *findingsTab) update(msg tea.KeyPressMsg) tea.Cmd {
	k := &t.d.c.Keys
	if key.Matches(msg, k.Enter) {
		r, ok := t.selected()
		if !ok {
			return nil
		}
		f := &t.d.idx.Report.Findings[r.f]
		if r.ev >= 0 {
			msg := jumpToEventMsg{to: t.d, event: f.Evidence[r.ev].Event}
			return func() tea.Msg { return msg }
		}
		if f.InvocationIndex >= 0 {
			msg := jumpToInvocationMsg{to: t.d, invocation: f.InvocationIndex}
			return func() tea.Msg { return msg }
		}
		return nil
	}
	t.tbl.Update(msg, k)
	return nil
}

// keys names what enter does on the selected row: a finding opens its
// invocation's attempts, an evidence line shows its event.
func (t *findingsTab) keys() []key.Binding {
	b := t.d.c.Keys.Enter
	r, ok := t.selected()
	switch {
	case !ok:
		return nil
	case r.ev >= 0:
		b.SetHelp("enter", "show event")
	case t.d.idx.Report.Findings[r.f].InvocationIndex >= 0:
		b.SetHelp("enter", "show invocation")
	default:
		return nil
	}
	return []key.Binding{b}
}

func (t *findingsTab) lines(width, height int) []string {
	x := t.d.idx
	switch {
	case x == nil:
		return t.d.analyzing(width)
	case len(x.Report.Findings) == 0:
		out := []string{""}
		for _, l := range t.noFindings() {
			out = append(out, " "+l)
		}
		return out
	case len(t.rows) == 0:
		return []string{"", " no finding matches the filter (esc clears it)"}
	}
	s := t.d.c.Styles
	l := table.NewLayout(width-2, findingColumns(x))
	out := make([]string, 0, height)
	out = append(out, s.Heading.Render("  "+l.Header()))
	out = append(out, t.tbl.Lines(func(i int, selected bool) string {
		r := t.rows[i]
		f := &x.Report.Findings[r.f]
		cursor := " "
		if selected {
			cursor = "›"
		}
		var line string
		if r.ev >= 0 {
			ev := f.Evidence[r.ev]
			line = format.Pad(cursor+"    └ "+eventRef(t.d.h, ev.Event)+": "+format.Line(trimText(ev.Fact, 300)), width)
			if selected {
				return s.Selected.Render(line)
			}
			return line
		}
		mark := format.SeverityMark(f.Severity)
		cells := []string{mark, string(f.ID), format.Line(f.Activity), string(f.Confidence)}
		if selected {
			return s.Selected.Render(cursor + " " + l.Row(cells...))
		}
		cells[0] = s.Alert(format.SeverityAlert(f.Severity)).Render(mark)
		return cursor + " " + l.Row(cells...)
	})...)
	return out
}

// noFindings explains an empty Findings tab: what could not be checked and
// why (withheld payloads name the level and point to the console).
func (t *findingsTab) noFindings() []string {
	x := t.d.idx
	out := []string{"no findings in this run"}
	withheld := x.withheld > 0
	for _, s := range x.Report.Skipped {
		out = append(out, "not checked: "+format.Line(s.Check)+" ("+format.Line(s.Reason)+")")
		if s.Level != catalyst.LevelUnknown {
			withheld = true
		}
	}
	if withheld {
		out = append(out, "", "payloads withheld at "+levelName(t.d.ds)+": open the run in the console to see them")
		if t.d.hasLink {
			out = append(out, t.d.link)
		} else {
			out = append(out, "no console link: "+plainIDs(&t.d.h.Run))
		}
	}
	return out
}

func (t *findingsTab) selection() string {
	r, ok := t.selected()
	if !ok {
		return ""
	}
	return "finding:" + strconv.Itoa(int(r.f)) + ":" + strconv.Itoa(int(r.ev))
}

func (t *findingsTab) describe() (string, []string) {
	r, ok := t.selected()
	switch {
	case !ok && t.d.idx == nil && t.d.analysisErr != "":
		return "Finding", []string{"not analyzed: " + safetext.Line(t.d.analysisErr)}
	case !ok && t.d.idx == nil:
		return "Finding", []string{"analyzing…"}
	case !ok && len(t.d.idx.Report.Findings) == 0:
		return "Finding", t.noFindings()
	case !ok:
		return "Finding", []string{"no finding matches the filter"}
	case r.ev >= 0:
		return describeEvidence(t.d, int(r.f), int(r.ev))
	}
	return describeFinding(t.d, int(r.f))
}
