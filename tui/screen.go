package tui

import (
	"context"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/safetext"
	"github.com/twice-cli/twice/tui/common"
	"github.com/twice-cli/twice/tui/runlist"
	"github.com/twice-cli/twice/tui/runview"
)

// screen is a pane on the root's stack, bound to the source that fills it:
// what the run keys act on while it is on top (R refreshes it, F follows
// it, y, Y and o take its run), what it needs when it is on top again, and
// what it stops when it leaves. The root calls these, and the pane's own
// methods, without knowing which screen it holds.
type screen interface {
	common.Pane
	// subject is the run the copy and open keys act on.
	subject() (catalyst.Run, bool)
	// title is the run id the window title names ("" for none; the root
	// shows only a plain id).
	title() string
	// note is what the status line says when it holds no message ("" for
	// nothing).
	note() string
	// context names what the screen shows now (its tab, its filter): a
	// status message made for another context is no longer shown.
	context() string
	// copyTarget is what y copies, and what it is; with text "", what
	// says why nothing can be copied ("" for no reason).
	copyTarget() (text, what string)
	// refresh fetches again what the screen shows (R).
	refresh(m *Model) tea.Cmd
	// follow starts or stops following what the screen shows (F).
	follow(m *Model) tea.Cmd
	// uncovered starts what the screen still needs, now that the screen
	// above it was closed.
	uncovered(m *Model) tea.Cmd
	// close cancels what the screen has in flight: it leaves the stack.
	close()
}

// request is the one fetch a screen has in flight, with what follows from
// it (a run list's row analyses, a history's analysis). Starting the next
// one supersedes it: its context is cancelled, so the source stops working
// on it, and its answers, which carry its seq, are dropped when they
// arrive. A request's context lives until it is superseded or stopped, so a
// screen holds at most one.
type request struct {
	seq    int
	ctx    context.Context
	cancel context.CancelFunc
}

// start cancels the request in flight and begins the next, with a context
// derived from parent; it returns the new request's seq.
func (r *request) start(parent context.Context) int {
	r.cancelInFlight()
	r.seq++
	r.ctx, r.cancel = context.WithCancel(parent)
	return r.seq
}

// stop cancels the request in flight; its answers will be dropped.
func (r *request) stop() {
	r.cancelInFlight()
	r.seq++
}

func (r *request) cancelInFlight() {
	if r.cancel != nil {
		r.cancel()
	}
	r.ctx, r.cancel = nil, nil
}

// current reports whether an answer carrying seq answers the latest
// request.
func (r *request) current(seq int) bool { return seq == r.seq }

// listScreen is the run list on the stack: the pane, the list request, and
// the background analyses that fill its FINDINGS column.
type listScreen struct {
	*runlist.Model
	req request
	// pending are listed runs waiting for background analysis; active
	// counts the analyses running.
	pending []catalyst.Run
	active  int
	// read is, for each run whose history was read for its row, when and
	// the row it was read for: an auto-refresh reads a running run again
	// only when its row changed or it is on screen, and never sooner than
	// refreshFloor after the last read.
	read map[string]readMark
	// ticked is set when the list in flight was asked for by an
	// auto-refresh tick; onScreen are the runs on screen then.
	ticked   bool
	onScreen map[string]bool
}

// refreshFloor is the least time between two reads of one running run's
// history by the run list's auto-refresh (--refresh 1s with 200 running
// runs read 9,400 histories a minute).
const refreshFloor = 5 * time.Second

// readMark is when a run's history was last read for the list, and what
// its row said then.
type readMark struct {
	at  time.Time
	row string
}

// rowMark is what a listed row says that a read of its history would
// change: its status and when it was last updated.
func rowMark(run catalyst.Run) string {
	return string(run.Status) + "\x00" + run.UpdatedAt.UTC().Format(time.RFC3339Nano)
}

// stale returns the running runs of list whose summaries an auto-refresh
// drops (to read again): a row that changed since its history was read,
// or one on screen, and only once refreshFloor has passed since that read.
func (s *listScreen) stale(list []catalyst.Run, onScreen map[string]bool, now time.Time) []string {
	var keys []string
	for _, run := range list {
		if run.Status.IsEnded() {
			continue
		}
		k := runlist.Key(run)
		mark, ok := s.read[k]
		if ok && now.Sub(mark.at) < refreshFloor {
			continue
		}
		if !ok || mark.row != rowMark(run) || onScreen[k] {
			keys = append(keys, k)
		}
	}
	return keys
}

func (s *listScreen) subject() (catalyst.Run, bool) { return s.Selected() }

