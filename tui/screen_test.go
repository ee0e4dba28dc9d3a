package tui

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/detect"
	"github.com/twice-cli/twice/tui/common"
	"github.com/twice-cli/twice/tui/internal/tuitest"
	"github.com/twice-cli/twice/tui/runview"
)

// fakeScreen is a screen the root knows nothing about: it records what
// reaches it and draws its size.
type fakeScreen struct {
	name      string
	w, h      int
	keys      []string
	msgs      []tea.Msg
	capturing bool

	refreshes, follows, uncovers int
	closed                       bool
}

func (f *fakeScreen) Update(msg tea.Msg) tea.Cmd {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		f.keys = append(f.keys, k.String())
	}
	f.msgs = append(f.msgs, msg)
	return nil
}

func (f *fakeScreen) View() string {
	lines := make([]string, f.h)
	for i := range lines {
		lines[i] = strings.Repeat(" ", f.w)
	}
	if f.h > 0 {
		lines[0] = fmt.Sprintf("%-*s", f.w, fmt.Sprintf("%s %dx%d", f.name, f.w, f.h))
	}
	return strings.Join(lines, "\n")
}

func (f *fakeScreen) SetSize(w, h int) { f.w, f.h = w, h }

func (f *fakeScreen) Keys() common.KeyMap {
	x := key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "fake thing"))
	return common.KeyMap{Bindings: []common.Binding{{Key: x, Group: "Fake keys", Bar: 1}}, Scope: 1}
}

func (f *fakeScreen) Legend() []common.Legend {
	return []common.Legend{{Title: "Fake marks", Marks: [][2]string{{"◇", "a fake mark"}}}}
}

func (f *fakeScreen) Capturing() bool { return f.capturing }

func (f *fakeScreen) subject() (catalyst.Run, bool) {
	return catalyst.Run{ID: "fake-1", AppID: "fakes"}, true
}

func (f *fakeScreen) title() string   { return "fake-1" }
func (f *fakeScreen) note() string    { return "a note from " + f.name }
func (f *fakeScreen) context() string { return f.name }
func (f *fakeScreen) copyTarget() (string, string) {
	return "fake-1", "the fake run id"
}
func (f *fakeScreen) refresh(*Model) tea.Cmd     { f.refreshes++; return nil }
func (f *fakeScreen) follow(*Model) tea.Cmd      { f.follows++; return nil }
func (f *fakeScreen) uncovered(m *Model) tea.Cmd { f.uncovers++; return nil }
func (f *fakeScreen) close()                     { f.closed = true }
func (f *fakeScreen) sawMsg(want tea.Msg) bool   { return contains(f.msgs, want) }
func contains(msgs []tea.Msg, want tea.Msg) bool {
	for _, m := range msgs {
		if reflect.DeepEqual(m, want) {
			return true
		}
	}
	return false
}

// ping is a message no one handles but a pane that sent it.
type ping struct{ n int }

