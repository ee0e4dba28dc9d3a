package runlist

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/safetext/hostiletest"
	"github.com/twice-cli/twice/detect"
	"github.com/twice-cli/twice/tui/common"
	"github.com/twice-cli/twice/tui/format"
	"github.com/twice-cli/twice/tui/internal/tuitest"
	"github.com/twice-cli/twice/tui/list"
	"github.com/twice-cli/twice/tui/style"
)

func newList(w, h int) *Model {
	c := &common.Common{Styles: style.New(colorprofile.NoTTY), Keys: common.DefaultKeys(), Now: tuitest.Now, TimeFormat: format.Relative}
	m := New(c)
	m.SetSize(w, h)
	return m
}

func runs() []catalyst.Run {
	a := tuitest.ChargeRun("COMPLETED")
	b := tuitest.ChargeRun("ORCHESTRATION_STATUS_FAILED")
	b.ID, b.CreatedAt = "older-failed", a.CreatedAt.Add(-time.Hour)
	c := tuitest.ChargeRun("RUNNING")
	c.ID, c.CreatedAt, c.UpdatedAt = "newest-running", a.CreatedAt.Add(time.Minute), time.Time{}
	return []catalyst.Run{a, b, c}
}

func press(m *Model, keys ...string) tea.Cmd {
	var cmd tea.Cmd
	for _, k := range keys {
		msg := tea.KeyPressMsg{Code: []rune(k)[0], Text: k}
		switch k {
		case "enter":
			msg = tea.KeyPressMsg{Code: tea.KeyEnter}
		case "esc":
			msg = tea.KeyPressMsg{Code: tea.KeyEscape}
		}
		cmd = m.Update(msg)
	}
	return cmd
}

func shownIDs(m *Model) []string {
	var out []string
	for i := range m.list.Len() {
		out = append(out, m.runs[m.list.At(i).Item].ID)
	}
	return out
}

func TestSortFilterToggles(t *testing.T) {
	m := newList(120, 20)
	m.SetRuns(catalyst.RunList{Runs: runs()})
	if got := strings.Join(shownIDs(m), ","); got != "newest-running,charge-7731,older-failed" {
		t.Fatalf("newest first: %s", got)
	}
	if !strings.Contains(m.View(), "STARTED↓") {
		t.Errorf("the sort is not shown in the heading:\n%s", m.View())
	}
	press(m, "s")
	if !strings.Contains(m.View(), "sort by: s started ↓ · t status") {
		t.Fatalf("s does not open the sort menu:\n%s", m.View())
	}
	press(m, "s") // the same column again: reversed
	if got := strings.Join(shownIDs(m), ","); got != "older-failed,charge-7731,newest-running" {
		t.Fatalf("oldest first: %s", got)
	}
	press(m, "s", "i") // by run id
	if got := strings.Join(shownIDs(m), ","); got != "charge-7731,newest-running,older-failed" || !strings.Contains(m.View(), "RUN ID↑") {
		t.Fatalf("by run id: %s", got)
	}
	press(m, "s", "s", "s", "s")
	if got := strings.Join(shownIDs(m), ","); got != "older-failed,charge-7731,newest-running" {
		t.Fatalf("oldest first again: %s", got)
	}
	press(m, "f")
	if got := strings.Join(shownIDs(m), ","); got != "older-failed" {
		t.Fatalf("failed only: %s", got)
	}
	press(m, "esc")
	press(m, "!")
	if m.list.Len() != 0 {
		t.Fatalf("flagged only before any analysis shows %v", shownIDs(m))
	}
	m.SetSummary(Key(runs()[0]), Summarize(&detect.Report{
		Invocations: []detect.Invocation{{Name: "ChargeCard", Attempts: make([]detect.Attempt, 2)}},
		Findings: []detect.Finding{
			{ID: detect.FindingUnknownOutcome, Severity: detect.SeverityMedium, Activity: "ShipOrder"},
			{ID: detect.FindingDuplicateSideEffect, Severity: detect.SeverityHigh, Confidence: detect.ConfidenceProbable, Activity: "ChargeCard"},
		}}))
	if got := strings.Join(shownIDs(m), ","); got != "charge-7731" {
		t.Fatalf("flagged only after analysis: %s", got)
	}
	// The FINDINGS column names the worst finding and its activity.
	if view := m.View(); !strings.Contains(view, "▲ HIGH duplicate? ChargeCard +1") {
		t.Errorf("the FINDINGS column does not name the worst finding:\n%s", view)
	}
	// The filter finds finding ids and activity names.
	press(m, "esc", "/", "s", "h", "i", "p", "o", "r", "d", "enter")
	if got := strings.Join(shownIDs(m), ","); got != "charge-7731" {
		t.Fatalf("filter by an activity: %s", got)
	}
	press(m, "esc", "/", "u", "n", "k", "n", "o", "w", "n", "-", "o", "enter")
	if got := strings.Join(shownIDs(m), ","); got != "charge-7731" {
		t.Fatalf("filter by a finding id: %s", got)
	}
	press(m, "esc", "/", "n", "e", "w", "enter")
	if got := strings.Join(shownIDs(m), ","); got != "newest-running" {
		t.Fatalf("filter /new: %s", got)
	}
	cmd := press(m, "enter")
	if msg, ok := cmd().(OpenMsg); !ok || msg.Run.ID != "newest-running" {
		t.Fatalf("enter does not open the selected run: %#v", cmd())
	}
}

