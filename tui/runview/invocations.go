package runview

import (
	"cmp"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/twice-cli/twice/catalyst/safetext"
	"github.com/twice-cli/twice/detect"
	"github.com/twice-cli/twice/tui/common"
	"github.com/twice-cli/twice/tui/format"
	"github.com/twice-cli/twice/tui/list"
	"github.com/twice-cli/twice/tui/table"
)

// invCells is one invocation's row text, built once per index.
type invCells struct {
	name, input, attempts, outcome, duration, flag, start, key, class string
	// shortFlag is the flag without the severity's word ("▲ duplicate? +1"),
	// for a FLAG column too narrow for the whole.
	shortFlag   string
	outcomeTone format.Tone
	severity    detect.Severity
}

// invocationsTab lists one row per invocation; space (or enter, on an
// activity) expands a row into its attempts, enter on a child workflow
// opens the child's run. A line is a list.Row of an invocation (Item) and
// one of its attempts (Sub, -1 for the invocation's own), the attempts of
// the few expanded ones laid out after them (list.Sparse).
type invocationsTab struct {
	d        *viewData
	rows     list.Model
	expanded map[string]bool
	// kept is the selection remembered across a reload: the invocation's
	// key ("" for none) and the attempt.
	kept struct {
		key string
		att int32
	}
	cache table.Cache[invCells]
}

