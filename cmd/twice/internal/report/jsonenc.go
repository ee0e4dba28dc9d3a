package report

import (
	"io"
	"strconv"
	"time"
	"unsafe"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/safetext"
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

	// day and date cache the "2006-01-02T" of the last day formatted: the
	// instants of a run mostly share it.
	day  int64
	date [11]byte

	// text holds a payload's unquoted text while it is written.
	text []byte

	// helpers is how many goroutines help encode long arrays, and spare
	// holds their buffers between arrays (jsonpar.go).
	helpers int
	spare   [][]byte
}

func newJSONEnc(w io.Writer) *jsonEnc {
	return &jsonEnc{w: w, buf: make([]byte, 0, 128<<10), day: -1 << 62, helpers: helperCount()}
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

// appendInt is strconv.AppendInt in base 10, faster for what the report
// holds most: positions, ids and counts from 0 to 99,999,999, written two
// digits at a time straight from digitPairs.
func appendInt(b []byte, v int64) []byte {
	if v < 0 || v >= 100_000_000 {
		return strconv.AppendInt(b, v, 10)
	}
	var d [8]byte
	i := len(d)
	for v >= 100 {
		p := 2 * (v % 100)
		v /= 100
		i -= 2
		d[i], d[i+1] = digitPairs[p], digitPairs[p+1]
	}
	if v >= 10 {
		i -= 2
		d[i], d[i+1] = digitPairs[2*v], digitPairs[2*v+1]
	} else {
		i--
		d[i] = byte('0' + v)
	}
	return append(b, d[i:]...)
}

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

// digitPairs holds "00" to "99": the two digits of n < 100 are at 2n.
const digitPairs = "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"

// stamp writes an instant as RFC 3339 in UTC with nanoseconds (trailing
// zeros trimmed, as time.RFC3339Nano does), fast: the date is formatted
// once per day, the time of day and the fraction two digits at a time.
func (e *jsonEnc) stamp(s catalyst.Stamp) {
	e.sep()
	e.comma = true
	ns := int64(s)
	if ns < 0 || s.IsNever() {
		e.buf = append(e.buf, '"')
		e.buf = s.Time().AppendFormat(e.buf, time.RFC3339Nano)
		e.buf = append(e.buf, '"')
		return
	}
	sec, frac := ns/1e9, ns%1e9
	day, tod := sec/86400, sec%86400
	if day != e.day {
		e.day = day
		e.date = dateText(day)
	}
	// The whole string is built in place and appended once:
	// "2006-01-02T15:04:05.999999999Z" and its quotes are 32 bytes.
	var out [32]byte
	out[0] = '"'
	*(*[11]byte)(out[1:12]) = e.date
	// Unsigned 32-bit arithmetic from here: both fit, and dividing by a
	// constant is cheapest so.
	t := uint32(tod)
	h, m, sc := 2*(t/3600), 2*(t/60%60), 2*(t%60)
	out[12], out[13], out[14] = digitPairs[h], digitPairs[h+1], ':'
	out[15], out[16], out[17] = digitPairs[m], digitPairs[m+1], ':'
	out[18], out[19] = digitPairs[sc], digitPairs[sc+1]
	n := 20
	if f := uint32(frac); f != 0 {
		// ".123456789" at out[20:30]: the last eight digits in pairs,
		// then the first; trailing zeros trimmed.
		for i := 28; i >= 22; i -= 2 {
			p := 2 * (f % 100)
			f /= 100
			out[i], out[i+1] = digitPairs[p], digitPairs[p+1]
		}
		out[20], out[21] = '.', byte('0'+f)
		n = 30
		for out[n-1] == '0' {
			n--
		}
	}
	out[n], out[n+1] = 'Z', '"'
	e.buf = append(e.buf, out[:n+2]...)
}

// payload writes a payload object: its state and, when present, its text.
// A payload kept in its wire form is copied as it is when that is already
// inert (printable ASCII without \u escapes), skipping the unquote.
func (e *jsonEnc) payloadBody(p catalyst.Payload) {
	e.key("state")
	e.name(p.State.String())
	if !p.Has() {
		return
	}
	e.key("value")
	if lit, ok := p.WireLiteral(); ok && safetext.InertJSONLiteral(lit) {
		e.sep()
		e.buf = append(e.buf, lit...)
		e.comma = true
		return
	}
	// Unquoted into a buffer the encoder keeps, not a new string each time;
	// the string view of it is used only by this call, before the buffer
	// is written again.
	e.text = p.AppendText(e.text[:0])
	e.str(unsafe.String(unsafe.SliceData(e.text), len(e.text)))
}

// dateText is "2006-01-02T" for the day days after the Unix epoch
// (days ≥ 0), using the days-to-civil algorithm of the proleptic Gregorian
// calendar (H. Hinnant), which time.Format would do more slowly.
func dateText(days int64) (text [11]byte) {
	z := days + 719468
	era := z / 146097
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	y := yoe + era*400
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d := doy - (153*mp+2)/5 + 1
	m := mp + 3
	if m > 12 {
		m -= 12
	}
	if m <= 2 {
		y++
	}
	two := func(at int, v int64) { text[at], text[at+1] = byte('0'+v/10), byte('0'+v%10) }
	two(0, y/100)
	two(2, y%100)
	text[4] = '-'
	two(5, m)
	text[7] = '-'
	two(8, d)
	text[10] = 'T'
	return text
}
