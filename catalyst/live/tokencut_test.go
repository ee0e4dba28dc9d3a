package live

import (
	"context"
	"strings"
	"testing"
)

// TestTokenCommandStderrCutTokenRedacted (issue 26, item 7): a token
// command that prints its token, fails, and says the token's first
// characters on standard error followed by a full stop or a newline does
// not show them in the error.
func TestTokenCommandStderrCutTokenRedacted(t *testing.T) {
	const tok = "tcmd_9Fq2ZmXw7Rt4Lp0Bn6Vc3Ks8Yd1"
	for _, after := range []string{".", `\n`, "…"} {
		script := "echo " + tok + "; printf 'refreshed " + tok[:12] + after + "more\\n' >&2; exit 3"
		_, err := TokenSources(TokenOptions{Command: []string{"sh", "-c", script}}).Token(context.Background())
		if err == nil {
			t.Fatal("no error")
		}
		if strings.Contains(err.Error(), tok[:8]) {
			t.Errorf("followed by %q: the error shows the token's start: %v", after, err)
		}
	}
}
