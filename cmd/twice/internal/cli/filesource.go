package cli

import (
	"context"
	"strings"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/fixtures"
)

// checkedFileSource is the interactive view's source for a history file
// (t set) or for several (t zero: each run's file is its location):
// the file's source (opened with the data-sharing level the user gave),
// with what the command line does to every file it reads (an empty history
// is an error). Its notices are dropped: standard error is under the view.
type checkedFileSource struct {
	catalyst.Source
	r *historyReader
	t target
}

// History reads the run as the wrapped source does, then checks it. A
// large file is decoded under the memory policy scan uses (memlimit.go),
// lifted once it is read: the view keeps the history and analyses it with
// the collector as it usually runs.
func (s checkedFileSource) History(ctx context.Context, ref catalyst.RunRef) (*catalyst.History, error) {
	t := s.t
	if t.arg == "" {
		// A source over many files: the run's own file (or demo).
		t = target{kind: targetFile, arg: ref.Location}
		if strings.HasPrefix(ref.Location, fixtures.DemoPrefix) {
			t.kind = targetDemo
		}
	}
	restore := func() {}
	if t.kind == targetFile && t.arg != "" {
		restore = s.r.LimitMemory(t.arg)
	}
	h, err := s.Source.History(ctx, ref)
	restore()
	if err != nil {
		return nil, err
	}
	if err := s.r.check(t, h, nil); err != nil {
		return nil, err
	}
	return h, nil
}
