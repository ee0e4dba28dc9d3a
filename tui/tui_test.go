package tui

import (
	"errors"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/detect"
	"github.com/twice-cli/twice/tui/internal/tuitest"
	"github.com/twice-cli/twice/tui/runlist"
	"github.com/twice-cli/twice/tui/runview"
)

// chargeRef names the charge run at its source.
func chargeRef() *catalyst.RunRef {
	return &catalyst.RunRef{ID: "charge-7731", AppID: "payments", Project: "default"}
}

func TestStaleHistoryResponseIsDropped(t *testing.T) {
	src := tuitest.NewSource().Add(tuitest.Charge())
	m := start(t, Options{Source: src, Open: chargeRef()}, 120, 40)
	if m.run.History() == nil || m.run.History().Len() != 15 {
		t.Fatalf("the run did not load")
	}
	stale := historyDecodedMsg{to: m.run, seq: m.run.req.seq - 1, history: tuitest.Empty()}
	m = send(t, m, stale)
	if got := m.run.History().Run.ID; got != "charge-7731" {
		t.Fatalf("a stale response replaced the run: now %q", got)
	}
	fresh := stale
	fresh.seq = m.run.req.seq
	m = send(t, m, fresh)
	if got := m.run.History().Run.ID; got != "empty-1" {
		t.Fatalf("the current response was not shown: run %q", got)
	}
}

func TestRefreshKeepsTheSelection(t *testing.T) {
	src := tuitest.NewSource().Add(tuitest.Charge())
	m := start(t, Options{Source: src, Open: chargeRef()}, 120, 40)
	m = keys(t, m, "tab", "tab", "j", "j", "j", "R")
	if got := m.run.Selection(); got != "event:3" {
		t.Errorf("selection after refresh = %q, want event:3", got)
	}
	if n := src.Calls("charge-7731"); n != 2 {
		t.Errorf("History called %d times, want 2", n)
	}
	if m.status.text != "refreshed" {
		t.Errorf("status = %q, want refreshed", m.status.text)
	}
}

func TestFollowPollsBacksOffAndStops(t *testing.T) {
	src := tuitest.NewSource().Add(tuitest.ChargeRunning(0), tuitest.ChargeRunning(2), tuitest.ChargeRunning(6))
	const every = time.Millisecond // the test's drive sleeps through each tick
	m := start(t, Options{Source: src, Open: chargeRef(), FollowInterval: every}, 120, 40)
	m = keys(t, m, "tab", "tab", "j", "j", "F")
	if m.followed == nil || m.followDelay != every {
		t.Fatalf("F did not start following (delay %s)", m.followDelay)
	}

	// Two failed polls double the interval each time.
	src.FailNext("charge-7731", errors.New("429 Too Many Requests"))
	src.FailNext("charge-7731", errors.New("connection reset"))
	m = send(t, m, followTickMsg{seq: m.followSeq})
	if m.followDelay != 2*every || !m.status.err || !strings.Contains(m.status.text, "429 Too Many Requests") {
		t.Fatalf("after one failed poll: delay %s, status %+v", m.followDelay, m.status)
	}
	m = send(t, m, followTickMsg{seq: m.followSeq})
	if m.followDelay != 4*every {
		t.Fatalf("after two failed polls: delay %s, want 4ms", m.followDelay)
	}
	if m.run.History().Len() != 9 {
		t.Fatalf("a failed poll changed the history")
	}

	// A tick from before a restart of follow mode is ignored.
	m = send(t, m, followTickMsg{seq: m.followSeq - 1})
	if n := src.Calls("charge-7731"); n != 3 {
		t.Fatalf("a stale tick polled: %d calls", n)
	}

	// A successful poll resets the interval, marks the new events and
	// keeps the selection.
	m = send(t, m, followTickMsg{seq: m.followSeq})
	if m.followDelay != every || m.run.History().Len() != 11 {
		t.Fatalf("after a good poll: delay %s, %d events", m.followDelay, m.run.History().Len())
	}
	if !strings.Contains(m.status.text, "2 new events") {
		t.Errorf("status = %q, want the new events counted", m.status.text)
	}
	if got := m.run.Selection(); got != "event:2" {
		t.Errorf("selection = %q, want event:2 kept", got)
	}
	if !strings.Contains(plain(m), "+ 10 WorkflowStarted") && !strings.Contains(plain(m), "+10 WorkflowStarted") {
		t.Errorf("new events are not marked +:\n%s", plain(m))
	}

	// The backoff is capped. (The tick it schedules is not run: it would
	// sleep a minute.)
	m.followDelay = 50 * time.Second
	next, _ := m.Update(historyPolledMsg{to: m.run, seq: m.run.req.seq, err: errors.New("503 Service Unavailable")})
	if m = next.(*Model); m.followDelay != maxFollowBackoff {
		t.Fatalf("backoff %s, want the cap %s", m.followDelay, maxFollowBackoff)
	}
	m.followDelay = every

	// The run ends: follow stops.
	m = send(t, m, followTickMsg{seq: m.followSeq})
	if m.followed != nil || !strings.Contains(m.status.text, "follow stopped") {
		t.Fatalf("follow did not stop when the run ended: %+v", m.status)
	}
}

