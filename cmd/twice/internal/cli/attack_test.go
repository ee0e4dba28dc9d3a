package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/twice-cli/twice/catalyst/catalysttest"
	"github.com/twice-cli/twice/catalyst/live"
)

// The attacks of issue 15 that are not about the token in output (those
// are TestTokenNeverLeaksFromCommands), reproduced at the command line.

// TestPlainHTTPEndpointIsAUsageError: an endpoint twice refuses (plain
// http to another host, a URL with credentials, not a URL) is a mistake in
// how twice was called: exit 2, as the exit-code table says, with nothing
// sent.
func TestPlainHTTPEndpointIsAUsageError(t *testing.T) {
	for _, endpoint := range []string{"http://example.com", "https://user:pw@example.com/mcp", "not a url"} {
		for _, args := range [][]string{
			{"runs", "--project", "default"},
			{"show", "charge-7731", "--app", "payments", "-o", "json"},
			{"scan", "--project", "default"},
			{"record", "charge-7731", "--app", "payments", "-o", filepath.Join(t.TempDir(), "r.json")},
			{"doctor"},
		} {
			args = append(args, "--endpoint", endpoint)
			streams, _, errOut := TestStreams("", false)
			env := testEnv(t, map[string]string{"CATALYST_TOKEN": catalysttest.TestToken})
			if code := Execute(t.Context(), NewFactory(streams, env), args); code != ExitUsage {
				t.Errorf("twice %s: exit %d, want 2 (%s)", strings.Join(args, " "), code, errOut)
			}
			if strings.Contains(errOut.String(), "pw@") {
				t.Errorf("twice %s printed the URL's credentials: %s", args[0], errOut)
			}
		}
	}
}

// TestConcurrentRecordsToOneNewPath: ten records to one new path at once,
// without --force: exactly one saves, the nine others say the file exists
// (before, all ten printed "Saved" and nine were lost). Run it with -race.
func TestConcurrentRecordsToOneNewPath(t *testing.T) {
	srv := catalysttest.New(catalysttest.Options{})
	defer srv.Close()
	path := filepath.Join(t.TempDir(), "run.json")
	results := make([]result, 10)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			results[i] = liveRun(t, srv, nil, io.Discard, "record", "charge-7731", "--app", "payments", "--project", "default", "-o", path)
		}()
	}
	close(start)
	wg.Wait()
	saved := 0
	for _, r := range results {
		switch {
		case r.code == ExitOK && strings.Contains(r.out, "Saved run charge-7731"):
			saved++
		case r.code == ExitError && strings.Contains(r.errOut, "exists: choose another file, or give --force"):
		default:
			t.Errorf("exit %d, out %q, err %q", r.code, r.out, r.errOut)
		}
	}
	if saved != 1 {
		t.Errorf("%d records saved, want exactly 1", saved)
	}
	if r := liveRun(t, srv, nil, io.Discard, "show", path, "-o", "json"); r.code != ExitOK {
		t.Errorf("the saved file does not open: %s", r.errOut)
	}
}

// TestForceReplacesOnlyARegularFile: --force onto a FIFO or a device is
// refused before anything is read, and the FIFO stays a FIFO.
func TestForceReplacesOnlyARegularFile(t *testing.T) {
	srv := catalysttest.New(catalysttest.Options{})
	defer srv.Close()
	fifo := filepath.Join(t.TempDir(), "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	targets := map[string]string{fifo: "a named pipe (FIFO)"}
	// A character device of the test's own (never /dev/null: a regression
	// run as root would replace it); made where the test may make one.
	dev := filepath.Join(filepath.Dir(fifo), "null")
	if syscall.Mknod(dev, syscall.S_IFCHR|0o600, 1<<8|3) == nil {
		targets[dev] = "a character device"
	}
	for path, what := range targets {
		before := srv.Count("http")
		r := liveRun(t, srv, nil, io.Discard, "record", "charge-7731", "--app", "payments", "-o", path, "--force")
		if r.code != ExitError || !strings.Contains(r.errOut, "is "+what+", not a regular file") {
			t.Errorf("--force onto %s: exit %d, %q", path, r.code, r.errOut)
		}
		if srv.Count("http") != before {
			t.Errorf("--force onto %s read the run first", path)
		}
	}
	if info, err := os.Lstat(fifo); err != nil || info.Mode()&os.ModeNamedPipe == 0 {
		t.Error("the FIFO was replaced")
	}
}

// TestRunsAreListedOnceAndDroppedRowsArePartial: a server whose pages
// overlap, and one that ignores the page size, at the command line: each
// run once, and "partial": true with the reason whenever rows were left
// out.
func TestRunsAreListedOnceAndDroppedRowsArePartial(t *testing.T) {
	type listDoc struct {
		Runs []struct {
			ID    string `json:"id"`
			AppID string `json:"app_id"`
		} `json:"runs"`
		Partial bool   `json:"partial"`
		Reason  string `json:"reason"`
	}
	run := func(srv *catalysttest.Server) listDoc {
		t.Helper()
		// A page of 1,200 runs takes a while under the race detector.
		r := liveRunWith(t, srv, nil, io.Discard, func(c *live.Config) { c.RequestTimeout = 30 * time.Second },
			"runs", "--project", "default", "-o", "json")
		var doc listDoc
		if err := json.Unmarshal([]byte(r.out), &doc); err != nil {
			t.Fatalf("runs -o json: %v\n%s\n%s", err, r.out, r.errOut)
		}
		return doc
	}

	cycle := catalysttest.New(catalysttest.Options{Paging: catalysttest.PagingCycle, PageSize: 2, IgnorePageSize: true})
	defer cycle.Close()
	doc := run(cycle)
	seen := map[string]bool{}
	for _, r := range doc.Runs {
		if seen[r.AppID+"/"+r.ID] {
			t.Errorf("run %s listed twice", r.ID)
		}
		seen[r.AppID+"/"+r.ID] = true
	}
	if !doc.Partial || !strings.Contains(doc.Reason, "on more than one page (each is listed once)") {
		t.Errorf("overlapping pages: partial %v, reason %q", doc.Partial, doc.Reason)
	}

	base := catalysttest.Bundled()[0]
	var runs []catalysttest.Run
	for i := range 1200 {
		runs = append(runs, base.WithID(fmt.Sprintf("r-%04d", i)))
	}
	big := catalysttest.New(catalysttest.Options{Runs: runs, IgnorePageSize: true, PageSize: 5000})
	defer big.Close()
	doc = run(big)
	if len(doc.Runs) != 1000 || !doc.Partial || !strings.Contains(doc.Reason, "200 more runs than the limit of 1000") {
		t.Errorf("an oversized page: %d runs, partial %v, reason %q", len(doc.Runs), doc.Partial, doc.Reason)
	}
}
