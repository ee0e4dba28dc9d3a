package live

import (
	"bytes"
	"context"
	"sync"
	"testing"
	"time"

	"github.com/twice-cli/twice/catalyst/catalysttest"
)

// sleeps records the waits a client asked for, without waiting.
type sleeps struct {
	mu    sync.Mutex
	waits []time.Duration
}

func (s *sleeps) sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	s.waits = append(s.waits, d)
	s.mu.Unlock()
	return ctx.Err()
}

func (s *sleeps) all() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.waits...)
}

// env returns a LookupEnv holding CATALYST_TOKEN=token.
func env(token string) func(string) (string, bool) {
	return func(name string) (string, bool) {
		if name == EnvToken && token != "" {
			return token, true
		}
		return "", false
	}
}

// harness is a client wired to a test server, with its debug log and the
// waits it asked for.
type harness struct {
	srv    *catalysttest.Server
	client *Client
	debug  *lockedBuffer
	sleeps *sleeps
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// newHarness starts a server with opts and a client configured by mod.
func newHarness(t testing.TB, opts catalysttest.Options, mod func(*Config)) *harness {
	t.Helper()
	srv := catalysttest.New(opts)
	h := &harness{srv: srv, debug: &lockedBuffer{}, sleeps: &sleeps{}}
	cfg := Config{
		Endpoint: srv.URL,
		Token:    TokenSources(TokenOptions{LookupEnv: env(catalysttest.TestToken)}),
		Version:  "test",
		Debug:    h.debug,
		Sleep:    h.sleeps.sleep,
		Jitter:   func(n time.Duration) time.Duration { return 0 },
	}
	if opts.TLS {
		cfg.HTTPTransport = srv.Transport()
	}
	if mod != nil {
		mod(&cfg)
	}
	c, err := New(cfg)
	if err != nil {
		srv.Close()
		t.Fatalf("New: %v", err)
	}
	h.client = c
	t.Cleanup(func() {
		c.Close()
		srv.Close()
	})
	return h
}

func mustTime(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		panic(err)
	}
	return t
}