func TestRowsAndStates(t *testing.T) {
	m := newList(100, 10)
	m.SetSource(catalyst.RunQuery{Project: "default", AppID: "payments"}, "Catalyst at mcp.example")
	m.SetLoading()
	if !strings.Contains(m.View(), "listing project default, app payments in Catalyst at mcp.example…") {
		t.Errorf("the loading line does not say what it waits on:\n%s", m.View())
	}
	m.SetError("could not list runs: boom")
	if !strings.Contains(m.View(), "could not list runs: boom") || !strings.Contains(m.View(), "R to retry") {
		t.Error("no error state")
	}
	m.SetRuns(catalyst.RunList{Runs: runs(), Partial: true, Reason: "stopped after 50 pages"})
	m.SetSummary(Key(runs()[1]), Summary{Err: "fetch failed"})
	m.SetSummary(Key(runs()[2]), Summary{})
	view := m.View()
	for _, want := range []string{"(partial list: stopped after 50 pages)", "▷ running", "✗ failed", "? error", "· none", "…"} {
		if !strings.Contains(view, want) {
			t.Errorf("the list does not show %q:\n%s", want, view)
		}
	}
	for _, l := range strings.Split(view, "\n") {
		if format.Width(l) != 100 {
			t.Errorf("line %q is %d wide", l, format.Width(l))
		}
	}
	m.SetRuns(catalyst.RunList{})
	if !strings.Contains(m.View(), "no runs match project default, app payments in Catalyst at mcp.example") {
		t.Errorf("the empty state does not name the query:\n%s", m.View())
	}
}

func TestSelectionSurvivesARefresh(t *testing.T) {
	m := newList(100, 10)
	m.SetRuns(catalyst.RunList{Runs: runs()})
	press(m, "j", "j")
	sel, _ := m.Selected()
	rs := runs()
	rs[0], rs[2] = rs[2], rs[0]
	m.SetRuns(catalyst.RunList{Runs: rs})
	if got, _ := m.Selected(); got.ID != sel.ID {
		t.Errorf("selection moved from %s to %s", sel.ID, got.ID)
	}
}

