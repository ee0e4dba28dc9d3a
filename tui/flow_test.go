package tui

import (
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/tui/internal/tuitest"
	"github.com/twice-cli/twice/tui/runview"
)

// probe wraps the root model in a test program and keeps the last frame it
// rendered, so a test can wait for what is on screen (the renderer writes
// only the cells that changed, so the output stream never holds a whole
// frame).
type probe struct {
	m     *Model
	frame *frame
}

type frame struct {
	mu   sync.Mutex
	text string
}

func (p probe) Init() tea.Cmd { return p.m.Init() }

func (p probe) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	next, cmd := p.m.Update(msg)
	p.m = next.(*Model)
	return p, cmd
}

func (p probe) View() tea.View {
	v := p.m.View()
	p.frame.mu.Lock()
	p.frame.text = ansi.Strip(v.Content)
	p.frame.mu.Unlock()
	return v
}

// program starts the inspector in a test program at 120×40, monochrome.
func program(t *testing.T, opts Options) (*teatest.TestModel, *frame) {
	t.Helper()
	f := &frame{}
	tm := teatest.NewTestModel(t, probe{m: New(testOptions(opts)), frame: f},
		teatest.WithInitialTermSize(120, 40),
		teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.ASCII)))
	return tm, f
}

// waitFor waits until the frame on screen contains every one of texts.
func waitFor(t *testing.T, f *frame, texts ...string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		f.mu.Lock()
		screen := f.text
		f.mu.Unlock()
		missing := ""
		for _, s := range texts {
			if !strings.Contains(screen, s) {
				missing = s
				break
			}
		}
		if missing == "" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%q not on screen after 10s; the screen:\n%s", missing, screen)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// press sends key presses by name.
func press(tm *teatest.TestModel, names ...string) {
	for _, n := range names {
		tm.Send(keyMsg(n))
	}
}

// finalModel quits the program and returns its last model.
func finalModel(t *testing.T, tm *teatest.TestModel) *Model {
	t.Helper()
	press(tm, "q")
	return tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second)).(probe).m
}

// TestFlowTriage is the triage path: open a run from the list; the
// flagged invocation (not the first) is under the cursor at once and the
// status line counts the flagged ones; expand it, its attempts read as
// offsets from its start; go from its finding to the evidence event,
// filter the events, quit.
func TestFlowTriage(t *testing.T) {
	src := tuitest.NewSource().Add(tuitest.Checkout())
	tm, f := program(t, Options{Source: src})
	waitFor(t, f, "checkout-7731", "▲ HIGH duplicate? ChargeCard")

	press(tm, "enter")
	waitFor(t, f, "›▸ ChargeCard", "ChargeCard · activity · 2 attempts",
		"1 of 3 invocations flagged; the worst is selected")

	press(tm, "enter") // expand the flagged invocation
	waitFor(t, f, "#1 ✗ failed +0s → +30.00s took 30.00s", "#2 ✓ completed +32.06s → +32.65s")

	press(tm, "tab", "tab", "tab") // Findings: enter on a finding shows its invocation
	waitFor(t, f, "[Findings 1]", "enter show invocation")
	press(tm, "j") // the first evidence line: enter shows its event
	waitFor(t, f, "evidence: attempt 1", "enter show event")
	press(tm, "enter") // jump to the event
	waitFor(t, f, "[Events 18]", "Event #6 · TaskFailed")

	press(tm, "/")
	tm.Type("timer")
	press(tm, "enter")
	waitFor(t, f, "filter: /timer")

	m := finalModel(t, tm)
	if got := m.run.Tab(); got != runview.TabEvents {
		t.Errorf("tab = %d, want Events", got)
	}
	// The filter keeps TimerCreated (8) and TimerFired (9); the cursor moved
	// from event 6 to the first shown event after it.
	if got := m.run.Selection(); got != "event:8" {
		t.Errorf("selection = %q, want event:8", got)
	}
	if m.top() != m.run {
		t.Errorf("screen = %T, want the run view", m.top())
	}
}

// TestFlowFollow follows a running run whose history grows between polls:
// new events are marked, the selection stays, a stale response is dropped,
// and follow stops when the run ends.
func TestFlowFollow(t *testing.T) {
	src := tuitest.NewSource().Add(tuitest.ChargeRunning(0), tuitest.ChargeRunning(2), tuitest.ChargeRunning(6))
	start := New(testOptions(Options{
		Source:         src,
		Open:           &catalyst.RunRef{ID: "charge-7731", AppID: "payments"},
		FollowInterval: 20 * time.Millisecond,
	}))
	run := start.run
	tm, f := programModel(t, start)
	waitFor(t, f, "▷ running", "Events 9")
	press(tm, "tab", "tab", "j", "j") // select event 2 in the Events tab
	waitFor(t, f, "Event #2 · TaskScheduled")

	press(tm, "F")
	waitFor(t, f, "follow stopped")

	// A response to an old request arrives late: it must not replace the
	// history on screen.
	tm.Send(historyPolledMsg{to: run, seq: 0, history: tuitest.Empty()})

	m := finalModel(t, tm)
	h := m.run.History()
	if h == nil || h.Len() != 15 || !h.Run.Status.Is(catalyst.StatusCompleted) {
		t.Fatalf("history on screen = %v events, want the completed run's 15", h.Len())
	}
	if m.followed != nil {
		t.Error("still following after the run ended")
	}
	if got := m.run.Selection(); got != "event:2" {
		t.Errorf("selection = %q after polls, want event:2 kept", got)
	}
	if n := src.Calls("charge-7731"); n != 3 {
		t.Errorf("History was called %d times, want 3 (open, two polls)", n)
	}
}

// TestFlowQuitWhileTyping: ctrl+c quits even while the filter reads text,
// where q is typed into the filter.
func TestFlowQuitWhileTyping(t *testing.T) {
	tm, f := program(t, Options{History: tuitest.Charge()})
	waitFor(t, f, "ChargeCard")
	press(tm, "/", "q")
	waitFor(t, f, "/q▌")
	press(tm, "ctrl+c")
	m := tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second)).(probe).m
	if !m.run.Capturing() {
		t.Error("q ended the filter instead of being typed into it")
	}
}
