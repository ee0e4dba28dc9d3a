package live

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/catalysttest"
)

// TestRefusalsAreTyped: every refusal kind, whichever way it arrives, is a
// *RefusalError of that kind, shown as a refusal, and retried only when the
// server marks it retryable and it is not a data-sharing refusal.
func TestRefusalsAreTyped(t *testing.T) {
	const tool = catalysttest.ToolGetRun
	rpcData := func(kind string) []byte {
		b, _ := marshal(map[string]any{"kind": kind, "retryable": false})
		return b
	}
	tests := []struct {
		name      string
		fault     catalysttest.Fault
		level     catalyst.Level
		wantKind  string
		wantCalls int
		wantText  []string
		check     func(*testing.T, *RefusalError)
	}{
		{name: "NOT_AUTHENTICATED as a tool error",
			fault:    catalysttest.Refusal(tool, 0, "NOT_AUTHENTICATED", "the session has no credential", false),
			wantKind: KindNotAuthenticated, wantCalls: 1, wantText: []string{"CATALYST_TOKEN"},
			check: func(t *testing.T, r *RefusalError) {
				if !errors.Is(r, ErrNotAuthenticated) {
					t.Error("NOT_AUTHENTICATED is not ErrNotAuthenticated")
				}
			}},
		{name: "ORG_MISMATCH names both organizations",
			fault: catalysttest.Refusal(tool, 0, "ORG_MISMATCH",
				"the organization supplied (acme-staging) does not match the credential's organization (acme-prod)", false),
			wantKind: KindOrgMismatch, wantCalls: 1,
			wantText: []string{"acme-staging", "acme-prod", "--org acme-prod"},
			check: func(t *testing.T, r *RefusalError) {
				if r.SuppliedOrg != "acme-staging" || r.CredentialOrg != "acme-prod" {
					t.Errorf("orgs = %q, %q", r.SuppliedOrg, r.CredentialOrg)
				}
			}},
		{name: "NO_ORG", fault: catalysttest.Refusal(tool, 0, "NO_ORG", "no organization selected", false),
			wantKind: KindNoOrg, wantCalls: 1, wantText: []string{"--org"}},
		{name: "NO_ORGANIZATION", fault: catalysttest.Refusal(tool, 0, "NO_ORGANIZATION", "no organization", false),
			wantKind: KindNoOrganization, wantCalls: 1},
		{name: "ORG_UNAVAILABLE marked retryable is retried once",
			fault:    catalysttest.Refusal(tool, 0, "ORG_UNAVAILABLE", "organization service unavailable", true),
			wantKind: KindOrgUnavailable, wantCalls: 2, wantText: []string{"try again"}},
		{name: "CATALYST_NOT_ENABLED", fault: catalysttest.Refusal(tool, 0, "CATALYST_NOT_ENABLED", "not enabled", false),
			wantKind: KindCatalystNotEnabled, wantCalls: 1},
		{name: "denied names the level and is never retried, even marked retryable",
			fault: catalysttest.Refusal(tool, 0, "denied", "response withheld", true), level: catalyst.LevelMetadata,
			wantKind: KindDenied, wantCalls: 1, wantText: []string{"(metadata)", "raise the level"},
			check: func(t *testing.T, r *RefusalError) {
				if !r.DataSharing() {
					t.Error("denied is not a data-sharing refusal")
				}
			}},
		{name: "no-policy", fault: catalysttest.Refusal(tool, 0, "no-policy", "operation has no reviewed policy", false),
			wantKind: KindNoPolicy, wantCalls: 1, wantText: []string{"report it to Diagrid"}},
		{name: "unfilterable on one run points past the level, not to a smaller page",
			fault:    catalysttest.Refusal(tool, 0, "unfilterable", "body truncated at the size limit", false),
			wantKind: KindUnfilterable, wantCalls: 1, wantText: []string{"Dapr CLI", "raise the level to full"},
			check: func(t *testing.T, r *RefusalError) {
				if strings.Contains(r.Error(), "--limit") || strings.Contains(r.Error(), "per page") {
					t.Errorf("a single run's refusal suggests a page size: %v", r)
				}
			}},
		{name: "DATA_SHARING_RESTRICTED", fault: catalysttest.Refusal(tool, 0, "DATA_SHARING_RESTRICTED", "restricted", false),
			wantKind: KindDataSharingRestricted, wantCalls: 1},
		{name: "a missing workflow store (FAILED_PRECONDITION in text) is not an empty result",
			fault: catalysttest.Fault{On: tool, Kind: catalysttest.FaultToolError,
				Body: "rpc error: code = FailedPrecondition desc = FAILED_PRECONDITION: no state store configured for workflows"},
			wantKind: KindNoWorkflowStore, wantCalls: 1, wantText: []string{"not an empty list"}},
		{name: "workflow API reported unsupported",
			fault:    catalysttest.Fault{On: tool, Kind: catalysttest.FaultToolError, Body: "the workflow API is unsupported on this project"},
			wantKind: KindNoWorkflowStore, wantCalls: 1},
		{name: "an unknown tool error keeps its text",
			fault:    catalysttest.Fault{On: tool, Kind: catalysttest.FaultToolError, Body: "something odd happened"},
			wantKind: KindToolError, wantCalls: 1, wantText: []string{"something odd happened"}},
		{name: "a refusal in an HTTP error body",
			fault: catalysttest.Fault{On: tool, Kind: catalysttest.FaultStatus, Status: 403,
				Body: `{"error":{"kind":"ORG_MISMATCH","message":"the organization supplied (a) does not match the credential's organization (b)","retryable":false}}`},
			wantKind: KindOrgMismatch, wantCalls: 1, wantText: []string{"HTTP 403"}},
		{name: "a refusal as a JSON-RPC error",
			fault:    catalysttest.Fault{On: tool, Kind: catalysttest.FaultRPCError, Code: -32000, Body: "withheld at this level", Data: rpcData("denied")},
			wantKind: KindDenied, wantCalls: 1, wantText: []string{"withheld at this level"}},
		{name: "a refusal as a successful result holding only Catalyst's error object",
			fault:    catalysttest.Fault{On: tool, Kind: catalysttest.FaultToolText, Body: `{"error":{"kind":"unfilterable","message":"cut"}}`},
			wantKind: KindUnfilterable, wantCalls: 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, catalysttest.Options{}, func(c *Config) {
				faultConfig(c)
				c.Level = tc.level
			})
			h.srv.Inject(tc.fault)
			f, err := h.client.Fetch(context.Background(), chargeRef)
			if err == nil {
				t.Fatalf("Fetch succeeded with %d events; want a refusal", f.History.Len())
			}
			var r *RefusalError
			if !errors.As(err, &r) {
				t.Fatalf("not a RefusalError: %T %v", err, err)
			}
			if r.Kind != tc.wantKind {
				t.Errorf("Kind = %q, want %q", r.Kind, tc.wantKind)
			}
			if got := h.srv.Count(tool); got != tc.wantCalls {
				t.Errorf("server saw %d calls, want %d", got, tc.wantCalls)
			}
			msg := err.Error()
			for _, s := range append([]string{"catalyst refused", "charge-7731", tc.wantKind}, tc.wantText...) {
				if !strings.Contains(msg, s) {
					t.Errorf("error %q lacks %q", msg, s)
				}
			}
			if tc.check != nil {
				tc.check(t, r)
			}
		})
	}
}

