package cli

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// testClock is a clock a test moves, and the ticks it sends.
type testClock struct {
	mu    sync.Mutex
	t     time.Time
	ticks chan time.Time
}

func newTestClock() *testClock {
	return &testClock{t: testNow(), ticks: make(chan time.Time)}
}

func (c *testClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// advance moves the clock by d and ticks once (waiting until the reporter
// took the tick).
func (c *testClock) advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	now := c.t
	c.mu.Unlock()
	c.ticks <- now
}

func (c *testClock) ticker(d time.Duration) (<-chan time.Time, func()) {
	if d != waitEvery {
		panic("unexpected ticker period")
	}
	return c.ticks, func() {}
}

// stuckServer is an httptest server that never answers: each request waits
// until the client gives up. started receives once per request.
func stuckServer(t *testing.T) (*httptest.Server, chan struct{}) {
	started := make(chan struct{}, 16)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Read the body first: the server notices the client hanging up
		// (and ends the request's context) only once it has.
		_, _ = io.Copy(io.Discard, r.Body)
		started <- struct{}{}
		<-r.Context().Done()
	}))
	t.Cleanup(srv.Close)
	return srv, started
}

// TestWaitingSaysWhatItWaitsFor: a live command waiting on a server that
// never answers says on standard error, on a terminal, what it waits for
// and for how long, every few seconds; piped, it says nothing.
func TestWaitingSaysWhatItWaitsFor(t *testing.T) {
	for _, tty := range []bool{true, false} {
		t.Run(map[bool]string{true: "stderr_a_terminal", false: "stderr_piped"}[tty], func(t *testing.T) {
			srv, started := stuckServer(t)
			clock := newTestClock()
			env := testEnv(t, map[string]string{"CATALYST_TOKEN": "cat_TESTTOKEN_123", "CATALYST_MCP_URL": srv.URL})
			env.Now, env.Ticker = clock.now, clock.ticker
			var errOut interface {
				String() string
				Write([]byte) (int, error)
			} = &lockedBuffer{}
			if tty {
				errOut = &ttyBuffer{}
			}
			streams := &IOStreams{In: strings.NewReader(""), Out: &lockedBuffer{}, ErrOut: errOut,
				IsStdinTTY: func() bool { return false }, IsStdoutTTY: func() bool { return false }}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			done := make(chan int, 1)
			go func() {
				done <- Execute(ctx, NewFactory(streams, env), []string{"--timeout", "10m", "show", "charge-7731", "--app", "payments", "--project", "default"})
			}()
			select {
			case <-started:
			case <-time.After(10 * time.Second):
				t.Fatal("no request reached the server")
			}
			if !tty {
				cancel()
				<-done
				if s := errOut.String(); strings.Contains(s, "waiting") {
					t.Errorf("piped standard error got the waiting line: %q", s)
				}
				return
			}
			// A tick before waitEvery passed says nothing: a quick answer
			// prints no line.
			clock.advance(2 * time.Second)
			clock.advance(4 * time.Second) // 6 s in
			waitFor(t, func() bool { return strings.Count(errOut.String(), "twice: waiting") == 1 })
			clock.advance(5 * time.Second) // 11 s in
			want := []string{
				"twice: waiting 6s for Catalyst at " + strings.TrimPrefix(srv.URL, "http://") + ": reading the history of run charge-7731 (--timeout 10m0s; ctrl+c stops)\n",
				"twice: waiting 11s for Catalyst at " + strings.TrimPrefix(srv.URL, "http://") + ": reading the history of run charge-7731 (--timeout 10m0s; ctrl+c stops)\n",
			}
			waitFor(t, func() bool { return strings.Count(errOut.String(), "twice: waiting") == 2 })
			cancel()
			if code := <-done; code != ExitInterrupted {
				t.Errorf("exit %d, want %d", code, ExitInterrupted)
			}
			got := errOut.String()
			if !strings.HasPrefix(got, want[0]+want[1]) {
				t.Errorf("stderr:\n%s\nwant it to begin:\n%s%s", got, want[0], want[1])
			}
		})
	}
}

// TestWaitingLineCountsConcurrentReads: the reads of a fleet scan are said
// in one line, by their count and the oldest's wait, with the retry the
// reads are on.
func TestWaitingLineCountsConcurrentReads(t *testing.T) {
	clock := newTestClock()
	var out lockedBuffer
	r := &waitReporter{w: &out, now: clock.now, every: clock.ticker, server: "Catalyst at mcp.test",
		retry: func() string { return "retry 2 after HTTP 503 Service Unavailable" }}
	end1 := r.begin("reading the history of run a")
	clock.mu.Lock()
	clock.t = clock.t.Add(3 * time.Second)
	clock.mu.Unlock()
	end2 := r.begin("reading the history of run b")
	clock.advance(4 * time.Second)
	end1()
	end2()
	want := "twice: waiting 7s for Catalyst at mcp.test: 2 reads, the oldest reading the history of run a (retry 2 after HTTP 503 Service Unavailable; ctrl+c stops)\n"
	if got := out.String(); got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	// Once every call ended, the reporter stopped: a new call starts it
	// again, and a tick says only the new call's wait.
	end := r.begin("listing the runs of project default")
	clock.advance(5 * time.Second)
	end()
	if got := out.String(); !strings.HasSuffix(got, "twice: waiting 5s for Catalyst at mcp.test: listing the runs of project default (retry 2 after HTTP 503 Service Unavailable; ctrl+c stops)\n") {
		t.Errorf("after a restart: %q", got)
	}
}

// lockedBuffer is a buffer written from several goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// waitFor polls cond for up to ten seconds.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("timed out waiting")
		}
		time.Sleep(5 * time.Millisecond)
	}
}
