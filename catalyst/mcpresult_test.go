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
