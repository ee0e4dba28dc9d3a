package live

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/safetext"
)

// DoctorReport is what twice doctor shows about the live source: the
// configuration, where the token comes from (never the token), whether the
// endpoint answered, and the tools with the argument names twice will use.
// Every string in it is safe for a terminal.
type DoctorReport struct {
	// Endpoint is the endpoint URL; Host its host.
	Endpoint string
	Host     string
	// Org is the organization sent, or "".
	Org string
	// Level describes the configured data-sharing level.
	Level string
	// TokenSource says where the token comes from, or where twice looked.
	TokenSource string
	// Authenticated is true when a token was found and the server accepted it.
	Authenticated bool
	// NotAuthenticated is true when no token was found, or the server
	// refused the one sent (errors.Is(err, ErrNotAuthenticated)); the
	// command line exits 4 then.
	NotAuthenticated bool
	// Reachable is true when any HTTP answer came back from the endpoint,
	// a refusal included.
	Reachable bool
	// Status is the HTTP status of a refusal that stopped the check (401,
	// 403, …), else 0.
	Status int
	// Server is the server's name and version; Protocol the negotiated MCP
	// version; Session whether the server keeps sessions.
	Server   string
	Protocol string
	Session  bool
	// Tools describes the two tools twice calls.
	Tools []DoctorTool
	// Problems lists what is wrong, each with what to do next.
	Problems []string
}

// DoctorTool describes one tool twice calls.
type DoctorTool struct {
	// Purpose is the tool twice looked for (ToolListRuns, ToolGetRun).
	Purpose string
	// Name is the server's name for it ("" when missing).
	Name string
	// Arguments lists the properties it declares.
	Arguments []string
	// Mapping lists how twice's values map onto them ("project → projectId").
	Mapping []string
	// Required lists the properties the tool requires.
	Required []string
}

// OK reports whether the live source is usable.
func (r DoctorReport) OK() bool { return len(r.Problems) == 0 }

// Lines renders the report in words, one fact per line.
func (r DoctorReport) Lines() []string {
	out := []string{
		"endpoint: " + r.Endpoint,
		"organization: " + orNone(r.Org, "not set (the credential's own)"),
		"data-sharing level: " + r.Level,
		"credential: " + r.TokenSource,
	}
	switch {
	case r.Reachable && r.Protocol != "":
		line := "server: " + orNone(r.Server, "unnamed") + ", MCP protocol " + r.Protocol
		if r.Session {
			line += ", with a session"
		}
		out = append(out, line)
	case r.Reachable && r.NotAuthenticated:
		out = append(out, "server: reached, but it did not accept the credential"+statusText(r.Status))
	case r.Reachable:
		out = append(out, "server: reached, but no MCP session could be opened"+statusText(r.Status)+" (see the problem below)")
	case r.NotAuthenticated:
		out = append(out, "server: not contacted (no usable credential)")
	default:
		out = append(out, "server: not reached")
	}
	for _, t := range r.Tools {
		if t.Name == "" {
			out = append(out, "tool "+t.Purpose+": missing")
			continue
		}
		out = append(out, fmt.Sprintf("tool %s: arguments %s", t.Name, orNone(strings.Join(t.Arguments, ", "), "none")))
		if len(t.Mapping) > 0 {
			out = append(out, "  twice passes "+strings.Join(t.Mapping, ", "))
		}
		if len(t.Required) > 0 {
			out = append(out, "  required: "+strings.Join(t.Required, ", "))
		}
	}
	for _, p := range r.Problems {
		out = append(out, "problem: "+p)
	}
	if r.OK() {
		out = append(out, "the live source is ready")
	}
	return out
}

// statusText is " (HTTP 401)" for a status, "" for none.
func statusText(status int) string {
	if status == 0 {
		return ""
	}
	return fmt.Sprintf(" (HTTP %d)", status)
}

func orNone(s, none string) string {
	if s == "" {
		return none
	}
	return s
}

