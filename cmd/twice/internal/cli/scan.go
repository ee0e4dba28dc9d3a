package cli

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/safetext"
	"github.com/twice-cli/twice/cmd/twice/internal/report"
	"github.com/twice-cli/twice/detect"
	"github.com/twice-cli/twice/detect/review"
)

// DefaultConcurrency is how many histories a project scan reads at once.
const DefaultConcurrency = 8

// DefaultSince is how far back a project scan looks when --since is not
// given.
const DefaultSince = 24 * time.Hour

// ScanOptions are twice scan's inputs.
type ScanOptions struct {
	runDeps
	// Targets are files, "-", "demo:NAME" or run ids; none means a
	// project scan.
	Targets []string
	// App, Project, Since, Status and Workflow filter a project scan (App
	// and Project also name live runs given as targets).
	App      string
	Project  string
	Run      string
	Since    string
	Until    string
	Status   string
	Workflow string
	// Limit caps the runs a project scan lists (0: the source's default).
	Limit int
	// Output is -o.
	Output string
	// ExitStatus exits 3 when a finding at or above FailOn exists.
	ExitStatus bool
	FailOn     string
	// Concurrency is how many histories a project scan reads at once (0:
	// the config's, else 8).
	Concurrency int
	// OverdueAfter is how long a pending attempt of a running run may wait
	// before its outcome is called unknown (0: detect's default, 15m).
	OverdueAfter time.Duration
	// Source are workflow and activity source paths joined to each run's
	// findings (--source; else the config's source:).
	Source []string
	// summaryOnly writes, in text and Markdown, only the summary across
	// the runs (twice show over several histories, piped).
	summaryOnly bool
}

