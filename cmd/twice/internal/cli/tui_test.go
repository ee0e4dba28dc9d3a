package cli

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/twice-cli/twice/catalyst/live"
)

// TestErrorHintNeverRepeatsTheAdvice: the view shows errorHint's text, or
// the error's own when the hint is "": either way each piece of advice is
// there exactly once.
func TestErrorHintNeverRepeatsTheAdvice(t *testing.T) {
	refusal := &live.RefusalError{Kind: live.KindNotAuthenticated, Status: 401, Op: "listing runs",
		Host: "mcp.cloud.r1.diagrid.io", Message: "token expired", TokenFrom: "environment variable CATALYST_TOKEN"}
	for _, c := range []struct {
		name   string
		err    error
		advice string // must appear exactly once
	}{
		{"refusal", refusal, refusal.Hint()},
		{"wrapped refusal", fmt.Errorf("listing runs: %w", refusal), refusal.Hint()},
		{"bare not authenticated", live.ErrNotAuthenticated, notAuthenticatedAdvice},
		{"not authenticated with advice", fmt.Errorf("%w: no Catalyst token found (looked at: env); set %s, or token_file (mode 0600) or token_command in the config; twice doctor shows what it finds",
			live.ErrNotAuthenticated, live.EnvToken), "twice doctor"},
		{"forbidden", &live.RefusalError{Kind: live.KindForbidden, Status: 403}, (&live.RefusalError{Kind: live.KindForbidden}).Hint()},
	} {
		t.Run(c.name, func(t *testing.T) {
			shown := errorHint(c.err)
			if shown == "" {
				shown = c.err.Error()
			}
			if n := strings.Count(shown, c.advice); n != 1 {
				t.Errorf("the advice %q appears %d times in %q", c.advice, n, shown)
			}
			if !strings.HasPrefix(shown, c.err.Error()) {
				t.Errorf("%q does not start with the error itself (%q)", shown, c.err.Error())
			}
		})
	}
	if h := errorHint(errors.New("connection refused")); h != "" {
		t.Errorf("a plain error got a hint: %q", h)
	}
}

// TestTmuxBufferOnlyInsideTmux: the view loads copies into tmux's buffer
// when twice runs inside tmux (TMUX set), and not otherwise.
func TestTmuxBufferOnlyInsideTmux(t *testing.T) {
	for _, tc := range []struct {
		vars map[string]string
		want bool
	}{
		{nil, false},
		{map[string]string{"TMUX": "/tmp/tmux-1000/default,4242,0"}, true},
	} {
		h := newHarness(t)
		h.tty, h.tuiErr = true, nil
		h.env = testEnv(t, tc.vars)
		h.run("show", "demo:payment-timeout")
		if len(h.tuiCalls) != 1 || (h.tuiCalls[0].TmuxBuffer != nil) != tc.want || (tuiOptions(h.tuiCalls[0]).TmuxBuffer != nil) != tc.want {
			t.Errorf("TMUX %q: %d views, tmux loader %v, want %v", tc.vars["TMUX"], len(h.tuiCalls), len(h.tuiCalls) == 1 && h.tuiCalls[0].TmuxBuffer != nil, tc.want)
		}
	}
}
