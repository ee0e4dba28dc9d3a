package catalyst

import (
	"errors"
	"strings"
	"testing"
)

func TestMCPResults(t *testing.T) {
	tests := []struct {
		file     string
		format   Format
		filtered bool
	}{
		// structuredContent holds the history.
		{"mcp-result-structured.json", FormatCatalyst, true},
		// No structuredContent: the first text that decodes (after an image
		// and a text that is not JSON).
		{"mcp-result-text.json", FormatCatalyst, true},
		// structuredContent that is no history is passed over; the text holds
		// Dapr's protojson, which no data-sharing filter touched.
		{"mcp-result-protojson.json", FormatProtoJSON, false},
		// The JSON-RPC response around a tool result.
		{"jsonrpc-result.json", FormatCatalyst, true},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			h, err := decodeFile(t, tt.file)
			if err != nil {
				t.Fatal(err)
			}
			if h.Format != tt.format || h.Run.DataSharing.Filtered != tt.filtered {
				t.Errorf("format %s filtered %v; want %s %v", h.Format, h.Run.DataSharing.Filtered, tt.format, tt.filtered)
			}
			if h.Len() == 0 || h.Run.ID == "" {
				t.Errorf("%d events, run %q", h.Len(), h.Run.ID)
			}
			if tt.filtered && len(h.Withheld()) == 0 {
				t.Error("a Catalyst history at an unknown level has withheld payloads")
			}
			if h.Run.Provenance.Location != tt.file {
				t.Errorf("provenance %+v", h.Run.Provenance)
			}
		})
	}
}

func TestMCPStructuredContentWins(t *testing.T) {
	doc := `{"content":[{"type":"text","text":"[{\"type\":\"TaskScheduled\",\"name\":\"from-text\"}]"}],
		"structuredContent":{"history":[{"type":"TaskScheduled","name":"from-structured"}]}}`
	h, err := Decode(strings.NewReader(doc), DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if h.At(0).Name != "from-structured" {
		t.Errorf("decoded %q, want the structured content", h.At(0).Name)
	}
}

func TestMCPAndRPCErrors(t *testing.T) {
	tests := []struct {
		file, want string
		rpc        bool
	}{
		// The server's text is sanitized: its escape sequences arrive escaped.
		{"mcp-result-error.json", `the MCP tool reported an error instead of a history: run \x1b[31mcharge-7731\x1b[0m not found in project default`, false},
		{"jsonrpc-error.json", "the server answered with JSON-RPC error -32602: unknown tool: get_run_history", true},
	}
	for _, tt := range tests {
		_, err := decodeFile(t, tt.file)
		var te *ToolError
		if !errors.As(err, &te) || err.Error() != tt.want || te.RPC != tt.rpc {
			t.Errorf("%s: %v", tt.file, err)
		}
	}
}

func TestMCPWithoutAHistory(t *testing.T) {
	tests := []struct{ doc, want string }{
		{`{"content":[{"type":"text","text":"no runs match"}]}`, "an MCP tool result with no history in it (its text is not a history), beginning `no runs match`"},
		{`{"content":[]}`, "an MCP tool result with no history in it;"},
		{`{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}`, "a JSON-RPC response whose result holds no history"},
		{`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"{\"jsonrpc\":\"2.0\",\"result\":{}}"}]}}`, "no history in it"},
	}
	for _, tt := range tests {
		_, err := Decode(strings.NewReader(tt.doc), DecodeOptions{})
		var fe *FormatError
		if !errors.As(err, &fe) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s:\n got  %v\n want a FormatError with %q", tt.doc, err, tt.want)
		}
	}
	// A text that is a history with an error reports that error.
	_, err := Decode(strings.NewReader(`{"content":[{"type":"text","text":"{\"events\":[{\"eventId\":\"x\",\"workflowStarted\":{}}]}"}]}`), DecodeOptions{})
	var de *DecodeError
	if !errors.As(err, &de) || !strings.Contains(err.Error(), `"eventId" is the string "x"`) {
		t.Errorf("got %v, want the inner history's error", err)
	}
}

