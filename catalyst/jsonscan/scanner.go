// Package jsonscan is a strict, streaming JSON scanner: the hot path of every
// history decoder and of the fixture loader.
//
// A Scanner reads from an io.Reader through its own window buffer (grown only
// when a single token, or a marked stretch, does not fit) or from a byte
// slice, and hands out tokens without allocating: keys, string literals and
// numbers are slices of the window, valid until the next call. The caller
// walks the document with BeginObject/NextKey, BeginArray/NextElement and the
// value methods, and skips what it does not need with SkipValue.
//
// A Scanner of an io.ReaderAt (NewReaderAt: a file) owns an input it can
// read at any offset: the rest of a long array can be read by a Fork on
// another goroutine, and the Scanner told to Resume after it.
//
// It is strict about syntax (RFC 8259): truncation, unescaped control
// characters in strings, bad escapes, bad numbers, leading zeros, missing
// commas or colons, trailing commas and trailing data are all errors of type
// *SyntaxError, and nesting deeper than the depth limit (DefaultMaxDepth) is
// an error, never a stack overflow: nothing in the scanner recurses.
//
// Invalid UTF-8 inside strings is accepted and passed through unchanged:
// history text is sanitized (catalyst/safetext) where it is shown, and a
// scanner that rejected it would lose the whole history over one bad byte.
//
// It is part of twice, not a library: its API follows twice's needs. It is
// used by catalyst (the decoders), fixtures (the saved-history envelope,
// redaction) and twice-gen (the bench's floor), so it cannot sit under one
// folder's internal/ (docs/architecture.md, "Packages").
package jsonscan

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"strconv"
)

// DefaultMaxDepth is the deepest nesting of objects and arrays a Scanner
// accepts unless told otherwise (the limit encoding/json uses too).
const DefaultMaxDepth = 10000

// defaultWindow is the size of the window buffer of a reader-backed Scanner.
const defaultWindow = 256 << 10

// SyntaxError is malformed or truncated JSON.
type SyntaxError struct {
	// Offset is the byte offset in the input where the problem was found.
	Offset int64
	// Msg says what was wrong.
	Msg string
}

func (e *SyntaxError) Error() string {
	return "invalid JSON at byte " + strconv.FormatInt(e.Offset, 10) + ": " + e.Msg
}

// ValueError is well-formed JSON holding the wrong kind of value for what the
// caller asked (a string where Int32 wants a number, a number out of range).
// Nothing is consumed when the kind is wrong, so the caller may read or skip
// the value; a number out of range is consumed.
type ValueError struct {
	// Offset is the byte offset of the value.
	Offset int64
	// Kind is the value's first byte, as PeekKind returns it.
	Kind byte
	// Msg says what was found and what was wanted.
	Msg string
}

func (e *ValueError) Error() string {
	return "at byte " + strconv.FormatInt(e.Offset, 10) + ": " + e.Msg
}

// ReadError is a failure of the underlying reader (not of the JSON).
type ReadError struct {
	// Offset is how many bytes had been read when it failed.
	Offset int64
	// Err is the reader's error.
	Err error
}

func (e *ReadError) Error() string {
	return "reading input at byte " + strconv.FormatInt(e.Offset, 10) + ": " + e.Err.Error()
}

// Unwrap returns the reader's error.
func (e *ReadError) Unwrap() error { return e.Err }

// container flags, one byte per open object or array on the stack.
const (
	inArray byte = 1 << iota
	beforeFirst
)

// Scanner reads one JSON document, token by token. See the package comment.
// A Scanner is not safe for concurrent use.
type Scanner struct {
	r   io.Reader
	buf []byte // window; valid data is buf[:end]
	pos int    // next unread byte
	end int
	// base is the input offset of buf[0].
	base int64
	eof  bool  // the reader is exhausted (always true for NewBytes)
	err  error // sticky syntax or read error

	stack    []byte
	maxDepth int

	capW   io.Writer // capturing when non-nil
	capPos int       // first byte not yet written to capW
	capErr error

	mark int // first byte a refill must keep, or -1

	scratch []byte // unescaped keys and strings

	// at and size are the input of a Scanner made by NewReaderAt (or
	// forked from one), which Fork and Resume read at any offset.
	at   io.ReaderAt
	size int64
}

