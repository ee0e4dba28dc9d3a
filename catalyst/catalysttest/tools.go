package catalysttest

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/twice-cli/twice/catalyst"
)

// Canonical names of the tools and their input properties.
const (
	ToolListRuns = "catalyst_list_workflow_runs"
	ToolGetRun   = "catalyst_get_workflow_run"
)

// addTools registers the two tools with their input schemas.
func (s *Server) addTools() {
	str := func(desc string) map[string]any { return map[string]any{"type": "string", "description": desc} }
	listProps := map[string]any{
		s.arg("projectId"):     str("Catalyst project id (name-like, e.g. default)"),
		s.arg("appId"):         str("App identity hosting the workflow"),
		s.arg("status"):        map[string]any{"type": "string", "enum": []string{"running", "completed", "failed", "terminated", "suspended", "canceled"}},
		s.arg("workflowName"):  str("Workflow name"),
		s.arg("startTimeFrom"): map[string]any{"type": "string", "format": "date-time"},
		s.arg("startTimeTo"):   map[string]any{"type": "string", "format": "date-time"},
		s.arg("pageSize"):      map[string]any{"type": "integer", "minimum": 1, "maximum": 250},
		s.arg("pageToken"):     str("Token of the next page, from nextPageToken"),
	}
	for _, name := range s.opts.OmitListArgs {
		delete(listProps, s.arg(name))
	}
	s.mcp.AddTool(&mcp.Tool{
		Name:        s.toolName(ToolListRuns),
		Description: "List workflow runs of a project, across every app, newest first.",
		InputSchema: map[string]any{"type": "object", "properties": listProps, "required": []string{s.arg("projectId")}},
	}, s.listRuns)
	getProps := map[string]any{
		s.arg("projectId"):  str("Catalyst project id"),
		s.arg("appId"):      str("App identity hosting the workflow"),
		s.arg("instanceId"): str("Workflow run (instance) id"),
	}
	s.mcp.AddTool(&mcp.Tool{
		Name:        s.toolName(ToolGetRun),
		Description: "Get one workflow run with its execution history.",
		InputSchema: map[string]any{"type": "object", "properties": getProps, "required": []string{s.arg("instanceId")}},
	}, s.getRun)
}

// args reads a call's arguments by canonical name.
func (s *Server) args(req *mcp.CallToolRequest) (map[string]any, error) {
	var raw map[string]any
	if len(req.Params.Arguments) > 0 {
		if err := json.Unmarshal(req.Params.Arguments, &raw); err != nil {
			return nil, fmt.Errorf("arguments are not a JSON object: %v", err)
		}
	}
	out := map[string]any{}
	for _, canonical := range []string{"projectId", "appId", "status", "workflowName", "startTimeFrom", "startTimeTo", "pageSize", "pageToken", "instanceId"} {
		if slices.Contains(s.opts.OmitListArgs, canonical) {
			continue // not declared: an unknown argument
		}
		if v, ok := raw[s.arg(canonical)]; ok {
			out[canonical] = v
			delete(raw, s.arg(canonical))
		}
	}
	for k := range raw {
		return nil, fmt.Errorf("unknown argument %q", k)
	}
	return out, nil
}

func argString(args map[string]any, name string) string {
	s, _ := args[name].(string)
	return s
}

// toolError is a tool result marked isError with text.
func toolError(text string) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: text}}}
}

// refusal is a tool result marked isError carrying Catalyst's refusal
// object, {"error":{"kind","message","retryable":false}}, encoded as JSON
// whatever the message holds.
func refusal(kind, message string) *mcp.CallToolResult {
	type body struct {
		Kind      string `json:"kind"`
		Message   string `json:"message"`
		Retryable bool   `json:"retryable"`
	}
	b, err := json.Marshal(map[string]body{"error": {Kind: kind, Message: message}})
	if err != nil {
		// Strings always encode; keep the answer a refusal regardless.
		return toolError(kind + ": " + message)
	}
	return toolError(string(b))
}

