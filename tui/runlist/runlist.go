// Package runlist is the run list: one row per run with its status,
// workflow, ids, start, duration and a findings column — the worst finding
// and its activity — that fills in as the root analyzes each run in the
// background; beside it (or below, when narrow) a preview of the selected
// run.
package runlist

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/safetext"
	"github.com/twice-cli/twice/detect"
	"github.com/twice-cli/twice/tui/common"
	"github.com/twice-cli/twice/tui/format"
	"github.com/twice-cli/twice/tui/lineinput"
	"github.com/twice-cli/twice/tui/table"
)

// OpenMsg asks the root to open a run (enter on a row).
type OpenMsg struct{ Run catalyst.Run }

// Summary is what the background analysis found in one run, for its
// findings column, its preview, the filter and the retried/flagged
// toggles.
type Summary struct {
	// Err says why the run could not be analyzed ("" when it was).
	Err string
	// Worst is the worst severity found; Findings how many findings.
	Worst    detect.Severity
	Findings int
	// Top is the worst finding (the first of the most severe): its id,
	// confidence and activity ("" id: none).
	Top Finding
	// All are the run's findings, most severe first, for the preview and
	// the filter (finding ids and activity names).
	All []Finding
	// Retried is set when an invocation has more than one attempt.
	Retried bool
}

// Finding is one finding of a listed run, in words.
type Finding struct {
	ID         detect.FindingID
	Severity   detect.Severity
	Confidence detect.Confidence
	Activity   string
}

// Summarize reduces a report to a row summary.
func Summarize(rep *detect.Report) Summary {
	var s Summary
	for i := range rep.Findings {
		f := &rep.Findings[i]
		s.Findings++
		s.All = append(s.All, Finding{ID: f.ID, Severity: f.Severity, Confidence: f.Confidence, Activity: f.Activity})
	}
	slices.SortStableFunc(s.All, func(a, b Finding) int { return cmp.Compare(b.Severity, a.Severity) })
	if len(s.All) > 0 {
		s.Top, s.Worst = s.All[0], s.All[0].Severity
	}
	for i := range rep.Invocations {
		if len(rep.Invocations[i].Attempts) > 1 {
			s.Retried = true
			break
		}
	}
	return s
}

// searchText is what the filter matches in a summary: finding ids and
// activity names.
func (s Summary) searchText() string {
	var b strings.Builder
	for _, f := range s.All {
		b.WriteString(string(f.ID))
		b.WriteByte(0)
		b.WriteString(strings.ToLower(safetext.Line(f.Activity)))
		b.WriteByte(0)
	}
	return b.String()
}

// Key identifies a run in a list: its app, id and, for file-backed sources,
// where it was read from.
func Key(run catalyst.Run) string {
	return run.AppID + "\x00" + run.ID + "\x00" + run.Provenance.Location
}

// RefOf returns the reference the source needs to fetch a run's history.
func RefOf(run catalyst.Run) catalyst.RunRef {
	project := run.Project.Name
	if project == "" {
		project = run.Project.UID
	}
	return catalyst.RunRef{ID: run.ID, AppID: run.AppID, Project: project, Location: run.Provenance.Location}
}

// row is a run's cached row text.
type row struct {
	status, workflow, id, app, search string
	// about says what the run demonstrates (a bundled demo's or a saved
	// history's description), "" for none.
	about string
	tone  format.Tone
}

// wants are the widths the flexible columns' content needs (the widest
// cell of each, up to maxWant).
type wants struct{ workflow, id, app, findings int }

// maxWant bounds a column's wanted width (the table gives no column more
// than what is left anyway).
const maxWant = 120

// aboutLines is how many lines the preview of the selected run takes at
// most, below the list (when there is no room beside it).
const aboutLines = 3

// previewWidth is the least width of the preview beside the list; it sits
// there when the list's columns leave that much.
const previewWidth = 40

