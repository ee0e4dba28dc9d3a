package catalyst

import (
	"errors"
	"strconv"
	"strings"

	"github.com/twice-cli/twice/catalyst/jsonscan"
	"github.com/twice-cli/twice/catalyst/safetext"
)

// ToolError is an MCP tool result or JSON-RPC response that reports an
// error instead of carrying a history.
type ToolError struct {
	// RPC is set for a JSON-RPC error object, unset for an MCP tool result
	// with isError.
	RPC bool
	// Code is the JSON-RPC error code (0 for a tool result).
	Code int64
	// Message is what the server said, sanitized with safetext.Line and
	// shortened.
	Message string
}

func (e *ToolError) Error() string {
	if e.RPC {
		return "the server answered with JSON-RPC error " + strconv.FormatInt(e.Code, 10) + ": " + e.Message
	}
	if e.Message == "" {
		return "the MCP tool reported an error and gave no text"
	}
	return "the MCP tool reported an error instead of a history: " + e.Message
}

// maxToolMessage bounds a server's message quoted in an error.
const maxToolMessage = 300

func toolMessage(b []byte) string {
	s := string(b)
	if len(s) > maxToolMessage {
		s = s[:maxToolMessage] + "…"
	}
	return safetext.Line(strings.TrimSpace(s))
}

// ToolResult is an MCP tools/call result as twice reads it, the same way
// wherever it comes from: a file holding one (Decode) or the live client
// (ParseToolResult, DecodeToolResult).
type ToolResult struct {
	// Structured is the structuredContent value exactly as sent, when it is
	// an object or an array; nil when it is absent, null or another kind of
	// value (MCP requires an object).
	Structured []byte
	// Texts are the texts of the content's text items, unescaped, in order.
	// An item is text when its type is "text", or when it has a text and
	// no type.
	Texts [][]byte
	// IsError is the result's isError.
	IsError bool
}

// ToolDoc names the document of a ToolResult a history was decoded from:
// StructuredDoc, or the index of one of Texts.
type ToolDoc int

// StructuredDoc is the ToolDoc of ToolResult.Structured.
const StructuredDoc ToolDoc = -1

// Doc returns the document which names, or nil when r has none there.
func (r *ToolResult) Doc(which ToolDoc) []byte {
	if which == StructuredDoc {
		return r.Structured
	}
	if which >= 0 && int(which) < len(r.Texts) {
		return r.Texts[which]
	}
	return nil
}

// ParseToolResult reads an MCP tool result, {"content":[{"type":"text",
// "text":"…"}],"structuredContent":{…},"isError":false}, held in b. Other
// keys (_meta) are passed over; one of the three given twice, a content
// item that is not an object, or anything but one JSON object is an error.
// Structured may alias b.
func ParseToolResult(b []byte) (*ToolResult, error) {
	sc := jsonscan.NewBytes(b)
	d := newDecoder(sc, DecodeOptions{})
	var structured []byte
	r, err := d.toolResult(func() error {
		// A scanner over bytes reads them in place: the value is a slice
		// of b, not a copy.
		if err := sc.Mark(); err != nil {
			return d.fail(err)
		}
		defer sc.Unmark()
		if err := sc.SkipValue(); err != nil {
			return d.fail(err)
		}
		structured = sc.Marked()
		return nil
	})
	if err != nil {
		return nil, err
	}
	if err := sc.End(); err != nil {
		return nil, d.fail(err)
	}
	r.Structured = structured
	return r, nil
}

// DecodeToolResult decodes the history a tool result carries, as Decode
// does for a file holding the result: the structured content when it is a
// history, else the first text that is one. which says which it was.
func DecodeToolResult(r *ToolResult, opts DecodeOptions) (h *History, which ToolDoc, err error) {
	var structured *History
	if r.Structured != nil && !r.IsError {
		structured, err = decodeBytes(r.Structured, opts, 0)
		var fe *FormatError
		if errors.As(err, &fe) {
			structured, err = nil, nil // not a history: the texts may hold one
		}
		if err != nil {
			return nil, 0, err
		}
	}
	return newDecoder(nil, opts).historyIn(r, structured)
}

