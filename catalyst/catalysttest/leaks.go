package catalysttest

import "time"

// LeakScenario is one way a server can answer, for tests that check a
// token never reaches any output.
type LeakScenario struct {
	// Name says what the server does, for the subtest's name.
	Name string
	// Faults are the faults the server is started with (none: success).
	Faults []Fault
	// Options start the server (the zero value: the default server).
	Options Options
}

// TokenLeakScenarios lists the answers that most tempt a client to print
// its token: successes, every status and refusal, malformed, cut-off and
// oversized answers, hang-ups, timeouts and redirects, several of them
// echoing token back in their bodies along with a terminal escape.
func TokenLeakScenarios(token string) []LeakScenario {
	echo := "your token " + token + " was rejected \x1b]0;pwned\x07"
	call := func(f Fault) []Fault { f.On = "tools/call"; return []Fault{f} }
	return []LeakScenario{
		{Name: "success"},
		{Name: "401 echoing the token", Faults: []Fault{{Kind: FaultStatus, Status: 401, Body: echo}}},
		{Name: "403 echoing the token", Faults: call(Fault{Kind: FaultStatus, Status: 403, Body: echo})},
		{Name: "500 echoing the token", Faults: call(Fault{Kind: FaultStatus, Status: 500, Body: echo})},
		{Name: "503 with Retry-After, then success", Faults: []Fault{StatusFault("tools/call", 1, 503, "Retry-After", "1")}},
		{Name: "refusal echoing the token", Faults: []Fault{Refusal("tools/call", 0, "ORG_MISMATCH",
			"the organization supplied ("+token+") does not match the credential's organization (b)", false)}},
		{Name: "tool error echoing the token", Faults: call(Fault{Kind: FaultToolError, Body: echo})},
		{Name: "JSON-RPC error echoing the token", Faults: call(Fault{Kind: FaultRPCError, Code: -1, Body: echo})},
		{Name: "malformed answer echoing the token", Faults: call(Fault{Kind: FaultStatus, Status: 200, Body: "{" + echo})},
		{Name: "tool text echoing the token", Faults: call(Fault{Kind: FaultToolText, Body: echo})},
		{Name: "truncated", Faults: call(Fault{Kind: FaultTruncate, Body: `{"jsonrpc":"2.0","id":3,"result":{"content":[`})},
		{Name: "hang-up", Faults: call(Fault{Kind: FaultHangup})},
		{Name: "timeout", Faults: call(Fault{Kind: FaultDelay, Delay: time.Minute})},
		{Name: "redirect carrying the token", Faults: call(Fault{Kind: FaultRedirect, Location: "http://localhost:1/x?token=" + token})},
		{Name: "rate limited for an hour", Faults: []Fault{StatusFault("tools/call", 0, 429, "Retry-After", "3600")}},
		{Name: "oversized", Faults: call(Fault{Kind: FaultOversized, Size: 80 << 20})},
	}
}
