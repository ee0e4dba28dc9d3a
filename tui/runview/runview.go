// Package runview is the run view: a header naming the run (and, for a run
// that failed, was terminated or stalled, why), its data-sharing level and
// console link, and four tabs — Invocations (one row per logical call,
// expandable into its attempts), Timeline (the attempts on one time axis),
// Events (the history in engine order, with the Dapr CLI's column names)
// and Findings — and a fifth, Code, when the workflow and activity source
// was given (SetCode) — with a detail pane that shows the selected row in
// full, can be widened to the whole screen, and takes the focus to scroll.
package runview

import (
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/safetext"
	"github.com/twice-cli/twice/detect"
	"github.com/twice-cli/twice/tui/common"
	"github.com/twice-cli/twice/tui/detail"
	"github.com/twice-cli/twice/tui/format"
	"github.com/twice-cli/twice/tui/lineinput"
	"github.com/twice-cli/twice/tui/table"
)

// The run view's own messages are addressed to the view that sent them (its
// viewData): every pane on the root's stack sees them, and a view must not
// act on another's (common.Pane).

// jumpToEventMsg selects an event in the Events tab (enter on evidence).
type jumpToEventMsg struct {
	to    *viewData
	event int
}

// jumpToInvocationMsg selects and expands an invocation (enter on a finding).
type jumpToInvocationMsg struct {
	to         *viewData
	invocation int
}

// OpenChildMsg asks the root to open the run of a child workflow (enter on
// a child-workflow invocation, attempt or event): Run names it, Parent is
// the run it was started from (whose source decides whether the child can
// be read).
type OpenChildMsg struct {
	Run    catalyst.Run
	Parent catalyst.Run
}

// Tabs of the run view. TabCode is there only when source was given
// (SetCode).
const (
	TabInvocations = iota
	TabTimeline
	TabEvents
	TabFindings
	TabCode
	tabCount
)

// wideLayout is the width from which the detail pane sits beside the list
// rather than below it. Narrower, the pane below the list is the wider of
// the two.
const wideLayout = 110

// extraColumns is the width from which the Invocations tab adds its start,
// class and key columns.
const extraColumns = 200

// viewData is what the tabs share: the history, its index and the facts
// derived from the run once per load.
type viewData struct {
	c       *common.Common
	h       *catalyst.History
	idx     *Index // nil while detect runs
	ds      catalyst.DataSharing
	link    string
	hasLink bool
	// start is when the run started (the run's creation, else its first
	// event): the detail pane shows instants as offsets from it.
	start catalyst.Stamp
	// newFrom is the first event that arrived with the last poll (follow
	// mode highlights it and the ones after it); -1 for none.
	newFrom int
	// spinner is the current spinner frame, for "analyzing" states.
	spinner string
	// analysisErr says why detect failed on the history on screen ("" when
	// it did not): the tabs that need its results say so instead of
	// "analyzing".
	analysisErr string
	// wide is set when the view is wide enough for the lists' extra
	// columns.
	wide bool
	// code is the workflow and activity source joined to the run (nil:
	// none, and the view has no Code tab).
	code *CodeSource
}

// spans shows durations between the history's stamps as exactly as they
// were recorded ("~30s" from whole-second stamps).
func (d *viewData) spans() format.Spans { return format.SpansOf(d.h) }

// analyzing returns the lines a tab shows while detect runs on the history,
// or why it failed, wrapped to width.
func (d *viewData) analyzing(width int) []string {
	if d.analysisErr != "" {
		out := []string{""}
		for _, l := range format.Wrap(safetext.Line(d.analysisErr), max(width-1, 1)) {
			out = append(out, " "+d.c.Styles.Error.Render(l))
		}
		return append(out, " the Events tab still shows every event")
	}
	return []string{"", " " + d.spinner + " analyzing " + format.Plural(d.h.Len(), "event") + "…"}
}

// isNew reports whether event ev arrived with the last poll.
func (d *viewData) isNew(ev int) bool { return d.newFrom >= 0 && ev >= d.newFrom }

// cursor marks the selected row.
func (d *viewData) cursor() string { return "›" }

// withheldHeading is what the Events tab's DETAILS heading says, once, of
// the payloads its rows call "withheld": the level; "" when none is.
func (d *viewData) withheldHeading() string {
	if d.idx == nil || d.idx.withheld == 0 {
		return ""
	}
	if d.ds.Level == catalyst.LevelUnknown {
		return "withheld: level not reported"
	}
	return "withheld: " + safetext.Line(string(d.ds.Level)) + " level"
}

// filterState is the filter applied to the tabs.
type filterState struct {
	query                    string
	failed, retried, flagged bool
}

func (f filterState) active() bool { return f.query != "" || f.failed || f.retried || f.flagged }