// Doctor checks the live source end to end without reading any run: it
// resolves the token, opens a session and lists the tools.
func (c *Client) Doctor(ctx context.Context) DoctorReport {
	r := c.doctor(ctx)
	// Every string in the report came from the server or names what it
	// declared: none shows the token.
	for _, s := range []*string{&r.Endpoint, &r.Host, &r.Org, &r.Level, &r.TokenSource, &r.Server, &r.Protocol} {
		*s = c.redact.String(*s)
	}
	for i := range r.Problems {
		r.Problems[i] = c.redact.String(r.Problems[i])
	}
	for i := range r.Tools {
		t := &r.Tools[i]
		t.Name = c.redact.String(t.Name)
		for _, list := range [][]string{t.Arguments, t.Mapping, t.Required} {
			for j := range list {
				list[j] = c.redact.String(list[j])
			}
		}
	}
	return r
}

func (c *Client) doctor(ctx context.Context) DoctorReport {
	r := DoctorReport{
		Endpoint: safetext.Line(c.endpoint.Redacted()),
		Host:     safetext.Line(c.host),
		Org:      safetext.Line(c.cfg.Org),
	}
	if c.cfg.Level != catalyst.LevelUnknown {
		r.Level = safetext.Line(string(c.cfg.Level)) + " (configured)"
	} else {
		r.Level = "not configured: inferred from each history (Catalyst's default is metadata)"
	}
	switch {
	case c.cfg.Token == nil:
		r.TokenSource = "no token source configured"
	default:
		r.TokenSource = "looked at " + c.cfg.Token.Describe()
	}
	s, err := c.ensureSession(ctx)
	if from := c.auth.tokenFrom(); from != "" {
		r.TokenSource = "token from " + from
	}
	r.Reachable = c.answered.Load()
	if err != nil {
		r.NotAuthenticated = errors.Is(err, ErrNotAuthenticated)
		var re *RefusalError
		var se *StatusError
		switch {
		case errors.As(err, &re):
			r.Status = re.Status
		case errors.As(err, &se):
			r.Status = se.Status
		}
		r.Problems = append(r.Problems, c.clean(err.Error(), 2048))
		return r
	}
	r.Authenticated = true
	r.Server = s.server
	r.Protocol = safetext.Line(s.protocol)
	r.Session = s.id != ""
	for _, tool := range []struct {
		name string
		keys []argKey
	}{
		{ToolListRuns, []argKey{argProject, argApp, argStatus, argWorkflow, argSince, argUntil, argLimit, argPageToken}},
		{ToolGetRun, []argKey{argProject, argApp, argRun}},
	} {
		dt := DoctorTool{Purpose: tool.name}
		info, ok := s.tool(tool.name)
		if !ok {
			r.Tools = append(r.Tools, dt)
			r.Problems = append(r.Problems, c.clean(c.missingTool(s, tool.name).Error(), 2048))
			continue
		}
		dt.Name = safetext.Line(info.name)
		for _, n := range info.names {
			dt.Arguments = append(dt.Arguments, safetext.Line(excerpt(n, 64)))
		}
		for _, n := range info.required {
			dt.Required = append(dt.Required, safetext.Line(excerpt(n, 64)))
		}
		for _, k := range tool.keys {
			if name, ok := info.property(k); ok {
				dt.Mapping = append(dt.Mapping, fmt.Sprintf("%s → %s", shortKey(k), safetext.Line(excerpt(name, 64))))
			} else if k == argRun || k == argPageToken {
				r.Problems = append(r.Problems, fmt.Sprintf("the %s tool declares no argument for %s (it declares: %s)", dt.Name, k, info.declared()))
			}
		}
		r.Tools = append(r.Tools, dt)
	}
	return r
}

// shortKey names a value in a doctor mapping line.
func shortKey(k argKey) string {
	switch k {
	case argProject:
		return "project"
	case argApp:
		return "app"
	case argRun:
		return "run id"
	case argStatus:
		return "status"
	case argWorkflow:
		return "workflow"
	case argSince:
		return "since"
	case argUntil:
		return "until"
	case argLimit:
		return "page size"
	case argPageToken:
		return "page token"
	}
	return "?"
}
