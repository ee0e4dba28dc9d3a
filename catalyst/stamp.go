package catalyst

import (
	"math"
	"time"
)

// Stamp is an instant in a history, in nanoseconds since the Unix epoch (UTC).
// The zero Stamp means the instant is absent. It is eight bytes where a
// time.Time is twenty-four, which matters on histories of a million events.
type Stamp int64

// StampNever is the fireAt of a timer that never fires: Dapr ≥1.18 writes
// "9999-12-31T23:59:59.999999999Z" for an indefinite wait, and any instant
// beyond what a Stamp can hold (after 2262) is stored as StampNever too.
const StampNever Stamp = math.MaxInt64

// StampOf converts a time to a Stamp; the zero time gives the zero Stamp, and
// instants after 2262 give StampNever.
func StampOf(t time.Time) Stamp {
	if t.IsZero() {
		return 0
	}
	if t.Year() >= 2262 {
		return StampNever
	}
	if t.Year() < 1678 {
		return Stamp(math.MinInt64 + 1)
	}
	return Stamp(t.UnixNano())
}

// IsZero reports whether the instant is absent.
func (s Stamp) IsZero() bool { return s == 0 }

// IsNever reports whether the instant is a timer's "never fires" sentinel.
func (s Stamp) IsNever() bool { return s == StampNever }

// Time returns the instant as a UTC time, or the zero time when absent.
// StampNever returns 9999-12-31T23:59:59.999999999Z.
func (s Stamp) Time() time.Time {
	switch s {
	case 0:
		return time.Time{}
	case StampNever:
		return time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC)
	}
	return time.Unix(0, int64(s)).UTC()
}

// Sub returns s−o, or 0 when either is absent or never.
func (s Stamp) Sub(o Stamp) time.Duration {
	if s == 0 || o == 0 || s == StampNever || o == StampNever {
		return 0
	}
	return time.Duration(s - o)
}
