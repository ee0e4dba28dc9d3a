package runview

import (
	"cmp"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/twice-cli/twice/detect"
	"github.com/twice-cli/twice/detect/review"
	"github.com/twice-cli/twice/tui/common"
	"github.com/twice-cli/twice/tui/format"
	"github.com/twice-cli/twice/tui/list"
	"github.com/twice-cli/twice/tui/table"
)

// showExcerptMsg widens the detail pane to the whole screen and gives it
// the keys (enter on a Code row: the excerpt in full).
type showExcerptMsg struct{ to *viewData }

// EditMsg asks the root to open a source file at a line in the user's
// editor (e on the Code tab). With File "", there is nothing to open and
// Why says why. Source says where the file is read from: an embedded one
// (the bundled demo services) can be opened only as a copy.
type EditMsg struct {
	File   string
	Line   int
	Why    string
	Source *CodeSource
}

// codeTab lists the code of the run's activities (twice show --source):
// each activity's hazards and refusing writes, an activity with neither,
// and every activity the source does not define, in the order the run
// first called them (or sorted by a column). enter shows the selected
// row's excerpt, e opens its line in the editor.
type codeTab struct {
	d    *viewData
	rows list.Model
}

func newCodeTab(d *viewData) *codeTab { return &codeTab{d: d} }

// code returns the index's Code rows, nil while detect runs.
func (t *codeTab) code() *codeIndex {
	if t.d.idx == nil {
		return nil
	}
	return t.d.idx.code
}

// codeColumns are the Code tab's columns: the rule, the activity and the
// place get what they need; the message takes the rest, and goes first
// when the list is narrow (the detail pane shows it whole).
func codeColumns(ci *codeIndex) []table.Column {
	var rule, name, loc int
	if ci != nil {
		rule, name, loc = ci.ruleWidth, ci.nameWidth, ci.locWidth
	}
	return []table.Column{
		{Title: "SEVERITY", Width: 8},
		{Title: "RULE", Width: 10, Flex: 1, Want: rule},
		{Title: "ACTIVITY", Width: 10, Flex: 1, Want: name},
		{Title: "LOCATION", Width: 10, Flex: 1, Want: loc},
		{Title: "MESSAGE", Width: 12, Flex: 2, Drop: 1},
	}
}

// sorts are the columns the Code tab sorts by; the first is the order the
// run called the activities in.
func (t *codeTab) sorts() []list.Column {
	ci := t.code()
	if ci == nil {
		return []list.Column{{Key: "o", Title: "CALL ORDER"}}
	}
	rows, names := ci.rows, ci.names
	return []list.Column{
		{Key: "o", Title: "CALL ORDER"},
		// Most severe first, then the rows that are not hazards: refusing
		// writes, clean activities, activities not found.
		{Key: "v", Title: "SEVERITY", Compare: func(a, b int32) int {
			return cmp.Or(cmp.Compare(rows[b].severity, rows[a].severity), cmp.Compare(rows[a].kind, rows[b].kind))
		}},
		{Key: "r", Title: "RULE", Compare: func(a, b int32) int { return strings.Compare(rows[a].rule, rows[b].rule) }},
		{Key: "a", Title: "ACTIVITY", Compare: func(a, b int32) int {
			return strings.Compare(names[rows[a].activity], names[rows[b].activity])
		}},
		{Key: "l", Title: "LOCATION", Compare: func(a, b int32) int {
			la, lb := rows[a].loc, rows[b].loc
			return cmp.Or(strings.Compare(la.File, lb.File), cmp.Compare(la.Line, lb.Line), cmp.Compare(la.Col, lb.Col))
		}},
	}
}

func (t *codeTab) title() string { return "Code" }

func (t *codeTab) list() *list.Model { return &t.rows }

// source: the index's Code rows, once detect ran. A run's activities are
// few: they are filtered on the UI goroutine.
func (t *codeTab) source() list.Source {
	ci := t.code()
	if ci == nil {
		return list.Source{Unknown: true, Columns: t.sorts()}
	}
	return list.Source{
		Len:     len(ci.rows),
		Columns: t.sorts(),
		Select:  selectBy(ci.flags, func(f list.Filter) *table.Query { return ci.terms.Prepare(f.Query) }),
	}
}

// selected returns the selected row, nil for none.
func (t *codeTab) selected() *codeRow {
	ci := t.code()
	if ci == nil {
		return nil
	}
	if r := t.rows.SelectedItem(); r >= 0 && int(r) < len(ci.rows) {
		return &ci.rows[r]
	}
	return nil
}

