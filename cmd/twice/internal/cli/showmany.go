package cli

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/twice-cli/twice/catalyst/safetext"
	"github.com/twice-cli/twice/fixtures"
	"github.com/twice-cli/twice/tui/format"
)

// isFolder reports whether arg names a folder on disk.
func isFolder(arg string) bool {
	info, err := os.Stat(arg)
	return err == nil && info.IsDir()
}

// runShowMany is twice show over several histories (files, folders of
// them, demos): on a terminal the run list over them, as for the demos;
// piped, the scan summary (JSON: every run, as scan writes them). A folder
// holding one history shows that run.
func runShowMany(ctx context.Context, opts *ShowOptions, p showPlan) error {
	for _, a := range opts.Targets {
		if err := checkManyArg(a); err != nil {
			return err
		}
	}
	if opts.Run != "" {
		return usagef("--run names one run, and several histories were given: show them one at a time to name each")
	}
	entries, problems := fixtures.Entries(opts.Targets...)
	if len(problems) > 0 {
		return fmt.Errorf("cannot read %s", safetext.Line(strings.Join(problems, "; ")))
	}
	switch len(entries) {
	case 0:
		return fmt.Errorf("%s holds no history files: twice reads the *.json files in a folder (not its sub-folders)",
			quote(strings.Join(opts.Targets, ", ")))
	case 1:
		opts.Target, opts.Targets = entries[0], entries
		return showOne(ctx, opts, p)
	}
	if p.format == "" && opts.Interactive() {
		fopts, err := opts.Histories.openOptions()
		if err != nil {
			return err
		}
		req := opts.NewRequest(p.det, p.cfg.Console, p.ropts.TimeFormat)
		req.Code, req.CodeFiles = p.code, sourceFiles(opts.Source, p.cfg.Source)
		req.Source = checkedFileSource{Source: fixtures.NewSource(fopts, opts.Targets...), r: opts.Histories}
		req.SourceName = manyName(opts.Targets, len(entries))
		err = opts.RunTUI(ctx, req)
		if !errors.Is(err, errNoTUI) {
			return err
		}
	}
	format := p.format
	if format == "" {
		format = outputText
	}
	so := &ScanOptions{runDeps: opts.runDeps, Targets: entries, App: opts.App, Project: opts.Project, Output: string(format),
		FailOn: "medium", OverdueAfter: opts.OverdueAfter, summaryOnly: true}
	sp, err := so.plan()
	if err != nil {
		return err
	}
	sp.code = p.code
	return runTargetScan(ctx, so, sp)
}

// checkManyArg checks one argument of twice show over several histories:
// a file, a folder or a bundled demo, never standard input or a run id.
func checkManyArg(arg string) error {
	switch {
	case arg == "-":
		return usagef("- (standard input) is one history: show it on its own, or give history files and folders")
	case strings.HasPrefix(arg, fixtures.DemoPrefix):
		return nil
	}
	_, err := os.Stat(arg)
	switch {
	case err == nil:
		return nil
	case !errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("cannot read %s: %w", quote(arg), err)
	case looksLikePath(arg):
		return fmt.Errorf("%s does not exist: give history files, folders of them, or demo:NAME", quote(arg))
	}
	return usagef("%s is not a file, a folder or a bundled demo: with several arguments twice show reads saved histories; a run in Catalyst is shown one at a time (twice show RUN_ID --app APP)", quote(arg))
}

// manyName names the histories for the run list's title: the folder or
// file given, or how many files.
func manyName(args []string, files int) string {
	if len(args) == 1 {
		return fmt.Sprintf("%s (%s)", safetext.Line(args[0]), format.Plural(files, "history file"))
	}
	return format.Plural(files, "history file")
}

// expandFolders replaces each folder among a scan's arguments by the
// history files in it (fixtures.Entries: its *.json files, in name order).
// A folder that holds none, or cannot be read, stays as it is: reading it
// then says why it is not a history.
func expandFolders(args []string) []string {
	var out []string
	for _, a := range args {
		if !isFolder(a) {
			out = append(out, a)
			continue
		}
		entries, problems := fixtures.Entries(a)
		if len(entries) == 0 || len(problems) > 0 {
			out = append(out, a)
			continue
		}
		out = append(out, entries...)
	}
	return out
}
