package cli

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/twice-cli/twice/catalyst/safetext"
	"github.com/twice-cli/twice/fixtures"

	"github.com/spf13/cobra"

	"github.com/twice-cli/twice/cmd/twice/internal/report"
	"github.com/twice-cli/twice/detect"
	"github.com/twice-cli/twice/detect/review"
	"github.com/twice-cli/twice/detect/review/langs"
)

// outputSARIF is -o sarif (review only).
const outputSARIF outputFormat = "sarif"

// ReviewOptions are twice review's inputs.
type ReviewOptions struct {
	IO *IOStreams
	// Color reports whether to colour the text (Factory.colorEnabled).
	Color func() (bool, error)
	// Version is twice's version, for SARIF's tool.
	Version string
	// Paths are the files and directories to review.
	Paths []string
	// Output is -o.
	Output string
	// ExitStatus exits 3 when a hazard at or above FailOn exists.
	ExitStatus bool
	FailOn     string
}

// NewCmdReview builds twice review. runF, when set, receives the parsed
// options instead of running (tests).
func NewCmdReview(f *Factory, runF func(*ReviewOptions) error) *cobra.Command {
	opts := &ReviewOptions{IO: f.IO, Color: f.colorEnabled, Version: f.Env.Version}
	cmd := &cobra.Command{
		Use:   "review PATH...",
		Short: "Review workflow and activity source for the hazards of running twice",
		Long: `Read the source of your workflows and activities (Go, Python and C#; files or directories)
and report, per activity, what makes it unsafe to run twice: an idempotency key generated
inside the body, a side effect with no key or conditional write, check-then-act, a key
derived from a per-attempt id, a retry loop inside the body, one retry policy for
activities of different failure classes, a business rejection retried by the call site's
policy, and a whole response body returned as output. Each hazard names the activity as
the history shows it, its file:line:column, the line, why it is a hazard and the fix.

Every activity a workflow calls, and every registration, that twice could not follow to a
body it reviewed is listed under "Not reviewed" with where and why (never a silent zero);
an activity found only because a workflow calls it is marked inferred.

twice never runs your code: this is static review. -o sarif writes SARIF 2.1.0 for GitHub
code scanning and editors (paths relative to the reviewed folder, %SRCROOT%). With
--exit-status, twice exits 3 when a hazard at or above --fail-on (default medium) exists
(for CI); --fail-on given alone implies --exit-status. --fail-on unreviewed (or
high,unreviewed) also fails when an activity or workflow was not reviewed.`,
		Example: `  twice review ./services/payments
  twice review . -o sarif > twice.sarif
  twice review . --exit-status --fail-on high
  twice review . --fail-on medium,unreviewed`,
		Args: usageArgs(cobra.MinimumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Paths = args
			// --fail-on given alone implies --exit-status, as for scan.
			opts.ExitStatus = opts.ExitStatus || cmd.Flags().Changed("fail-on")
			if runF != nil {
				return runF(opts)
			}
			return runReview(cmd.Context(), opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVarP(&opts.Output, "output", "o", "text", "output: text, json, markdown or sarif")
	fl.BoolVar(&opts.ExitStatus, "exit-status", false, "exit 3 when a hazard at or above --fail-on exists")
	fl.StringVar(&opts.FailOn, "fail-on", "medium", "exit 3 when a hazard at or above this severity exists: low, medium or high; unreviewed (alone: with medium) also when an activity or workflow was not reviewed (implies --exit-status)")
	return cmd
}

func runReview(ctx context.Context, opts *ReviewOptions) error {
	format, err := parseOutput(opts.Output, outputText, outputJSON, outputMarkdown, outputSARIF)
	if err != nil {
		return err
	}
	failOn, failUnreviewed, err := parseReviewFailOn(opts.FailOn)
	if err != nil {
		return err
	}
	rep, err := reviewSource(ctx, opts.Paths)
	if err != nil {
		return err
	}
	color, err := opts.Color()
	if err != nil {
		return err
	}
	ro := report.ReviewOptions{Styles: report.NewStyles(color && format == outputText), Version: opts.Version}
	if !isDemoSource(opts.Paths[0]) {
		ro.SrcRootURI = srcRootURI(report.ReviewBase(opts.Paths))
	}
	switch format {
	case outputJSON:
		err = report.WriteReviewJSON(opts.IO.Out, rep, ro)
	case outputMarkdown:
		err = report.WriteReviewMarkdown(opts.IO.Out, rep, ro)
	case outputSARIF:
		err = report.WriteReviewSARIF(opts.IO.Out, rep, ro)
	default:
		err = report.WriteReviewText(opts.IO.Out, rep, ro)
	}
	if err != nil {
		return err
	}
	if reviewedNone(rep) {
		// Nothing reviewed is never a pass: said on standard error, and
		// under --exit-status an error rather than exit 0.
		err := &NoSourceError{Paths: opts.Paths, Skipped: rep.Skipped}
		if opts.ExitStatus {
			return err
		}
		fmt.Fprintf(opts.IO.ErrOut, "twice: %s\n", safetext.Line(err.Error()))
		return nil
	}
	for _, line := range reviewWarnings(rep) {
		fmt.Fprintf(opts.IO.ErrOut, "twice: %s\n", safetext.Line(line))
	}
	if opts.ExitStatus {
		n := 0
		for _, h := range rep.Hazards {
			if h.Severity >= failOn {
				n++
			}
		}
		if n > 0 {
			return &FindingsError{Count: n, Level: failOn.String(), What: "hazard"}
		}
		if failUnreviewed && len(rep.Unresolved) > 0 {
			return &FindingsError{Count: len(rep.Unresolved), Level: "unreviewed",
				Msg: fmt.Sprintf("%d activity or workflow name(s) not reviewed (--fail-on unreviewed): see Not reviewed for where and why", len(rep.Unresolved))}
		}
	}
	return nil
}

// parseReviewFailOn reads --fail-on: a severity, "unreviewed", or both
// separated by a comma ("high,unreviewed"); unreviewed alone keeps the
// default severity, medium, so a gate never stops gating hazards.
func parseReviewFailOn(v string) (detect.Severity, bool, error) {
	sev, unreviewed, seen := detect.SeverityMedium, false, false
	for _, part := range strings.Split(v, ",") {
		part = strings.TrimSpace(part)
		if strings.EqualFold(part, "unreviewed") {
			unreviewed = true
			continue
		}
		s, ok := detect.ParseSeverity(part)
		if !ok || s == detect.SeverityNone || seen {
			return 0, false, usagef("--fail-on %s is not a severity: use low, medium or high, and unreviewed to fail on what twice could not review (high,unreviewed)", quote(v))
		}
		sev, seen = s, true
	}
	return sev, unreviewed, nil
}

// srcRootURI is the reviewed base folder as an absolute file URI ending
// in "/" ("" when it cannot be made absolute).
func srcRootURI(base string) string {
	abs, err := filepath.Abs(filepath.FromSlash(base))
	if err != nil {
		return ""
	}
	p := filepath.ToSlash(abs)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // a Windows drive path
	}
	if !strings.HasSuffix(p, "/") {
		p += "/"
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}

// reviewWarnings are what a review says on standard error whatever the
// output format: a review that found workflows but reviewed no activity,
// a tree that imports a Dapr workflow SDK where twice found nothing, and
// how many names it could not review (listed in the output).
func reviewWarnings(rep *review.Report) []string {
	var out []string
	reviewed := 0
	for _, a := range rep.Activities {
		if !a.Unresolved {
			reviewed++
		}
	}
	switch {
	case len(rep.Workflows) > 0 && reviewed == 0:
		out = append(out, fmt.Sprintf("found %d workflow(s) but reviewed no activity: the activities they call are not in the reviewed source, or are registered in a way twice cannot follow (see Not reviewed); give the folder that holds them", len(rep.Workflows)))
	case rep.SDKImported && len(rep.Workflows) == 0 && len(rep.Activities) == 0:
		out = append(out, "this source imports a Dapr workflow SDK, but twice found no workflow or activity in it: its registrations are not ones twice can read; a clean result here is not a pass")
	}
	if n := len(rep.Unresolved); n > 0 {
		out = append(out, fmt.Sprintf("%d activity or workflow name(s) were called or registered but not reviewed (listed under Not reviewed, with why); --fail-on unreviewed fails a CI gate on them", n))
	}
	return out
}

// reviewSource reviews source paths with every front-end this build has.
// "demo" (when no such directory exists here) is the bundled demo
// services.
func reviewSource(ctx context.Context, paths []string) (*review.Report, error) {
	opts := langs.Options()
	demo, other := 0, 0
	for _, p := range paths {
		if isDemoSource(p) {
			demo++
		} else {
			other++
		}
	}
	if demo > 0 && other > 0 {
		return nil, usagef("give the bundled demo services (demo) on their own, not with other source paths")
	}
	if demo > 0 {
		opts.FS = fixtures.DemoServices()
		paths = []string{fixtures.DemoServicesRoot}
	}
	rep, err := review.Review(ctx, paths, opts)
	if err != nil {
		return nil, &SourceError{Err: err}
	}
	return rep, nil
}

// isDemoSource reports whether a source path names the bundled demo
// services: "demo:", or "demo" when there is no such directory.
func isDemoSource(p string) bool {
	if p == fixtures.DemoPrefix {
		return true
	}
	if p != "demo" {
		return false
	}
	_, err := os.Stat(p)
	return err != nil
}

// joinSource reviews the source paths (--source, else the config's
// source: — sourcePaths) and returns the review to join to each history;
// nil when there are none. What a language's front-end could not do is
// said on errOut.
func joinSource(ctx context.Context, paths []string, errOut io.Writer) (*review.Report, error) {
	if len(paths) == 0 {
		return nil, nil
	}
	rep, err := reviewSource(ctx, paths)
	if err != nil {
		return nil, err
	}
	for _, l := range review.Langs() {
		if why, ok := rep.Unavailable[l]; ok {
			fmt.Fprintf(errOut, "twice: %s\n", safetext.Line(why))
		}
	}
	if reviewedNone(rep) {
		fmt.Fprintf(errOut, "twice: --source: %s\n", safetext.Line((&NoSourceError{Paths: paths, Skipped: rep.Skipped}).Error()))
	}
	return rep, nil
}

// NoSourceError is a review that found no Go, Python or C# source to
// review: under --exit-status it exits 1, never 0.
type NoSourceError struct {
	// Paths are the paths given.
	Paths []string
	// Skipped are the source files found but not reviewed, with why.
	Skipped []review.Skipped
}

// Error says that nothing was reviewed, where, and what to do.
func (e *NoSourceError) Error() string {
	msg := "no Go, Python or C# source was reviewed under " + strings.Join(e.Paths, ", ")
	if n := len(e.Skipped); n > 0 {
		msg += fmt.Sprintf(" (%d file(s) found but skipped: ", n)
		for i, s := range e.Skipped[:min(n, 3)] {
			if i > 0 {
				msg += "; "
			}
			msg += s.File + ": " + s.Reason
		}
		if n > 3 {
			msg += fmt.Sprintf("; and %d more", n-3)
		}
		msg += ")"
	}
	return msg + ": a review of nothing is not a pass; give the folder that holds your workflows and activities"
}

// reviewedNone reports whether a review read no source file.
func reviewedNone(rep *review.Report) bool {
	for _, n := range rep.Files {
		if n > 0 {
			return false
		}
	}
	return true
}
