// Package runview is the run view: a header naming the run, its data-sharing
// level and console link, and three tabs — Invocations (one row per logical
// call, expandable into its attempts), Events (the history in engine order,
// with the Dapr CLI's column names) and Findings — with a detail pane that
// shows the selected row in full.
package runview

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/safetext"
	"github.com/twice-cli/twice/detect"
	"github.com/twice-cli/twice/tui/common"
	"github.com/twice-cli/twice/tui/detail"
	"github.com/twice-cli/twice/tui/format"
	"github.com/twice-cli/twice/tui/lineinput"
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

// asyncFilter is a tab that filters a large list in a command: it takes the
// rows the command computed.
type asyncFilter interface {
	filteredRows(msg filteredMsg)
}

// Tabs of the run view.
const (
	TabInvocations = iota
	TabEvents
	TabFindings
	tabCount
)

// wideLayout is the width from which the detail pane sits beside the list
// rather than below it: from there the list keeps its main columns and the
// detail pane gets about 48 columns, enough for a finding's explanation to
// read as prose. Narrower, the pane below the list is the wider of the two.
const wideLayout = 110

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
}

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

// filterState is the filter applied to the current tab.
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
	// position is "cursor/rows" for the tab bar.
	position() string
	setHeight(h int)
	// rowCount is the number of rows the list shows.
	rowCount() int
	// remember notes the selection before the data changes; load takes the
	// new data and applies f; with keep it restores the remembered selection
	// and scroll position (a poll of the same run).
	remember()
	load(keep bool, f filterState) tea.Cmd
	// applyFilter shows the rows matching f; for a large list it returns
	// the command that computes them.
	applyFilter(f filterState) tea.Cmd
	update(msg tea.KeyPressMsg) tea.Cmd
	// lines renders the heading and the rows, exactly height lines.
	lines(width, height int) []string
	// selection identifies the selected row, and describe renders it for
	// the detail pane.
	selection() string
	describe() (title string, lines []string)
	keys() []key.Binding
}

// Model is the run view.
type Model struct {
	c    *common.Common
	d    *viewData
	tabs [tabCount]tabPane
	tab  int

	detail     detail.Model
	showDetail bool
	detailSel  string // what the detail pane shows (tab + selection)
	fitted     areas  // the areas the tabs and the detail pane are sized for

	filter filterState
	input  lineinput.Model
	typing bool

	spin      spinner.Model
	loading   string // what is loading ("" = nothing)
	loadErr   string // why the run could not be loaded
	following bool

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
		showDetail: true,
		input:      in,
		spin:       spinner.New(spinner.WithSpinner(spinner.Line)),
	}
	m.tabs[TabInvocations] = newInvocationsTab(d)
	m.tabs[TabEvents] = newEventsTab(d)
	m.tabs[TabFindings] = newFindingsTab(d)
	return m
}

// SetLoading shows that a run is being fetched (what names it, e.g. its id)
// and returns the spinner's first tick.
func (m *Model) SetLoading(what string) tea.Cmd {
	m.loading = safetext.Line(what)
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
	m.syncDetail(true)
	return tea.Batch(cmds...)
}

// SetAnalysisError shows why detect failed on the history on screen: the
// Invocations and Findings tabs say so rather than "analyzing"; the events
// stay.
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

// Tab returns the current tab.
func (m *Model) Tab() int { return m.tab }

// SetTab switches to a tab, applying the filter to it.
func (m *Model) SetTab(t int) tea.Cmd {
	m.tab = (t%tabCount + tabCount) % tabCount
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

// SetSize sets the size the view renders at.
func (m *Model) SetSize(width, height int) {
	m.width, m.height = width, height
	m.layout()
}

// The run view is a pane of the root's stack.
var _ common.Pane = (*Model)(nil)

// Update handles a message for the run view: its keys and pastes, its
// spinner, and the messages it sent itself.
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
	case filteredMsg:
		if t, ok := m.tabs[msg.tab].(asyncFilter); ok && msg.to == m.d {
			t.filteredRows(msg)
			m.syncDetail(false)
		}
	case tea.KeyPressMsg:
		cmd := m.handleKey(msg)
		m.syncDetail(false)
		return cmd
	case tea.PasteMsg:
		return m.paste(msg)
	}
	return nil
}