// narrows reports whether every row matching f also matches prev's result,
// so f can be computed from prev's rows instead of from all rows.
func (f filterState) narrows(prev filterState) bool {
	return strings.HasPrefix(f.query, prev.query) &&
		(f.failed || !prev.failed) && (f.retried || !prev.retried) && (f.flagged || !prev.flagged)
}

// flags returns the row flags a row must have.
func (f filterState) flags() uint8 {
	var need uint8
	if f.failed {
		need |= flagFailed
	}
	if f.retried {
		need |= flagRetried
	}
	if f.flagged {
		need |= flagFlagged
	}
	return need
}

// tabPane is one tab of the run view.
type tabPane interface {
	title() string
	// count is the tab's row count, "shown/total" when filtered.
	count() string
	// position is "cursor/rows" for the tab bar (or what is being
	// computed).
	position() string
	setHeight(h int)
	// rowCount is the number of rows the list shows; table is its cursor
	// and window (for paging and the mouse).
	rowCount() int
	table() *table.Model
	// remember notes the selection before the data changes; load takes the
	// new data and applies f; with keep it restores the remembered selection
	// and scroll position (a poll of the same run).
	remember()
	load(keep bool, f filterState) tea.Cmd
	// applyFilter shows the rows matching f; for a large list it returns
	// the command that computes them.
	applyFilter(f filterState) tea.Cmd
	// sortState is the tab's sortable columns and its sort; setSort picks
	// column c (again: reversed).
	sortState() ([]sortColumn, sortState)
	setSort(c int) tea.Cmd
	// lines renders the heading and the rows, exactly height lines.
	lines(width, height int) []string
	// need is the width the list's columns want (0: any it is given).
	need(height int) int
	// selection identifies the selected row, and describe renders it for
	// the detail pane; matches names what a filter query matched on it.
	selection() string
	describe() (title string, lines []string)
	matches(q string) []string
	// copyTarget is what y copies: the text and what it is ("" text: the
	// second says why nothing can be copied, or is "" too).
	copyTarget() (text, what string)
	// bindings are the tab's own keys, which apply while it is on
	// screen (the view's come after them: a tab's key may shadow one of
	// the view's, as the Timeline's + zooms rather than widening the
	// detail pane).
	bindings() []common.Binding
}

// Sizes of the detail pane, cycled by p and stepped by + and -.
const (
	detailHidden = iota
	detailNormal
	detailWide
	detailFull
)

// Model is the run view.
type Model struct {
	c *common.Common
	d *viewData
	// tabs are the view's tabs, in TabInvocations… order: four, or five
	// with the Code tab.
	tabs []tabPane
	tab  int

	detail      detail.Model
	detailSize  int
	focusDetail bool
	detailSel   string // what the detail pane shows (tab + selection + filter)
	// excerptOpen is set while the detail pane is full screen because
	// enter showed a Code row in it: esc then gives the list the keys.
	excerptOpen bool
	fitted      areas // the areas the tabs and the detail pane are sized for

	filter  filterState
	input   lineinput.Model
	typing  bool
	sorting bool // the sort menu is open

	spin      spinner.Model
	loading   string    // what is loading ("" = nothing)
	loadSince time.Time // when it started
	loadErr   string    // why the run could not be loaded
	following bool

	// keys are the view's bindings, the tabs' and its own (keys.go).
	keys []common.Binding

	// absent, when set, is a run that cannot be shown (a child workflow
	// not in the file its parent was read from), and absentLines say why
	// and where to find it.
	absent      *catalyst.Run
	absentLines []string

	width, height int
}

// New returns an empty run view.
func New(c *common.Common) *Model {
	d := &viewData{c: c, newFrom: -1}
	in := lineinput.Model{Prompt: "/", Limit: 256}
	m := &Model{
		c:          c,
		d:          d,
		detail:     detail.New(c),
		detailSize: detailNormal,
		input:      in,
		spin:       spinner.New(spinner.WithSpinner(spinner.Line)),
	}
	inv := newInvocationsTab(d)
	m.tabs = make([]tabPane, TabCode, tabCount)
	m.tabs[TabInvocations] = inv
	m.tabs[TabTimeline] = newTimelineTab(d, inv)
	m.tabs[TabEvents] = newEventsTab(d)
	m.tabs[TabFindings] = newFindingsTab(d)
	m.bindKeys()
	return m
}

// SetCode joins the workflow and activity source to the runs the view
// shows: it adds the Code tab. Call it before the first history; the
// analysis that fills the tab is the index's (Index.AddCode).
func (m *Model) SetCode(src *CodeSource) {
	if src == nil || m.d.code != nil {
		return
	}
	m.d.code = src
	m.tabs = append(m.tabs, newCodeTab(m.d))
	m.bindKeys()
	m.layout()
}

