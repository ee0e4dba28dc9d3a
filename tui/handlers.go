package tui

import (
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/safetext"
	"github.com/twice-cli/twice/tui/format"
	"github.com/twice-cli/twice/tui/runlist"
)

// handleKey applies the global keys (quit, help, refresh, follow, open and
// copy) and passes the others to the pane on screen. While a pane reads
// text (the filter), only ctrl+c is global.
func (m Model) handleKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	k := &m.c.Keys
	if key.Matches(msg, k.ForceQuit) {
		return m, tea.Quit
	}
	if m.showHelp {
		switch {
		case key.Matches(msg, k.Quit):
			return m, tea.Quit
		case key.Matches(msg, k.Help, k.Back):
			m.showHelp = false
		}
		return m, nil
	}
	if m.capturing() {
		return m, m.paneUpdate(msg)
	}
	switch {
	case key.Matches(msg, k.Quit):
		return m, tea.Quit
	case key.Matches(msg, k.Help):
		m.showHelp = true
	case key.Matches(msg, k.Refresh):
		return m, m.refresh()
	case key.Matches(msg, k.Follow):
		return m, m.toggleFollow()
	case key.Matches(msg, k.CopyID):
		return m, m.copyID()
	case key.Matches(msg, k.CopyLink):
		return m, m.copyLink()
	case key.Matches(msg, k.Open):
		return m, m.openLink()
	default:
		return m, m.paneUpdate(msg)
	}
	return m, nil
}

func (m *Model) capturing() bool {
	if m.screen == screenRun {
		return m.run.Capturing()
	}
	return m.list.Capturing()
}

func (m *Model) paneUpdate(msg tea.Msg) tea.Cmd {
	if m.screen == screenRun {
		return m.run.Update(msg)
	}
	return m.list.Update(msg)
}

// startList fetches the run list.
func (m *Model) startList() tea.Cmd {
	if m.opts.Source == nil {
		m.list.SetError(noSource)
		return nil
	}
	m.listSeq++
	m.pending, m.active = nil, 0
	return tea.Batch(listRuns(m.ctx, m.opts.Source, m.opts.Query, m.listSeq), m.list.SetLoading())
}

// startLoad fetches a run's history (keep: it is the run on screen, being
// refreshed).
func (m *Model) startLoad(ref catalyst.RunRef, keep bool) tea.Cmd {
	if m.opts.Source == nil {
		m.run.SetError("no source to fetch run " + safetext.Line(ref.ID) + " from")
		return nil
	}
	m.historySeq++
	m.ref = &ref
	return tea.Batch(loadHistory(m.ctx, m.opts.Source, ref, m.analyze, m.historySeq, keep, false), m.run.SetLoading(refName(ref)))
}

// noSource is the list's error when twice was started without a source.
const noSource = "no source of runs: open a history file with twice show FILE"

// refName names a run reference for the loading line: its id, else where
// it is read from.
func refName(ref catalyst.RunRef) string {
	if ref.ID != "" {
		return ref.ID
	}
	return ref.Location
}

// openRun switches to the run view and fetches the run.
func (m *Model) openRun(run catalyst.Run) tea.Cmd {
	m.stopFollow()
	m.screen = screenRun
	m.run = m.newRunView()
	m.setStatus("")
	return m.startLoad(runlist.RefOf(run), false)
}

// back leaves the run view for the run list.
func (m *Model) back() tea.Cmd {
	if m.opts.Source == nil {
		m.setStatus("no run list to go back to: this history was opened directly (q quits)")
		return nil
	}
	m.stopFollow()
	m.historySeq++ // drop any load in flight
	m.screen = screenList
	m.setStatus("")
	if !m.list.Listed() {
		return m.startList()
	}
	return nil
}

