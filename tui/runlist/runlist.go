// Package runlist is the run list: one row per run with its status,
// workflow, ids, start, duration and a findings column that fills in as the
// root analyzes each run in the background.
package runlist

import (
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/safetext"
	"github.com/twice-cli/twice/detect"
	"github.com/twice-cli/twice/tui/common"
	"github.com/twice-cli/twice/tui/format"
	"github.com/twice-cli/twice/tui/lineinput"
	"github.com/twice-cli/twice/tui/style"
	"github.com/twice-cli/twice/tui/table"
)

// OpenMsg asks the root to open a run (enter on a row).
type OpenMsg struct{ Run catalyst.Run }

// Summary is what the background analysis found in one run, for its
// findings column and the retried/flagged toggles.
type Summary struct {
	// Err says why the run could not be analyzed ("" when it was).
	Err string
	// Worst is the worst severity found; Findings how many findings.
	Worst    detect.Severity
	Findings int
	// Retried is set when an invocation has more than one attempt.
	Retried bool
}

// Summarize reduces a report to a row summary.
func Summarize(rep *detect.Report) Summary {
	var s Summary
	for i := range rep.Findings {
		s.Findings++
		s.Worst = max(s.Worst, rep.Findings[i].Severity)
	}
	for i := range rep.Invocations {
		if len(rep.Invocations[i].Attempts) > 1 {
			s.Retried = true
			break
		}
	}
	return s
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
	tone  style.Tone
}

// wants are the widths the flexible columns' content needs (the widest
// cell of each, up to maxWant).
type wants struct{ workflow, id, app int }

// maxWant bounds a column's wanted width (the table gives no column more
// than what is left anyway).
const maxWant = 120

// aboutLines is how many lines the description of the selected run takes
// at most, below the list.
const aboutLines = 3

// Model is the run list.
type Model struct {
	c *common.Common

	runs []catalyst.Run
	rows []row
	want wants
	// hasAbout is set when a listed run has a description: the pane then
	// keeps room below the list for the selected run's.
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
	oldest  bool // sort oldest first

	input  lineinput.Model
	typing bool

	spin    spinner.Model
	loading bool
	err     string

	width, height int
}

// The run list is a pane of the root's stack.
var _ common.Pane = (*Model)(nil)

// New returns an empty run list.
func New(c *common.Common) *Model {
	return &Model{
		c:     c,
		sums:  make(map[string]Summary),
		input: lineinput.Model{Prompt: "/", Limit: 256},
		spin:  spinner.New(spinner.WithSpinner(spinner.Line)),
	}
}

// SetLoading shows that the list is being fetched and returns the spinner's
// first tick.
func (m *Model) SetLoading() tea.Cmd {
	m.loading, m.err = true, ""
	return m.spin.Tick
}

// SetError shows why the list could not be fetched (already worded for the
// user, with what to do next).
func (m *Model) SetError(text string) {
	m.loading, m.err = false, text
}

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
	m.want, m.hasAbout = wants{}, false
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
	if s.Err != "" && !m.hasAbout {
		m.hasAbout = true
		m.layout()
	}
	if m.retried || m.flagged {
		m.apply()
	}
}

// Note is what the selected row's description area would say when the
// pane is too short to show it: why its run could not be analyzed (the
// root shows it in the status line); "" otherwise.
func (m *Model) Note() string {
	if m.aboutHeight() > 0 {
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

// SetSize sets the size the list renders at.
func (m *Model) SetSize(width, height int) {
	m.width, m.height = width, height
	m.layout()
}

// layout sizes the rows' window: the pane less its title and headings, and
// less the description of the selected run when there is one to show and
// room for it.
func (m *Model) layout() {
	m.tbl.SetHeight(max(m.height-2-m.aboutHeight(), 0))
}

// aboutHeight is the number of lines kept below the list for the selected
// run's description (with a rule above it): none when no run has one or
// the pane is short.
func (m *Model) aboutHeight() int {
	if !m.hasAbout || m.height < 14 {
		return 0
	}
	return aboutLines + 1
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
		return m.handleKey(msg)
	}
	return nil
}

func (m *Model) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	if m.typing {
		switch msg.String() {
		case "enter":
			m.typing = false
		case "esc":
			m.typing = false
			m.query = ""
			m.apply()
		default:
			if m.input.Update(msg) {
				m.query = m.input.Value()
				m.apply()
			}
		}
		return nil
	}
	k := &m.c.Keys
	switch {
	case key.Matches(msg, k.Enter):
		if run, ok := m.Selected(); ok {
			return func() tea.Msg { return OpenMsg{Run: run} }
		}
	case key.Matches(msg, k.Filter):
		m.typing = true
		m.input.SetValue(m.query)
	case key.Matches(msg, k.Failed):
		m.failed = !m.failed
		m.apply()
	case key.Matches(msg, k.Retried):
		m.retried = !m.retried
		m.apply()
	case key.Matches(msg, k.Flagged):
		m.flagged = !m.flagged
		m.apply()
	case key.Matches(msg, k.Sort):
		m.oldest = !m.oldest
		m.apply()
	case key.Matches(msg, k.Back):
		m.query, m.failed, m.retried, m.flagged = "", false, false, false
		m.apply()
	default:
		m.tbl.Update(msg, k)
	}
	return nil
}

