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

// StampBefore and StampAfter stand for instants a Stamp cannot hold
// (before 1678, after 2261): a span to one is out of range, never measured
// from a clamped instant. The decoder keeps each one's text as given
// (History.OutOfRange).
const (
	StampBefore Stamp = math.MinInt64 + 1
	StampAfter  Stamp = math.MaxInt64 - 1
)

// StampOf converts a time to a Stamp; the zero time gives the zero Stamp,
// year 9999 StampNever (Dapr's "never fires"), and other instants a Stamp
// cannot hold StampBefore or StampAfter.
func StampOf(t time.Time) Stamp {
	if t.IsZero() {
		return 0
	}
	if t.Year() >= 9999 {
		return StampNever
	}
	if t.Year() >= 2262 {
		return StampAfter
	}
	if t.Year() < 1678 {
		return StampBefore
	}
	return Stamp(t.UnixNano())
}

// OutOfRange reports whether the instant is one a Stamp cannot hold
// (StampBefore, StampAfter).
func (s Stamp) OutOfRange() bool { return s == StampBefore || s == StampAfter }

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

// Sub returns s−o, or 0 when either is absent, never or out of range.
func (s Stamp) Sub(o Stamp) time.Duration {
	if s == 0 || o == 0 || s == StampNever || o == StampNever || s.OutOfRange() || o.OutOfRange() {
		return 0
	}
	return time.Duration(s - o)
}