// Code returns the source joined to the view, nil for none (or no view).
func (m *Model) Code() *CodeSource {
	if m == nil {
		return nil
	}
	return m.d.code
}

// SetLoading shows that a run is being fetched (what names it, e.g. its id)
// and returns the spinner's first tick.
func (m *Model) SetLoading(what string) tea.Cmd {
	m.loading = safetext.Line(what)
	m.loadSince = m.c.Now()
	m.loadErr = ""
	m.d.spinner = m.spin.View()
	return m.spin.Tick
}

// SetError shows why the run could not be loaded, when there is no history
// to show; with a history on screen the root shows the error in its status
// line instead.
func (m *Model) SetError(text string) {
	m.loading = ""
	if m.d.h == nil {
		m.loadErr = text
	}
}

// SetAbsent shows a run that cannot be read from where its parent was
// (run names it; lines say why and what to do instead).
func (m *Model) SetAbsent(run catalyst.Run, lines []string) {
	m.absent, m.absentLines = &run, lines
	m.loading, m.loadErr = "", ""
}

// Absent returns the run shown as absent, if any.
func (m *Model) Absent() (catalyst.Run, bool) {
	if m.absent == nil {
		return catalyst.Run{}, false
	}
	return *m.absent, true
}

// SetHistory shows a history. idx is nil while detect is still running (the
// events are shown at once; the other tabs wait for SetIndex). With keep,
// the history is a fresh poll of the same run: the selection and scroll
// position stay and events after the previous last one are highlighted.
func (m *Model) SetHistory(h *catalyst.History, idx *Index, keep bool) tea.Cmd {
	old := m.d.h
	m.loading, m.loadErr = "", ""
	same := keep && old != nil && h.Len() >= old.Len() && h.Run.ExecutionID == old.Run.ExecutionID
	for _, t := range m.tabs {
		t.remember()
	}
	m.d.newFrom = -1
	if same && h.Len() > old.Len() {
		m.d.newFrom = old.Len()
	}
	m.d.h = h
	m.d.idx = idx
	m.d.analysisErr = ""
	m.d.ds = h.Run.DataSharing
	m.d.link, m.d.hasLink = catalyst.ConsoleLink(m.c.Console, h.Run)
	created, _ := runTimes(h)
	m.d.start = catalyst.StampOf(created)
	var cmds []tea.Cmd
	for _, t := range m.tabs {
		cmds = append(cmds, t.load(same, m.filter))
	}
	if old == nil {
		m.layout() // the detail pane appears with the first history
	}
	m.syncDetail(same)
	if idx == nil {
		m.d.spinner = m.spin.View()
		cmds = append(cmds, m.spin.Tick)
	}
	return tea.Batch(cmds...)
}

// SetIndex adds detect's results to the history on screen.
func (m *Model) SetIndex(idx *Index) tea.Cmd {
	if m.d.h == nil {
		return nil
	}
	for _, t := range m.tabs {
		t.remember()
	}
	m.d.idx = idx
	m.d.analysisErr = ""
	var cmds []tea.Cmd
	for _, t := range m.tabs {
		cmds = append(cmds, t.load(true, m.filter))
	}
	m.layout() // the lists' widths come with the index
	m.syncDetail(true)
	return tea.Batch(cmds...)
}

// SetAnalysisError shows why detect failed on the history on screen: the
// Invocations, Timeline and Findings tabs say so rather than "analyzing";
// the events stay.
func (m *Model) SetAnalysisError(text string) {
	if m.d.h == nil || m.d.idx != nil {
		return
	}
	m.d.analysisErr = text
	m.syncDetail(true)
}

// SetFollowing marks the view as following the run (shown in the header).
func (m *Model) SetFollowing(on bool) { m.following = on }

// History returns the history on screen, or nil.
func (m *Model) History() *catalyst.History { return m.d.h }

// Index returns the index on screen, or nil.
func (m *Model) Index() *Index { return m.d.idx }

// OpenSummary is the status line for a run just opened or analyzed: how
// many invocations are flagged, and that the worst is under the cursor; ""
// while detect runs or when the history has no invocations.
func (m *Model) OpenSummary() string {
	x := m.d.idx
	if x == nil || len(x.Report.Invocations) == 0 {
		return ""
	}
	n := len(x.Report.Invocations)
	if x.flagged == 0 {
		return "no invocation flagged (" + format.Plural(n, "invocation") + ")"
	}
	return format.Count(x.flagged) + " of " + format.Plural(n, "invocation") +
		" flagged; the worst is selected"
}

// Context names what a status message about the view is about: the tab
// and the filter. A message made for another tab or filter is stale.
func (m *Model) Context() string {
	return m.tabs[m.tab].title() + "\x00" + m.filterText()
}

