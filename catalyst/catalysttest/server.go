// Package catalysttest is an in-process stand-in for Catalyst's MCP server,
// for tests: the official MCP Go SDK's streamable HTTP handler serving
// catalyst_list_workflow_runs and catalyst_get_workflow_run over histories
// held in memory (by default the Catalyst-flattened files in testdata/),
// behind a middleware that checks the bearer token, counts every request,
// adds latency and injects faults on demand.
//
// The tools declare these input properties (Options.ArgNames renames them,
// to test a client's argument matching):
//
//	catalyst_list_workflow_runs: projectId, appId, status, workflowName,
//	    startTimeFrom, startTimeTo (RFC 3339), pageSize (integer), pageToken
//	catalyst_get_workflow_run:   projectId, appId, instanceId (instanceId required)
//
// The list returns {"items":[{instanceID, appId, workflowName,
// runtimeStatus, createdAt, lastUpdatedAt}], "nextPageToken": "…"} newest
// first; the get returns the run's document (its fields and "history", the
// flattened events). At any level but full, every input, output, result and
// customStatus member is removed from both, as Catalyst does.
//
// It is part of twice, not a library: its API follows twice's needs. It is
// used by catalyst/live's tests and cmd's, so it cannot sit under one
// folder's internal/ (docs/architecture.md, "Packages").
package catalysttest

import (
	"crypto/tls"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/twice-cli/twice/catalyst"
)

// TestToken is the bearer token the server accepts by default: a
// recognisable value tests search for in everything a client returns.
const TestToken = "cat_TESTTOKEN_123"

// Options configures a Server.
type Options struct {
	// Token is the bearer token required ("" means TestToken; "-" accepts
	// any request, with or without one).
	Token string
	// Level is the data-sharing level applied (default metadata).
	Level catalyst.Level
	// Runs are the runs served (nil: Bundled()).
	Runs []Run
	// PageSize is the list's page size when the client sends none (default 50).
	PageSize int
	// IgnorePageSize serves PageSize rows a page whatever the client asks.
	IgnorePageSize bool
	// Paging makes the list's page tokens misbehave.
	Paging Paging
	// JSONResponse answers application/json instead of text/event-stream.
	JSONResponse bool
	// Stateless runs the SDK handler without sessions (no Mcp-Session-Id).
	Stateless bool
	// TLS serves https with httptest's certificate (use Server.Transport).
	TLS bool
	// Structured adds structuredContent to tool results (by default they
	// carry the JSON document as text content only).
	Structured bool
	// ToolPrefix is prepended to the tool names (e.g. "mcp__catalyst__").
	ToolPrefix string
	// ArgNames renames the tools' input properties: canonical name (as in
	// the package doc) → declared name.
	ArgNames map[string]string
	// OmitListArgs are canonical list-tool properties the list tool does
	// not declare ("startTimeFrom", "startTimeTo", "status",
	// "workflowName"): a server that cannot filter by them. Sending one
	// is an unknown argument.
	OmitListArgs []string
	// Latency delays every request, for benchmarks.
	Latency time.Duration
	// ServerName is the name initialize reports (default "catalysttest").
	ServerName string
}

// Paging selects how the list tool's page tokens behave.
type Paging int

// Paging modes.
const (
	// PagingNormal: tokens advance and the last page has none.
	PagingNormal Paging = iota
	// PagingRepeat: every page after the first returns the same token.
	PagingRepeat
	// PagingCycle: tokens go A, B, A, B, … and never end.
	PagingCycle
	// PagingEmptyForever: every page is empty and carries a new token.
	PagingEmptyForever
)

// Server is a running stand-in. Its methods are safe for concurrent use.
type Server struct {
	// URL is the MCP endpoint (…/mcp).
	URL string

	opts Options
	hs   *httptest.Server
	mcp  *mcp.Server

	mu     sync.Mutex
	runs   []*Run
	faults []*Fault
	counts map[string]int
	seen   []Seen
	paging Paging
	level  catalyst.Level
}

