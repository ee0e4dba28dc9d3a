package format

import (
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/twice-cli/twice/catalyst/jsonscan"
)

// prettyValidMax is the largest payload checked for being JSON before it
// is pretty-printed; a larger one is shown as it is (its first
// PayloadShowBytes), so selecting a row never waits on a huge document.
const prettyValidMax = 1 << 20

// cutSlack is how far before the limit a cut may move back to end at the
// end of a member rather than mid-token.
const cutSlack = 1 << 10

// prettyJSON lays out a JSON payload for the detail pane, reading at most
// limit bytes of it: an object or array indented two spaces a level, one
// member a line; a string's \n escapes shown as line breaks, the text
// continuing two columns under its key; a payload that is one JSON string
// holding \n shown as its text, its lines. It returns the text and how many bytes of the payload
// it shows (len(text) when all of it), the cut made at the end of a member
// where one is near; ok is false when text is not a JSON object, array or
// string (or is too large to check), to be shown as it is.
func prettyJSON(text string, limit int) (out string, shown int, ok bool) {
	start := len(text) - len(strings.TrimLeft(text, " \t\r\n"))
	t := strings.TrimSpace(text)
	isText := t != "" && t[0] == '"' && strings.Contains(t, `\n`) // a string of lines
	if len(t) < 2 || len(t) > prettyValidMax || (t[0] != '{' && t[0] != '[' && !isText) || !json.Valid([]byte(t)) {
		return "", 0, false
	}
	p := printer{src: t, limit: max(limit-start, 0)}
	if t[0] == '"' {
		p.str(true)
	} else {
		p.value()
	}
	if p.i >= len(t) {
		return p.b.String(), len(text), true
	}
	return p.b.String(), start + p.i, true
}

// printer writes valid JSON src indented, stopping after limit bytes of
// it.
type printer struct {
	src   string
	i     int
	limit int
	depth int
	b     strings.Builder
	// mark is the output's length and the source's offset at the end of
	// the last member written: where a cut goes when it is near.
	markOut, markIn int
	// scratch holds one decoded escape.
	scratch []byte
}

// full reports whether the limit is reached; it then ends the output at
// the last member's end when that is within cutSlack.
func (p *printer) full() bool {
	if p.i < p.limit {
		return false
	}
	if p.markIn > 0 && p.i-p.markIn <= cutSlack {
		s := p.b.String()[:p.markOut]
		p.b.Reset()
		p.b.WriteString(s)
		p.i = p.markIn
	}
	return true
}

func (p *printer) skipSpace() {
	for p.i < len(p.src) && strings.IndexByte(" \t\r\n", p.src[p.i]) >= 0 {
		p.i++
	}
}

func (p *printer) newline() {
	p.b.WriteByte('\n')
	p.b.WriteString(strings.Repeat("  ", p.depth))
}

// value writes one value; false when the limit stopped it.
func (p *printer) value() bool {
	p.skipSpace()
	if p.i >= len(p.src) || p.full() {
		return false
	}
	switch c := p.src[p.i]; c {
	case '{', '[':
		end := byte('}')
		if c == '[' {
			end = ']'
		}
		p.b.WriteByte(c)
		p.i++
		p.skipSpace()
		if p.src[p.i] == end {
			p.b.WriteByte(end)
			p.i++
			return true
		}
		p.depth++
		for {
			p.newline()
			if c == '{' {
				if !p.str(false) {
					return false
				}
				p.skipSpace()
				p.i++ // ':'
				p.b.WriteString(": ")
			}
			if !p.value() {
				return false
			}
			p.skipSpace()
			if p.src[p.i] == end {
				p.i++
				p.depth--
				p.newline()
				p.b.WriteByte(end)
				return true
			}
			p.i++ // ','
			p.b.WriteByte(',')
			p.markOut, p.markIn = p.b.Len(), p.i
		}
	case '"':
		return p.str(false)
	default: // a number, true, false or null
		j := p.i
		for j < len(p.src) && strings.IndexByte(",]} \t\r\n", p.src[j]) < 0 {
			j++
		}
		p.b.WriteString(p.src[p.i:j])
		p.i = j
		return true
	}
}

// str writes the string at p.i: its \n (and \r\n) escapes as line breaks
// under the current indent plus two; with decode (a payload that is one
// string) its text without quotes or escapes, else as JSON. It stops at
// the limit, between characters; false when it did.
func (p *printer) str(decode bool) bool {
	if p.full() {
		return false
	}
	if !decode {
		p.b.WriteByte('"')
	}
	p.i++
	for p.i < len(p.src) {
		if p.i >= p.limit {
			p.full()
			return false
		}
		c := p.src[p.i]
		switch {
		case c == '"':
			p.i++
			if !decode {
				p.b.WriteByte('"')
			}
			return true
		case c == '\\' && strings.HasPrefix(p.src[p.i:], `\r\n`):
			p.i += 4
			p.lineBreak(decode)
		case c == '\\' && p.src[p.i+1] == 'n':
			p.i += 2
			p.lineBreak(decode)
		case c == '\\' && decode:
			p.unescape()
		case c == '\\':
			n := 2
			if p.src[p.i+1] == 'u' {
				n = 6
			}
			p.b.WriteString(p.src[p.i : p.i+n])
			p.i += n
		default:
			_, n := utf8.DecodeRuneInString(p.src[p.i:])
			p.b.WriteString(p.src[p.i : p.i+n])
			p.i += n
		}
	}
	return true
}

// lineBreak ends a line inside a string; the text continues two columns
// under the member (a decoded payload's text, at its own margin).
func (p *printer) lineBreak(decode bool) {
	p.b.WriteByte('\n')
	if !decode {
		p.b.WriteString(strings.Repeat("  ", p.depth+1))
	}
}

// unescape writes the character of the escape at p.i (not \n), decoded
// as jsonscan decodes every JSON string: a surrogate pair's two escapes
// are one character.
func (p *printer) unescape() {
	n := 2
	if p.src[p.i+1] == 'u' {
		n = 6
		if isHighSurrogate(p.src[p.i+2:p.i+6]) && strings.HasPrefix(p.src[p.i+6:], `\u`) {
			n = 12
		}
	}
	p.scratch = jsonscan.AppendUnescaped(p.scratch[:0], p.src[p.i:p.i+n])
	p.b.Write(p.scratch)
	p.i += n
}

// isHighSurrogate reports whether the four hex digits name the first half
// of a surrogate pair (D800–DBFF).
func isHighSurrogate(hex string) bool {
	return (hex[0] == 'd' || hex[0] == 'D') && strings.IndexByte("89abAB", hex[1]) >= 0
}
