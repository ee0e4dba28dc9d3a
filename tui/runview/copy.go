package runview

import (
	"github.com/twice-cli/twice/catalyst/safetext"
	"github.com/twice-cli/twice/tui/format"
)

// NotCopied ends what a refused copy says (the view shows it as an
// error).
const NotCopied = "not copied"

// PlainCopy is what y copies of one value (an id, a name, a file:line):
// the value when it holds no control, bidi or zero-width character, else
// nothing and why not. A copy is pasted into shells: a newline in a
// folder's name would run the next line. (A document, an event's JSON or a
// finding's Markdown, is made of escaped text and keeps its own newlines.)
func PlainCopy(text, what string) (string, string) {
	if safetext.IsSafe(text) {
		return text, what
	}
	return "", what + " holds a control character (" + format.Line(text) + "): " + NotCopied
}
