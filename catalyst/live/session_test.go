package live

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/catalysttest"
)

// TestServerVariants: SSE or JSON answers, with or without sessions, text or
// structured results, prefixed tool names and other argument names all
// give the same runs and histories, and Fetch keeps the exact bytes.
func TestServerVariants(t *testing.T) {
	want, err := catalysttest.BundledDoc("payment-retried-after-timeout.json")
	if err != nil {
		t.Fatal(err)
	}
	metadataDoc, err := catalysttest.ApplyLevel(want, catalyst.LevelMetadata)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name        string
		opts        catalysttest.Options
		wantSession bool
	}{
		{name: "event stream with a session", opts: catalysttest.Options{}, wantSession: true},
		{name: "JSON answers", opts: catalysttest.Options{JSONResponse: true}, wantSession: true},
		{name: "stateless", opts: catalysttest.Options{Stateless: true}},
		{name: "structured content", opts: catalysttest.Options{Structured: true}, wantSession: true},
		{name: "prefixed tools and other argument names", wantSession: true, opts: catalysttest.Options{
			ToolPrefix: "mcp__plugin_catalyst-ai_catalyst__",
			ArgNames: map[string]string{"projectId": "ProjectId", "appId": "app_id", "instanceId": "runId",
				"pageToken": "cursor", "pageSize": "limit", "status": "runtimeStatus", "startTimeFrom": "startAfter"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, tc.opts, func(c *Config) { c.PageSize = 1 })
			list, err := h.client.ListRuns(context.Background(), catalyst.RunQuery{Project: "default", AppID: "payments"})
			if err != nil {
				t.Fatal(err)
			}
			if got := ids(list.Runs); got != "refund-88 charge-7731" || list.Partial {
				t.Errorf("runs = %s (partial %v), want refund-88 charge-7731 over two pages", got, list.Partial)
			}
			if n := h.srv.Count(catalysttest.ToolListRuns); n != 2 {
				t.Errorf("list calls = %d, want 2 pages", n)
			}
			f, err := h.client.Fetch(context.Background(), chargeRef)
			if err != nil {
				t.Fatal(err)
			}
			if f.History.Len() != 15 || f.History.Run.ID != "charge-7731" {
				t.Errorf("history: %d events of run %q", f.History.Len(), f.History.Run.ID)
			}
			if tc.opts.Structured {
				if !bytes.Equal(bytes.TrimSpace(f.Raw), metadataDoc) {
					t.Errorf("Raw differs from the structured content sent")
				}
			} else if !bytes.Equal(f.Raw, metadataDoc) {
				t.Errorf("Raw is not the exact document sent:\n%s\nwant\n%s", f.Raw, metadataDoc)
			}
			if !strings.HasSuffix(f.Tool, catalysttest.ToolGetRun) {
				t.Errorf("Tool = %q", f.Tool)
			}
			if n := h.srv.Count("initialize"); n != 1 {
				t.Errorf("initialize sent %d times, want once per session", n)
			}
			if n := h.srv.Count("tools/list"); n != 1 {
				t.Errorf("tools/list sent %d times, want once per session", n)
			}
			sawSession := false
			for _, s := range h.srv.Seen() {
				sawSession = sawSession || s.SessionID != ""
			}
			if sawSession != tc.wantSession {
				t.Errorf("requests carried a session id: %v, want %v", sawSession, tc.wantSession)
			}
		})
	}
}

func ids(runs []catalyst.Run) string {
	var s []string
	for _, r := range runs {
		s = append(s, r.ID)
	}
	return strings.Join(s, " ")
}

// TestSessionExpired: a 404 to a request carrying the session id opens a new
// session once and repeats the call.
func TestSessionExpired(t *testing.T) {
	h := newHarness(t, catalysttest.Options{}, faultConfig)
	if _, err := h.client.History(context.Background(), chargeRef); err != nil {
		t.Fatal(err)
	}
	h.srv.Inject(catalysttest.Fault{On: catalysttest.ToolGetRun, Times: 1, Kind: catalysttest.FaultStatus, Status: 404, Body: "session not found"})
	if _, err := h.client.History(context.Background(), chargeRef); err != nil {
		t.Fatalf("after the session expired: %v", err)
	}
	if n := h.srv.Count("initialize"); n != 2 {
		t.Errorf("initialize sent %d times, want 2", n)
	}
	h.srv.Inject(catalysttest.Fault{On: catalysttest.ToolGetRun, Kind: catalysttest.FaultStatus, Status: 404, Body: "session not found"})
	_, err := h.client.History(context.Background(), chargeRef)
	if err == nil || !strings.Contains(err.Error(), "keeps answering 404") {
		t.Errorf("err = %v", err)
	}
}