func TestFollowNeedsARunningRunFromASource(t *testing.T) {
	for _, c := range []struct {
		name string
		opts Options
		want string
	}{
		{"ended", Options{Source: tuitest.NewSource().Add(tuitest.Charge()), Open: chargeRef()}, "nothing to follow"},
		{"in memory", Options{History: tuitest.ChargeRunning(0)}, "no source to follow it from"},
		{"saved file", Options{Source: tuitest.NewSource().Add(savedRunning(catalyst.SurfaceFile, "incident.json")), Open: chargeRef()},
			"follow is for live runs: this history was read from incident.json and does not change"},
		{"demo", Options{Source: tuitest.NewSource().Add(savedRunning(catalyst.SurfaceDemo, "demo:ship")), Open: chargeRef()},
			"follow is for live runs: this history was read from a bundled demo (demo:ship)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := keys(t, start(t, c.opts, 120, 40), "F")
			if m.followed != nil || !strings.Contains(m.status.text, c.want) {
				t.Fatalf("following=%v status=%q, want %q", m.followed != nil, m.status.text, c.want)
			}
		})
	}
}

// savedRunning is the running charge history as read from a saved file or
// demo.
func savedRunning(s catalyst.Surface, location string) *catalyst.History {
	h := tuitest.ChargeRunning(0)
	h.Run.Provenance = catalyst.Provenance{Surface: s, Location: location}
	return h
}

// TestFollowNeverPollsASavedHistory: F on a saved run that was running when
// saved says follow is for live runs, and no poll is ever made.
func TestFollowNeverPollsASavedHistory(t *testing.T) {
	src := tuitest.NewSource().Add(savedRunning(catalyst.SurfaceFile, "incident.json"))
	m := start(t, Options{Source: src, Open: chargeRef()}, 120, 40)
	next, cmd := m.Update(keyMsg("F"))
	m = next.(*Model)
	if cmd != nil || m.followed != nil {
		t.Fatalf("F on a saved history started following (cmd %v)", cmd != nil)
	}
	m = send(t, m, followTickMsg{seq: m.followSeq})
	if n := src.Calls("charge-7731"); n != 1 {
		t.Errorf("the saved history was read %d times, want once", n)
	}
	if strings.Contains(plain(m), "following") {
		t.Errorf("the view says it is following:\n%s", plain(m))
	}
}

func TestCopyAndOpen(t *testing.T) {
	link := "https://catalyst.diagrid.io/workflows/payments/charge-7731?project=default"
	m := start(t, Options{History: tuitest.Charge()}, 120, 40)

	// y copies what is selected (TestCopyTargets): here ChargeCard's task
	// execution id, and says so.
	next, cmd := m.Update(keyMsg("y"))
	exec := "8a4f2c71-3b9e-4d05-a6c2-91e07f5d3b18"
	if !sameCmd(cmd, tea.SetClipboard(exec)) {
		t.Errorf("y does not copy the selected invocation's task execution id")
	}
	if got := next.(*Model).status.text; got != "copied the task execution id of ChargeCard "+exec+" to the clipboard (OSC 52, if the terminal allows it)" {
		t.Errorf("status after y = %q", got)
	}
	next, cmd = m.Update(keyMsg("Y"))
	if !sameCmd(cmd, tea.SetClipboard(link)) {
		t.Errorf("Y does not copy the console link")
	}
	if got := next.(*Model).status.text; got != "copied the console link to the clipboard (OSC 52, if the terminal allows it): "+link {
		t.Errorf("status after Y = %q", got)
	}

	// No opener: the link is printed.
	next, cmd = m.Update(keyMsg("o"))
	if cmd != nil || next.(*Model).status.text != "no browser to open here (Y copies the link): "+link {
		t.Errorf("o without an opener: status %q", next.(*Model).status.text)
	}

	// An opener that fails: the link is printed with the reason.
	var opened []string
	m = start(t, Options{History: tuitest.Charge(), OpenURL: func(u string) error {
		opened = append(opened, u)
		return errors.New("no browser")
	}}, 120, 40)
	m = keys(t, m, "o")
	if len(opened) != 1 || opened[0] != link {
		t.Fatalf("opener called with %v", opened)
	}
	if !m.status.err || !strings.Contains(m.status.text, "no browser") || !strings.Contains(m.status.text, link) {
		t.Errorf("failed open: status %+v", m.status)
	}
}

