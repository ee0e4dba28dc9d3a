package live

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/catalysttest"
	"github.com/twice-cli/twice/catalyst/safetext/hostiletest"
)

// TestEveryFaultKindKeepsTheTokenAndTerminalSafe injects every kind of
// fault the stand-in can produce, each body echoing the token and carrying
// the hostile corpus, on the list, the history and the session, with the
// debug log on: no error (printed every way fmt can), no returned value and
// no debug line holds the token or a raw control, bidi or invalid
// character. (The tool-text case is a regression: an unreadable tool
// result quoted its text, token included.)
func TestEveryFaultKindKeepsTheTokenAndTerminalSafe(t *testing.T) {
	body := "token " + testSecret + " rejected " + hostiletest.Joined()
	kinds := map[string]catalysttest.Fault{
		"200 garbage":    {Kind: catalysttest.FaultStatus, Status: 200, Body: body},
		"401":            {Kind: catalysttest.FaultStatus, Status: 401, Body: body},
		"403":            {Kind: catalysttest.FaultStatus, Status: 403, Body: body},
		"500":            {Kind: catalysttest.FaultStatus, Status: 500, Body: body},
		"redirect":       {Kind: catalysttest.FaultRedirect, Location: "http://localhost:1/" + testSecret},
		"delay":          {Kind: catalysttest.FaultDelay, Delay: time.Minute},
		"slow body":      {Kind: catalysttest.FaultSlowBody, Delay: 20 * time.Millisecond, Body: body},
		"truncate":       {Kind: catalysttest.FaultTruncate, Body: body},
		"hang-up":        {Kind: catalysttest.FaultHangup},
		"oversized":      {Kind: catalysttest.FaultOversized},
		"JSON-RPC error": {Kind: catalysttest.FaultRPCError, Code: -32000, Body: body},
		"tool error":     {Kind: catalysttest.FaultToolError, Body: body},
		"tool text":      {Kind: catalysttest.FaultToolText, Body: body},
		"refusal":        catalysttest.Refusal("", 0, "DENIED", body, false),
	}
	for name, fault := range kinds {
		for _, on := range []string{"initialize", "tools/call"} {
			toolOnly := fault.Kind == catalysttest.FaultToolError || fault.Kind == catalysttest.FaultToolText || name == "refusal"
			if toolOnly && on != "tools/call" {
				continue
			}
			t.Run(strings.ReplaceAll(name+" on "+on, " ", "_"), func(t *testing.T) {
				h := newHarness(t, catalysttest.Options{}, func(c *Config) {
					faultConfig(c)
					c.RequestTimeout = 100 * time.Millisecond
					c.MaxBodyBytes = 32 << 10
				})
				f := fault
				f.On = on
				h.srv.Inject(f)
				var out strings.Builder
				list, err := h.client.ListRuns(context.Background(), catalyst.RunQuery{Project: "default"})
				fmt.Fprintf(&out, "%v\n%+v\n%#v\n%+v\n", err, err, err, list)
				got, err := h.client.Fetch(context.Background(), chargeRef)
				fmt.Fprintf(&out, "%v\n%+v\n%#v\n", err, err, err)
				if got != nil {
					fmt.Fprintf(&out, "%+v\n", got.History.Run)
				}
				_, err = h.client.History(context.Background(), chargeRef)
				fmt.Fprintf(&out, "%v\n", err)
				rep := h.client.Doctor(context.Background())
				fmt.Fprintf(&out, "%+v\n%s\n", rep, strings.Join(rep.Lines(), "\n"))
				all := out.String() + h.debug.String()
				if strings.Contains(all, testSecret) {
					t.Errorf("the token leaked:\n%s", all)
				}
				if v, bad := hostiletest.FindUnsafe(all, false); bad {
					t.Errorf("raw %U at %d: %.200q", v.Rune, v.Offset, all[max(0, v.Offset-60):])
				}
			})
		}
	}
}
