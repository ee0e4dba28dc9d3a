package runview

import (
	"strconv"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/twice-cli/twice/catalyst/safetext"
	"github.com/twice-cli/twice/detect"
	"github.com/twice-cli/twice/tui/format"
	"github.com/twice-cli/twice/tui/style"
	"github.com/twice-cli/twice/tui/table"
)

// invCells is one invocation's row text, built once per index.
type invCells struct {
	name, attempts, outcome, duration, flag string
	// shortFlag is the flag without the severity's word ("▲ duplicate? +1"),
	// for a FLAG column too narrow for the whole.
	shortFlag   string
	outcomeTone style.Tone
	severity    detect.Severity
}

// invRow is one row of the Invocations tab: an invocation, or one of its
// attempts when it is expanded (att ≥ 0).
type invRow struct{ inv, att int32 }

// invocationsTab lists one row per invocation; enter expands a row into its
// attempts.
type invocationsTab struct {
	d   *viewData
	tbl table.Model
	// rows maps list positions to invocations and attempts.
	rows     invRows
	applied  filterState
	matched  []int32 // invocations matching the filter (nil: all)
	expanded map[string]bool
	kept     keptInvocation
	// seq numbers filter requests; pending is set while a filter command
	// runs.
	seq     int
	pending bool
	cache   table.Cache[invCells]
}

// keptInvocation is the selection remembered across a reload.
type keptInvocation struct {
	key    string
	att    int32
	offset int
}

func newInvocationsTab(d *viewData) *invocationsTab {
	return &invocationsTab{d: d, expanded: make(map[string]bool)}
}

// invocationColumns are the Invocations tab's columns; the name and the
// flag get what the widest of them needs (x may be nil while detect runs).
func invocationColumns(x *Index) []table.Column {
	var name, flag int
	if x != nil {
		name, flag = x.nameWidth, x.flagWidth
	}
	return []table.Column{
		{Title: "NAME", Width: 12, Flex: 2, Want: name},
		{Title: "ATTEMPTS", Width: 8, Right: true},
		{Title: "OUTCOME", Width: 11},
		// Total duration is one of the columns triage needs: a long name or
		// flag is cut (the flag to its short form) before it is hidden.
		{Title: "DURATION", Width: 8, Right: true, Drop: 1, Firm: true},
		{Title: "FLAG", Width: 12, Flex: 1, Want: max(flag, 4)},
	}
}

// invFlagColumn is the FLAG column's position in invocationColumns.
const invFlagColumn = 4

func (t *invocationsTab) title() string { return "Invocations" }

func (t *invocationsTab) invocations() []detect.Invocation {
	if t.d.idx == nil {
		return nil
	}
	return t.d.idx.Report.Invocations
}

func (t *invocationsTab) count() string {
	if t.d.idx == nil {
		return "…"
	}
	n := len(t.invocations())
	if t.matched != nil {
		return format.Count(len(t.matched)) + "/" + format.Count(n)
	}
	return format.Count(n)
}

func (t *invocationsTab) position() string {
	if t.pending {
		return "filtering…"
	}
	if t.tbl.Len() == 0 {
		return ""
	}
	return format.Count(t.tbl.Cursor()+1) + "/" + format.Count(t.tbl.Len())
}

func (t *invocationsTab) setHeight(h int) { t.tbl.SetHeight(h) }

func (t *invocationsTab) rowCount() int { return t.tbl.Len() }

// row returns the row at list position i.
func (t *invocationsTab) row(i int) invRow { return t.rows.at(i) }

// selected returns the selected row, ok false when the list is empty.
func (t *invocationsTab) selected() (invRow, bool) {
	c := t.tbl.Cursor()
	if c < 0 || t.d.idx == nil {
		return invRow{}, false
	}
	return t.row(c), true
}