func TestCopyRefusesUnsafeIDsAndMissingLinks(t *testing.T) {
	m := start(t, Options{History: tuitest.Hostile()}, 120, 40)
	for _, k := range []string{"y", "Y", "o"} {
		next, cmd := m.Update(keyMsg(k))
		if cmd != nil {
			t.Errorf("%s on a hostile run id returned a command", k)
		}
		if st := next.(*Model).status; !st.err {
			t.Errorf("%s: status %+v, want an error", k, st)
		}
	}
	if title := m.View().WindowTitle; title != "twice" {
		t.Errorf("window title %q carries a hostile id", title)
	}
	m = start(t, Options{History: tuitest.Charge()}, 120, 40)
	if title := m.View().WindowTitle; title != "twice · charge-7731" {
		t.Errorf("window title = %q", title)
	}
}

func TestResizeRelayouts(t *testing.T) {
	m := start(t, Options{History: tuitest.Charge()}, 120, 40)
	if strings.Contains(plain(m), "────") {
		t.Fatalf("the detail pane is below the list at 120 columns")
	}
	m = send(t, m, tea.WindowSizeMsg{Width: 80, Height: 24})
	out := plain(m)
	checkFrame(t, out, 80, 24)
	if !strings.Contains(out, strings.Repeat("─", 80)) || !strings.Contains(out, "ChargeCard · activity") {
		t.Errorf("at 80 columns the detail pane is not below the list:\n%s", out)
	}
	// p cycles the detail pane: wider, the whole screen, hidden.
	m = keys(t, m, "p", "p")
	if out := plain(m); !strings.Contains(out, "▶ ChargeCard · activity") || strings.Contains(out, "ATTEMPTS") {
		t.Errorf("p p did not zoom the detail pane to the whole screen:\n%s", out)
	}
	m = keys(t, m, "p")
	if strings.Contains(plain(m), "ChargeCard · activity") {
		t.Errorf("p did not hide the detail pane")
	}
}

func TestDetailAppearsWhenTheRunArrivesAfterTheWindowSize(t *testing.T) {
	src := tuitest.NewSource().Add(tuitest.Charge())
	m := New(testOptions(Options{Source: src, Open: chargeRef()}))
	m = send(t, m, tea.WindowSizeMsg{Width: 120, Height: 40})
	cmd := m.Init()
	if !strings.Contains(plain(m), "loading run charge-7731") {
		t.Fatalf("no loading state:\n%s", plain(m))
	}
	m = drive(t, m, cmd)
	if !strings.Contains(plain(m), "ChargeCard · activity · 2 attempts") {
		t.Fatalf("the detail pane is empty after the run loaded:\n%s", plain(m))
	}
}

func TestBackAndClear(t *testing.T) {
	src := tuitest.NewSource().Add(tuitest.Charge())
	m := start(t, Options{Source: src}, 120, 40)
	m = keys(t, m, "enter", "tab", "f")
	if !strings.Contains(plain(m), "filter: failed") {
		t.Fatalf("f did not filter")
	}
	m = keys(t, m, "esc")
	if m.top() != m.run || strings.Contains(plain(m), "filter: failed") {
		t.Fatalf("esc did not clear the filter first")
	}
	m = keys(t, m, "esc")
	if m.top() != m.list {
		t.Fatalf("esc did not go back to the list")
	}
	// With no source there is nowhere to go back to.
	m = keys(t, start(t, Options{History: tuitest.Charge()}, 120, 40), "esc")
	if m.top() != m.run || !strings.Contains(m.status.text, "no run list") {
		t.Errorf("esc with no list: screen %T status %q", m.top(), m.status.text)
	}
}