// TestListRefusalIsNotAnEmptyList: a refused list is an error, never zero runs.
func TestListRefusalIsNotAnEmptyList(t *testing.T) {
	h := newHarness(t, catalysttest.Options{}, faultConfig)
	h.srv.Inject(catalysttest.Refusal(catalysttest.ToolListRuns, 0, "denied", "withheld", false))
	list, err := h.client.ListRuns(context.Background(), catalyst.RunQuery{Project: "default"})
	var r *RefusalError
	if !errors.As(err, &r) || r.Kind != KindDenied {
		t.Fatalf("ListRuns = %+v, %v; want a denied refusal", list, err)
	}
	if len(list.Runs) != 0 || list.Partial {
		t.Errorf("a refused list returned %+v", list)
	}
}

func TestParseRefusal(t *testing.T) {
	tests := []struct {
		in       string
		ok       bool
		kind     string
		retry    bool
		supplied string
	}{
		{in: `{"error":{"kind":"ORG_MISMATCH","message":"the organization supplied (x (1)) does not match the credential's organization (y)","retryable":false}}`,
			ok: true, kind: KindOrgMismatch, supplied: "x (1"},
		{in: `{"kind":"no-policy","message":"m"}`, ok: true, kind: KindNoPolicy},
		{in: `{"error":{"kind":"ORG_UNAVAILABLE","retryable":true}}`, ok: true, kind: KindOrgUnavailable, retry: true},
		{in: `{"error":{"code":"PERMISSION_DENIED","message":"nope"}}`, ok: true, kind: KindForbidden},
		{in: `{"error":{"kind":"SOMETHING_NEW","message":"x"}}`, ok: true, kind: "SOMETHING_NEW"},
		{in: `NOT_AUTHENTICATED: sign in again`, ok: true, kind: KindNotAuthenticated},
		{in: `UNAUTHENTICATED_ISH is not a kind`, ok: false},
		{in: `workflow run "x" not found`, ok: true, kind: KindNotFound},
		{in: `{"errors":[{"title":"Internal Server Error"}]}`, ok: false},
		{in: ``, ok: false},
	}
	for _, tc := range tests {
		r, ok := parseRefusal([]byte(tc.in), true)
		if ok != tc.ok || r.Kind != tc.kind || r.Retryable != tc.retry || r.SuppliedOrg != tc.supplied {
			t.Errorf("parseRefusal(%q) = %+v, %v", tc.in, r, ok)
		}
	}
}