// refresh fetches the list or the run on screen again.
func (m *Model) refresh() tea.Cmd {
	if m.screen == screenList {
		for _, run := range m.list.Runs() {
			if !run.Status.IsEnded() {
				m.list.Forget(runlist.Key(run))
			}
		}
		m.setStatus("refreshing the run list")
		return m.startList()
	}
	if m.ref == nil {
		m.setStatus("this history was loaded from a file or stdin already; there is nothing to refresh")
		return nil
	}
	m.setStatus("refreshing run " + safetext.Line(m.ref.ID))
	return m.startLoad(*m.ref, m.run.History() != nil)
}

// onRunsListed shows a fetched run list and starts analyzing its rows.
func (m Model) onRunsListed(msg runsListedMsg) (tea.Model, tea.Cmd) {
	if msg.seq != m.listSeq {
		return m, nil
	}
	if msg.err != nil {
		text := "could not list runs: " + m.errorText(msg.err)
		if m.list.Listed() {
			// The old list stays on screen; say why it was not refreshed.
			m.setError(text + " (R retries)")
		}
		m.list.SetError(text)
		return m, nil
	}
	if m.status.err || m.status.text == "refreshing the run list" {
		m.setStatus("")
	}
	m.list.SetRuns(msg.list)
	m.pending = m.pending[:0]
	for _, run := range msg.list.Runs {
		if _, done := m.list.Summary(runlist.Key(run)); !done {
			m.pending = append(m.pending, run)
		}
	}
	return m, m.nextAnalyses()
}

// nextAnalyses starts background analyses up to the bound.
func (m *Model) nextAnalyses() tea.Cmd {
	var cmds []tea.Cmd
	for m.active < maxAnalyses && len(m.pending) > 0 {
		run := m.pending[0]
		m.pending = m.pending[1:]
		m.active++
		cmds = append(cmds, analyzeRun(m.ctx, m.opts.Source, run, m.analyze, m.listSeq))
	}
	return tea.Batch(cmds...)
}

// onRunAnalyzed fills in a row's findings and starts the next analysis.
func (m Model) onRunAnalyzed(msg runAnalyzedMsg) (tea.Model, tea.Cmd) {
	if msg.seq != m.listSeq {
		return m, nil
	}
	m.active--
	if msg.err != nil {
		msg.summary = runlist.Summary{Err: "could not analyze this run: " + m.errorText(msg.err)}
	}
	m.list.SetSummary(msg.key, msg.summary)
	return m, m.nextAnalyses()
}

// onHistoryLoaded shows a fetched or analyzed history, or why it failed.
func (m Model) onHistoryLoaded(msg historyLoadedMsg) (tea.Model, tea.Cmd) {
	if msg.seq != m.historySeq {
		return m, nil // stale: a newer request superseded it
	}
	if msg.err != nil {
		return m, m.onLoadError(msg)
	}
	if msg.analysis {
		cmd := m.run.SetIndex(msg.index)
		m.setStatus(m.run.OpenSummary())
		return m, cmd
	}
	before := 0
	if h := m.run.History(); h != nil && msg.keep {
		before = h.Len()
	}
	cmd := m.run.SetHistory(msg.history, msg.index, msg.keep)
	if msg.index == nil {
		// Decoded only: the header and the events are on screen; detect
		// runs now, and its answer is dropped if another request came
		// meanwhile (same seq).
		cmd = tea.Batch(cmd, analyzeHistory(msg.history, m.analyze, m.historySeq))
	}
	if !msg.poll {
		switch {
		case !msg.keep:
			m.setStatus(m.run.OpenSummary())
		case !m.status.err && m.status.text != "":
			m.setStatus("refreshed")
		}
		return m, cmd
	}
	if !m.following {
		return m, cmd
	}
	status := msg.history.Run.Status
	if status.IsEnded() {
		m.stopFollow()
		mark, _ := format.StatusMark(status)
		m.setStatus("the run ended (" + mark + "); follow stopped")
		return m, cmd
	}
	m.followDelay = m.opts.FollowInterval
	added := msg.history.Len() - before
	if added > 0 {
		m.setStatus("following: " + format.Plural(added, "new event") + " (marked +)")
	} else {
		m.setStatus("following: no new events")
	}
	return m, tea.Batch(cmd, followTick(m.followDelay, m.followSeq))
}

