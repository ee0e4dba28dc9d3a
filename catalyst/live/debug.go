package live

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/twice-cli/twice/catalyst/safetext"
	"github.com/twice-cli/twice/catalyst/secret"
)

// debugLog writes the redacted request log to Config.Debug: one line per
// request and per answer, with method, host, path, status, size and time,
// never a header value, a body or the token. Every line is sanitized, and
// any occurrence of the token is replaced, as a second line of defence.
type debugLog struct {
	mu     sync.Mutex
	w      io.Writer
	redact *secret.Redactor
}

func newDebugLog(w io.Writer, r *secret.Redactor) *debugLog { return &debugLog{w: w, redact: r} }

func (d *debugLog) enabled() bool { return d != nil && d.w != nil }

// printf writes one line.
func (d *debugLog) printf(format string, args ...any) {
	if !d.enabled() {
		return
	}
	line := safetext.Line(d.redact.String(fmt.Sprintf(format, args...)))
	d.mu.Lock()
	defer d.mu.Unlock()
	fmt.Fprintf(d.w, "twice debug %s %s\n", time.Now().UTC().Format("15:04:05.000"), line)
}