// Model is the run list.
type Model struct {
	c *common.Common

	runs []catalyst.Run
	rows []row
	want wants
	// hasAbout is set when a listed run has a description or an error:
	// the pane then keeps room below the list for the selected run's.
	hasAbout bool
	partial  string // why the list is partial ("" = complete)
	shown    []int  // positions in runs, sorted and filtered
	sums     map[string]Summary
	listed   bool

	tbl     table.Model
	query   string
	failed  bool
	retried bool
	flagged bool
	sort    sortState
	sorting bool // the sort menu is open

	input  lineinput.Model
	typing bool

	// keys are the list's bindings (keys.go).
	keys []common.Binding

	spin      spinner.Model
	loading   bool
	loadSince time.Time
	err       string

	// source and where say what the list is read from.
	source catalyst.RunQuery
	where  string
	// refreshed is when the list was last read, every how often it is
	// read again (0: only on R).
	refreshed time.Time
	every     time.Duration

	width, height int
}

// sortState is how the list is sorted: by column col (of columns()),
// descending when desc.
type sortState struct {
	col  int
	desc bool
}

// Sortable columns, in the sort menu's order.
const (
	sortStarted = iota
	sortStatus
	sortWorkflow
	sortID
	sortApp
	sortDuration
	sortFindings
)

// sortKeys are the sort menu's keys and the columns' titles.
var sortKeys = []struct{ key, title string }{
	{"s", "STARTED"}, {"t", "STATUS"}, {"w", "WORKFLOW"}, {"i", "RUN ID"}, {"a", "APP"}, {"d", "DURATION"}, {"f", "FINDINGS"},
}

// The run list is a pane of the root's stack.
var _ common.Pane = (*Model)(nil)

// New returns an empty run list, newest runs first.
func New(c *common.Common) *Model {
	m := &Model{
		c:     c,
		sums:  make(map[string]Summary),
		input: lineinput.Model{Prompt: "/", Limit: 256},
		spin:  spinner.New(spinner.WithSpinner(spinner.Line)),
		sort:  sortState{col: sortStarted, desc: true},
	}
	m.keys = m.bindings()
	return m
}

// SetSource says what the list is read from: the query, and where (a
// source's name: "Catalyst at mcp.cloud.r1.diagrid.io").
func (m *Model) SetSource(q catalyst.RunQuery, where string) {
	m.source, m.where = q, safetext.Line(where)
}

// SetLoading shows that the list is being fetched and returns the spinner's
// first tick.
func (m *Model) SetLoading() tea.Cmd {
	m.loading, m.err = true, ""
	m.loadSince = m.c.Now()
	return m.spin.Tick
}

// SetError shows why the list could not be fetched (already worded for the
// user, with what to do next).
func (m *Model) SetError(text string) {
	m.loading, m.err = false, text
}

// SetRefreshed records when the list was last read, and how often it is
// read again (0: only on R); the title says so.
func (m *Model) SetRefreshed(at time.Time, every time.Duration) { m.refreshed, m.every = at, every }

// SetRuns shows a fetched list. Summaries of runs that are still listed are
// kept; the selection stays on the same run when it is still there.
func (m *Model) SetRuns(list catalyst.RunList) {
	sel, hadSel := m.Selected()
	m.loading, m.err, m.listed = false, "", true
	m.shown = m.shown[:0] // positions in the old list mean nothing now
	m.tbl.SetLen(0)
	m.runs = list.Runs
	m.partial = ""
	if list.Partial {
		m.partial = "partial list"
		if list.Reason != "" {
			m.partial += ": " + safetext.Line(list.Reason)
		}
	}
	m.rows = make([]row, len(m.runs))
	m.want, m.hasAbout = wants{findings: m.want.findings}, false
	for i := range m.runs {
		r := newRow(&m.runs[i])
		m.rows[i] = r
		m.want.workflow = max(m.want.workflow, min(format.Width(r.workflow), maxWant))
		m.want.id = max(m.want.id, min(format.Width(r.id), maxWant))
		m.want.app = max(m.want.app, min(format.Width(r.app), maxWant))
		m.hasAbout = m.hasAbout || r.about != ""
	}
	m.layout()
	m.apply()
	if hadSel {
		m.selectKey(Key(sel))
	}
}

// Listed reports whether a list has been shown (even an empty one).
func (m *Model) Listed() bool { return m.listed }

// Runs returns the runs listed, in the source's order.
func (m *Model) Runs() []catalyst.Run { return m.runs }

