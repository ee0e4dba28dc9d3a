package cli

import (
	"context"
	"time"

	"github.com/twice-cli/twice/cmd/twice/internal/report"
	"github.com/twice-cli/twice/detect"
	"github.com/twice-cli/twice/tui/format"
)

// A command's options struct holds only the dependencies the command
// uses, as cli/cli's commands take theirs from cmdutil.Factory: its
// NewCmd function sets them from the Factory, and a test can set them
// directly. The Factory builds them; it is never itself a command's
// dependency. The funcs read the global flags when called, after cobra
// parsed them.

// liveOpener opens the live client, bounded by the command's deadline
// (Factory.live): onRateLimit, when set, is called on every HTTP 429, and
// watch, when set, sees every answer's status.
type liveOpener func(onRateLimit func(), watch func(status int)) (LiveClient, error)

// runDeps are what the commands that read and analyse runs use (show,
// scan, and twice with no command).
type runDeps struct {
	IO     *IOStreams
	Now    func() time.Time
	Config func() (*Config, error)
	// Detect and Report are the analysis's and the renderers' options
	// the config and the global flags give.
	Detect func() (detect.Options, error)
	Report func() (report.Options, error)
	// Live opens the live client.
	Live liveOpener
	// Histories reads the histories a command line names.
	Histories *historyReader
	// Classified are the names given to --side-effect and --read-only,
	// which warnUnmatched checks against the activities read.
	Classified func() classifiedNames
}

// viewDeps are what the commands that open the interactive view use.
type viewDeps struct {
	// Interactive reports whether the view can run (both standard input
	// and output are terminals).
	Interactive func() bool
	// RunTUI runs the view; NewRequest starts a request with what every
	// command passes it.
	RunTUI     func(ctx context.Context, req TUIRequest) error
	NewRequest func(det detect.Options, console string, tf format.TimeFormat) TUIRequest
	// CatalystName names the live source for the run list's title.
	CatalystName func() string
}

// runDeps returns the dependencies of the commands that read and analyse
// runs.
func (f *Factory) runDeps() runDeps {
	return runDeps{
		IO:         f.IO,
		Now:        f.Env.now,
		Config:     f.Config,
		Detect:     f.detectOptions,
		Report:     f.reportOptions,
		Live:       f.live,
		Histories:  f.histories(),
		Classified: func() classifiedNames { return classifiedNames{f.Globals.SideEffect, f.Globals.ReadOnly} },
	}
}

// viewDeps returns the dependencies of the commands that open the view.
func (f *Factory) viewDeps() viewDeps {
	return viewDeps{
		Interactive:  f.interactive,
		RunTUI:       func(ctx context.Context, req TUIRequest) error { return f.RunTUI(ctx, req) },
		NewRequest:   f.tuiRequest,
		CatalystName: f.catalystName,
	}
}

// settings reads what a command that analyses runs needs before it reads
// one: the config, then detect's and the renderers' options (which the
// config and the global flags give). The first error stops it.
func (d runDeps) settings() (*Config, detect.Options, report.Options, error) {
	cfg, err := d.Config()
	if err != nil {
		return nil, detect.Options{}, report.Options{}, err
	}
	det, err := d.Detect()
	if err != nil {
		return nil, detect.Options{}, report.Options{}, err
	}
	ropts, err := d.Report()
	if err != nil {
		return nil, detect.Options{}, report.Options{}, err
	}
	return cfg, det, ropts, nil
}
