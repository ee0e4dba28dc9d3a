package runview

import (
	"cmp"
	"sort"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/safetext"
	"github.com/twice-cli/twice/detect"
	"github.com/twice-cli/twice/tui/common"
	"github.com/twice-cli/twice/tui/format"
	"github.com/twice-cli/twice/tui/table"
)

// findRow is one row of the Findings tab: a finding, or one of its evidence
// lines (ev ≥ 0).
type findRow struct{ f, ev int32 }

// findingsTab lists the findings, most severe first (or sorted by a
// column), each followed by its evidence; enter on evidence shows its
// event, enter on a finding its invocation. Its findings are filtered and
// sorted as the other lists are (rowList; a run of a million events has
// tens of thousands), and its rows are those findings with their evidence
// between them (findRows).
type findingsTab struct {
	d       *viewData
	list    rowList
	rows    findRows
	kept    findRow
	keptOff int
}

func newFindingsTab(d *viewData) *findingsTab {
	return &findingsTab{d: d, kept: findRow{-1, -1}, list: rowList{tab: TabFindings, syncMax: syncFindings}}
}

// syncFindings is the number of findings up to which a filter runs on the
// UI goroutine: a finding's search text (its evidence) is long.
const syncFindings = 2048

// findRows maps list positions of the Findings tab to rows: each finding
// shown, then its evidence lines. start holds each shown finding's row, so
// a lookup is a binary search, whatever the number of findings.
type findRows struct {
	order table.Order
	start []int32
	n     int
}

// newFindRows lays out the findings in order, each followed by evidence(f)
// rows.
func newFindRows(order table.Order, evidence func(f int32) int) findRows {
	r := findRows{order: order, start: make([]int32, order.Len())}
	for p := range r.start {
		r.start[p] = int32(r.n)
		r.n += 1 + evidence(order.At(p))
	}
	return r
}

// at returns the row at list position p.
func (r *findRows) at(p int) findRow {
	k := sort.Search(len(r.start), func(i int) bool { return int(r.start[i]) > p }) - 1
	return findRow{r.order.At(k), int32(p) - r.start[k] - 1}
}

// find returns the list position of row x (of its finding when the
// evidence line does not exist); false when the finding is not shown.
func (r *findRows) find(x findRow) (int, bool) {
	k, ok := r.order.Find(x.f)
	if !ok {
		return 0, false
	}
	p := int(r.start[k])
	next := r.n
	if k+1 < len(r.start) {
		next = int(r.start[k+1])
	}
	if x.ev >= 0 && p+1+int(x.ev) < next {
		return p + 1 + int(x.ev), true
	}
	return p, true
}

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

