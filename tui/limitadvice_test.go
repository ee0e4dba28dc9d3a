package tui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/catalysttest"
	"github.com/twice-cli/twice/catalyst/live"
)

// TestRunListNeverAdvisesAFlagItDoesNotTake (issue 26, item 12): a server
// that sends more runs than the list asked for left the view saying
// "raise --limit or narrow the query", a flag the view does not take. It
// now names the command that does.
func TestRunListNeverAdvisesAFlagItDoesNotTake(t *testing.T) {
	base := catalysttest.Bundled()[0]
	var runs []catalysttest.Run
	for i := range 8 {
		r := base.WithID(fmt.Sprintf("run-%d", i))
		r.CreatedAt = base.CreatedAt.Add(time.Duration(i) * time.Second)
		runs = append(runs, r)
	}
	srv := catalysttest.New(catalysttest.Options{Runs: runs, IgnorePageSize: true})
	defer srv.Close()
	env := func(name string) (string, bool) { return catalysttest.TestToken, name == live.EnvToken }
	c, err := live.New(live.Config{Endpoint: srv.URL, Token: live.EnvTokenSource(live.EnvToken, env)})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	m := start(t, Options{Source: c, Query: catalyst.RunQuery{Project: "default", Limit: 3}}, 200, 40)
	out := plain(m)
	if !strings.Contains(out, "partial") {
		t.Fatalf("the list does not say it is partial:\n%s", out)
	}
	if strings.Contains(out, "raise --limit") || strings.Contains(strings.ReplaceAll(out, "twice runs --limit", ""), "--limit") {
		t.Errorf("the view advises --limit, which it does not take:\n%s", out)
	}
}