// New returns a Scanner reading r through a 256 KiB window.
func New(r io.Reader) *Scanner { return NewSize(r, defaultWindow) }

// NewSize returns a Scanner reading r through a window of size bytes (at
// least 64).
func NewSize(r io.Reader, size int) *Scanner {
	size = max(size, 64)
	return &Scanner{r: r, buf: make([]byte, size), maxDepth: DefaultMaxDepth, mark: -1}
}

// NewReaderAt returns a Scanner reading the size bytes of r from its start
// through a 256 KiB window. Its input can be read again at any offset:
// Fork and Resume need that.
func NewReaderAt(r io.ReaderAt, size int64) *Scanner {
	s := New(io.NewSectionReader(r, 0, size))
	s.at, s.size = r, size
	return s
}

// Input returns the input of a Scanner made by NewReaderAt, and its size;
// nil for another Scanner.
func (s *Scanner) Input() (io.ReaderAt, int64) { return s.at, s.size }

// NewBytes returns a Scanner over b, which it reads in place and does not
// modify. Slices it returns may alias b.
func NewBytes(b []byte) *Scanner {
	return &Scanner{buf: b, end: len(b), eof: true, maxDepth: DefaultMaxDepth, mark: -1}
}

// ResetBytes makes s a scanner over b, as NewBytes does, keeping its
// buffers: reading many small documents allocates once.
func (s *Scanner) ResetBytes(b []byte) {
	*s = Scanner{buf: b, end: len(b), eof: true, maxDepth: DefaultMaxDepth, mark: -1,
		stack: s.stack[:0], scratch: s.scratch[:0]}
}

// SetMaxDepth sets the deepest nesting accepted (n ≥ 1).
func (s *Scanner) SetMaxDepth(n int) { s.maxDepth = max(n, 1) }

// Offset returns the number of input bytes consumed so far.
func (s *Scanner) Offset() int64 { return s.base + int64(s.pos) }

// Depth returns how many objects and arrays are open.
func (s *Scanner) Depth() int { return len(s.stack) }

// Err returns the sticky error that stopped the scanner, if any.
func (s *Scanner) Err() error { return s.err }

// syntaxAt records and returns a syntax error at buffer index i.
func (s *Scanner) syntaxAt(i int, msg string) error {
	if s.err == nil {
		s.err = &SyntaxError{Offset: s.base + int64(i), Msg: msg}
		s.poison()
	}
	return s.err
}

// poison empties the window after an error, so that every later call finds
// no input, looks for the reason and returns the same error.
func (s *Scanner) poison() {
	s.end = min(s.pos, s.end)
	s.eof = true
}

// eofAt is the error for input that ends inside a value.
func (s *Scanner) eofAt(i int, what string) error {
	if s.err != nil {
		return s.err
	}
	return s.syntaxAt(i, "unexpected end of input "+what+" (the document is cut off)")
}

