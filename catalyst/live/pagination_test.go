package live

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/catalysttest"
)

// TestPaginationFaults (A18): repeated and cyclic tokens and endless empty
// pages stop, within the page cap, with the list marked partial.
func TestPaginationFaults(t *testing.T) {
	tests := []struct {
		name       string
		paging     catalysttest.Paging
		wantCalls  int
		wantRuns   int
		maxPages   int
		wantReason string
		// notReason must not be in the reason.
		notReason string
	}{
		{name: "normal pages end", paging: catalysttest.PagingNormal, wantCalls: 4, wantRuns: 4},
		{name: "a repeated token", paging: catalysttest.PagingRepeat, wantCalls: 2, wantRuns: 2, wantReason: "repeated a page token after 2 pages"},
		// Pages 2 and 3 hold the same run: it is listed once.
		{name: "a cycle A→B→A", paging: catalysttest.PagingCycle, wantCalls: 3, wantRuns: 2, wantReason: "repeated a page token after 3 pages"},
		{name: "empty pages with a token forever", paging: catalysttest.PagingEmptyForever, wantCalls: 5, wantRuns: 0,
			wantReason: "page cap (5 pages) with no runs on the pages read", notReason: "more runs exist"},
		{name: "the page cap with runs read", paging: catalysttest.PagingNormal, maxPages: 2, wantCalls: 2, wantRuns: 2,
			wantReason: "page cap (2 pages); the server offers more pages"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, catalysttest.Options{Paging: tc.paging}, func(c *Config) {
				c.PageSize = 1
				c.MaxPages = 5
				if tc.maxPages > 0 {
					c.MaxPages = tc.maxPages
				}
			})
			list, err := h.client.ListRuns(context.Background(), catalyst.RunQuery{Project: "default"})
			if err != nil {
				t.Fatal(err)
			}
			if n := h.srv.Count(catalysttest.ToolListRuns); n != tc.wantCalls {
				t.Errorf("pages fetched = %d, want %d", n, tc.wantCalls)
			}
			if len(list.Runs) != tc.wantRuns {
				t.Errorf("runs = %d, want %d", len(list.Runs), tc.wantRuns)
			}
			if list.Partial != (tc.wantReason != "") || !strings.Contains(list.Reason, tc.wantReason) {
				t.Errorf("partial %v reason %q, want %q", list.Partial, list.Reason, tc.wantReason)
			}
			if tc.notReason != "" && strings.Contains(list.Reason, tc.notReason) {
				t.Errorf("reason %q claims %q", list.Reason, tc.notReason)
			}
		})
	}
}

// TestPartialAfterAFailedPage: a later page failing keeps the runs read and
// says why the list is partial; a first page failing is an error.
func TestPartialAfterAFailedPage(t *testing.T) {
	h := newHarness(t, catalysttest.Options{}, func(c *Config) { faultConfig(c); c.PageSize = 2 })
	h.srv.Inject(catalysttest.Fault{On: catalysttest.ToolListRuns, Times: 1, Kind: catalysttest.FaultDelay}) // page 1 passes
	h.srv.Inject(catalysttest.StatusFault(catalysttest.ToolListRuns, 0, 500))
	list, err := h.client.ListRuns(context.Background(), catalyst.RunQuery{Project: "default"})
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Runs) != 2 || !list.Partial || !strings.Contains(list.Reason, "page 2 failed") || !strings.Contains(list.Reason, "HTTP 500") {
		t.Errorf("list = %d runs, partial %v, reason %q", len(list.Runs), list.Partial, list.Reason)
	}
	_, err = h.client.ListRuns(context.Background(), catalyst.RunQuery{Project: "default"})
	var se *StatusError
	if !errors.As(err, &se) {
		t.Errorf("a failing first page gave %v", err)
	}
}

