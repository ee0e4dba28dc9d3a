package tui

import (
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/safetext"
	"github.com/twice-cli/twice/tui/format"
	"github.com/twice-cli/twice/tui/runlist"
	"github.com/twice-cli/twice/tui/runview"
)

// handleMouse gives a mouse event over the pane to the screen on top, in
// the pane's coordinates (common.Pane); events over the banner, the status
// line or the key bar, or while the help screen shows, go nowhere.
func (m *Model) handleMouse(msg tea.MouseMsg) tea.Cmd {
	ev := msg.Mouse()
	ev.Y -= m.bannerHeight()
	if m.showHelp || ev.Y < 0 || ev.Y >= m.paneHeight() {
		return nil
	}
	var in tea.Msg
	switch msg.(type) {
	case tea.MouseClickMsg:
		in = tea.MouseClickMsg(ev)
	case tea.MouseReleaseMsg:
		in = tea.MouseReleaseMsg(ev)
	case tea.MouseWheelMsg:
		in = tea.MouseWheelMsg(ev)
	case tea.MouseMotionMsg:
		in = tea.MouseMotionMsg(ev)
	default:
		return nil
	}
	return m.top().Update(in)
}

// openRun puts a run view on top of the list and fetches the run.
func (m *Model) openRun(run catalyst.Run) tea.Cmd {
	ref := runlist.RefOf(run)
	s := &runScreen{Model: m.newRunView(), ref: &ref}
	m.push(s)
	m.run = s
	return s.load(m, loadOpen)
}

// openChild puts a child workflow's run on top of its parent: read from
// the source when the parent was read live; when the parent came from a
// file (or standard input, or a demo), a screen that says the child is not
// in it, with its id and link, and how to read it.
func (m *Model) openChild(msg runview.OpenChildMsg) tea.Cmd {
	s := &runScreen{Model: m.newRunView()}
	if msg.Parent.Provenance.Saved() || m.opts.Source == nil || !msg.Parent.Provenance.Live() {
		s.SetAbsent(msg.Run, m.absentLines(msg))
		m.push(s)
		return nil
	}
	ref := runlist.RefOf(msg.Run)
	s.ref = &ref
	m.push(s)
	m.run = s
	return s.load(m, loadOpen)
}

// absentLines say that a child run is not in the file its parent was read
// from, name it, and say how to read it.
func (m *Model) absentLines(msg runview.OpenChildMsg) []string {
	child, parent := msg.Run, msg.Parent
	where := savedWhere(parent.Provenance)
	if !parent.Provenance.Saved() {
		where = "this history"
	}
	lines := []string{
		"The child run " + format.Line(child.ID) + " (" + format.Line(child.Workflow) + ") is not in " + where +
			": it holds run " + format.Line(parent.ID) + " only.",
		"",
	}
	if catalyst.IsPlainID(child.ID) && catalyst.IsPlainID(child.AppID) {
		cmd := "twice show " + child.ID + " --app " + child.AppID
		if p := runlist.RefOf(child).Project; catalyst.IsPlainID(p) {
			cmd += " --project " + p
		}
		lines = append(lines, "Read it from Catalyst: "+cmd)
	}
	if link, ok := catalyst.ConsoleLink(m.c.Console, child); ok {
		lines = append(lines, "Console: "+link)
	} else {
		lines = append(lines, "No console link: app "+format.Line(child.AppID)+", run "+format.Line(child.ID))
	}
	return append(lines, "", "y copies its run id, Y its link; esc goes back to the parent where you were.")
}

// onRunsListed shows a fetched run list and starts analyzing its rows.
func (m *Model) onRunsListed(msg runsListedMsg) tea.Cmd {
	s := m.list
	if !s.req.current(msg.seq) {
		return nil
	}
	next := m.scheduleRefresh()
	ticked, onScreen := s.ticked, s.onScreen
	s.ticked, s.onScreen = false, nil
	if msg.err != nil {
		text := "could not list runs: " + m.errorText(msg.err)
		if s.Listed() {
			// The old list stays on screen; say why it was not refreshed.
			m.setError(text + " (R retries)")
		}
		s.SetError(text)
		return next
	}
	if m.status.err || m.status.text == "refreshing the run list" {
		m.setStatus("")
	}
	if ticked {
		for _, k := range s.stale(msg.list.Runs, onScreen, m.opts.Now()) {
			s.Forget(k)
		}
	}
	shown := s.SetRuns(msg.list)
	s.SetRefreshed(m.opts.Now(), m.opts.RefreshEvery)
	s.pending = s.pending[:0]
	for _, run := range msg.list.Runs {
		k := runlist.Key(run)
		if _, done := s.Summary(k); done {
			continue
		}
		if mark, read := s.read[k]; ticked && read && m.opts.Now().Sub(mark.at) < refreshFloor {
			continue // read (or asked for) moments ago: a later tick reads it
		}
		s.pending = append(s.pending, run)
	}
	return tea.Batch(shown, s.nextAnalyses(m), next)
}

