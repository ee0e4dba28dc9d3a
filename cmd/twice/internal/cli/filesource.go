package cli

import (
	"context"

	"github.com/twice-cli/twice/catalyst"
)

// checkedFileSource is the interactive view's source for a history file:
// the file's source (opened with the data-sharing level the user gave),
// with what the command line does to every file it reads (an empty history
// is an error). Its notices are dropped: standard error is under the view.
type checkedFileSource struct {
	catalyst.Source
	f *Factory
	t target
}

// History reads the run as the wrapped source does, then checks it. A
// large file is decoded under the memory policy scan uses (memlimit.go),
// lifted once it is read: the view keeps the history and analyses it with
// the collector as it usually runs.
func (s checkedFileSource) History(ctx context.Context, ref catalyst.RunRef) (*catalyst.History, error) {
	restore := s.f.limitMemoryFor(s.t.arg)
	h, err := s.Source.History(ctx, ref)
	restore()
	if err != nil {
		return nil, err
	}
	if err := s.f.checkHistory(s.t, h, nil); err != nil {
		return nil, err
	}
	return h, nil
}