// Tab returns the current tab.
func (m *Model) Tab() int { return m.tab }

// SetTab switches to a tab, keeping the selected invocation between the
// Invocations and Timeline tabs.
func (m *Model) SetTab(t int) tea.Cmd {
	from := m.tab
	n := len(m.tabs)
	m.tab = (t%n + n) % n
	inv := m.tabs[TabInvocations].(*invocationsTab)
	tl := m.tabs[TabTimeline].(*timelineTab)
	switch {
	case from == TabInvocations && m.tab == TabTimeline:
		if sel := inv.selectedInvocation(); sel >= 0 {
			tl.selectInvocation(sel)
		}
	case from == TabTimeline && m.tab == TabInvocations:
		if sel := tl.selected(); sel >= 0 {
			inv.selectRow(invRow{sel, -1})
		}
	}
	cmd := m.tabs[m.tab].applyFilter(m.filter)
	m.syncDetail(false)
	return cmd
}

// Capturing reports whether the view is reading text (the filter), so the
// root passes every key to it.
func (m *Model) Capturing() bool { return m.typing }

// DetailLines returns the detail pane's content (for tests).
func (m *Model) DetailLines() []string { return m.detail.Lines() }

// Selection returns what is selected in the current tab ("" for nothing),
// e.g. "event:12" or "invocation:3".
func (m *Model) Selection() string { return m.tabs[m.tab].selection() }

// CopyTarget is what y copies in the view: on an invocation its task
// execution id, on an event its JSON, on a finding the finding and its
// evidence as Markdown; with nothing selected, the run id. what says what
// it is; with text "", why nothing can be copied ("" for no reason).
func (m *Model) CopyTarget() (text, what string) {
	if m.absent != nil {
		return m.absent.ID, "the child run id"
	}
	if m.d.h == nil {
		return "", ""
	}
	if text, what = m.tabs[m.tab].copyTarget(); text != "" || what != "" {
		return text, what
	}
	if id := m.d.h.Run.ID; id != "" {
		return id, "the run id"
	}
	return "", "nothing copied: this history does not name its run id"
}

// SetSize sets the size the view renders at.
func (m *Model) SetSize(width, height int) {
	m.width, m.height = width, height
	m.d.wide = width >= extraColumns
	m.layout()
}

// The run view is a pane of the root's stack.
var _ common.Pane = (*Model)(nil)

// Update handles a message for the run view: its keys, pastes and mouse
// events, its spinner, and the messages it sent itself.
func (m *Model) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case spinner.TickMsg:
		if m.loading == "" && (m.d.h == nil || m.d.idx != nil || m.d.analysisErr != "") {
			return nil
		}
		var cmd tea.Cmd
		m.spin, cmd = m.spin.Update(msg)
		m.d.spinner = m.spin.View()
		return cmd
	case jumpToEventMsg:
		if msg.to == m.d {
			m.jumpToEvent(msg.event)
		}
	case jumpToInvocationMsg:
		if msg.to == m.d {
			m.jumpToInvocation(msg.invocation)
		}
	case jumpToCodeMsg:
		if msg.to == m.d {
			m.jumpToCode(msg)
		}
	case showExcerptMsg:
		if msg.to == m.d {
			m.resizeDetail(detailFull, false)
			m.excerptOpen = true
		}
	case filteredMsg:
		if msg.to == m.d {
			m.filteredRows(msg)
		}
	case tea.KeyPressMsg:
		cmd, _ := m.Keys().Handle(msg)
		m.syncDetail(false)
		return cmd
	case tea.PasteMsg:
		return m.paste(msg)
	case tea.MouseClickMsg:
		cmd := m.click(msg.Mouse())
		m.syncDetail(false)
		return cmd
	case tea.MouseWheelMsg:
		m.wheel(msg.Mouse())
		m.syncDetail(false)
	}
	return nil
}

// filteredRows gives a tab the rows a command computed for it.
func (m *Model) filteredRows(msg filteredMsg) {
	switch t := m.tabs[msg.tab].(type) {
	case *invocationsTab:
		t.filteredRows(msg)
	case *eventsTab:
		t.filteredRows(msg)
	case *findingsTab:
		t.filteredRows(msg)
	case *codeTab:
		t.filteredRows(msg)
	}
	m.syncDetail(false)
}

// resizeDetail sets the detail pane's size; from the p key (cycle) a
// hidden pane that has no room is skipped over.
func (m *Model) resizeDetail(size int, cycle bool) {
	m.detailSize = size
	m.excerptOpen = false
	if cycle && size == detailHidden && m.fitted.dw == 0 {
		m.detailSize = detailNormal
	}
	switch m.detailSize {
	case detailFull:
		m.setFocus(true)
	case detailHidden:
		m.setFocus(false)
	}
	m.layout()
}