// SetSummary records the background analysis of the run with key k. A run
// that could not be analyzed gets the room below the list, where its
// selected row says why.
func (m *Model) SetSummary(k string, s Summary) {
	m.sums[k] = s
	m.want.findings = max(m.want.findings, min(format.Width(findingsCell(s)), maxWant))
	if (s.Err != "" || s.Findings > 0) && !m.hasAbout {
		m.hasAbout = true
		m.layout()
	}
	if m.retried || m.flagged || m.query != "" || m.sort.col == sortFindings {
		m.apply()
	}
}

// Note is what the selected row's preview would say when the pane has no
// room to show it: why its run could not be analyzed (the root shows it in
// the status line); "" otherwise.
func (m *Model) Note() string {
	if m.aboutHeight() > 0 || m.previewShown() {
		return ""
	}
	return m.selectedError()
}

// selectedError says why the selected run could not be analyzed, "" when
// it was (or is not yet).
func (m *Model) selectedError() string {
	run, ok := m.Selected()
	if !ok {
		return ""
	}
	if s, done := m.sums[Key(run)]; done && s.Err != "" {
		return "? " + format.Line(run.ID) + ": " + safetext.Line(s.Err)
	}
	return ""
}

// Summary returns the analysis of the run with key k, if done.
func (m *Model) Summary(k string) (Summary, bool) {
	s, ok := m.sums[k]
	return s, ok
}

// Forget drops the summary of run k (it is running and will change).
func (m *Model) Forget(k string) { delete(m.sums, k) }

// Selected returns the selected run.
func (m *Model) Selected() (catalyst.Run, bool) {
	c := m.tbl.Cursor()
	if c < 0 || c >= len(m.shown) {
		return catalyst.Run{}, false
	}
	return m.runs[m.shown[c]], true
}

// Capturing reports whether the list is reading the filter text.
func (m *Model) Capturing() bool { return m.typing }

// Context names what the list shows (its filter and sort), for status
// messages bound to it.
func (m *Model) Context() string {
	return m.filterText() + "\x00" + strconv.Itoa(m.sort.col) + strconv.FormatBool(m.sort.desc)
}

// SetSize sets the size the list renders at.
func (m *Model) SetSize(width, height int) {
	m.width, m.height = width, height
	m.layout()
}

// layout sizes the rows' window: the pane less its title and headings, and
// less the preview of the selected run below it when there is one to show
// and no room beside the list.
func (m *Model) layout() {
	m.tbl.SetHeight(max(m.height-2-m.aboutHeight(), 0))
}

// aboutHeight is the number of lines kept below the list for the selected
// run's preview (with a rule above it): none when no run has one, the pane
// is short, or the preview sits beside the list.
func (m *Model) aboutHeight() int {
	if !m.hasAbout || m.height < 14 || m.previewShown() {
		return 0
	}
	return aboutLines + 1
}

// listWidth is the width the list's columns need, its gutter included.
func (m *Model) listWidth() int {
	return 2 + table.Need(m.sortedColumns(), maxWant)
}

// previewShown reports whether the preview sits beside the list: the list's
// columns leave it previewWidth columns.
func (m *Model) previewShown() bool {
	return m.listed && len(m.runs) > 0 && m.width-m.listWidth()-1 >= previewWidth
}

// Update handles a message for the list.
func (m *Model) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case spinner.TickMsg:
		if !m.loading {
			return nil
		}
		var cmd tea.Cmd
		m.spin, cmd = m.spin.Update(msg)
		return cmd
	case tea.PasteMsg:
		if m.typing && m.input.Update(msg) {
			m.query = m.input.Value()
			m.apply()
		}
	case tea.KeyPressMsg:
		cmd, _ := m.Keys().Handle(msg)
		return cmd
	case tea.MouseClickMsg:
		ev := msg.Mouse()
		if ev.Button == tea.MouseLeft && ev.Y >= 2 && (!m.previewShown() || ev.X < m.listWidth()) {
			if r := m.tbl.Offset() + ev.Y - 2; r < m.tbl.Offset()+m.tbl.Height() && r < m.tbl.Len() {
				m.tbl.SetCursor(r)
			}
		}
	case tea.MouseWheelMsg:
		switch msg.Mouse().Button {
		case tea.MouseWheelUp:
			m.tbl.Move(-3)
		case tea.MouseWheelDown:
			m.tbl.Move(3)
		}
	}
	return nil
}

