package catalyst

import "time"

// The Dapr CLI prints each row's time truncated to the second, but beside
// it the time since the row above, measured between the engine's exact
// times and printed by HumanizeDuration (dapr/cli v1.16.3 to v1.18.0,
// utils/utils.go; the row code is pkg/workflow/history.go): "" for zero,
// "%dns" under a microsecond, "%.1fµs" under a millisecond, "%.1fms" under
// a second, "%.2fs" under a minute, then "%.1fm" and "%.1fh". A negative
// difference is printed as its size. The first row has "Age:" and the time
// since it was recorded, which depends on when the CLI ran.

// elapsedCode is one row's elapsed as printed, in four bytes (it is kept
// in the row's Event until the rows' times are rebuilt, in what would be
// padding): a whole number of the printed quantum (the last digit's unit:
// 1ns for "%dns", 100ns for "%.1fµs", 100µs for "%.1fms", 10ms for
// "%.2fs") and the quantum's power of ten, plus one, in the low
// elapsedExpBits bits. elapsedNone is a row whose elapsed says nothing
// usable for a span: missing, the first row's "Age:", text that is not a
// duration, or minutes and hours, whose ±3 s and ±3 min are coarser than
// the row's own whole second.
type elapsedCode uint32

const (
	elapsedNone elapsedCode = 0
	// elapsedExpBits holds the quantum's power of ten, plus one (so that
	// no readable value is elapsedNone).
	elapsedExpBits = 4
	// elapsedMaxDigits bounds the digits read so that the number fits the
	// code's other 28 bits (the CLI prints at most five).
	elapsedMaxDigits = 8
)

// parseElapsed reads a row's elapsed: a decimal number and one of the units
// ns, µs (or us), ms and s, with any number of decimals (hand-made rows
// write "748ms"; the quantum follows the digits printed). "" is zero: the
// CLI prints nothing for two rows at the same instant. It runs once per
// row of a history of up to millions: one pass, no allocation.
func parseElapsed(b []byte) elapsedCode {
	n := len(b)
	if n == 0 {
		return elapsedCode(1) // 0 ns, exact
	}
	// The unit, from the end: s, ms, ns, µs (two bytes), us.
	if n < 2 || b[n-1] != 's' {
		return elapsedNone // "m", "h", "Age:…", anything else
	}
	unitExp, num := 9, b[:n-1]
	switch c := b[n-2]; {
	case c == 'm':
		unitExp, num = 6, b[:n-2]
	case c == 'n':
		unitExp, num = 0, b[:n-2]
	case c == 'u':
		unitExp, num = 3, b[:n-2]
	case c == 0xb5 && n >= 3 && b[n-3] == 0xc2: // µ
		unitExp, num = 3, b[:n-3]
	}
	// Digits, then at most one dot and more digits.
	var mant uint64
	i := 0
	for ; i < len(num) && num[i]-'0' <= 9; i++ {
		mant = mant*10 + uint64(num[i]-'0')
	}
	whole := i
	decimals := 0
	if i < len(num) && num[i] == '.' {
		i++
		for ; i < len(num) && num[i]-'0' <= 9; i++ {
			mant = mant*10 + uint64(num[i]-'0')
		}
		decimals = i - whole - 1
		if decimals == 0 {
			return elapsedNone
		}
	}
	if i != len(num) || whole == 0 || whole+decimals > elapsedMaxDigits {
		return elapsedNone
	}
	exp := unitExp - decimals
	for ; exp < 0; exp++ {
		// Finer than a nanosecond: keep whole nanoseconds (the CLI never
		// prints these).
		mant /= 10
	}
	return elapsedCode(mant<<elapsedExpBits | uint64(exp+1))
}

// pow10s holds 0 (for elapsedNone), then 10^0 to 10^9, four bytes each,
// little-endian; halfQuanta the error of a value printed to each quantum:
// 0, then 0 for whole nanoseconds, and half the quantum plus a nanosecond
// for the float formatting (6, 51, 501, …). Tables that cost a load, and
// constants: value runs for every row, twice, and is inlined.
const (
	pow10s = "\x00\x00\x00\x00" +
		"\x01\x00\x00\x00\x0a\x00\x00\x00\x64\x00\x00\x00\xe8\x03\x00\x00\x10\x27\x00\x00" +
		"\xa0\x86\x01\x00\x40\x42\x0f\x00\x80\x96\x98\x00\x00\xe1\xf5\x05\x00\xca\x9a\x3b"
	halfQuanta = "\x00\x00\x00\x00" +
		"\x00\x00\x00\x00\x06\x00\x00\x00\x33\x00\x00\x00\xf5\x01\x00\x00\x89\x13\x00\x00" +
		"\x51\xc3\x00\x00\x21\xa1\x07\x00\x41\x4b\x4c\x00\x81\xf0\xfa\x02\x01\x65\xcd\x1d"
)

// value returns the elapsed and how far it may be from the exact difference
// the CLI measured: half the printed quantum, plus a nanosecond for the
// float formatting, or 0 for a whole number of nanoseconds. ok is false
// for elapsedNone.
func (c elapsedCode) value() (d, err time.Duration, ok bool) {
	return time.Duration(c.ns()), time.Duration(c.err()), c != elapsedNone
}

// ns is value's d, in nanoseconds (0 for elapsedNone). It and err are
// each small enough to be inlined in the loops over every row.
func (c elapsedCode) ns() int64 {
	e := uint(c&(1<<elapsedExpBits-1)) * 4 // (exp+1)*4: the tables have an entry for none
	return int64(c>>elapsedExpBits) * int64(uint32(pow10s[e])|uint32(pow10s[e+1])<<8|uint32(pow10s[e+2])<<16|uint32(pow10s[e+3])<<24)
}

// err is value's err, in nanoseconds.
func (c elapsedCode) err() int64 {
	e := uint(c&(1<<elapsedExpBits-1)) * 4
	return int64(uint32(halfQuanta[e]) | uint32(halfQuanta[e+1])<<8 | uint32(halfQuanta[e+2])<<16 | uint32(halfQuanta[e+3])<<24)
}