func TestQuitKeys(t *testing.T) {
	m := start(t, Options{History: tuitest.Charge()}, 120, 40)
	for _, k := range []string{"q", "ctrl+c"} {
		if _, cmd := m.Update(keyMsg(k)); !isQuit(cmd) {
			t.Errorf("%s does not quit", k)
		}
	}
	// (The root changes in place: each case starts anew.)
	typing := keys(t, start(t, Options{History: tuitest.Charge()}, 120, 40), "/")
	if _, cmd := typing.Update(keyMsg("q")); isQuit(cmd) {
		t.Error("q quits while typing a filter")
	}
	if _, cmd := typing.Update(keyMsg("ctrl+c")); !isQuit(cmd) {
		t.Error("ctrl+c does not quit while typing a filter")
	}
	help := keys(t, start(t, Options{History: tuitest.Charge()}, 120, 40), "?")
	if !strings.Contains(plain(help), "Keys and marks (? or esc closes)") {
		t.Fatalf("? does not show the help")
	}
	if strings.Contains(plain(keys(t, help, "?")), "Keys and marks (? or esc closes)") {
		t.Error("? does not close the help")
	}
}

func TestRunListAnalyzesRowsWithBoundedConcurrency(t *testing.T) {
	src := tuitest.NewSource()
	for i := range 10 {
		h := tuitest.Charge()
		h.Run.ID = "run-" + string(rune('a'+i))
		src.Add(h)
	}
	m := New(testOptions(Options{Source: src}))
	m = send(t, m, tea.WindowSizeMsg{Width: 120, Height: 40})
	next, cmd := m.Update(runsListedMsg{seq: m.list.req.seq, list: src.Runs})
	m = next.(*Model)
	if m.list.active != maxAnalyses || len(m.list.pending) != 10-maxAnalyses {
		t.Fatalf("active %d pending %d, want %d and %d", m.list.active, len(m.list.pending), maxAnalyses, 10-maxAnalyses)
	}
	if got := len(batch(cmd)); got != maxAnalyses {
		t.Fatalf("%d analyses started, want %d", got, maxAnalyses)
	}
	// Each answer starts the next one.
	next, cmd = m.Update(runAnalyzedMsg{seq: m.list.req.seq, key: runlist.Key(src.Runs.Runs[0]), summary: runlist.Summary{Findings: 1, Worst: detect.SeverityHigh}})
	m = next.(*Model)
	if m.list.active != maxAnalyses || len(m.list.pending) != 10-maxAnalyses-1 || len(batch(cmd)) != 1 {
		t.Fatalf("after one answer: active %d pending %d", m.list.active, len(m.list.pending))
	}
	// An answer for an older list is dropped.
	next, _ = m.Update(runAnalyzedMsg{seq: m.list.req.seq - 1, key: runlist.Key(src.Runs.Runs[1])})
	if _, done := next.(*Model).list.Summary(runlist.Key(src.Runs.Runs[1])); done {
		t.Error("a stale analysis was recorded")
	}

	m = start(t, Options{Source: src}, 120, 40)
	if got := strings.Count(plain(m), "▲ HIGH duplicate? ChargeCard"); got != 10 {
		t.Errorf("%d rows show their findings, want 10:\n%s", got, plain(m))
	}
}

func TestRunListToggles(t *testing.T) {
	// (The root changes in place: each case starts anew.)
	fresh := func() *Model { return start(t, Options{Source: listSource()}, 120, 40) }
	// Rows only: the preview names the selected run again ("charge-7731:").
	rows := regexp.MustCompile(`(charge-7\d+|empty-1) `)
	count := func(m *Model) int { return len(rows.FindAllString(plain(m), -1)) }
	if n := count(fresh()); n != 4 {
		t.Fatalf("%d runs listed, want 4", n)
	}
	for _, c := range []struct {
		keys []string
		want int
	}{{[]string{"f"}, 1}, {[]string{"!"}, 3}, {[]string{"r"}, 3}, {[]string{"f", "f"}, 4}, {[]string{"/", "7", "8"}, 1}, {[]string{"/", "r", "e", "f", "u", "n", "d"}, 1}} {
		got := count(keys(t, fresh(), c.keys...))
		if got != c.want {
			t.Errorf("%v shows %d runs, want %d", c.keys, got, c.want)
		}
	}
	sorted := plain(keys(t, fresh(), "s", "s"))
	if strings.Index(sorted, "charge-7800") > strings.Index(sorted, "charge-7731") {
		t.Errorf("s did not sort the oldest first:\n%s", sorted)
	}
}