func (t *invocationsTab) remember() {
	t.kept = keptInvocation{att: -1, offset: t.tbl.Offset()}
	if r, ok := t.selected(); ok {
		t.kept.key, t.kept.att = t.invocations()[r.inv].Key, r.att
	}
}

func (t *invocationsTab) load(keep bool, f filterState) tea.Cmd {
	if !keep {
		t.expanded = make(map[string]bool)
		t.kept = keptInvocation{}
	}
	t.cache.Reset()
	t.seq++ // drop filter results computed for the old data
	t.pending = false
	t.applied, t.matched = filterState{}, nil
	t.buildRows()
	t.tbl.SetCursor(0)
	x := t.d.idx
	switch {
	case x == nil:
	case t.kept.key != "":
		if i, ok := x.invByKey[t.kept.key]; ok {
			t.selectRow(invRow{i, t.kept.att})
			t.tbl.SetView(t.tbl.Cursor(), t.kept.offset)
		}
	case x.worst >= 0:
		// A run opened (or analyzed) afresh: put the worst finding under
		// the cursor.
		t.selectRow(invRow{x.worst, -1})
	}
	return t.applyFilter(f)
}

func (t *invocationsTab) applyFilter(f filterState) tea.Cmd {
	if f == t.applied && !t.pending {
		return nil
	}
	t.seq++
	t.pending = false
	x := t.d.idx
	if x == nil || !f.active() {
		t.setMatched(f, nil)
		return nil
	}
	var from []int32
	if t.matched != nil && f.narrows(t.applied) {
		from = t.matched
	}
	if len(x.invFlags) <= syncRows {
		t.setMatched(f, selectRows(x.invTerms, x.invFlags, f, from))
		return nil
	}
	t.pending = true
	return filterCmd(t.d, TabInvocations, t.seq, x.invTerms, x.invFlags, f, from)
}

// filteredRows takes the invocations a filter command matched, unless a
// newer request superseded it.
func (t *invocationsTab) filteredRows(msg filteredMsg) {
	if msg.seq != t.seq || !t.pending {
		return
	}
	t.pending = false
	t.setMatched(msg.f, msg.rows)
}

// setMatched shows the invocations matching f (nil: all), keeping the
// selection where it can.
func (t *invocationsTab) setMatched(f filterState, matched []int32) {
	r, ok := t.selected()
	t.applied, t.matched = f, matched
	t.buildRows()
	if ok {
		t.selectRow(r)
	}
}

// buildRows lays out the rows: the matching invocations, each followed by
// its attempts when expanded. It costs the expanded invocations, not the
// list.
func (t *invocationsTab) buildRows() {
	invs := t.invocations()
	var open []int32
	if x := t.d.idx; x != nil {
		for k := range t.expanded {
			if i, ok := x.invByKey[k]; ok {
				open = append(open, i)
			}
		}
	}
	t.rows = newInvRows(t.matched, len(invs), open, func(i int32) int32 { return int32(len(invs[i].Attempts)) })
	t.tbl.SetLen(t.rows.len())
}

// selectRow puts the cursor on r, or on its invocation's row; false when the
// filter hides it.
func (t *invocationsTab) selectRow(r invRow) bool {
	p, ok := t.rows.find(r)
	if ok {
		t.tbl.SetCursor(p)
	}
	return ok
}

// selectInvocation selects invocation inv, expanding it when expand is set;
// false when the filter hides it.
func (t *invocationsTab) selectInvocation(inv int, expand bool) bool {
	invs := t.invocations()
	if inv < 0 || inv >= len(invs) {
		return false
	}
	if expand && !t.expanded[invs[inv].Key] {
		t.expanded[invs[inv].Key] = true
		t.buildRows()
	}
	return t.selectRow(invRow{int32(inv), -1})
}