// result is a tool result carrying doc as text, and as structured content
// when Options.Structured is set.
func (s *Server) result(doc []byte) *mcp.CallToolResult {
	res := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(doc)}}}
	if s.opts.Structured {
		res.StructuredContent = json.RawMessage(doc)
	}
	return res
}

func (s *Server) listRuns(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	args, err := s.args(req)
	if err != nil {
		return toolError(err.Error()), nil
	}
	project := argString(args, "projectId")
	if project == "" {
		return refusal("INVALID_ARGUMENT", "projectId is required"), nil
	}
	var from, to time.Time
	for name, t := range map[string]*time.Time{"startTimeFrom": &from, "startTimeTo": &to} {
		if v := argString(args, name); v != "" {
			parsed, err := time.Parse(time.RFC3339Nano, v)
			if err != nil {
				return toolError(fmt.Sprintf("%s is not an RFC 3339 time: %q", name, v)), nil
			}
			*t = parsed
		}
	}
	size := s.opts.PageSize
	if v, ok := args["pageSize"].(float64); ok && v >= 1 && !s.opts.IgnorePageSize {
		size = int(v)
	}
	offset := 0
	token := argString(args, "pageToken")

	s.mu.Lock()
	paging, level := s.paging, s.level
	var matched []*Run
	for _, r := range s.runs {
		switch {
		case r.project() != project:
		case argString(args, "appId") != "" && r.AppID != argString(args, "appId"):
		case argString(args, "status") != "" && !catalyst.Status(r.Status).Is(catalyst.Status(argString(args, "status"))):
		case argString(args, "workflowName") != "" && r.Workflow != argString(args, "workflowName"):
		case !from.IsZero() && r.CreatedAt.Before(from):
		case !to.IsZero() && r.CreatedAt.After(to):
		default:
			matched = append(matched, r)
		}
	}
	s.mu.Unlock()
	newestFirst(matched)

	next := ""
	switch paging {
	case PagingNormal:
		if token != "" {
			n, err := strconv.Atoi(strings.TrimPrefix(token, "p"))
			if err != nil || !strings.HasPrefix(token, "p") || n < 0 {
				return refusal("INVALID_ARGUMENT", "unknown page token "+strconv.Quote(token)), nil
			}
			offset = n
		}
		if offset+size < len(matched) {
			next = "p" + strconv.Itoa(offset+size)
		}
	case PagingRepeat:
		next = "same-token"
		if token != "" {
			offset = size
		}
	case PagingCycle:
		next = "A"
		if token == "A" {
			next = "B"
		}
		if token != "" {
			offset = size
		}
	case PagingEmptyForever:
		n, _ := strconv.Atoi(strings.TrimPrefix(token, "e"))
		next = "e" + strconv.Itoa(n+1)
		offset = len(matched)
	}
	page := []*Run{}
	if offset < len(matched) {
		page = matched[offset:min(offset+size, len(matched))]
	}
	rows := make([]map[string]any, 0, len(page))
	for _, r := range page {
		rows = append(rows, r.row())
	}
	doc := map[string]any{"items": rows}
	if next != "" {
		doc["nextPageToken"] = next
	}
	b, err := json.Marshal(doc)
	if err != nil {
		return nil, err
	}
	if b, err = ApplyLevel(b, level); err != nil {
		return nil, err
	}
	return s.result(b), nil
}

func (s *Server) getRun(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	args, err := s.args(req)
	if err != nil {
		return toolError(err.Error()), nil
	}
	id := argString(args, "instanceId")
	app := argString(args, "appId")
	project := argString(args, "projectId")
	s.mu.Lock()
	var found *Run
	for _, r := range s.runs {
		if r.ID == id && (app == "" || r.AppID == app) && (project == "" || r.project() == project) {
			found = r
			break
		}
	}
	level := s.level
	s.mu.Unlock()
	if found == nil {
		return refusal("NOT_FOUND", fmt.Sprintf("workflow run %q not found in app %q", id, app)), nil
	}
	doc, err := ApplyLevel(found.Doc, level)
	if err != nil {
		return nil, fmt.Errorf("history of %s: %v", id, err)
	}
	return s.result(doc), nil
}
