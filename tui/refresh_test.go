package tui

import (
	"fmt"
	"testing"
	"time"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/catalysttest"
	"github.com/twice-cli/twice/catalyst/live"
	"github.com/twice-cli/twice/tui/internal/tuitest"
	"github.com/twice-cli/twice/tui/runlist"
)

// TestRefreshReadsOnlyChangedOrShownRuns (issue 26, item 11): --refresh 1s
// with 200 running runs re-read every running run's history on every tick
// (9,400 reads a minute against Catalyst). Against an httptest server (the
// MCP stand-in) counting its requests: a minute of 1 s ticks reads the
// histories of the rows on screen, each at most once every refreshFloor,
// and not the others, whose rows did not change.
func TestRefreshReadsOnlyChangedOrShownRuns(t *testing.T) {
	const n = 200
	var base catalysttest.Run
	for _, r := range catalysttest.Bundled() {
		if r.ID == "charge-7731" {
			base = r
		}
	}
	fleet := make([]catalysttest.Run, n)
	for i := range fleet {
		r := base.WithID(fmt.Sprintf("run-%03d", i))
		r.Status = "RUNNING"
		r.CreatedAt = base.CreatedAt.Add(time.Duration(i) * time.Second)
		r.UpdatedAt = r.CreatedAt.Add(time.Minute)
		fleet[i] = r
	}
	srv := catalysttest.New(catalysttest.Options{Runs: fleet, Level: "full"})
	defer srv.Close()
	env := func(name string) (string, bool) {
		if name == live.EnvToken {
			return catalysttest.TestToken, true
		}
		return "", false
	}
	c, err := live.New(live.Config{Endpoint: srv.URL, Token: live.EnvTokenSource(live.EnvToken, env)})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()

	now := tuitest.Now()
	clock := func() time.Time { return now }
	m := start(t, Options{Source: c, Query: catalyst.RunQuery{Project: "default"}, RefreshEvery: time.Millisecond, Now: clock}, 120, 40)
	first := srv.Count(catalysttest.ToolGetRun)
	if first != n {
		t.Fatalf("the first list read %d histories, want %d", first, n)
	}
	shown := len(m.list.OnScreen())
	if shown == 0 || shown >= n {
		t.Fatalf("%d rows on screen", shown)
	}
	for range 60 {
		now = now.Add(time.Second)
		m = send(t, m, refreshTickMsg{seq: m.refreshSeq})
		shown = max(shown, len(m.list.OnScreen())) // the rows gain room once analyzed
	}
	reads := srv.Count(catalysttest.ToolGetRun) - first
	// Each run on screen at most once per floor: 60 s / 5 s.
	if most := shown * int(time.Minute/refreshFloor); reads > most || reads == 0 {
		t.Errorf("a minute of 1 s refreshes read %d histories (%d rows on screen); want 1 to %d", reads, shown, most)
	}
	t.Logf("a minute of 1 s refreshes: %d list reads, %d history reads (%d rows on screen of %d)", srv.Count(catalysttest.ToolListRuns), reads, shown, n)
}

// TestRefreshReadsAChangedRowAfterTheFloor: a running run off screen whose
// row changed is read again at the first tick after refreshFloor has
// passed since its last read, not before; one whose row did not change is
// not read.
func TestRefreshReadsAChangedRowAfterTheFloor(t *testing.T) {
	src := tuitest.NewSource()
	for i := range 100 {
		h := tuitest.ChargeRunning(0)
		h.Run.ID = fmt.Sprintf("run-%03d", i)
		h.Run.CreatedAt = h.Run.CreatedAt.Add(time.Duration(i) * time.Second)
		src.Add(h)
	}
	now := tuitest.Now()
	clock := func() time.Time { return now }
	m := start(t, Options{Source: src, RefreshEvery: time.Millisecond, Now: clock}, 120, 40)
	// Two runs far from the screen: the last of those not on it.
	on := m.list.OnScreen()
	var notOn []string
	for _, r := range src.Runs.Runs {
		if !on[runlist.Key(r)] {
			notOn = append(notOn, r.ID)
		}
	}
	var off, still string
	if len(notOn) >= 2 {
		off, still = notOn[len(notOn)-1], notOn[len(notOn)-2]
	}
	if off == "" || still == "" || src.Calls(off) != 1 {
		t.Fatalf("off screen: %q, %q; read %d times", off, still, src.Calls(off))
	}
	for i := range src.Runs.Runs {
		if src.Runs.Runs[i].ID == off {
			src.Runs.Runs[i].UpdatedAt = now.Add(time.Second)
		}
	}
	for s := 1; s <= 6; s++ {
		now = now.Add(time.Second)
		m = send(t, m, refreshTickMsg{seq: m.refreshSeq})
		want := 1
		if s >= 5 {
			want = 2
		}
		if got := src.Calls(off); got != want {
			t.Errorf("%d s after its read, the changed row was read %d times, want %d", s, got, want)
		}
	}
	if got := src.Calls(still); got != 1 {
		t.Errorf("an unchanged row off screen was read %d times, want 1", got)
	}
}