func (t *invocationsTab) update(msg tea.KeyPressMsg) tea.Cmd {
	k := &t.d.c.Keys
	if key.Matches(msg, k.Enter) {
		r, ok := t.selected()
		if !ok {
			return nil
		}
		name := t.invocations()[r.inv].Key
		if t.expanded[name] {
			delete(t.expanded, name)
		} else {
			t.expanded[name] = true
		}
		t.buildRows()
		t.selectRow(invRow{r.inv, -1})
		return nil
	}
	t.tbl.Update(msg, k)
	return nil
}

func (t *invocationsTab) keys() []key.Binding {
	r, ok := t.selected()
	if !ok {
		return nil
	}
	b := t.d.c.Keys.Enter
	if t.expanded[t.invocations()[r.inv].Key] {
		b.SetHelp("enter", "fold attempts")
	} else {
		b.SetHelp("enter", "attempts")
	}
	return []key.Binding{b}
}

func (t *invocationsTab) lines(width, height int) []string {
	s := t.d.c.Styles
	switch {
	case t.d.idx == nil:
		return t.d.analyzing(width)
	case t.d.h.Len() == 0:
		return []string{"", " this history has no events"}
	case len(t.invocations()) == 0:
		return []string{"", " no activity in this history",
			" (" + format.Plural(t.d.h.Len(), "event") + ": see the Events tab)"}
	case t.tbl.Len() == 0:
		return []string{"", " no invocation matches the filter (esc clears it)"}
	}
	l := table.NewLayout(width-3, invocationColumns(t.d.idx))
	out := make([]string, 0, height)
	out = append(out, s.Heading.Render("   "+l.Header()))
	invs := t.invocations()
	out = append(out, t.tbl.Lines(func(i int, selected bool) string {
		r := t.row(i)
		cursor := " "
		if selected {
			cursor = "›"
		}
		if r.att >= 0 {
			line := cursor + "   " + format.Fit(t.attemptLine(&invs[r.inv], int(r.att)), width-4)
			if selected {
				return s.Selected.Render(format.Pad(line, width))
			}
			return line
		}
		c := t.cache.Get(int(r.inv), t.buildCells)
		fold := "▸"
		if t.expanded[invs[r.inv].Key] {
			fold = "▾"
		}
		flag := c.flagFor(l.Widths[invFlagColumn])
		if selected {
			return s.Selected.Render(cursor + fold + " " + l.Row(c.name, c.attempts, c.outcome, c.duration, flag))
		}
		return cursor + fold + " " + l.Row(c.name, c.attempts, s.Tone(c.outcomeTone).Render(c.outcome), c.duration,
			s.Alert(format.SeverityAlert(c.severity)).Render(flag))
	})...)
	return out
}

func (t *invocationsTab) buildCells(i int) invCells {
	rep := t.d.idx.Report
	inv := &rep.Invocations[i]
	outcome, tone := format.OutcomeMark(inv.Outcome)
	c := invCells{
		name:        format.Line(inv.Name),
		attempts:    strconv.Itoa(len(inv.Attempts)),
		outcome:     outcome,
		outcomeTone: tone,
		duration:    "-",
		flag:        "-",
	}
	if d := inv.Duration(); d != 0 {
		c.duration = format.Duration(d)
	}
	c.shortFlag = c.flag
	if len(inv.Findings) > 0 {
		c.severity = rep.Findings[worstFinding(rep, inv)].Severity
		c.flag = flagText(rep, inv)
		c.shortFlag = shortFlagText(rep, inv)
	}
	return c
}

// flagFor returns the FLAG cell's text for a column w wide: the whole flag,
// or its short form when the whole does not fit.
func (c *invCells) flagFor(w int) string {
	if format.Width(c.flag) > w {
		return c.shortFlag
	}
	return c.flag
}

// worstFinding returns the first of an invocation's most severe findings;
// the invocation must have findings.
func worstFinding(rep *detect.Report, inv *detect.Invocation) int {
	worst := inv.Findings[0]
	for _, fi := range inv.Findings {
		if rep.Findings[fi].Severity > rep.Findings[worst].Severity {
			worst = fi
		}
	}
	return worst
}