// NewCmdScan builds twice scan.
func NewCmdScan(f *Factory, runF func(*ScanOptions) error) *cobra.Command {
	opts := &ScanOptions{runDeps: f.runDeps()}
	cmd := &cobra.Command{
		Use:   "scan [FILE|-|demo:NAME|RUN_ID]...",
		Short: "Analyse runs without the interactive view: findings first",
		Long: `Analyse one or many runs and print the findings (most severe first), then each run's
invocations. Give history files, - for standard input, demo:NAME, or run ids (with
--app); or give no run and --project to scan the project's runs started since --since
(default 24h), many at once, ending with a fleet summary: runs scanned, runs with
findings, findings per activity, and the worst runs with their console links.

With --exit-status, twice exits 3 when a finding at or above --fail-on (default medium)
exists (for CI); --fail-on given alone implies --exit-status.

` + findingsHelp(),
		Example: `  twice scan demo:payment-timeout -o markdown
  twice scan saved/*.json -o json > findings.json
  twice scan --project default --since 6h --status failed
  twice scan --project default --exit-status --fail-on high`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Targets = args
			// --fail-on names a threshold to fail on: given alone, it
			// means --exit-status (a CI job that sets it expects exit 3).
			opts.ExitStatus = opts.ExitStatus || cmd.Flags().Changed("fail-on")
			if runF != nil {
				return runF(opts)
			}
			return runScan(cmd.Context(), opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVarP(&opts.App, "app", "a", "", "app id of the runs")
	fl.StringVarP(&opts.Project, "project", "p", "", "Catalyst project to scan (or that holds the run ids given)")
	fl.StringVar(&opts.Run, "run", "", "the run id of the one history file or standard input given, when it does not name it")
	fl.StringVar(&opts.Since, "since", "", "project scan: runs started within this duration (24h, 90m, 7d) or since this time (RFC 3339); 0 or all: no window; default 24h")
	fl.StringVar(&opts.Until, "until", "", "project scan: only runs started before this duration ago or this time")
	fl.StringVar(&opts.Status, "status", "", "project scan: only runs with this status (running, completed, failed, terminated, suspended, canceled, …)")
	fl.StringVar(&opts.Workflow, "workflow", "", "project scan: only runs of this workflow")
	fl.IntVar(&opts.Limit, "limit", 0, "project scan: at most this many runs")
	fl.StringVarP(&opts.Output, "output", "o", "text", "output: text, json, jsonl or markdown")
	fl.BoolVar(&opts.ExitStatus, "exit-status", false, "exit 3 when a finding at or above --fail-on exists")
	fl.StringVar(&opts.FailOn, "fail-on", "medium", "exit 3 when a finding at or above this severity exists: low, medium or high (implies --exit-status; each finding's default is listed above)")
	fl.IntVar(&opts.Concurrency, "concurrency", 0, "project scan: histories read at once (default: config, else 8; lowered when rate limited)")
	fl.StringArrayVar(&opts.Source, "source", nil, "join each finding to the code of its activity in this source `DIR` (repeatable; demo: the bundled demo services)")
	fl.DurationVar(&opts.OverdueAfter, "overdue-after", 0,
		"how long a running run's pending attempt may wait before its outcome is called unknown (default "+detect.DefaultOverdueAfter.String()+")")
	return cmd
}

// findingsHelp lists the findings catalogue for scan's help: each
// finding's id, its default severity and what it flags.
func findingsHelp() string {
	var b strings.Builder
	b.WriteString("Findings (and the severity each has unless the activity's name or the history changes it):")
	for _, c := range findingsBySeverity() {
		fmt.Fprintf(&b, "\n  %-26s %-7s %s", c.ID, c.Severity, c.Title)
	}
	return b.String()
}

// findingsBySeverity is the findings catalogue as the help and the README
// list it: most severe by default first, then in the catalogue's order.
func findingsBySeverity() []detect.Check {
	cs := detect.Checks()
	slices.SortStableFunc(cs, func(a, b detect.Check) int { return cmp.Compare(b.Severity, a.Severity) })
	return cs
}

// scanPlan is a checked ScanOptions.
type scanPlan struct {
	format      outputFormat
	failOn      detect.Severity
	det         detect.Options
	ropts       report.Options
	cfg         *Config
	concurrency int
	// code is the reviewed --source, joined to every history (nil: none).
	code *review.Report
}

func (opts *ScanOptions) plan() (*scanPlan, error) {
	p := &scanPlan{}
	var err error
	if p.format, err = parseOutput(opts.Output, outputText, outputJSON, outputJSONL, outputMarkdown); err != nil {
		return nil, err
	}
	sev, ok := detect.ParseSeverity(opts.FailOn)
	if !ok || sev == detect.SeverityNone {
		return nil, usagef("--fail-on %s is not a severity: use low, medium or high", quote(opts.FailOn))
	}
	p.failOn = sev
	if opts.Concurrency < 0 || opts.Concurrency > maxConcurrency {
		return nil, usagef("--concurrency %d is out of range: use 1 to %d", opts.Concurrency, maxConcurrency)
	}
	if opts.Limit < 0 {
		return nil, usagef("--limit %d is negative", opts.Limit)
	}
	if opts.OverdueAfter < 0 {
		return nil, usagef("--overdue-after %s is negative: give how long a pending attempt may wait, e.g. 15m or 2h", opts.OverdueAfter)
	}
	if p.cfg, p.det, p.ropts, err = opts.settings(); err != nil {
		return nil, err
	}
	p.concurrency = opts.Concurrency
	if p.concurrency == 0 {
		p.concurrency = p.cfg.Concurrency
	}
	if p.concurrency == 0 {
		p.concurrency = DefaultConcurrency
	}
	p.det.OverdueAfter = opts.OverdueAfter
	return p, nil
}

func runScan(ctx context.Context, opts *ScanOptions) error {
	p, err := opts.plan()
	if err != nil {
		return err
	}
	if p.code, err = joinSource(ctx, sourcePaths(opts.Source, p.cfg.Source), opts.IO.ErrOut); err != nil {
		return err
	}
	if len(opts.Targets) == 0 {
		if opts.Run != "" {
			fmt.Fprintln(opts.IO.ErrOut, "twice: --run is ignored: a project scan reads every run it lists")
		}
		return runFleetScan(ctx, opts, p)
	}
	for _, flag := range []struct{ name, value string }{{"--since", opts.Since}, {"--until", opts.Until}, {"--status", opts.Status}, {"--workflow", opts.Workflow}} {
		if flag.value != "" {
			return usagef("%s filters a project scan; it does not apply to the runs given as arguments", flag.name)
		}
	}
	opts.Targets = expandFolders(opts.Targets)
	return runTargetScan(ctx, opts, p)
}

// runTargetScan analyses the runs named as arguments, in order. A run that
// cannot be read is reported on standard error (and in the output: JSON's
// not_read, the text and Markdown summary) and makes the exit status 1;
// the others are still printed. Text and Markdown of more than one run
// begin with a summary, one line per run, the most severe first.
func runTargetScan(ctx context.Context, opts *ScanOptions, p *scanPlan) error {
	app, project := first(opts.App, p.cfg.App), first(opts.Project, p.cfg.Project)
	targets := make([]target, len(opts.Targets))
	// unread are the targets that could not even be resolved (a missing
	// file, a run id without its app): with other targets to scan, they
	// are not read, as a file that cannot be decoded is not; alone, the
	// error is the answer.
	unread := make(map[int]error)
	stdin := 0
	needLive := false
	for i, arg := range opts.Targets {
		t, err := resolveTarget(arg, app, project)
		if err != nil {
			if len(opts.Targets) == 1 {
				return err
			}
			unread[i] = err
			targets[i] = target{arg: arg}
			continue
		}
		if t.kind == targetStdin {
			if stdin++; stdin > 1 {
				return usagef("- (standard input) can be given once")
			}
		}
		needLive = needLive || t.kind == targetLive
		targets[i] = withIdentity(t, opts.Run, opts.App, opts.Project, func(s string) { fmt.Fprintln(opts.IO.ErrOut, s) })
	}
	if opts.Run != "" {
		histories := 0
		for i, t := range targets {
			if _, bad := unread[i]; !bad && t.kind != targetLive {
				histories++
			}
		}
		if histories > 1 {
			return usagef("--run names one run, and %d histories were given: scan them one at a time to name each", histories)
		}
	}
	var lc LiveClient
	if needLive {
		var err error
		if lc, err = opts.Live(nil, nil); err != nil {
			return err
		}
		defer lc.Close()
	}
	// JSON is written run by run, each history released once written, with
	// detect running while the events are written. Text and Markdown
	// collect the runs first.
	var stream *report.JSONStream
	switch p.format {
	case outputJSON:
		stream = report.NewJSONStream(opts.IO.Out, p.ropts)
	case outputJSONL:
		stream = report.NewJSONLStream(opts.IO.Out, p.ropts)
	}
	var runs []report.Analysis
	var failed []report.NotRead
	names := newActivityNames()
	defer names.warnUnmatched(opts.IO.ErrOut, opts.Classified())
	n := 0
	for i, t := range targets {
		if err, bad := unread[i]; bad {
			fmt.Fprintf(opts.IO.ErrOut, "twice: %s\n", safetext.Line(err.Error()))
			nr := report.NotRead{Source: t.arg, Err: err.Error()}
			failed = append(failed, nr)
			if stream != nil {
				stream.NotRead(nr)
			}
			continue
		}
		// A large file is read, analysed and written within twice its size
		// (memlimit.go).
		restore := func() {}
		if t.kind == targetFile {
			restore = opts.Histories.LimitMemory(t.arg)
		}
		h, err := opts.Histories.load(ctx, t, lc)
		if err != nil {
			restore()
			if ctx.Err() != nil {
				return errInterrupted
			}
			if exitCode(err) == ExitAuth {
				return err
			}
			fmt.Fprintf(opts.IO.ErrOut, "twice: %s\n", targetErrorText(t, err))
			nr := report.NotRead{Source: t.arg, Err: err.Error()}
			if t.kind == targetLive {
				nr.RunID, nr.AppID = t.ref.ID, t.ref.AppID
			}
			failed = append(failed, nr)
			if stream != nil {
				stream.NotRead(nr)
			}
			continue
		}
		if stream == nil {
			a := analyze(h, p.det, opts.Now(), p.code)
			names.add(a)
			runs = append(runs, a)
			restore()
			continue
		}
		a := analyzeWhileWriting(h, p.det, opts.Now(), p.code)
		stream.Run(a)
		names.add(a)
		restore()
		n += a.CountAtLeast(p.failOn)
	}
	if stream != nil {
		if err := stream.Close(nil); err != nil {
			return fmt.Errorf("writing the output: %w", err)
		}
	} else if len(runs) > 0 && opts.summaryOnly {
		if err := writeSummaryOnly(opts.IO.Out, p.format, runs, failed, p.ropts); err != nil {
			return fmt.Errorf("writing the output: %w", err)
		}
	} else if len(runs) > 0 {
		if err := writeScanSummary(opts.IO.Out, p.format, runs, failed, p.ropts); err != nil {
			return fmt.Errorf("writing the output: %w", err)
		}
		if err := writeAnalyses(opts.IO.Out, p.format, runs, p.ropts); err != nil {
			return fmt.Errorf("writing the output: %w", err)
		}
	}
	if len(failed) > 0 {
		return fmt.Errorf("%d of %d runs could not be read (see above); the output covers the others", len(failed), len(targets))
	}
	for _, a := range runs {
		n += a.CountAtLeast(p.failOn)
	}
	return findingsStatus(opts, p, n)
}

// writeScanSummary writes, before the runs of a scan of more than one run,
// the summary across them (text or Markdown; JSON has its own not_read).
func writeScanSummary(w io.Writer, format outputFormat, runs []report.Analysis, failed []report.NotRead, opts report.Options) error {
	if len(runs) < 2 {
		return nil
	}
	switch format {
	case outputText:
		if err := report.WriteScanSummaryText(w, runs, failed, opts); err != nil {
			return err
		}
		_, err := io.WriteString(w, "\n"+separator+"\n\n")
		return err
	case outputMarkdown:
		return report.WriteScanSummaryMarkdown(w, runs, failed, opts)
	}
	return nil
}

// writeSummaryOnly writes the summary across the runs, whatever their
// number, in text or Markdown.
func writeSummaryOnly(w io.Writer, format outputFormat, runs []report.Analysis, failed []report.NotRead, opts report.Options) error {
	if format == outputMarkdown {
		return report.WriteScanSummaryMarkdown(w, runs, failed, opts)
	}
	return report.WriteScanSummaryText(w, runs, failed, opts)
}

// targetErrorText is the line that says a target could not be read, naming
// it once: most errors already name the file (an os.PathError, the
// decoders' and the loader's messages), and then are printed as they are.
func targetErrorText(t target, err error) string {
	msg := err.Error()
	name := t.arg
	switch t.kind {
	case targetStdin:
		name = "standard input"
	case targetLive:
		return "run " + quote(t.arg) + ": " + safetext.Line(msg)
	}
	if strings.Contains(msg, name) {
		return safetext.Line(msg)
	}
	return quote(t.arg) + ": " + safetext.Line(msg)
}

// findingsStatus returns a FindingsError when --exit-status is set and n
// findings at or above --fail-on exist.
func findingsStatus(opts *ScanOptions, p *scanPlan, n int) error {
	if !opts.ExitStatus {
		return nil
	}
	if n > 0 {
		return &FindingsError{Count: n, Level: p.failOn.String()}
	}
	return nil
}

// parseSince reads --since (and --until): a duration back from now (Go
// syntax, plus d for days) or an instant (RFC 3339, or a date).
func parseSince(s string, now time.Time) (time.Time, error) {
	s = strings.TrimSpace(s)
	if s == "0" || strings.EqualFold(s, "all") {
		return time.Time{}, nil // no window
	}
	if days, ok := strings.CutSuffix(s, "d"); ok {
		if n, err := strconv.ParseFloat(days, 64); err == nil && n > 0 && n <= 3650 {
			return now.Add(-time.Duration(n * float64(24*time.Hour))), nil
		}
	}
	if d, err := time.ParseDuration(s); err == nil {
		if d <= 0 {
			return time.Time{}, usagef("--since %s must be a positive duration", quote(s))
		}
		return now.Add(-d), nil
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			if t.After(now) {
				return time.Time{}, usagef("--since %s is in the future", quote(s))
			}
			return t, nil
		}
	}
	return time.Time{}, usagef("--since %s is neither a duration (24h, 90m, 7d) nor a time (2026-08-21T14:00:00Z)", quote(s))
}

// parseStatus checks --status.
func parseStatus(s string) (catalyst.Status, error) {
	if s == "" {
		return "", nil
	}
	st := catalyst.Status(s)
	if !st.IsKnown() {
		return "", usagef("--status %s is not a run status: use running, completed, failed, terminated, suspended, canceled, stalled or pending", quote(s))
	}
	return st.Normalized(), nil
}