// handleKey routes a key press: the filter input first while typing, then
// the view's own keys, the detail pane's, and the current tab's.
func (m *Model) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	if m.typing {
		return m.updateInput(msg)
	}
	k := &m.c.Keys
	switch {
	case key.Matches(msg, k.NextTab):
		return m.SetTab(m.tab + 1)
	case key.Matches(msg, k.PrevTab):
		return m.SetTab(m.tab - 1)
	case key.Matches(msg, k.Filter):
		m.typing = true
		m.input.SetValue(m.filter.query)
		return nil
	case key.Matches(msg, k.Failed):
		return m.setFilter(filterState{m.filter.query, !m.filter.failed, m.filter.retried, m.filter.flagged})
	case key.Matches(msg, k.Retried):
		return m.setFilter(filterState{m.filter.query, m.filter.failed, !m.filter.retried, m.filter.flagged})
	case key.Matches(msg, k.Flagged):
		return m.setFilter(filterState{m.filter.query, m.filter.failed, m.filter.retried, !m.filter.flagged})
	case key.Matches(msg, k.Detail):
		m.showDetail = !m.showDetail
		m.layout()
	case key.Matches(msg, k.Back):
		if m.filter.active() {
			return m.setFilter(filterState{})
		}
		return func() tea.Msg { return common.BackMsg{} }
	case m.detail.Update(msg):
	default:
		return m.tabs[m.tab].update(msg)
	}
	return nil
}

// updateInput handles a key while the filter is being typed: enter keeps
// the filter, esc clears it, anything else edits it (applied as typed).
func (m *Model) updateInput(msg tea.KeyPressMsg) tea.Cmd {
	switch msg.String() {
	case "enter":
		m.typing = false
		return nil
	case "esc":
		m.typing = false
		return m.setFilter(filterState{"", m.filter.failed, m.filter.retried, m.filter.flagged})
	}
	if m.input.Update(msg) {
		f := m.filter
		f.query = m.input.Value()
		return m.setFilter(f)
	}
	return nil
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

func (m *Model) setFilter(f filterState) tea.Cmd {
	m.filter = f
	return m.tabs[m.tab].applyFilter(f)
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
		m.filter = filterState{}
		t.applyFilter(m.filter)
		t.selectEvent(ev)
	}
	m.syncDetail(false)
}

// jumpToInvocation selects and expands invocation inv in the Invocations tab.
func (m *Model) jumpToInvocation(inv int) {
	m.tab = TabInvocations
	t := m.tabs[TabInvocations].(*invocationsTab)
	if t.applyFilter(m.filter) != nil || !t.selectInvocation(inv, true) {
		m.filter = filterState{}
		t.applyFilter(m.filter)
		t.selectInvocation(inv, true)
	}
	m.syncDetail(false)
}

// syncDetail refreshes the detail pane when the selection changed, or when
// the data changed (keep: the same row with fresh data keeps its scroll).
func (m *Model) syncDetail(dataChanged bool) {
	m.fit()
	if !m.showDetail {
		m.detailSel = ""
		return
	}
	t := m.tabs[m.tab]
	sel := string(rune('0'+m.tab)) + t.selection()
	if sel == m.detailSel && !dataChanged {
		return
	}
	title, lines := t.describe()
	m.detail.SetContent(title, lines, sel == m.detailSel)
	m.detailSel = sel
}

// headerHeight is the number of lines above the tab bar.
const headerHeight = 3

// layout sizes the tabs and the detail pane for the current size, and
// redraws the detail pane (it may have been hidden).
func (m *Model) layout() {
	m.fit()
	m.detailSel = ""
	m.syncDetail(false)
}

// areas are the sizes of the list (its heading included) and of the detail
// pane (its title included); a hidden detail pane has width 0.
type areas struct{ lw, lh, dw, dh int }

// Split of the wide layout: the list takes listShare/100 of the width, at
// least minListWidth columns, and the detail pane the rest up to
// maxDetailWidth columns (longer lines are hard to read).
const (
	listShare      = 56
	minListWidth   = 60
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

// fit applies the areas for the current size, detail toggle and rows; it
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
}

// areas returns the list's and the detail pane's sizes. On wide terminals
// the detail pane is beside the list, which gets listShare of the width
// (enough for the Invocations tab's columns at 120); on narrow ones it is
// below the list, which gets as many lines as it has rows, between a floor
// and a comfortable share, and the detail pane the rest. The detail pane is
// hidden when toggled off or when there is no room.
func (m *Model) areas() areas {
	body := max(m.height-headerHeight-1, 0)
	if !m.showDetail || body < minListLines+1+minDetailLines || m.d.h == nil {
		return areas{lw: m.width, lh: body}
	}
	if m.width >= wideLayout {
		lw := max(m.width*listShare/100, minListWidth, m.width-1-maxDetailWidth)
		return areas{lw: lw, lh: body, dw: m.width - lw - 1, dh: body}
	}
	rows := m.tabs[m.tab].rowCount() + 1
	lh := min(rows, max(comfortListLines, body/2))
	lh = min(max(lh, minListLines), body-1-minDetailLines)
	return areas{lw: m.width, lh: lh, dw: m.width, dh: body - lh - 1}
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
	lw, dw := a.lw, a.dw
	body := m.body(lw, a.lh)
	switch {
	case dw == 0:
		lines = append(lines, body...)
	case m.width >= wideLayout:
		side := strings.Split(m.detail.View(), "\n")
		sep := m.c.Styles.Faint.Render("│")
		for i := range body {
			d := ""
			if i < len(side) {
				d = side[i]
			}
			lines = append(lines, body[i]+sep+format.Pad(d, dw))
		}
	default:
		lines = append(lines, body...)
		lines = append(lines, m.c.Styles.Faint.Render(strings.Repeat("─", m.width)))
		for _, l := range strings.Split(m.detail.View(), "\n") {
			lines = append(lines, format.Pad(l, dw))
		}
	}
	for len(lines) < m.height {
		lines = append(lines, "")
	}
	return strings.Join(lines[:m.height], "\n")
}

