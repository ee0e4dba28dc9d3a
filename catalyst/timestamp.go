package catalyst

import (
	"encoding/binary"
	"time"
)

// parseStamp parses an RFC 3339 timestamp as histories write it
// ("2026-08-20T09:14:03.201Z", any fraction length, "Z" or "±hh:mm"). The
// common fixed layout is parsed directly; anything else goes through
// time.Parse. Year 9999 gives StampNever (Dapr's "never fires" sentinel),
// other instants a Stamp cannot hold StampBefore or StampAfter; ok is
// false when b is not an RFC 3339 time.
func parseStamp(b []byte) (st Stamp, ok bool) {
	if st, ok = parseStampFast(b); ok {
		return st, true
	}
	t, err := time.Parse(time.RFC3339Nano, string(b))
	if err != nil {
		return 0, false
	}
	if t.Year() == 9999 {
		return StampNever, true
	}
	return StampOf(t), true
}

// parseStampFast parses YYYY-MM-DDTHH:MM:SS[.fraction](Z|±hh:mm) without the
// time package; ok is false for any other shape (the caller falls back).
func parseStampFast(b []byte) (Stamp, bool) {
	if !fixedLayout(b) {
		return 0, false
	}
	days, year, ok := parseDate(b)
	if !ok {
		return 0, false
	}
	return stampOn(b, days, year)
}

// fixedLayout reports whether b has the separators of
// YYYY-MM-DDTHH:MM:SS and room for a zone after them.
func fixedLayout(b []byte) bool {
	return len(b) >= 20 && b[4] == '-' && b[7] == '-' && b[10] == 'T' && b[13] == ':' && b[16] == ':'
}

// parseDate reads the YYYY-MM-DD that starts b (a fixedLayout): the days
// from 1970-01-01 to it and its year; ok is false for a date that does not
// exist.
func parseDate(b []byte) (days int64, year int, ok bool) {
	y1, y2 := two(b, 0), two(b, 2)
	month, day := two(b, 5), two(b, 8)
	year = y1*100 + y2
	// two returns 100 or more for a non-digit, which every range check catches.
	if y1 > 99 || y2 > 99 || month < 1 || month > 12 || day < 1 || day > daysIn(month, year) {
		return 0, 0, false
	}
	return daysFromCivil(year, month, day), year, true
}

// stampOn reads the rest of b (a fixedLayout whose date is days after
// 1970-01-01, in year): the time of day, the fraction and the zone.
func stampOn(b []byte, days int64, year int) (Stamp, bool) {
	hour, minute, sec := two(b, 11), two(b, 14), two(b, 17)
	if hour > 23 || minute > 59 || sec > 59 {
		return 0, false
	}
	i := 19
	var nanos int64
	if b[i] == '.' {
		// The fraction's first nine digits are the nanoseconds (any
		// further ones are cut, as time.Parse does).
		i++
		start := i
		if len(b)-i >= 8 {
			// Most fractions have all nine digits: the first eight at once.
			if v, ok := eightDigits(binary.LittleEndian.Uint64(b[i:])); ok {
				nanos, i = int64(v), i+8
			}
		}
		for ; i < len(b); i++ {
			c := uint(b[i]) - '0'
			if c > 9 {
				break
			}
			if i-start < 9 {
				nanos = nanos*10 + int64(c)
			}
		}
		if i == start {
			return 0, false
		}
		for n := i - start; n < 9; n++ {
			nanos *= 10
		}
	}
	var offset int
	switch {
	case i == len(b)-1 && b[i] == 'Z':
	case i == len(b)-6 && (b[i] == '+' || b[i] == '-') && b[i+3] == ':':
		oh, om := two(b, i+1), two(b, i+4)
		if oh > 23 || om > 59 {
			return 0, false
		}
		offset = oh*3600 + om*60
		if b[i] == '-' {
			offset = -offset
		}
	default:
		return 0, false
	}
	if year == 9999 {
		return StampNever, true
	}
	if year >= 2262 {
		return StampAfter, true
	}
	if year < 1678 {
		return 0, false // before what a Stamp holds: StampOf decides
	}
	secs := days*86400 + int64(hour*3600+minute*60+sec-offset)
	return Stamp(secs*1e9 + nanos), true
}

// eightDigits reads w, eight bytes in memory order, as an eight-digit
// decimal number; ok is false unless every byte is an ASCII digit.
func eightDigits(w uint64) (v uint32, ok bool) {
	const zeros, highs = 0x3030303030303030, 0xF0F0F0F0F0F0F0F0
	if w&highs != zeros || (w+0x0606060606060606)&highs != zeros {
		return 0, false
	}
	w -= zeros
	// Pairs of digits, then pairs of pairs: the first byte is the most
	// significant digit.
	w = w*10 + w>>8
	w = ((w&0x000000FF000000FF)*(100+1000000<<32) + (w>>16&0x000000FF000000FF)*(1+10000<<32)) >> 32
	return uint32(w), true
}

// stampParser is parseStamp with a memory of the last date it read: the
// timestamps of a history mostly share their date, and a decoder (one per
// goroutine) reads them all through one.
type stampParser struct {
	date [10]byte
	days int64
	year int
	has  bool
}

// parse is parseStamp(b).
func (p *stampParser) parse(b []byte) (Stamp, bool) {
	if !fixedLayout(b) {
		return parseStamp(b)
	}
	if !p.has || string(b[:10]) != string(p.date[:]) {
		days, year, ok := parseDate(b)
		if !ok {
			return parseStamp(b)
		}
		copy(p.date[:], b[:10])
		p.days, p.year, p.has = days, year, true
	}
	if st, ok := stampOn(b, p.days, p.year); ok {
		return st, true
	}
	return parseStamp(b)
}

// two parses the two ASCII digits at b[i:i+2], or returns a value of 100 or
// more when either is not a digit.
func two(b []byte, i int) int {
	hi, lo := uint(b[i])-'0', uint(b[i+1])-'0'
	if hi > 9 || lo > 9 {
		return 100
	}
	return int(hi*10 + lo)
}

func daysIn(month, year int) int {
	switch month {
	case 2:
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// daysFromCivil returns the days from 1970-01-01 to the given proleptic
// Gregorian date (year ≥ 0).
func daysFromCivil(year, month, day int) int64 {
	y := int64(year)
	if month <= 2 {
		y--
	}
	era := y / 400
	yoe := y - era*400
	m := int64(month)
	if m > 2 {
		m -= 3
	} else {
		m += 9
	}
	doy := (153*m+2)/5 + int64(day) - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}
