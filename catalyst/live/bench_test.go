package live

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/catalysttest"
)

// fleetBudget is the longest a fleet scan of 1,000 runs may take at 30 ms a
// request and concurrency 8 (the floor is 1000×30ms/8 = 3.75 s).
const fleetBudget = 6 * time.Second

// BenchmarkFleetScan reads 1,000 run histories through one client, 8 at a
// time, from a server answering each request after 30 ms; it fails when a
// scan takes longer than fleetBudget.
//
//	go test -run '^$' -bench FleetScan -benchtime 1x ./catalyst/live/
func BenchmarkFleetScan(b *testing.B) {
	const runs, concurrency, latency = 1000, 8, 30 * time.Millisecond
	var base catalysttest.Run
	for _, r := range catalysttest.Bundled() {
		if r.ID == chargeRef.ID {
			base = r
		}
	}
	fleet := make([]catalysttest.Run, runs)
	for i := range fleet {
		fleet[i] = base.WithID(fmt.Sprintf("charge-%04d", i))
	}
	srv := catalysttest.New(catalysttest.Options{Runs: fleet, Latency: latency})
	defer srv.Close()
	c, err := New(Config{Endpoint: srv.URL, Token: EnvTokenSource(EnvToken, env(testSecret))})
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	if _, err := c.History(context.Background(), catalyst.RunRef{ID: fleet[0].ID, AppID: base.AppID, Project: "default"}); err != nil {
		b.Fatal(err) // opens the session outside the timing
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		jobs := make(chan string)
		errs := make(chan error, runs)
		var wg sync.WaitGroup
		for w := 0; w < concurrency; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for id := range jobs {
					h, err := c.History(context.Background(), catalyst.RunRef{ID: id, AppID: base.AppID, Project: "default"})
					if err == nil && h.Len() != 15 {
						err = fmt.Errorf("%s: %d events", id, h.Len())
					}
					if err != nil {
						errs <- err
					}
				}
			}()
		}
		for _, r := range fleet {
			jobs <- r.ID
		}
		close(jobs)
		wg.Wait()
		close(errs)
		for err := range errs {
			b.Fatal(err)
		}
		elapsed := time.Since(start)
		b.ReportMetric(elapsed.Seconds(), "s/scan")
		if elapsed > fleetBudget {
			b.Fatalf("fleet scan took %v, budget %v", elapsed, fleetBudget)
		}
	}
}

// BenchmarkFetch measures one history read over loopback without latency:
// the client's own overhead per run (MCP framing, SSE, decode, level).
func BenchmarkFetch(b *testing.B) {
	srv := catalysttest.New(catalysttest.Options{})
	defer srv.Close()
	c, err := New(Config{Endpoint: srv.URL, Token: EnvTokenSource(EnvToken, env(testSecret))})
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := c.Fetch(context.Background(), chargeRef); err != nil {
			b.Fatal(err)
		}
	}
}

// largeRun builds a run whose history holds n events (pairs of a scheduled
// activity and its completion).
func largeRun(n int) catalysttest.Run {
	var b strings.Builder
	b.WriteString(`{"instanceID":"big-1","appId":"payments","projectId":"default","workflowName":"Big","runtimeStatus":"COMPLETED",` +
		`"createdAt":"2026-11-30T09:00:00Z","lastUpdatedAt":"2026-11-30T10:00:00Z","history":[`)
	for i := 0; i < n/2; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"event_id":%d,"event_type":"TaskScheduled","timestamp":"2026-11-30T09:00:00.%06dZ","name":"ChargeCard","task_execution_id":"exec-%d","input":"{\"n\":%d}"},`, i, i%1000000, i, i)
		fmt.Fprintf(&b, `{"event_id":-1,"event_type":"TaskCompleted","timestamp":"2026-11-30T09:00:00.%06dZ","task_scheduled_id":%d,"task_execution_id":"exec-%d","result":"{\"ok\":true}"}`, i%1000000, i, i)
	}
	b.WriteString(`]}`)
	r, err := catalysttest.RunFromDoc([]byte(b.String()))
	if err != nil {
		panic(err)
	}
	return r
}

// BenchmarkFetchLarge (reliability A15) reads a 100,000-event history
// (about 19 MB) through the client and catalyst.Decode.
//
//	go test -run '^$' -bench FetchLarge -benchmem ./catalyst/live/
func BenchmarkFetchLarge(b *testing.B) {
	const events = 100_000
	run := largeRun(events)
	srv := catalysttest.New(catalysttest.Options{Runs: []catalysttest.Run{run}, Level: catalyst.LevelFull})
	defer srv.Close()
	c, err := New(Config{Endpoint: srv.URL, Token: EnvTokenSource(EnvToken, env(testSecret)), Level: catalyst.LevelFull})
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	b.SetBytes(int64(len(run.Doc)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		f, err := c.Fetch(context.Background(), catalyst.RunRef{ID: run.ID, AppID: run.AppID, Project: "default"})
		if err != nil {
			b.Fatal(err)
		}
		if f.History.Len() != events {
			b.Fatalf("%d events", f.History.Len())
		}
	}
}