// flagText is the FLAG cell of an invocation with findings: its worst
// finding's mark and word, and how many more it has ("▲ HIGH duplicate? +1").
func flagText(rep *detect.Report, inv *detect.Invocation) string {
	return flagCell(rep, inv, format.SeverityMark)
}

// shortFlagText is the FLAG cell in a narrow column: the severity's glyph
// (not its word), the finding's word and the count ("▲ duplicate? +1").
// Glyph and word still say it without colour.
func shortFlagText(rep *detect.Report, inv *detect.Invocation) string {
	return flagCell(rep, inv, format.SeverityGlyph)
}

// flagCell is a FLAG cell with the worst finding's severity written by mark.
func flagCell(rep *detect.Report, inv *detect.Invocation, mark func(detect.Severity) string) string {
	f := &rep.Findings[worstFinding(rep, inv)]
	text := mark(f.Severity) + " " + format.FindingWord(f.ID, f.Confidence)
	if n := len(inv.Findings) - 1; n > 0 {
		text += " +" + strconv.Itoa(n)
	}
	return text
}

// attemptLine is an expanded attempt's row: number, outcome, start and end
// as offsets from the invocation's start, duration, the backoff before it,
// its execution (or instance) id when it is not the invocation's key, and
// the error.
func (t *invocationsTab) attemptLine(inv *detect.Invocation, ai int) string {
	a := &inv.Attempts[ai]
	outcome, _ := format.OutcomeMark(a.Outcome)
	line := "#" + strconv.Itoa(a.Number) + " " + outcome + " " + attemptSpan(inv, a)
	if d := a.Duration(); d != 0 {
		line += " took " + format.Duration(d)
	}
	if ai > 0 {
		line += " after " + format.Duration(a.BackoffBefore) + " backoff"
	}
	if a.ExecutionID != "" && a.ExecutionID != inv.Key {
		line += " exec " + format.Fit(format.Line(a.ExecutionID), 13)
	} else if a.InstanceID != "" && a.InstanceID != inv.Key {
		line += " inst " + format.Fit(format.Line(a.InstanceID), 13)
	}
	if f := a.Failure; f != nil {
		line += " " + format.Line(trimText(f.Type, 80))
		if f.Message != "" {
			line += ": " + format.Line(trimText(f.Message, 200))
		}
	}
	return line
}

// attemptSpan is when an attempt ran, as offsets from its invocation's
// start: "+0s → +30.52s", or only the start while it has no end.
func attemptSpan(inv *detect.Invocation, a *detect.Attempt) string {
	if a.Start.IsZero() || inv.Start.IsZero() {
		return "-"
	}
	span := format.Offset(a.Start.Sub(inv.Start))
	if !a.End.IsZero() && !a.End.IsNever() {
		span += " → " + format.Offset(a.End.Sub(inv.Start))
	}
	return span
}

func (t *invocationsTab) selection() string {
	r, ok := t.selected()
	if !ok {
		return ""
	}
	return "invocation:" + strconv.Itoa(int(r.inv)) + ":" + strconv.Itoa(int(r.att))
}

func (t *invocationsTab) describe() (string, []string) {
	r, ok := t.selected()
	if !ok {
		switch {
		case t.d.idx == nil && t.d.analysisErr != "":
			return "Invocation", []string{"not analyzed: " + safetext.Line(t.d.analysisErr)}
		case t.d.idx == nil:
			return "Invocation", []string{"analyzing…"}
		case len(t.invocations()) == 0:
			return "Invocation", []string{"no activity in this history"}
		}
		return "Invocation", []string{"no invocation matches the filter"}
	}
	if r.att >= 0 {
		return describeAttempt(t.d, int(r.inv), int(r.att))
	}
	return describeInvocation(t.d, int(r.inv))
}