func TestHostileRunsAreEscaped(t *testing.T) {
	bad := hostiletest.Joined()
	r := tuitest.ChargeRun(catalyst.Status("weird" + bad))
	r.ID, r.AppID, r.Workflow = bad, bad, bad
	r.Provenance.Recorded = &catalyst.Recording{Description: "about" + bad}
	m := newList(120, 20) // tall enough for the description
	m.SetRuns(catalyst.RunList{Runs: []catalyst.Run{r}, Partial: true, Reason: bad})
	if v, ok := hostiletest.FindUnsafe(m.View(), false); ok {
		t.Fatalf("unsafe %U in the list", v.Rune)
	}
}

// demoRuns are runs named like the bundled demos', of 30 to 102 days ago.
func demoRuns() []catalyst.Run {
	var out []catalyst.Run
	for i, d := range []struct{ wf, id, app, about string }{
		{"IssueInvoiceWorkflow", "invoice-2026-11-0192", "invoicing", "A clean run: nothing to flag."},
		{"CheckoutWorkflow", "order-7731", "payments", "ChargeCard's first attempt timed out after 30 s waiting " +
			"for the payment gateway, and the retry succeeded: the first charge may have gone through too, a " +
			"probable duplicate charge. Recorded at the metadata data-sharing level, so every payload is withheld; " +
			"the console link opens the run in project default."},
		{"NightlyReconcile", "recon-2026-08-22", "reconciler", ""},
	} {
		r := tuitest.ChargeRun("COMPLETED")
		r.Workflow, r.ID, r.AppID = d.wf, d.id, d.app
		r.CreatedAt = tuitest.Now().Add(-time.Duration(30+36*i) * 24 * time.Hour)
		r.UpdatedAt = r.CreatedAt.Add(37 * time.Second)
		r.Provenance = catalyst.Provenance{Surface: catalyst.SurfaceDemo, Location: "demo:" + d.id}
		if d.about != "" {
			r.Provenance.Recorded = &catalyst.Recording{Description: d.about}
		}
		out = append(out, r)
	}
	return out
}

// TestColumnsGiveWayToNames: at 80 columns the app and the duration give
// way so the workflow, the run id and the start read whole; from 100
// columns every column is shown.
func TestColumnsGiveWayToNames(t *testing.T) {
	for _, c := range []struct {
		width      int
		shown, not []string
	}{
		{80, []string{"WORKFLOW", "RUN ID", "STARTED", "FINDINGS", "IssueInvoiceWorkflow", "invoice-2026-11-0192",
			"102.0d ago"}, []string{"APP", "DURATION", "…"}},
		{100, []string{"APP", "DURATION", "STARTED", "reconciler", "invoice-2026-11-0192", "102.0d ago", "37.00s"}, []string{"…"}},
	} {
		m := newList(c.width, 10)
		m.SetRuns(catalyst.RunList{Runs: demoRuns()})
		for _, r := range demoRuns() {
			m.SetSummary(Key(r), Summary{Findings: 1, Worst: detect.SeverityHigh})
		}
		view := m.View() // nothing cut: no "…" anywhere
		for _, want := range c.shown {
			if !strings.Contains(view, want) {
				t.Errorf("width %d: the list does not show %q:\n%s", c.width, want, view)
			}
		}
		for _, not := range c.not {
			if strings.Contains(view, not) {
				t.Errorf("width %d: the list shows %q:\n%s", c.width, not, view)
			}
		}
	}
}

