package runlist

import (
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
	"github.com/twice-cli/twice/tui/style"
)

func newList(w, h int) *Model {
	c := &common.Common{Styles: style.New(colorprofile.NoTTY), Keys: common.DefaultKeys(), Now: tuitest.Now}
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
	for _, i := range m.shown {
		out = append(out, m.runs[i].ID)
	}
	return out
}

func TestSortFilterToggles(t *testing.T) {
	m := newList(120, 20)
	m.SetRuns(catalyst.RunList{Runs: runs()})
	if got := strings.Join(shownIDs(m), ","); got != "newest-running,charge-7731,older-failed" {
		t.Fatalf("newest first: %s", got)
	}
	press(m, "s")
	if got := strings.Join(shownIDs(m), ","); got != "older-failed,charge-7731,newest-running" {
		t.Fatalf("oldest first: %s", got)
	}
	press(m, "f")
	if got := strings.Join(shownIDs(m), ","); got != "older-failed" {
		t.Fatalf("failed only: %s", got)
	}
	press(m, "esc")
	press(m, "!")
	if len(m.shown) != 0 {
		t.Fatalf("flagged only before any analysis shows %v", shownIDs(m))
	}
	m.SetSummary(Key(runs()[0]), Summary{Findings: 2, Worst: detect.SeverityHigh, Retried: true})
	if got := strings.Join(shownIDs(m), ","); got != "charge-7731" {
		t.Fatalf("flagged only after analysis: %s", got)
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
	m.SetLoading()
	if !strings.Contains(m.View(), "listing runs") {
		t.Error("no loading state")
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
	if !strings.Contains(m.View(), "no runs match this query") {
		t.Error("no empty state")
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
	m := newList(120, 10)
	m.SetRuns(catalyst.RunList{Runs: []catalyst.Run{r}, Partial: true, Reason: bad})
	if v, ok := hostiletest.FindUnsafe(m.View(), false); ok {
		t.Fatalf("unsafe %U in the list", v.Rune)
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
