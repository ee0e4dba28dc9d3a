package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"time"

	"github.com/spf13/cobra"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/cmd/twice/internal/report"
	"github.com/twice-cli/twice/detect"
	"github.com/twice-cli/twice/detect/review"
	"github.com/twice-cli/twice/fixtures"
)

// ShowOptions are twice show's inputs.
type ShowOptions struct {
	runDeps
	viewDeps
	// Target is a file, "-", "demo:NAME" or a run id.
	Target string
	// Targets are every argument: more than one (or a folder) shows the
	// run list over the histories they hold (showmany.go).
	Targets []string
	// App and Project name a live run, or fill what a history read from
	// a file or standard input does not name; Run fills its run id.
	App     string
	Project string
	Run     string
	// Output is -o ("": the interactive view on a terminal, text when piped).
	Output string
	// OverdueAfter is how long a pending attempt of a running run may wait
	// before its outcome is called unknown (0: detect's default).
	OverdueAfter time.Duration
	// Timeline prints the run's timeline as text (the view's Timeline tab,
	// for a ticket) instead of the report.
	Timeline bool
	// Source are workflow and activity source paths joined to the run's
	// findings (--source; else the config's source:).
	Source []string
}

// NewCmdShow builds twice show. runF, when set, receives the parsed options
// instead of running (tests).
func NewCmdShow(f *Factory, runF func(*ShowOptions) error) *cobra.Command {
	opts := &ShowOptions{runDeps: f.runDeps(), viewDeps: f.viewDeps()}
	cmd := &cobra.Command{
		Use:   "show FILE|-|demo:NAME|RUN_ID | FILE|DIR...",
		Short: "Show one run: its invocations, findings and events (several: the run list over them)",
		Long: `Show one run. On a terminal it opens the interactive view; piped (or with -o) it
prints the run's header, its findings, its invocations with every attempt, and its
events in history order under the Dapr CLI's column names. Unlike the Dapr CLI, twice
never re-sorts events: ELAPSED is the time since the event above, negative when the
engine stamped an event earlier (an outcome is stamped before the turn that records it).

The run is a history file of any format twice reads (a twice saved history, Dapr
protojson, Catalyst flattened events, dapr workflow history -o json), - for standard
input (on a terminal the view then reads keys from the terminal), demo:NAME for a bundled demo (twice demo list), or a run id read from
Catalyst with --app (and --project).

Given several history files, or a folder of them (its *.json files), twice show opens
the run list over them on a terminal, as for the demos; piped (or with -o text or
markdown) it prints the scan summary, the worst runs first (-o json and jsonl: every
run, as twice scan writes them).

With --source DIR (or source: in twice.yaml), each finding is joined to the code of
its activity (twice review): the view adds a Code tab of every activity's hazards,
where e opens a line in $VISUAL or $EDITOR; the text says what the code changes.`,
		Example: `  twice show demo:payment-timeout
  dapr workflow history charge-7731 -a payments -o json | twice show -
  twice show charge-7731 --app payments --project default -o markdown
  twice show demo:payment-timeout --timeline
  twice show demo:payment-timeout --source demo
  twice show saved/          # the run list over the histories in a folder
  dapr workflow history charge-7731 -a payments -o json | twice show - --run charge-7731 --app payments`,
		Args: usageArgs(cobra.MinimumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Target, opts.Targets = args[0], args
			if runF != nil {
				return runF(opts)
			}
			return runShow(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVarP(&opts.App, "app", "a", "", "the run's app id (for a run id read from Catalyst, or a history that does not name it)")
	cmd.Flags().StringVarP(&opts.Project, "project", "p", "", "the run's Catalyst project (also for a history that does not name it)")
	cmd.Flags().StringVar(&opts.Run, "run", "", "the run id of a history file or standard input that does not name it (the Dapr CLI's JSON does not)")
	cmd.Flags().StringVarP(&opts.Output, "output", "o", "", "print as text, json, jsonl, markdown or mermaid (the timeline as a gantt chart) instead of the interactive view")
	cmd.Flags().BoolVar(&opts.Timeline, "timeline", false,
		"print the run's timeline as text (its attempts on one time axis, as the view's Timeline tab draws them), to the terminal's width or 100 columns; with -o mermaid, as a Mermaid gantt chart for a ticket")
	cmd.Flags().StringArrayVar(&opts.Source, "source", nil, "join each finding to the code of its activity in this source `DIR` (repeatable; demo: the bundled demo services); the view adds a Code tab")
	cmd.Flags().DurationVar(&opts.OverdueAfter, "overdue-after", 0,
		"how long a running run's pending attempt may wait before its outcome is called unknown (default "+detect.DefaultOverdueAfter.String()+")")
	return cmd
}

func runShow(ctx context.Context, opts *ShowOptions) error {
	var format outputFormat
	if opts.Output != "" {
		var err error
		if format, err = parseOutput(opts.Output, outputText, outputJSON, outputJSONL, outputMarkdown, outputMermaid); err != nil {
			return err
		}
	}
	many := len(opts.Targets) > 1 || isFolder(opts.Target)
	if format == outputMermaid {
		// A Mermaid chart is the timeline's picture.
		opts.Timeline = true
	}
	if many && opts.Timeline {
		return usagef("--timeline draws one run: give one history file")
	}
	if opts.Timeline {
		if format != "" && format != outputText && format != outputMermaid {
			return usagef("--timeline prints text; it does not combine with -o %s", opts.Output)
		}
		if format == "" {
			format = outputText
		}
	}
	if opts.OverdueAfter < 0 {
		return usagef("--overdue-after %s is negative: give how long a pending attempt may wait, e.g. 15m or 2h", opts.OverdueAfter)
	}
	cfg, det, ropts, err := opts.settings()
	if err != nil {
		return err
	}
	det.OverdueAfter = opts.OverdueAfter
	code, err := joinSource(ctx, sourcePaths(opts.Source, cfg.Source), opts.IO.ErrOut)
	if err != nil {
		return err
	}
	p := showPlan{format: format, cfg: cfg, det: det, ropts: ropts, code: code}
	if many {
		return runShowMany(ctx, opts, p)
	}
	return showOne(ctx, opts, p)
}

// showPlan is a checked ShowOptions: the output format ("": the view on a
// terminal), the config, the analysis and report options, and the review
// joined to the runs (nil: none).
type showPlan struct {
	format outputFormat
	cfg    *Config
	det    detect.Options
	ropts  report.Options
	code   *review.Report
}

// showOne shows the one run opts.Target names.
func showOne(ctx context.Context, opts *ShowOptions, p showPlan) error {
	format, cfg, det, ropts, code := p.format, p.cfg, p.det, p.ropts, p.code
	t, err := resolveTarget(opts.Target, first(opts.App, cfg.App), first(opts.Project, cfg.Project))
	if err != nil {
		return err
	}
	t = withIdentity(t, opts.Run, opts.App, opts.Project, func(s string) { fmt.Fprintln(opts.IO.ErrOut, s) })
	var lc LiveClient
	watch := &retryWatch{}
	if t.kind == targetLive {
		if lc, err = opts.Live(nil, watch.observe); err != nil {
			return err
		}
		defer lc.Close()
		// No usable credential is an error before any request, and before
		// the interactive view opens (exit 4, saying how to provide one).
		if err := lc.CheckCredential(ctx); err != nil {
			return err
		}
	}

	// A history on standard input is read first (below).
	if format == "" && opts.Interactive() && t.kind != targetStdin {
		req := opts.NewRequest(det, cfg.Console, ropts.TimeFormat)
		req.Code, req.CodeFiles = code, sourceFiles(opts.Source, cfg.Source)
		if t.kind == targetLive {
			req.Source, req.Ref = interactiveSource(lc), &t.ref
			// Back from the run (esc), the list shows the runs of its
			// project and app.
			req.Query = catalyst.RunQuery{Project: t.ref.Project, AppID: t.ref.AppID}
			req.SourceName, req.SourceNote = opts.CatalystName(), watch.note
		} else {
			fopts, err := opts.Histories.openOptions()
			if err != nil {
				return err
			}
			req.Source = checkedFileSource{Source: fixtures.NewSource(fopts, t.arg), r: opts.Histories, t: t}
			req.Ref = &catalyst.RunRef{Location: t.arg}
			req.SourceName = t.arg
		}
		err := opts.RunTUI(ctx, req)
		if !errors.Is(err, errNoTUI) {
			return err
		}
		// Without the interactive view, print the text.
	}

	h, err := opts.Histories.load(ctx, t, lc)
	if err != nil {
		return err
	}
	// A history piped in on a terminal opens the view too, reading keys
	// from the terminal itself (dapr workflow history ID -o json | twice show -).
	if format == "" && t.kind == targetStdin && opts.IO.stdoutTTY() && opts.IO.OpenTTY != nil {
		if tty, err := opts.IO.OpenTTY(); err == nil {
			req := opts.NewRequest(det, cfg.Console, ropts.TimeFormat)
			req.Code, req.CodeFiles = code, sourceFiles(opts.Source, cfg.Source)
			req.History, req.In = h, tty
			err = opts.RunTUI(ctx, req)
			tty.Close()
			if !errors.Is(err, errNoTUI) {
				return err
			}
		}
	}
	a := analyze(h, det, opts.Now(), code)
	names := newActivityNames()
	names.add(a)
	names.warnUnmatched(opts.IO.ErrOut, opts.Classified())
	if opts.Timeline && format == outputMermaid {
		return report.WriteMermaid(opts.IO.Out, a, ropts)
	}
	if opts.Timeline {
		return report.WriteTimeline(opts.IO.Out, a, ropts, opts.IO.width(timelineWidth))
	}
	if format == "" {
		if format == "" {
			format = outputText
		}
	}
	ropts.Events = true
	return writeAnalyses(opts.IO.Out, format, []report.Analysis{a}, ropts)
}

// sourceFiles is where the view reads the files of the source joined to
// the run (--source, else the config's source:): the bundled demo
// services, embedded in twice, or the disk (nil).
func sourceFiles(flags, config []string) fs.FS {
	for _, p := range sourcePaths(flags, config) {
		if isDemoSource(p) {
			return fixtures.DemoServices()
		}
	}
	return nil
}

// sourcePaths are the source paths joined to the runs: --source, else the
// config's source:.
func sourcePaths(flags, config []string) []string {
	if len(flags) > 0 {
		return flags
	}
	return config
}

// timelineWidth is how wide --timeline draws when standard output is not a
// terminal.
const timelineWidth = 100

// mustColor is colorEnabled after the flags were checked.
func mustColor(f *Factory) bool {
	c, _ := f.colorEnabled()
	return c
}

// writeAnalyses renders runs in a format. Text prints each run in turn.
func writeAnalyses(w io.Writer, format outputFormat, runs []report.Analysis, opts report.Options) error {
	switch format {
	case outputJSON:
		return report.WriteJSON(w, runs, opts)
	case outputJSONL:
		return report.WriteJSONL(w, runs, opts)
	case outputMarkdown:
		return report.WriteMarkdown(w, runs, opts)
	}
	for i, a := range runs {
		if i > 0 {
			if _, err := io.WriteString(w, "\n"+separator+"\n\n"); err != nil {
				return err
			}
		}
		if err := report.WriteText(w, a, opts); err != nil {
			return err
		}
	}
	return nil
}

// separator divides runs in text output.
const separator = "────────────────────────────────────────────────────────────────────────"