// TestAboutTheSelectedRun: a saved history's description (what a demo
// demonstrates) is shown below the list for the selected run, wrapped and
// cut to its lines; not when no run has one, nor when the pane is short.
func TestAboutTheSelectedRun(t *testing.T) {
	m := newList(80, 21)
	m.SetRuns(catalyst.RunList{Runs: demoRuns()}) // newest first: invoice, order, recon
	lines := strings.Split(m.View(), "\n")
	if len(lines) != 21 {
		t.Fatalf("%d lines", len(lines))
	}
	tail := strings.Join(lines[len(lines)-aboutLines:], "\n")
	if !strings.Contains(tail, "invoice-2026-11-0192: A clean run: nothing to flag.") {
		t.Errorf("the first run's description is not below the list:\n%s", m.View())
	}
	press(m, "j")
	tail = strings.Join(strings.Split(m.View(), "\n")[21-aboutLines:], "\n")
	if !strings.Contains(tail, "order-7731: ChargeCard's first attempt timed out") || !strings.HasSuffix(strings.TrimRight(tail, " "), "…") {
		t.Errorf("the selected run's long description is not shown cut:\n%s", tail)
	}
	press(m, "j")
	if strings.Contains(m.View(), "ChargeCard's first") {
		t.Errorf("a run without a description shows another's")
	}
	if m.list.Table().Height() != 21-2-aboutHeightFor(m) {
		t.Errorf("the rows get %d lines", m.list.Table().Height())
	}

	short := newList(80, 12)
	short.SetRuns(catalyst.RunList{Runs: demoRuns()})
	if strings.Contains(short.View(), "A clean run") || short.list.Table().Height() != 10 {
		t.Errorf("a short pane keeps room for the description:\n%s", short.View())
	}
	plain := newList(80, 21)
	plain.SetRuns(catalyst.RunList{Runs: runs()})
	if plain.list.Table().Height() != 19 {
		t.Errorf("runs without descriptions lose %d rows to them", 19-plain.list.Table().Height())
	}
}

func aboutHeightFor(m *Model) int { return m.aboutHeight() }

func TestErrorKeyBarOffersRetry(t *testing.T) {
	m := newList(80, 20)
	m.SetError("could not list runs: boom")
	var keys []string
	for _, b := range m.Keys().Bar() {
		keys = append(keys, b.Help().Key+" "+b.Help().Desc)
	}
	if strings.Join(keys, ",") != "R retry" {
		t.Errorf("key bar on a failed list: %v", keys)
	}
}

func TestSummarizeKeyRef(t *testing.T) {
	rep := &detect.Report{
		Invocations: []detect.Invocation{{Attempts: make([]detect.Attempt, 1)}, {Attempts: make([]detect.Attempt, 3)}},
		Findings:    []detect.Finding{{Severity: detect.SeverityLow}, {Severity: detect.SeverityMedium}},
	}
	if s := Summarize(rep); s.Findings != 2 || s.Worst != detect.SeverityMedium || !s.Retried {
		t.Errorf("Summarize = %+v", s)
	}
	r := tuitest.ChargeRun("COMPLETED")
	r.Project = catalyst.Project{UID: "165"}
	r.Provenance.Location = "a.json"
	if ref := RefOf(r); ref != (catalyst.RunRef{ID: "charge-7731", AppID: "payments", Project: "165", Location: "a.json"}) {
		t.Errorf("RefOf = %+v", ref)
	}
	other := r
	other.Provenance.Location = "b.json"
	if Key(r) == Key(other) {
		t.Error("runs read from different files share a key")
	}
}

