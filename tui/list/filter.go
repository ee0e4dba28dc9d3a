package list

import (
	"strings"

	"github.com/twice-cli/twice/catalyst/safetext"
)

// Filter is what a list's rows must match: a query (a case-insensitive
// substring of what the row shows, and of what the pane searches besides)
// and the toggles.
type Filter struct {
	Query string
	// Need are the flags a row must have (the f, r and ! toggles).
	Need Flags
}

// Flags are what the filter's toggles require of a row. A pane sets them
// per row (or decides them in its Select).
type Flags uint8

// The toggles' flags.
const (
	// Failed: a failure (an event, an attempt, a run).
	Failed Flags = 1 << iota
	// Retried: part of a call with more than one attempt.
	Retried
	// Flagged: part of a call with findings.
	Flagged
)

// toggles are the flags with the word the filter's text says for each.
var toggles = [...]struct {
	flag Flags
	word string
}{{Failed, "failed"}, {Retried, "retried"}, {Flagged, "flagged"}}

// Active reports whether the filter hides anything.
func (f Filter) Active() bool { return f.Query != "" || f.Need != 0 }

// Toggle returns f with flag t flipped.
func (f Filter) Toggle(t Flags) Filter {
	f.Need ^= t
	return f
}

// Narrows reports whether every row matching f also matches prev, so f
// can be computed from prev's rows instead of from all rows.
func (f Filter) Narrows(prev Filter) bool {
	return strings.HasPrefix(f.Query, prev.Query) && f.Need&prev.Need == prev.Need
}

// Text describes the filter ("/charge failed"), "" for none.
func (f Filter) Text() string {
	var parts []string
	if f.Query != "" {
		parts = append(parts, "/"+safetext.Line(f.Query))
	}
	for _, t := range toggles {
		if f.Need&t.flag != 0 {
			parts = append(parts, t.word)
		}
	}
	return strings.Join(parts, " ")
}
