package catalyst

import (
	"strings"
	"unsafe"

	"github.com/twice-cli/twice/catalyst/jsonscan"
)

// PayloadState says what is known about a payload. Absent and empty are
// different facts, and absent has several causes; the model keeps them apart
// so that no renderer can show a withheld payload as an empty one.
type PayloadState uint8

// Payload states.
const (
	// PayloadNone: the field is absent and no data-sharing filter applies,
	// so none was given (Dapr's own protojson omits an unset payload).
	PayloadNone PayloadState = iota
	// PayloadPresent: the payload is in the history.
	PayloadPresent
	// PayloadEmpty: the field is present and holds the empty string.
	PayloadEmpty
	// PayloadWithheld: the field is absent because the organization's
	// data-sharing level removed it (Catalyst at any level but full).
	PayloadWithheld
	// PayloadRedacted: twice removed it when saving a fixture with
	// --redact-payloads.
	PayloadRedacted
	// PayloadNotRequested: the source was not asked for payloads (a run list
	// read without data).
	PayloadNotRequested
	// PayloadNotInFormat: the format never carries this payload (the Dapr
	// CLI prints none for suspend, resume, terminate and continue-as-new
	// rows, nor, in v1.16, for child workflows): whether there was one is
	// not known.
	PayloadNotInFormat
	// PayloadNoneOrEmpty: the format leaves out a payload that is empty as
	// it leaves out one never given, so which it was is not known (the
	// Dapr CLI prints a payload only when it is not empty, after
	// unquoting a JSON string: no payload, "" and "\"\"" all print
	// nothing).
	PayloadNoneOrEmpty
)

// String returns the state's stable name as twice's JSON writes it:
// "none", "present", "empty", "withheld", "redacted", "not-requested",
// "not-in-format" or "none-or-empty".
func (s PayloadState) String() string {
	switch s {
	case PayloadPresent:
		return "present"
	case PayloadEmpty:
		return "empty"
	case PayloadWithheld:
		return "withheld"
	case PayloadRedacted:
		return "redacted"
	case PayloadNotRequested:
		return "not-requested"
	case PayloadNotInFormat:
		return "not-in-format"
	case PayloadNoneOrEmpty:
		return "none-or-empty"
	}
	return "none"
}

// absent reports whether the state is one a data-sharing level decides
// between: none given (or none or empty), or withheld.
func (s PayloadState) absent() bool {
	return s == PayloadNone || s == PayloadWithheld || s == PayloadNoneOrEmpty
}

// Payload is an input, output or custom status: its state, and its text when
// present. The text is what the application wrote (usually a JSON document)
// and is untrusted.
//
// Decoders keep a payload in its wire form, a JSON string literal, and
// unquote it only when asked: most payloads of a large history are never
// shown.
//
// Every event holds one, so a payload is two words: its text is kept as a
// pointer and a 32-bit length rather than a string (three words with the
// state). No input twice reads comes near 4 GiB (files are capped at 2 GiB).
type Payload struct {
	data   *byte
	n      uint32
	State  PayloadState
	quoted bool
}

// payloadOf returns a payload of text (or of a wire literal, quoted).
func payloadOf(text string, state PayloadState, quoted bool) Payload {
	return Payload{data: unsafe.StringData(text), n: uint32(len(text)), State: state, quoted: quoted}
}

// raw is the text, or the wire literal when quoted.
func (p Payload) raw() string { return unsafe.String(p.data, p.n) }

// PresentPayload returns a payload holding text; the empty text gives an
// empty payload.
func PresentPayload(text string) Payload {
	if text == "" {
		return Payload{State: PayloadEmpty}
	}
	return payloadOf(text, PayloadPresent, false)
}

// QuotedPayload returns a payload from a JSON string literal, quotes
// included, as it appeared on the wire ("\"{\\\"a\\\":1}\""). The literal is
// unquoted when Text is called. A literal that is exactly "\"\"" gives an
// empty payload.
func QuotedPayload(literal string) Payload {
	if literal == `""` {
		return Payload{State: PayloadEmpty}
	}
	return payloadOf(literal, PayloadPresent, true)
}

// AbsentPayload returns a payload in a state that carries no text (none,
// withheld, redacted, not requested, not in the format, or none or empty).
func AbsentPayload(state PayloadState) Payload {
	return Payload{State: state}
}

// Has reports whether the payload has text to show (present and non-empty).
func (p Payload) Has() bool { return p.State == PayloadPresent }

// Text returns the payload's text, or "" when it has none. A malformed
// literal (which decoders do not produce) is returned as it was.
func (p Payload) Text() string {
	if p.State != PayloadPresent {
		return ""
	}
	raw := p.raw()
	if !p.quoted {
		return raw
	}
	inner := raw[1 : len(raw)-1]
	if !strings.ContainsRune(inner, '\\') {
		return inner
	}
	return unquoteJSON(inner)
}

// AppendText appends the payload's text (Text) to dst: the same bytes,
// without a string of its own when the text must be unquoted.
func (p Payload) AppendText(dst []byte) []byte {
	if p.State != PayloadPresent {
		return dst
	}
	raw := p.raw()
	if !p.quoted {
		return append(dst, raw...)
	}
	return jsonscan.AppendUnescaped(dst, raw[1:len(raw)-1])
}

// Size returns the length in bytes of the payload's text, without unquoting
// when it can avoid it.
func (p Payload) Size() int {
	if p.State != PayloadPresent {
		return 0
	}
	if !p.quoted {
		return int(p.n)
	}
	raw := p.raw()
	inner := raw[1 : len(raw)-1]
	if !strings.ContainsRune(inner, '\\') {
		return len(inner)
	}
	return jsonscan.UnescapedLen(inner)
}

// WireLiteral returns the payload as a JSON string literal when the decoder
// kept it in that form, so encoders can copy it without unquoting; ok is
// false otherwise.
func (p Payload) WireLiteral() (literal string, ok bool) {
	if p.State == PayloadPresent && p.quoted {
		return p.raw(), true
	}
	return "", false
}

// unquoteJSON decodes the body of a JSON string literal (without its quotes).
func unquoteJSON(s string) string {
	b := jsonscan.AppendUnescaped(make([]byte, 0, len(s)), s)
	return unsafe.String(unsafe.SliceData(b), len(b)) // b is not written again
}