// onLoadError reports a failed fetch; a failed poll backs off and retries.
func (m *Model) onLoadError(msg historyLoadedMsg) tea.Cmd {
	text := m.errorText(msg.err)
	if msg.analysis {
		// The history is on screen; only detect failed.
		m.run.SetAnalysisError(text)
		m.setError(text)
		return nil
	}
	if msg.poll && m.following {
		m.followDelay = min(m.followDelay*2, maxFollowBackoff)
		m.setError("poll failed: " + text + "; retrying in " + format.Duration(m.followDelay))
		return followTick(m.followDelay, m.followSeq)
	}
	what := "could not load the run: "
	if m.ref != nil && m.ref.ID != "" {
		what = "could not load run " + safetext.Line(m.ref.ID) + ": "
	}
	if m.run.History() == nil {
		// The pane says it in full, with the keys to retry or go back.
		m.run.SetError(what + text)
		m.setStatus("")
		return nil
	}
	m.setError(what + text + " (R retries)")
	return nil
}

// toggleFollow starts or stops following the run on screen.
func (m *Model) toggleFollow() tea.Cmd {
	if m.screen != screenRun {
		m.setStatus("open a run to follow it")
		return nil
	}
	if m.following {
		m.stopFollow()
		m.setStatus("stopped following")
		return nil
	}
	h := m.run.History()
	switch {
	case m.ref == nil:
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
	m.following = true
	m.followSeq++
	m.followDelay = m.opts.FollowInterval
	m.run.SetFollowing(true)
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

func (m *Model) stopFollow() {
	m.following = false
	m.followSeq++
	m.run.SetFollowing(false)
}

// onFollowTick polls the followed run.
func (m Model) onFollowTick(msg followTickMsg) (tea.Model, tea.Cmd) {
	if !m.following || msg.seq != m.followSeq || m.ref == nil {
		return m, nil
	}
	m.historySeq++
	return m, pollRun(m.ctx, m.opts.Source, *m.ref, m.analyze, m.historySeq)
}

// currentRun is the run the copy and open keys act on: the selected row of
// the list, or the run on screen.
func (m *Model) currentRun() (catalyst.Run, bool) {
	if m.screen == screenList {
		return m.list.Selected()
	}
	if h := m.run.History(); h != nil {
		return h.Run, true
	}
	return catalyst.Run{}, false
}

// copyID copies the run id with OSC 52, when it is a plain id.
func (m *Model) copyID() tea.Cmd {
	run, ok := m.currentRun()
	switch {
	case !ok:
		m.setStatus("no run selected")
		return nil
	case !catalyst.IsPlainID(run.ID):
		m.setError("the run id " + format.Line(run.ID) + " holds characters that are unsafe to copy; not copied")
		return nil
	}
	m.setStatus("copied run id " + run.ID + " to the clipboard" + viaOSC52)
	return tea.SetClipboard(run.ID)
}

// copyLink copies the run's console link with OSC 52.
func (m *Model) copyLink() tea.Cmd {
	run, ok := m.currentRun()
	if !ok {
		m.setStatus("no run selected")
		return nil
	}
	link, ok := catalyst.ConsoleLink(m.opts.Console, run)
	if !ok {
		m.setError("no console link for app " + format.Line(run.AppID) + ", run " + format.Line(run.ID) + ": nothing copied")
		return nil
	}
	m.setStatus("copied the console link to the clipboard" + viaOSC52 + ": " + link)
	return tea.SetClipboard(link)
}

// viaOSC52 says how a copy reaches the clipboard: through the terminal
// (which works over SSH), so it depends on the terminal allowing it.
const viaOSC52 = " (OSC 52, if the terminal allows it)"

// openLink opens the run's console link, or prints it.
func (m *Model) openLink() tea.Cmd {
	run, ok := m.currentRun()
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
	if !m.following {
		return ""
	}
	return "● follow " + format.Duration(m.followDelay.Truncate(time.Second))
}
