package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/live"
	"github.com/twice-cli/twice/catalyst/safetext"
	"github.com/twice-cli/twice/cmd/twice/internal/report"
)

// runFleetScan lists the project's runs and analyses them concurrently,
// printing them in list order as they become ready, then the fleet summary.
func runFleetScan(ctx context.Context, opts *ScanOptions, p *scanPlan) error {
	q, err := opts.query(p.cfg, opts.Now(), DefaultSince)
	if err != nil {
		return err
	}
	lim := newLimiter(p.concurrency, opts.Now)
	lc, err := opts.Live(lim.lower, nil)
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
		fmt.Fprintf(opts.IO.ErrOut, "twice: the run list is partial (%s%s): the scan covers the %d runs listed\n", safetext.Line(list.Reason), limitAdvice(list), len(list.Runs))
	}
	for _, note := range list.FilteredHere {
		fmt.Fprintf(opts.IO.ErrOut, "twice: %s\n", safetext.Line(note))
	}
	fleet := report.NewFleet(q, 0)
	fleet.Listed, fleet.Partial, fleet.Reason = len(list.Runs), list.Partial, list.Reason

	out := newFleetSink(opts.IO.Out, p)
	names := newActivityNames()
	defer names.warnUnmatched(opts.IO.ErrOut, opts.Classified())
	flagged := 0
	var authErr error
	for r := range scanRuns(ctx, lc, list.Runs, q.Project, lim, p) {
		if r.err != nil {
			fleet.AddFailure(r.run, r.err)
			if authErr == nil && errors.Is(r.err, live.ErrNotAuthenticated) {
				authErr = r.err
			}
			continue
		}
		fleet.Add(r.analysis, p.ropts.Console)
		out.run(r.analysis)
		names.add(r.analysis)
		flagged += r.analysis.CountAtLeast(p.failOn)
	}
	fleet.Concurrency = lim.current()
	if err := out.close(fleet); err != nil {
		return fmt.Errorf("writing the output: %w", err)
	}
	switch {
	case ctx.Err() != nil:
		return errInterrupted
	case authErr != nil:
		// The credential stopped working during the scan: exit 4.
		return fmt.Errorf("%d of %d runs could not be read: %w", len(fleet.Failed), fleet.Listed, authErr)
	case len(fleet.Failed) > 0:
		return fmt.Errorf("%d of %d runs could not be read (listed in the summary); the summary covers the others", len(fleet.Failed), fleet.Listed)
	}
	return findingsStatus(opts, p, flagged)
}

// query builds the run-list filter of a project scan; without --since it
// covers defaultSince back from now (0: no time filter).
func (opts *ScanOptions) query(cfg *Config, now time.Time, defaultSince time.Duration) (catalyst.RunQuery, error) {
	project := first(opts.Project, cfg.Project)
	if project == "" {
		return catalyst.RunQuery{}, usagef("no project: give --project (or set project in twice.yaml); a scan can also take files, demo:NAME or run ids with --app")
	}
	q := catalyst.RunQuery{Project: project, AppID: first(opts.App, cfg.App), Workflow: opts.Workflow, Limit: opts.Limit}
	var err error
	if q.Status, err = parseStatus(opts.Status); err != nil {
		return q, err
	}
	if defaultSince > 0 {
		q.Since = now.Add(-defaultSince)
	}
	if opts.Since != "" {
		if q.Since, err = parseSince(opts.Since, now); err != nil {
			return q, err
		}
	}
	if opts.Until != "" {
		if q.Until, err = parseSince(opts.Until, now); err != nil {
			return q, usagef("%s", strings.Replace(err.Error(), "--since", "--until", 1))
		}
		if !q.Since.IsZero() && !q.Until.After(q.Since) {
			return q, usagef("--until must be later than --since")
		}
	}
	return q, nil
}

// scanResult is one run of a fleet scan, read and analysed or not.
type scanResult struct {
	run      catalyst.Run
	analysis report.Analysis
	err      error
}

// scanRuns reads and analyses runs with at most lim.current() at once, and
// yields the results in the order of runs. Every run yields exactly one
// result (a cancelled context makes the rest fail fast).
func scanRuns(ctx context.Context, src catalyst.Source, runs []catalyst.Run, project string, lim *limiter, p *scanPlan) <-chan scanResult {
	slots := make([]chan scanResult, len(runs))
	for i := range slots {
		slots[i] = make(chan scanResult, 1)
	}
	jobs := make(chan int)
	go func() {
		defer close(jobs)
		for i := range runs {
			jobs <- i
		}
	}()
	var wg sync.WaitGroup
	for w := 0; w < lim.current(); w++ {
		wg.Add(1)
		go func(worker int) {
			defer wg.Done()
			for {
				// A worker above the (lowered) limit stops taking runs;
				// worker 0 always stays.
				if worker >= lim.current() {
					return
				}
				i, ok := <-jobs
				if !ok {
					return
				}
				run := runs[i]
				ref := catalyst.RunRef{ID: run.ID, AppID: run.AppID, Project: first(run.Project.Name, project)}
				h, err := src.History(ctx, ref)
				if err != nil {
					slots[i] <- scanResult{run: run, err: err}
					continue
				}
				slots[i] <- scanResult{run: run, analysis: analyze(h, p.det, p.ropts.Now(), p.code)}
			}
		}(w)
	}
	out := make(chan scanResult)
	go func() {
		defer close(out)
		for _, s := range slots {
			out <- <-s
		}
		wg.Wait()
	}()
	return out
}

// limiter is a concurrency limit that rate limiting lowers: each lowering
// halves it (never below 1), at most once per second so that one burst of
// 429s counts once.
type limiter struct {
	limit atomic.Int64
	now   func() time.Time

	mu   sync.Mutex
	last time.Time
}

func newLimiter(n int, now func() time.Time) *limiter {
	if now == nil {
		now = time.Now
	}
	l := &limiter{now: now}
	l.limit.Store(int64(max(1, n)))
	return l
}

func (l *limiter) current() int { return int(l.limit.Load()) }

// lower halves the limit after the server rate limited a request.
func (l *limiter) lower() {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	if !l.last.IsZero() && now.Sub(l.last) < time.Second {
		return
	}
	l.last = now
	if n := l.limit.Load(); n > 1 {
		l.limit.Store(n / 2)
	}
}

// fleetSink prints a project scan: JSON and JSONL stream every run and end
// with the summary; text and Markdown print the summary only.
type fleetSink struct {
	out    io.Writer
	p      *scanPlan
	stream *report.JSONStream
}

func newFleetSink(out io.Writer, p *scanPlan) *fleetSink {
	s := &fleetSink{out: out, p: p}
	switch p.format {
	case outputJSON:
		s.stream = report.NewJSONStream(out, p.ropts)
	case outputJSONL:
		s.stream = report.NewJSONLStream(out, p.ropts)
	}
	return s
}

func (s *fleetSink) run(a report.Analysis) {
	if s.stream != nil {
		s.stream.Run(a)
	}
}

func (s *fleetSink) close(fleet *report.Fleet) error {
	switch {
	case s.stream != nil:
		return s.stream.Close(fleet)
	case s.p.format == outputMarkdown:
		return report.WriteFleetMarkdown(s.out, fleet, s.p.ropts)
	}
	return report.WriteFleetText(s.out, fleet, s.p.ropts)
}
