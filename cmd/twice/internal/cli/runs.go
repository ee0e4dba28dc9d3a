package cli

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/safetext"
	"github.com/twice-cli/twice/cmd/twice/internal/report"
)

// RunsOptions are twice runs' inputs.
type RunsOptions struct {
	IO     *IOStreams
	Now    func() time.Time
	Config func() (*Config, error)
	Report func() (report.Options, error)
	Live   liveOpener

	Project  string
	App      string
	Status   string
	Since    string
	Until    string
	Workflow string
	Limit    int
	Output   string
}

// NewCmdRuns builds twice runs.
func NewCmdRuns(f *Factory, runF func(*RunsOptions) error) *cobra.Command {
	opts := &RunsOptions{IO: f.IO, Now: f.Env.now, Config: f.Config, Report: f.reportOptions, Live: f.live}
	cmd := &cobra.Command{
		Use:   "runs",
		Short: "List a Catalyst project's workflow runs",
		Long: `List the workflow runs of a Catalyst project, newest first, filtered by app,
status, workflow and start time. A list cut short (a page cap, a refused page) says so.`,
		Example: `  twice runs --project default --status failed --since 24h
  twice runs --project default --app payments -o json`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(opts)
			}
			return runRuns(cmd.Context(), opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVarP(&opts.Project, "project", "p", "", "Catalyst project (default: the config's project)")
	fl.StringVarP(&opts.App, "app", "a", "", "only runs of this app id")
	fl.StringVar(&opts.Status, "status", "", "only runs with this status (running, completed, failed, terminated, suspended, canceled, …)")
	fl.StringVar(&opts.Since, "since", "", "only runs started within this duration (24h, 7d) or since this time (RFC 3339)")
	fl.StringVar(&opts.Until, "until", "", "only runs started before this duration ago or this time")
	fl.StringVar(&opts.Workflow, "workflow", "", "only runs of this workflow")
	fl.IntVar(&opts.Limit, "limit", 0, "at most this many runs (default: the client's, 1000)")
	fl.StringVarP(&opts.Output, "output", "o", "text", "output: text or json")
	return cmd
}

func runRuns(ctx context.Context, opts *RunsOptions) error {
	format, err := parseOutput(opts.Output, outputText, outputJSON)
	if err != nil {
		return err
	}
	if opts.Limit < 0 {
		return usagef("--limit %d is negative", opts.Limit)
	}
	cfg, err := opts.Config()
	if err != nil {
		return err
	}
	ropts, err := opts.Report()
	if err != nil {
		return err
	}
	scan := &ScanOptions{Project: opts.Project, App: opts.App, Status: opts.Status, Since: opts.Since, Until: opts.Until, Workflow: opts.Workflow, Limit: opts.Limit}
	q, err := scan.query(cfg, opts.Now(), 0)
	if err != nil {
		return err
	}
	lc, err := opts.Live(nil, nil)
	if err != nil {
		return err
	}
	defer lc.Close()
	list, err := lc.ListRuns(ctx, q)
	if err != nil {
		if ctx.Err() != nil {
			return errInterrupted
		}
		return err
	}
	if list.Partial {
		fmt.Fprintf(opts.IO.ErrOut, "twice: the run list is partial: %s%s\n", safetext.Line(list.Reason), limitAdvice(list))
	}
	for _, note := range list.FilteredHere {
		fmt.Fprintf(opts.IO.ErrOut, "twice: %s\n", safetext.Line(note))
	}
	if format == outputJSON {
		return report.WriteRunListJSON(opts.IO.Out, list, ropts)
	}
	return report.WriteRunListText(opts.IO.Out, q, list, ropts)
}

// limitAdvice is what a command that takes --limit says about runs a
// server sent past it: "" when there were none.
func limitAdvice(list catalyst.RunList) string {
	if list.Dropped == 0 {
		return ""
	}
	return ": raise --limit or narrow the query"
}