func newInvocationsTab(d *viewData) *invocationsTab {
	t := &invocationsTab{d: d, expanded: make(map[string]bool)}
	t.rows.Lines = func(order table.Order) list.Layout {
		invs := t.invocations()
		var open []int32
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

// invocationColumns are the Invocations tab's columns; the name and the
// flag get what the widest of them needs (x may be nil while detect runs).
// A wide view (wide) adds when each started, its key and its class. Where
// a name is called more than once, INPUT (after NAME) says what tells its
// invocations apart.
func invocationColumns(x *Index, wide bool) []table.Column {
	var name, flag, key int
	if x != nil {
		name, flag, key = x.nameWidth, x.flagWidth, x.keyWidth
	}
	cols := []table.Column{{Title: "NAME", Width: 12, Flex: 2, Want: name}}
	if x.fanOut() {
		// What tells the rows apart: cut before it is hidden, and hidden
		// only after the duration.
		cols = append(cols, table.Column{Title: "INPUT", Width: 10, Flex: 2, Want: x.inputWidth, Firm: true, Drop: 1})
	}
	cols = append(cols,
		table.Column{Title: "ATTEMPTS", Width: 8, Right: true},
		table.Column{Title: "OUTCOME", Width: 11})
	if wide {
		cols = append(cols, table.Column{Title: "START", Width: 9, Right: true, Drop: 2})
	}
	// Total duration is one of the columns triage needs: a long name or
	// flag is cut (the flag to its short form) before it is hidden.
	cols = append(cols, table.Column{Title: "DURATION", Width: 8, Right: true, Drop: 1, Firm: true})
	if wide {
		cols = append(cols, table.Column{Title: "CLASS", Width: 11, Drop: 3})
	}
	cols = append(cols, table.Column{Title: "FLAG", Width: 12, Flex: 1, Want: max(flag, 4)})
	if wide {
		cols = append(cols, table.Column{Title: "KEY", Width: 8, Flex: 1, Want: key, Drop: 4})
	}
	return cols
}

// fanOut reports whether a name is called more than once with a key that
// tells its invocations apart (the INPUT column is shown).
func (x *Index) fanOut() bool { return x != nil && x.inputKeys != nil }

// row returns an invocation's cells in invocationColumns' order, with the
// flag and outcome given (fitted, styled).
func (c *invCells) row(x *Index, wide bool, flag string, outcome string) []string {
	cells := []string{c.name}
	if x.fanOut() {
		cells = append(cells, c.input)
	}
	cells = append(cells, c.attempts, outcome)
	if wide {
		cells = append(cells, c.start)
	}
	cells = append(cells, c.duration)
	if wide {
		cells = append(cells, c.class)
	}
	cells = append(cells, flag)
	if wide {
		cells = append(cells, c.key)
	}
	return cells
}

// flagColumn is the FLAG column's position in invocationColumns.
func flagColumn(x *Index, wide bool) int {
	n := 4
	if wide {
		n = 6
	}
	if x.fanOut() {
		n++
	}
	return n
}

// sorts are the columns the Invocations tab sorts by; the first is the
// order the invocations started in.
func (t *invocationsTab) sorts() []list.Column {
	d := t.d
	if d.idx == nil {
		return []list.Column{{Key: "s", Title: "START"}}
	}
	rep := d.idx.Report
	inv := func(i int32) *detect.Invocation { return &rep.Invocations[i] }
	sev := func(i int32) detect.Severity {
		if x := inv(i); len(x.Findings) > 0 {
			return rep.Findings[worstFinding(rep, x)].Severity
		}
		return -1
	}
	cols := []list.Column{
		{Key: "s", Title: "START"},
		{Key: "n", Title: "NAME", Compare: func(a, b int32) int { return strings.Compare(inv(a).Name, inv(b).Name) }},
		{Key: "a", Title: "ATTEMPTS", Compare: func(a, b int32) int {
			return cmp.Compare(len(inv(a).Attempts), len(inv(b).Attempts))
		}},
		{Key: "o", Title: "OUTCOME", Compare: func(a, b int32) int { return cmp.Compare(inv(a).Outcome, inv(b).Outcome) }},
		{Key: "d", Title: "DURATION", Compare: func(a, b int32) int {
			return cmp.Compare(inv(a).Duration(), inv(b).Duration())
		}},
		{Key: "f", Title: "FLAG", Compare: func(a, b int32) int { return cmp.Compare(sev(a), sev(b)) }},
		{Key: "c", Title: "CLASS", Compare: func(a, b int32) int { return cmp.Compare(inv(a).Class, inv(b).Class) }},
		{Key: "k", Title: "KEY", Compare: func(a, b int32) int { return strings.Compare(inv(a).Key, inv(b).Key) }},
	}
	if x := d.idx; x.fanOut() {
		// By name, then by what tells a name's invocations apart.
		cols = append(cols, list.Column{Key: "i", Title: "INPUT", Compare: func(a, b int32) int {
			return cmp.Or(strings.Compare(inv(a).Name, inv(b).Name),
				strings.Compare(x.inputKey(int(a)).Value, x.inputKey(int(b)).Value))
		}})
	}
	return cols
}

func (t *invocationsTab) title() string { return "Invocations" }

func (t *invocationsTab) invocations() []detect.Invocation {
	if t.d.idx == nil {
		return nil
	}
	return t.d.idx.Report.Invocations
}

func (t *invocationsTab) list() *list.Model { return &t.rows }

// source: the report's invocations, once detect ran.
func (t *invocationsTab) source() list.Source {
	x := t.d.idx
	if x == nil {
		return list.Source{Unknown: true, Columns: t.sorts()}
	}
	return list.Source{
		Len:     len(x.Report.Invocations),
		Columns: t.sorts(),
		Select: selectBy(x.invFlags, func(f list.Filter) *table.Query {
			p := x.invTerms.Prepare(f.Query)
			if f.Query != "" {
				p.Extra = invocationExtra(x, searchForm(f.Query))
			}
			return p
		}),
	}
}

// selected returns the selected line, false for none.
func (t *invocationsTab) selected() (list.Row, bool) {
	r := t.rows.Selected()
	return r, r.Item >= 0 && t.d.idx != nil
}

// selectedInvocation is the selected line's invocation, -1 for none.
func (t *invocationsTab) selectedInvocation() int32 {
	if r, ok := t.selected(); ok {
		return r.Item
	}
	return -1
}

// remember notes the selected invocation by its key: a poll may number
// the invocations anew.
func (t *invocationsTab) remember() {
	t.kept.key, t.kept.att = "", -1
	if r, ok := t.selected(); ok {
		t.kept.key, t.kept.att = t.invocations()[r.Item].Key, r.Sub
	}
}

func (t *invocationsTab) load(keep bool, f list.Filter) tea.Cmd {
	if !keep {
		t.expanded = make(map[string]bool)
		t.kept.key = ""
	}
	t.cache.Reset()
	x := t.d.idx
	t.rows.SyncMax = x.syncMax(0)
	fallback := int32(-1)
	switch {
	case x == nil:
	case t.kept.key != "":
		// The same run, polled: the invocation selected before, if it is
		// still there.
		i, ok := x.invByKey[t.kept.key]
		if !ok {
			i = -1
		}
		t.rows.Keep(list.Row{Item: i, Sub: t.kept.att})
	default:
		// A run opened (or analyzed) afresh: put the worst finding under
		// the cursor.
		t.rows.Keep(list.Row{Item: -1, Sub: -1})
		fallback = x.worst
	}
	return t.rows.Load(t.source(), f, keep && t.kept.key != "", fallback)
}

// showInvocation is the command that shows invocation inv, expanded, in
// the Invocations tab.
func (d *viewData) showInvocation(inv int) tea.Cmd {
	t, ok := tabOf[*invocationsTab](d)
	if !ok || d.idx == nil || inv < 0 || inv >= len(d.idx.Report.Invocations) {
		return nil
	}
	return d.show(t, func() { t.expand(int32(inv)) }, list.Row{Item: int32(inv), Sub: -1})
}

// expand shows invocation inv's attempts.
func (t *invocationsTab) expand(inv int32) {
	if k := t.invocations()[inv].Key; !t.expanded[k] {
		t.expanded[k] = true
		t.rows.Relayout()
	}
}

// toggle expands or folds the selected invocation's attempts.
func (t *invocationsTab) toggle() {
	r, ok := t.selected()
	if !ok {
		return
	}
	name := t.invocations()[r.Item].Key
	if t.expanded[name] {
		delete(t.expanded, name)
	} else {
		t.expanded[name] = true
	}
	t.rows.Relayout()
	t.rows.Select(list.Row{Item: r.Item, Sub: -1})
}

// bindings: enter opens a child workflow's run, or expands (folds) the
// invocation; space expands (folds) it.
func (t *invocationsTab) bindings() []common.Binding {
	k := &t.d.c.Keys
	return []common.Binding{
		{Key: k.Enter, Group: common.GroupRunView, Bar: inList, Hint: t.enterHint, Do: t.enter},
		{Key: k.Expand, Group: common.GroupRunView, Bar: inList, Hint: t.expandHint, Do: t.expandKey},
	}
}

// enter opens the selected row's child run, or on an invocation of an
// activity expands or folds it (on an attempt: folds back to its
// invocation).
func (t *invocationsTab) enter(tea.KeyPressMsg) tea.Cmd {
	r, ok := t.selected()
	if !ok {
		return nil
	}
	if cmd := t.d.openChildOfAttempt(int(r.Item), int(r.Sub)); cmd != nil {
		return cmd
	}
	t.toggle()
	return nil
}

// expandKey expands or folds the selected invocation's attempts.
func (t *invocationsTab) expandKey(tea.KeyPressMsg) tea.Cmd {
	t.toggle()
	return nil
}

// foldWord says what expanding the selected invocation does.
func (t *invocationsTab) foldWord(r list.Row) string {
	if t.expanded[t.invocations()[r.Item].Key] {
		return "fold attempts"
	}
	return "attempts"
}

// enterHint says what enter does on the selected row.
func (t *invocationsTab) enterHint() key.Help {
	r, ok := t.selected()
	switch {
	case !ok:
		return key.Help{}
	case t.d.childOfAttempt(int(r.Item), int(r.Sub)) != nil:
		return key.Help{Key: "enter", Desc: "open child run"}
	}
	return key.Help{Key: "enter", Desc: t.foldWord(r)}
}

// expandHint says what space does, when enter does something else (opens
// a child run).
func (t *invocationsTab) expandHint() key.Help {
	r, ok := t.selected()
	if !ok || t.d.childOfAttempt(int(r.Item), int(r.Sub)) == nil {
		return key.Help{}
	}
	return key.Help{Key: t.d.c.Keys.Expand.Help().Key, Desc: t.foldWord(r)}
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
	case t.rows.Len() == 0 && !t.rows.Pending():
		return []string{"", " no invocation matches the filter (esc clears it)"}
	}
	wide := t.d.wide
	cols := invocationColumns(t.d.idx, wide)
	cols, titles := list.Mark(cols, t.sorts(), t.rows.SortState())
	l := table.NewLayout(width-3, cols)
	out := make([]string, 0, height)
	out = append(out, s.Heading.Render("   "+l.Row(titles...)))
	invs := t.invocations()
	fc := flagColumn(t.d.idx, wide)
	out = append(out, t.rows.Table().Lines(func(i int, selected bool) string {
		r := t.rows.At(i)
		cursor := " "
		if selected {
			cursor = t.d.cursor()
		}
		if r.Sub >= 0 {
			line := cursor + "   " + format.Fit(t.attemptLine(&invs[r.Item], int(r.Sub)), width-4)
			if selected {
				return s.Selected.Render(format.Pad(line, width))
			}
			return line
		}
		c := t.cache.Get(int(r.Item), t.buildCells)
		fold := "▸"
		if t.expanded[invs[r.Item].Key] {
			fold = "▾"
		}
		flag := c.flagFor(l.Widths[fc])
		if selected {
			return s.Selected.Render(cursor + fold + " " + l.Row(c.row(t.d.idx, wide, flag, c.outcome)...))
		}
		return cursor + fold + " " + l.Row(c.row(t.d.idx, wide, s.Alert(format.SeverityAlert(c.severity)).Render(flag),
			s.Tone(c.outcomeTone).Render(c.outcome))...)
	})...)
	return out
}

// need is the width the Invocations tab's columns want, its gutter
// included.
func (t *invocationsTab) need(int) int {
	cols, _ := list.Mark(invocationColumns(t.d.idx, t.d.wide), t.sorts(), t.rows.SortState())
	return 3 + table.Need(cols, maxNameWant)
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
		start:       "-",
		key:         format.Line(inv.Key),
		class:       inv.Class.String(),
		input:       inputCell(inv, t.d.idx.inputKey(i)),
	}
	if d := format.InvocationDuration(t.d.spans(), t.d.h, inv, t.d.c.Now()); d != "" {
		// An invocation whose last attempt has no outcome is open ("open
		// ≥4.0m"), measured to the end of what the history tells.
		c.duration = d
	}
	if !inv.Start.IsZero() && !t.d.start.IsZero() {
		c.start = t.d.spans().Offset(t.d.start, inv.Start)
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
	line := "#" + strconv.Itoa(a.Number) + " " + outcome + " " + attemptSpan(t.d.spans(), inv, a)
	if d := a.Duration(); d != 0 {
		line += " took " + t.d.spans().Show(a.Took(t.d.h))
	}
	if ai > 0 {
		line += " after " + t.d.spans().Show(a.Backoff(t.d.h)) + " backoff"
	}
	if a.ExecutionID != "" && a.ExecutionID != inv.Key {
		line += " exec " + format.Fit(format.Line(a.ExecutionID), 13)
	} else if a.InstanceID != "" && a.InstanceID != inv.Key {
		line += " inst " + format.Fit(format.Line(a.InstanceID), 13)
	}
	if f := a.Failure; f != nil {
		typ := "-"
		if f.Type != "" {
			typ = format.Clip(f.Type, 80)
		}
		line += " " + typ
		if f.Message != "" {
			line += ": " + format.Clip(f.Message, 200)
		}
	}
	return line
}

// attemptSpan is when an attempt ran, as offsets from its invocation's
// start: "+0s → +30.52s", or only the start while it has no end.
func attemptSpan(sp format.Spans, inv *detect.Invocation, a *detect.Attempt) string {
	if a.Start.IsZero() || inv.Start.IsZero() {
		return "-"
	}
	span := sp.Offset(inv.Start, a.Start)
	if a == &inv.Attempts[0] {
		span = "+0s" // the invocation's own start: exact whatever the stamps
	}
	if !a.End.IsZero() && !a.End.IsNever() {
		span += " → " + sp.Offset(inv.Start, a.End)
	}
	return span
}

func (t *invocationsTab) selection() string {
	r, ok := t.selected()
	if !ok {
		return ""
	}
	return "invocation:" + strconv.Itoa(int(r.Item)) + ":" + strconv.Itoa(int(r.Sub))
}

func (t *invocationsTab) describe() (string, []string) {
	r, ok := t.selected()
	if !ok {
		return t.d.noInvocation()
	}
	if r.Sub >= 0 {
		return describeAttempt(t.d, int(r.Item), int(r.Sub))
	}
	return describeInvocation(t.d, int(r.Item))
}

// noInvocation is the detail pane with no invocation selected: why.
func (d *viewData) noInvocation() (string, []string) {
	switch {
	case d.idx == nil && d.analysisErr != "":
		return "Invocation", []string{"not analyzed: " + safetext.Line(d.analysisErr)}
	case d.idx == nil:
		return "Invocation", []string{"analyzing…"}
	case len(d.idx.Report.Invocations) == 0:
		return "Invocation", []string{"no activity in this history"}
	}
	return "Invocation", []string{"no invocation matches the filter"}
}

// matches names what the filter matched on the selected invocation.
func (t *invocationsTab) matches(q string) []string {
	if t.d.idx == nil {
		return nil
	}
	return invocationMatches(t.d.h, t.d.idx.Report, int(t.selectedInvocation()), q)
}

// copyTarget is what y copies on the Invocations tab: the selected
// invocation's task execution id (its key), or the selected attempt's own
// execution or instance id.
func (t *invocationsTab) copyTarget() (text, what string) {
	r, ok := t.selected()
	if !ok {
		return "", ""
	}
	return invocationCopy(&t.invocations()[r.Item], int(r.Sub))
}

// invocationCopy is the id y copies for an invocation (att < 0) or one of
// its attempts, and what it is.
func invocationCopy(inv *detect.Invocation, att int) (text, what string) {
	if att >= 0 && att < len(inv.Attempts) {
		a := &inv.Attempts[att]
		n := "attempt " + strconv.Itoa(a.Number) + "'s "
		switch {
		case a.ExecutionID != "":
			return PlainCopy(a.ExecutionID, n+"task execution id")
		case a.InstanceID != "":
			return PlainCopy(a.InstanceID, n+"child instance id")
		}
	}
	desc := "the task execution id of " + format.Line(inv.Name)
	if inv.Kind == detect.KindChildWorkflow {
		desc = "the child instance id of " + format.Line(inv.Name)
	}
	if inv.Key == "" || strings.HasPrefix(inv.Key, "event:") {
		// Grouped without ids: the key is twice's, not the history's.
		return "", "nothing copied: this history has no id for " + format.Line(inv.Name) + " (grouped by order)"
	}
	return PlainCopy(inv.Key, desc)
}
