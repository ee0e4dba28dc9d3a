package cli

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/fixtures"
)

// demoBanner is the one line shown above the demos when twice has no
// credentials; noProjectBanner when it has credentials but no project.
// Each fits 80 columns: what matters comes first.
const (
	demoBanner      = "Demo histories: no Catalyst credentials (set CATALYST_TOKEN; see twice doctor)"
	noProjectBanner = "Demos: credentials found, no project set (--project P or project: in twice.yaml)"
)

// HomeOptions are the flags of twice with no command.
type HomeOptions struct {
	runDeps
	viewDeps
	// HasCredentials reports whether a token source is configured
	// (Factory.hasCredentials).
	HasCredentials func() bool
	// Project and App choose the runs the view opens on (default: the
	// config's).
	Project string
	App     string
	// Refresh lists the runs again this often while the run list is on
	// screen (0: only on R).
	Refresh time.Duration
}

// runHome is twice with no command: on a terminal, the interactive view on
// the project's runs when credentials exist, else on the bundled demos
// (the banner says why); piped, the list of demos.
func runHome(ctx context.Context, opts *HomeOptions) error {
	if !opts.Interactive() {
		if opts.Project != "" {
			return usagef("--project opens the interactive view, which needs a terminal: list the runs with twice runs --project %s", quote(opts.Project))
		}
		return writeDemoList(opts.IO.Out, opts.IO.width(0))
	}
	cfg, det, ropts, err := opts.settings()
	if err != nil {
		return err
	}
	fopts, err := opts.Histories.openOptions()
	if err != nil {
		return err
	}
	if opts.Refresh < 0 {
		return usagef("--refresh %s is negative: give how often to list the runs again, e.g. 30s", opts.Refresh)
	}
	req := opts.NewRequest(det, cfg.Console, ropts.TimeFormat)
	project, app := first(opts.Project, cfg.Project), first(opts.App, cfg.App)
	switch creds := opts.HasCredentials(); {
	case project != "" && (creds || opts.Project != ""):
		watch := &retryWatch{}
		lc, err := opts.Live(nil, watch.observe)
		if err != nil {
			return err
		}
		defer lc.Close()
		// No usable credential is an error before the view opens (exit 4).
		if err := lc.CheckCredential(ctx); err != nil {
			return err
		}
		req.Source = interactiveSource(lc)
		req.Query = catalyst.RunQuery{Project: project, AppID: app}
		req.SourceName, req.SourceNote = opts.CatalystName(), watch.note
		req.Refresh = opts.Refresh
	case creds:
		req.Source = fixtures.NewSource(fopts)
		req.Banner = noProjectBanner
		req.SourceName = "the bundled demo histories"
	default:
		req.Source = fixtures.NewSource(fopts)
		req.Banner = demoBanner
		req.SourceName = "the bundled demo histories"
	}
	if opts.Refresh > 0 && req.Refresh == 0 {
		fmt.Fprintln(opts.IO.ErrOut, "twice: --refresh applies to a project's runs read live; the demo histories do not change")
	}
	err = opts.RunTUI(ctx, req)
	if errors.Is(err, errNoTUI) {
		return writeDemoList(opts.IO.Out, opts.IO.width(0))
	}
	return err
}
