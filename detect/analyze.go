package detect

import (
	"time"

	"github.com/twice-cli/twice/catalyst"
)

// DefaultLargePayloadBytes is the large-payload threshold when
// Options.LargePayloadBytes is 0.
const DefaultLargePayloadBytes = 64 << 10

// DefaultOverdueAfter is how long an attempt of a running run may go without
// an outcome before it is reported as unknown, when Options.OverdueAfter is 0.
const DefaultOverdueAfter = 15 * time.Minute

// Options tune Analyze. The zero value is usable.
type Options struct {
	// Overrides classifies activities by name (from config, --side-effect
	// or --read-only); names match case-insensitively and win over the name
	// classifier.
	Overrides map[string]ActivityClass
	// LargePayloadBytes is the size above which an input or output is
	// reported as large (default 64 KiB).
	LargePayloadBytes int
	// Now is the instant a running run's pending attempts are judged
	// against. Zero means the latest instant the history vouches for (its
	// last event, Run.UpdatedAt, or when a saved history was captured),
	// which keeps the result a function of the history alone. A history
	// that says neither when it was read (a plain file or stdin, with no
	// capture time) nor is a live read reports a pending attempt that is not
	// yet overdue as unknown-outcome at low severity: whether it is still
	// running cannot be told. Live readers should pass the clock.
	Now time.Time
	// OverdueAfter is how long a pending attempt of a running run may wait
	// before its outcome is reported unknown (default 15 min).
	OverdueAfter time.Duration
}

// Analyze groups every attempt of h into its invocation and runs the
// findings catalogue. It is linear in the history's length, reads h
// without changing it, and never fails: a history with nothing to group
// gives an empty report.
func Analyze(h *catalyst.History, opts Options) *Report { return analyze(h, opts, 0) }

// analyze is Analyze with the invocations built and checked on workers
// goroutines; 0 lets invocationWorkers decide.
func analyze(h *catalyst.History, opts Options, workers int) *Report {
	if opts.LargePayloadBytes <= 0 {
		opts.LargePayloadBytes = DefaultLargePayloadBytes
	}
	if opts.OverdueAfter <= 0 {
		opts.OverdueAfter = DefaultOverdueAfter
	}
	r := &Report{}
	if h == nil {
		return r
	}
	s := newScan(h, opts.LargePayloadBytes)
	s.linkExecIDs()
	s.pairIDless()
	s.linkTimers()
	fc := &failureClasses{}
	b := s.build(newClassifier(opts.Overrides), fc, workers)
	r.Invocations = b.invs
	s.attachNotes(r, &b)

	d := &detector{s: s, h: h, b: b, opts: opts, fc: fc, rep: r, ln: line{res: h.TimeResolution}}
	if workers <= 0 {
		workers = invocationWorkers(len(b.invs))
	}
	d.check(workers)
	d.runSkips()
	d.finish(r)
	return r
}