// TestRootDispatchesToAnyPane: a pane the root does not know is sized with
// the window, drawn, given the keys, pastes and mouse events, asked for its
// key bar, help, note, title and run, and given the run keys — all without
// the root knowing its type. Input goes to the top pane only; other
// messages to every pane on the stack; back closes the top one and
// uncovers the one below.
func TestRootDispatchesToAnyPane(t *testing.T) {
	m := start(t, Options{History: tuitest.Charge(), Banner: "a banner"}, 120, 40)
	below, top := &fakeScreen{name: "below"}, &fakeScreen{name: "top"}
	m.push(below)
	m.push(top)
	paneH := 40 - 1 - 1 - 1 // the banner, the status line and the key bar
	if top.w != 120 || top.h != paneH {
		t.Fatalf("the pushed pane is %dx%d, want 120x%d", top.w, top.h, paneH)
	}
	m = send(t, m, tea.WindowSizeMsg{Width: 100, Height: 30})
	if top.w != 100 || top.h != 27 || below.w != 100 || below.h != 27 {
		t.Fatalf("after a resize the panes are %dx%d and %dx%d, want 100x27", top.w, top.h, below.w, below.h)
	}

	out := plain(m)
	checkFrame(t, out, 100, 30)
	for _, want := range []string{"top 100x27", "x fake thing · ? help · q quit", "a note from top"} {
		if !strings.Contains(out, want) {
			t.Errorf("%q is not on screen:\n%s", want, out)
		}
	}
	if strings.Contains(out, "below 100x27") || strings.Contains(out, "ChargeWorkflow") {
		t.Errorf("a covered pane is drawn:\n%s", out)
	}
	if title := m.View().WindowTitle; title != "twice · fake-1" {
		t.Errorf("window title = %q, want the pane's run", title)
	}

	// Keys and pastes go to the top pane only.
	sel := m.run.Selection()
	m = keys(t, m, "j", "enter", "tab")
	m = send(t, m, tea.PasteMsg{Content: "pasted"})
	if got := strings.Join(top.keys, " "); got != "j enter tab" {
		t.Errorf("the top pane got keys %q, want j enter tab", got)
	}
	if !top.sawMsg(tea.PasteMsg{Content: "pasted"}) || below.sawMsg(tea.PasteMsg{Content: "pasted"}) {
		t.Errorf("the paste did not go to the top pane only")
	}
	if len(below.keys) != 0 || m.run.Selection() != sel {
		t.Errorf("a covered pane took keys: %q, run view selection %q (was %q)", below.keys, m.run.Selection(), sel)
	}

	// Mouse events over the pane arrive in its coordinates; over the
	// banner or the status line, nowhere.
	m = send(t, m, tea.MouseClickMsg{X: 7, Y: 5, Button: tea.MouseLeft}, tea.MouseWheelMsg{X: 1, Y: 0, Button: tea.MouseWheelDown},
		tea.MouseClickMsg{X: 7, Y: 28, Button: tea.MouseLeft})
	var mice []tea.Mouse
	for _, msg := range top.msgs {
		if mm, ok := msg.(tea.MouseMsg); ok {
			mice = append(mice, mm.Mouse())
		}
	}
	if len(mice) != 1 || mice[0].X != 7 || mice[0].Y != 4 {
		t.Errorf("mouse events in the pane = %+v, want one click at 7,4", mice)
	}

	// Other messages reach every pane on the stack.
	m = send(t, m, ping{1})
	if !top.sawMsg(ping{1}) || !below.sawMsg(ping{1}) {
		t.Errorf("a message was not given to every pane (top %v, below %v)", top.sawMsg(ping{1}), below.sawMsg(ping{1}))
	}

	// The run keys act on the pane on top.
	m = keys(t, m, "R", "F")
	if top.refreshes != 1 || top.follows != 1 || below.refreshes+below.follows != 0 {
		t.Errorf("R and F: top %d/%d, below %d/%d, want 1/1 and 0/0", top.refreshes, top.follows, below.refreshes, below.follows)
	}
	if _, cmd := m.Update(keyMsg("y")); !sameCmd(cmd, tea.SetClipboard("fake-1")) {
		t.Errorf("y does not copy the top pane's run")
	}

	// The help screen is the top pane's, with the root's own keys.
	help := plain(keys(t, m, "?"))
	for _, want := range []string{"Fake keys", "x      fake thing", "Fake marks", "◇ a fake mark", "App", "ctrl+c quit"} {
		if !strings.Contains(help, want) {
			t.Errorf("%q is not on the help screen:\n%s", want, help)
		}
	}
	m = keys(t, m, "esc")

	// A pane that reads text takes every key but ctrl+c, and the key bar
	// does not offer help and quit.
	top.capturing = true
	if _, cmd := m.Update(keyMsg("q")); isQuit(cmd) || top.keys[len(top.keys)-1] != "q" {
		t.Errorf("q did not reach the capturing pane")
	}
	if strings.Contains(plain(m), "q quit") {
		t.Errorf("the key bar offers quit while the pane reads text")
	}
	if _, cmd := m.Update(keyMsg("ctrl+c")); !isQuit(cmd) {
		t.Errorf("ctrl+c does not quit while the pane reads text")
	}
	top.capturing = false

	// Back closes the top pane and uncovers the one below.
	m = send(t, m, common.BackMsg{})
	if !top.closed || below.uncovers != 1 || m.top() != below {
		t.Errorf("back: top closed %v, below uncovered %d times, top is %T", top.closed, below.uncovers, m.top())
	}
	if !strings.Contains(plain(m), "below 100x27") {
		t.Errorf("the uncovered pane is not drawn:\n%s", plain(m))
	}
}

