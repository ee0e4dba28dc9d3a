package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/live"
)

// testNow is the clock of every command test.
func testNow() time.Time { return time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC) }

// testEnv is an environment with only the given variables, the test clock,
// and a working folder with no config.
func testEnv(t *testing.T, vars map[string]string) Env {
	t.Helper()
	dir := t.TempDir()
	lookup := func(k string) (string, bool) {
		if k == "HOME" {
			if v, ok := vars[k]; ok {
				return v, true
			}
			return dir, true // an empty home: no user config leaks into tests
		}
		v, ok := vars[k]
		return v, ok
	}
	return Env{LookupEnv: lookup, Now: testNow, Version: "0.1.0-test", WorkDir: dir}
}

// result is one command line's outcome.
type result struct {
	code   int
	out    string
	errOut string
}

// harness runs command lines against a factory whose live client and
// interactive view are fakes.
type harness struct {
	t   *testing.T
	env Env
	tty bool
	// stdinPiped makes standard input a pipe even when tty is set;
	// openTTY is the streams' OpenTTY (nil: none).
	stdinPiped bool
	openTTY    func() (io.ReadCloser, error)
	in         string
	live       *fakeLive
	// liveErr is returned by NewLive.
	liveErr error
	// liveConfig is the config NewLive was last given.
	liveConfig live.Config
	// tuiCalls records the interactive view's requests; tuiErr is what it
	// returns (errNoTUI to fall back to text).
	tuiCalls []TUIRequest
	tuiErr   error
}

func newHarness(t *testing.T) *harness {
	return &harness{t: t, env: testEnv(t, nil), live: newFakeLive(), tuiErr: errNoTUI}
}

func (h *harness) factory() (*Factory, *bytes.Buffer, *bytes.Buffer) {
	streams, out, errOut := TestStreams(h.in, h.tty)
	if h.stdinPiped {
		streams.IsStdinTTY = func() bool { return false }
	}
	streams.OpenTTY = h.openTTY
	f := NewFactory(streams, h.env)
	f.NewLive = func(cfg live.Config) (LiveClient, error) {
		h.liveConfig = cfg
		if h.liveErr != nil {
			return nil, h.liveErr
		}
		return h.live, nil
	}
	f.RunTUI = func(ctx context.Context, req TUIRequest) error {
		h.tuiCalls = append(h.tuiCalls, req)
		return h.tuiErr
	}
	return f, out, errOut
}

func (h *harness) run(args ...string) result {
	h.t.Helper()
	f, out, errOut := h.factory()
	code := Execute(context.Background(), f, args)
	return result{code: code, out: out.String(), errOut: errOut.String()}
}

// writeFile writes a file in a temporary folder and returns its path.
func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// fakeLive is a LiveClient over histories held in memory.
type fakeLive struct {
	mu      sync.Mutex
	list    catalyst.RunList
	listErr error
	// histories by run id; errs by run id.
	histories map[string]*catalyst.History
	raw       map[string][]byte
	errs      map[string]error
	// delay is how long History takes; inFlight and maxInFlight measure
	// concurrency.
	delay       time.Duration
	inFlight    int
	maxInFlight int
	refs        []catalyst.RunRef
	queries     []catalyst.RunQuery
	doctor      live.DoctorReport
	closed      bool
	// credErr is what CheckCredential returns; credChecks counts its calls.
	credErr    error
	credChecks int
}

func newFakeLive() *fakeLive {
	return &fakeLive{histories: map[string]*catalyst.History{}, raw: map[string][]byte{}, errs: map[string]error{}}
}

func (l *fakeLive) ListRuns(ctx context.Context, q catalyst.RunQuery) (catalyst.RunList, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.queries = append(l.queries, q)
	return l.list, l.listErr
}

func (l *fakeLive) History(ctx context.Context, ref catalyst.RunRef) (*catalyst.History, error) {
	l.mu.Lock()
	l.refs = append(l.refs, ref)
	l.inFlight++
	l.maxInFlight = max(l.maxInFlight, l.inFlight)
	delay := l.delay
	l.mu.Unlock()
	defer func() {
		l.mu.Lock()
		l.inFlight--
		l.mu.Unlock()
	}()
	if delay > 0 {
		select {
		case <-time.After(delay):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := l.errs[ref.ID]; err != nil {
		return nil, err
	}
	h, ok := l.histories[ref.ID]
	if !ok {
		return nil, fmt.Errorf("run %s not found", ref.ID)
	}
	return h, nil
}

func (l *fakeLive) Fetch(ctx context.Context, ref catalyst.RunRef) (*live.Fetched, error) {
	h, err := l.History(ctx, ref)
	if err != nil {
		return nil, err
	}
	raw, ok := l.raw[ref.ID]
	if !ok {
		return nil, errors.New("no raw document")
	}
	return &live.Fetched{History: h, Raw: raw, DataSharing: h.Run.DataSharing, Endpoint: "mcp.test", Tool: "catalyst_get_workflow_run"}, nil
}

func (l *fakeLive) Doctor(ctx context.Context) live.DoctorReport { return l.doctor }

func (l *fakeLive) CheckCredential(ctx context.Context) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.credChecks++
	return l.credErr
}

func (l *fakeLive) Close() {
	l.mu.Lock()
	l.closed = true
	l.mu.Unlock()
}