// apply recomputes the shown rows: filtered, then sorted.
func (m *Model) apply() {
	sel, hadSel := m.Selected()
	q := strings.ToLower(m.query)
	m.shown = m.shown[:0]
	for i := range m.runs {
		run := &m.runs[i]
		if m.failed && !run.Status.Is(catalyst.StatusFailed) {
			continue
		}
		s, done := m.sums[Key(*run)]
		if m.retried && (!done || !s.Retried) || m.flagged && (!done || s.Findings == 0) {
			continue
		}
		if q != "" && !strings.Contains(m.rows[i].search, q) && !(done && strings.Contains(s.searchText(), q)) {
			continue
		}
		m.shown = append(m.shown, i)
	}
	slices.SortStableFunc(m.shown, func(a, b int) int {
		c := m.compare(a, b)
		if m.sort.desc {
			c = -c
		}
		return c
	})
	m.tbl.SetLen(len(m.shown))
	if hadSel {
		m.selectKey(Key(sel))
	}
}

// compare orders runs a and b by the sorted column, ascending.
func (m *Model) compare(a, b int) int {
	ra, rb := &m.runs[a], &m.runs[b]
	switch m.sort.col {
	case sortStatus:
		return strings.Compare(m.rows[a].status, m.rows[b].status)
	case sortWorkflow:
		return strings.Compare(ra.Workflow, rb.Workflow)
	case sortID:
		return strings.Compare(ra.ID, rb.ID)
	case sortApp:
		return strings.Compare(ra.AppID, rb.AppID)
	case sortDuration:
		now := m.c.Now()
		return cmp.Compare(durationOf(ra, now), durationOf(rb, now))
	case sortFindings:
		sa, sb := m.sums[Key(*ra)], m.sums[Key(*rb)]
		if c := cmp.Compare(sa.Worst, sb.Worst); c != 0 {
			return c
		}
		return cmp.Compare(sa.Findings, sb.Findings)
	}
	return ra.CreatedAt.Compare(rb.CreatedAt)
}

func (m *Model) selectKey(k string) {
	for i, ri := range m.shown {
		if Key(m.runs[ri]) == k {
			m.tbl.SetCursor(i)
			return
		}
	}
}

func newRow(run *catalyst.Run) row {
	status, tone := format.StatusMark(run.Status)
	r := row{
		status:   status,
		tone:     tone,
		workflow: format.Line(run.Workflow),
		id:       format.Line(run.ID),
		app:      format.Line(run.AppID),
	}
	if rec := run.Provenance.Recorded; rec != nil && rec.Description != "" {
		r.about = format.Clip(rec.Description, 1000)
	}
	r.search = strings.ToLower(strings.Join([]string{r.status, r.workflow, r.id, r.app}, "\x00"))
	return r
}

// sortedColumns are the columns with the sorted one's title marked by
// its arrow, widened to hold it.
func (m *Model) sortedColumns() []table.Column {
	cols := m.columns()
	sorted := slices.IndexFunc(cols, func(c table.Column) bool { return c.Title == sortKeys[m.sort.col].title })
	return table.Mark(cols, sorted, format.SortArrow(m.sort.desc))
}

// columns are the run list's columns. When the list is narrow the app
// goes first, then the duration, then the start: the workflow and the run
// id keep what their names need (up to a cap), and the findings column is
// never hidden. An instant in ISO is never cut: its column is as wide as
// one, or hidden.
func (m *Model) columns() []table.Column {
	started := 10
	if m.c.TimeFormat == format.ISO {
		started = format.ISOWidth
	}
	w := m.want
	return []table.Column{
		{Title: "STATUS", Width: 12},
		{Title: "WORKFLOW", Width: 10, Flex: 2, Want: w.workflow},
		{Title: "RUN ID", Width: 10, Flex: 2, Want: w.id},
		{Title: "APP", Width: 8, Flex: 1, Want: w.app, Drop: 3},
		{Title: "STARTED", Width: started, Drop: 1},
		{Title: "DURATION", Width: 8, Right: true, Drop: 2},
		{Title: "FINDINGS", Width: 10, Flex: 1, Want: max(w.findings, 10)},
	}
}