// body renders the list area: the tab's rows, or why there are none.
func (m *Model) body(w, h int) []string {
	var lines []string
	switch {
	case m.d.h == nil && m.loadErr != "":
		// The whole error, wrapped: it says what to do next, usually at
		// its end.
		lines = []string{""}
		for _, l := range format.Wrap(safetext.Line(m.loadErr), max(w-1, 1)) {
			lines = append(lines, " "+m.c.Styles.Error.Render(l))
		}
		lines = append(lines, " "+format.Fit("press R to retry, esc to go back", w-1))
	case m.d.h == nil:
		what := m.loading
		if what == "" {
			what = "no run open"
		}
		lines = []string{"", " " + format.Fit(m.spin.View()+" loading "+what+"…", w-1)}
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

// tabBar renders the tab names with their counts, the active one marked by
// brackets and reverse video, and on the right the position and filter.
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
	if m.typing {
		right = m.input.View(max(m.width/2, 10))
	} else {
		right = m.filterText()
		if p := m.tabs[m.tab].position(); p != "" && m.d.h != nil {
			if right != "" {
				right += "  "
			}
			right += p
		}
	}
	room := m.width - format.Width(left)
	if room < format.Width(right)+1 {
		return format.Pad(format.Fit(left, m.width-min(format.Width(right), m.width/2)-1)+" "+format.Fit(right, m.width/2), m.width)
	}
	return left + format.PadLeft(right, room)
}

// filterText describes the active filter ("/charge failed retried").
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

// ShortHelp returns the keys for the key bar (the root adds help and quit).
func (m *Model) ShortHelp() []key.Binding {
	k := &m.c.Keys
	switch {
	case m.typing:
		return []key.Binding{
			key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "keep filter")),
			key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "clear filter")),
		}
	case m.d.h == nil:
		retry, back := k.Refresh, k.Back
		retry.SetHelp("R", "retry")
		back.SetHelp("esc", "back")
		return []key.Binding{retry, back}
	}
	out := append([]key.Binding{}, m.tabs[m.tab].keys()...)
	return append(out, k.NextTab, k.Filter, k.Failed, k.Flagged, k.Open, k.Back)
}

// Legend explains the run view's marks for the help screen.
func (m *Model) Legend() []common.Legend {
	sev := format.SeverityGlyph(detect.SeverityHigh) + " " + format.SeverityGlyph(detect.SeverityMedium) +
		" " + format.SeverityGlyph(detect.SeverityLow)
	return []common.Legend{
		{Title: "Marks", Marks: [][2]string{
			{sev, "high, medium, low severity"},
			{format.FindingWord(detect.FindingDuplicateSideEffect, detect.ConfidenceProbable), "probable duplicate side effect"},
			{format.FindingWord(detect.FindingDuplicateSideEffect, detect.ConfidenceObserved), "duplicate seen in the history"},
			{format.FindingWord(detect.FindingUnknownOutcome, detect.ConfidencePossible), "attempt with no outcome"},
			{"▸ ▾", "attempts folded, shown"},
			{"+30.52s", "time since the start"},
			{"‹withheld›", "payload not shared"},
			{"+ (events)", "new since the last poll"},
		}},
	}
}

// KeyGroups returns every key of the run view in titled groups.
func (m *Model) KeyGroups() []common.KeyGroup {
	k := &m.c.Keys
	return []common.KeyGroup{
		{Title: "Move", Keys: k.Navigation()},
		{Title: "Run view", Keys: []key.Binding{k.Enter, k.Back, k.NextTab, k.PrevTab, k.Detail, k.DetailDown, k.DetailUp}},
		{Title: "Filter", Keys: []key.Binding{k.Filter, k.Failed, k.Retried, k.Flagged}},
		{Title: "Run", Keys: []key.Binding{k.Open, k.CopyID, k.CopyLink, k.Refresh, k.Follow}},
		{Title: "App", Keys: []key.Binding{k.Help, k.Quit, k.ForceQuit}},
	}
}
