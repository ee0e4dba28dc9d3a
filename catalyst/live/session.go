package live

import (
	"context"
	"errors"
	"fmt"
	"github.com/go-json-experiment/json/jsontext"
	"sort"
	"strings"

	"github.com/twice-cli/twice/catalyst/safetext"
)

// The tools twice calls, matched by suffix (clients may prefix tool names,
// e.g. "mcp__plugin_catalyst__catalyst_list_workflow_runs").
const (
	ToolListRuns = "catalyst_list_workflow_runs"
	ToolGetRun   = "catalyst_get_workflow_run"
)

// maxToolPages bounds the pages of a tools/list.
const maxToolPages = 20

// session is one MCP session: the negotiated protocol version, the
// session id (when the server keeps sessions), and the tools it offers.
type session struct {
	id       string
	protocol string
	server   string // "name version", sanitized
	// tools are the server's tools by name; toolNames lists them sorted.
	tools     map[string]*toolInfo
	toolNames []string
}

// tool returns the server's tool whose name is want or ends with "_"+want
// (a client prefix); an exact name wins.
func (s *session) tool(want string) (*toolInfo, bool) {
	if t, ok := s.tools[want]; ok {
		return t, true
	}
	for _, name := range s.toolNames {
		if strings.HasSuffix(name, "_"+want) {
			return s.tools[name], true
		}
	}
	return nil, false
}

// ensureSession returns the open session, opening one if needed: resolve
// the token, initialize, notifications/initialized, tools/list.
func (c *Client) ensureSession(ctx context.Context) (*session, error) {
	if err := c.lockSession(ctx); err != nil {
		return nil, err
	}
	defer c.unlockSession()
	if c.session != nil {
		return c.session, nil
	}
	if err := c.resolveToken(ctx); err != nil {
		return nil, err
	}
	s, err := c.openSession(ctx)
	if err != nil {
		return nil, err
	}
	c.session = s
	return s, nil
}

// CheckCredential resolves the token, as the first request would, without
// sending anything: an error wrapping ErrNotAuthenticated says no usable
// credential was found and how to provide one. The command line calls it
// before opening the interactive view on a live source. A token found is
// kept for the requests that follow (a token_command runs once).
func (c *Client) CheckCredential(ctx context.Context) error {
	if err := c.lockSession(ctx); err != nil {
		return err
	}
	defer c.unlockSession()
	return c.redact.Error(c.resolveToken(ctx))
}

// resolveToken reads the token from the configured source once. The caller
// holds the session lock.
func (c *Client) resolveToken(ctx context.Context) error {
	if !c.token.IsZero() {
		return nil
	}
	if c.cfg.Token == nil {
		return fmt.Errorf("%w: no Catalyst token source is configured. %s",
			ErrNotAuthenticated, TokenAdvice)
	}
	t, err := c.cfg.Token.Token(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return cancelled(ctx, "reading the Catalyst token")
		}
		return err
	}
	if t.IsZero() {
		return fmt.Errorf("%w: the token source (%s) gave an empty token", ErrNotAuthenticated, c.cfg.Token.Describe())
	}
	c.token = t
	c.auth.setToken(t)
	// From now on no text from the server, and no error, shows it.
	c.redact.Add(t.value)
	c.debug.printf("using the %s", t)
	return nil
}

// dropSession forgets s (when the server said it expired), unless another
// caller already replaced it.
func (c *Client) dropSession(ctx context.Context, s *session) error {
	if err := c.lockSession(ctx); err != nil {
		return err
	}
	if c.session == s {
		c.session = nil
	}
	c.unlockSession()
	return nil
}

type initializeResult struct {
	ProtocolVersion string `json:"protocolVersion"`
	ServerInfo      struct {
		Name    string `json:"name"`
		Version string `json:"version"`
	} `json:"serverInfo"`
}

type toolsListResult struct {
	Tools []struct {
		Name        string         `json:"name"`
		InputSchema jsontext.Value `json:"inputSchema"`
	} `json:"tools"`
	NextCursor string `json:"nextCursor"`
}

