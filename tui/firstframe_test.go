package tui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/detect"
	"github.com/twice-cli/twice/tui/internal/tuitest"
	"github.com/twice-cli/twice/tui/runview"
)

// checkoutRef names the checkout run at its source.
func checkoutRef() *catalyst.RunRef {
	return &catalyst.RunRef{ID: "checkout-7731", AppID: "payments"}
}

// gatedAnalysis returns an analysis that waits for gate before running
// detect, so a test can look at the screen while detect "runs".
func gatedAnalysis(gate <-chan struct{}) analyzeFunc {
	return func(h *catalyst.History) *detect.Report {
		<-gate
		return detect.Analyze(h, detect.Options{})
	}
}

// programModel runs m in a test program at 120×40, monochrome.
func programModel(t *testing.T, m *Model) (*teatest.TestModel, *frame) {
	t.Helper()
	f := &frame{}
	tm := teatest.NewTestModel(t, probe{m: m, frame: f},
		teatest.WithInitialTermSize(120, 40),
		teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.ASCII)))
	return tm, f
}

// TestFlowRunShowsBeforeAnalysis: a run opened from a source is on screen
// as soon as it is decoded — header, events, and the Invocations and
// Findings tabs saying they are being analyzed — and when detect answers
// the worst invocation is selected.
func TestFlowRunShowsBeforeAnalysis(t *testing.T) {
	gate := make(chan struct{})
	m := New(testOptions(Options{Source: tuitest.NewSource().Add(tuitest.Checkout()), Open: checkoutRef()}))
	m.analyze = gatedAnalysis(gate)
	tm, f := programModel(t, m)

	waitFor(t, f, "CheckoutWorkflow", "run checkout-7731", "data sharing metadata",
		"[Invocations …]", "Events 18", "Findings …", "analyzing 18 events…")
	press(tm, "tab", "tab", "tab")
	waitFor(t, f, "[Findings …]", "analyzing 18 events…")
	press(tm, "tab") // back to Invocations, where the user started
	waitFor(t, f, "[Invocations …]")

	close(gate)
	waitFor(t, f, "[Invocations 3]", "›▸ ChargeCard", "1 of 3 invocations flagged; the worst is selected")
	final := finalModel(t, tm)
	if got := final.run.Selection(); got != "invocation:1:-1" {
		t.Errorf("selection = %q, want the flagged invocation", got)
	}
}

// TestFlowAnalysisKeepsTheUsersPlace: a user who moved to the Events tab
// while detect ran stays there, on the same event, when it answers.
func TestFlowAnalysisKeepsTheUsersPlace(t *testing.T) {
	gate := make(chan struct{})
	m := New(testOptions(Options{Source: tuitest.NewSource().Add(tuitest.Checkout()), Open: checkoutRef()}))
	m.analyze = gatedAnalysis(gate)
	tm, f := programModel(t, m)
	waitFor(t, f, "Events 18", "analyzing 18 events…")
	press(tm, "tab", "tab", "j", "j", "j")
	waitFor(t, f, "[Events 18]", "Event #3 · TaskCompleted")

	close(gate)
	waitFor(t, f, "Invocations 3", "Findings 1")
	final := finalModel(t, tm)
	if got := final.run.Tab(); got != runview.TabEvents {
		t.Errorf("tab = %d after the analysis, want Events", got)
	}
	if got := final.run.Selection(); got != "event:3" {
		t.Errorf("selection = %q after the analysis, want event:3 kept", got)
	}
	// The Events tab now names the invocation the event belongs to.
	if !strings.Contains(strings.Join(final.run.DetailLines(), "\n"), "attempt 1 of 1 of ReserveInventory") {
		t.Errorf("the event's detail does not show its invocation after the analysis:\n%s",
			strings.Join(final.run.DetailLines(), "\n"))
	}
}

// TestStaleAnalysisIsDropped: the analysis of a load that a newer request
// superseded (here a refresh) is not shown.
func TestStaleAnalysisIsDropped(t *testing.T) {
	src := tuitest.NewSource().Add(tuitest.Checkout())
	m := New(testOptions(Options{Source: src, Open: checkoutRef()}))
	m = send(t, m, tea.WindowSizeMsg{Width: 120, Height: 40})
	m.Init()
	decoded := historyDecodedMsg{to: m.run, seq: m.run.req.seq, history: tuitest.Checkout()}
	next, cmd := m.Update(decoded)
	m = next.(*Model)
	if m.run.History() == nil || m.run.Index() != nil {
		t.Fatalf("the decoded history is not on screen before its analysis")
	}
	out := plain(m)
	for _, want := range []string{"CheckoutWorkflow", "Events 18", "analyzing 18 events…"} {
		if !strings.Contains(out, want) {
			t.Errorf("%q is not on the first frame:\n%s", want, out)
		}
	}
	var analysis tea.Msg
	for _, c := range batch(cmd) {
		if msg, ok := runWithin(c, 10*time.Second).(historyAnalyzedMsg); ok {
			analysis = msg
		}
	}
	if analysis == nil {
		t.Fatalf("no analysis was started for the decoded history")
	}
	// R before the analysis answers: a newer request; the old answer is stale.
	next, _ = m.Update(keyMsg("R"))
	m = next.(*Model)
	next, _ = m.Update(analysis)
	if next.(*Model).run.Index() != nil {
		t.Errorf("a stale analysis was shown")
	}
	// The same answer, current, is shown.
	current := analysis.(historyAnalyzedMsg)
	current.seq = m.run.req.seq
	next, _ = m.Update(current)
	if next.(*Model).run.Index() == nil {
		t.Errorf("the current analysis was not shown")
	}
}

// TestAnalysisFailureIsShownInTheTabs: when detect fails on a history on
// screen, the Invocations and Findings tabs say why instead of spinning.
func TestAnalysisFailureIsShownInTheTabs(t *testing.T) {
	m := New(testOptions(Options{Source: tuitest.NewSource().Add(tuitest.Checkout()), Open: checkoutRef()}))
	m.analyze = func(*catalyst.History) *detect.Report { panic("boom") }
	m = send(t, m, tea.WindowSizeMsg{Width: 80, Height: 24})
	m = drive(t, m, m.Init())
	out := plain(m)
	checkFrame(t, out, 80, 24)
	for _, want := range []string{"analyzing run checkout-7731 failed (a bug in twice): boom", "Events tab still shows every event"} {
		if !strings.Contains(out, want) {
			t.Errorf("%q is not shown:\n%s", want, out)
		}
	}
	if strings.Contains(out, "analyzing 18 events") {
		t.Errorf("the tab still says it is analyzing:\n%s", out)
	}
	if m.run.History() == nil || m.run.History().Len() != 18 {
		t.Errorf("the history left the screen")
	}
}

// runWithin runs cmd and returns its message, or nil after d.
func runWithin(cmd tea.Cmd, d time.Duration) tea.Msg {
	done := make(chan tea.Msg, 1)
	go func() { done <- cmd() }()
	select {
	case msg := <-done:
		return msg
	case <-time.After(d):
		return nil
	}
}