// TestListFiltersTheToolCannotTake: a list tool that declares no
// argument for a filter (the time window, the status, the workflow name) is
// not refused: the filter is left out of the call, applied to the rows, and
// said to be. The same filters sent to a tool that takes them give the
// same runs. A required argument twice has no value for is still an error.
func TestListFiltersTheToolCannotTake(t *testing.T) {
	all := catalysttest.Bundled()
	since := all[len(all)/2].CreatedAt
	queries := map[string]catalyst.RunQuery{
		"startTimeFrom": {Project: "default", Since: since},
		"status":        {Project: "default", Status: catalyst.StatusFailed},
		"workflowName":  {Project: "default", Workflow: all[0].Workflow},
	}
	for omit, q := range queries {
		t.Run(omit, func(t *testing.T) {
			want, err := newHarness(t, catalysttest.Options{}, nil).client.ListRuns(context.Background(), q)
			if err != nil {
				t.Fatal(err)
			}
			h := newHarness(t, catalysttest.Options{OmitListArgs: []string{omit, "startTimeTo"}}, nil)
			got, err := h.client.ListRuns(context.Background(), q)
			if err != nil {
				t.Fatalf("a tool without %s: %v", omit, err)
			}
			if len(want.Runs) == 0 || len(want.Runs) == len(all) {
				t.Fatalf("the filter selects %d of %d runs: the case proves nothing", len(want.Runs), len(all))
			}
			if ids(got.Runs) != ids(want.Runs) {
				t.Errorf("filtered here: %s\nfiltered by the server: %s", ids(got.Runs), ids(want.Runs))
			}
			if len(got.FilteredHere) == 0 || !strings.Contains(strings.Join(got.FilteredHere, " "), "twice listed every run") {
				t.Errorf("FilteredHere = %q, want a note saying twice filtered the rows", got.FilteredHere)
			}
			if len(want.FilteredHere) != 0 {
				t.Errorf("a tool that takes the filter: FilteredHere = %q", want.FilteredHere)
			}
		})
	}
	h := newHarness(t, catalysttest.Options{}, nil)
	_, err := h.client.ListRuns(context.Background(), catalyst.RunQuery{})
	if err == nil || !strings.Contains(err.Error(), "requires projectId, the project (--project)") {
		t.Errorf("err = %v", err)
	}
	if n := h.srv.Count(catalysttest.ToolListRuns); n != 0 {
		t.Errorf("the tool was called %d times without its required argument", n)
	}
}

// fakePager is a server model: page i answers tokens[i] as its next token.
func fakePager(tokens []string, calls *int) func(context.Context, string, int) (runPage, error) {
	return func(_ context.Context, token string, want int) (runPage, error) {
		i := *calls
		*calls++
		if want <= 0 {
			return runPage{}, fmt.Errorf("asked for %d runs", want)
		}
		p := runPage{runs: []catalyst.Run{{ID: fmt.Sprintf("r%d", i)}}}
		if i < len(tokens) {
			p.next = tokens[i]
		}
		return p, nil
	}
}

func TestPaginate(t *testing.T) {
	tests := []struct {
		tokens    []string
		limit     int
		wantCalls int
		partial   bool
	}{
		{tokens: nil, limit: 10, wantCalls: 1},
		{tokens: []string{"a", "b", ""}, limit: 10, wantCalls: 3},
		{tokens: []string{"a", "b", "c"}, limit: 2, wantCalls: 2},
		{tokens: []string{"a", "a"}, limit: 10, wantCalls: 2, partial: true},
		{tokens: []string{"a", "b", "a"}, limit: 10, wantCalls: 3, partial: true},
		{tokens: []string{"1", "2", "3", "4", "5", "6", "7"}, limit: 10, wantCalls: 4, partial: true},
	}
	for _, tc := range tests {
		calls := 0
		list, err := paginate(context.Background(), fakePager(tc.tokens, &calls), tc.limit, 4)
		if err != nil || calls != tc.wantCalls || list.Partial != tc.partial {
			t.Errorf("tokens %q: %d calls, partial %v (%q), %v", tc.tokens, calls, list.Partial, list.Reason, err)
		}
	}
}