// View renders the list at its size: a title, the column headings and the
// rows, or why there are none; beside or below them, the preview.
func (m *Model) View() string {
	if m.width <= 0 || m.height <= 0 {
		return ""
	}
	s := m.c.Styles
	lw := m.width
	preview := m.previewShown()
	if preview {
		lw = m.listWidth()
	}
	lines := make([]string, 0, m.height)
	lines = append(lines, m.titleLine())
	var body []string
	switch {
	case m.loading && !m.listed:
		body = append(body, "", " "+m.spin.View()+" "+m.loadingText())
	case m.err != "" && !m.listed:
		// The whole error, wrapped: what to do next is usually at its end.
		body = append(body, "")
		for _, l := range format.Wrap(safetext.Line(m.err), max(m.width-1, 1)) {
			body = append(body, " "+s.Error.Render(l))
		}
		body = append(body, " press R to retry")
	case len(m.runs) == 0:
		body = append(body, "")
		for _, l := range format.Wrap("no runs match "+m.queryText()+" (R lists again)", max(m.width-1, 1)) {
			body = append(body, " "+l)
		}
	case len(m.shown) == 0:
		body = append(body, "", " no run matches the filter (esc clears it)")
	default:
		cols := m.sortedColumns()
		l := table.NewLayout(lw-2, cols)
		titles := make([]string, len(cols))
		for i, c := range cols {
			titles[i] = c.Title
		}
		body = append(body, s.Heading.Render("  "+l.Row(titles...)))
		now := m.c.Now()
		body = append(body, m.tbl.Lines(func(i int, selected bool) string {
			ri := m.shown[i]
			r := &m.rows[ri]
			run := &m.runs[ri]
			started := format.Instant(run.CreatedAt, m.c.TimeFormat, now)
			dur := runDuration(run, now)
			sum, done := m.sums[Key(*run)]
			fnd, sev := findingsText(sum, done)
			if selected {
				return s.Selected.Render("› " + l.Row(r.status, r.workflow, r.id, r.app, started, dur, fnd))
			}
			return "  " + l.Row(s.Tone(r.tone).Render(r.status), r.workflow, r.id, r.app, started, dur, s.Alert(format.SeverityAlert(sev)).Render(fnd))
		})...)
	}
	if preview {
		side := m.preview(m.width - lw - 1)
		sep := s.Faint.Render("│")
		for i := 0; i < m.height-1; i++ {
			left, right := "", ""
			if i < len(body) {
				left = body[i]
			}
			if i < len(side) {
				right = side[i]
			}
			lines = append(lines, format.Pad(left, lw)+sep+format.Pad(right, m.width-lw-1))
		}
		return strings.Join(lines[:m.height], "\n")
	}
	for _, l := range body {
		lines = append(lines, format.Pad(l, m.width))
	}
	about := m.about()
	for len(lines) < m.height-len(about) {
		lines = append(lines, strings.Repeat(" ", m.width))
	}
	lines = append(lines, about...)
	return strings.Join(lines[:m.height], "\n")
}

// loadingText says what the list waits on, for how long, and what the
// source is doing (a retry).
func (m *Model) loadingText() string {
	return "listing " + m.queryText() + m.c.Waiting(m.loadSince) + "…"
}

// queryText names what the list lists: the query and the source.
func (m *Model) queryText() string {
	text := format.QueryText(m.source, m.c.TimeFormat, m.c.Now())
	if m.where != "" {
		text += " in " + m.where
	}
	return text
}

