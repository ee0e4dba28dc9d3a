package cli

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/twice-cli/twice/catalyst/catalysttest"
	"github.com/twice-cli/twice/catalyst/live"
	"github.com/twice-cli/twice/tui"
)

// TestTheViewShowsNoToken: the interactive view, on a run list and on a
// run, against servers that echo the token into their errors and into
// every field of a run list and a history: no frame it draws holds the
// token or any 8-character window of it.
func TestTheViewShowsNoToken(t *testing.T) {
	token := catalysttest.TestToken
	var picked []catalysttest.LeakScenario
	for _, sc := range append(catalysttest.TokenLeakScenarios(token), catalysttest.TokenEchoScenarios(token)...) {
		switch sc.Name {
		case "run fields and history echoing the token", "X-Request-Id echoing the token",
			"Content-Type echoing the token", "401 body with the token across byte 300",
			"500 body with the token across byte 1024", "refusal with the token u-escaped", "500 echoing the token":
			picked = append(picked, sc)
		}
	}
	for _, sc := range picked {
		for _, args := range [][]string{{"--project", "default"}, {"show", "charge-7731", "--app", "payments", "--project", "default"}} {
			// What shows the view drew the server's words: the redacted
			// token, or, where the view cuts a long error before it, the
			// error itself.
			shown := "redacted"
			if strings.Contains(sc.Name, "across byte") {
				shown = "could not"
			}
			srv := catalysttest.New(sc.Options)
			srv.Inject(sc.Faults...)
			env := testEnv(t, map[string]string{"CATALYST_TOKEN": token, "CATALYST_MCP_URL": srv.URL})
			pr, pw := io.Pipe()
			streams, _, errOut := TestStreams("", true)
			var out syncBuffer
			streams.In, streams.Out = pr, &out
			f := NewFactory(streams, env)
			f.NewLive = func(cfg live.Config) (LiveClient, error) {
				cfg.RequestTimeout = 300 * time.Millisecond
				cfg.MaxAttempts = 1
				return live.New(cfg)
			}
			f.RunTUI = func(ctx context.Context, req TUIRequest) error {
				o := tuiOptions(req)
				o.Width, o.Height = 160, 40 // the buffer reports no size
				return tui.Run(ctx, o)
			}
			go func() {
				// Quit once the view shows what it read, or after 3 s.
				for start := time.Now(); time.Since(start) < 3*time.Second; time.Sleep(20 * time.Millisecond) {
					if strings.Contains(out.String(), shown) {
						break
					}
				}
				time.Sleep(50 * time.Millisecond)
				_, _ = pw.Write([]byte("q"))
				time.Sleep(200 * time.Millisecond)
				_ = pw.Close()
			}()
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			Execute(ctx, f, args)
			cancel()
			srv.Close()
			if !strings.Contains(out.String(), shown) {
				t.Errorf("%s: twice %s never showed what the server said:\n%.3000q", sc.Name, strings.Join(args, " "), out.String())
			}
			for sink, text := range map[string]string{"the view": out.String(), "stderr": errOut.String()} {
				if w, leaked := tokenWindow(text, token); leaked {
					t.Errorf("%s: twice %s: %q of the token reached %s", sc.Name, strings.Join(args, " "), w, sink)
				}
			}
		}
	}
}