// scheduleRefresh starts the run list's next auto-refresh, when it has
// one (Options.RefreshEvery), superseding any tick already set.
func (m *Model) scheduleRefresh() tea.Cmd {
	every := m.opts.RefreshEvery
	if every <= 0 || m.opts.Source == nil {
		return nil
	}
	m.refreshSeq++
	seq := m.refreshSeq
	return tea.Tick(every, func(time.Time) tea.Msg { return refreshTickMsg{seq: seq} })
}

// onRefreshTick lists the runs again, when the list is on screen and
// nothing is being typed into it; otherwise it waits for the next tick.
func (m *Model) onRefreshTick(msg refreshTickMsg) tea.Cmd {
	if msg.seq != m.refreshSeq {
		return nil
	}
	s := m.list
	if m.top() != screen(s) || s.Capturing() || m.showHelp {
		return m.scheduleRefresh()
	}
	// Which running runs to read again is decided when the list comes
	// (onRunsListed): the ones whose rows changed or that were on screen.
	s.ticked, s.onScreen = true, s.OnScreen()
	return s.fetch(m)
}

// onRunAnalyzed fills in a row's findings and starts the next analysis.
func (m *Model) onRunAnalyzed(msg runAnalyzedMsg) tea.Cmd {
	s := m.list
	if !s.req.current(msg.seq) {
		return nil
	}
	s.active--
	if msg.err != nil {
		msg.summary = runlist.Summary{Err: "could not analyze this run: " + m.errorText(msg.err)}
	}
	shown := s.SetSummary(msg.key, msg.summary)
	return tea.Batch(shown, s.nextAnalyses(m))
}

// onHistoryDecoded shows a run opened afresh, decoded, and starts its
// analysis; its answer is dropped if another request comes meanwhile (same
// seq).
func (m *Model) onHistoryDecoded(msg historyDecodedMsg) tea.Cmd {
	s := msg.to
	if !s.req.current(msg.seq) {
		return nil // stale: a newer request superseded it
	}
	if msg.err != nil {
		return m.loadFailed(s, msg.err)
	}
	cmd := s.SetHistory(msg.history, nil, false)
	m.setStatus(s.OpenSummary())
	return tea.Batch(cmd, analyzeHistory(msg.history, m.analyze, s, msg.seq))
}

// onHistoryAnalyzed adds detect's results to the history on screen, or says
// why detect failed.
func (m *Model) onHistoryAnalyzed(msg historyAnalyzedMsg) tea.Cmd {
	s := msg.to
	if !s.req.current(msg.seq) {
		return nil
	}
	if msg.err != nil {
		// The history is on screen; only detect failed.
		text := m.errorText(msg.err)
		s.SetAnalysisError(text)
		m.setError(text)
		return nil
	}
	cmd := s.SetIndex(msg.index)
	m.setStatus(s.OpenSummary())
	return cmd
}

// onHistoryRefreshed shows the run on screen fetched again, keeping the
// user's place.
func (m *Model) onHistoryRefreshed(msg historyRefreshedMsg) tea.Cmd {
	s := msg.to
	if !s.req.current(msg.seq) {
		return nil
	}
	if msg.err != nil {
		return m.loadFailed(s, msg.err)
	}
	cmd := s.SetHistory(msg.history, msg.index, true)
	if !m.status.err && m.status.text != "" {
		m.setStatus("refreshed")
	}
	return cmd
}

