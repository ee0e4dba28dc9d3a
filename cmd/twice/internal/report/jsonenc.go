package report

import (
	"io"
	"strconv"
	"time"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/safetext"
	"github.com/twice-cli/twice/detect"
	"github.com/twice-cli/twice/tui/format"
)

// jsonEnc writes JSON by appending to a buffer that is written out in large
// chunks: no reflection, no intermediate values, no second copy. Objects and arrays
// track whether the next member needs a comma with one flag: opening sets
// it to false, every value sets it to true.
type jsonEnc struct {
	w     io.Writer
	buf   []byte
	comma bool
	err   error

	// js writes the model's values (events, payloads, instants) as
	// twice's JSON does everywhere.
	js format.JSON

	// helpers is how many goroutines help encode long arrays, and spare
	// holds their buffers between arrays (jsonpar.go).
	helpers int
	spare   [][]byte
}

func newJSONEnc(w io.Writer) *jsonEnc {
	return &jsonEnc{w: w, buf: make([]byte, 0, 128<<10), helpers: helperCount()}
}

// maybeDrain writes the buffer out once it is large.
func (e *jsonEnc) maybeDrain() {
	if len(e.buf) >= 96<<10 {
		e.drain()
	}
}

// drain writes the buffer out. An encoder without a writer (a helper's,
// see jsonpar.go) keeps everything in its buffer.
func (e *jsonEnc) drain() {
	if e.w == nil {
		return
	}
	if e.err == nil && len(e.buf) > 0 {
		_, e.err = e.w.Write(e.buf)
	}
	e.buf = e.buf[:0]
}

// write writes what the buffer holds, then b, without copying b.
func (e *jsonEnc) write(b []byte) {
	e.drain()
	if e.err == nil && len(b) > 0 {
		_, e.err = e.w.Write(b)
	}
}

func (e *jsonEnc) flush() error {
	e.drain()
	return e.err
}

func (e *jsonEnc) sep() {
	if e.comma {
		e.buf = append(e.buf, ',')
	}
}

// key starts a member; name must be a plain ASCII key.
func (e *jsonEnc) key(name string) {
	e.buf = e.appendKey(name)
	e.comma = false
}

// appendKey returns the buffer with a member's start appended: the comma
// it needs, and name quoted, and the colon. The hot writers work on the
// returned slice, a local the compiler keeps in registers, and store it
// back once.
func (e *jsonEnc) appendKey(name string) []byte {
	b := append(e.appendOpenQuote(), name...)
	return append(b, '"', ':')
}

// appendOpenQuote returns the buffer with the comma the next value needs,
// if any, and a string's opening quote appended.
func (e *jsonEnc) appendOpenQuote() []byte {
	if e.comma {
		return append(e.buf, ',', '"')
	}
	return append(e.buf, '"')
}

func (e *jsonEnc) open(c byte) {
	e.sep()
	e.buf = append(e.buf, c)
	e.comma = false
}

func (e *jsonEnc) close(c byte) {
	e.buf = append(e.buf, c)
	e.comma = true
}

// beginObject starts an object; it is also where the buffer is drained, so
// no loop can grow it without bound.
func (e *jsonEnc) beginObject() {
	if len(e.buf) >= 96<<10 {
		e.drain()
	}
	e.open('{')
}
func (e *jsonEnc) endObject()  { e.close('}') }
func (e *jsonEnc) beginArray() { e.open('[') }
func (e *jsonEnc) endArray()   { e.close(']') }

// str writes untrusted text as an inert JSON string.
func (e *jsonEnc) str(s string) {
	e.sep()
	e.buf = safetext.AppendJSON(e.buf, s)
	e.comma = true
}

// name writes one of twice's own names (an enum's String: a type, a state,
// a class) as a JSON string. Those are plain ASCII without quotes or
// backslashes (TestOwnNamesNeedNoEscaping), so they are copied without
// the scan str does for untrusted text.
func (e *jsonEnc) name(s string) {
	b := append(e.appendOpenQuote(), s...)
	e.buf = append(b, '"')
	e.comma = true
}