func (c *Client) openSession(ctx context.Context) (*session, error) {
	op := "opening an MCP session"
	params := map[string]any{
		"protocolVersion": ProtocolVersion,
		"capabilities":    map[string]any{},
		"clientInfo":      map[string]any{"name": "twice", "version": c.cfg.Version},
	}
	reply, err := c.exchange(ctx, nil, rpcCall{op: op, method: "initialize", params: params})
	if err != nil {
		return nil, err
	}
	var init initializeResult
	if err := unmarshal(reply.result, &init); err != nil || init.ProtocolVersion == "" {
		return nil, fmt.Errorf("%w: %s: %s answered initialize without a protocol version", ErrBadResponse, op, c.host)
	}
	s := &session{
		id:       reply.header.Get("Mcp-Session-Id"),
		protocol: init.ProtocolVersion,
		server:   safetext.Line(excerpt(strings.TrimSpace(init.ServerInfo.Name+" "+init.ServerInfo.Version), 128)),
		tools:    map[string]*toolInfo{},
	}
	if !safetext.IsSafe(s.id) || len(s.id) > 1024 {
		return nil, fmt.Errorf("%w: %s: %s sent an unusable Mcp-Session-Id", ErrBadResponse, op, c.host)
	}
	if !safetext.IsSafe(s.protocol) || len(s.protocol) > 64 {
		return nil, fmt.Errorf("%w: %s: %s sent an unusable protocol version", ErrBadResponse, op, c.host)
	}
	if _, err := c.exchange(ctx, s, rpcCall{op: op, method: "notifications/initialized", notify: true}); err != nil {
		return nil, c.sessionErr(op, err)
	}
	cursor := ""
	for page := 1; ; page++ {
		var params any
		if cursor != "" {
			params = map[string]any{"cursor": cursor}
		}
		reply, err := c.exchange(ctx, s, rpcCall{op: "listing the server's tools", method: "tools/list", params: params})
		if err != nil {
			return nil, c.sessionErr("listing the server's tools", err)
		}
		var list toolsListResult
		if err := unmarshal(reply.result, &list); err != nil {
			return nil, fmt.Errorf("%w: listing the server's tools: %s answered tools/list with an unreadable result (%v)", ErrBadResponse, c.host, err)
		}
		for _, t := range list.Tools {
			info := parseToolSchema(t.Name, t.InputSchema)
			s.tools[t.Name] = info
			s.toolNames = append(s.toolNames, t.Name)
		}
		if list.NextCursor == "" || list.NextCursor == cursor || page >= maxToolPages {
			break
		}
		cursor = list.NextCursor
	}
	sort.Strings(s.toolNames)
	c.debug.printf("session open: server %s, protocol %s, session id %v, %d tools", s.server, s.protocol, s.id != "", len(s.toolNames))
	return s, nil
}

// sessionErr explains a session forgotten while it was being opened.
func (c *Client) sessionErr(op string, err error) error {
	if errors.Is(err, errSessionGone) {
		return fmt.Errorf("%s: %s answered 404 for the session it had just opened; check the endpoint URL", op, c.host)
	}
	return err
}

// callTool calls a tool and returns its result. It opens the session if
// needed, and opens a new one once if the server forgot it.
func (c *Client) callTool(ctx context.Context, op, tool string, args func(*toolInfo) (map[string]any, error)) (*toolResult, *toolInfo, error) {
	renewed, retriedRefusal := false, false
	for {
		s, err := c.ensureSession(ctx)
		if err != nil {
			return nil, nil, err
		}
		info, ok := s.tool(tool)
		if !ok {
			return nil, nil, c.missingTool(s, tool)
		}
		a, err := args(info)
		if err != nil {
			return nil, info, err
		}
		reply, err := c.exchange(ctx, s, rpcCall{op: op, method: "tools/call", tool: info.name,
			params: map[string]any{"name": info.name, "arguments": a}})
		if errors.Is(err, errSessionGone) {
			if renewed {
				return nil, info, fmt.Errorf("%s: %s keeps answering 404 for a fresh session; check the endpoint URL", op, c.host)
			}
			renewed = true
			c.debug.printf("the server forgot the session; opening a new one")
			if err := c.dropSession(ctx, s); err != nil {
				return nil, info, err
			}
			continue
		}
		if err != nil {
			return nil, info, err
		}
		res, err := c.toolResult(op, info.name, reply.result)
		if err == nil && reply.original != nil {
			// The answer held the token and was redacted; keep what the
			// server sent for Fetched.Raw (record refuses to save it).
			if orig, err := c.toolResult(op, info.name, reply.original); err == nil {
				res.original = orig
			}
		}
		var r *RefusalError
		if errors.As(err, &r) && !retriedRefusal {
			if retry, _ := c.retryOnce(*r); retry {
				// Catalyst asks to retry a retryable refusal once only.
				retriedRefusal = true
				wait := backoff(1, c.cfg.BackoffBase, c.cfg.BackoffMax, c.cfg.Jitter)
				c.debug.printf("retry %s in %v after a retryable %s refusal", info.name, wait, r.Kind)
				if err := c.cfg.Sleep(ctx, wait); err != nil {
					return nil, info, cancelled(ctx, op+" (while waiting to retry)")
				}
				continue
			}
		}
		return res, info, err
	}
}

// missingTool explains that the server lacks a tool.
func (c *Client) missingTool(s *session, tool string) error {
	offered := "none"
	if len(s.toolNames) > 0 {
		names := make([]string, 0, len(s.toolNames))
		for _, n := range s.toolNames {
			names = append(names, safetext.Line(excerpt(n, 80)))
		}
		if len(names) > 40 {
			names = append(names[:40], "…")
		}
		offered = strings.Join(names, ", ")
	}
	return fmt.Errorf("catalyst at %s offers no %s tool (it offers: %s); the credential may lack the catalyst:read scope, or the endpoint is not Catalyst's MCP server",
		c.host, tool, offered)
}
