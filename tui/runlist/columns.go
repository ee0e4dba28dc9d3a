package runlist

import (
	"cmp"
	"strconv"
	"strings"
	"time"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/detect"
	"github.com/twice-cli/twice/tui/format"
	"github.com/twice-cli/twice/tui/list"
	"github.com/twice-cli/twice/tui/table"
)

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

// newRow is a run's row text, sanitized once.
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

// A column of the run list is three lines of this file: its table.Column
// in columns, its cell in cells, and — when it sorts — its list.Column in
// sorts (the sort menu's order, which need not be the screen's).

// Sortable columns, in the sort menu's order (sorts).
const (
	sortStarted = iota
	sortStatus
	sortWorkflow
	sortID
	sortApp
	sortDuration
	sortFindings
)

// sorts are the columns the list sorts by, in the sort menu's order:
// newest first by default; the start, the duration and the findings sort
// descending when first picked. They compare runs by what the list shows
// (rows) and by sums, the runs' summaries as of now (nil: only the menu
// needs the columns).
func (m *Model) sorts(sums []*Summary, now time.Time) []list.Column {
	runs, rows := m.runs, m.rows
	worst := func(i int32) (detect.Severity, int) {
		if s := sums[i]; s != nil {
			return s.Worst, s.Findings
		}
		return detect.SeverityNone, 0
	}
	return []list.Column{
		{Key: "s", Title: "STARTED", Desc: true, Compare: func(a, b int32) int { return runs[a].CreatedAt.Compare(runs[b].CreatedAt) }},
		{Key: "t", Title: "STATUS", Compare: func(a, b int32) int { return strings.Compare(rows[a].status, rows[b].status) }},
		{Key: "w", Title: "WORKFLOW", Compare: func(a, b int32) int { return strings.Compare(runs[a].Workflow, runs[b].Workflow) }},
		{Key: "i", Title: "RUN ID", Compare: func(a, b int32) int { return strings.Compare(runs[a].ID, runs[b].ID) }},
		{Key: "a", Title: "APP", Compare: func(a, b int32) int { return strings.Compare(runs[a].AppID, runs[b].AppID) }},
		{Key: "d", Title: "DURATION", Desc: true, Compare: func(a, b int32) int {
			return cmp.Compare(durationOf(&runs[a], now), durationOf(&runs[b], now))
		}},
		{Key: "f", Title: "FINDINGS", Desc: true, Compare: func(a, b int32) int {
			sa, na := worst(a)
			sb, nb := worst(b)
			return cmp.Or(cmp.Compare(sa, sb), cmp.Compare(na, nb))
		}},
	}
}

// shown is what the list shows now: the runs, filtered by their rows'
// text, their status and their summaries, sorted by a column. It reads a
// snapshot of the summaries (the analyses add to them meanwhile), so a
// long list is filtered and sorted off the UI goroutine.
func (m *Model) shown() list.Source {
	runs, rows := m.runs, m.rows
	sums := make([]*Summary, len(runs))
	for i := range runs {
		sums[i] = m.sums[Key(runs[i])]
	}
	match := func(f list.Filter, q string, i int32) bool {
		s := sums[i]
		switch {
		case f.Need&list.Failed != 0 && !runs[i].Status.Is(catalyst.StatusFailed),
			f.Need&list.Retried != 0 && (s == nil || !s.Retried),
			f.Need&list.Flagged != 0 && (s == nil || s.Findings == 0):
			return false
		}
		return q == "" || strings.Contains(rows[i].search, q) || s != nil && strings.Contains(s.searchText(), q)
	}
	return list.Source{
		Len:     len(runs),
		Columns: m.sorts(sums, m.c.Now()),
		Select: func(f list.Filter, from []int32) []int32 {
			q := strings.ToLower(f.Query)
			var out []int32
			if from != nil {
				for _, i := range from {
					if match(f, q, i) {
						out = append(out, i)
					}
				}
				return out
			}
			for i := range int32(len(runs)) {
				if match(f, q, i) {
					out = append(out, i)
				}
			}
			return out
		},
	}
}

// sortedColumns are the columns with the sorted one's title marked by
// its arrow, widened to hold it, and the heading's cells.
func (m *Model) sortedColumns() ([]table.Column, []string) {
	return list.Mark(m.columns(), m.sorts(nil, time.Time{}), m.list.SortState())
}

// cells are run i's cells, in columns' order: styled, unless plain (the
// selected row's reverse video shows them plain).
func (m *Model) cells(i int32, now time.Time, styled bool) []string {
	r, run := &m.rows[i], &m.runs[i]
	sum, done := m.Summary(Key(*run))
	fnd, sev := findingsText(sum, done)
	status := r.status
	if styled {
		s := m.c.Styles
		status = s.Tone(r.tone).Render(status)
		fnd = s.Alert(format.SeverityAlert(sev)).Render(fnd)
	}
	id := r.id
	if m.marked != nil && Key(*m.marked) == Key(*run) {
		// The run m marked to compare (d): its id says so.
		id = markedGlyph + " " + id
	}
	return []string{status, r.workflow, id, r.app, format.Instant(run.CreatedAt, m.c.TimeFormat, now), runDuration(run, now), fnd}
}

// markedGlyph marks the run m marked to compare.
const markedGlyph = "◇"

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
	_, mark, ok := runSpan(run, now)
	if !ok {
		return "-"
	}
	// As the run's history measured it: from the Dapr CLI's rows, rebuilt
	// from their elapsed column, or ±1 s.
	end, _ := run.RanUntil(now)
	return mark + format.Spans{}.Show(run.Span(end))
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