func TestAnalysisPanicBecomesAnError(t *testing.T) {
	m := New(testOptions(Options{History: tuitest.Charge()}))
	m.analyze = func(*catalyst.History) *detect.Report { panic("boom") }
	m = send(t, m, tea.WindowSizeMsg{Width: 80, Height: 24})
	m = drive(t, m, m.Init())
	if !m.status.err || !strings.Contains(m.status.text, "boom") {
		t.Fatalf("status = %+v, want the panic reported", m.status)
	}
}

func TestHandBuiltReport(t *testing.T) {
	// The root takes its analysis from m.analyze: a hand-built report shows
	// as given.
	h := tuitest.Charge()
	rep := &detect.Report{
		Invocations: []detect.Invocation{{Kind: detect.KindActivity, Name: "ChargeCard", Key: "k1", Outcome: detect.OutcomeUnknown,
			Attempts: []detect.Attempt{{Number: 1, Scheduled: 2, OutcomeEvent: -1, Outcome: detect.OutcomeUnknown}}, Findings: []int{0}}},
		Findings: []detect.Finding{{ID: detect.FindingUnknownOutcome, Severity: detect.SeverityMedium, Confidence: detect.ConfidencePossible,
			Activity: "ChargeCard", Invocation: "k1", InvocationIndex: 0}},
	}
	m := New(testOptions(Options{History: h}))
	m.analyze = func(*catalyst.History) *detect.Report { return rep }
	m = send(t, m, tea.WindowSizeMsg{Width: 120, Height: 40})
	m = drive(t, m, m.Init())
	out := plain(m)
	if !strings.Contains(out, "◆ MEDIUM outcome?") || !strings.Contains(out, "? unknown") {
		t.Errorf("the hand-built report is not shown:\n%s", out)
	}
	if m.run.Index().Report != rep {
		t.Error("the index does not hold the report")
	}
	_ = runview.TabFindings
}

// sameCmd reports whether two commands produce equal messages.
func sameCmd(a, b tea.Cmd) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return reflect.DeepEqual(a(), b())
}

// isQuit reports whether cmd quits the program.
func isQuit(cmd tea.Cmd) bool {
	if cmd == nil {
		return false
	}
	_, ok := cmd().(tea.QuitMsg)
	return ok
}

// batch returns the commands of a batch (one command is a batch of one).
func batch(cmd tea.Cmd) []tea.Cmd {
	if cmd == nil {
		return nil
	}
	var out []tea.Cmd
	for _, c := range flattenBatch(cmd) {
		if c != nil {
			out = append(out, c)
		}
	}
	return out
}

// flattenBatch opens tea.Batch without running the commands inside it:
// Batch's command returns a BatchMsg of them.
func flattenBatch(cmd tea.Cmd) []tea.Cmd {
	done := make(chan tea.Msg, 1)
	go func() { done <- cmd() }()
	select {
	case msg := <-done:
		if b, ok := msg.(tea.BatchMsg); ok {
			return b
		}
		return []tea.Cmd{cmd}
	case <-time.After(5 * time.Second):
		return []tea.Cmd{cmd}
	}
}