// setFocus moves the keys' focus to the detail pane (on) or the list.
func (m *Model) setFocus(on bool) {
	m.focusDetail = on
	m.detail.SetFocused(on)
}

// paste adds pasted text to the filter while it is being typed.
func (m *Model) paste(msg tea.PasteMsg) tea.Cmd {
	if m.typing && m.input.Update(msg) {
		f := m.filter
		f.query = m.input.Value()
		cmd := m.setFilter(f)
		m.syncDetail(false)
		return cmd
	}
	return nil
}

// setFilter applies f to every tab, so that each tab's count says how many
// of its rows match (large lists are filtered in commands).
func (m *Model) setFilter(f filterState) tea.Cmd {
	m.filter = f
	cmds := make([]tea.Cmd, 0, len(m.tabs))
	for _, t := range m.tabs {
		cmds = append(cmds, t.applyFilter(f))
	}
	return tea.Batch(cmds...)
}

// jumpToEvent selects event ev in the Events tab, clearing the filter if it
// hides the event.
func (m *Model) jumpToEvent(ev int) {
	if m.d.h == nil || ev < 0 || ev >= m.d.h.Len() {
		return
	}
	m.tab = TabEvents
	t := m.tabs[TabEvents].(*eventsTab)
	if t.applyFilter(m.filter) != nil || !t.selectEvent(ev) {
		// The filter hides the event (or is still being computed): clear
		// it, which is immediate.
		m.clearFilterNow()
		t.selectEvent(ev)
	}
	m.syncDetail(false)
}

// jumpToInvocation selects and expands invocation inv in the Invocations tab.
func (m *Model) jumpToInvocation(inv int) {
	m.tab = TabInvocations
	t := m.tabs[TabInvocations].(*invocationsTab)
	if t.applyFilter(m.filter) != nil || !t.selectInvocation(inv, true) {
		m.clearFilterNow()
		t.selectInvocation(inv, true)
	}
	m.syncDetail(false)
}

// jumpToCode selects an activity's row in the Code tab (at the place a
// finding's code evidence names), clearing the filter if it hides it.
func (m *Model) jumpToCode(msg jumpToCodeMsg) {
	if len(m.tabs) <= TabCode {
		return
	}
	m.tab = TabCode
	t := m.tabs[TabCode].(*codeTab)
	if t.applyFilter(m.filter) != nil || !t.selectFor(msg.activity, msg.loc) {
		m.clearFilterNow()
		t.selectFor(msg.activity, msg.loc)
	}
	m.syncDetail(false)
}

// clearFilterNow clears the filter on every tab; with no filter, no tab
// needs a command (a sorted large list keeps its rows).
func (m *Model) clearFilterNow() {
	m.filter = filterState{}
	for _, t := range m.tabs {
		t.applyFilter(m.filter)
	}
}

// syncDetail refreshes the detail pane when the selection changed, or when
// the data changed (keep: the same row with fresh data keeps its scroll).
func (m *Model) syncDetail(dataChanged bool) {
	m.fit()
	if m.fitted.dw == 0 {
		m.detailSel = ""
		return
	}
	t := m.tabs[m.tab]
	sel := string(rune('0'+m.tab)) + t.selection() + "\x00" + m.filter.query
	if sel == m.detailSel && !dataChanged {
		return
	}
	title, lines := t.describe()
	if q := m.filter.query; q != "" && t.selection() != "" {
		lines = append(m.matchedLines(t.matches(q)), lines...)
	}
	m.detail.SetContent(title, lines, sel == m.detailSel)
	m.detailSel = sel
}

// matchedLines say which fields of the selected row the filter matched.
func (m *Model) matchedLines(fields []string) []string {
	q := "/" + safetext.Line(m.filter.query)
	text := q + " matched " + strings.Join(fields, ", ")
	if len(fields) == 0 {
		text = q + " matched the row's other facts (a toggle, or a field not shown)"
	}
	return []string{m.c.Styles.Label.Render(text), ""}
}

// layout sizes the tabs and the detail pane for the current size, and
// redraws the detail pane (it may have been hidden).
func (m *Model) layout() {
	m.fit()
	m.detailSel = ""
	m.syncDetail(false)
}

// areas are the sizes of the list (its heading included) and of the detail
// pane (its title included); a hidden detail pane has width 0, a hidden
// list width 0.
type areas struct{ lw, lh, dw, dh int }

// Widths of the wide layout: the list takes what its columns need,
// between minListWidth and what leaves the detail pane minDetailWidth; a
// list of free text (Events, Timeline) takes listShare/100 of the width,
// leaving the detail pane at most maxDetailWidth columns. A wide detail
// pane takes two thirds.
const (
	listShare      = 56
	minListWidth   = 40
	minDetailWidth = 44
	maxDetailWidth = 100
)

