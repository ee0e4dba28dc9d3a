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

// historyLoadedMsg: a history was fetched (or given), and analyzed unless
// index is nil. seq is the request's sequence number: a response whose seq
// is not the latest is stale and dropped. keep is set for refreshes and
// polls of the run on screen; analysis for the analysis of a history
// already on screen. A run opened afresh arrives twice: first decoded only
// (index nil, shown at once), then analyzed (analysis set, same seq).
type historyLoadedMsg struct {
	seq      int
	history  *catalyst.History
	report   *detect.Report
	index    *runview.Index
	err      error
	keep     bool
	poll     bool
	analysis bool
}

// followTickMsg: time to poll the followed run again.
type followTickMsg struct{ seq int }

// urlOpenedMsg: the system opener returned.
type urlOpenedMsg struct {
	url string
	err error
}

// listRuns asks the source for the run list.
func listRuns(ctx context.Context, src catalyst.Source, q catalyst.RunQuery, seq int) tea.Cmd {
	return func() tea.Msg {
		list, err := safeCall(func() (catalyst.RunList, error) { return src.ListRuns(ctx, q) })
		return runsListedMsg{seq: seq, list: list, err: err}
	}
}

// loadHistory fetches a run's history off the UI goroutine. A run opened
// afresh (keep unset) is answered as soon as it is decoded, so its header
// and events show while detect runs (the root then starts analyzeHistory);
// a refresh or poll of the run on screen (keep) is answered analyzed and
// indexed, so the view keeps its place and never falls back to "analyzing".
func loadHistory(ctx context.Context, src catalyst.Source, ref catalyst.RunRef, analyze analyzeFunc, seq int, keep, poll bool) tea.Cmd {
	return func() tea.Msg {
		h, err := fetchHistory(ctx, src, ref)
		msg := historyLoadedMsg{seq: seq, err: err, keep: keep, poll: poll}
		switch {
		case err != nil:
			return msg
		case !keep:
			msg.history = h
			return msg
		}
		return analyzed(h, analyze, msg)
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

// analyzeHistory runs detect on a history that is already loaded.
func analyzeHistory(h *catalyst.History, analyze analyzeFunc, seq int) tea.Cmd {
	return func() tea.Msg {
		return analyzed(h, analyze, historyLoadedMsg{seq: seq, keep: true, analysis: true})
	}
}

// analyzed completes msg with h, its report and its index. A panic in detect
// becomes an error rather than killing the program.
func analyzed(h *catalyst.History, analyze analyzeFunc, msg historyLoadedMsg) (out historyLoadedMsg) {
	msg.history = h
	defer func() {
		if r := recover(); r != nil {
			msg.err = fmt.Errorf("analyzing run %s failed (a bug in twice): %v", h.Run.ID, r)
			msg.report, msg.index = nil, nil
			out = msg
		}
	}()
	msg.report = analyze(h)
	msg.index = runview.NewIndex(h, msg.report)
	return msg
}

// analyzeRun fetches and analyzes one listed run for its findings column.
func analyzeRun(ctx context.Context, src catalyst.Source, run catalyst.Run, analyze analyzeFunc, seq int) tea.Cmd {
	key := runlist.Key(run)
	ref := runlist.RefOf(run)
	return func() tea.Msg {
		h, err := fetchHistory(ctx, src, ref)
		if err != nil {
			return runAnalyzedMsg{seq: seq, key: key, err: err}
		}
		msg := analyzed(h, analyze, historyLoadedMsg{seq: seq})
		if msg.err != nil {
			return runAnalyzedMsg{seq: seq, key: key, err: msg.err}
		}
		return runAnalyzedMsg{seq: seq, key: key, summary: runlist.Summarize(msg.report)}
	}
}

// pollRun fetches the followed run again.
func pollRun(ctx context.Context, src catalyst.Source, ref catalyst.RunRef, analyze analyzeFunc, seq int) tea.Cmd {
	return loadHistory(ctx, src, ref, analyze, seq, true, true)
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
