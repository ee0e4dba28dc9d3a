package runlist

import (
	"strings"
	"time"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/safetext"
	"github.com/twice-cli/twice/detect"
	"github.com/twice-cli/twice/tui/common"
	"github.com/twice-cli/twice/tui/format"
	"github.com/twice-cli/twice/tui/list"
	"github.com/twice-cli/twice/tui/table"
)

// aboutLines is how many lines the preview of the selected run takes at
// most, below the list (when there is no room beside it).
const aboutLines = 3

// previewWidth is the least width of the preview beside the list; it sits
// there when the list's columns leave that much.
const previewWidth = 40

// layout sizes the rows' window: the pane less its title and headings, and
// less the preview of the selected run below it when there is one to show
// and no room beside the list.
func (m *Model) layout() {
	m.list.SetHeight(max(m.height-2-m.aboutHeight(), 0))
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
	cols, _ := m.sortedColumns()
	return 2 + table.Need(cols, maxWant)
}

// previewShown reports whether the preview sits beside the list: the list's
// columns leave it previewWidth columns.
func (m *Model) previewShown() bool {
	return m.listed && len(m.runs) > 0 && m.width-m.listWidth()-1 >= previewWidth
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
	case m.list.Len() == 0:
		body = append(body, "", " no run matches the filter (esc clears it)")
	default:
		cols, titles := m.sortedColumns()
		l := table.NewLayout(lw-2, cols)
		body = append(body, s.Heading.Render("  "+l.Row(titles...)))
		now := m.c.Now()
		body = append(body, m.list.Table().Lines(func(i int, selected bool) string {
			cells := m.cells(m.list.At(i).Item, now, !selected)
			if selected {
				return s.Selected.Render("› " + l.Row(cells...))
			}
			return "  " + l.Row(cells...)
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
	r := &m.rows[m.list.SelectedItem()]
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
	sum, done := m.Summary(Key(run))
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
	c := m.list.SelectedItem()
	if n == 0 || c < 0 {
		return nil
	}
	r := &m.rows[c]
	run := m.runs[c]
	sum, done := m.Summary(Key(run))
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
func (m *Model) filterText() string { return m.filter.Text() }

// titleLine names the list, its size, what it lists and from where,
// whether it is partial, and on the right the filter (or the input being
// typed, or the sort menu), the sort and when the list was read.
func (m *Model) titleLine() string {
	s := m.c.Styles
	if m.sorting {
		menu := list.SortMenu(m.sorts(nil, time.Time{}), m.list.SortState())
		return format.Pad(s.Info.Render(format.Fit(menu, m.width)), m.width)
	}
	left := s.Title.Render("Runs") + " " + format.Count(m.list.Shown())
	if m.list.Shown() != len(m.runs) {
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

// Legend explains the run list's marks for the help screen.
func (m *Model) Legend() []common.Legend {
	return []common.Legend{
		{Title: "FINDINGS column", Marks: [][2]string{
			{format.SeverityMark(detect.SeverityHigh) + " duplicate? ChargeCard +1", "worst finding, its activity, how many more"},
			{"· none", "nothing flagged"},
			{"…", "being analyzed"},
			{"? error", "not analyzed: the preview says why"},
		}},
		{Title: "RUN ID column", Marks: [][2]string{
			{markedGlyph + " order-7731", "marked (m): d compares it"},
		}},
		{Title: "DURATION column", Marks: [][2]string{
			{"≥2.5m", "at least: saved while running"},
		}},
		{Title: "Filter (/)", Marks: [][2]string{
			{"/text", "status, workflow, run id, app, finding ids, activities"},
		}},
	}
}