// FuzzPagination: whatever token sequence a server replays, pagination ends
// within the page cap, never asks for more than the limit, and a list that
// stopped while the server still offered a new token is marked partial.
func FuzzPagination(f *testing.F) {
	f.Add([]byte("abc"), uint8(10), uint8(5))
	f.Add([]byte("aaaa"), uint8(10), uint8(5))
	f.Add([]byte("abab"), uint8(3), uint8(50))
	f.Add([]byte{}, uint8(1), uint8(1))
	f.Fuzz(func(t *testing.T, seq []byte, limit, maxPages uint8) {
		if limit == 0 || maxPages == 0 {
			return
		}
		tokens := make([]string, 0, len(seq))
		for _, b := range seq {
			if b%17 == 0 {
				tokens = append(tokens, "")
			} else {
				tokens = append(tokens, string(rune('a'+b%7)))
			}
		}
		// Beyond the sequence the model cycles through it forever.
		calls := 0
		pager := func(ctx context.Context, token string, want int) (runPage, error) {
			p, err := fakePager(nil, new(int))(ctx, token, want)
			if len(tokens) > 0 {
				p.next = tokens[calls%len(tokens)]
				if p.next == "" && calls >= len(tokens) {
					p.next = "z"
				}
			}
			calls++
			return p, err
		}
		list, err := paginate(context.Background(), pager, int(limit), int(maxPages))
		if err != nil {
			t.Fatalf("paginate: %v", err)
		}
		if calls > int(maxPages) {
			t.Fatalf("%d pages fetched, cap %d", calls, maxPages)
		}
		if len(list.Runs) > int(limit) {
			t.Fatalf("%d runs, limit %d", len(list.Runs), limit)
		}
		if list.Partial == (list.Reason == "") {
			t.Fatalf("partial %v with reason %q", list.Partial, list.Reason)
		}
	})
}

// TestRunsOnTwoPagesAreListedOnce: a server whose pages overlap (pages 2
// and 3 hold the same runs) lists each run once and says the
// list may be missing runs.
func TestRunsOnTwoPagesAreListedOnce(t *testing.T) {
	h := newHarness(t, catalysttest.Options{Paging: catalysttest.PagingCycle}, func(c *Config) { c.PageSize = 2; c.MaxPages = 5 })
	list, err := h.client.ListRuns(context.Background(), catalyst.RunQuery{Project: "default"})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, r := range list.Runs {
		if seen[r.AppID+"/"+r.ID] {
			t.Errorf("run %s listed twice", r.ID)
		}
		seen[r.AppID+"/"+r.ID] = true
	}
	if !list.Partial || !strings.Contains(list.Reason, "listed 2 runs on more than one page (each is listed once)") {
		t.Errorf("partial %v, reason %q", list.Partial, list.Reason)
	}
}

// TestAnOversizedPageIsPartial: a server that ignores the page size and
// sends 1,200 rows when 100 were asked: twice keeps its limit of 1,000
// and says the list is partial and why.
func TestAnOversizedPageIsPartial(t *testing.T) {
	base := catalysttest.Bundled()[0]
	var runs []catalysttest.Run
	for i := range 1200 {
		runs = append(runs, base.WithID(fmt.Sprintf("r-%04d", i)))
	}
	h := newHarness(t, catalysttest.Options{Runs: runs, IgnorePageSize: true, PageSize: 5000}, nil)
	list, err := h.client.ListRuns(context.Background(), catalyst.RunQuery{Project: "default"})
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Runs) != DefaultListLimit || !list.Partial ||
		!strings.Contains(list.Reason, "the server sent 200 more runs than the limit of 1000, which were left out") {
		t.Errorf("%d runs, partial %v, reason %q", len(list.Runs), list.Partial, list.Reason)
	}
}

// TestARetryIsANewRequest: an attempt that timed out may still be in
// flight at the server, which refuses a second request with its id
// ("duplicate in-flight request ID"): each retry carries an id of its own.
func TestARetryIsANewRequest(t *testing.T) {
	h := newHarness(t, catalysttest.Options{}, func(c *Config) { faultConfig(c); c.RequestTimeout = 100 * time.Millisecond })
	h.srv.Inject(catalysttest.Fault{On: catalysttest.ToolListRuns, Times: 1, Kind: catalysttest.FaultDelay, Delay: time.Second})
	if _, err := h.client.ListRuns(context.Background(), catalyst.RunQuery{Project: "default"}); err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for _, s := range h.srv.Seen() {
		if s.Tool != catalysttest.ToolListRuns {
			continue
		}
		if ids[s.ID] {
			t.Errorf("a retry reused the id %s", s.ID)
		}
		ids[s.ID] = true
	}
	if len(ids) < 2 {
		t.Errorf("%d list requests seen, want the timed-out one and its retry", len(ids))
	}
}