// load shows the rows of a new analysis: on the same run (keep) the row
// selected before, else the most severe hazard.
func (t *codeTab) load(keep bool, f list.Filter) tea.Cmd {
	fallback := int32(-1)
	if ci := t.code(); ci != nil {
		fallback = ci.worst
	}
	return t.rows.Load(t.source(), f, keep, fallback)
}

// showCode is the command that shows an activity's row in the Code tab:
// the row at loc when there is one, else the activity's first.
func (d *viewData) showCode(activity string, loc review.Location) tea.Cmd {
	t, ok := tabOf[*codeTab](d)
	ci := t.code()
	if !ok || ci == nil {
		return nil
	}
	var at, first []list.Row
	for i := range ci.rows {
		r := &ci.rows[i]
		if ci.names[r.activity] != activity {
			continue
		}
		if loc.File != "" && r.loc == loc && at == nil {
			at = []list.Row{{Item: int32(i), Sub: -1}}
		}
		if first == nil {
			first = []list.Row{{Item: int32(i), Sub: -1}}
		}
	}
	if first == nil {
		return nil
	}
	return d.show(t, nil, append(at, first...)...)
}

// bindings: enter shows the selected row's excerpt, whole screen (on an
// activity the source does not define, why); e opens its line in the
// editor.
func (t *codeTab) bindings() []common.Binding {
	k := &t.d.c.Keys
	return []common.Binding{
		{Key: relabel(k.Enter, "the excerpt, whole screen"), Group: common.GroupCode, Bar: inList, Hint: t.enterHint, Do: t.enter},
		{Key: k.Edit, Group: common.GroupCode, Bar: inList, Hint: t.editHint, Do: t.editKey},
	}
}

// enter shows the selected row in the detail pane, whole screen.
func (t *codeTab) enter(tea.KeyPressMsg) tea.Cmd {
	if t.selected() == nil {
		return nil
	}
	m := showExcerptMsg{to: t.d}
	return func() tea.Msg { return m }
}

// editKey asks the root to open the selected row's line in the editor (or
// says why there is none).
func (t *codeTab) editKey(tea.KeyPressMsg) tea.Cmd {
	m := t.edit()
	return func() tea.Msg { return m }
}

// enterHint names what enter shows on the selected row.
func (t *codeTab) enterHint() key.Help {
	switch r := t.selected(); {
	case r == nil:
		return key.Help{}
	case r.kind == codeNotFound:
		return key.Help{Key: "enter", Desc: "why"}
	}
	return key.Help{Key: "enter", Desc: "show excerpt"}
}

// editHint shows e on a row with a file to open.
func (t *codeTab) editHint() key.Help {
	if r := t.selected(); r == nil || r.kind == codeNotFound {
		return key.Help{}
	}
	return t.d.c.Keys.Edit.Help()
}

// edit is what e asks for on the selected row.
func (t *codeTab) edit() EditMsg {
	r := t.selected()
	switch {
	case r == nil:
		return EditMsg{Why: "no code row selected: nothing to open"}
	case r.kind == codeNotFound:
		return EditMsg{Why: "the source given does not define " + format.Line(t.code().names[r.activity]) + ": there is no file to open"}
	}
	return EditMsg{File: r.loc.File, Line: r.loc.Line, Source: t.d.code}
}

func (t *codeTab) lines(width, height int) []string {
	ci := t.code()
	switch {
	case ci == nil:
		return t.d.analyzing(width)
	case len(ci.rows) == 0:
		return []string{"", " this run calls no activity: there is no code to look up"}
	case t.rows.Len() == 0 && !t.rows.Pending():
		return []string{"", " no code row matches the filter (esc clears it)"}
	}
	s := t.d.c.Styles
	cols := codeColumns(ci)
	cols, titles := list.Mark(cols, t.sorts(), t.rows.SortState())
	l := table.NewLayout(width-2, cols)
	out := make([]string, 0, height)
	out = append(out, s.Heading.Render("  "+l.Row(titles...)))
	out = append(out, t.rows.Table().Lines(func(i int, selected bool) string {
		ri := t.rows.At(i).Item
		r := &ci.rows[ri]
		cursor := " "
		if selected {
			cursor = t.d.cursor()
		}
		mark := codeMark(r)
		cells := []string{mark, format.Line(r.rule), format.Line(ci.names[r.activity]), ci.loc[ri], format.Clip(r.message, 300)}
		if selected {
			return s.Selected.Render(cursor + " " + l.Row(cells...))
		}
		switch r.kind {
		case codeHazard:
			cells[0] = s.Alert(format.SeverityAlert(r.severity)).Render(mark)
		case codeRefusal:
			cells[0] = s.Tone(format.ToneGood).Render(mark)
		}
		return cursor + " " + l.Row(cells...)
	})...)
	return out
}