func (s *listScreen) title() string { return "" }

func (s *listScreen) context() string { return "list\x00" + s.Context() }

func (s *listScreen) copyTarget() (text, what string) {
	run, ok := s.Selected()
	if !ok {
		return "", ""
	}
	return runview.PlainCopy(run.ID, "the run id")
}

// note says why the selected run shows "? error", when the list has no
// room to say it (the note is sanitized).
func (s *listScreen) note() string { return s.Note() }

func (s *listScreen) refresh(m *Model) tea.Cmd {
	for _, run := range s.Runs() {
		if !run.Status.IsEnded() {
			s.Forget(runlist.Key(run))
		}
	}
	m.setStatus("refreshing the run list")
	return s.fetch(m)
}

func (s *listScreen) follow(m *Model) tea.Cmd {
	m.setStatus("open a run to follow it")
	return nil
}

// uncovered lists the runs when the list was never shown (a run was opened
// directly, or the list failed).
func (s *listScreen) uncovered(m *Model) tea.Cmd {
	if !s.Listed() {
		return s.fetch(m)
	}
	return nil
}

func (s *listScreen) close() { s.req.stop() }

// fetch asks the source for the run list, superseding the list request in
// flight and the row analyses it started.
func (s *listScreen) fetch(m *Model) tea.Cmd {
	if m.opts.Source == nil {
		s.SetError(noSource)
		return nil
	}
	seq := s.req.start(m.ctx)
	s.pending, s.active = nil, 0
	return tea.Batch(listRuns(s.req.ctx, m.opts.Source, m.opts.Query, seq), s.SetLoading())
}

// nextAnalyses starts background analyses up to the bound.
func (s *listScreen) nextAnalyses(m *Model) tea.Cmd {
	var cmds []tea.Cmd
	for s.active < maxAnalyses && len(s.pending) > 0 {
		run := s.pending[0]
		s.pending = s.pending[1:]
		s.active++
		if s.read == nil {
			s.read = map[string]readMark{}
		}
		s.read[runlist.Key(run)] = readMark{at: m.opts.Now(), row: rowMark(run)}
		cmds = append(cmds, analyzeRun(s.req.ctx, m.opts.Source, run, m.analyze, s.req.seq))
	}
	return tea.Batch(cmds...)
}

// runScreen is a run on the stack: the pane, where the source has the run
// (ref; nil for a history given in memory), and the fetch in flight.
type runScreen struct {
	*runview.Model
	ref *catalyst.RunRef
	req request
}

func (s *runScreen) subject() (catalyst.Run, bool) {
	if h := s.History(); h != nil {
		return h.Run, true
	}
	return s.Absent()
}

func (s *runScreen) title() string {
	run, _ := s.subject()
	return run.ID
}

func (s *runScreen) note() string { return "" }

func (s *runScreen) context() string {
	run, _ := s.subject()
	return "run\x00" + run.ID + "\x00" + s.Context()
}

func (s *runScreen) copyTarget() (text, what string) { return s.CopyTarget() }

func (s *runScreen) refresh(m *Model) tea.Cmd {
	if run, absent := s.Absent(); absent {
		m.setStatus("run " + safetext.Line(run.ID) + " is not in this file: there is nothing to refresh")
		return nil
	}
	if s.ref == nil {
		m.setStatus("this history was loaded from a file or stdin already; there is nothing to refresh")
		return nil
	}
	m.setStatus("refreshing run " + safetext.Line(s.ref.ID))
	if s.History() == nil {
		// Nothing on screen to keep: open it again.
		return s.load(m, loadOpen)
	}
	return s.load(m, loadRefresh)
}

func (s *runScreen) follow(m *Model) tea.Cmd { return m.toggleFollow(s) }

func (s *runScreen) uncovered(*Model) tea.Cmd { return nil }

func (s *runScreen) close() { s.req.stop() }

// load fetches the screen's run, superseding the fetch in flight; why
// decides how the answer comes (loadKind).
func (s *runScreen) load(m *Model, why loadKind) tea.Cmd {
	if m.opts.Source == nil {
		s.SetError("no source to fetch run " + safetext.Line(s.ref.ID) + " from")
		return nil
	}
	seq := s.req.start(m.ctx)
	cmd := loadHistory(s.req.ctx, m.opts.Source, m.analyze, loadRequest{ref: *s.ref, kind: why, to: s, seq: seq})
	if why == loadPoll {
		return cmd
	}
	return tea.Batch(cmd, s.SetLoading(refName(*s.ref)))
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