// toolResult reads the MCP tool result object at the scanner's position.
// structured is called with the scanner at a structuredContent that is an
// object or an array, and consumes it; another kind of value is skipped.
func (d *decoder) toolResult(structured func() error) (*ToolResult, error) {
	sc := d.sc
	if err := sc.BeginObject(); err != nil {
		return nil, d.kindError("MCP tool result", "an object")
	}
	r := &ToolResult{}
	var seen uint8
	for {
		key, more, err := sc.NextKey()
		if err != nil {
			return nil, d.fail(err)
		}
		if !more {
			return r, nil
		}
		var bit uint8
		switch string(key) {
		case "content":
			bit = 1
		case "structuredContent":
			bit = 2
		case "isError":
			bit = 4
		default: // _meta and the like: not part of the result
			if err := sc.SkipValue(); err != nil {
				return nil, d.fail(err)
			}
			continue
		}
		if seen&bit != 0 {
			return nil, d.duplicate(key)
		}
		seen |= bit
		switch bit {
		case 1:
			r.Texts, err = d.toolContent()
		case 2:
			var k byte
			if k, err = sc.PeekKind(); err != nil {
				err = d.fail(err)
			} else if k == '{' || k == '[' {
				err = structured()
			} else if err = sc.SkipValue(); err != nil {
				err = d.fail(err)
			}
		case 4:
			r.IsError, err = d.boolOf("isError")
		}
		if err != nil {
			return nil, err
		}
	}
}

// toolContent reads a tool result's content list and returns the text of
// its text items, unescaped.
func (d *decoder) toolContent() ([][]byte, error) {
	sc := d.sc
	if null, err := d.isNull(); null || err != nil {
		return nil, err
	}
	if err := sc.BeginArray(); err != nil {
		return nil, d.kindError("content", "a list")
	}
	var texts [][]byte
	for {
		more, err := sc.NextElement()
		if err != nil {
			return nil, d.fail(err)
		}
		if !more {
			return texts, nil
		}
		if err := sc.BeginObject(); err != nil {
			return nil, d.kindError("content item", "an object")
		}
		var text []byte
		typ, hasText := "", false
		for {
			key, more, err := sc.NextKey()
			if err != nil {
				return nil, d.fail(err)
			}
			if !more {
				break
			}
			switch string(key) {
			case "type":
				var b []byte
				b, _, err = d.bytesOf("type")
				typ = string(b)
			case "text":
				var b []byte
				if b, hasText, err = d.bytesOf("text"); hasText {
					text = append([]byte(nil), b...)
				}
			default:
				if err = sc.SkipValue(); err != nil {
					err = d.fail(err)
				}
			}
			if err != nil {
				return nil, err
			}
		}
		if hasText && (typ == "text" || typ == "") { // no type (or null): a text is a text

			texts = append(texts, text)
		}
	}
}

// mcpResult decodes an MCP tool result in a document: the history in
// structuredContent when it holds one, else the first text content that
// decodes.
func (d *decoder) mcpResult() (*History, error) {
	var structured *History
	r, err := d.toolResult(func() (err error) {
		structured, err = d.inner(0)
		return err
	})
	if err != nil {
		return nil, err
	}
	h, _, err := d.historyIn(r, structured)
	return h, err
}

