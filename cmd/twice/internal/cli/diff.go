package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/cmd/twice/internal/report"
	"github.com/twice-cli/twice/detect"
	"github.com/twice-cli/twice/detect/rundiff"
	"github.com/twice-cli/twice/tui/format"
)

// DiffOptions are twice diff's inputs.
type DiffOptions struct {
	runDeps
	viewDeps
	// A and B are the runs compared: anything show takes (a file, "-",
	// demo:NAME, a run id). With RerunSource, B is the rerun and A is
	// found from it.
	A, B string
	// App and Project name live runs (and fill what a file does not name).
	App     string
	Project string
	// RerunSource compares the one run given, a rerun, with the run it
	// was rerun from (read from Catalyst).
	RerunSource bool
	// Output is -o: text, markdown, json or mermaid; "": the view on a
	// terminal, text when piped.
	Output string
	// ExitStatus exits 3 when B has a finding at or above FailOn that A
	// does not have.
	ExitStatus bool
	FailOn     string
}

// NewCmdDiff builds twice diff. runF, when set, receives the parsed options
// instead of running (tests).
func NewCmdDiff(f *Factory, runF func(*DiffOptions) error) *cobra.Command {
	opts := &DiffOptions{runDeps: f.runDeps(), viewDeps: f.viewDeps()}
	cmd := &cobra.Command{
		Use:   "diff A B | RERUN --rerun-source",
		Short: "Compare two runs: what differs, worst first",
		Long: `Compare two runs of a workflow: the run that went fine (A) and the run in question (B),
yesterday's order and today's, the run before a deploy and after, a rerun and its source.

A and B are anything twice show takes: history files of any format, - for standard input
(one of them), demo:NAME, or run ids read from Catalyst with --app (and --project).
With --rerun-source, give one run, a rerun: it is B, and A is the run it was rerun from,
read from Catalyst.

twice aligns the two runs' calls: the same activity or child workflow, then the same
invocation id (a rerun keeps its source's), then the input value that tells calls of
one name apart, then their order; it says how each pair was aligned and which calls
only one run has. Then what differs, worst first: findings one run has and the other
does not; attempts, failures and their error types; outcomes; the retry schedule
(delays, backoff coefficient: a policy change shows here); durations, as exactly as
each source's times allow and no more; inputs and outputs where both runs show them
(a withheld payload is said to be withheld, never changed); the runs' status and why
each ended; timers and events only one run has.

On a terminal, without -o, twice diff opens the two runs compared in the interactive
view (as d on the run list does); piped, or with -o, it prints them.

With --exit-status, twice exits 3 when B has a finding at or above --fail-on that A
does not (a CI gate for a staging rerun); --fail-on alone implies --exit-status.`,
		Example: `  twice diff demo:payment-timeout-fixed demo:payment-timeout
  twice diff demo:card-declined demo:card-declined-no-retry -o markdown
  twice diff order-7731 order-7740 --app payments --project default
  twice diff order-7731-rerun --rerun-source --app payments --exit-status --fail-on high
  dapr workflow history order-7731 -a payments -o json | twice diff saved/order-7700.json -`,
		Args: usageArgs(cobra.RangeArgs(1, 2)),
		RunE: func(cmd *cobra.Command, args []string) error {
			switch {
			case opts.RerunSource && len(args) != 1:
				return usagef("--rerun-source compares one run, a rerun, with the run it came from: give only the rerun")
			case !opts.RerunSource && len(args) != 2:
				return usagef("twice diff compares two runs: give A and B (or one rerun with --rerun-source)")
			}
			if opts.RerunSource {
				opts.B = args[0]
			} else {
				opts.A, opts.B = args[0], args[1]
			}
			opts.ExitStatus = opts.ExitStatus || cmd.Flags().Changed("fail-on")
			if runF != nil {
				return runF(opts)
			}
			return runDiff(cmd.Context(), opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVarP(&opts.App, "app", "a", "", "the runs' app id (for run ids read from Catalyst, or histories that do not name it)")
	fl.StringVarP(&opts.Project, "project", "p", "", "the runs' Catalyst project")
	fl.BoolVar(&opts.RerunSource, "rerun-source", false, "compare the one run given, a rerun, with the run it was rerun from (read from Catalyst)")
	fl.StringVarP(&opts.Output, "output", "o", "", "print as text (the default when piped), markdown (for a ticket, with the two timelines as a Mermaid chart), json or mermaid (a gantt chart of both runs)")
	fl.BoolVar(&opts.ExitStatus, "exit-status", false, "exit 3 when B has a finding at or above --fail-on that A does not")
	fl.StringVar(&opts.FailOn, "fail-on", "medium", "the least severity --exit-status fails on: low, medium or high (implies --exit-status)")
	return cmd
}

func runDiff(ctx context.Context, opts *DiffOptions) error {
	var out outputFormat
	if opts.Output != "" {
		var err error
		if out, err = parseOutput(opts.Output, outputText, outputMarkdown, outputJSON, outputMermaid); err != nil {
			return err
		}
	}
	failOn, ok := detect.ParseSeverity(opts.FailOn)
	if !ok || failOn == detect.SeverityNone {
		return usagef("--fail-on %s is not a severity: use low, medium or high", quote(opts.FailOn))
	}
	if opts.A == "-" && opts.B == "-" {
		return usagef("only one of A and B can be read from standard input (-)")
	}
	cfg, det, ropts, err := opts.settings()
	if err != nil {
		return err
	}
	app, project := first(opts.App, cfg.App), first(opts.Project, cfg.Project)
	note := func(s string) { fmt.Fprintln(opts.IO.ErrOut, s) }
	var lc LiveClient
	client := func() (LiveClient, error) {
		if lc != nil {
			return lc, nil
		}
		c, err := opts.Live(nil, nil)
		if err != nil {
			return nil, err
		}
		if err := c.CheckCredential(ctx); err != nil {
			c.Close()
			return nil, err
		}
		lc = c
		return lc, nil
	}
	defer func() {
		if lc != nil {
			lc.Close()
		}
	}()
	load := func(arg string) (*catalyst.History, error) {
		t, err := resolveTarget(arg, app, project)
		if err != nil {
			return nil, err
		}
		t = withIdentity(t, "", opts.App, opts.Project, note)
		var c LiveClient
		if t.kind == targetLive {
			if c, err = client(); err != nil {
				return nil, err
			}
		}
		return opts.Histories.load(ctx, t, c)
	}
	hb, err := load(opts.B)
	if err != nil {
		return err
	}
	nameA := opts.A
	var ha *catalyst.History
	if opts.RerunSource {
		src := hb.Run.RerunOf
		if src == "" {
			src = hb.Run.ForeignStart()
		}
		if src == "" {
			return usagef("%s is not a rerun: its history names no run it was rerun from; give both runs: twice diff A B", quote(opts.B))
		}
		if app == "" {
			app = hb.Run.AppID
		}
		if app == "" {
			return usagef("%s is a rerun of %s; to read that run from Catalyst, give its app: --app APP", quote(opts.B), quote(src))
		}
		if project == "" {
			project = first(hb.Run.Project.Name, hb.Run.Project.UID)
		}
		t := target{kind: targetLive, arg: src, ref: catalyst.RunRef{ID: src, AppID: app, Project: project}}
		c, err := client()
		if err != nil {
			return err
		}
		if ha, err = opts.Histories.load(ctx, t, c); err != nil {
			return err
		}
		nameA = src + " (the run " + opts.B + " was rerun from)"
	} else if ha, err = load(opts.A); err != nil {
		return err
	}
	if out == "" && !opts.ExitStatus && opts.Interactive() {
		// On a terminal: the two runs compared in the view.
		req := opts.NewRequest(det, cfg.Console, ropts.TimeFormat)
		req.Compare = [2]*catalyst.History{ha, hb}
		if err := opts.RunTUI(ctx, req); !errors.Is(err, errNoTUI) {
			return err
		}
	}
	now := opts.Now()
	a, b := analyze(ha, det, now, nil), analyze(hb, det, now, nil)
	d := report.Diff{A: a, B: b, NameA: nameA, NameB: opts.B,
		Diff: rundiff.Compare(rundiff.Run{History: a.History, Report: a.Report}, rundiff.Run{History: b.History, Report: b.Report},
			diffOptions())}
	switch out {
	case outputJSON:
		err = report.WriteDiffJSON(opts.IO.Out, d, ropts)
	case outputMarkdown:
		err = report.WriteDiffMarkdown(opts.IO.Out, d, ropts)
	case outputMermaid:
		err = report.WriteDiffMermaid(opts.IO.Out, d, ropts)
	default:
		err = report.WriteDiffText(opts.IO.Out, d, ropts)
	}
	if err != nil {
		return err
	}
	if opts.ExitStatus {
		if n := len(d.Diff.NewFindings(failOn)); n > 0 {
			return &FindingsError{Count: n, Level: failOn.String(), What: "new finding"}
		}
	}
	return nil
}

// diffOptions are how twice compares two runs: same-name calls aligned by
// the input value that tells them apart (detect.InvocationKeys, the KEY
// the view shows), and why a run ended in the words of the view and the
// report (format.RunWhy).
func diffOptions() rundiff.Options {
	return rundiff.Options{Keys: inputKeys, Why: format.RunWhy}
}

// inputKeys are the "field=value" keys of a run's calls; "" where the
// input cannot tell a call apart (the id then aligns it, or its order).
func inputKeys(h *catalyst.History, r *detect.Report) []string {
	keys := detect.InvocationKeys(h, r)
	out := make([]string, len(r.Invocations))
	for i, k := range keys {
		if !k.ByID && k.Field != "" {
			out[i] = k.String()
		}
	}
	return out
}
