package format

import (
	"strings"
	"time"

	"github.com/twice-cli/twice/catalyst"
)

// TimeFormat chooses how instants are shown.
type TimeFormat uint8

// Time formats. The zero value is ISO: stable and sortable, what piped
// output prints; a terminal defaults to Relative (the command line decides).
const (
	// ISO shows RFC 3339 in UTC.
	ISO TimeFormat = iota
	// Relative shows how long ago ("2.1h ago").
	Relative
)

// ParseTimeFormat parses "iso" or "relative"; ok is false for anything
// else.
func ParseTimeFormat(s string) (f TimeFormat, ok bool) {
	switch s {
	case "iso":
		return ISO, true
	case "relative":
		return Relative, true
	}
	return ISO, false
}

// String returns "iso" or "relative".
func (f TimeFormat) String() string {
	if f == Relative {
		return "relative"
	}
	return "iso"
}

const (
	isoShort  = "2006-01-02T15:04:05Z07:00"
	isoMillis = "2006-01-02T15:04:05.000Z07:00"
)

// ISOWidth is the width of an instant Instant shows in ISO: a column that
// shows instants is this wide, or hidden, never cut to "2026-11-0…".
const ISOWidth = len("2006-01-02T15:04:05Z")

// Instant shows t in the time format, relative to now, to the second (for
// lists and headers); "-" when t is zero. Relative instants name their
// direction ("3.0s ago", "in 2.0m").
func Instant(t time.Time, f TimeFormat, now time.Time) string {
	if t.IsZero() {
		return "-"
	}
	if f == ISO {
		return t.UTC().Format(isoShort)
	}
	return Ago(now.Sub(t))
}

// When shows t in the time format, relative to now, to the millisecond in
// ISO (for text and Markdown documents, whose instants are compared across
// runs); "-" when t is zero.
func When(t time.Time, f TimeFormat, now time.Time) string {
	if f == ISO {
		return Exact(t)
	}
	return Instant(t, f, now)
}

// Ago says how long ago an instant d before now was ("2.1h ago", "just
// now"), or how far ahead ("in 5.0m") when d is negative.
func Ago(d time.Duration) string {
	switch {
	case d < 0:
		return "in " + Duration(-d)
	case d < time.Second:
		return "just now"
	}
	return Duration(d) + " ago"
}

// Exact shows t in RFC 3339 with milliseconds, in UTC; "-" when zero. The
// detail pane shows exact times whatever the time format.
func Exact(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.UTC().Format(isoMillis)
}

// ExactStamp is Exact for a history's stamp: "never" for a timer that never
// fires, "-" when absent.
func ExactStamp(s catalyst.Stamp) string {
	if s.IsNever() {
		return "never"
	}
	if s.OutOfRange() {
		// Before 1678 or after 2261: the text as given is in the
		// history's OutOfRange notes.
		return OutOfRangeText
	}
	if s.IsZero() {
		return "-"
	}
	return Exact(s.Time())
}

// Offset shows d as a signed offset from a reference instant, in
// Duration's units: "+0s", "+30.52s", "-27.0ms". Times inside a run read
// as offsets from its start (or an invocation's), which stay meaningful
// however long ago the run was.
func Offset(d time.Duration) string {
	if d < 0 {
		return Duration(d)
	}
	return "+" + Duration(d)
}

// QueryText describes a run query in words: "project default, app
// payments, status failed, started since 2026-…"; "all runs" for none.
func QueryText(q catalyst.RunQuery, tf TimeFormat, now time.Time) string {
	var parts []string
	if q.Project != "" {
		parts = append(parts, "project "+Line(q.Project))
	}
	if q.AppID != "" {
		parts = append(parts, "app "+Line(q.AppID))
	}
	if q.Workflow != "" {
		parts = append(parts, "workflow "+Line(q.Workflow))
	}
	if q.Status != "" {
		parts = append(parts, "status "+Line(string(q.Status)))
	}
	if !q.Since.IsZero() {
		parts = append(parts, "started since "+When(q.Since, tf, now))
	}
	if !q.Until.IsZero() {
		parts = append(parts, "started before "+When(q.Until, tf, now))
	}
	if len(parts) == 0 {
		return "all runs"
	}
	return strings.Join(parts, ", ")
}
