// Package secret keeps credentials out of what twice shows and saves. A
// Redactor holds the secrets a command knows (the Catalyst token in use)
// and replaces every occurrence of them, in every encoding a server or a
// history is likely to carry, with "[redacted]".
//
// One Redactor is built per command and handed to everything that turns
// untrusted text into output: the live client (which adds the token when
// it resolves it, and redacts each answer as it arrives, before any message
// cuts it short), the command line's standard output and standard error,
// the interactive view's error pane, and twice record's check of the file
// it is about to write. A nil *Redactor holds nothing and changes nothing.
//
// A secret is found:
//   - as it is;
//   - with any of its characters JSON-escaped (\uXXXX, \/ or \"), behind any
//     number of backslashes (a payload is JSON inside a JSON string, so its
//     escapes are escaped again);
//   - with any of its bytes URL-encoded (%XX), and a space as '+';
//   - base64-encoded (standard or URL alphabet, padded or not) at any
//     alignment: alone, or inside a longer encoded value such as the base64
//     of "Bearer <token>" or "user:<token>"; the whole base64 run is
//     replaced;
//   - with any of its characters as an HTML entity (&#NN;, &#xHH;, &amp;,
//     &lt;, &gt;, &quot;, &apos;), or hex-encoded whole (either case);
//   - cut: the first eight or more characters of a secret followed by the
//     end of the text or by anything but a letter or digit (a newline, a
//     full stop, a quote: a message cut through the token and went on),
//     or its last eight or more preceded by the text's start or anything but
//     a letter or digit, are replaced too (a token's prefix is still the
//     token); and a part of twenty characters or more (MinMidCut) of either
//     end is replaced wherever it is, whatever surrounds it.
package secret

import (
	"encoding/base64"
	"encoding/hex"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"
	"unsafe"
)

// Mask is what every secret is replaced with.
const Mask = "[redacted]"

// MinCut is the shortest part of a secret that is redacted at a text's
// start or end, where the text may have been cut through the secret.
const MinCut = 8

// MinMidCut is the shortest first or last part of a secret that is
// redacted wherever it is in a text, whatever comes before or after it.
const MinMidCut = 20

// Redactor replaces known secrets in text. It is safe for concurrent use;
// secrets may be added while it is in use (the live client adds the token
// when it first resolves it).
type Redactor struct {
	mu      sync.RWMutex
	secrets []*pattern
	// count mirrors len(secrets), read without the lock on the fast path.
	count atomic.Int32
}

// New returns a Redactor holding the given secrets (empty ones are
// ignored).
func New(secrets ...string) *Redactor {
	r := &Redactor{}
	for _, s := range secrets {
		r.Add(s)
	}
	return r
}

