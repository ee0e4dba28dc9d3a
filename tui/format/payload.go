package format

import (
	"strings"
	"unicode/utf8"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/safetext"
)

// PayloadShowBytes caps how much of one payload or stack trace the detail
// pane shows; the rest is summarised in a line saying how much was left out.
const PayloadShowBytes = 16 << 10

// PayloadLine describes a payload on one line: its text, sanitized and cut
// to n columns (then "…"), or the words for why there is none. A withheld
// payload is named as withheld at the data-sharing level, never shown as
// empty.
func PayloadLine(p catalyst.Payload, d catalyst.DataSharing, n int) string {
	if !p.Has() {
		// The words embed the reported level, which is source text too.
		return safetext.Line(d.PayloadText(p))
	}
	return Clip(p.Text(), n)
}

// PayloadCell is a payload in a table's cell (DETAILS): PayloadLine, but a
// withheld payload says only "withheld" — the table says once, in its
// heading or legend, what withheld means (WithheldLegend), rather than on
// every row.
func PayloadCell(p catalyst.Payload, d catalyst.DataSharing, n int) string {
	if p.State == catalyst.PayloadWithheld {
		return WithheldWord
	}
	return PayloadLine(p, d, n)
}

// WithheldWord is a withheld payload in a table's cell.
const WithheldWord = "withheld"

// WithheldLegend says once, for a table whose cells say WithheldWord, what
// it means: "withheld: not shared at this organization's data-sharing
// level (metadata)", naming the level (or that it was not reported).
func WithheldLegend(d catalyst.DataSharing) string {
	return safetext.Line(d.WithheldText())
}

// PayloadBlock returns the lines the detail pane shows for a payload: the
// text, pretty-printed when it is valid JSON, sanitized for a multi-line
// pane, with tabs expanded; or one line with the payload's mark (withheld at
// the named level, redacted, empty, not requested, none).
func PayloadBlock(p catalyst.Payload, d catalyst.DataSharing) []string {
	if !p.Has() {
		return []string{"‹" + d.PayloadText(p) + "›"}
	}
	text := p.Text()
	pretty, shown, ok := prettyJSON(text, PayloadShowBytes)
	if !ok {
		return TextBlock(text)
	}
	lines := BlockLines(pretty)
	if shown < len(text) {
		lines = append(lines, "… "+ShownOf(shown, len(text)))
	}
	return lines
}

// TextBlock returns multi-line history text (a stack trace, a payload) as
// sanitized lines with tabs expanded, showing at most PayloadShowBytes and
// saying how much of how much it showed.
func TextBlock(text string) []string {
	total, cut := len(text), false
	if len(text) > PayloadShowBytes {
		n := PayloadShowBytes
		for n > 0 && !utf8.RuneStart(text[n]) {
			n--
		}
		text, cut = text[:n], true
	}
	lines := BlockLines(text)
	if cut {
		lines = append(lines, "… "+ShownOf(len(text), total))
	}
	return lines
}

// BlockLines returns multi-line history text as sanitized lines with
// tabs expanded, all of it (TextBlock caps it).
func BlockLines(text string) []string {
	return strings.Split(ExpandTabs(safetext.Block(strings.TrimRight(text, "\n"))), "\n")
}
