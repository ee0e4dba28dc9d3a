package runview

import (
	"cmp"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/safetext"
	"github.com/twice-cli/twice/detect"
	"github.com/twice-cli/twice/tui/common"
	"github.com/twice-cli/twice/tui/format"
	"github.com/twice-cli/twice/tui/list"
	"github.com/twice-cli/twice/tui/table"
)

// findingsTab lists the findings, most severe first (or sorted by a
// column), each followed by its evidence (and, with source given, its code
// row); enter on evidence shows its event, enter on a finding its
// invocation. Its findings are filtered and sorted as the other lists are
// (a run of a million events has tens of thousands), and its lines are
// those findings with their evidence between them (list.Dense): a line is
// a list.Row of a finding (Item) and its evidence line (Sub, -1 for the
// finding's own).
type findingsTab struct {
	d    *viewData
	rows list.Model
}

func newFindingsTab(d *viewData) *findingsTab {
	t := &findingsTab{d: d}
	t.rows.SyncMax = syncFindings
	t.rows.Lines = func(order table.Order) list.Layout {
		var fs []detect.Finding
		if t.d.idx != nil {
			fs = t.d.idx.Report.Findings
		}
		return list.Dense(order, func(f int32) int { return len(fs[f].Evidence) + t.codeRows(f) })
	}
	return t
}

// syncFindings is the number of findings up to which a filter runs on the
// UI goroutine: a finding's search text (its evidence) is long.
const syncFindings = 2048

// findingColumns are the Findings tab's columns: the finding's stable id
// (what JSON output and the docs call it) and the activity get what they
// need before the confidence is shown.
func findingColumns(x *Index) []table.Column {
	var activity int
	if x != nil {
		activity = x.nameWidth
		if x.fanOut() {
			activity = x.labelWidth
		}
	}
	return []table.Column{
		{Title: "SEVERITY", Width: 8},
		{Title: "FINDING", Width: 10, Flex: 1, Want: len(detect.FindingRetriedPermanentFailure)},
		{Title: "ACTIVITY", Width: 10, Flex: 1, Want: activity},
		{Title: "CONFIDENCE", Width: 10, Drop: 1},
	}
}

// sorts are the columns the Findings tab sorts by; the first is the
// report's order, most severe first.
func (t *findingsTab) sorts() []list.Column {
	if t.d.idx == nil {
		return []list.Column{{Key: "v", Title: "SEVERITY"}}
	}
	fs := t.d.idx.Report.Findings
	return []list.Column{
		{Key: "v", Title: "SEVERITY"},
		{Key: "f", Title: "FINDING", Compare: func(a, b int32) int { return strings.Compare(string(fs[a].ID), string(fs[b].ID)) }},
		{Key: "a", Title: "ACTIVITY", Compare: func(a, b int32) int { return strings.Compare(fs[a].Activity, fs[b].Activity) }},
		{Key: "c", Title: "CONFIDENCE", Compare: func(a, b int32) int {
			return cmp.Compare(confidenceRank(fs[a].Confidence), confidenceRank(fs[b].Confidence))
		}},
	}
}

// confidenceRank orders confidences from the least sure.
func confidenceRank(c detect.Confidence) int {
	switch c {
	case detect.ConfidenceObserved:
		return 2
	case detect.ConfidenceProbable:
		return 1
	}
	return 0
}

func (t *findingsTab) title() string { return "Findings" }

func (t *findingsTab) list() *list.Model { return &t.rows }

// source: the report's findings, once detect ran.
func (t *findingsTab) source() list.Source {
	x := t.d.idx
	if x == nil {
		return list.Source{Unknown: true, Columns: t.sorts()}
	}
	return list.Source{
		Len:     len(x.Report.Findings),
		Columns: t.sorts(),
		Select: selectBy(x.findFlags, func(f list.Filter) *table.Query {
			p := x.findTerms.Prepare(f.Query)
			if f.Query != "" {
				p.Extra = findingExtra(x, searchForm(f.Query))
			}
			return p
		}),
	}
}

// selected returns the selected line, false for none.
func (t *findingsTab) selected() (list.Row, bool) {
	r := t.rows.Selected()
	return r, r.Item >= 0 && t.d.idx != nil
}

func (t *findingsTab) load(keep bool, f list.Filter) tea.Cmd {
	t.rows.SyncMax = t.d.idx.syncMax(syncFindings)
	return t.rows.Load(t.source(), f, keep, -1)
}

// codeRows is the number of code rows finding f has: one, after its
// evidence, when source was given and its activity is among the run's
// (the row opens the activity in the Code tab); none otherwise.
func (t *findingsTab) codeRows(f int32) int {
	x := t.d.idx
	if x == nil || x.code == nil {
		return 0
	}
	if x.Code.Finding(int(f)) != nil && x.code.has(x.Report.Findings[f].Activity) {
		return 1
	}
	return 0
}

// isCode reports whether line r is its finding's code row.
func (t *findingsTab) isCode(r list.Row) bool {
	return r.Sub >= 0 && int(r.Sub) == len(t.d.idx.Report.Findings[r.Item].Evidence)
}

// bindings: enter shows what the selected row points to (a finding its
// invocation, evidence its event, a code row the Code tab); with source
// given, e opens a code row's place in the editor.
func (t *findingsTab) bindings() []common.Binding {
	k := &t.d.c.Keys
	out := []common.Binding{
		{Key: k.Enter, Group: common.GroupRunView, Bar: inList, Hint: t.enterHint, Do: t.enter},
	}
	if t.d.code != nil {
		out = append(out, common.Binding{Key: k.Edit, Group: common.GroupCode, Bar: inList, Hint: t.editHint, Do: t.edit})
	}
	return out
}

