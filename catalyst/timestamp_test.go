package catalyst

import (
	"encoding/binary"
	"math/rand/v2"
	"strconv"
	"testing"
	"time"
)

func TestParseStamp(t *testing.T) {
	tests := []struct {
		in   string
		want Stamp
		ok   bool
	}{
		{"2026-08-20T09:14:03.201Z", StampOf(time.Date(2026, 8, 20, 9, 14, 3, 201e6, time.UTC)), true},
		{"2026-08-20T09:14:03Z", StampOf(time.Date(2026, 8, 20, 9, 14, 3, 0, time.UTC)), true},
		{"2026-08-20T09:14:03.123456789Z", StampOf(time.Date(2026, 8, 20, 9, 14, 3, 123456789, time.UTC)), true},
		{"2026-08-20T09:14:03.5+02:00", StampOf(time.Date(2026, 8, 20, 7, 14, 3, 5e8, time.UTC)), true},
		{"2026-08-20T09:14:03-05:30", StampOf(time.Date(2026, 8, 20, 14, 44, 3, 0, time.UTC)), true},
		{"2024-02-29T00:00:00Z", StampOf(time.Date(2024, 2, 29, 0, 0, 0, 0, time.UTC)), true},
		{"1969-12-31T23:59:59.9Z", StampOf(time.Date(1969, 12, 31, 23, 59, 59, 9e8, time.UTC)), true},
		// Dapr's "never fires" sentinel, and anything past what a Stamp holds.
		{"9999-12-31T23:59:59.999999999Z", StampNever, true},
		{"2300-01-01T00:00:00Z", StampAfter, true},
		{"1500-01-01T00:00:00Z", StampBefore, true},
		// Lower-case t and z: not the fast layout, and time.Parse rejects them too.
		{"2026-08-20t09:14:03z", 0, false},
		{"2026-02-30T00:00:00Z", 0, false},
		{"2026-08-20T24:00:00Z", 0, false},
		{"2026-08-20T09:14:03", 0, false},
		{"2026-08-20T09:14:03.Z", 0, false},
		{"2026-08-20 09:14:03Z", 0, false},
		{"yesterday", 0, false},
		{"", 0, false},
	}
	for _, tt := range tests {
		got, ok := parseStamp([]byte(tt.in))
		if ok != tt.ok || got != tt.want {
			t.Errorf("parseStamp(%q) = %v (%v), %v; want %v (%v), %v", tt.in, got, got.Time(), ok, tt.want, tt.want.Time(), tt.ok)
		}
	}
}

// The fast path agrees with time.Parse on random instants and layouts.
func TestParseStampAgreesWithTimeParse(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	layouts := []string{time.RFC3339, time.RFC3339Nano, "2006-01-02T15:04:05.000Z07:00", "2006-01-02T15:04:05.000000Z07:00"}
	for i := 0; i < 20000; i++ {
		sec := rng.Int64N(int64(290*365*24*time.Hour/time.Second)) - int64(100*365*24*time.Hour/time.Second)
		loc := time.FixedZone("", (rng.IntN(28*4)-14*4)*15*60)
		tm := time.Unix(sec, rng.Int64N(1e9)).In(loc)
		s := tm.Format(layouts[rng.IntN(len(layouts))])
		want, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := parseStampFast([]byte(s))
		if !ok || got != StampOf(want) {
			t.Fatalf("parseStampFast(%q) = %v, %v; time.Parse gives %v", s, got.Time(), ok, want)
		}
	}
	// Fractions longer than nanoseconds are cut, not rounded.
	for _, s := range []string{"2026-08-20T09:14:03.1234567891Z", "2026-08-20T09:14:03.999999999999+02:00", "2026-08-20T09:14:03.000000000500Z"} {
		want, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			t.Fatal(err)
		}
		if got, ok := parseStampFast([]byte(s)); !ok || got != StampOf(want) {
			t.Errorf("parseStampFast(%q) = %v, %v; time.Parse gives %v", s, got.Time(), ok, want)
		}
	}
}

// A stampParser gives what parseStamp gives, whatever came before: its
// remembered date is used only for a timestamp on that same date.
func TestStampParserAgreesWithParseStamp(t *testing.T) {
	inputs := []string{
		"2026-08-20T09:14:03.201Z",
		"2026-08-20T09:14:04Z",
		"2026-08-20T23:59:59.999999999+02:00",
		"2026-08-20T25:00:00Z", // the remembered date, an impossible hour
		"2026-08-20T09:14:03.Z",
		"2026-08-20T09:14:03",
		"2026-08-21T00:00:00Z",
		"2026-02-30T00:00:00Z", // a date that does not exist
		"2026-08-21T00:00:00.5-07:00",
		"2024-02-29T12:00:00Z",
		"9999-12-31T23:59:59Z",
		"1600-01-01T00:00:00Z",
		"2026-08-21 00:00:00Z",
		"not a time at all",
		"2026-08-21T00:00:00.123456789123Z",
	}
	rng := rand.New(rand.NewPCG(5, 6))
	var p stampParser
	for i := range 5000 {
		s := inputs[rng.IntN(len(inputs))]
		if i < len(inputs) {
			s = inputs[i]
		}
		got, gotOK := p.parse([]byte(s))
		want, wantOK := parseStamp([]byte(s))
		if got != want || gotOK != wantOK {
			t.Fatalf("after %d inputs, parse(%q) = %v, %v; parseStamp gives %v, %v", i, s, got, gotOK, want, wantOK)
		}
	}
}

// eightDigits reads every run of eight ASCII digits as strconv does, and
// refuses any run with a byte that is not a digit (the bytes next to '0'
// and '9' included).
func TestEightDigits(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for i := range 20000 {
		var b [8]byte
		for j := range b {
			b[j] = byte('0' + rng.IntN(10))
		}
		if i == 0 {
			b = [8]byte{'0', '0', '0', '0', '0', '0', '0', '0'}
		} else if i == 1 {
			b = [8]byte{'9', '9', '9', '9', '9', '9', '9', '9'}
		}
		want, _ := strconv.Atoi(string(b[:]))
		got, ok := eightDigits(binary.LittleEndian.Uint64(b[:]))
		if !ok || int(got) != want {
			t.Fatalf("eightDigits(%q) = %d, %v; want %d", b, got, ok, want)
		}
		for _, bad := range []byte{'/', ':', ' ', '.', 'Z', 0x80 + '5', 0} {
			c := b
			c[rng.IntN(8)] = bad
			if _, ok := eightDigits(binary.LittleEndian.Uint64(c[:])); ok {
				t.Fatalf("eightDigits(%q) accepted a non-digit", c)
			}
		}
	}
}