// legend explains the Code tab's marks.
func (t *codeTab) legend() []common.Legend {
	sev := format.SeverityGlyph(detect.SeverityHigh) + " " + format.SeverityGlyph(detect.SeverityMedium) +
		" " + format.SeverityGlyph(detect.SeverityLow)
	return []common.Legend{{Title: "Code", Marks: [][2]string{
		{sev, "a hazard of the activity's code, by severity"},
		{codeMark(&codeRow{kind: codeRefusal}), "a write that refuses its own duplicate"},
		{codeMark(&codeRow{kind: codeClean}), "an activity with no hazard found"},
		{codeMark(&codeRow{kind: codeNotFound}), "an activity the source does not define"},
		{"›", "the hazard's line, in the excerpt"},
	}}}
}

// codeMark is a row's SEVERITY cell: a hazard's severity, "✓ GUARD" for
// a refusing write, "· NONE" for an activity with neither, "? ABSENT" for
// one the source does not define.
func codeMark(r *codeRow) string {
	switch r.kind {
	case codeHazard:
		return format.SeverityMark(r.severity)
	case codeRefusal:
		return "✓ GUARD"
	case codeNotFound:
		return "? ABSENT"
	}
	return "· NONE"
}

// need is the width the Code tab's columns want beside the detail pane,
// gutter included: all but the message, which the detail pane shows whole
// beside the excerpt, the tab's main content.
func (t *codeTab) need(int) int {
	cols, _ := list.Mark(codeColumns(t.code()), t.sorts(), t.rows.SortState())
	return 2 + table.Need(cols[:len(cols)-1], maxNameWant)
}

func (t *codeTab) selection() string {
	r := t.rows.SelectedItem()
	if r < 0 || t.code() == nil {
		return ""
	}
	return "code:" + strconv.Itoa(int(r))
}

// matches names what the filter matched on the selected row.
func (t *codeTab) matches(q string) []string {
	r := t.selected()
	if r == nil {
		return nil
	}
	q = searchForm(q)
	var out []string
	add := func(field, raw string) {
		if holds(raw, q) {
			out = append(out, field)
		}
	}
	add("rule", r.rule)
	add("activity", t.code().names[r.activity])
	add("location", locText(r.loc))
	add("message", r.message)
	add("line", r.excerpt)
	return out
}

// copyTarget is what y copies on the Code tab: the row's file:line and
// rule (a review comment, a ticket), or the name of an activity not found.
func (t *codeTab) copyTarget() (text, what string) {
	r := t.selected()
	if r == nil {
		return "", ""
	}
	name := t.code().names[r.activity]
	switch r.kind {
	case codeNotFound:
		return PlainCopy(name, "the activity name (not found in the source)")
	case codeHazard:
		return PlainCopy(locText(r.loc)+" "+r.rule, "the hazard's file:line and rule")
	case codeRefusal:
		return PlainCopy(locText(r.loc)+" refusing write", "the refusing write's file:line")
	}
	return PlainCopy(locText(r.loc)+" "+name, "the activity's file:line and name")
}

func (t *codeTab) describe() (string, []string) {
	r := t.selected()
	switch {
	case r == nil && t.d.idx == nil && t.d.analysisErr != "":
		return "Code", []string{"not analyzed: " + format.Line(t.d.analysisErr)}
	case r == nil && t.d.idx == nil:
		return "Code", []string{"analyzing…"}
	case r == nil && t.rows.Total() == 0:
		return "Code", []string{"this run calls no activity: there is no code to look up"}
	case r == nil:
		return "Code", []string{"no code row matches the filter"}
	}
	return describeCode(t.d, r)
}

