package format

import "github.com/twice-cli/twice/catalyst/safetext"

// Line sanitizes history text for a single-line field; "-" when empty.
func Line(s string) string {
	if s == "" {
		return "-"
	}
	return safetext.Line(s)
}

func safeLine(s string) string { return safetext.Line(s) }