// nameField is strField for one of twice's own names (see name).
func (e *jsonEnc) nameField(key, v string) {
	if v != "" {
		b := append(e.appendKey(key), '"')
		b = append(b, v...)
		e.buf = append(b, '"')
		e.comma = true
	}
}

func (e *jsonEnc) int(v int64) {
	b := e.buf
	if e.comma {
		b = append(b, ',')
	}
	e.buf = appendInt(b, v)
	e.comma = true
}

// appendInt is format.AppendInt: base 10, fast for positions, ids and
// counts.
func appendInt(b []byte, v int64) []byte { return format.AppendInt(b, v) }

func (e *jsonEnc) bool(v bool) {
	e.sep()
	e.buf = strconv.AppendBool(e.buf, v)
	e.comma = true
}

// millis writes a duration in milliseconds, with microsecond precision.
func (e *jsonEnc) millis(d time.Duration) {
	e.sep()
	us := int64(d / time.Microsecond)
	e.buf = strconv.AppendInt(e.buf, us/1000, 10)
	if frac := us % 1000; frac != 0 {
		if frac < 0 {
			frac = -frac
		}
		e.buf = append(e.buf, '.', byte('0'+frac/100), byte('0'+frac/10%10), byte('0'+frac%10))
		for e.buf[len(e.buf)-1] == '0' {
			e.buf = e.buf[:len(e.buf)-1]
		}
	}
	e.comma = true
}

// Members that are omitted when absent.

func (e *jsonEnc) strField(name, v string) {
	if v != "" {
		e.buf = safetext.AppendJSON(e.appendKey(name), v)
		e.comma = true
	}
}

// factField writes a finding's fact as format.Fact words it (omitted
// when it has no words).
func (e *jsonEnc) factField(name string, f detect.Fact) {
	if f.Text != "" || f.Kind != detect.MeasureNone {
		e.buf = format.AppendFactJSON(e.appendKey(name), f)
		e.comma = true
	}
}

func (e *jsonEnc) intField(name string, v int64) {
	e.buf = appendInt(e.appendKey(name), v)
	e.comma = true
}

func (e *jsonEnc) boolField(name string, v bool) {
	if v {
		e.key(name)
		e.bool(true)
	}
}

func (e *jsonEnc) timeField(name string, t time.Time) {
	if !t.IsZero() {
		e.key(name)
		e.sep()
		e.buf = append(e.buf, '"')
		e.buf = t.UTC().AppendFormat(e.buf, time.RFC3339Nano)
		e.buf = append(e.buf, '"')
		e.comma = true
	}
}

func (e *jsonEnc) stampField(name string, s catalyst.Stamp) {
	if s.IsZero() {
		return
	}
	e.key(name)
	e.stamp(s)
}

func (e *jsonEnc) millisField(name string, d time.Duration) {
	if d != 0 {
		e.key(name)
		e.millis(d)
	}
}

// spanFields writes a span the history measured: its duration (left out
// when 0, as millisField does) and, when the source's times are not exact,
// errName: how far the span may be off either way (1000 for a span known
// only between whole-second printed times, less for one rebuilt from the
// Dapr CLI's elapsed column).
func (e *jsonEnc) spanFields(name, errName string, sp catalyst.Span) {
	e.millisField(name, sp.D)
	if !sp.Exact() {
		e.key(errName)
		e.millis(sp.Err)
	}
}

// stamp writes an instant as RFC 3339 in UTC with nanoseconds (format.JSON).
func (e *jsonEnc) stamp(s catalyst.Stamp) {
	e.sep()
	e.comma = true
	e.buf = e.js.AppendStamp(e.buf, s)
}

// payloadBody writes a payload's members: its state and, when present,
// its text (format.JSON).
func (e *jsonEnc) payloadBody(p catalyst.Payload) {
	e.sep()
	e.comma = true
	e.buf = e.js.AppendPayload(e.buf, p)
}

// event writes an event object (format.JSON); it is where the buffer is
// drained, as beginObject is.
func (e *jsonEnc) event(ev *catalyst.Event) {
	if len(e.buf) >= 96<<10 {
		e.drain()
	}
	e.sep()
	e.comma = true
	e.buf = e.js.AppendEvent(e.buf, ev)
}