// Add makes r redact secret from now on. Empty and already known secrets
// are ignored; surrounding white space is not part of a secret.
func (r *Redactor) Add(secret string) {
	secret = strings.TrimSpace(secret)
	if r == nil || secret == "" {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, p := range r.secrets {
		if p.secret == secret {
			return
		}
	}
	r.secrets = append(r.secrets, newPattern(secret))
	r.count.Store(int32(len(r.secrets)))
}

// Empty reports whether r holds no secret (then it changes nothing).
func (r *Redactor) Empty() bool { return r == nil || r.count.Load() == 0 }

// patterns returns the secrets held, for one pass.
func (r *Redactor) patterns() []*pattern {
	if r.Empty() {
		return nil
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.secrets
}

// String returns s with every secret, in every form, replaced by Mask, and
// a secret cut at either end of s replaced too.
func (r *Redactor) String(s string) string {
	ps := r.patterns()
	if len(ps) == 0 {
		return s
	}
	spans := findAll(s, ps, true)
	if len(spans) == 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	last := 0
	for _, sp := range spans {
		b.WriteString(s[last:sp.start])
		b.WriteString(Mask)
		last = sp.end
	}
	b.WriteString(s[last:])
	return b.String()
}

// Bytes is String for a byte slice. It returns b itself when b holds no
// secret, so the caller can tell (and pays no copy).
func (r *Redactor) Bytes(b []byte) []byte {
	ps := r.patterns()
	if len(ps) == 0 {
		return b
	}
	spans := findAll(unsafe.String(unsafe.SliceData(b), len(b)), ps, true)
	if len(spans) == 0 {
		return b
	}
	out := make([]byte, 0, len(b))
	last := 0
	for _, sp := range spans {
		out = append(out, b[last:sp.start]...)
		out = append(out, Mask...)
		last = sp.end
	}
	return append(out, b[last:]...)
}

// Contains reports whether s holds a secret, in any form, or a cut one at
// either end.
func (r *Redactor) Contains(s string) bool {
	ps := r.patterns()
	return len(ps) > 0 && len(findAll(s, ps, true)) > 0
}

// Error returns err with its message redacted, keeping what errors.Is and
// errors.As find in it; nil stays nil, and an error that holds no secret is
// returned as it is.
func (r *Redactor) Error(err error) error {
	if err == nil || r.Empty() {
		return err
	}
	msg := err.Error()
	clean := r.String(msg)
	if clean == msg {
		return err
	}
	return &redactedError{msg: clean, err: err}
}

// redactedError is an error whose message had a secret removed.
type redactedError struct {
	msg string
	err error
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error { return e.err }

// span is the bytes [start, end) of one secret found.
type span struct{ start, end int }

// pattern is one secret and its precomputed base64 forms.
type pattern struct {
	secret string
	runes  []rune
	// starters are the bytes that may begin an encoding of the secret's
	// first character (itself, '\\', '%', and '+' for a space), each once;
	// first is the same set as a table.
	starters []byte
	first    [256]bool
	// b64 are the parts of the secret's base64 encodings that do not
	// depend on what surrounds it: for each of the three alignments and
	// both alphabets.
	b64 []string
	// hex is the secret hex-encoded, in lower and upper case.
	hex []string
}

func newPattern(secret string) *pattern {
	p := &pattern{secret: secret, runes: []rune(secret)}
	starters := []byte{secret[0], '\\', '%', '&'}
	if p.runes[0] == ' ' {
		starters = append(starters, '+')
	}
	for _, c := range starters {
		if !p.first[c] {
			p.first[c] = true
			p.starters = append(p.starters, c)
		}
	}
	p.b64 = base64Cores(secret)
	h := hex.EncodeToString([]byte(secret))
	p.hex = []string{h, strings.ToUpper(h)}
	return p
}

// base64Cores returns, for each alignment of secret within a base64 stream
// (0, 1 or 2 bytes before it), the characters of its encoding that only its
// own bytes decide, in both alphabets. Cores shorter than MinCut are left
// out: they would match by chance.
func base64Cores(secret string) []string {
	var out []string
	seen := map[string]bool{}
	for k := 0; k < 3; k++ {
		buf := append(make([]byte, k), secret...)
		// Whole groups only: the last partial group mixes in what follows.
		n := len(buf) / 3 * 3
		if n == 0 {
			continue
		}
		enc := base64.StdEncoding.EncodeToString(buf[:n])
		// The first characters mix in the k bytes before the secret.
		skip := [3]int{0, 2, 3}[k]
		core := enc[skip:]
		if len(core) < MinCut {
			continue
		}
		for _, c := range []string{core, strings.NewReplacer("+", "-", "/", "_").Replace(core)} {
			if !seen[c] {
				seen[c] = true
				out = append(out, c)
			}
		}
	}
	return out
}

// findAll returns the spans of every secret in s, in order and not
// overlapping. cut also finds a secret cut at either end of s.
func findAll(s string, ps []*pattern, cut bool) []span {
	var spans []span
	for _, p := range ps {
		spans = p.find(s, spans, cut)
	}
	if len(spans) < 2 {
		return spans
	}
	return merge(spans)
}

// merge sorts spans and joins those that overlap or touch.
func merge(spans []span) []span {
	for i := 1; i < len(spans); i++ { // insertion sort: few spans
		for j := i; j > 0 && spans[j].start < spans[j-1].start; j-- {
			spans[j], spans[j-1] = spans[j-1], spans[j]
		}
	}
	out := spans[:1]
	for _, sp := range spans[1:] {
		last := &out[len(out)-1]
		if sp.start <= last.end {
			last.end = max(last.end, sp.end)
			continue
		}
		out = append(out, sp)
	}
	return out
}

// find appends the spans of p in s: the secret in every character
// encoding, its base64 forms, and (with cut) a part of it cut at either
// end of s.
func (p *pattern) find(s string, spans []span, cut bool) []span {
	starts := p.starts(s)
	for i := 0; i < len(s); i++ {
		if !p.first[s[i]] {
			// Jump to the next byte that may begin the secret.
			j := starts.from(i)
			if j < 0 {
				break
			}
			i = j
		}
		start := i
		if escapedAt(s, i) {
			if s[i] == '\\' {
				// Inside a run of backslashes: the run was tried from its
				// first one.
				continue
			}
			// The byte follows a lone backslash (\c, or an escape such as
			// \n). The text still shows the secret, so it is redacted, and
			// the backslash with it: a lone one left before the mask would
			// escape it.
			start = i - 1
		}
		end, matched := p.matchFrom(s, i, 0)
		switch {
		case matched == len(p.runes):
			spans = append(spans, span{start, end})
			i = end - 1
		case matched >= MinCut && (cut && end == len(s) || end < len(s) && !isWordByte(s[end]) || matched >= MinMidCut):
			// The secret was cut through: s ends inside it, or its first
			// characters are followed by what cannot go on a token (a
			// newline, a full stop), or enough of it is there.
			spans = append(spans, span{start, end})
			i = end - 1
		case s[i] == '\\':
			// No escape behind this run of backslashes is the secret's, and
			// one from any later backslash of the run reads the same
			// character: go on after the run (trying each would make a long
			// run quadratic).
			for i+1 < len(s) && s[i+1] == '\\' {
				i++
			}
		}
	}
	if cut && len(p.runes) > MinCut {
		// s begins inside the secret: its last characters.
		for k := 1; k <= len(p.runes)-MinCut; k++ {
			end, matched := p.matchFrom(s, 0, k)
			if matched == len(p.runes)-k && end > 0 {
				spans = append(spans, span{0, end})
				break
			}
		}
	}
	spans = p.findTails(s, spans, cut)
	for _, h := range p.hex {
		for off := 0; ; {
			j := strings.Index(s[off:], h)
			if j < 0 {
				break
			}
			spans = append(spans, span{off + j, off + j + len(h)})
			off += j + len(h)
		}
	}
	for _, core := range p.b64 {
		for off := 0; ; {
			j := strings.Index(s[off:], core)
			if j < 0 {
				break
			}
			start, end := off+j, off+j+len(core)
			for start > 0 && isBase64Byte(s[start-1]) && !escapedAt(s, start-1) {
				start--
			}
			for end < len(s) && isBase64Byte(s[end]) {
				end++
			}
			spans = append(spans, span{start, end})
			off = end
		}
	}
	return spans
}

// findTails appends the spans of the secret's last characters as they are
// (MinCut or more) where a text was cut through it: at the text's start
// (with cut), after anything but a letter or digit, or MinMidCut or more
// anywhere.
func (p *pattern) findTails(s string, spans []span, cut bool) []span {
	n := len(p.secret)
	if n <= MinCut {
		return spans
	}
	tail := p.secret[n-MinCut:]
	for off := 0; ; {
		j := strings.Index(s[off:], tail)
		if j < 0 {
			return spans
		}
		end := off + j + MinCut
		k, got := end-MinCut, MinCut
		for k > 0 && got < n && s[k-1] == p.secret[n-got-1] {
			k--
			got++
		}
		if utf8.RuneStart(p.secret[n-got]) && (got >= MinMidCut || k == 0 && cut || k > 0 && !isWordByte(s[k-1])) {
			spans = append(spans, span{k, end})
		}
		off = end
	}
}

// isWordByte reports whether c is an ASCII letter or digit: a byte that may
// go on a token, where anything else after a token's first characters
// (a newline, a full stop) shows the text was cut through it.
func isWordByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// startFinder finds, in one text, the next byte that may begin a secret.
// It remembers where each kind of byte occurs next, so a pass over the
// text costs one scan per kind, however many candidates it meets (finding
// each from scratch made a long answer with many backslashes quadratic).
type startFinder struct {
	s     string
	bytes [4]byte
	n     int
	// next[k] is the index of bytes[k] at or after the last search, or
	// len(s) when there is none.
	next [4]int
}

// starts returns the finder of p's first bytes in s.
func (p *pattern) starts(s string) startFinder {
	f := startFinder{s: s, n: len(p.starters)}
	copy(f.bytes[:], p.starters)
	for k := range f.n {
		f.next[k] = -1 // not searched yet
	}
	return f
}

// from returns the first index at or after i whose byte may begin the
// secret, or -1. Calls must not go backwards.
func (f *startFinder) from(i int) int {
	best := len(f.s)
	for k := 0; k < f.n; k++ {
		if f.next[k] < i {
			j := strings.IndexByte(f.s[i:], f.bytes[k])
			if j < 0 {
				f.next[k] = len(f.s)
			} else {
				f.next[k] = i + j
			}
		}
		best = min(best, f.next[k])
	}
	if best == len(f.s) {
		return -1
	}
	return best
}

// escapedAt reports whether s[i] follows an odd run of backslashes: it is
// part of an escape, and replacing it would leave a lone backslash.
func escapedAt(s string, i int) bool {
	n := 0
	for j := i - 1; j >= 0 && s[j] == '\\'; j-- {
		n++
	}
	return n%2 == 1
}

func isBase64Byte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '+' || c == '/' || c == '-' || c == '_' || c == '='
}

// matchFrom matches the secret's characters from rune k on against s from
// byte i, each character as itself or in any encoding the package names.
// It returns where the match ended and how many characters matched; a
// match that ran out of s stops there.
func (p *pattern) matchFrom(s string, i, k int) (end, matched int) {
	j := i
	for _, r := range p.runes[k:] {
		n := encodedRuneAt(s, j, r)
		if n <= 0 {
			return j, matched
		}
		j += n
		matched++
	}
	return j, matched
}

// encodedRuneAt returns the length of an encoding of r at s[i:], or 0.
func encodedRuneAt(s string, i int, r rune) int {
	if i >= len(s) {
		return 0
	}
	var enc [utf8.UTFMax]byte
	n := utf8.EncodeRune(enc[:], r)
	if strings.HasPrefix(s[i:], string(enc[:n])) {
		return n
	}
	switch s[i] {
	case '\\':
		return escapedRuneAt(s, i, r)
	case '%':
		j := i
		for _, c := range enc[:n] {
			if j+3 > len(s) || s[j] != '%' {
				return 0
			}
			hi, lo := unhex(s[j+1]), unhex(s[j+2])
			if hi < 0 || lo < 0 || byte(hi<<4|lo) != c {
				return 0
			}
			j += 3
		}
		return j - i
	case '+':
		if r == ' ' {
			return 1
		}
	case '&':
		return entityRuneAt(s, i, r)
	}
	return 0
}

// entityRuneAt returns the length of an HTML entity for r at s[i:] (&#NN;,
// &#xHH; or one of the named entities HTML escapers write), or 0.
func entityRuneAt(s string, i int, r rune) int {
	rest := s[i:]
	if len(rest) > 12 {
		rest = rest[:12]
	}
	semi := strings.IndexByte(rest, ';')
	if semi < 2 {
		return 0
	}
	name := rest[1:semi]
	var v rune
	switch {
	case name[0] == '#' && len(name) > 1 && (name[1] == 'x' || name[1] == 'X'):
		if len(name) < 3 {
			return 0
		}
		for _, c := range []byte(name[2:]) {
			d := unhex(c)
			if d < 0 {
				return 0
			}
			v = v<<4 | rune(d)
		}
	case name[0] == '#':
		for _, c := range []byte(name[1:]) {
			if c < '0' || c > '9' {
				return 0
			}
			v = v*10 + rune(c-'0')
		}
	default:
		named := map[string]rune{"amp": '&', "lt": '<', "gt": '>', "quot": '"', "apos": '\'', "sol": '/', "plus": '+', "equals": '=', "lowbar": '_', "period": '.', "colon": ':'}
		var ok bool
		if v, ok = named[name]; !ok {
			return 0
		}
	}
	if v != r {
		return 0
	}
	return semi + 1
}

// escapedRuneAt returns the length of a JSON escape of r at s[i:], behind
// one or more backslashes, or 0.
func escapedRuneAt(s string, i int, r rune) int {
	j := i
	for j < len(s) && s[j] == '\\' {
		j++
	}
	if j >= len(s) {
		return 0
	}
	switch c := s[j]; {
	case c == '/' && r == '/', c == '"' && r == '"':
		return j + 1 - i
	case c == 'u':
		u, ok := hex4(s, j+1)
		if !ok {
			return 0
		}
		if r < 0x10000 {
			if rune(u) == r {
				return j + 5 - i
			}
			return 0
		}
		// A surrogate pair: \uD8xx\uDCxx, each behind the same escaping.
		hi, lo := 0xD800+((r-0x10000)>>10), 0xDC00+((r-0x10000)&0x3FF)
		if rune(u) != hi {
			return 0
		}
		k := j + 5
		m := k
		for m < len(s) && s[m] == '\\' {
			m++
		}
		if m == k || m >= len(s) || s[m] != 'u' {
			return 0
		}
		if u2, ok := hex4(s, m+1); ok && rune(u2) == lo {
			return m + 5 - i
		}
	}
	return 0
}

func hex4(s string, i int) (int, bool) {
	if i+4 > len(s) {
		return 0, false
	}
	v := 0
	for k := 0; k < 4; k++ {
		d := unhex(s[i+k])
		if d < 0 {
			return 0, false
		}
		v = v<<4 | d
	}
	return v, true
}

func unhex(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'a' <= c && c <= 'f':
		return int(c-'a') + 10
	case 'A' <= c && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}
