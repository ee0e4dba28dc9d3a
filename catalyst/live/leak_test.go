package live

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/catalysttest"
	"github.com/twice-cli/twice/catalyst/secret"
	"go.uber.org/goleak"
)

// TestMain checks that no test leaves a goroutine behind.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// TestTokenNeverLeaks (B1): across successes, faults and refusals — some of
// whose bodies echo the token back — the token appears in no error, no
// returned value, no doctor report and no line of the debug log.
func TestTokenNeverLeaks(t *testing.T) {
	scenarios := catalysttest.TokenLeakScenarios(testSecret)
	for _, sc := range scenarios {
		t.Run(sc.Name, func(t *testing.T) {
			h := newHarness(t, catalysttest.Options{}, func(c *Config) {
				faultConfig(c)
				c.RequestTimeout = 100 * time.Millisecond
				c.MaxBodyBytes = 32 << 10
			})
			h.srv.Inject(sc.Faults...)
			var out strings.Builder
			list, err := h.client.ListRuns(context.Background(), catalyst.RunQuery{Project: "default"})
			fmt.Fprintf(&out, "%v\n%+v\n%#v\n%+v\n", err, err, err, list)
			f, err := h.client.Fetch(context.Background(), chargeRef)
			fmt.Fprintf(&out, "%v\n%+v\n%#v\n", err, err, err)
			if f != nil {
				fmt.Fprintf(&out, "%+v\n%s\n", f.History.Run, f.Raw)
			}
			rep := h.client.Doctor(context.Background())
			fmt.Fprintf(&out, "%+v\n%s\n", rep, strings.Join(rep.Lines(), "\n"))
			out.WriteString(h.debug.String())
			if strings.Contains(out.String(), testSecret) {
				t.Errorf("the token leaked:\n%s", out.String())
			}
			if h.debug.String() == "" {
				t.Error("the debug log is empty")
			}
		})
	}
}

// TestDebugLogRedacts: the debug log names header fields but no values, and
// replaces any occurrence of the token.
func TestDebugLogRedacts(t *testing.T) {
	var b lockedBuffer
	d := newDebugLog(&b, secret.New(testSecret))
	d.printf("server said %s \x1b[2J", testSecret)
	got := b.String()
	if strings.Contains(got, testSecret) || !strings.Contains(got, "[redacted]") || strings.Contains(got, "\x1b") {
		t.Errorf("debug line = %q", got)
	}
	var nilLog *debugLog
	nilLog.printf("no writer, no panic")
}

func TestDoctor(t *testing.T) {
	h := newHarness(t, catalysttest.Options{ToolPrefix: "mcp__catalyst__"}, func(c *Config) { c.Org = "org-9"; c.Level = catalyst.LevelMetadata })
	rep := h.client.Doctor(context.Background())
	text := strings.Join(rep.Lines(), "\n")
	for _, want := range []string{
		"endpoint: " + h.srv.URL,
		"organization: org-9",
		"data-sharing level: metadata (configured)",
		"credential: token from environment variable CATALYST_TOKEN",
		"server: catalysttest 1.0.0, MCP protocol 2025-06-18, with a session",
		"tool mcp__catalyst__catalyst_list_workflow_runs: arguments appId, pageSize, pageToken, projectId, startTimeFrom, startTimeTo, status, workflowName",
		"twice passes project → projectId, app → appId, status → status, workflow → workflowName, since → startTimeFrom, until → startTimeTo, page size → pageSize, page token → pageToken",
		"tool mcp__catalyst__catalyst_get_workflow_run: arguments appId, instanceId, projectId",
		"required: instanceId",
		"the live source is ready",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("doctor lacks %q:\n%s", want, text)
		}
	}
	if !rep.OK() || !rep.Reachable || !rep.Authenticated {
		t.Errorf("report = %+v", rep)
	}

	// No credential: a problem saying how to provide one, nothing sent.
	h2 := newHarness(t, catalysttest.Options{}, func(c *Config) { c.Token = TokenSources(TokenOptions{LookupEnv: env("")}) })
	rep = h2.client.Doctor(context.Background())
	text = strings.Join(rep.Lines(), "\n")
	if rep.OK() || !strings.Contains(text, "credential: looked at environment variable CATALYST_TOKEN") ||
		!strings.Contains(text, "problem: not authenticated with Catalyst: no Catalyst token found") || h2.srv.Count("http") != 0 {
		t.Errorf("doctor without a credential:\n%s", text)
	}

	if rep := doctorOnRenamedArguments(t); rep.OK() {
		t.Errorf("doctor passed a server without a run id argument: %v", rep.Lines())
	}
	// A server without the tools: the error names what it offers.
	err := h.client.missingTool(&session{toolNames: []string{"catalyst_whoami", "catalyst_list_projects"}}, ToolGetRun)
	if !strings.Contains(err.Error(), "offers no catalyst_get_workflow_run tool (it offers: catalyst_whoami, catalyst_list_projects)") ||
		!strings.Contains(err.Error(), "catalyst:read scope") {
		t.Errorf("missing tool: %v", err)
	}
}

// doctorOnRenamedArguments runs doctor against a server whose get tool has
// no run id argument twice recognises.
func doctorOnRenamedArguments(t *testing.T) DoctorReport {
	h := newHarness(t, catalysttest.Options{ArgNames: map[string]string{"instanceId": "handle", "pageToken": "after"}}, nil)
	rep := h.client.Doctor(context.Background())
	text := strings.Join(rep.Lines(), "\n")
	for _, want := range []string{
		"problem: the catalyst_get_workflow_run tool declares no argument for the run id (it declares: appId, handle, projectId)",
		"problem: the catalyst_list_workflow_runs tool declares no argument for the page token",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("doctor lacks %q:\n%s", want, text)
		}
	}
	return rep
}