// onHistoryPolled shows what a poll of the followed run brought, and
// schedules the next poll; a failed poll backs off and retries; follow
// stops when the run ended.
func (m *Model) onHistoryPolled(msg historyPolledMsg) tea.Cmd {
	s := msg.to
	if !s.req.current(msg.seq) {
		return nil
	}
	if msg.err != nil {
		if m.followed != s {
			return m.loadFailed(s, msg.err)
		}
		m.followDelay = min(m.followDelay*2, maxFollowBackoff)
		m.setError("poll failed: " + m.errorText(msg.err) + "; retrying in " + format.Duration(m.followDelay))
		return followTick(m.followDelay, m.followSeq)
	}
	before := 0
	if h := s.History(); h != nil {
		before = h.Len()
	}
	cmd := s.SetHistory(msg.history, msg.index, true)
	if m.followed != s {
		return cmd
	}
	status := msg.history.Run.Status
	if status.IsEnded() {
		m.stopFollow()
		mark, _ := format.StatusMark(status)
		m.setStatus("the run ended (" + mark + "); follow stopped")
		return cmd
	}
	m.followDelay = m.opts.FollowInterval
	if added := msg.history.Len() - before; added > 0 {
		m.setStatus("following: " + format.Plural(added, "new event") + " (marked +)")
	} else {
		m.setStatus("following: no new events")
	}
	return tea.Batch(cmd, followTick(m.followDelay, m.followSeq))
}

// loadFailed reports that s's run could not be fetched (or analyzed after
// a refresh): in the pane, with the keys to retry or go back, when it has no
// history to show; else in the status line, the history staying.
func (m *Model) loadFailed(s *runScreen, err error) tea.Cmd {
	text := m.errorText(err)
	what := "could not load the run: "
	if ref := s.ref; ref != nil && ref.ID != "" {
		what = "could not load run " + safetext.Line(ref.ID) + ": "
	}
	if s.History() == nil {
		s.SetError(what + text)
		m.setStatus("")
		return nil
	}
	m.setError(what + text + " (R retries)")
	return nil
}

// toggleFollow starts or stops following the run on screen, s.
func (m *Model) toggleFollow(s *runScreen) tea.Cmd {
	if m.followed != nil {
		m.stopFollow()
		m.setStatus("stopped following")
		return nil
	}
	h := s.History()
	switch {
	case s.ref == nil:
		m.setStatus("this history was loaded already; there is no source to follow it from")
		return nil
	case h == nil:
		m.setStatus("the run is still loading")
		return nil
	case h.Run.Provenance.Saved():
		// A saved history does not change: polling it would only look
		// like following.
		m.setStatus("follow is for live runs: this history was read from " + savedWhere(h.Run.Provenance) +
			" and does not change")
		return nil
	case h.Run.Status.IsEnded():
		mark, _ := format.StatusMark(h.Run.Status)
		m.setStatus("the run has ended (" + mark + "): nothing to follow")
		return nil
	}
	m.followed = s
	m.followSeq++
	m.followDelay = m.opts.FollowInterval
	s.SetFollowing(true)
	m.setStatus("following: polling every " + format.Duration(m.followDelay))
	return followTick(m.followDelay, m.followSeq)
}

// savedWhere names where a saved history was read from.
func savedWhere(p catalyst.Provenance) string {
	switch {
	case p.Surface == catalyst.SurfaceStdin:
		return "standard input"
	case p.Surface == catalyst.SurfaceDemo:
		return "a bundled demo (" + format.Line(p.Location) + ")"
	case p.Location != "":
		return format.Line(p.Location)
	}
	return "a file"
}

// stopFollow ends follow mode; a tick already scheduled is dropped.
func (m *Model) stopFollow() {
	if m.followed != nil {
		m.followed.SetFollowing(false)
		m.followed = nil
	}
	m.followSeq++
}

// onFollowTick polls the followed run.
func (m *Model) onFollowTick(msg followTickMsg) tea.Cmd {
	s := m.followed
	if s == nil || msg.seq != m.followSeq || s.ref == nil {
		return nil
	}
	return s.load(m, loadPoll)
}

// maxCopyBytes bounds what y copies: OSC 52 goes through the terminal, and
// terminals drop (or cut) larger sequences.
const maxCopyBytes = 100_000

