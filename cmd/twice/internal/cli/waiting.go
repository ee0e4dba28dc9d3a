package cli

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/live"
	"github.com/twice-cli/twice/catalyst/safetext"
)

// waitEvery is how often a command waiting for Catalyst says so on a
// terminal's standard error: a person at a terminal sees within seconds
// that twice is waiting, and on what, rather than minutes of silence.
const waitEvery = 5 * time.Second

// waitReporter says on standard error, every waitEvery while a live call
// is in flight, what twice is waiting for and for how long. One reporter
// serves a command: a fleet scan's concurrent reads are said in one line.
// It is used only when standard error is a terminal (a log or a pipe gets
// no progress lines) and never while the interactive view is on screen.
type waitReporter struct {
	w     io.Writer
	now   func() time.Time
	every func(time.Duration) (<-chan time.Time, func())
	// server names the endpoint ("Catalyst at mcp.cloud.r1.diagrid.io");
	// limit is the command's --timeout (0: none); retry says which retry
	// the read in flight is on ("" for none).
	server string
	limit  time.Duration
	retry  func() string

	mu    sync.Mutex
	calls map[int]waitCall
	next  int
	stop  chan struct{}
	done  chan struct{}
}

// waitCall is one call in flight: what it waits for and since when.
type waitCall struct {
	what  string
	since time.Time
}

// begin records a call in flight and returns the function that ends it.
// The first call starts the reporting; the last to end stops it.
func (r *waitReporter) begin(what string) (end func()) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.calls == nil {
		r.calls = make(map[int]waitCall)
	}
	id := r.next
	r.next++
	r.calls[id] = waitCall{what: what, since: r.now()}
	if r.stop == nil {
		r.stop, r.done = make(chan struct{}), make(chan struct{})
		tick, stopTick := r.every(waitEvery)
		go r.report(tick, stopTick, r.stop, r.done)
	}
	return func() {
		r.mu.Lock()
		delete(r.calls, id)
		var stop, done chan struct{}
		if len(r.calls) == 0 && r.stop != nil {
			stop, done = r.stop, r.done
			r.stop, r.done = nil, nil
		}
		r.mu.Unlock()
		if stop != nil {
			close(stop)
			<-done // no line is written once the call returned
		}
	}
}

// report writes a line on every tick until stopped.
func (r *waitReporter) report(tick <-chan time.Time, stopTick func(), stop, done chan struct{}) {
	defer close(done)
	defer stopTick()
	for {
		select {
		case <-stop:
			return
		case now := <-tick:
			r.mu.Lock()
			line := r.line(now)
			r.mu.Unlock()
			if line != "" {
				fmt.Fprintln(r.w, line)
			}
		}
	}
}

// line words what is in flight at now (the tick's time): one call by what
// it is, several by their count, each with the wait of the oldest; ""
// when nothing has waited a full waitEvery yet. The caller holds r.mu.
func (r *waitReporter) line(now time.Time) string {
	if len(r.calls) == 0 {
		return ""
	}
	var oldest waitCall
	first := true
	for _, c := range r.calls {
		if first || c.since.Before(oldest.since) {
			oldest, first = c, false
		}
	}
	waited := now.Sub(oldest.since)
	if waited < waitEvery {
		return ""
	}
	what := oldest.what
	if n := len(r.calls); n > 1 {
		what = fmt.Sprintf("%d reads, the oldest %s", n, oldest.what)
	}
	var notes []string
	if note := r.retry(); note != "" {
		notes = append(notes, note)
	}
	if r.limit > 0 {
		notes = append(notes, fmt.Sprintf("--timeout %s", r.limit))
	}
	notes = append(notes, "ctrl+c stops")
	return fmt.Sprintf("twice: waiting %s for %s: %s (%s)", waited.Truncate(time.Second), r.server, what, strings.Join(notes, "; "))
}

// ticker is the real clock's: a channel that ticks every d, and its stop.
func ticker(d time.Duration) (<-chan time.Time, func()) {
	t := time.NewTicker(d)
	return t.C, t.Stop
}

// waitingClient is a live client whose calls are said while they wait
// (waitReporter).
type waitingClient struct {
	LiveClient
	r *waitReporter
}

func (c *waitingClient) ListRuns(ctx context.Context, q catalyst.RunQuery) (catalyst.RunList, error) {
	what := "listing runs"
	if q.Project != "" {
		what = "listing the runs of project " + safetext.Line(q.Project)
	}
	defer c.r.begin(what)()
	return c.LiveClient.ListRuns(ctx, q)
}

func (c *waitingClient) History(ctx context.Context, ref catalyst.RunRef) (*catalyst.History, error) {
	defer c.r.begin(runWhat(ref))()
	return c.LiveClient.History(ctx, ref)
}

func (c *waitingClient) Fetch(ctx context.Context, ref catalyst.RunRef) (*live.Fetched, error) {
	defer c.r.begin(runWhat(ref))()
	return c.LiveClient.Fetch(ctx, ref)
}

func (c *waitingClient) Doctor(ctx context.Context) live.DoctorReport {
	defer c.r.begin("checking the endpoint, the credential and the tools")()
	return c.LiveClient.Doctor(ctx)
}

func (c *waitingClient) CheckCredential(ctx context.Context) error {
	defer c.r.begin("reading the token")()
	return c.LiveClient.CheckCredential(ctx)
}

// runWhat says which run's history a call reads.
func runWhat(ref catalyst.RunRef) string {
	return "reading the history of run " + safetext.Line(ref.ID)
}

// waitingLive wraps lc so that its calls are said while they wait, when
// standard error is a terminal; otherwise it returns lc.
func (f *Factory) waitingLive(lc LiveClient, retry func() string) LiveClient {
	if !f.stderrTTY() {
		return lc
	}
	limit, _ := f.timeout()
	every := f.Env.Ticker
	if every == nil {
		every = ticker
	}
	if retry == nil {
		retry = func() string { return "" }
	}
	return &waitingClient{LiveClient: lc, r: &waitReporter{
		w: f.IO.ErrOut, now: f.Env.now, every: every,
		server: f.catalystName(), limit: limit, retry: retry,
	}}
}