// TestEachLoadIsAnsweredByItsOwnMessage: a run opened afresh is answered
// decoded and unanalyzed, then its analysis by a message of its own; a
// refresh and a poll are answered analyzed, each by its own message; a
// failure to fetch or to analyze rides in the message of the load it ended.
func TestEachLoadIsAnsweredByItsOwnMessage(t *testing.T) {
	src := tuitest.NewSource().Add(tuitest.Charge())
	ref := *chargeRef()
	analyses := 0
	analyze := func(h *catalyst.History) *detect.Report { analyses++; return detect.Analyze(h, detect.Options{}) }
	to := &runScreen{}
	load := func(kind loadKind, analyze analyzeFunc) tea.Msg {
		return loadHistory(context.Background(), src, analyze, loadRequest{ref: ref, kind: kind, to: to, seq: 7})()
	}

	fetched, ok := load(loadOpen, analyze).(historyDecodedMsg)
	if !ok || fetched.to != to || fetched.seq != 7 || fetched.history == nil || fetched.err != nil || analyses != 0 {
		t.Fatalf("open: %#v, %d analyses; want the decoded history, unanalyzed", fetched, analyses)
	}
	analyzedMsg, ok := analyzeHistory(fetched.history, analyze, to, 7)().(historyAnalyzedMsg)
	if !ok || analyzedMsg.to != to || analyzedMsg.seq != 7 || analyzedMsg.index == nil || analyzedMsg.err != nil || analyses != 1 {
		t.Fatalf("analysis: %#v; want the index", analyzedMsg)
	}
	refreshed, ok := load(loadRefresh, analyze).(historyRefreshedMsg)
	if !ok || refreshed.to != to || refreshed.seq != 7 || refreshed.history == nil || refreshed.index == nil || refreshed.err != nil {
		t.Fatalf("refresh: %#v; want the history analyzed", refreshed)
	}
	polled, ok := load(loadPoll, analyze).(historyPolledMsg)
	if !ok || polled.to != to || polled.seq != 7 || polled.history == nil || polled.index == nil || polled.err != nil {
		t.Fatalf("poll: %#v; want the history analyzed", polled)
	}

	boom := func(*catalyst.History) *detect.Report { panic("boom") }
	if msg := analyzeHistory(fetched.history, boom, to, 7)().(historyAnalyzedMsg); msg.index != nil || msg.err == nil ||
		!strings.Contains(msg.err.Error(), "analyzing run charge-7731 failed (a bug in twice): boom") {
		t.Errorf("a panicking analysis: %#v", msg)
	}
	if msg := load(loadPoll, boom).(historyPolledMsg); msg.index != nil || msg.err == nil {
		t.Errorf("a poll whose analysis panics: %#v, want the error", msg)
	}
	for _, kind := range []loadKind{loadOpen, loadRefresh, loadPoll} {
		src.FailNext("charge-7731", errors.New("503 Service Unavailable"))
		var err error
		switch msg := load(kind, analyze).(type) {
		case historyDecodedMsg:
			err = msg.err
		case historyRefreshedMsg:
			err = msg.err
		case historyPolledMsg:
			err = msg.err
		}
		if err == nil || err.Error() != "503 Service Unavailable" {
			t.Errorf("load kind %d: a failed fetch answered %v", kind, err)
		}
	}
}

// TestRunsStackAndAnswersFindTheirScreen: a run opened on top of another
// (a child run, issue 17) loads into its own screen; an answer for the run
// below goes to that run, not to the one on screen; esc closes the top run
// and shows the one below where the user left it.
func TestRunsStackAndAnswersFindTheirScreen(t *testing.T) {
	src := tuitest.NewSource().Add(tuitest.Charge(), tuitest.Checkout())
	m := start(t, Options{Source: src, Open: chargeRef()}, 120, 40)
	parent := m.run
	m = keys(t, m, "tab", "tab", "j", "j", "j")
	if parent.Selection() != "event:3" {
		t.Fatalf("selection %q, want event:3", parent.Selection())
	}
	m = drive(t, m, m.openRun(src.Runs.Runs[1]))
	child := m.run
	if m.top() != child || child == parent || len(m.stack) != 3 {
		t.Fatalf("the child run is not on top of the stack (%d screens)", len(m.stack))
	}
	if h := child.History(); h == nil || h.Run.ID != "checkout-7731" || child.Index() == nil {
		t.Fatalf("the child run did not load into its own screen")
	}
	if !strings.Contains(plain(m), "CheckoutWorkflow") {
		t.Fatalf("the child run is not on screen:\n%s", plain(m))
	}

	// The parent's refresh answers while the child is on top: the parent
	// takes it, the child does not.
	seq := parent.req.start(context.Background())
	refreshed := tuitest.Charge()
	idx, _ := analyzed(refreshed, m.analyze, nil)
	m = send(t, m, historyRefreshedMsg{to: parent, seq: seq, history: refreshed, index: idx})
	if parent.History() != refreshed || child.History().Run.ID != "checkout-7731" {
		t.Fatalf("the parent's answer went to the wrong screen")
	}

	m = send(t, m, common.BackMsg{})
	if m.top() != parent || parent.Selection() != "event:3" || parent.Tab() != runview.TabEvents {
		t.Fatalf("back: top %T, selection %q, tab %d; want the parent where it was", m.top(), parent.Selection(), parent.Tab())
	}
	if out := plain(m); !strings.Contains(out, "ChargeWorkflow") || !strings.Contains(out, "[Events 15]") {
		t.Errorf("the parent is not on screen as it was:\n%s", out)
	}
	// An answer for the closed child is dropped.
	send(t, m, historyDecodedMsg{to: child, seq: child.req.seq - 1, history: tuitest.Empty()})
	if child.History().Run.ID != "checkout-7731" {
		t.Errorf("a closed screen took an answer")
	}
}

