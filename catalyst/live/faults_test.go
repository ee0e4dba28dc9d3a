package live

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/catalysttest"
)

var chargeRef = catalyst.RunRef{ID: "charge-7731", AppID: "payments", Project: "default"}

// fixedNow is the clock of the fault tests.
var fixedNow = time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)

func faultConfig(c *Config) {
	c.MaxAttempts = 3
	c.RequestTimeout = 2 * time.Second
	c.BackoffBase = 100 * time.Millisecond
	c.BackoffMax = time.Second
	c.Now = func() time.Time { return fixedNow }
}

// TestFaults covers reliability.md §6 A1–A14 for a history read: each fault
// is injected on the get tool after the session opened, and the attempts
// the server saw are counted.
func TestFaults(t *testing.T) {
	const tool = catalysttest.ToolGetRun
	hdr := func(pairs ...string) []string { return pairs }
	tests := []struct {
		name      string
		faults    []catalysttest.Fault
		cfg       func(*Config)
		wantCalls int
		wantOK    bool
		check     func(t *testing.T, err error, waits []time.Duration)
	}{
		{name: "A1 401 is not retried and is ErrNotAuthenticated",
			faults:    []catalysttest.Fault{catalysttest.StatusFault(tool, 0, 401)},
			wantCalls: 1,
			check: func(t *testing.T, err error, _ []time.Duration) {
				if !errors.Is(err, ErrNotAuthenticated) {
					t.Errorf("not ErrNotAuthenticated: %v", err)
				}
				var r *RefusalError
				if !errors.As(err, &r) || r.Status != 401 || !strings.Contains(err.Error(), "environment variable CATALYST_TOKEN") {
					t.Errorf("want a 401 refusal naming the token's source, got %v", err)
				}
			}},
		{name: "A2 403 is a refusal naming what was asked for",
			faults:    []catalysttest.Fault{catalysttest.StatusFault(tool, 0, 403)},
			wantCalls: 1,
			check: func(t *testing.T, err error, _ []time.Duration) {
				var r *RefusalError
				if !errors.As(err, &r) || r.Kind != KindForbidden || !strings.Contains(r.Op, "charge-7731") || !strings.Contains(r.Op, "payments") {
					t.Errorf("want FORBIDDEN for run charge-7731 of app payments, got %v", err)
				}
			}},
		{name: "A4 429 with Retry-After seconds waits that long, then succeeds",
			faults:    []catalysttest.Fault{catalysttest.StatusFault(tool, 1, 429, hdr("Retry-After", "2")...)},
			wantCalls: 2, wantOK: true,
			check: func(t *testing.T, _ error, waits []time.Duration) {
				if len(waits) != 1 || waits[0] != 2*time.Second {
					t.Errorf("waits = %v, want [2s]", waits)
				}
			}},
		{name: "A5 429 with an HTTP-date Retry-After waits until then",
			faults:    []catalysttest.Fault{catalysttest.StatusFault(tool, 1, 429, hdr("Retry-After", catalysttest.RetryAfterDate(fixedNow.Add(7*time.Second)))...)},
			wantCalls: 2, wantOK: true,
			check: func(t *testing.T, _ error, waits []time.Duration) {
				if len(waits) != 1 || waits[0] != 7*time.Second {
					t.Errorf("waits = %v, want [7s]", waits)
				}
			}},
		{name: "A5 429 with a garbage Retry-After falls back to the backoff",
			faults:    []catalysttest.Fault{catalysttest.StatusFault(tool, 1, 429, hdr("Retry-After", "soon, maybe")...)},
			wantCalls: 2, wantOK: true,
			check: func(t *testing.T, _ error, waits []time.Duration) {
				if len(waits) != 1 || waits[0] != 50*time.Millisecond {
					t.Errorf("waits = %v, want [50ms] (half the 100ms base, no jitter)", waits)
				}
			}},
		{name: "A5 429 without Retry-After backs off exponentially, never zero",
			faults:    []catalysttest.Fault{catalysttest.StatusFault(tool, 2, 429)},
			wantCalls: 3, wantOK: true,
			check: func(t *testing.T, _ error, waits []time.Duration) {
				if len(waits) != 2 || waits[0] != 50*time.Millisecond || waits[1] != 100*time.Millisecond {
					t.Errorf("waits = %v, want [50ms 100ms]", waits)
				}
			}},
		{name: "A5 429 with Retry-After 0 still waits the backoff (no busy loop)",
			faults:    []catalysttest.Fault{catalysttest.StatusFault(tool, 1, 429, hdr("Retry-After", "0")...)},
			wantCalls: 2, wantOK: true,
			check: func(t *testing.T, _ error, waits []time.Duration) {
				if len(waits) != 1 || waits[0] != 50*time.Millisecond {
					t.Errorf("waits = %v, want [50ms]", waits)
				}
			}},
		{name: "A6 429 asking for an hour fails at once saying when to retry",
			faults:    []catalysttest.Fault{catalysttest.StatusFault(tool, 0, 429, hdr("Retry-After", "3600")...)},
			wantCalls: 1,
			check: func(t *testing.T, err error, waits []time.Duration) {
				var rl *RateLimitError
				if !errors.As(err, &rl) || rl.RetryAfter != time.Hour || !rl.At.Equal(fixedNow.Add(time.Hour)) {
					t.Fatalf("want a RateLimitError of 1h, got %v", err)
				}
				if !strings.Contains(err.Error(), "2026-12-02T11:00:00Z") || !strings.Contains(err.Error(), "try again after") {
					t.Errorf("error does not say when to retry: %v", err)
				}
				if len(waits) != 0 {
					t.Errorf("slept %v before failing", waits)
				}
			}},
		{name: "A7 503 twice then 200 succeeds on the third attempt",
			faults:    []catalysttest.Fault{catalysttest.StatusFault(tool, 2, 503)},
			wantCalls: 3, wantOK: true},
		{name: "A7 503 forever gives up after the attempts allowed",
			faults:    []catalysttest.Fault{catalysttest.StatusFault(tool, 0, 503, hdr("X-Request-Id", "req-42")...)},
			wantCalls: 3,
			check: func(t *testing.T, err error, _ []time.Duration) {
				var se *StatusError
				if !errors.As(err, &se) || se.Status != 503 || se.Attempts != 3 || se.RequestID != "req-42" {
					t.Fatalf("want a 503 StatusError after 3 attempts with the request id, got %#v", err)
				}
				if !strings.Contains(err.Error(), "after 3 attempts") || !strings.Contains(err.Error(), "req-42") {
					t.Errorf("error = %v", err)
				}
			}},
		{name: "A7 501 is not retried",
			faults:    []catalysttest.Fault{catalysttest.StatusFault(tool, 0, 501)},
			wantCalls: 1,
			check: func(t *testing.T, err error, _ []time.Duration) {
				var se *StatusError
				if !errors.As(err, &se) || se.Status != 501 || se.Attempts != 1 {
					t.Errorf("want a 501 StatusError after 1 attempt, got %v", err)
				}
			}},
		{name: "A7 500 is not retried (not in the transient set)",
			faults:    []catalysttest.Fault{catalysttest.StatusFault(tool, 0, 500)},
			wantCalls: 1},
		{name: "A7 502 and 504 are retried",
			faults:    []catalysttest.Fault{catalysttest.StatusFault(tool, 1, 502), catalysttest.StatusFault(tool, 1, 504)},
			wantCalls: 3, wantOK: true},
		{name: "A8 503 with Retry-After waits that long",
			faults:    []catalysttest.Fault{catalysttest.StatusFault(tool, 1, 503, hdr("Retry-After", "1")...)},
			wantCalls: 2, wantOK: true,
			check: func(t *testing.T, _ error, waits []time.Duration) {
				if len(waits) != 1 || waits[0] != time.Second {
					t.Errorf("waits = %v, want [1s]", waits)
				}
			}},
		{name: "A9 a handler slower than the request timeout times out, each attempt",
			faults:    []catalysttest.Fault{{On: tool, Kind: catalysttest.FaultDelay, Delay: 5 * time.Second}},
			cfg:       func(c *Config) { c.RequestTimeout = 100 * time.Millisecond },
			wantCalls: 3,
			check: func(t *testing.T, err error, _ []time.Duration) {
				if !strings.Contains(err.Error(), "no complete answer from") || !strings.Contains(err.Error(), "within 100ms") {
					t.Errorf("error = %v", err)
				}
			}},
		{name: "A10 a body trickling slower than the timeout is cut",
			faults:    []catalysttest.Fault{{On: tool, Kind: catalysttest.FaultSlowBody, Delay: 40 * time.Millisecond, Body: strings.Repeat("x", 100)}},
			cfg:       func(c *Config) { c.RequestTimeout = 150 * time.Millisecond; c.MaxAttempts = 2 },
			wantCalls: 2,
			check: func(t *testing.T, err error, _ []time.Duration) {
				if !strings.Contains(err.Error(), "within 150ms") {
					t.Errorf("error = %v", err)
				}
			}},
		{name: "A12 a truncated body is retried, never taken as complete",
			faults:    []catalysttest.Fault{{On: tool, Kind: catalysttest.FaultTruncate, Body: `{"jsonrpc":"2.0","id":4,"result":{"content":[`}},
			wantCalls: 3,
			check: func(t *testing.T, err error, _ []time.Duration) {
				if !strings.Contains(err.Error(), "EOF") || !strings.Contains(err.Error(), "gave up after 3 attempts") {
					t.Errorf("error = %v", err)
				}
			}},
		{name: "A12 a dropped connection is retried",
			faults:    []catalysttest.Fault{{On: tool, Times: 1, Kind: catalysttest.FaultHangup}},
			wantCalls: 2, wantOK: true},
		{name: "A13 malformed JSON is not retried",
			faults:    []catalysttest.Fault{{On: tool, Kind: catalysttest.FaultStatus, Status: 200, Body: `{"jsonrpc":"2.0","id":`}},
			wantCalls: 1,
			check:     wantBadResponse(`{"jsonrpc":"2.0","id":`)},
		{name: "A13 an HTML page is not retried",
			faults: []catalysttest.Fault{{On: tool, Kind: catalysttest.FaultStatus, Status: 200,
				Header: map[string][]string{"Content-Type": {"text/html"}}, Body: "<html>" + strings.Repeat("gateway ", 500) + "</html>"}},
			wantCalls: 1,
			check: func(t *testing.T, err error, _ []time.Duration) {
				wantBadResponse("<html>gateway")(t, err, nil)
				if len(err.Error()) > 1600 {
					t.Errorf("error carries %d bytes of body", len(err.Error()))
				}
			}},
		{name: "A13 an empty body is not retried",
			faults:    []catalysttest.Fault{{On: tool, Kind: catalysttest.FaultStatus, Status: 200}},
			wantCalls: 1,
			check:     wantBadResponse("(empty body)")},
		{name: "A13 trailing garbage after the JSON is not accepted",
			faults:    []catalysttest.Fault{{On: tool, Kind: catalysttest.FaultStatus, Status: 200, Body: `{"jsonrpc":"2.0","id":4,"result":{}} trailing`}},
			wantCalls: 1,
			check:     wantBadResponse("trailing")},
		{name: "A13 a tool result that is not JSON is not accepted",
			faults:    []catalysttest.Fault{{On: tool, Kind: catalysttest.FaultToolText, Body: "Here is the run you asked for!"}},
			wantCalls: 1,
			check:     wantBadResponse("Here is the run")},
		{name: "A15 nesting beyond the JSON decoder's depth is a clean error",
			faults:    []catalysttest.Fault{{On: tool, Kind: catalysttest.FaultStatus, Status: 200, Body: `{"jsonrpc":"2.0","id":3,"result":` + strings.Repeat("[", 10001)}},
			wantCalls: 1,
			check:     wantBadResponse("[[[["),
		},
		{name: "A14 a body over the limit is not retried",
			faults:    []catalysttest.Fault{{On: tool, Kind: catalysttest.FaultOversized}},
			cfg:       func(c *Config) { c.MaxBodyBytes = 64 << 10 },
			wantCalls: 1,
			check: func(t *testing.T, err error, _ []time.Duration) {
				if !errors.Is(err, ErrResponseTooLarge) || !strings.Contains(err.Error(), "65536 bytes") {
					t.Errorf("error = %v", err)
				}
			}},
		{name: "hostile server text is sanitized in errors",
			faults:    []catalysttest.Fault{{On: tool, Kind: catalysttest.FaultStatus, Status: 500, Body: "boom\x1b]0;pwned\x07\u202e\r\nspoof"}},
			wantCalls: 1,
			check: func(t *testing.T, err error, _ []time.Duration) {
				if strings.ContainsAny(err.Error(), "\x1b\x07\r\n\u202e") || !strings.Contains(err.Error(), `boom\x1b]0;pwned\x07\u202e\r\nspoof`) {
					t.Errorf("error not sanitized: %q", err)
				}
			}},
		{name: "a JSON-RPC error of no known kind names its code",
			faults:    []catalysttest.Fault{{On: tool, Kind: catalysttest.FaultRPCError, Code: -32603, Body: "internal error"}},
			wantCalls: 1,
			check: func(t *testing.T, err error, _ []time.Duration) {
				if !strings.Contains(err.Error(), "JSON-RPC error -32603: internal error") {
					t.Errorf("error = %v", err)
				}
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, catalysttest.Options{}, func(c *Config) {
				faultConfig(c)
				if tc.cfg != nil {
					tc.cfg(c)
				}
			})
			h.srv.Inject(tc.faults...)
			f, err := h.client.Fetch(context.Background(), chargeRef)
			if got := h.srv.Count(tool); got != tc.wantCalls {
				t.Errorf("server saw %d calls of %s, want %d", got, tool, tc.wantCalls)
			}
			if tc.wantOK {
				if err != nil {
					t.Fatalf("Fetch: %v", err)
				}
				if f.History.Len() != 15 {
					t.Errorf("history has %d events, want 15", f.History.Len())
				}
			} else if err == nil {
				t.Fatal("Fetch succeeded, want an error")
			}
			if err != nil && strings.Contains(err.Error(), testSecret) {
				t.Errorf("error reveals the token: %v", err)
			}
			if tc.check != nil {
				tc.check(t, err, h.sleeps.all())
			}
		})
	}
}

func wantBadResponse(excerpt string) func(*testing.T, error, []time.Duration) {
	return func(t *testing.T, err error, _ []time.Duration) {
		t.Helper()
		if !errors.Is(err, ErrBadResponse) {
			t.Errorf("not ErrBadResponse: %v", err)
		}
		if !strings.Contains(err.Error(), excerpt) {
			t.Errorf("error %q does not show %q", err, excerpt)
		}
	}
}
