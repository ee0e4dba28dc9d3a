package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/twice-cli/twice/catalyst/catalysttest"
)

// inFlightCounter is a reverse proxy in front of the Catalyst stand-in that
// counts the history reads (tools/call of the get tool) under way at once.
type inFlightCounter struct {
	mu       sync.Mutex
	now, max int
	gets     int
}

func (c *inFlightCounter) handler(target *url.URL) http.Handler {
	proxy := httputil.NewSingleHostReverseProxy(target)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		get := bytes.Contains(body, []byte(`"tools/call"`)) && bytes.Contains(body, []byte(`get_workflow_run`))
		if get {
			c.mu.Lock()
			c.now++
			c.gets++
			c.max = max(c.max, c.now)
			c.mu.Unlock()
			defer func() { c.mu.Lock(); c.now--; c.mu.Unlock() }()
		}
		proxy.ServeHTTP(w, r)
	})
}

// BenchmarkFleetScanCommand runs the whole command a user runs,
// `twice scan --project default --since 24h -o json`, with its default
// concurrency, against the Catalyst stand-in serving 1,000 runs with 30 ms
// of latency on every request: listing, paging, the bounded worker pool,
// decoding, detect and the JSON summary. It reports seconds per scan and the
// most history reads the server saw at once, and fails when that exceeds
// the default concurrency (the target: under 6 s, never more than 8 reads).
//
//	go test -run '^$' -bench FleetScanCommand -benchtime 1x ./cmd/twice/internal/cli
func BenchmarkFleetScanCommand(b *testing.B) {
	const runs, latency = 1000, 30 * time.Millisecond
	var base catalysttest.Run
	for _, r := range catalysttest.Bundled() {
		if r.ID == "charge-7731" {
			base = r
		}
	}
	if base.ID == "" {
		b.Fatal("the stand-in has no run charge-7731")
	}
	fleet := make([]catalysttest.Run, runs)
	for i := range fleet {
		fleet[i] = base.WithID(fmt.Sprintf("charge-%04d", i))
	}
	srv := catalysttest.New(catalysttest.Options{Runs: fleet, Latency: latency})
	defer srv.Close()
	target, err := url.Parse(srv.URL)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		counter := &inFlightCounter{}
		front := httptest.NewServer(counter.handler(&url.URL{Scheme: target.Scheme, Host: target.Host}))
		env := Env{
			LookupEnv: func(k string) (string, bool) {
				v, ok := map[string]string{"CATALYST_TOKEN": catalysttest.TestToken, "CATALYST_MCP_URL": front.URL + target.Path,
					"HOME": b.TempDir(), "XDG_CONFIG_HOME": b.TempDir()}[k]
				return v, ok
			},
			Now: time.Now, Version: "bench", WorkDir: b.TempDir(),
		}
		streams, out, errOut := TestStreams("", false)
		start := time.Now()
		code := Execute(context.Background(), NewFactory(streams, env), []string{"scan", "--project", "default", "--since", "8760h", "-o", "json"})
		elapsed := time.Since(start)
		front.Close()
		if code != ExitOK {
			b.Fatalf("exit %d: %s", code, errOut)
		}
		var doc struct {
			Summary struct {
				RunsScanned int `json:"runs_scanned"`
			} `json:"summary"`
		}
		if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
			b.Fatalf("%v: %.300s", err, out)
		}
		if doc.Summary.RunsScanned != runs || counter.gets != runs {
			b.Fatalf("scanned %d runs with %d reads, want %d", doc.Summary.RunsScanned, counter.gets, runs)
		}
		if counter.max > DefaultConcurrency {
			b.Fatalf("%d history reads at once, over the default concurrency %d", counter.max, DefaultConcurrency)
		}
		b.ReportMetric(elapsed.Seconds(), "s/scan")
		b.ReportMetric(float64(counter.max), "max-reads-at-once")
	}
}