// TestParseToolResult: the one reader of MCP tool results, as the live
// client uses it.
func TestParseToolResult(t *testing.T) {
	tests := []struct {
		name, doc  string
		structured string
		texts      []string
		isError    bool
		err        string
	}{
		{name: "structured and texts",
			doc:        `{"content":[{"type":"text","text":"a\"b"},{"type":"image","data":"x"},{"type":"text","text":"c"}],"structuredContent":{"k": [1, 2]},"isError":false,"_meta":{}}`,
			structured: `{"k": [1, 2]}`, texts: []string{`a"b`, "c"}},
		{name: "an item with a text and no type is text",
			doc: `{"content":[{"text":"plain"},{"type":null,"text":"null type"},{"type":"resource","text":"not text"}]}`, texts: []string{"plain", "null type"}},
		{name: "null and non-object structured content are passed over",
			doc: `{"content":null,"structuredContent":null}`},
		{name: "a string is no structured content",
			doc: `{"structuredContent":"{\"events\":[]}"}`},
		{name: "isError", doc: `{"content":[{"type":"text","text":"denied"}],"isError":true}`, texts: []string{"denied"}, isError: true},
		{name: "a repeated key is an error", doc: `{"content":[],"content":[]}`, err: `"content" appears twice`},
		{name: "a content item that is not an object", doc: `{"content":["x"]}`, err: `"content item" is a string, want an object`},
		{name: "not an object", doc: `[1]`, err: `"MCP tool result" is an array, want an object`},
		{name: "trailing data", doc: `{} {}`, err: "trailing data"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := ParseToolResult([]byte(tt.doc))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("got %v, want an error with %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(r.Structured) != tt.structured || (r.Structured == nil) != (tt.structured == "") {
				t.Errorf("structured %q, want %q", r.Structured, tt.structured)
			}
			var texts []string
			for _, x := range r.Texts {
				texts = append(texts, string(x))
			}
			if strings.Join(texts, "|") != strings.Join(tt.texts, "|") || len(texts) != len(tt.texts) {
				t.Errorf("texts %q, want %q", texts, tt.texts)
			}
			if r.IsError != tt.isError {
				t.Errorf("isError %v", r.IsError)
			}
		})
	}
}

// TestToolResultReadsAlikeEverywhere: a tool result gives the same history,
// or the same error, whether a file holds it (Decode) or the live client
// read it (ParseToolResult, then DecodeToolResult), and DecodeToolResult
// says which document the history came from.
func TestToolResultReadsAlikeEverywhere(t *testing.T) {
	const flat = `{"history":[{"type":"TaskScheduled","name":"%s","event_id":0}]}`
	quoted := func(s string) string { return strings.ReplaceAll(s, `"`, `\"`) }
	tests := []struct {
		name, doc, event string
		which            ToolDoc
		err              string
	}{
		{name: "structured", doc: `{"content":[{"type":"text","text":"` + quoted(strings.Replace(flat, "%s", "text", 1)) + `"}],"structuredContent":` + strings.Replace(flat, "%s", "structured", 1) + `}`,
			event: "structured", which: StructuredDoc},
		{name: "structured that is not a history: the text", doc: `{"content":[{"type":"text","text":"no"},{"type":"text","text":"` + quoted(strings.Replace(flat, "%s", "second", 1)) + `"}],"structuredContent":{"runs":[]}}`,
			event: "second", which: 1},
		{name: "an error", doc: `{"content":[{"type":"text","text":"run not found"}],"isError":true}`, err: "the MCP tool reported an error instead of a history: run not found"},
		{name: "no history", doc: `{"content":[{"type":"text","text":"hello"}]}`, err: "an MCP tool result with no history in it (its text is not a history)"},
		{name: "a broken history", doc: `{"structuredContent":{"history":[{"type":"TaskScheduled","event_id":"x"}]}}`, err: `"event_id" is the string "x"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fromFile, fileErr := Decode(strings.NewReader(tt.doc), DecodeOptions{})
			r, err := ParseToolResult([]byte(tt.doc))
			if err != nil {
				t.Fatal(err)
			}
			live, which, liveErr := DecodeToolResult(r, DecodeOptions{})
			if tt.err != "" {
				// The same error; a byte offset counts from the start of what
				// was read (the file, or the live result's document).
				if fileErr == nil || liveErr == nil || !strings.Contains(fileErr.Error(), tt.err) || !strings.Contains(liveErr.Error(), tt.err) {
					t.Fatalf("file: %v\nlive: %v\nwant both %q", fileErr, liveErr, tt.err)
				}
				return
			}
			if fileErr != nil || liveErr != nil {
				t.Fatalf("file: %v, live: %v", fileErr, liveErr)
			}
			for _, h := range []*History{fromFile, live} {
				if h.Len() != 1 || h.At(0).Name != tt.event || !h.Run.DataSharing.Filtered {
					t.Errorf("decoded %d events, first %q, data sharing %+v; want %q from Catalyst", h.Len(), h.At(0).Name, h.Run.DataSharing, tt.event)
				}
			}
			if which != tt.which || r.Doc(which) == nil {
				t.Errorf("which = %d, want %d", which, tt.which)
			}
		})
	}
}
