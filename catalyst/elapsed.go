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

// elapsedCode is one row's elapsed as printed: a whole number of the
// printed quantum (the last digit's unit: 1ns for "%dns", 100ns for
// "%.1fµs", 100µs for "%.1fms", 10ms for "%.2fs") and the quantum's power
// of ten, in nanoseconds. elapsedNone is a row whose elapsed says nothing
// usable for a span: missing, the first row's "Age:", text that is not a
// duration, or minutes and hours, whose ±3 s and ±3 min are coarser than
// the row's own whole second.
type elapsedCode uint32

const (
	elapsedNone elapsedCode = 0
	// elapsedExpBits holds the quantum's power of ten, plus one (so that
	// no readable value is elapsedNone).
	elapsedExpBits = 4
	// elapsedMaxMantissa keeps the mantissa in the code's other bits.
	elapsedMaxMantissa = 1<<(32-elapsedExpBits) - 1
)

// parseElapsed reads a row's elapsed: a decimal number and one of the units
// ns, µs (or us), ms and s, with any number of decimals (hand-made rows
// write "748ms"; the quantum follows the digits printed). "" is zero: the
// CLI prints nothing for two rows at the same instant.
func parseElapsed(b []byte) elapsedCode {
	if len(b) == 0 {
		return elapsedCode(1) // 0 × 10^0 ns
	}
	var mant uint64
	digits, decimals, dot := 0, 0, false
	i := 0
	for ; i < len(b); i++ {
		c := b[i]
		switch {
		case c >= '0' && c <= '9':
			if mant > elapsedMaxMantissa/10 {
				return elapsedNone
			}
			mant = mant*10 + uint64(c-'0')
			digits++
			if dot {
				decimals++
			}
			continue
		case c == '.' && !dot && digits > 0:
			dot = true
			continue
		}
		break
	}
	if digits == 0 || (dot && decimals == 0) || mant > elapsedMaxMantissa {
		return elapsedNone
	}
	var unitExp int // the unit's power of ten in nanoseconds
	switch string(b[i:]) {
	case "ns":
		unitExp = 0
	case "µs", "us":
		unitExp = 3
	case "ms":
		unitExp = 6
	case "s":
		unitExp = 9
	default:
		// "m" and "h" (±3 s and ±3 min), "Age:…", anything else.
		return elapsedNone
	}
	exp := unitExp - decimals
	if exp < 0 {
		// Finer than a nanosecond: keep whole nanoseconds (the CLI never
		// prints these).
		for ; exp < 0; exp++ {
			mant /= 10
		}
	}
	if exp > 9 {
		return elapsedNone
	}
	return elapsedCode(mant<<elapsedExpBits | uint64(exp+1))
}

// pow10 returns 10^e nanoseconds.
func pow10(e int) int64 {
	q := int64(1)
	for range e {
		q *= 10
	}
	return q
}

// value returns the elapsed and how far it may be from the exact difference
// the CLI measured: half the printed quantum, plus a nanosecond for the
// float formatting, or 0 for a whole number of nanoseconds. ok is false
// for elapsedNone.
func (c elapsedCode) value() (d, err time.Duration, ok bool) {
	if c == elapsedNone {
		return 0, 0, false
	}
	exp := int(c&(1<<elapsedExpBits-1)) - 1
	if exp < 0 || exp > 9 {
		return 0, 0, false
	}
	q := pow10(exp)
	d = time.Duration(int64(c>>elapsedExpBits) * q)
	if exp > 0 {
		err = time.Duration(q/2 + 1)
	}
	return d, err, true
}