// collect runs cmds on goroutines and returns the channel their messages
// arrive on.
func collect(cmds []tea.Cmd) <-chan tea.Msg {
	out := make(chan tea.Msg, len(cmds))
	for _, c := range cmds {
		go func() { out <- c() }()
	}
	return out
}

// next returns the first message of type T to arrive on msgs, or fails
// after d.
func next[T tea.Msg](t *testing.T, msgs <-chan tea.Msg, d time.Duration) T {
	t.Helper()
	deadline := time.After(d)
	for {
		select {
		case msg := <-msgs:
			if v, ok := msg.(T); ok {
				return v
			}
		case <-deadline:
			var zero T
			t.Fatalf("no %T arrived within %s", zero, d)
			return zero
		}
	}
}

// TestSupersededFetchIsCancelled: a fetch that a newer request supersedes
// — R while a run loads, esc out of a run that loads, R on a list that
// loads or whose rows are being analyzed — is cancelled through its own
// context (the source stops working on it), and its answer is dropped.
func TestSupersededFetchIsCancelled(t *testing.T) {
	const wait = 10 * time.Second
	opening := func(t *testing.T) (*Model, <-chan tea.Msg) {
		src := tuitest.NewSource().Add(tuitest.Charge())
		src.Gate = make(chan struct{}) // never opened: a fetch answers only when cancelled
		m := New(testOptions(Options{Source: src, Open: chargeRef()}))
		m = send(t, m, tea.WindowSizeMsg{Width: 120, Height: 40})
		return m, collect(batch(m.Init()))
	}

	t.Run("refresh while a run loads", func(t *testing.T) {
		m, first := opening(t)
		m.Update(keyMsg("R")) // the new fetch is not run: it would wait at the gate
		msg := next[historyDecodedMsg](t, first, wait)
		if !errors.Is(msg.err, context.Canceled) {
			t.Fatalf("the superseded fetch answered %v, want context.Canceled", msg.err)
		}
		m = send(t, m, msg)
		if out := plain(m); strings.Contains(out, "cancelled") || !strings.Contains(out, "loading run charge-7731") {
			t.Errorf("the cancelled fetch's answer was shown:\n%s", out)
		}
	})

	t.Run("back out of a run that loads", func(t *testing.T) {
		m, first := opening(t)
		m.Update(common.BackMsg{}) // the list it uncovers is not fetched
		if msg := next[historyDecodedMsg](t, first, wait); !errors.Is(msg.err, context.Canceled) {
			t.Fatalf("the abandoned fetch answered %v, want context.Canceled", msg.err)
		}
	})

	t.Run("refresh while the list loads", func(t *testing.T) {
		src := tuitest.NewSource().Add(tuitest.Charge())
		src.ListGate = make(chan struct{})
		m := New(testOptions(Options{Source: src}))
		first := collect(batch(m.Init()))
		m.Update(keyMsg("R"))
		msg := next[runsListedMsg](t, first, wait)
		if !errors.Is(msg.err, context.Canceled) {
			t.Fatalf("the superseded list request answered %v, want context.Canceled", msg.err)
		}
		m = send(t, m, msg)
		if m.status.err || strings.Contains(plain(m), "could not list runs") {
			t.Errorf("the cancelled list request's answer was shown:\n%s", plain(m))
		}
	})

	t.Run("refresh while the rows are analyzed", func(t *testing.T) {
		src := tuitest.NewSource().Add(tuitest.Charge(), tuitest.Checkout())
		src.Gate = make(chan struct{})
		m := New(testOptions(Options{Source: src}))
		m.Init()
		_, cmd := m.Update(runsListedMsg{seq: m.list.req.seq, list: src.Runs})
		analyses := batch(cmd)
		if len(analyses) != 2 {
			t.Fatalf("%d analyses started, want 2", len(analyses))
		}
		rows := collect(analyses)
		m.Update(keyMsg("R")) // the new list request is not run
		for range 2 {
			if msg := next[runAnalyzedMsg](t, rows, wait); !errors.Is(msg.err, context.Canceled) {
				t.Fatalf("a superseded row analysis answered %v, want context.Canceled", msg.err)
			}
		}
	})
}