// refill reads more input, keeping buf[keep:] (and anything marked or not
// yet captured). It returns how far the kept bytes moved towards the start,
// and false when no more input will come.
func (s *Scanner) refill(keep int) (shift int, ok bool) {
	if s.eof || s.err != nil {
		return 0, false
	}
	if s.mark >= 0 && s.mark < keep {
		keep = s.mark
	}
	if s.capW != nil && s.capPos < keep {
		s.flushCapture(keep)
	}
	if keep > 0 {
		copy(s.buf, s.buf[keep:s.end])
		s.end -= keep
		s.pos -= keep
		s.base += int64(keep)
		if s.capW != nil {
			s.capPos -= keep
		}
		if s.mark >= 0 {
			s.mark -= keep
		}
	}
	if s.buf == nil {
		s.buf = make([]byte, defaultWindow) // a fork's, on its first read
	}
	if s.end > len(s.buf)/2 {
		// What must be kept fills half the window: grow it, so that a long
		// token or marked stretch is not shuffled forward a little at a time.
		grown := make([]byte, 2*len(s.buf))
		copy(grown, s.buf[:s.end])
		s.buf = grown
	}
	for range 100 {
		n, err := s.r.Read(s.buf[s.end:])
		s.end += n
		if err != nil {
			if errors.Is(err, io.EOF) {
				s.eof = true
			} else {
				s.err = &ReadError{Offset: s.base + int64(s.end), Err: err}
				s.poison()
				return keep, false
			}
			return keep, n > 0
		}
		if n > 0 {
			return keep, true
		}
	}
	s.err = &ReadError{Offset: s.base + int64(s.end), Err: io.ErrNoProgress}
	s.poison()
	return keep, false
}

// flushCapture writes buf[capPos:upto] to the capture writer.
func (s *Scanner) flushCapture(upto int) {
	if upto > s.capPos {
		if s.capErr == nil {
			_, s.capErr = s.capW.Write(s.buf[s.capPos:upto])
		}
		s.capPos = upto
	}
}

// isSpace marks JSON's four whitespace bytes.
var isSpace = [256]bool{' ': true, '\t': true, '\n': true, '\r': true}