// preview is the selected run, for the pane beside the list: its ids,
// status, what it demonstrates (a demo's description), why it failed, and
// its findings, each with its activity.
func (m *Model) preview(w int) []string {
	s := m.c.Styles
	run, ok := m.Selected()
	if !ok || w <= 0 {
		return nil
	}
	r := &m.rows[m.shown[m.tbl.Cursor()]]
	out := []string{s.Title.Render(format.Fit(r.id, w))}
	add := func(label, value string) {
		for i, l := range format.Wrap(s.Label.Render(label+":")+" "+value, w-1) {
			if i > 0 {
				l = "  " + l
			}
			out = append(out, " "+l)
		}
	}
	add("workflow", r.workflow)
	add("app", r.app)
	add("status", s.Tone(r.tone).Render(r.status))
	if run.FailureMessage != "" {
		add("why", format.Clip(run.FailureMessage, 300))
	}
	now := m.c.Now()
	add("started", format.Instant(run.CreatedAt, m.c.TimeFormat, now))
	add("duration", runDuration(&run, now))
	if r.about != "" {
		out = append(out, "")
		for _, l := range format.Wrap(r.about, w-1) {
			out = append(out, " "+l)
		}
	}
	out = append(out, "")
	sum, done := m.sums[Key(run)]
	switch {
	case !done:
		out = append(out, " "+m.spin.View()+" analyzing…")
	case sum.Err != "":
		for _, l := range format.Wrap("? not analyzed: "+safetext.Line(sum.Err), w-1) {
			out = append(out, " "+s.Error.Render(l))
		}
	case sum.Findings == 0:
		out = append(out, " no findings")
	default:
		out = append(out, " "+s.Label.Render(format.Plural(sum.Findings, "finding")+":"))
		for _, f := range sum.All {
			line := format.SeverityMark(f.Severity) + " " + string(f.ID) + " · " + format.Line(f.Activity)
			out = append(out, " "+s.Alert(format.SeverityAlert(f.Severity)).Render(format.Fit(line, w-1)))
		}
	}
	return append(out, "", " "+s.Label.Render(format.Fit("enter opens it", w-1)))
}

// about renders the selected run's preview below the list: a rule, then
// why its run could not be analyzed, its description, or its findings,
// wrapped to the width, cut to its lines (nothing when the selected run has
// none; the room stays, so the list does not jump).
func (m *Model) about() []string {
	n := m.aboutHeight()
	c := m.tbl.Cursor()
	if n == 0 || c < 0 || c >= len(m.shown) {
		return nil
	}
	r := &m.rows[m.shown[c]]
	run := m.runs[m.shown[c]]
	sum, done := m.sums[Key(run)]
	var desc string
	switch {
	case m.selectedError() != "":
		desc = m.selectedError()
	case r.about != "":
		desc = r.id + ": " + r.about
	case done && sum.Findings > 0:
		parts := make([]string, 0, len(sum.All))
		for _, f := range sum.All {
			parts = append(parts, format.SeverityMark(f.Severity)+" "+string(f.ID)+" in "+format.Line(f.Activity))
		}
		desc = r.id + ": " + strings.Join(parts, "; ")
	default:
		return nil
	}
	out := []string{m.c.Styles.Faint.Render(strings.Repeat("─", m.width))}
	text := format.Wrap(desc, m.width-1)
	if len(text) > n-1 {
		text = text[:n-1]
		text[n-2] = format.Fit(text[n-2]+" …", m.width-1)
	}
	for _, l := range text {
		out = append(out, format.Pad(" "+l, m.width))
	}
	return out
}

// filterText describes the filter ("/charge failed"), "" for none.
func (m *Model) filterText() string {
	var parts []string
	if m.query != "" {
		parts = append(parts, "/"+safetext.Line(m.query))
	}
	if m.failed {
		parts = append(parts, "failed")
	}
	if m.retried {
		parts = append(parts, "retried")
	}
	if m.flagged {
		parts = append(parts, "flagged")
	}
	return strings.Join(parts, " ")
}

