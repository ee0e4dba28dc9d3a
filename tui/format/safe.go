package format

import (
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"github.com/twice-cli/twice/catalyst/safetext"
)

// Line sanitizes history text for a single-line field; "-" when empty.
func Line(s string) string {
	if s == "" {
		return "-"
	}
	return safetext.Line(s)
}

func safeLine(s string) string { return safetext.Line(s) }

// Clip sanitizes history text for one line and cuts it to n columns,
// followed by "…" when it was cut (so at most n+1 columns). It is the one
// cut of raw text twice has, for a message, a description or a payload on a
// row: a megabyte-long text costs what its first few hundred bytes do,
// since only about 4n of them are read.
func Clip(s string, n int) string {
	n = max(n, 0)
	cut := false
	if long := 4*n + 16; len(s) > long {
		// No character is wider than four bytes: these hold more than n.
		for long > 0 && !utf8.RuneStart(s[long]) {
			long--
		}
		s, cut = s[:long], true
	}
	s = safetext.Line(s)
	if !cut && Width(s) <= n {
		return s
	}
	return ansi.Truncate(s, n, "") + "…"
}