// apply recomputes the shown rows: filtered, then sorted by start time.
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
		if q != "" && !strings.Contains(m.rows[i].search, q) {
			continue
		}
		m.shown = append(m.shown, i)
	}
	slices.SortStableFunc(m.shown, func(a, b int) int {
		c := m.runs[a].CreatedAt.Compare(m.runs[b].CreatedAt)
		if !m.oldest {
			c = -c
		}
		return c
	})
	m.tbl.SetLen(len(m.shown))
	if hadSel {
		m.selectKey(Key(sel))
	}
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
		r.about = format.Line(trimText(rec.Description, 1000))
	}
	r.search = strings.ToLower(strings.Join([]string{r.status, r.workflow, r.id, r.app}, "\x00"))
	return r
}

// columns are the run list's columns. When the list is narrow the app
// goes first, then the duration, then the start: the workflow and the run
// id keep what their names need (up to a cap), and the findings column is
// never hidden.
func columns(w wants) []table.Column {
	return []table.Column{
		{Title: "STATUS", Width: 12},
		{Title: "WORKFLOW", Width: 10, Flex: 2, Want: w.workflow},
		{Title: "RUN ID", Width: 10, Flex: 2, Want: w.id},
		{Title: "APP", Width: 8, Flex: 1, Want: w.app, Drop: 3},
		{Title: "STARTED", Width: 10, Drop: 1},
		{Title: "DURATION", Width: 8, Right: true, Drop: 2},
		{Title: "FINDINGS", Width: 10},
	}
}

// View renders the list at its size: a title, the column headings and the
// rows, or why there are none.
func (m *Model) View() string {
	if m.width <= 0 || m.height <= 0 {
		return ""
	}
	s := m.c.Styles
	lines := make([]string, 0, m.height)
	lines = append(lines, m.titleLine())
	switch {
	case m.loading && !m.listed:
		lines = append(lines, "", " "+m.spin.View()+" listing runs…")
	case m.err != "" && !m.listed:
		// The whole error, wrapped: what to do next is usually at its end.
		lines = append(lines, "")
		for _, l := range format.Wrap(safetext.Line(m.err), max(m.width-1, 1)) {
			lines = append(lines, " "+s.Error.Render(l))
		}
		lines = append(lines, " press R to retry")
	case len(m.runs) == 0:
		lines = append(lines, "", " no runs match this query")
	case len(m.shown) == 0:
		lines = append(lines, "", " no run matches the filter (esc clears it)")
	default:
		l := table.NewLayout(m.width-2, columns(m.want))
		lines = append(lines, s.Heading.Render("  "+l.Header()))
		now := m.c.Now()
		lines = append(lines, m.tbl.Lines(func(i int, selected bool) string {
			ri := m.shown[i]
			r := &m.rows[ri]
			run := &m.runs[ri]
			started := format.Instant(run.CreatedAt, m.c.TimeFormat, now)
			dur := runDuration(run, now)
			fnd, sev := m.findings(Key(*run))
			if selected {
				return s.Selected.Render("› " + l.Row(r.status, r.workflow, r.id, r.app, started, dur, fnd))
			}
			return "  " + l.Row(s.Tone(r.tone).Render(r.status), r.workflow, r.id, r.app, started, dur, s.Alert(format.SeverityAlert(sev)).Render(fnd))
		})...)
	}
	for i := range lines {
		lines[i] = format.Pad(lines[i], m.width)
	}
	about := m.about()
	for len(lines) < m.height-len(about) {
		lines = append(lines, strings.Repeat(" ", m.width))
	}
	lines = append(lines, about...)
	return strings.Join(lines[:m.height], "\n")
}

