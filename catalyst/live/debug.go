package live

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/twice-cli/twice/catalyst/safetext"
)

// debugLog writes the redacted request log to Config.Debug: one line per
// request and per answer, with method, host, path, status, size and time,
// never a header value, a body or the token. Every line is sanitized, and
// any occurrence of the token is replaced, as a second line of defence.
type debugLog struct {
	mu     sync.Mutex
	w      io.Writer
	secret string
}

func newDebugLog(w io.Writer) *debugLog { return &debugLog{w: w} }

func (d *debugLog) setSecret(s string) {
	d.mu.Lock()
	d.secret = s
	d.mu.Unlock()
}

func (d *debugLog) enabled() bool { return d != nil && d.w != nil }

// printf writes one line.
func (d *debugLog) printf(format string, args ...any) {
	if !d.enabled() {
		return
	}
	line := safetext.Line(fmt.Sprintf(format, args...))
	d.mu.Lock()
	defer d.mu.Unlock()
	line = redact(line, d.secret)
	fmt.Fprintf(d.w, "twice debug %s %s\n", time.Now().UTC().Format("15:04:05.000"), line)
}

// redact replaces every occurrence of secret in s.
func redact(s, secret string) string {
	if secret == "" || !strings.Contains(s, secret) {
		return s
	}
	return strings.ReplaceAll(s, secret, "[redacted]")
}