// enter shows what the selected row points to.
func (t *findingsTab) enter(tea.KeyPressMsg) tea.Cmd {
	r, ok := t.selected()
	if !ok {
		return nil
	}
	f := &t.d.idx.Report.Findings[r.Item]
	if t.isCode(r) {
		return t.d.showCode(f.Activity, codePlace(t.d.idx.Code.Finding(int(r.Item))))
	}
	if r.Sub >= 0 {
		return t.d.showEvent(f.Evidence[r.Sub].Event)
	}
	if f.InvocationIndex >= 0 {
		return t.d.showInvocation(f.InvocationIndex)
	}
	return nil
}

// edit opens a code row's place in the editor.
func (t *findingsTab) edit(tea.KeyPressMsg) tea.Cmd {
	if r, ok := t.selected(); ok && t.isCode(r) {
		m := editPlace(t.d, int(r.Item))
		return func() tea.Msg { return m }
	}
	return nil
}

// enterHint names what enter shows on the selected row.
func (t *findingsTab) enterHint() key.Help {
	r, ok := t.selected()
	switch {
	case !ok:
		return key.Help{}
	case t.isCode(r):
		return key.Help{Key: "enter", Desc: "show code"}
	case r.Sub >= 0:
		return key.Help{Key: "enter", Desc: "show event"}
	case t.d.idx.Report.Findings[r.Item].InvocationIndex >= 0:
		return key.Help{Key: "enter", Desc: "show invocation"}
	}
	return key.Help{}
}

// editHint shows e on a code row whose place is in a file.
func (t *findingsTab) editHint() key.Help {
	if r, ok := t.selected(); ok && t.isCode(r) && codePlace(t.d.idx.Code.Finding(int(r.Item))).File != "" {
		return t.d.c.Keys.Edit.Help()
	}
	return key.Help{}
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
	case t.rows.Len() == 0 && !t.rows.Pending():
		return []string{"", " no finding matches the filter (esc clears it)"}
	}
	s := t.d.c.Styles
	cols := findingColumns(x)
	cols, titles := list.Mark(cols, t.sorts(), t.rows.SortState())
	l := table.NewLayout(width-2, cols)
	out := make([]string, 0, height)
	out = append(out, s.Heading.Render("  "+l.Row(titles...)))
	out = append(out, t.rows.Table().Lines(func(i int, selected bool) string {
		r := t.rows.At(i)
		f := &x.Report.Findings[r.Item]
		cursor := " "
		if selected {
			cursor = t.d.cursor()
		}
		var line string
		if t.isCode(r) {
			line = format.Pad(cursor+"    └ code: "+format.Clip(x.Code.Finding(int(r.Item)).Note, 300), width)
			if selected {
				return s.Selected.Render(line)
			}
			return line
		}
		if r.Sub >= 0 {
			ev := f.Evidence[r.Sub]
			line = format.Pad(cursor+"    └ "+eventRef(t.d.h, ev.Event)+": "+format.Clip(format.Fact(ev.Fact), 300), width)
			if selected {
				return s.Selected.Render(line)
			}
			return line
		}
		mark := format.SeverityMark(f.Severity)
		cells := []string{mark, string(f.ID), x.activityLabel(f, l.Widths[2]), string(f.Confidence)}
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

// need is the width the Findings tab's columns want, gutter included.
func (t *findingsTab) need(int) int {
	cols, _ := list.Mark(findingColumns(t.d.idx), t.sorts(), t.rows.SortState())
	return 2 + table.Need(cols, maxNameWant)
}

// matches names what the filter matched on the selected finding.
func (t *findingsTab) matches(q string) []string {
	r, ok := t.selected()
	if !ok || t.d.idx == nil {
		return nil
	}
	return findingMatches(t.d.h, t.d.idx.Report, int(r.Item), q)
}

// copyTarget is what y copies on the Findings tab: the finding with its
// evidence, as Markdown for a ticket, naming its run (id, app, project,
// console link) and with its ids whole.
func (t *findingsTab) copyTarget() (text, what string) {
	r, ok := t.selected()
	if !ok || t.d.idx == nil {
		return "", ""
	}
	rep := t.d.idx.Report
	f := &rep.Findings[r.Item]
	link := ""
	if t.d.hasLink {
		link = t.d.link
	}
	text = string(format.AppendFindingTicket(nil, &t.d.h.Run, link, f, t.d.idx.Code.Finding(int(r.Item)), reportIDs(rep),
		t.d.idx.inputKey(f.InvocationIndex)))
	return text, "the " + string(f.ID) + " finding with its run as Markdown"
}

// reportIDs are the ids a finding's text may abbreviate: every
// invocation's key and every attempt's task execution and child instance
// id.
func reportIDs(rep *detect.Report) []string {
	var ids []string
	for i := range rep.Invocations {
		inv := &rep.Invocations[i]
		ids = append(ids, inv.Key)
		for _, a := range inv.Attempts {
			ids = append(ids, a.ExecutionID, a.InstanceID)
		}
	}
	return ids
}

func (t *findingsTab) selection() string {
	r, ok := t.selected()
	if !ok {
		return ""
	}
	return "finding:" + strconv.Itoa(int(r.Item)) + ":" + strconv.Itoa(int(r.Sub))
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
	case t.isCode(r):
		return describeFindingCode(t.d, int(r.Item))
	case r.Sub >= 0:
		return describeEvidence(t.d, int(r.Item), int(r.Sub))
	}
	return describeFinding(t.d, int(r.Item))
}
