package catalysttest

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestRefusalsAreJSON: a refusal quoting what the client sent (a run id, an
// app, a page token holding quotes, backslashes, control characters or
// invalid UTF-8) is still one valid JSON refusal object carrying the text.
func TestRefusalsAreJSON(t *testing.T) {
	srv := New(Options{})
	defer srv.Close()
	ctx := context.Background()
	cs := sdkSession(t, srv)
	hostile := "a\"b\\c\x01d\u2028e\U0001F600"
	tests := []struct {
		name     string
		tool     string
		args     map[string]any
		wantKind string
	}{
		{"unknown run", ToolGetRun, map[string]any{"instanceId": hostile, "appId": hostile}, "NOT_FOUND"},
		{"unknown page token", ToolListRuns, map[string]any{"projectId": "default", "pageToken": hostile}, "INVALID_ARGUMENT"},
		{"no project", ToolListRuns, map[string]any{}, "INVALID_ARGUMENT"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tc.tool, Arguments: tc.args})
			if err != nil {
				t.Fatal(err)
			}
			text := res.Content[0].(*mcp.TextContent).Text
			var body struct {
				Error struct {
					Kind      string `json:"kind"`
					Message   string `json:"message"`
					Retryable *bool  `json:"retryable"`
				} `json:"error"`
			}
			if !res.IsError || !json.Valid([]byte(text)) || json.Unmarshal([]byte(text), &body) != nil {
				t.Fatalf("not a JSON refusal (isError %v): %s", res.IsError, text)
			}
			if body.Error.Kind != tc.wantKind || body.Error.Message == "" || body.Error.Retryable == nil || *body.Error.Retryable {
				t.Errorf("refusal = %+v", body.Error)
			}
		})
	}
}

func TestErrorsBody(t *testing.T) {
	f := StatusFault("", 1, http.StatusTooManyRequests)
	var b struct {
		Errors []struct {
			Title string `json:"title"`
		} `json:"errors"`
	}
	if err := json.Unmarshal([]byte(f.Body), &b); err != nil || len(b.Errors) != 1 || b.Errors[0].Title != "Too Many Requests" {
		t.Errorf("status fault body %s: %+v, %v", f.Body, b, err)
	}
}
