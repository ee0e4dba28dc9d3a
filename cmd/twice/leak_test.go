package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/twice-cli/twice/catalyst/catalysttest"
	"github.com/twice-cli/twice/catalyst/safetext/hostiletest"
)

// TestBinaryNeverPrintsTheToken runs the real binary — so a panic's output
// would be in what it prints — against the in-process Catalyst stand-in,
// healthy and echoing the token back in its error bodies: no command
// (runs, show, scan, a project scan, record, doctor) prints the token or a
// raw control character on standard output or standard error, or saves
// the token in a file.
func TestBinaryNeverPrintsTheToken(t *testing.T) {
	bin := buildTwice(t)
	echo := "token " + catalysttest.TestToken + " rejected \x1b]0;pwned\x07\u202e"
	for name, faults := range map[string][]catalysttest.Fault{
		"healthy":          nil,
		"500 echo":         {{On: "tools/call", Kind: catalysttest.FaultStatus, Status: 500, Body: echo}},
		"401 echo":         {{Kind: catalysttest.FaultStatus, Status: 401, Body: echo}},
		"tool text echo":   {{On: "tools/call", Kind: catalysttest.FaultToolText, Body: echo}},
		"JSON-RPC echo":    {{On: "tools/call", Kind: catalysttest.FaultRPCError, Code: -32000, Body: echo}},
		"malformed echo":   {{On: "tools/call", Kind: catalysttest.FaultStatus, Status: 200, Body: "{" + echo}},
		"rate limited 1 h": {catalysttest.StatusFault("tools/call", 0, 429, "Retry-After", "3600")},
	} {
		t.Run(strings.ReplaceAll(name, " ", "_"), func(t *testing.T) {
			srv := catalysttest.New(catalysttest.Options{})
			defer srv.Close()
			srv.Inject(faults...)
			dir := t.TempDir()
			env := []string{"HOME=" + dir, "XDG_CONFIG_HOME=" + dir, "PATH=" + os.Getenv("PATH"),
				"CATALYST_TOKEN=" + catalysttest.TestToken, "CATALYST_MCP_URL=" + srv.URL}
			for _, args := range [][]string{
				{"runs", "--project", "default"},
				{"show", "charge-7731", "--app", "payments", "--project", "default"},
				{"scan", "charge-7731", "--app", "payments", "-o", "json"},
				{"scan", "--project", "default", "--since", "3650d"},
				{"record", "charge-7731", "--app", "payments", "-o", filepath.Join(dir, "rec.json")},
				{"doctor"},
			} {
				cmd := exec.Command(bin, args...)
				cmd.Env, cmd.Dir = env, dir
				var out, errOut strings.Builder
				cmd.Stdout, cmd.Stderr = &out, &errOut
				if err := cmd.Start(); err != nil {
					t.Fatal(err)
				}
				done := make(chan error, 1)
				go func() { done <- cmd.Wait() }()
				select {
				case <-done:
				case <-time.After(2 * time.Minute):
					_ = cmd.Process.Kill()
					<-done
					t.Errorf("twice %s did not finish", args[0])
				}
				for sink, text := range map[string]string{"stdout": out.String(), "stderr": errOut.String()} {
					if strings.Contains(text, catalysttest.TestToken) {
						t.Errorf("twice %s printed the token on %s:\n%s", args[0], sink, text)
					}
					if strings.Contains(text, "panic:") || strings.Contains(text, "goroutine ") {
						t.Errorf("twice %s panicked:\n%s", args[0], text)
					}
					if v, bad := hostiletest.FindUnsafe(text, false); bad {
						t.Errorf("twice %s: raw %U on %s: %q", args[0], v.Rune, sink, text)
					}
				}
			}
			if b, err := os.ReadFile(filepath.Join(dir, "rec.json")); err == nil && strings.Contains(string(b), catalysttest.TestToken) {
				t.Errorf("record saved the token")
			}
		})
	}
}
