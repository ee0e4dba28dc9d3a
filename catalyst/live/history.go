package live

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/safetext"
)

// Fetched is one run's history as read from Catalyst, with what twice record
// needs to save it.
type Fetched struct {
	// History is the decoded history, its data-sharing level applied.
	History *catalyst.History
	// Raw is the history document exactly as the server sent it (the tool's
	// structured content, or its text content unescaped); a fixture stores
	// it byte for byte. It is the one thing the client returns that is not
	// redacted: when the server echoed the token into the history, History
	// shows "[redacted]" where Raw holds the token, and twice record
	// refuses to save it.
	Raw []byte
	// DataSharing is the level that applied: reported, configured,
	// inferred, or unknown.
	DataSharing catalyst.DataSharing
	// Endpoint is the endpoint's host.
	Endpoint string
	// Tool is the name of the tool that returned it.
	Tool string
	// Credential is the token the read used. Printing it shows only where
	// it came from; its Secret is for a saved file to refuse (record passes
	// it in fixtures.Recording.Secrets), whatever the token's source.
	Credential Token
}

// History returns one run's history (catalyst.Source).
func (c *Client) History(ctx context.Context, ref catalyst.RunRef) (*catalyst.History, error) {
	f, err := c.Fetch(ctx, ref)
	if err != nil {
		return nil, err
	}
	return f.History, nil
}

// Fetch reads one run's history with catalyst_get_workflow_run, decodes it
// and settles its data-sharing level (catalyst.ResolveDataSharing): the
// level the history reports, else Config.Level, else the level its
// payloads show (marked inferred), else unknown.
func (c *Client) Fetch(ctx context.Context, ref catalyst.RunRef) (*Fetched, error) {
	f, err := c.fetch(ctx, ref)
	return f, c.redact.Error(err)
}

func (c *Client) fetch(ctx context.Context, ref catalyst.RunRef) (*Fetched, error) {
	if strings.TrimSpace(ref.ID) == "" {
		return nil, errors.New("no run id given: name the run to read (twice show RUN_ID --app APP)")
	}
	op := describeRun(ref)
	res, info, err := c.callTool(ctx, op, ToolGetRun, func(t *toolInfo) (map[string]any, error) {
		return t.buildArgs([]argValue{
			{key: argProject, value: ref.Project},
			{key: argApp, value: ref.AppID},
			{key: argRun, value: ref.ID},
		})
	})
	if err != nil {
		return nil, err
	}
	if _, err := res.document(); err != nil {
		return nil, fmt.Errorf("%s: %w", op, err) // no JSON in it at all: the server's fault
	}
	// The history is the one a file holding this result would give:
	// catalyst picks the document and decodes it. The result is redacted,
	// so the history, and everything shown of it, never holds the token;
	// Raw is the same document as the server sent it.
	prov := catalyst.Provenance{Surface: catalyst.SurfaceCatalystMCP, Endpoint: c.host}
	h, which, err := catalyst.DecodeToolResult(&res.ToolResult, catalyst.DecodeOptions{Provenance: prov, MaxEvents: c.cfg.MaxEvents})
	if err != nil {
		return nil, fmt.Errorf("%s: the history %s returned cannot be read: %w", op, c.host, err)
	}
	raw := res.Doc(which)
	if res.original != nil {
		if d := res.original.Doc(which); d != nil {
			raw = d
		}
	}
	// Read as the run asked for. A history whose start alone names another
	// run is read (a Dapr 1.16 rerun: Run.ForeignStart says so); one whose
	// metadata names another run, or that is a rerun of the run asked
	// for, is not that run's.
	if err := h.Run.ReadAs(ref.ID); err != nil {
		var other *catalyst.OtherRunError
		if errors.As(err, &other) && other.RerunOf {
			return nil, fmt.Errorf("%w: %s: %s returned the history of a rerun of %s, not of %s itself",
				ErrBadResponse, op, c.host, safetext.Line(excerpt(ref.ID, 128)), safetext.Line(excerpt(ref.ID, 128)))
		}
		return nil, fmt.Errorf("%w: %s: %s returned the history of another run (%s)", ErrBadResponse, op, c.host, safetext.Line(excerpt(h.Run.ID, 128)))
	}
	fillRun(&h.Run, ref)
	h.Run.Provenance = prov
	// Catalyst's filter applies to whatever its tool returns.
	ds := h.SettleDataSharing(catalyst.LevelSources{Filtered: true, Configured: c.cfg.Level})
	return &Fetched{History: h, Raw: raw, DataSharing: ds, Endpoint: c.host, Tool: info.name, Credential: c.auth.current()}, nil
}

// describeRun says which run was asked for, for errors.
func describeRun(ref catalyst.RunRef) string {
	var b strings.Builder
	b.WriteString("reading run " + safetext.Line(ref.ID))
	if ref.AppID != "" {
		b.WriteString(" of app " + safetext.Line(ref.AppID))
	}
	if ref.Project != "" {
		b.WriteString(" in project " + safetext.Line(ref.Project))
	}
	return b.String()
}

// fillRun completes the run's identity from what was asked for.
func fillRun(run *catalyst.Run, ref catalyst.RunRef) {
	if run.ID == "" {
		run.ID = ref.ID
	}
	if run.AppID == "" {
		run.AppID = ref.AppID
	}
	if run.Project.Name == "" && run.Project.UID == "" {
		run.Project.Name = ref.Project
	}
}
