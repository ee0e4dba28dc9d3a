package tui

import (
	"context"
	"errors"

	tea "charm.land/bubbletea/v2"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/safetext"
	"github.com/twice-cli/twice/detect/rundiff"
	"github.com/twice-cli/twice/tui/diffview"
	"github.com/twice-cli/twice/tui/runlist"
)

// diffScreen is two runs compared on the stack (m marks a run on the list,
// d compares it with the selected one): the pane, both runs' references,
// and the one fetch in flight, which reads and analyses both.
type diffScreen struct {
	*diffview.Model
	refA, refB catalyst.RunRef
	// ha and hb are the histories when they were given already read
	// (twice diff), nil when they are read from the source.
	ha, hb *catalyst.History
	req    request
}

func (s *diffScreen) subject() (catalyst.Run, bool) {
	_, b := s.Runs()
	return b, true
}

func (s *diffScreen) title() string { _, b := s.Runs(); return b.ID }

func (s *diffScreen) note() string { return "" }

func (s *diffScreen) context() string {
	a, b := s.Runs()
	return "diff\x00" + a.ID + "\x00" + b.ID + "\x00" + s.Selected()
}

func (s *diffScreen) copyTarget() (text, what string) { return "", "" }

func (s *diffScreen) refresh(m *Model) tea.Cmd {
	m.setStatus("reading both runs again")
	return s.load(m)
}

func (s *diffScreen) follow(m *Model) tea.Cmd {
	m.setStatus("follow is for one run: open it from the list")
	return nil
}

func (s *diffScreen) uncovered(*Model) tea.Cmd { return nil }

func (s *diffScreen) close() { s.req.stop() }

// load reads and analyses both runs, superseding the read in flight.
func (s *diffScreen) load(m *Model) tea.Cmd {
	if s.ha != nil && s.hb != nil {
		seq := s.req.start(m.ctx)
		return compareHistories(m.analyze, s.Model, s.ha, s.hb, seq)
	}
	if m.opts.Source == nil {
		s.SetDiff(nil, errors.New(noSource))
		return nil
	}
	seq := s.req.start(m.ctx)
	return loadDiff(s.req.ctx, m.opts.Source, m.analyze, s.Model, s.refA, s.refB, seq)
}

// openDiff puts the comparison of two runs of the list on the stack.
func (m *Model) openDiff(msg runlist.DiffMsg) tea.Cmd {
	s := &diffScreen{Model: diffview.New(m.c, msg.A, msg.B), refA: runlist.RefOf(msg.A), refB: runlist.RefOf(msg.B)}
	m.push(s)
	m.setStatus("comparing run " + safetext.Line(msg.A.ID) + " (A) with run " + safetext.Line(msg.B.ID) + " (B)")
	return s.load(m)
}

// onDiffLoaded shows two runs compared on the screen that asked, if it
// still waits for that answer.
func (m *Model) onDiffLoaded(msg diffview.LoadedMsg) {
	for _, sc := range m.stack {
		if s, ok := sc.(*diffScreen); ok && s.Model == msg.To && s.req.current(msg.Seq) {
			s.SetDiff(msg.Diff, msg.Err)
		}
	}
}

// loadDiff reads both runs, analyses each and compares them, off the UI
// goroutine.
func loadDiff(ctx context.Context, src catalyst.Source, analyze analyzeFunc, to *diffview.Model, refA, refB catalyst.RunRef, seq int) tea.Cmd {
	return func() tea.Msg {
		msg := diffview.LoadedMsg{To: to, Seq: seq}
		var ha, hb *catalyst.History
		if ha, msg.Err = fetchHistory(ctx, src, refA); msg.Err != nil {
			return msg
		}
		if hb, msg.Err = fetchHistory(ctx, src, refB); msg.Err != nil {
			return msg
		}
		return compareHistories(analyze, to, ha, hb, seq)()
	}
}

// compareHistories analyses two histories and compares them, off the UI
// goroutine.
func compareHistories(analyze analyzeFunc, to *diffview.Model, ha, hb *catalyst.History, seq int) tea.Cmd {
	return func() tea.Msg {
		msg := diffview.LoadedMsg{To: to, Seq: seq}
		msg.Diff, msg.Err = guarded(hb, func() *rundiff.Diff {
			a := diffview.Run{History: ha, Report: analyze(ha)}
			b := diffview.Run{History: hb, Report: analyze(hb)}
			return diffview.Compare(a, b)
		})
		return msg
	}
}