// about renders the selected run's description below the list: a rule,
// then why its run could not be analyzed (when it could not) or its
// description, wrapped to the width, cut to its lines (nothing when the
// selected run has neither; the room stays, so the list does not jump).
func (m *Model) about() []string {
	n := m.aboutHeight()
	c := m.tbl.Cursor()
	if n == 0 || c < 0 || c >= len(m.shown) {
		return nil
	}
	r := &m.rows[m.shown[c]]
	desc := r.id + ": " + r.about
	if e := m.selectedError(); e != "" {
		desc = e
	} else if r.about == "" {
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

// trimText cuts raw text to about n bytes before it is sanitized.
func trimText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// titleLine names the list, its size, whether it is partial, and the
// filter or the input being typed.
func (m *Model) titleLine() string {
	s := m.c.Styles
	left := s.Title.Render("Runs") + " " + format.Count(len(m.shown))
	if len(m.shown) != len(m.runs) {
		left += "/" + format.Count(len(m.runs))
	}
	if m.partial != "" {
		left += " " + s.Error.Render("("+m.partial+")")
	}
	if m.loading && m.listed {
		left += " " + m.spin.View() + " refreshing"
	}
	var right string
	if m.typing {
		right = m.input.View(max(m.width/2, 10))
	} else {
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
		if len(parts) > 0 {
			right = "filter: " + strings.Join(parts, " ") + "  "
		}
		if m.oldest {
			right += "oldest first"
		} else {
			right += "newest first"
		}
	}
	room := m.width - format.Width(left)
	if room <= format.Width(right) {
		return format.Fit(left+" "+right, m.width)
	}
	return left + format.PadLeft(right, room)
}

// findings is the FINDINGS cell: the worst severity and the count, "…"
// while the run is being analyzed, or why it could not be.
func (m *Model) findings(k string) (string, detect.Severity) {
	s, ok := m.sums[k]
	switch {
	case !ok:
		return "…", detect.SeverityNone
	case s.Err != "":
		return "? error", detect.SeverityNone
	case s.Findings == 0:
		return "· none", detect.SeverityNone
	}
	return format.SeverityMark(s.Worst) + " " + strconv.Itoa(s.Findings), s.Worst
}

// runDuration is how long the run took, or has been running. A live run
// that has not ended is measured to now; a saved one that was still running
// when saved is measured to its last recorded time (else to when it was
// saved), marked "≥": it ran at least that long.
func runDuration(run *catalyst.Run, now time.Time) string {
	if run.CreatedAt.IsZero() {
		return "-"
	}
	end, mark := run.UpdatedAt, ""
	switch {
	case run.Status.IsEnded():
	case run.Provenance.Saved():
		if rec := run.Provenance.Recorded; end.IsZero() && rec != nil {
			end = rec.CapturedAt
		}
		mark = "≥"
	default:
		end = now
	}
	if end.IsZero() || end.Before(run.CreatedAt) {
		return "-"
	}
	return mark + format.Duration(end.Sub(run.CreatedAt))
}

// ShortHelp returns the keys for the key bar (the root adds help and quit).
func (m *Model) ShortHelp() []key.Binding {
	k := &m.c.Keys
	if m.typing {
		return []key.Binding{
			key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "keep filter")),
			key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "clear filter")),
		}
	}
	if m.err != "" && !m.listed {
		retry := k.Refresh
		retry.SetHelp("R", "retry")
		return []key.Binding{retry}
	}
	open := k.Enter
	open.SetHelp("enter", "open run")
	return []key.Binding{open, k.Filter, k.Failed, k.Flagged, k.Sort, k.Refresh, k.Open}
}

// Legend explains the run list's marks for the help screen.
func (m *Model) Legend() []common.Legend {
	return []common.Legend{
		{Title: "FINDINGS column", Marks: [][2]string{
			{format.SeverityMark(detect.SeverityHigh) + " 2", "worst severity, how many"},
			{"· none", "nothing flagged"},
			{"…", "being analyzed"},
			{"? error", "not analyzed: the note says why"},
		}},
		{Title: "DURATION column", Marks: [][2]string{
			{"≥2.5m", "at least: saved while running"},
		}},
	}
}

// KeyGroups returns every key of the list in titled groups.
func (m *Model) KeyGroups() []common.KeyGroup {
	k := &m.c.Keys
	open := k.Enter
	open.SetHelp("enter", "open run")
	back := k.Back
	back.SetHelp("esc", "clear filter")
	return []common.KeyGroup{
		{Title: "Move", Keys: k.Navigation()},
		{Title: "Run list", Keys: []key.Binding{open, back, k.Sort, k.Refresh}},
		{Title: "Filter", Keys: []key.Binding{k.Filter, k.Failed, k.Retried, k.Flagged}},
		{Title: "Run", Keys: []key.Binding{k.Open, k.CopyID, k.CopyLink}},
		{Title: "App", Keys: []key.Binding{k.Help, k.Quit, k.ForceQuit}},
	}
}