// sorts are the columns the Findings tab sorts by; the first is the
// report's order, most severe first.
func (t *findingsTab) sorts() []sortColumn {
	if t.d.idx == nil {
		return []sortColumn{{key: "v", title: "SEVERITY"}}
	}
	fs := t.d.idx.Report.Findings
	return []sortColumn{
		{key: "v", title: "SEVERITY"},
		{key: "f", title: "FINDING", compare: func(a, b int32) int { return strings.Compare(string(fs[a].ID), string(fs[b].ID)) }},
		{key: "a", title: "ACTIVITY", compare: func(a, b int32) int { return strings.Compare(fs[a].Activity, fs[b].Activity) }},
		{key: "c", title: "CONFIDENCE", compare: func(a, b int32) int {
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

func (t *findingsTab) sortState() ([]sortColumn, sortState) { return t.sorts(), t.list.sort }

func (t *findingsTab) setSort(c int) tea.Cmd {
	t.list.pickSort(c)
	return t.apply(t.list.applied, t.selectedFinding())
}

func (t *findingsTab) table() *table.Model { return &t.list.tbl }

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
	return t.list.count()
}

func (t *findingsTab) position() string { return t.list.position() }

func (t *findingsTab) setHeight(h int) { t.list.tbl.SetHeight(h) }

func (t *findingsTab) rowCount() int { return t.list.tbl.Len() }

func (t *findingsTab) selected() (findRow, bool) {
	c := t.list.tbl.Cursor()
	if c < 0 || c >= t.rows.n {
		return findRow{}, false
	}
	return t.rows.at(c), true
}

// selectedFinding is the selected row's finding, -1 for none.
func (t *findingsTab) selectedFinding() int32 {
	if r, ok := t.selected(); ok {
		return r.f
	}
	return -1
}

func (t *findingsTab) remember() {
	t.kept, t.keptOff = findRow{-1, -1}, t.list.tbl.Offset()
	if r, ok := t.selected(); ok {
		t.kept = r
	}
}

func (t *findingsTab) load(keep bool, f filterState) tea.Cmd {
	t.list.reset(t.total())
	t.buildRows()
	t.list.tbl.SetCursor(0)
	sel := int32(-1)
	if keep && t.kept.f >= 0 {
		sel = t.kept.f
	}
	cmd := t.apply(f, sel)
	if keep && t.kept.f >= 0 && t.selectRow(t.kept) {
		t.list.tbl.SetView(t.list.tbl.Cursor(), t.keptOff)
	}
	return cmd
}

// applyFilter shows the findings matching f.
func (t *findingsTab) applyFilter(f filterState) tea.Cmd {
	if f == t.list.applied && !t.list.pending {
		return nil
	}
	return t.apply(f, t.selectedFinding())
}

// apply filters and sorts the findings (in a command for many), keeping
// finding sel selected.
func (t *findingsTab) apply(f filterState, sel int32) tea.Cmd {
	x := t.d.idx
	if x == nil {
		t.list.seq++
		t.list.take(filterState{}, nil, table.NewOrder(0, nil, nil), -1)
		t.buildRows()
		return nil
	}
	prepare := func(f filterState) *table.Query { return x.findTerms.Prepare(f.query) }
	cmd := t.list.apply(t.d, f, prepare, x.findFlags, t.sorts(), sel)
	if cmd != nil {
		return cmd // the rows stay until the command answers
	}
	t.buildRows()
	if sel >= 0 {
		t.selectRow(findRow{sel, -1})
	}
	return nil
}

// filteredRows takes the findings a filter command kept.
func (t *findingsTab) filteredRows(msg filteredMsg) {
	if t.list.answer(msg) {
		sel := t.list.sel
		t.buildRows()
		if sel >= 0 {
			t.selectRow(findRow{sel, -1})
		}
	}
}

// buildRows lays out the findings shown with their evidence.
func (t *findingsTab) buildRows() {
	var fs []detect.Finding
	if t.d.idx != nil {
		fs = t.d.idx.Report.Findings
	}
	t.rows = newFindRows(t.list.order, func(f int32) int { return len(fs[f].Evidence) + t.codeRows(f) })
	t.list.tbl.SetLen(t.rows.n)
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

// isCode reports whether row r is its finding's code row.
func (t *findingsTab) isCode(r findRow) bool {
	return r.ev >= 0 && int(r.ev) == len(t.d.idx.Report.Findings[r.f].Evidence)
}

// selectRow puts the cursor on r, or on its finding; false when hidden.
func (t *findingsTab) selectRow(r findRow) bool {
	p, ok := t.rows.find(r)
	if ok {
		t.list.tbl.SetCursor(p)
	}
	return ok
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
	f := &t.d.idx.Report.Findings[r.f]
	if t.isCode(r) {
		msg := jumpToCodeMsg{to: t.d, activity: f.Activity, loc: codePlace(t.d.idx.Code.Finding(int(r.f)))}
		return func() tea.Msg { return msg }
	}
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

// edit opens a code row's place in the editor.
func (t *findingsTab) edit(tea.KeyPressMsg) tea.Cmd {
	if r, ok := t.selected(); ok && t.isCode(r) {
		m := editPlace(t.d, int(r.f))
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
	case r.ev >= 0:
		return key.Help{Key: "enter", Desc: "show event"}
	case t.d.idx.Report.Findings[r.f].InvocationIndex >= 0:
		return key.Help{Key: "enter", Desc: "show invocation"}
	}
	return key.Help{}
}

// editHint shows e on a code row whose place is in a file.
func (t *findingsTab) editHint() key.Help {
	if r, ok := t.selected(); ok && t.isCode(r) && codePlace(t.d.idx.Code.Finding(int(r.f))).File != "" {
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
	case t.rows.n == 0 && !t.list.pending:
		return []string{"", " no finding matches the filter (esc clears it)"}
	}
	s := t.d.c.Styles
	cols := findingColumns(x)
	cols, titles := sortedColumns(cols, t.sorts(), t.list.sort)
	l := table.NewLayout(width-2, cols)
	out := make([]string, 0, height)
	out = append(out, s.Heading.Render("  "+l.Row(titles...)))
	out = append(out, t.list.tbl.Lines(func(i int, selected bool) string {
		r := t.rows.at(i)
		f := &x.Report.Findings[r.f]
		cursor := " "
		if selected {
			cursor = t.d.cursor()
		}
		var line string
		if t.isCode(r) {
			line = format.Pad(cursor+"    └ code: "+format.Clip(x.Code.Finding(int(r.f)).Note, 300), width)
			if selected {
				return s.Selected.Render(line)
			}
			return line
		}
		if r.ev >= 0 {
			ev := f.Evidence[r.ev]
			line = format.Pad(cursor+"    └ "+eventRef(t.d.h, ev.Event)+": "+format.Clip(format.Fact(ev.Fact), 300), width)
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

// need is the width the Findings tab's columns want, gutter included.
func (t *findingsTab) need(int) int {
	cols, _ := sortedColumns(findingColumns(t.d.idx), t.sorts(), t.list.sort)
	return 2 + table.Need(cols, maxNameWant)
}

// matches names what the filter matched on the selected finding.
func (t *findingsTab) matches(q string) []string {
	r, ok := t.selected()
	if !ok || t.d.idx == nil {
		return nil
	}
	return findingMatches(t.d.idx.Report, int(r.f), q)
}

// copyTarget is what y copies on the Findings tab: the finding with its
// evidence, as Markdown for a ticket.
func (t *findingsTab) copyTarget() (text, what string) {
	r, ok := t.selected()
	if !ok || t.d.idx == nil {
		return "", ""
	}
	f := &t.d.idx.Report.Findings[r.f]
	return string(format.AppendFindingMarkdown(nil, f, t.d.idx.Code.Finding(int(r.f)))), "the " + string(f.ID) + " finding as Markdown"
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
	case t.isCode(r):
		return describeFindingCode(t.d, int(r.f))
	case r.ev >= 0:
		return describeEvidence(t.d, int(r.f), int(r.ev))
	}
	return describeFinding(t.d, int(r.f))
}
