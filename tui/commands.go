package tui

import (
	"context"
	"errors"
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/detect"
	"github.com/twice-cli/twice/tui/runlist"
	"github.com/twice-cli/twice/tui/runview"
)

// analyzeFunc runs detect on a history. The root holds one, built from
// Options.Detect; tests give their own.
type analyzeFunc func(*catalyst.History) *detect.Report

// runsListedMsg: the source answered a run-list request.
type runsListedMsg struct {
	seq  int
	list catalyst.RunList
	err  error
}

// runAnalyzedMsg: a listed run was fetched and analyzed in the background
// for its findings column, or err says why it could not be.
type runAnalyzedMsg struct {
	seq     int
	key     string
	summary runlist.Summary
	err     error
}

// The answers about a run's history are addressed to the run screen that
// asked (to), with its request number (seq): an answer to a superseded
// request is dropped.

// historyDecodedMsg: a run opened afresh was fetched and decoded, or err
// says why it could not be. It is shown at once, and its analysis follows
// as a historyAnalyzedMsg with the same seq.
type historyDecodedMsg struct {
	to      *runScreen
	seq     int
	history *catalyst.History
	err     error
}

// historyAnalyzedMsg: detect ran on the history on screen and index holds
// its results, or err says why it failed (the history stays on screen).
type historyAnalyzedMsg struct {
	to    *runScreen
	seq   int
	index *runview.Index
	err   error
}

// reloaded is the run on screen fetched again and analyzed before it is
// answered, so the view keeps its place and never falls back to
// "analyzing"; err says why it could not be fetched or analyzed.
type reloaded struct {
	to      *runScreen
	seq     int
	history *catalyst.History
	index   *runview.Index
	err     error
}

// historyRefreshedMsg: the run on screen was fetched again (R).
type historyRefreshedMsg reloaded

// historyPolledMsg: follow mode's poll of the run on screen answered.
type historyPolledMsg reloaded

// followTickMsg: time to poll the followed run again.
type followTickMsg struct{ seq int }

// refreshTickMsg: time to list the runs again (Options.RefreshEvery).
type refreshTickMsg struct{ seq int }

// urlOpenedMsg: the system opener returned.
type urlOpenedMsg struct {
	url string
	err error
}

// listRuns asks the source for the run list, with ctx (the list request's
// own: cancelled when a newer request supersedes it).
func listRuns(ctx context.Context, src catalyst.Source, q catalyst.RunQuery, seq int) tea.Cmd {
	return func() tea.Msg {
		list, err := safeCall(func() (catalyst.RunList, error) { return src.ListRuns(ctx, q) })
		return runsListedMsg{seq: seq, list: list, err: err}
	}
}

// loadKind is why a run's history is fetched, which decides how it is
// answered.
type loadKind uint8

const (
	// loadOpen: a run opened afresh (or again after its fetch failed),
	// answered by historyDecodedMsg as soon as it is decoded, so its header
	// and events show while detect runs (the root then starts
	// analyzeHistory).
	loadOpen loadKind = iota
	// loadRefresh: the run on screen again (R), answered analyzed by
	// historyRefreshedMsg.
	loadRefresh
	// loadPoll: follow mode's poll of the run on screen, answered analyzed
	// by historyPolledMsg.
	loadPoll
)

// loadRequest is a fetch of a run's history: which run, why, and the run
// screen and request number its answer is addressed to.
type loadRequest struct {
	ref  catalyst.RunRef
	kind loadKind
	to   *runScreen
	seq  int
}

// loadHistory fetches a run's history off the UI goroutine, with ctx (the
// request's own: cancelled when a newer request supersedes it), and answers
// as req.kind says.
func loadHistory(ctx context.Context, src catalyst.Source, analyze analyzeFunc, req loadRequest) tea.Cmd {
	code := req.to.Code()
	return func() tea.Msg {
		h, err := fetchHistory(ctx, src, req.ref)
		if req.kind == loadOpen {
			return historyDecodedMsg{to: req.to, seq: req.seq, history: h, err: err}
		}
		r := reloaded{to: req.to, seq: req.seq, history: h, err: err}
		if err == nil {
			r.index, r.err = analyzed(h, analyze, code)
		}
		if req.kind == loadPoll {
			return historyPolledMsg(r)
		}
		return historyRefreshedMsg(r)
	}
}

// fetchHistory asks the source for a run's history; a panicking source or
// a nil history is an error.
func fetchHistory(ctx context.Context, src catalyst.Source, ref catalyst.RunRef) (*catalyst.History, error) {
	h, err := safeCall(func() (*catalyst.History, error) { return src.History(ctx, ref) })
	if err == nil && h == nil {
		err = errors.New("the source returned no history")
	}
	return h, err
}

// analyzeHistory runs detect on a history that is already on screen, for
// the run screen to and its request seq.
func analyzeHistory(h *catalyst.History, analyze analyzeFunc, to *runScreen, seq int) tea.Cmd {
	code := to.Code()
	return func() tea.Msg {
		idx, err := analyzed(h, analyze, code)
		return historyAnalyzedMsg{to: to, seq: seq, index: idx, err: err}
	}
}

// analyzed runs detect on h and indexes its report for the view, joined
// to the code of its activities when source was given (code; nil for
// none).
func analyzed(h *catalyst.History, analyze analyzeFunc, code *runview.CodeSource) (*runview.Index, error) {
	return guarded(h, func() *runview.Index {
		x := runview.NewIndex(h, analyze(h))
		x.AddCode(code)
		return x
	})
}

// guarded runs f, the analysis of h; a panic in it (a bug in detect or in
// the view's index) becomes an error rather than killing the program.
func guarded[T any](h *catalyst.History, f func() T) (v T, err error) {
	defer func() {
		if r := recover(); r != nil {
			var zero T
			v, err = zero, fmt.Errorf("analyzing run %s failed (a bug in twice): %v", h.Run.ID, r)
		}
	}()
	return f(), nil
}

// analyzeRun fetches and analyzes one listed run for its findings column,
// with ctx (the list request's: cancelled when the list is fetched again).
func analyzeRun(ctx context.Context, src catalyst.Source, run catalyst.Run, analyze analyzeFunc, seq int) tea.Cmd {
	key := runlist.Key(run)
	ref := runlist.RefOf(run)
	return func() tea.Msg {
		h, err := fetchHistory(ctx, src, ref)
		if err != nil {
			return runAnalyzedMsg{seq: seq, key: key, err: err}
		}
		sum, err := guarded(h, func() runlist.Summary { return runlist.Summarize(analyze(h)) })
		return runAnalyzedMsg{seq: seq, key: key, summary: sum, err: err}
	}
}

// followTick waits d before the next poll.
func followTick(d time.Duration, seq int) tea.Cmd {
	return tea.Tick(d, func(time.Time) tea.Msg { return followTickMsg{seq: seq} })
}

// openURL opens a link with the system opener.
func openURL(open func(string) error, url string) tea.Cmd {
	return func() tea.Msg {
		_, err := safeCall(func() (struct{}, error) { return struct{}{}, open(url) })
		return urlOpenedMsg{url: url, err: err}
	}
}

// safeCall runs f, turning a panic in a source into an error.
func safeCall[T any](f func() (T, error)) (v T, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the source failed (a bug): %v", r)
		}
	}()
	return f()
}