// strPlain marks bytes a string scan passes over: everything but '"', '\\'
// and control characters.
var strPlain = func() (t [256]bool) {
	for c := 0x20; c < 256; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// numByte marks bytes that can appear in a JSON number.
var numByte = func() (t [256]bool) {
	for _, c := range []byte("0123456789+-.eE") {
		t[c] = true
	}
	return t
}()

// next returns the next non-whitespace byte without consuming it; ok is false
// at the end of input or after an error.
func (s *Scanner) next() (byte, bool) {
	if s.pos < s.end {
		if c := s.buf[s.pos]; c > ' ' {
			return c, true
		}
	}
	return s.nextSlow()
}

// nextSlow is next past whitespace. It keeps its own loop round
// skipSpaceRun rather than calling skipSpace: with the call, callgrind
// counted 0.1% more instructions on a protojson history.
func (s *Scanner) nextSlow() (byte, bool) {
	for s.err == nil {
		// The window and the position live in locals while the loop runs:
		// indented JSON (the Dapr CLI's) comes here before every key and
		// value, mostly for one space or a newline and a short indentation.
		buf, i := s.buf[:s.end], s.pos
		for i < len(buf) {
			c := buf[i]
			if c > ' ' || !isSpace[c] {
				s.pos = i
				return c, true
			}
			i = skipSpaceRun(buf, i+1)
		}
		s.pos = i
		if _, ok := s.refill(s.pos); !ok {
			return 0, false
		}
	}
	return 0, false
}

// PeekKind returns the first byte of the next token without consuming it
// (whitespace before it is consumed): '{', '[', '"', 't', 'f', 'n', '-' or a
// digit for a value, or any other byte found there. It returns 0 at the end
// of input.
func (s *Scanner) PeekKind() (byte, error) {
	if s.err != nil {
		return 0, s.err
	}
	c, ok := s.next()
	if !ok {
		return 0, s.err
	}
	return c, nil
}

// Peek returns up to n bytes from the next token's first byte on, without
// consuming them, reading ahead as needed (whitespace before it is consumed).
// Fewer than n bytes are returned only at the end of input. The slice is
// valid until the next call.
func (s *Scanner) Peek(n int) ([]byte, error) {
	if _, ok := s.next(); !ok {
		return nil, s.err
	}
	for s.end-s.pos < n {
		if _, ok := s.refill(s.pos); !ok {
			break
		}
	}
	if s.err != nil {
		return nil, s.err
	}
	return s.buf[s.pos:min(s.end, s.pos+n)], nil
}

// valueStart returns the first byte of the next value, or an error naming
// what was found instead.
func (s *Scanner) valueStart() (byte, error) {
	var c byte
	if s.pos < s.end {
		c = s.buf[s.pos]
	}
	if c <= ' ' {
		// One space, as after the colon of indented JSON: no call.
		if c == ' ' && s.pos+1 < s.end && s.buf[s.pos+1] > ' ' {
			s.pos++
			return s.buf[s.pos], nil
		}
		var ok bool
		if c, ok = s.nextSlow(); !ok {
			return 0, s.eofAt(s.pos, "where a value was expected")
		}
	}
	return c, nil
}

// unexpected is the error for a byte that cannot start what was expected.
func (s *Scanner) unexpected(c byte, want string) error {
	return s.syntaxAt(s.pos, "found "+describeByte(c)+" where "+want+" was expected")
}

func describeByte(c byte) string {
	switch {
	case c == '"':
		return "'\"'"
	case c >= 0x21 && c < 0x7f:
		return "'" + string(c) + "'"
	}
	return fmt.Sprintf("byte 0x%02x", c)
}

// push opens a container.
func (s *Scanner) push(flags byte) error {
	if len(s.stack) >= s.maxDepth {
		return s.syntaxAt(s.pos, "nesting deeper than "+strconv.Itoa(s.maxDepth)+" levels")
	}
	s.stack = append(s.stack, flags|beforeFirst)
	s.pos++
	return nil
}

// BeginObject consumes the '{' of an object. Read its members with NextKey.
func (s *Scanner) BeginObject() error {
	c, err := s.valueStart()
	if err != nil {
		return err
	}
	if c != '{' {
		return s.kindError(c, "an object")
	}
	return s.push(0)
}

// BeginArray consumes the '[' of an array. Read its elements with NextElement.
func (s *Scanner) BeginArray() error {
	c, err := s.valueStart()
	if err != nil {
		return err
	}
	if c != '[' {
		return s.kindError(c, "an array")
	}
	return s.push(inArray)
}

// kindError reports a value of the wrong kind (a ValueError, nothing
// consumed) or, when c cannot start a value at all, a SyntaxError.
func (s *Scanner) kindError(c byte, want string) error {
	found := KindName(c)
	if found == "" {
		return s.unexpected(c, "a value")
	}
	return &ValueError{Offset: s.Offset(), Kind: c, Msg: "found " + found + ", want " + want}
}

// KindName names the kind of value a PeekKind byte starts ("an object", "a
// string", …), or "" when the byte starts no value.
func KindName(c byte) string {
	switch c {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return "a number"
	}
	return ""
}

// NextKey advances to the next member of the innermost object and returns
// its key, unescaped (valid until the next call), with the ':' consumed; the
// caller must then read or skip the member's value. It returns more == false,
// consuming the '}', when the object has no more members.
func (s *Scanner) NextKey() (key []byte, more bool, err error) {
	top := len(s.stack) - 1
	if top < 0 || s.stack[top]&inArray != 0 {
		return nil, false, errors.New("jsonscan: NextKey called outside an object")
	}
	var c byte
	if s.pos < s.end {
		c = s.buf[s.pos]
	}
	ok := true
	if c <= ' ' {
		c, ok = s.nextSlow()
	}
	if !ok {
		return nil, false, s.eofAt(s.pos, "inside an object")
	}
	if s.stack[top]&beforeFirst != 0 {
		s.stack[top] = 0
		if c == '}' {
			s.stack = s.stack[:top]
			s.pos++
			return nil, false, nil
		}
	} else {
		if c == '}' {
			s.stack = s.stack[:top]
			s.pos++
			return nil, false, nil
		}
		if c != ',' {
			return nil, false, s.unexpected(c, "',' or '}' after an object member")
		}
		s.pos++
		if c, ok = s.next(); !ok {
			return nil, false, s.eofAt(s.pos, "inside an object")
		}
		if c == '}' {
			return nil, false, s.syntaxAt(s.pos, "trailing comma before '}'")
		}
	}
	if c != '"' {
		return nil, false, s.unexpected(c, "a string key")
	}
	// Fast path: a key without escapes, its quote and colon in the window.
	start := s.pos
	if i := skipPlain(s.buf[:s.end], start+1); i+1 < s.end && s.buf[i] == '"' && s.buf[i+1] == ':' {
		s.pos = i + 2
		return s.buf[start+1 : i], true, nil
	}
	start, end, escaped, err := s.scanString()
	if err != nil {
		return nil, false, err
	}
	if !escaped && s.pos < s.end && s.buf[s.pos] == ':' {
		s.pos++
		return s.buf[start+1 : end-1], true, nil
	}
	// Escapes, or whitespace before the colon (which may move the window):
	// keep the key in scratch.
	s.scratch = AppendUnquoted(s.scratch[:0], s.buf[start:end])
	if c, ok = s.next(); !ok {
		return nil, false, s.eofAt(s.pos, "after an object key")
	}
	if c != ':' {
		return nil, false, s.unexpected(c, "':' after an object key")
	}
	s.pos++
	return s.scratch, true, nil
}

// NextKeyIs reads the next member's key of the innermost object if the
// input holds exactly quoted there, after whitespace and (unless the member
// is the object's first) a ',' right after the previous value, as
// encoding/json writes it, indented or not: it consumes those bytes, as
// NextKey would, and returns true. Otherwise it consumes nothing and
// returns false, and NextKey reads whatever comes (another key, the end of
// the object, or an error). quoted is a key as written without escapes, in
// quotes and followed by its ':' (`"name":`).
//
// A decoder that knows the order its objects' keys are usually written in
// asks for the expected key this way: a hit costs a comparison, where
// NextKey scans the key for its closing quote and escapes and the decoder
// then looks the key up. Only what is already in the window is matched.
func (s *Scanner) NextKeyIs(quoted string) bool {
	top := len(s.stack) - 1
	if top < 0 || s.stack[top]&inArray != 0 {
		return false
	}
	buf, i := s.buf[:s.end], s.pos
	if s.stack[top]&beforeFirst == 0 {
		if i >= len(buf) || buf[i] != ',' {
			return false
		}
		i++
	}
	i = skipSpace(buf, i)
	if len(buf)-i < len(quoted) || string(buf[i:i+len(quoted)]) != quoted {
		return false
	}
	s.stack[top] = 0
	s.pos = i + len(quoted)
	return true
}

// skipSpace returns the index of the first byte at or after i in buf that
// is not JSON whitespace (len(buf) if there is none).
func skipSpace(buf []byte, i int) int {
	for i < len(buf) {
		c := buf[i]
		if c > ' ' || !isSpace[c] {
			return i
		}
		i = skipSpaceRun(buf, i+1)
	}
	return i
}

// skipSpaceRun skips the spaces from buf[i] on eight bytes at a time, as
// far as whole words of them reach: the indentation of indented JSON. It
// is small enough to be inlined into the two loops that use it.
func skipSpaceRun(buf []byte, i int) int {
	for i+8 <= len(buf) {
		if x := binary.LittleEndian.Uint64(buf[i:]) ^ (ones * ' '); x != 0 {
			return i + bits.TrailingZeros64(x)>>3
		}
		i += 8
	}
	return i
}

// NextElement advances to the next element of the innermost array; the
// caller must then read or skip it. It returns false, consuming the ']',
// when the array has no more elements.
func (s *Scanner) NextElement() (more bool, err error) {
	top := len(s.stack) - 1
	if top < 0 || s.stack[top]&inArray == 0 {
		return false, errors.New("jsonscan: NextElement called outside an array")
	}
	var c byte
	if s.pos < s.end {
		c = s.buf[s.pos]
	}
	ok := true
	if c <= ' ' {
		c, ok = s.nextSlow()
	}
	if !ok {
		return false, s.eofAt(s.pos, "inside an array")
	}
	if s.stack[top]&beforeFirst != 0 {
		s.stack[top] = inArray
		if c == ']' {
			s.stack = s.stack[:top]
			s.pos++
			return false, nil
		}
		return true, nil
	}
	if c == ']' {
		s.stack = s.stack[:top]
		s.pos++
		return false, nil
	}
	if c != ',' {
		return false, s.unexpected(c, "',' or ']' after an array element")
	}
	s.pos++
	if c, ok = s.next(); !ok {
		return false, s.eofAt(s.pos, "inside an array")
	}
	if c == ']' {
		return false, s.syntaxAt(s.pos, "trailing comma before ']'")
	}
	return true, nil
}

// SkipValue consumes the next value, whatever it is, checking its syntax.
// It does not recurse, so any depth up to the limit is safe.
func (s *Scanner) SkipValue() error {
	depth := len(s.stack)
	for {
		c, err := s.valueStart()
		if err != nil {
			return err
		}
		switch {
		case c == '{':
			err = s.push(0)
		case c == '[':
			err = s.push(inArray)
		case c == '"':
			// A string with nothing to unescape, whole in the window: as
			// StringValue's fast path.
			if i := skipPlain(s.buf[:s.end], s.pos+1); i < s.end && s.buf[i] == '"' {
				s.pos = i + 1
			} else {
				_, _, _, err = s.scanString()
			}
		case c == 't':
			err = s.literal("true")
		case c == 'f':
			err = s.literal("false")
		case c == 'n':
			err = s.literal("null")
		case c == '-' || isDigit(c):
			_, _, err = s.scanNumber()
		default:
			err = s.unexpected(c, "a value")
		}
		if err != nil {
			return err
		}
		// Advance to the next value still inside what is being skipped,
		// closing the containers that end on the way.
		for {
			top := len(s.stack) - 1
			if top < depth {
				return nil
			}
			var more bool
			if s.stack[top]&inArray != 0 {
				more, err = s.NextElement()
			} else {
				more, err = s.skipKey()
			}
			if err != nil {
				return err
			}
			if more {
				break
			}
		}
	}
}

// skipKey is NextKey without unescaping the key.
func (s *Scanner) skipKey() (more bool, err error) {
	top := len(s.stack) - 1
	var c byte
	if s.pos < s.end {
		c = s.buf[s.pos]
	}
	ok := true
	if c <= ' ' {
		c, ok = s.nextSlow()
	}
	if !ok {
		return false, s.eofAt(s.pos, "inside an object")
	}
	if c == '}' {
		s.stack = s.stack[:top]
		s.pos++
		return false, nil
	}
	if s.stack[top]&beforeFirst != 0 {
		s.stack[top] = 0
	} else {
		if c != ',' {
			return false, s.unexpected(c, "',' or '}' after an object member")
		}
		s.pos++
		if c, ok = s.next(); !ok {
			return false, s.eofAt(s.pos, "inside an object")
		}
		if c == '}' {
			return false, s.syntaxAt(s.pos, "trailing comma before '}'")
		}
	}
	if c != '"' {
		return false, s.unexpected(c, "a string key")
	}
	if _, _, _, err := s.scanString(); err != nil {
		return false, err
	}
	if c, ok = s.next(); !ok {
		return false, s.eofAt(s.pos, "after an object key")
	}
	if c != ':' {
		return false, s.unexpected(c, "':' after an object key")
	}
	s.pos++
	return true, nil
}

// Mark pins the input from the next token's first byte on in the window
// (whitespace before it is consumed) until Unmark, so that Marked can return
// it. Only one mark is held; a new Mark replaces it.
func (s *Scanner) Mark() error {
	if _, ok := s.next(); !ok && s.err != nil {
		return s.err
	}
	s.mark = s.pos
	return nil
}

// Marked returns the input consumed since Mark (valid until the next call).
func (s *Scanner) Marked() []byte {
	if s.mark < 0 {
		return nil
	}
	return s.buf[s.mark:s.pos]
}

// Unmark releases the mark.
func (s *Scanner) Unmark() { s.mark = -1 }

// Capture starts writing to w every input byte consumed from the next
// value's first byte on (whitespace before it is consumed and not written),
// until EndCapture. Each byte is written exactly once, in order, in pieces
// as the window moves.
func (s *Scanner) Capture(w io.Writer) error {
	if _, ok := s.next(); !ok && s.err != nil {
		return s.err
	}
	s.capW, s.capPos, s.capErr = w, s.pos, nil
	return nil
}

// EndCapture writes the bytes consumed since the last write and stops
// capturing. It returns the first error w returned.
func (s *Scanner) EndCapture() error {
	if s.capW == nil {
		return nil
	}
	s.flushCapture(s.pos)
	err := s.capErr
	s.capW, s.capErr = nil, nil
	return err
}

// Fork returns a Scanner reading the input of s (a Scanner made by
// NewReaderAt, or a fork of one) from offset on, inside the same open
// containers and with the same depth limit, as if NextElement had just
// returned true there: offset must be where an element of the innermost
// array starts. Decoding the rest of a long array on another goroutine,
// from a point found ahead, is what it is for; Resume then skips what the
// fork read. A fork reads nothing until it is used, so a fork made on one
// goroutine can serve as a template to fork again on another. For a
// Scanner without such an input Fork returns nil.
func (s *Scanner) Fork(offset int64) *Scanner {
	if s.at == nil {
		return nil
	}
	f := &Scanner{r: io.NewSectionReader(s.at, offset, s.size-offset), base: offset,
		maxDepth: s.maxDepth, mark: -1, at: s.at, size: s.size}
	f.stack = append(f.stack, s.stack...)
	if top := len(f.stack) - 1; top >= 0 {
		f.stack[top] = inArray
	}
	return f
}

// Resume treats the input from the current position up to offset end as
// consumed and goes on reading at end. The bytes skipped must be the rest
// of the innermost open array, its closing bracket last (a Fork read
// them): the array is closed. It needs an input it can read at any offset
// (NewReaderAt), and refuses while capturing, whose writer would miss the
// skipped bytes.
func (s *Scanner) Resume(end int64) error {
	if s.err != nil {
		return s.err
	}
	top := len(s.stack) - 1
	switch {
	case s.at == nil:
		return errors.New("jsonscan: Resume needs a Scanner made by NewReaderAt")
	case s.capW != nil:
		return errors.New("jsonscan: Resume called while capturing")
	case top < 0 || s.stack[top]&inArray == 0:
		return errors.New("jsonscan: Resume called outside an array")
	case end < s.Offset() || end > s.size:
		return errors.New("jsonscan: Resume called with an offset behind the scanner or past the input")
	}
	s.stack = s.stack[:top]
	s.r, s.base, s.pos, s.end, s.eof, s.mark = io.NewSectionReader(s.at, end, s.size-end), end, 0, 0, false, -1
	return nil
}

// End checks that only whitespace remains: the document is complete, every
// object and array closed, and nothing follows it.
func (s *Scanner) End() error {
	if s.err != nil {
		return s.err
	}
	if len(s.stack) > 0 {
		return fmt.Errorf("jsonscan: End called with %d objects or arrays open", len(s.stack))
	}
	c, ok := s.next()
	if ok {
		return s.syntaxAt(s.pos, "trailing data after the JSON value: found "+describeByte(c))
	}
	return s.err
}