// describeCode shows one Code row: where it is, the lines around it with
// its line marked, what was found there, why it is a hazard and the fix,
// and what it means for this run's findings.
func describeCode(d *viewData, r *codeRow) (string, []string) {
	ci := d.idx.code
	ca := &d.idx.Code.Activities[r.activity]
	a := ci.acts[r.activity]
	b := &text{d: d}
	name := format.Line(ca.Name)
	var title string
	switch r.kind {
	case codeHazard:
		h := &a.Hazards[r.item]
		rule, _ := review.RuleByID(h.Rule)
		title = format.SeverityMark(r.severity) + " " + format.Line(r.rule) + " · " + name
		// The place and its lines first: on a small screen they are what
		// shows without scrolling.
		b.kv("", "at", format.Line(format.CodeLocText(r.loc)))
		b.excerpt(r)
		b.blank()
		b.kv("", "found", format.Line(r.message))
		b.findingsOn(r.activity)
		b.blank()
		b.kv("", "rule", format.Line(r.rule)+" — "+format.Line(rule.Name))
		b.kv("", "activity", activityText(a))
		if h.Workflow != "" {
			b.kv("", "call site in", "the workflow "+format.Line(h.Workflow))
		}
		for _, v := range h.Via {
			b.kv("", "through", format.Line(v))
		}
		b.kv("", "why it is a hazard", format.Line(rule.Why))
		b.kv("", "fix", format.Line(rule.Fix))
	case codeRefusal:
		title = "✓ refusing write · " + name
		b.kv("", "at", format.Line(format.CodeLocText(r.loc)))
		b.excerpt(r)
		b.blank()
		b.kv("", "found", format.Line(r.message))
		b.kv("", "activity", activityText(a))
		b.line("This write refuses its own duplicate: its key comes from the activity's input, so a second " +
			"attempt with the same input is refused downstream rather than applied twice.")
	case codeClean:
		title = "· no hazard · " + name
		b.kv("", "defined at", format.Line(format.CodeLocText(r.loc)))
		b.excerpt(r)
		b.blank()
		b.line("twice found no hazard in " + name + "'s body, nor in the helpers it calls (two levels deep).")
		if len(a.Opaque) > 0 {
			b.heading("Calls twice cannot see (check what they do when the activity runs twice)")
			for _, o := range a.Opaque {
				call := format.Line(o.Call)
				if o.Target != "" && o.Target != o.Call {
					call += " (" + format.Line(o.Target) + ")"
				}
				b.line("  " + format.Line(locText(o.Location)) + ": " + call)
			}
		}
	case codeNotFound:
		title = "? not found · " + name
		b.notFound(ca.Name, ci)
	}
	if r.kind != codeHazard {
		b.findingsOn(r.activity)
	}
	b.sourceLines(r, ci.src)
	return title, b.out
}

// activityText names an activity's function and where it is defined:
// "charge_card at checkout.py:33".
func activityText(a *review.Activity) string {
	s := format.Line(a.Name)
	if a.Func != "" && a.Func != a.Name {
		s += " (function " + format.Line(a.Func) + ")"
	}
	return s + " at " + format.Line(locText(a.Location))
}

// excerpt adds the lines around a row's line, its own marked, or why they
// cannot be shown (with the line as the review saw it).
func (b *text) excerpt(r *codeRow) {
	c := r.context
	b.blank()
	if c.mark < 0 {
		if c.note != "" {
			b.line(b.d.c.Styles.Label.Render(format.Line(c.note)))
		}
		if r.excerpt != "" {
			b.line("› " + strconv.Itoa(r.loc.Line) + " │ " + format.Line(r.excerpt))
		}
		return
	}
	w := len(strconv.Itoa(c.first + len(c.lines) - 1))
	for i, l := range c.lines {
		n := strconv.Itoa(c.first + i)
		n = strings.Repeat(" ", w-len(n)) + n
		if i == c.mark {
			b.line(b.d.c.Styles.Title.Render("› "+n+" │") + " " + l)
			continue
		}
		b.line("  " + n + " │ " + l)
	}
}

// notFound explains an activity the source does not define: what was
// reviewed, what could not be, and the names it registers.
func (b *text) notFound(name string, ci *codeIndex) {
	rev := ci.src.Review
	b.line(format.Line(name) + " is called in this run, but the source given does not define it: twice could not check its code.")
	if a := rev.Activity(name); a != nil && a.Unresolved {
		b.line("It is registered at " + format.Line(locText(a.Registered)) + " as " + format.Line(a.Func) +
			", a function twice did not find in the reviewed files.")
	}
	b.blank()
	b.kv("", "source reviewed", format.Line(strings.Join(rev.Roots, ", "))+sourceCounts(rev))
	for _, l := range review.Langs() {
		if why, ok := rev.Unavailable[l]; ok {
			b.kv("", "not reviewed", format.Line(why))
		}
	}
	if len(rev.Activities) > 0 {
		names := make([]string, 0, min(len(rev.Activities), maxListedNames))
		for i := range rev.Activities {
			if i == maxListedNames {
				names = append(names, "… "+format.Count(len(rev.Activities)-i)+" more")
				break
			}
			names = append(names, format.Line(rev.Activities[i].Name))
		}
		b.kv("", "it registers", strings.Join(names, ", "))
	} else {
		b.kv("", "it registers", "no activity")
	}
	b.line("The history names an activity by the name it is registered under: check that name, or give the source that registers it (--source, repeatable).")
}

