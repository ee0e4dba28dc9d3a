package secret

import (
	"io"
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
	data := p
	if len(w.held) > 0 {
		data = append(w.held, p...)
		w.held = nil
	}
	s := unsafe.String(unsafe.SliceData(data), len(data))
	keep := holdFrom(s, ps)
	spans := findAll(s[:keep], ps, false)
	// A span may reach into what is held back: hold from its start.
	for len(spans) > 0 && spans[len(spans)-1].end > keep {
		keep = spans[len(spans)-1].start
		spans = spans[:len(spans)-1]
	}
	out := make([]byte, 0, keep+len(Mask))
	last := 0
	for _, sp := range spans {
		out = append(out, s[last:sp.start]...)
		out = append(out, Mask...)
		last = sp.end
	}
	out = append(out, s[last:keep]...)
	if keep < len(s) {
		w.held = append([]byte(nil), s[keep:]...)
	}
	if len(out) > 0 {
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
	_, err := io.WriteString(w.w, w.r.String(string(held)))
	return err
}

// holdFrom returns where the part of s that may begin a secret continued
// by the next write starts (len(s) when none does). Only the text after
// the last newline is considered: no encoding of a secret holds one.
func holdFrom(s string, ps []*pattern) int {
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