// Seen records one request the server received.
type Seen struct {
	// Method is the JSON-RPC method ("" when the body was not JSON-RPC);
	// Tool the tool of a tools/call.
	Method string
	Tool   string
	// Authorization, OrgID, SessionID and ProtocolVersion are the request's
	// headers.
	Authorization   string
	OrgID           string
	SessionID       string
	ProtocolVersion string
	// Arguments are a tools/call's arguments as sent.
	Arguments string
	// ID is the JSON-RPC id as sent ("" for a notification).
	ID string
}

// New starts a server; Close stops it.
func New(opts Options) *Server {
	if opts.Token == "" {
		opts.Token = TestToken
	}
	if opts.Level == "" {
		opts.Level = catalyst.LevelMetadata
	}
	if opts.PageSize <= 0 {
		opts.PageSize = 50
	}
	if opts.Runs == nil {
		opts.Runs = Bundled()
	}
	s := &Server{opts: opts, counts: map[string]int{}, paging: opts.Paging, level: opts.Level}
	for i := range opts.Runs {
		r := opts.Runs[i]
		s.runs = append(s.runs, &r)
	}
	name := opts.ServerName
	if name == "" {
		name = "catalysttest"
	}
	s.mcp = mcp.NewServer(&mcp.Implementation{Name: name, Version: "1.0.0"}, nil)
	s.addTools()
	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.mcp },
		&mcp.StreamableHTTPOptions{Stateless: opts.Stateless, JSONResponse: opts.JSONResponse})
	mux := http.NewServeMux()
	mux.Handle("/mcp", s.middleware(handler))
	s.hs = httptest.NewUnstartedServer(mux)
	s.hs.Config.ErrorLog = log.New(io.Discard, "", 0) // refused handshakes are expected
	if opts.TLS {
		s.hs.StartTLS()
	} else {
		s.hs.Start()
	}
	s.URL = s.hs.URL + "/mcp"
	return s
}

// Close stops the server, closes its connections and ends its MCP sessions
// (whose goroutines would otherwise outlive it).
func (s *Server) Close() {
	s.hs.CloseClientConnections()
	s.hs.Close()
	for ss := range s.mcp.Sessions() {
		_ = ss.Close()
	}
}

// Transport returns a transport that trusts the server's certificate (for
// Options.TLS); a fresh one per call.
func (s *Server) Transport() *http.Transport {
	base := s.hs.Client().Transport.(*http.Transport)
	t := base.Clone()
	t.TLSClientConfig = &tls.Config{RootCAs: base.TLSClientConfig.RootCAs, MinVersion: tls.VersionTLS12}
	return t
}

// Host returns the server's host:port.
func (s *Server) Host() string {
	return strings.TrimPrefix(strings.TrimPrefix(s.hs.URL, "https://"), "http://")
}

// Count returns how many requests the server received for key: "http" (all
// requests), a JSON-RPC method ("initialize", "tools/list", "tools/call",
// "notifications/initialized") or a tool name without prefix.
func (s *Server) Count(key string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.counts[key]
}

// Seen returns the requests received so far, in order.
func (s *Server) Seen() []Seen {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Seen(nil), s.seen...)
}

// AddRun adds a run to those served.
func (s *Server) AddRun(r Run) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.runs = append(s.runs, &r)
}

// SetPaging changes how page tokens behave.
func (s *Server) SetPaging(p Paging) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.paging = p
}

// SetLevel changes the data-sharing level applied.
func (s *Server) SetLevel(l catalyst.Level) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.level = l
}

// Inject queues faults; each answers the requests it matches in place of
// the server, in the order queued, until its Times are used up.
func (s *Server) Inject(faults ...Fault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := range faults {
		f := faults[i]
		s.faults = append(s.faults, &f)
	}
}

// toolName is the served name of a tool.
func (s *Server) toolName(base string) string { return s.opts.ToolPrefix + base }

// arg is the declared name of a canonical property.
func (s *Server) arg(canonical string) string {
	if n, ok := s.opts.ArgNames[canonical]; ok {
		return n
	}
	return canonical
}