// maxListedNames caps the activity names a not-found row lists.
const maxListedNames = 12

// sourceCounts says how much was reviewed: " (3 files: 2 Go, 1 Python)".
func sourceCounts(rev *review.Report) string {
	total := 0
	var parts []string
	for _, l := range review.Langs() {
		if n := rev.Files[l]; n > 0 {
			total += n
			parts = append(parts, format.Count(n)+" "+format.LangName(l))
		}
	}
	if total == 0 {
		return " (no file reviewed)"
	}
	return " (" + format.Plural(total, "file") + ": " + strings.Join(parts, ", ") + ")"
}

// findingsOn adds what this run's findings on activity a (its position in
// Code.Activities) say its code changes: the most severe few, and how many
// more there are.
func (b *text) findingsOn(a int32) {
	ci := b.d.idx.code
	fs := ci.findings[a]
	if len(fs) == 0 {
		return
	}
	b.heading("In this run")
	for _, fi := range fs {
		f := &b.d.idx.Report.Findings[fi]
		b.line("  " + format.SeverityMark(f.Severity) + " " + string(f.ID) + " (" + string(f.Confidence) + ")")
		if note := b.d.idx.Code.Finding(int(fi)).Note; note != "" {
			b.line("    " + format.Line(note))
		}
	}
	if more := ci.findingCount[a] - len(fs); more > 0 {
		b.line("  … and " + format.Plural(more, "more finding") + " on " + format.Line(ci.names[a]) + " (the Findings tab lists them)")
	}
}

// sourceLines close the pane: where the file is, and what e does with it.
func (b *text) sourceLines(r *codeRow, src *CodeSource) {
	if r.kind == codeNotFound {
		return
	}
	b.blank()
	if src.Embedded() {
		b.line(b.d.c.Styles.Label.Render("This source is embedded in twice (the bundled demo services): e opens a temporary copy of the file at line " +
			strconv.Itoa(r.loc.Line) + ", removed when twice quits."))
		return
	}
	b.line(b.d.c.Styles.Label.Render("e opens " + format.Line(locText(r.loc)) + " in your editor ($VISUAL, else $EDITOR); y copies file:line."))
}

// codePlace is the place a finding's code evidence points to: its first
// hazard, else the write that refuses the repeat, else the activity's
// definition (none when the source does not define it).
func codePlace(ev *review.CodeEvidence) review.Location {
	switch {
	case ev == nil || !ev.Found:
		return review.Location{}
	case len(ev.Hazards) > 0:
		return ev.Hazards[0].Location
	case ev.Refusal != nil:
		return ev.Refusal.Location
	}
	return ev.Definition
}

// editPlace is what e asks for on finding fi's code row: its code
// evidence's place in the editor.
func editPlace(d *viewData, fi int) EditMsg {
	f := &d.idx.Report.Findings[fi]
	at := codePlace(d.idx.Code.Finding(fi))
	if at.File == "" {
		return EditMsg{Why: "the source given does not define " + format.Line(f.Activity) + ": there is no file to open"}
	}
	return EditMsg{File: at.File, Line: at.Line, Source: d.code}
}

// describeFindingCode shows a finding's code evidence (its code row in
// the Findings tab): what the activity's code changes about it, and where.
func describeFindingCode(d *viewData, fi int) (string, []string) {
	f := &d.idx.Report.Findings[fi]
	b := &text{d: d}
	b.line(d.c.Styles.Label.Render("press enter to show it in the Code tab"))
	b.blank()
	b.code(d.idx.Code.Finding(fi))
	return "Code · " + string(f.ID) + " · " + format.Line(f.Activity), b.out
}

// code adds a finding's code evidence: the verdict's note, where the
// activity is defined, the hazards that bear on the finding and the write
// that refuses the repeat.
func (b *text) code(ev *review.CodeEvidence) {
	if ev.Note != "" {
		b.line(format.Line(ev.Note))
	}
	if ev.Found {
		b.kv("", "defined at", format.Line(format.CodeLocText(ev.Definition)))
	}
	for _, h := range ev.Hazards {
		b.kv("", format.SeverityGlyph(h.Severity)+" "+format.Line(h.Rule), format.Line(format.CodeLocText(h.Location))+": "+format.Line(h.Message))
	}
	if r := ev.Refusal; r != nil {
		b.kv("", "✓ refused by", format.Line(format.CodeLocText(r.Location))+": "+format.Line(r.Message))
	}
}