// Heights of the stacked layout: the list shows at least minListLines
// lines (its heading included) and, when it has the rows, up to
// comfortListLines or half the height; the detail pane keeps at least
// minDetailLines.
const (
	minListLines     = 6
	comfortListLines = 9
	minDetailLines   = 4
)

// fit applies the areas for the current size, detail size and rows; it
// costs nothing when they did not change.
func (m *Model) fit() {
	a := m.areas()
	if a == m.fitted {
		return
	}
	m.fitted = a
	for _, t := range m.tabs {
		t.setHeight(max(a.lh-1, 0))
	}
	m.detail.SetSize(a.dw, a.dh)
	if a.dw == 0 && m.focusDetail {
		m.setFocus(false)
	}
	if a.lw == 0 && a.dw > 0 && !m.focusDetail {
		m.setFocus(true)
	}
}

// body is the height below the header and the tab bar.
func (m *Model) body() int { return max(m.height-m.headerHeight()-1, 0) }

// areas returns the list's and the detail pane's sizes. On wide terminals
// the detail pane is beside the list; on narrow ones it is below the list,
// which gets as many lines as it has rows, between a floor and a
// comfortable share. The detail pane is hidden when sized so, or when
// there is no room; full, it takes the whole body.
func (m *Model) areas() areas {
	body := m.body()
	if m.d.h == nil || m.detailSize == detailHidden {
		return areas{lw: m.width, lh: body}
	}
	if m.detailSize == detailFull {
		return areas{lh: body, dw: m.width, dh: body}
	}
	if m.width >= wideLayout {
		lw := m.listWidth()
		return areas{lw: lw, lh: body, dw: m.width - lw - 1, dh: body}
	}
	if body < minListLines+1+minDetailLines {
		return areas{lw: m.width, lh: body}
	}
	rows := m.tabs[m.tab].rowCount() + 1
	lh := min(rows, max(comfortListLines, body/2))
	if m.detailSize == detailWide {
		lh = body / 3
	}
	lh = min(max(lh, minListLines), body-1-minDetailLines)
	return areas{lw: m.width, lh: lh, dw: m.width, dh: body - lh - 1}
}

// listWidth is the list's width beside the detail pane: what the tab's
// columns need, the rest to the detail pane.
func (m *Model) listWidth() int {
	if m.detailSize == detailWide {
		return max(m.width/3, minListWidth)
	}
	most := m.width - 1 - minDetailWidth
	if need := m.tabs[m.tab].need(m.body()); need > 0 {
		lw := min(max(need, minListWidth), most)
		if u, ok := m.tabs[m.tab].(user); ok {
			// The columns that fit may leave blank width (one too wide
			// to show was hidden): it goes to the detail pane.
			lw = max(u.used(lw), minListWidth)
		}
		return lw
	}
	return min(max(m.width*listShare/100, m.width-1-maxDetailWidth), most)
}

// headerHeight is the number of lines above the tab bar: the run, why it
// failed (when it did), its facts and its link.
func (m *Model) headerHeight() int {
	if m.d.h != nil && format.RunWhy(m.d.h) != "" {
		return 4
	}
	return 3
}

// View renders the run view at its size: exactly height lines.
func (m *Model) View() string {
	if m.width <= 0 || m.height <= 0 {
		return ""
	}
	lines := make([]string, 0, m.height)
	lines = append(lines, m.header()...)
	lines = append(lines, m.tabBar())
	a := m.areas()
	switch {
	case a.lw == 0 && a.dw > 0:
		for _, l := range strings.Split(m.detail.View(), "\n") {
			lines = append(lines, format.Pad(l, m.width))
		}
	case a.dw == 0:
		lines = append(lines, m.list(a.lw, a.lh)...)
	case m.width >= wideLayout:
		body := m.list(a.lw, a.lh)
		side := strings.Split(m.detail.View(), "\n")
		sep := m.c.Styles.Faint.Render("│")
		for i := range body {
			d := ""
			if i < len(side) {
				d = side[i]
			}
			lines = append(lines, body[i]+sep+format.Pad(d, a.dw))
		}
	default:
		lines = append(lines, m.list(a.lw, a.lh)...)
		lines = append(lines, m.c.Styles.Faint.Render(strings.Repeat("─", m.width)))
		for _, l := range strings.Split(m.detail.View(), "\n") {
			lines = append(lines, format.Pad(l, a.dw))
		}
	}
	for len(lines) < m.height {
		lines = append(lines, "")
	}
	return strings.Join(lines[:m.height], "\n")
}

