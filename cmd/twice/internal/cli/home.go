package cli

import (
	"context"
	"errors"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/fixtures"
)

// demoBanner is the one line shown above the demos when twice has no
// credentials. It fits 80 columns: what matters comes first.
const demoBanner = "Demo histories: no Catalyst credentials (set CATALYST_TOKEN; see twice doctor)"

// runHome is twice with no command: on a terminal, the interactive view on
// the configured project's runs when credentials exist, else on the bundled
// demos; piped, the list of demos.
func runHome(ctx context.Context, f *Factory) error {
	if !f.interactive() {
		return writeDemoList(f.IO.Out)
	}
	cfg, err := f.Config()
	if err != nil {
		return err
	}
	det, err := f.detectOptions()
	if err != nil {
		return err
	}
	ropts, err := f.reportOptions()
	if err != nil {
		return err
	}
	req := f.tuiRequest(det, cfg.Console, ropts.TimeFormat)
	if f.hasCredentials() && cfg.Project != "" {
		lc, err := f.live(nil)
		if err != nil {
			return err
		}
		defer lc.Close()
		req.Source = lc
		req.Query = catalyst.RunQuery{Project: cfg.Project, AppID: cfg.App}
	} else {
		req.Source = fixtures.NewSource()
		req.Banner = demoBanner
	}
	err = f.RunTUI(ctx, req)
	if errors.Is(err, errNoTUI) {
		return writeDemoList(f.IO.Out)
	}
	return err
}