// historyIn picks the history a tool result carries: an error for a result
// marked isError, the history decoded from its structured content
// (structured, nil when there is none), else the first of its texts that
// decodes as one. A history in a tool result comes from Catalyst's MCP
// server, whose data-sharing filter applies, unless it is Dapr's own
// protojson.
func (d *decoder) historyIn(r *ToolResult, structured *History) (*History, ToolDoc, error) {
	if r.IsError {
		msg := ""
		if len(r.Texts) > 0 {
			msg = toolMessage(r.Texts[0])
		}
		return nil, 0, &ToolError{Message: msg}
	}
	if structured != nil {
		return fromCatalyst(structured), StructuredDoc, nil
	}
	var firstErr error
	for i, text := range r.Texts {
		h, err := decodeBytes(text, d.opts, 0)
		if err == nil {
			return fromCatalyst(h), ToolDoc(i), nil
		}
		var fe *FormatError
		if firstErr == nil && !errors.As(err, &fe) && !errors.Is(err, ErrEmpty) {
			firstErr = err
		}
	}
	if firstErr != nil {
		return nil, 0, firstErr
	}
	fe := &FormatError{What: "an MCP tool result with no history in it"}
	if len(r.Texts) > 0 {
		fe.What += " (its text is not a history)"
		fe.Found = found(r.Texts[0])
	}
	return nil, 0, fe
}

// fromCatalyst records that Catalyst's data-sharing filter applies to a
// history an MCP tool returned, unless it is Dapr's own protojson.
func fromCatalyst(h *History) *History {
	if h.Format != FormatProtoJSON {
		h.Run.DataSharing.Filtered = true
	}
	return h
}

// inner decodes a history nested at the scanner's position (the
// structuredContent of a tool result, the result of a JSON-RPC response).
// A value that is not a history is skipped and gives nil, nil.
func (d *decoder) inner(allow wrappers) (*History, error) {
	if null, err := d.isNull(); null || err != nil {
		return nil, err
	}
	before := d.sc.Offset()
	child := newDecoder(d.sc, d.opts)
	child.bulk = d.bulk // the history is the child's: a long one is decoded in bulk
	h, err := child.document(allow)
	var fe *FormatError
	if errors.As(err, &fe) && d.sc.Offset() == before {
		// Not a history, and nothing was consumed: step over the value.
		if err := d.sc.SkipValue(); err != nil {
			return nil, d.fail(err)
		}
		return nil, nil
	}
	return h, err
}

// jsonRPC decodes a JSON-RPC response, {"jsonrpc":"2.0","id":…,
// "result":{…}} (the result an MCP tool result or a history) or
// {"error":{"code":…,"message":…}}.
func (d *decoder) jsonRPC() (*History, error) {
	sc := d.sc
	if err := sc.BeginObject(); err != nil {
		return nil, d.fail(err)
	}
	var h *History
	var rpcErr *ToolError
	var seen uint8
	for {
		key, more, err := sc.NextKey()
		if err != nil {
			return nil, d.fail(err)
		}
		if !more {
			break
		}
		var bit uint8
		switch string(key) {
		case "result":
			bit = 1
		case "error":
			bit = 2
		default: // jsonrpc, id
			if err := sc.SkipValue(); err != nil {
				return nil, d.fail(err)
			}
			continue
		}
		if seen&bit != 0 {
			return nil, d.duplicate(key)
		}
		seen |= bit
		if bit == 1 {
			h, err = d.inner(allowMCP)
		} else {
			rpcErr, err = d.rpcError()
		}
		if err != nil {
			return nil, err
		}
	}
	switch {
	case rpcErr != nil:
		return nil, rpcErr
	case h == nil:
		return nil, &FormatError{What: "a JSON-RPC response whose result holds no history"}
	}
	return h, nil
}

// rpcError reads a JSON-RPC error object.
func (d *decoder) rpcError() (*ToolError, error) {
	sc := d.sc
	if err := sc.BeginObject(); err != nil {
		return nil, d.kindError("error", "an object")
	}
	te := &ToolError{RPC: true}
	for {
		key, more, err := sc.NextKey()
		if err != nil {
			return nil, d.fail(err)
		}
		if !more {
			return te, nil
		}
		switch string(key) {
		case "code":
			te.Code, err = sc.Int64()
			if err != nil {
				err = d.fail(err)
			}
		case "message":
			var b []byte
			if b, _, err = d.bytesOf("message"); err == nil {
				te.Message = toolMessage(b)
			}
		default:
			if err = sc.SkipValue(); err != nil {
				err = d.fail(err)
			}
		}
		if err != nil {
			return nil, err
		}
	}
}
