package catalyst

import (
	"errors"
	"strconv"
	"strings"

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

// mcpResult decodes an MCP tool result, {"content":[{"type":"text",
// "text":"<json>"}],"structuredContent":{…},"isError":false}: the history
// in structuredContent when it holds one, else the first text content that
// decodes.
func (d *decoder) mcpResult() (*History, error) {
	sc := d.sc
	if err := sc.BeginObject(); err != nil {
		return nil, d.fail(err)
	}
	var texts [][]byte
	var structured *History
	isError := false
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
		case "content":
			bit = 1
		case "structuredContent":
			bit = 2
		case "isError":
			bit = 4
		default: // _meta and the like: not part of the history
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
			texts, err = d.mcpContent()
		case 2:
			structured, err = d.inner(0)
		case 4:
			isError, err = d.boolOf("isError")
		}
		if err != nil {
			return nil, err
		}
	}
	if isError {
		msg := ""
		if len(texts) > 0 {
			msg = toolMessage(texts[0])
		}
		return nil, &ToolError{Message: msg}
	}
	if structured != nil {
		return d.catalystInside(structured), nil
	}
	var firstErr error
	for _, text := range texts {
		h, err := decodeBytes(text, d.opts, 0)
		if err == nil {
			return d.catalystInside(h), nil
		}
		var fe *FormatError
		if firstErr == nil && !errors.As(err, &fe) && !errors.Is(err, ErrEmpty) {
			firstErr = err
		}
	}
	if firstErr != nil {
		return nil, firstErr
	}
	fe := &FormatError{What: "an MCP tool result with no history in it"}
	if len(texts) > 0 {
		fe.What += " (its text is not a history)"
		fe.Found = found(texts[0])
	}
	return nil, fe
}

// mcpContent reads a tool result's content list and returns the text of its
// text items, unescaped.
func (d *decoder) mcpContent() ([][]byte, error) {
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
		isText, hasText := false, false
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
				isText = string(b) == "text"
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
		if isText && hasText {
			texts = append(texts, text)
		}
	}
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

// catalystInside marks a history that came wrapped in an MCP result as
// Catalyst's, whose data-sharing filter applies, unless it is Dapr's own
// protojson.
func (d *decoder) catalystInside(h *History) *History {
	if h.Format != FormatProtoJSON && !h.Run.DataSharing.Filtered {
		d.applyDataSharing(h, h.Run.DataSharing.Level)
	}
	return h
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
