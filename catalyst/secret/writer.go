package secret

import (
	"io"
	"strings"
	"sync"
	"unsafe"
)

// Writer redacts what is written through it before passing it on. A secret
// split across two writes is still found: the end of a write that could be
// the start of a secret is held back until the next write shows whether it
// is, or until Flush. Nothing after the last newline of a write is held
// back unless it could begin a secret, so whole lines are never delayed.
type Writer struct {
	r  *Redactor
	w  io.Writer
	mu sync.Mutex
	// held are bytes written but not yet passed on.
	held []byte
	// prev is the last byte passed on (when hasPrev): whether a secret's
	// last characters at the start of a write follow a cut depends on it.
	prev    byte
	hasPrev bool
}

// Writer returns a Writer redacting r's secrets from what is written to w.
func (r *Redactor) Writer(w io.Writer) *Writer { return &Writer{r: r, w: w} }

// Unwrap returns the writer written to.
func (w *Writer) Unwrap() io.Writer { return w.w }

// Write redacts p, passes on what cannot be part of a secret split across
// writes, and holds back the rest. It reports len(p) written unless the
// underlying writer fails.
func (w *Writer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	ps := w.r.patterns()
	if len(ps) == 0 && len(w.held) == 0 {
		_, err := w.w.Write(p)
		return len(p), err
	}
	// The text read is the last byte passed on (off 1), what was held
	// back, and p; what is passed on starts at off.
	off := 0
	data := make([]byte, 0, 1+len(w.held)+len(p))
	if w.hasPrev {
		data = append(data, w.prev)
		off = 1
	}
	data = append(append(data, w.held...), p...)
	w.held = nil
	s := unsafe.String(unsafe.SliceData(data), len(data))
	keep := max(holdFrom(s, ps, off), off)
	spans := findAll(s[:keep], ps, false)
	// A span may reach into what is held back: hold from its start.
	for len(spans) > 0 && spans[len(spans)-1].end > keep {
		keep = max(spans[len(spans)-1].start, off)
		spans = spans[:len(spans)-1]
	}
	out := make([]byte, 0, keep+len(Mask))
	last := off
	for _, sp := range spans {
		if sp.end <= off {
			continue
		}
		out = append(out, s[last:max(sp.start, off)]...)
		out = append(out, Mask...)
		last = sp.end
	}
	out = append(out, s[last:keep]...)
	if keep < len(s) {
		w.held = append([]byte(nil), s[keep:]...)
	}
	if len(out) > 0 {
		w.prev, w.hasPrev = out[len(out)-1], true
		if _, err := w.w.Write(out); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

// Flush passes on what is held back, redacted (a secret cut at the very
// end included).
func (w *Writer) Flush() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.held) == 0 {
		return nil
	}
	held := w.held
	w.held = nil
	out := w.r.String(string(held))
	if w.hasPrev && !isWordByte(w.prev) {
		// What was held follows a byte no token goes on: its start may be
		// a cut token's last characters.
		out = w.r.String(string(w.prev) + string(held))[1:]
	}
	if out != "" {
		w.prev, w.hasPrev = out[len(out)-1], true
	}
	_, err := io.WriteString(w.w, out)
	return err
}

// holdFrom returns where the part of s that may begin a secret continued
// by the next write starts (len(s) when none does). Only the text after
// the last newline is considered: no encoding of a secret holds one.
func holdFrom(s string, ps []*pattern, off int) int {
	line := 0
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == '\n' {
			line = i + 1
			break
		}
	}
	hold := len(s)
	for _, p := range ps {
		// No encoding of a secret is longer than this, backslashes aside.
		from := max(line, len(s)-16*len(p.runes)-64)
		for i := from; i < hold; i++ {
			if !p.first[s[i]] || s[i] == '\\' && escapedAt(s, i) {
				continue
			}
			if end, matched := p.matchFrom(s, i, 0); end == len(s) || matched < len(p.runes) && incompleteEscape(s[end:]) {
				hold = i
				if escapedAt(s, i) {
					hold = i - 1 // the lone backslash goes with the secret
				}
				break
			}
		}
		// The line may end with a secret's last characters, cut at their
		// start: hold back the longest part after a byte no token goes on
		// (or the start of what was written) that is in the secret.
		for i := max(line, off, len(s)-len(p.secret)); i < hold; i++ {
			if (i == off || !isWordByte(s[i-1])) && isWordByte(s[i]) && strings.Contains(p.secret, s[i:]) {
				hold = i
				break
			}
		}
		if len(p.b64) > 0 {
			// A base64 run reaching the end may continue into a core.
			i := len(s)
			for i > line && isBase64Byte(s[i-1]) {
				i--
			}
			if i < len(s) && i < hold {
				hold = i
			}
		}
	}
	return hold
}

// incompleteEscape reports whether rest is the start of an escape cut by
// the end of the write: backslashes, then perhaps u and up to three hex
// digits; or % and up to one hex digit.
func incompleteEscape(rest string) bool {
	if rest == "" || len(rest) > 16 {
		return false
	}
	if rest[0] == '%' {
		return len(rest) == 1 || len(rest) == 2 && unhex(rest[1]) >= 0
	}
	if rest[0] == '&' {
		// An HTML entity not yet closed: &, &#, &#x, digits or a name.
		if len(rest) > 10 || strings.IndexByte(rest, ';') >= 0 {
			return false
		}
		for _, c := range []byte(rest[1:]) {
			if !isWordByte(c) && c != '#' {
				return false
			}
		}
		return true
	}
	i := 0
	for i < len(rest) && rest[i] == '\\' {
		i++
	}
	if i == 0 {
		return false
	}
	if i == len(rest) {
		return true
	}
	if rest[i] != 'u' || len(rest)-i-1 > 3 {
		return false
	}
	for _, c := range []byte(rest[i+1:]) {
		if unhex(c) < 0 {
			return false
		}
	}
	return true
}
