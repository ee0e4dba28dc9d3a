// Package runview is the run view: a header naming the run (and, for a run
// that failed, was terminated or stalled, why), its data-sharing level and
// console link, and four tabs — Invocations (one row per logical call,
// expandable into its attempts), Timeline (the attempts on one time axis),
// Events (the history in engine order, with the Dapr CLI's column names)
// and Findings — and a fifth, Code, when the workflow and activity source
// was given (SetCode) — with a detail pane that shows the selected row in
// full, can be widened to the whole screen, and takes the focus to scroll.
//
// A tab is a value of the tab contract (tab.go): its rows (a list.Model and
// its source), its selected row in full, its keys. The view does the rest
// for every tab alike: runview.go the view and its data, layout.go what it
// draws where, mouse.go the pointer, keys.go its keys and states; a file
// per tab (invocations.go, timeline.go, events.go, findings.go,
// codetab.go).
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
	"github.com/twice-cli/twice/tui/list"
)

// The run view's own messages are addressed to the view that sent them (its
// viewData): every pane on the root's stack sees them, and a view must not
// act on another's (common.Pane).

// OpenChildMsg asks the root to open the run of a child workflow (enter on
// a child-workflow invocation, attempt or event): Run names it, Parent is
// the run it was started from (whose source decides whether the child can
// be read).
type OpenChildMsg struct {
	Run    catalyst.Run
	Parent catalyst.Run
}

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
	// tabs are the view's tabs (a tab finds another by its type: tabOf).
	tabs []tab
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
	// tabs are the view's tabs (newTabs), tab the one on screen.
	tabs []tab
	tab  int

	detail      detail.Model
	detailSize  int
	focusDetail bool
	detailSel   string // what the detail pane shows (tab + selection + filter)
	// excerptOpen is set while the detail pane is full screen because
	// enter showed a Code row in it: esc then gives the list the keys.
	excerptOpen bool
	fitted      areas // the areas the tabs and the detail pane are sized for

	filter  list.Filter
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

	// places are where the view was before each jump, the last on top
	// (places.go); arriving is a place whose line waits for its list's
	// filter to answer.
	places   []place
	arriving *place

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
	m.setTabs()
	return m
}

// setTabs makes the view's tabs (newTabs) and binds their keys.
func (m *Model) setTabs() {
	m.tabs = newTabs(m.d)
	m.d.tabs = m.tabs
	m.bindKeys()
}

// SetCode joins the workflow and activity source to the runs the view
// shows: it adds the Code tab. Call it before the first history; the
// analysis that fills the tab is the index's (Index.AddCode).
func (m *Model) SetCode(src *CodeSource) {
	if src == nil || m.d.code != nil {
		return
	}
	m.d.code = src
	m.setTabs()
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
	m.remember()
	if !same {
		// Another run, or another generation of it: the places were in
		// the old one.
		m.places, m.arriving = nil, nil
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
	m.remember()
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

// SetTab switches to a tab. Between two tabs that list the same rows
// (the Invocations and the Timeline) the selection goes along.
func (m *Model) SetTab(i int) tea.Cmd {
	from := m.tabs[m.tab]
	n := len(m.tabs)
	m.tab = (i%n + n) % n
	to := m.tabs[m.tab]
	if to != from && to.list().Follows(from.list()) {
		if item := from.list().SelectedItem(); item >= 0 {
			to.list().Select(list.Row{Item: item, Sub: -1})
		}
	}
	cmd := to.list().Refilter(to.source(), m.filter)
	m.syncDetail(false)
	return cmd
}

// remember has every tab note its selection before the data changes.
func (m *Model) remember() {
	for _, t := range m.tabs {
		t.list().Remember()
		if r, ok := t.(rememberer); ok {
			r.remember()
		}
	}
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
		return PlainCopy(m.absent.ID, "the child run id")
	}
	if m.d.h == nil {
		return "", ""
	}
	if text, what = m.tabs[m.tab].copyTarget(); text != "" || what != "" {
		return text, what
	}
	if id := m.d.h.Run.ID; id != "" {
		return PlainCopy(id, "the run id")
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
	case showMsg:
		if msg.to == m.d {
			return m.show(msg)
		}
	case detailMsg:
		if msg.to == m.d {
			if m.detailSize == detailHidden || m.fitted.dw == 0 {
				m.resizeDetail(detailNormal, false)
			}
			m.setFocus(m.fitted.dw > 0)
		}
	case showExcerptMsg:
		if msg.to == m.d {
			m.resizeDetail(detailFull, false)
			m.excerptOpen = true
		}
	case list.FilteredMsg:
		for _, t := range m.tabs {
			if t.list().Take(msg) {
				m.placeArrived()
				m.syncDetail(false)
			}
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
		f.Query = m.input.Value()
		cmd := m.setFilter(f)
		m.syncDetail(false)
		return cmd
	}
	return nil
}

// setFilter applies f to every tab, so that each tab's count says how many
// of its rows match (large lists are filtered in commands).
func (m *Model) setFilter(f list.Filter) tea.Cmd {
	m.filter = f
	cmds := make([]tea.Cmd, 0, len(m.tabs))
	for _, t := range m.tabs {
		cmds = append(cmds, t.list().Refilter(t.source(), f))
	}
	return tea.Batch(cmds...)
}

// show switches to a tab and selects a row there (showMsg), clearing the
// filter when it hides the row.
func (m *Model) show(msg showMsg) tea.Cmd {
	i := slices.Index(m.tabs, msg.tab)
	if i < 0 || m.d.h == nil {
		return nil
	}
	m.pushPlace() // esc comes back here
	m.arriving = nil
	m.tab = i
	t := msg.tab
	if msg.open != nil {
		msg.open()
	}
	var cmd tea.Cmd
	if t.list().Refilter(t.source(), m.filter) != nil || !pick(t.list(), msg.rows) {
		// The filter hides the row (or is still being computed): clear
		// it.
		cmd = m.setFilter(list.Filter{})
		pick(t.list(), msg.rows)
	}
	m.syncDetail(false)
	return cmd
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
	sel := string(rune('0'+m.tab)) + t.selection() + "\x00" + m.filter.Query
	if sel == m.detailSel && !dataChanged {
		return
	}
	title, lines := t.describe()
	if q := m.filter.Query; q != "" && t.selection() != "" {
		lines = append(m.matchedLines(t.matches(q)), lines...)
	}
	m.detail.SetContent(title, lines, sel == m.detailSel)
	m.detailSel = sel
}

// matchedLines say which fields of the selected row the filter matched.
func (m *Model) matchedLines(fields []string) []string {
	q := "/" + safetext.Line(m.filter.Query)
	text := q + " matched " + strings.Join(fields, ", ")
	if len(fields) == 0 {
		text = q + " matched the row's other facts (a toggle, or a field not shown)"
	}
	return []string{m.c.Styles.Label.Render(text), ""}
}

// Legend explains the run view's marks for the help screen.
func (m *Model) Legend() []common.Legend {
	sev := format.SeverityGlyph(detect.SeverityHigh) + " " + format.SeverityGlyph(detect.SeverityMedium) +
		" " + format.SeverityGlyph(detect.SeverityLow)
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
	for _, t := range m.tabs {
		if l, ok := t.(legender); ok {
			out = append(out, l.legend()...)
		}
	}
	return out
}