// copySelected copies what is selected on the screen on top, with OSC 52:
// an id, an event's JSON, a finding as Markdown (the screen decides), and
// says what it copied.
func (m *Model) copySelected() tea.Cmd {
	text, what := m.top().copyTarget()
	switch {
	case text == "" && strings.HasSuffix(what, runview.NotCopied):
		m.setError(what)
		return nil
	case text == "" && what != "":
		m.setStatus(what)
		return nil
	case text == "":
		m.setStatus("nothing selected to copy")
		return nil
	case !copySafe(text):
		m.setError(what + " holds characters that are unsafe to copy; not copied")
		return nil
	case len(text) > maxCopyBytes:
		m.setError(what + " is " + format.Count(len(text)) + " bytes, more than a terminal's clipboard takes (" +
			format.Count(maxCopyBytes) + "); not copied")
		return nil
	}
	desc := what
	if !strings.Contains(text, "\n") && len(text) <= 80 {
		desc += " " + text
	} else {
		desc += " (" + format.Plural(len(text), "byte") + ")"
	}
	return m.copyText(text, desc)
}

// copyText copies text with OSC 52 and, inside tmux, into tmux's paste
// buffer, and says where it went (desc says what it is). Inside tmux the
// status line says so once tmux answered.
func (m *Model) copyText(text, desc string) tea.Cmd {
	if m.opts.TmuxBuffer == nil {
		m.setStatus("copied " + desc + " to the clipboard" + viaOSC52)
		return tea.SetClipboard(text)
	}
	m.setStatus("copying " + desc + " to tmux's paste buffer…")
	return tea.Batch(tea.SetClipboard(text), loadTmuxBuffer(m.opts.TmuxBuffer, text, desc))
}

// onTmuxLoaded says where a copy made inside tmux went.
func (m *Model) onTmuxLoaded(msg tmuxLoadedMsg) {
	if msg.err != nil {
		m.setError("copied with OSC 52 only, which tmux ignores by default: tmux load-buffer failed (" +
			format.Line(msg.err.Error()) + "); the copy: " + msg.desc)
		return
	}
	// Where first: the status line is cut at the terminal's width.
	m.setStatus("copied to tmux's paste buffer (prefix ] pastes) and the clipboard (if the terminal allows it): " + msg.desc)
}

// copySafe reports whether text may go to the clipboard: an id only when
// it is a plain id; longer text (JSON, Markdown) only when every line is
// free of control, bidi and zero-width characters.
func copySafe(text string) bool {
	if !strings.Contains(text, "\n") && !strings.ContainsAny(text, " {") {
		// An id: plain, and nothing in it the screen would escape (a
		// variation selector, a filler that looks like nothing).
		return catalyst.IsPlainID(text) && safetext.IsSafe(text)
	}
	for _, l := range strings.Split(text, "\n") {
		if !safetext.IsSafe(l) {
			return false
		}
	}
	return true
}

// copyLink copies the run's console link with OSC 52.
func (m *Model) copyLink() tea.Cmd {
	run, ok := m.top().subject()
	if !ok {
		m.setStatus("no run selected")
		return nil
	}
	link, ok := catalyst.ConsoleLink(m.opts.Console, run)
	if !ok {
		m.setError("no console link for app " + format.Line(run.AppID) + ", run " + format.Line(run.ID) + ": nothing copied")
		return nil
	}
	if m.opts.TmuxBuffer == nil {
		m.setStatus("copied the console link to the clipboard" + viaOSC52 + ": " + link)
		return tea.SetClipboard(link)
	}
	return m.copyText(link, "the console link "+link)
}

// viaOSC52 says how a copy reaches the clipboard: through the terminal
// (which works over SSH), so it depends on the terminal allowing it.
const viaOSC52 = " (OSC 52, if the terminal allows it)"

// openLink opens the run's console link, or prints it.
func (m *Model) openLink() tea.Cmd {
	run, ok := m.top().subject()
	if !ok {
		m.setStatus("no run selected")
		return nil
	}
	link, ok := catalyst.ConsoleLink(m.opts.Console, run)
	switch {
	case !ok:
		m.setError("no console link for app " + format.Line(run.AppID) + ", run " + format.Line(run.ID))
		return nil
	case m.opts.OpenURL == nil:
		m.setStatus("no browser to open here (Y copies the link): " + link)
		return nil
	}
	m.setStatus("opening in the browser: " + link)
	return openURL(m.opts.OpenURL, link)
}

func (m *Model) onURLOpened(msg urlOpenedMsg) {
	if msg.err != nil {
		m.setError("could not open a browser (" + msg.err.Error() + "; Y copies the link): " + msg.url)
		return
	}
	m.setStatus("sent to the browser: " + msg.url)
}

// followState describes follow mode for the status line's right side.
func (m *Model) followState() string {
	if m.followed == nil {
		return ""
	}
	return "● follow " + format.Duration(m.followDelay.Truncate(time.Second))
}