// list renders the list area: the tab's rows, or why there are none.
func (m *Model) list(w, h int) []string {
	var lines []string
	switch {
	case m.absent != nil:
		lines = []string{""}
		for _, l := range m.absentLines {
			for _, wl := range format.Wrap(l, max(w-1, 1)) {
				lines = append(lines, " "+wl)
			}
		}
	case m.d.h == nil && m.loadErr != "":
		// The whole error, wrapped: it says what to do next, usually at
		// its end.
		lines = []string{""}
		for _, l := range format.Wrap(safetext.Line(m.loadErr), max(w-1, 1)) {
			lines = append(lines, " "+m.c.Styles.Error.Render(l))
		}
		lines = append(lines, " "+format.Fit("press R to retry, esc to go back", w-1))
	case m.d.h == nil:
		lines = []string{"", " " + format.Fit(m.spin.View()+" "+m.loadingText(), w-1)}
	default:
		lines = m.tabs[m.tab].lines(w, h)
	}
	for i := range lines {
		lines[i] = format.Pad(lines[i], w)
	}
	for len(lines) < h {
		lines = append(lines, strings.Repeat(" ", w))
	}
	return lines[:h]
}

// loadingText says what the view waits on, for how long, and what the
// source is doing (a retry).
func (m *Model) loadingText() string {
	what := m.loading
	if what == "" {
		return "loading: no run open"
	}
	return "loading run " + what + m.c.Waiting(m.loadSince) + "…"
}

// tabBar renders the tab names with their counts, the active one marked by
// brackets and reverse video, and on the right the position, the sort and
// the filter; or the filter being typed, or the sort menu.
func (m *Model) tabBar() string {
	if m.d.h == nil {
		return strings.Repeat(" ", m.width)
	}
	var b strings.Builder
	for i, t := range m.tabs {
		name := t.title() + " " + t.count()
		if i == m.tab {
			b.WriteString(m.c.Styles.TabOn.Render("[" + name + "]"))
		} else {
			b.WriteString(m.c.Styles.TabOff.Render(" " + name + " "))
		}
		b.WriteString(" ")
	}
	left := b.String()
	var right string
	switch {
	case m.typing:
		right = m.input.View(max(m.width/2, 10))
	case m.sorting:
		cols, s := m.tabs[m.tab].sortState()
		return format.Pad(m.c.Styles.Info.Render(format.Fit(sortMenu(cols, s), m.width)), m.width)
	default:
		// The tab's note shortens, then goes, before the counts are cut.
		right = m.tabBarRight("")
		if n, ok := m.tabs[m.tab].(noter); ok {
			for _, long := range []bool{true, false} {
				if r := m.tabBarRight(n.note(long)); format.Width(r) < m.width-format.Width(left) {
					right = r
					break
				}
			}
		}
	}
	room := m.width - format.Width(left)
	if room < format.Width(right)+1 {
		return format.Pad(format.Fit(left, m.width-min(format.Width(right), m.width/2)-1)+" "+format.Fit(right, m.width/2), m.width)
	}
	return left + format.PadLeft(right, room)
}

// user is a tab whose columns, laid out at a width, may use less of it.
type user interface {
	// used is the width the list's columns take when given width.
	used(width int) int
}

// noter is a tab with a note for the tab bar's right side, before its
// position (the Timeline's zoom); long or short, "" for none.
type noter interface {
	note(long bool) string
}

// tabBarRight is the tab bar's right side: the filter, the sort, the
// tab's note and its position.
func (m *Model) tabBarRight(note string) string {
	var parts []string
	if f := m.filterText(); f != "" {
		parts = append(parts, f)
	}
	if s := sortText(m.tabs[m.tab].sortState()); s != "" {
		parts = append(parts, s)
	}
	if note != "" {
		parts = append(parts, note)
	}
	if p := m.tabs[m.tab].position(); p != "" {
		parts = append(parts, p)
	}
	return strings.Join(parts, "  ")
}

// tabAt returns the tab whose name is at column x of the tab bar, -1 for
// none.
func (m *Model) tabAt(x int) int {
	at := 0
	for i, t := range m.tabs {
		w := format.Width(t.title()+" "+t.count()) + 2
		if x >= at && x < at+w {
			return i
		}
		at += w + 1
	}
	return -1
}

// filterText describes the active filter ("filter: /charge failed").
func (m *Model) filterText() string {
	var parts []string
	if m.filter.query != "" {
		parts = append(parts, "/"+safetext.Line(m.filter.query))
	}
	if m.filter.failed {
		parts = append(parts, "failed")
	}
	if m.filter.retried {
		parts = append(parts, "retried")
	}
	if m.filter.flagged {
		parts = append(parts, "flagged")
	}
	if len(parts) == 0 {
		return ""
	}
	return "filter: " + strings.Join(parts, " ")
}