// TestDurationOfSavedRunsStopsWhenSaved: a run that was still running when
// its history was saved is measured to when it was saved (or, without a
// capture time, to its last recorded time), marked ≥; a live running run
// to now; an ended run to its end.
func TestDurationOfSavedRunsStopsWhenSaved(t *testing.T) {
	now := tuitest.Now()
	start := tuitest.Start()
	saved := func(s catalyst.Surface, updated time.Time, captured time.Time) catalyst.Run {
		r := tuitest.ChargeRun("RUNNING")
		r.UpdatedAt = updated
		r.Provenance = catalyst.Provenance{Surface: s, Location: "x.json"}
		if !captured.IsZero() {
			r.Provenance.Recorded = &catalyst.Recording{CapturedAt: captured}
		}
		return r
	}
	live := tuitest.ChargeRun("RUNNING")
	ended := tuitest.ChargeRun("COMPLETED")
	for _, c := range []struct {
		name string
		run  catalyst.Run
		want string
	}{
		{"file, last event", saved(catalyst.SurfaceFile, start.Add(33*time.Second), time.Time{}), "≥33.00s"},
		{"demo, last event", saved(catalyst.SurfaceDemo, start.Add(90*time.Second), time.Time{}), "≥1.5m"},
		{"stdin, last event", saved(catalyst.SurfaceStdin, start.Add(2*time.Second), time.Time{}), "≥2.00s"},
		{"file, capture time", saved(catalyst.SurfaceFile, time.Time{}, start.Add(10*time.Minute)), "≥10.0m"},
		// Captured 6.3 h after its last event: it ran at least until then
		// (the run list said ≥11.43s; the evidence "no outcome for 6.3 h").
		{"file, captured after the last event", saved(catalyst.SurfaceFile, start.Add(11430*time.Millisecond),
			start.Add(11430*time.Millisecond+378*time.Minute)), "≥6.3h"},
		{"file, captured before the last event", saved(catalyst.SurfaceFile, start.Add(33*time.Second),
			start.Add(time.Second)), "≥33.00s"},
		{"file, no time", saved(catalyst.SurfaceFile, time.Time{}, time.Time{}), "-"},
		{"live", live, format.Duration(now.Sub(start))},
		{"ended", ended, "33.00s"},
	} {
		if got := runDuration(&c.run, now); got != c.want {
			t.Errorf("%s: duration %q, want %q", c.name, got, c.want)
		}
	}
}

// TestISOTimesAreNeverCut: in ISO, the STARTED column is as wide as an
// instant, or hidden when the list is too narrow for it — never cut to
// "2026-11-0…".
func TestISOTimesAreNeverCut(t *testing.T) {
	for _, w := range []int{60, 80, 100, 120} {
		m := newList(w, 20)
		m.c.TimeFormat = format.ISO
		m.SetRuns(catalyst.RunList{Runs: runs()})
		view := m.View()
		if regexp.MustCompile(`2026-[0-9T:-]*…`).MatchString(view) {
			t.Errorf("width %d: an instant is cut:\n%s", w, view)
		}
		if w >= 100 && !strings.Contains(view, "2026-08-20T09:14:03Z") {
			t.Errorf("width %d: the start is not shown:\n%s", w, view)
		}
	}
}

// TestLongRunListSortsOffTheUIGoroutine: past list.SyncRows runs, the list
// is sorted and filtered in the commands SetRuns and the keys return (as
// the run view's tabs are), reading a snapshot of the summaries.
func TestLongRunListSortsOffTheUIGoroutine(t *testing.T) {
	base := tuitest.ChargeRun("COMPLETED")
	rs := make([]catalyst.Run, list.SyncRows+10)
	for i := range rs {
		r := base
		r.ID = fmt.Sprintf("run-%06d", i)
		r.CreatedAt = base.CreatedAt.Add(time.Duration(i) * time.Second)
		if i%1000 == 7 {
			r.Status = "ORCHESTRATION_STATUS_FAILED"
		}
		rs[i] = r
	}
	m := newList(120, 20)
	cmd := m.SetRuns(catalyst.RunList{Runs: rs})
	if cmd == nil {
		t.Fatal("a long list was sorted on the UI goroutine")
	}
	m.Update(cmd())
	if got := shownIDs(m)[0]; got != "run-100009" {
		t.Fatalf("newest first: %s", got)
	}
	cmd = press(m, "f")
	if cmd == nil || !strings.Contains(m.View(), "filter: failed") {
		t.Fatal("the failed toggle on a long list ran on the key press")
	}
	m.SetSummary(Key(rs[7]), Summary{Findings: 1, Worst: detect.SeverityHigh}) // meanwhile
	m.Update(cmd())
	if ids := shownIDs(m); len(ids) != 101 || ids[0] != "run-100007" {
		t.Fatalf("failed only: %d runs, first %v", len(ids), ids[:1])
	}
}
