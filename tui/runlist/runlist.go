// Package runlist is the run list: one row per run with its status,
// workflow, ids, start, duration and a findings column — the worst finding
// and its activity — that fills in as the root analyzes each run in the
// background; beside it (or below, when narrow) a preview of the selected
// run. Its rows are a list.Model, filtered and sorted as the run view's
// tabs are.
//
// Files: runlist.go the pane and what the root sets on it; summary.go what
// the background analysis found in a run; columns.go the rows, their
// columns, and how they filter and sort; view.go what it draws; keys.go
// its keys.
package runlist

import (
	"strconv"
	"time"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/safetext"
	"github.com/twice-cli/twice/tui/common"
	"github.com/twice-cli/twice/tui/format"
	"github.com/twice-cli/twice/tui/lineinput"
	"github.com/twice-cli/twice/tui/list"
)

// OpenMsg asks the root to open a run (enter on a row).
type OpenMsg struct{ Run catalyst.Run }

// DiffMsg asks the root to compare two runs (d on a row, with another
// marked by m): A, the marked run, against B, the selected one.
type DiffMsg struct{ A, B catalyst.Run }

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
	// sums are the runs' summaries by Key; a summary is replaced, never
	// changed (the list's filter reads a snapshot of the pointers).
	sums   map[string]*Summary
	listed bool

	// list is the runs shown: filtered, sorted, the cursor.
	list    list.Model
	filter  list.Filter
	sorting bool // the sort menu is open

	input  lineinput.Model
	typing bool

	// keys are the list's bindings (keys.go).
	keys []common.Binding
	// marked is the run m marked to compare (d), nil for none.
	marked *catalyst.Run

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

// The run list is a pane of the root's stack.
var _ common.Pane = (*Model)(nil)

// New returns an empty run list, newest runs first.
func New(c *common.Common) *Model {
	m := &Model{
		c:     c,
		sums:  make(map[string]*Summary),
		input: lineinput.Model{Prompt: "/", Limit: 256},
		spin:  spinner.New(spinner.WithSpinner(spinner.Line)),
	}
	m.list.SetSort(list.Sort{Col: sortStarted, Desc: true})
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
// kept; the selection stays on the same run when it is still there. A long
// list is sorted in the command it returns.
func (m *Model) SetRuns(runs catalyst.RunList) tea.Cmd {
	sel, hadSel := m.Selected()
	m.loading, m.err, m.listed = false, "", true
	m.runs = runs.Runs
	m.partial = ""
	if runs.Partial {
		m.partial = "partial list"
		if runs.Reason != "" {
			m.partial += ": " + safetext.Line(runs.Reason)
		}
		if runs.Dropped > 0 {
			// The view takes no --limit: the command that does.
			m.partial += "; twice runs --limit lists more"
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
	m.list.Reset(len(m.runs)) // positions in the old list mean nothing now
	cmd := m.apply()
	if hadSel {
		m.selectKey(Key(sel))
	}
	return cmd
}

// Listed reports whether a list has been shown (even an empty one).
func (m *Model) Listed() bool { return m.listed }

// Runs returns the runs listed, in the source's order.
func (m *Model) Runs() []catalyst.Run { return m.runs }

// SetSummary records the background analysis of the run with key k. A run
// that could not be analyzed gets the room below the list, where its
// selected row says why. When the filter or the sort reads summaries, the
// list is shown again (a long one in the command returned).
func (m *Model) SetSummary(k string, s Summary) tea.Cmd {
	m.sums[k] = &s
	m.want.findings = max(m.want.findings, min(format.Width(findingsCell(s)), maxWant))
	if (s.Err != "" || s.Findings > 0) && !m.hasAbout {
		m.hasAbout = true
		m.layout()
	}
	if m.filter.Need&(list.Retried|list.Flagged) != 0 || m.filter.Query != "" || m.list.SortState().Col == sortFindings {
		m.list.Changed()
		return m.apply()
	}
	return nil
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
	if s, done := m.Summary(Key(run)); done && s.Err != "" {
		return "? " + format.Line(run.ID) + ": " + safetext.Line(s.Err)
	}
	return ""
}

// Summary returns the analysis of the run with key k, if done.
func (m *Model) Summary(k string) (Summary, bool) {
	if s, ok := m.sums[k]; ok {
		return *s, true
	}
	return Summary{}, false
}

// OnScreen returns the keys of the runs whose rows are on screen.
func (m *Model) OnScreen() map[string]bool {
	out := map[string]bool{}
	from, to := m.list.Table().Window()
	for p := from; p < to; p++ {
		if i := m.list.At(p).Item; i >= 0 && int(i) < len(m.runs) {
			out[Key(m.runs[i])] = true
		}
	}
	return out
}

// Forget drops the summary of run k (it is running and will change).
func (m *Model) Forget(k string) { delete(m.sums, k) }

// Selected returns the selected run.
func (m *Model) Selected() (catalyst.Run, bool) {
	i := m.list.SelectedItem()
	if i < 0 || int(i) >= len(m.runs) {
		return catalyst.Run{}, false
	}
	return m.runs[i], true
}

// Capturing reports whether the list is reading the filter text.
func (m *Model) Capturing() bool { return m.typing }

// Context names what the list shows (its filter and sort), for status
// messages bound to it.
func (m *Model) Context() string {
	s := m.list.SortState()
	return m.filterText() + "\x00" + strconv.Itoa(s.Col) + strconv.FormatBool(s.Desc)
}

// SetSize sets the size the list renders at.
func (m *Model) SetSize(width, height int) {
	m.width, m.height = width, height
	m.layout()
}

// Update handles a message for the list: its keys, pastes and mouse
// events, its spinner, and its list's filter results.
func (m *Model) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case spinner.TickMsg:
		if !m.loading {
			return nil
		}
		var cmd tea.Cmd
		m.spin, cmd = m.spin.Update(msg)
		return cmd
	case list.FilteredMsg:
		m.list.Take(msg)
	case tea.PasteMsg:
		if m.typing && m.input.Update(msg) {
			m.filter.Query = m.input.Value()
			return m.apply()
		}
	case tea.KeyPressMsg:
		cmd, _ := m.Keys().Handle(msg)
		return cmd
	case tea.MouseClickMsg:
		ev := msg.Mouse()
		tbl := m.list.Table()
		if ev.Button == tea.MouseLeft && ev.Y >= 2 && (!m.previewShown() || ev.X < m.listWidth()) {
			if r := tbl.Offset() + ev.Y - 2; r < tbl.Offset()+tbl.Height() && r < tbl.Len() {
				tbl.SetCursor(r)
			}
		}
	case tea.MouseWheelMsg:
		switch msg.Mouse().Button {
		case tea.MouseWheelUp:
			m.list.Table().Move(-3)
		case tea.MouseWheelDown:
			m.list.Table().Move(3)
		}
	}
	return nil
}

// apply shows the runs matching the filter, in the sort, keeping the
// selected run (in the command it returns, for a long list).
func (m *Model) apply() tea.Cmd {
	return m.list.Apply(m.shown(), m.filter, m.list.SelectedItem())
}

// selectKey selects the run with key k, when it is shown.
func (m *Model) selectKey(k string) {
	for i := range m.runs {
		if Key(m.runs[i]) == k {
			m.list.Select(list.Row{Item: int32(i), Sub: -1})
			return
		}
	}
}