// titleLine names the list, its size, what it lists and from where,
// whether it is partial, and on the right the filter (or the input being
// typed, or the sort menu), the sort and when the list was read.
func (m *Model) titleLine() string {
	s := m.c.Styles
	if m.sorting {
		parts := make([]string, len(sortKeys))
		for i, k := range sortKeys {
			parts[i] = k.key + " " + strings.ToLower(k.title)
			if i == m.sort.col {
				parts[i] += " " + format.SortArrow(m.sort.desc)
			}
		}
		menu := "sort by: " + strings.Join(parts, " · ") + " (again: reverse; esc: cancel)"
		return format.Pad(s.Info.Render(format.Fit(menu, m.width)), m.width)
	}
	left := s.Title.Render("Runs") + " " + format.Count(len(m.shown))
	if len(m.shown) != len(m.runs) {
		left += "/" + format.Count(len(m.runs))
	}
	if m.partial != "" {
		// Never read as complete: before anything else.
		left += " " + s.Error.Render("("+m.partial+")")
	}
	if m.where != "" || m.source != (catalyst.RunQuery{}) {
		left += " " + s.Label.Render("·") + " " + m.queryText()
	}
	if m.loading && m.listed {
		left += " " + m.spin.View() + " refreshing"
	}
	var right string
	if m.typing {
		right = m.input.View(max(m.width/2, 10))
	} else {
		var parts []string
		if f := m.filterText(); f != "" {
			parts = append(parts, "filter: "+f)
		}
		if !m.refreshed.IsZero() && m.every > 0 {
			parts = append(parts, "read "+m.refreshed.Format("15:04:05")+", every "+format.Duration(m.every))
		}
		right = strings.Join(parts, "  ")
	}
	room := m.width - format.Width(left)
	if room <= format.Width(right) {
		// The left names the list; the right keeps what is typed, or the
		// filter.
		keep := min(format.Width(right), m.width/2)
		return format.Pad(format.Fit(left, m.width-keep-1)+" "+format.Fit(right, keep), m.width)
	}
	return left + format.PadLeft(right, room)
}

// findingsText is the FINDINGS cell: the worst finding's severity, id-word
// and activity, and how many more there are ("▲ HIGH duplicate? ChargeCard
// +1"); "…" while the run is being analyzed, or why it could not be.
func findingsText(s Summary, done bool) (string, detect.Severity) {
	switch {
	case !done:
		return "…", detect.SeverityNone
	case s.Err != "":
		return "? error", detect.SeverityNone
	case s.Findings == 0:
		return "· none", detect.SeverityNone
	}
	return findingsCell(s), s.Worst
}

// findingsCell is a summary's FINDINGS cell once it has findings.
func findingsCell(s Summary) string {
	if s.Findings == 0 || s.Top.ID == "" {
		return "· none"
	}
	text := format.SeverityMark(s.Top.Severity) + " " + format.FindingWord(s.Top.ID, s.Top.Confidence) + " " + format.Line(s.Top.Activity)
	if n := s.Findings - 1; n > 0 {
		text += " +" + strconv.Itoa(n)
	}
	return text
}

// runDuration is how long the run took, or has been running. A live run
// that has not ended is measured to now; a saved one that was still running
// when saved is measured to when it was saved (else to its last recorded
// time), marked "≥": it ran at least that long (catalyst.Run.RanUntil).
func runDuration(run *catalyst.Run, now time.Time) string {
	d, mark, ok := runSpan(run, now)
	if !ok {
		return "-"
	}
	return mark + format.Duration(d)
}

// durationOf is a run's duration for sorting (-1 when unknown).
func durationOf(run *catalyst.Run, now time.Time) time.Duration {
	d, _, ok := runSpan(run, now)
	if !ok {
		return -1
	}
	return d
}

// runSpan is how long a run took or has run, and "≥" when it ran at least
// that long.
func runSpan(run *catalyst.Run, now time.Time) (time.Duration, string, bool) {
	if run.CreatedAt.IsZero() {
		return 0, "", false
	}
	end, atLeast := run.RanUntil(now)
	mark := ""
	if atLeast {
		mark = "≥"
	}
	if end.IsZero() || end.Before(run.CreatedAt) {
		return 0, "", false
	}
	return end.Sub(run.CreatedAt), mark, true
}

// Legend explains the run list's marks for the help screen.
func (m *Model) Legend() []common.Legend {
	return []common.Legend{
		{Title: "FINDINGS column", Marks: [][2]string{
			{format.SeverityMark(detect.SeverityHigh) + " duplicate? ChargeCard +1", "worst finding, its activity, how many more"},
			{"· none", "nothing flagged"},
			{"…", "being analyzed"},
			{"? error", "not analyzed: the preview says why"},
		}},
		{Title: "DURATION column", Marks: [][2]string{
			{"≥2.5m", "at least: saved while running"},
		}},
		{Title: "Filter (/)", Marks: [][2]string{
			{"/text", "status, workflow, run id, app, finding ids, activities"},
		}},
	}
}