// click selects what was clicked: a tab in the tab bar, a row of the list
// (the detail pane takes the focus when it is clicked).
func (m *Model) click(ev tea.Mouse) tea.Cmd {
	if ev.Button != tea.MouseLeft || m.d.h == nil {
		return nil
	}
	top := m.headerHeight()
	if ev.Y == top {
		if t := m.tabAt(ev.X); t >= 0 && t != m.tab {
			return m.SetTab(t)
		}
		return nil
	}
	y := ev.Y - top - 1
	a := m.fitted
	switch m.areaAt(ev.X, y) {
	case areaList:
		m.setFocus(false)
		tbl := m.tabs[m.tab].table()
		if row := tbl.Offset() + y - 1; y >= 1 && row < tbl.Offset()+tbl.Height() && row < tbl.Len() {
			tbl.SetCursor(row)
		}
	case areaDetail:
		m.setFocus(a.dw > 0)
	}
	return nil
}

// wheel scrolls the pane under the pointer.
func (m *Model) wheel(ev tea.Mouse) {
	if m.d.h == nil {
		return
	}
	const step = 3
	delta := step
	switch ev.Button {
	case tea.MouseWheelUp:
		delta = -step
	case tea.MouseWheelDown:
	default:
		return
	}
	switch m.areaAt(ev.X, ev.Y-m.headerHeight()-1) {
	case areaList:
		m.tabs[m.tab].table().Move(delta)
	case areaDetail:
		if delta > 0 {
			m.detail.ScrollDown(delta)
		} else {
			m.detail.ScrollUp(-delta)
		}
	}
}

// Areas of the body a pointer can be over.
const (
	areaNone = iota
	areaList
	areaDetail
)

// areaAt returns the area at column x, body line y.
func (m *Model) areaAt(x, y int) int {
	a := m.fitted
	switch {
	case y < 0:
		return areaNone
	case a.lw == 0:
		return areaDetail
	case a.dw == 0:
		return areaList
	case m.width >= wideLayout && x < a.lw:
		return areaList
	case m.width >= wideLayout && x > a.lw:
		return areaDetail
	case m.width < wideLayout && y < a.lh:
		return areaList
	case m.width < wideLayout && y > a.lh:
		return areaDetail
	}
	return areaNone
}

// Legend explains the run view's marks for the help screen.
func (m *Model) Legend() []common.Legend {
	sev := format.SeverityGlyph(detect.SeverityHigh) + " " + format.SeverityGlyph(detect.SeverityMedium) +
		" " + format.SeverityGlyph(detect.SeverityLow)
	timeline := common.Legend{Title: "Timeline"}
	for _, l := range format.TimelineLegend {
		timeline.Marks = append(timeline.Marks, [2]string{l[0], l[2]})
	}
	out := []common.Legend{
		{Title: "Marks", Marks: [][2]string{
			{sev, "high, medium, low severity"},
			{format.FindingWord(detect.FindingDuplicateSideEffect, detect.ConfidenceProbable), "probable duplicate side effect"},
			{format.FindingWord(detect.FindingDuplicateSideEffect, detect.ConfidenceObserved), "duplicate seen in the history"},
			{format.FindingWord(detect.FindingUnknownOutcome, detect.ConfidencePossible), "attempt with no outcome"},
			{"▸ ▾", "attempts folded, shown"},
			{format.DerivedMark + "Name", "the call a row closes (derived)"},
			{"+30.52s", "time since the start"},
			{"withheld", "payload not shared (level in DETAILS)"},
			{"↑ ↓", "the column sorted, its direction"},
			{"+ (events)", "new since the last poll"},
		}},
		timeline,
	}
	switch sp := m.d.spans(); {
	case sp.Rebuilt():
		// A whole-second source whose spans were rebuilt from its elapsed
		// column: said where +30.52s is.
		out[0].Marks = slices.Insert(out[0].Marks, 6, [2]string{"~30s <1s", "not rebuilt from elapsed: ±1s"})
	case sp.Coarse():
		// A whole-second source's spans: said where +30.52s is.
		out[0].Marks = slices.Insert(out[0].Marks, 6, [2]string{"~30s <1s", "whole-second times: ±1s"})
	}
	if m.d.code != nil {
		out = append(out, common.Legend{Title: "Code", Marks: [][2]string{
			{sev, "a hazard of the activity's code, by severity"},
			{codeMark(&codeRow{kind: codeRefusal}), "a write that refuses its own duplicate"},
			{codeMark(&codeRow{kind: codeClean}), "an activity with no hazard found"},
			{codeMark(&codeRow{kind: codeNotFound}), "an activity the source does not define"},
			{"›", "the hazard's line, in the excerpt"},
		}})
	}
	return out
}