// TestMouse: the view turns mouse reporting on; a click selects the row
// under it (and a tab in the tab bar), the wheel scrolls the pane under the
// pointer — the list or the detail pane — and a click on the detail pane
// gives it the keys.
func TestMouse(t *testing.T) {
	m := start(t, Options{History: tuitest.Checkout(), Banner: "a banner"}, 120, 24)
	if m.View().MouseMode != tea.MouseModeCellMotion {
		t.Fatalf("mouse mode %v, want cell motion", m.View().MouseMode)
	}
	// Rows start below the banner (1), the header (3), the tab bar (1) and
	// the heading (1).
	click := func(x, y int) tea.MouseClickMsg { return tea.MouseClickMsg{X: x, Y: y, Button: tea.MouseLeft} }
	m = send(t, m, click(10, 6))
	if got := m.run.Selection(); got != "invocation:0:-1" {
		t.Errorf("a click on the first row selected %q", got)
	}
	m = send(t, m, tea.MouseWheelMsg{X: 10, Y: 7, Button: tea.MouseWheelDown})
	if got := m.run.Selection(); got != "invocation:2:-1" {
		t.Errorf("the wheel over the list selected %q, want the last row", got)
	}
	// The tab bar: a click on "Events" switches to it.
	bar := strings.Split(plain(m), "\n")[4]
	m = send(t, m, click(strings.Index(bar, "Events"), 4))
	if m.run.Tab() != runview.TabEvents {
		t.Errorf("a click on Events in the tab bar: tab %d", m.run.Tab())
	}
	// The detail pane: the wheel scrolls it; a click focuses it.
	m = send(t, m, tea.MouseWheelMsg{X: 100, Y: 10, Button: tea.MouseWheelDown})
	if out := plain(m); !strings.Contains(out, "%, J/K") || strings.Contains(out, "(0%,") {
		t.Errorf("the wheel did not scroll the detail pane:\n%s", plain(m))
	}
	m = send(t, m, click(100, 10))
	if !strings.Contains(plain(m), "▶ Event #") {
		t.Errorf("a click did not focus the detail pane:\n%s", plain(m))
	}
	// Over the banner or the key bar, nothing happens.
	sel := m.run.Selection()
	m = send(t, m, click(10, 0), click(10, 23))
	if m.run.Selection() != sel {
		t.Errorf("a click outside the pane changed the selection")
	}
}

// TestAutoRefresh: with RefreshEvery the run list is read again when the
// tick comes while it is on screen (not while a run covers it), and the
// title says when it was read.
func TestAutoRefresh(t *testing.T) {
	src := listSource()
	m := start(t, testOptions(Options{Source: src, RefreshEvery: time.Millisecond}), 120, 40)
	if !strings.Contains(plain(m), "read 11:20:00, every 1.0ms") {
		t.Errorf("the title does not say when the list was read:\n%s", plain(m))
	}
	tick := refreshTickMsg{seq: m.refreshSeq}
	next, cmd := m.Update(tick)
	m = next.(*Model)
	if cmd == nil {
		t.Fatal("a refresh tick with the list on screen did not list the runs again")
	}
	m = drive(t, m, cmd)
	// A stale tick (an older timer) does nothing.
	if _, cmd := m.Update(refreshTickMsg{seq: m.refreshSeq - 1}); cmd != nil {
		t.Error("a stale tick listed the runs")
	}
	// Covered by a run: the tick waits for the next one, and the list is
	// not read.
	m = keys(t, m, "enter")
	listed := m.list.req.seq
	if _, cmd := m.Update(refreshTickMsg{seq: m.refreshSeq}); cmd == nil || m.list.req.seq != listed {
		t.Errorf("a tick under a run: a command %v, the list's request %d → %d", cmd != nil, listed, m.list.req.seq)
	}
}

// TestLoadingSaysWhatItWaitsOn: while a run loads, the view says which run,
// for how long, and what the source is doing (a retry).
func TestLoadingSaysWhatItWaitsOn(t *testing.T) {
	now := tuitest.Now()
	clock := func() time.Time { return now }
	src := tuitest.NewSource().Add(tuitest.Charge())
	src.Gate = make(chan struct{})
	defer close(src.Gate)
	m := New(testOptions(Options{Source: src, Open: chargeRef(), Now: clock,
		SourceNote: func() string { return "retry 2 after HTTP 503 Service Unavailable" }}))
	m = send(t, m, tea.WindowSizeMsg{Width: 120, Height: 40})
	m.Init()
	now = now.Add(3200 * time.Millisecond)
	if out := plain(m); !strings.Contains(out, "loading run charge-7731 for 3.20s (retry 2 after HTTP 503 Service Unavailable)…") {
		t.Errorf("the loading line:\n%s", out)
	}
}

// TestErrorPaneRedacts: an error whose words hold the token (a server
// echoing it) is shown through Options.Redact, in the run pane and on the
// status line alike.
func TestErrorPaneRedacts(t *testing.T) {
	const token = "cat_TESTTOKEN_123"
	redact := func(s string) string { return strings.ReplaceAll(s, token, "[redacted]") }
	src := tuitest.NewSource()
	src.FailNext("charge-7731", errors.New("HTTP 500: your token "+token+" expired"))
	m := start(t, Options{Source: src, Open: chargeRef(), Redact: redact}, 120, 40)
	if view := m.View().Content; strings.Contains(view, token) || !strings.Contains(view, "[redacted]") {
		t.Fatalf("the error pane shows:\n%s", view)
	}
}