// TestNotFound (A3): an unknown run is a NOT_FOUND refusal echoing the
// sanitized run id; an endpoint without a server is named as such.
func TestNotFound(t *testing.T) {
	h := newHarness(t, catalysttest.Options{}, faultConfig)
	_, err := h.client.History(context.Background(), catalyst.RunRef{ID: "nope\x1b[2J", AppID: "payments", Project: "default"})
	if err == nil || !strings.Contains(err.Error(), KindNotFound) || !strings.Contains(err.Error(), `nope\x1b[2J`) || strings.Contains(err.Error(), "\x1b") {
		t.Errorf("err = %q", err)
	}
	if n := h.srv.Count(catalysttest.ToolGetRun); n != 1 {
		t.Errorf("calls = %d", n)
	}
	h2 := newHarness(t, catalysttest.Options{}, func(c *Config) { faultConfig(c) })
	h2.srv.Inject(catalysttest.StatusFault("initialize", 0, 404))
	_, err = h2.client.History(context.Background(), chargeRef)
	if err == nil || !strings.Contains(err.Error(), "has no MCP server") || h2.srv.Count("initialize") != 1 {
		t.Errorf("err = %v after %d attempts", err, h2.srv.Count("initialize"))
	}
}

// TestConcurrentUse: many goroutines share one client and one session.
func TestConcurrentUse(t *testing.T) {
	h := newHarness(t, catalysttest.Options{}, nil)
	var wg sync.WaitGroup
	errs := make(chan error, 32)
	for i := 0; i < 16; i++ {
		wg.Add(2)
		go func() {
			defer wg.Done()
			if _, err := h.client.History(context.Background(), chargeRef); err != nil {
				errs <- err
			}
		}()
		go func() {
			defer wg.Done()
			if l, err := h.client.ListRuns(context.Background(), catalyst.RunQuery{Project: "default"}); err != nil || len(l.Runs) != 4 {
				errs <- fmt.Errorf("list: %d runs, %v", len(l.Runs), err)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n := h.srv.Count("initialize"); n != 1 {
		t.Errorf("initialize sent %d times, want 1", n)
	}
}

// TestListFilters: the query's filters reach the tool and narrow the list;
// rows come back newest first with their fields.
func TestListFilters(t *testing.T) {
	h := newHarness(t, catalysttest.Options{}, nil)
	list, err := h.client.ListRuns(context.Background(), catalyst.RunQuery{Project: "default", Status: "FAILED"})
	if err != nil {
		t.Fatal(err)
	}
	if ids(list.Runs) != "refund-88" {
		t.Fatalf("failed runs = %s", ids(list.Runs))
	}
	r := list.Runs[0]
	if r.AppID != "payments" || r.Workflow != "RefundOrder" || !r.Status.Is(catalyst.StatusFailed) ||
		r.CreatedAt.Format("15:04:05.000") != "10:21:45.500" || r.Project.Name != "default" ||
		r.Input.State != catalyst.PayloadNotRequested || r.Provenance.Surface != catalyst.SurfaceCatalystMCP ||
		r.Provenance.Endpoint != h.client.Endpoint() {
		t.Errorf("run = %+v", r)
	}
	seen := h.srv.Seen()
	if args := seen[len(seen)-1].Arguments; !strings.Contains(args, `"status":"failed"`) {
		t.Errorf("status not sent as the schema's enum spells it: %s", args)
	}
	list, err = h.client.ListRuns(context.Background(), catalyst.RunQuery{Project: "default", Workflow: "ProcessOrder",
		Since: mustTime("2026-11-30T09:00:00Z"), Until: mustTime("2026-11-30T09:30:00Z")})
	if err != nil || ids(list.Runs) != "charge-7731" {
		t.Errorf("windowed list = %s, %v", ids(list.Runs), err)
	}
	list, err = h.client.ListRuns(context.Background(), catalyst.RunQuery{Project: "default", Limit: 3})
	if err != nil || ids(list.Runs) != "refund-88 charge-7731 order-1001" || list.Partial {
		t.Errorf("limited list = %s (partial %v), %v", ids(list.Runs), list.Partial, err)
	}
}
