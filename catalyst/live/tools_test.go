package live

import (
	"github.com/go-json-experiment/json/jsontext"
	"reflect"
	"strings"
	"testing"

	"github.com/twice-cli/twice/catalyst"
)

func TestBuildArgs(t *testing.T) {
	tests := []struct {
		name    string
		schema  string
		values  []argValue
		want    map[string]any
		wantErr string
	}{
		{name: "Catalyst-like names",
			schema: `{"type":"object","properties":{"projectId":{"type":"string"},"appId":{"type":"string"},"instanceId":{"type":"string"}},"required":["projectId","instanceId"]}`,
			values: []argValue{{key: argProject, value: "default"}, {key: argApp, value: "payments"}, {key: argRun, value: "r1"}},
			want:   map[string]any{"projectId": "default", "appId": "payments", "instanceId": "r1"}},
		{name: "control-plane spelling and snake case",
			schema: `{"properties":{"ProjectId":{"type":"string"},"app_id":{"type":"string"},"run_id":{"type":"string"}}}`,
			values: []argValue{{key: argProject, value: "default"}, {key: argApp, value: "payments"}, {key: argRun, value: "r1"}},
			want:   map[string]any{"ProjectId": "default", "app_id": "payments", "run_id": "r1"}},
		{name: "a plain id when nothing better is declared",
			schema: `{"properties":{"project":{"type":"string"},"id":{"type":"string"}}}`,
			values: []argValue{{key: argProject, value: "p"}, {key: argRun, value: "r1"}},
			want:   map[string]any{"project": "p", "id": "r1"}},
		{name: "arrays, enums and types",
			schema: `{"properties":{"projectId":{"type":"string"},"statuses":{"type":"array","items":{"type":"string","enum":["RUNNING","FAILED"]}},
				"limit":{"type":["string","null"]},"cursor":{"type":"string"},"startAfter":{"type":"string","format":"date-time"},"appIds":{"type":"array","items":{"type":"string"}}}}`,
			values: []argValue{{key: argProject, value: "p"}, {key: argStatus, value: catalyst.Status("failed")}, {key: argLimit, value: 25, optional: true},
				{key: argPageToken, value: "tok"}, {key: argSince, value: "2026-11-30T00:00:00Z"}, {key: argApp, value: "a"}},
			want: map[string]any{"projectId": "p", "statuses": []any{"FAILED"}, "limit": "25", "cursor": "tok", "startAfter": "2026-11-30T00:00:00Z", "appIds": []any{"a"}}},
		{name: "an integer page size",
			schema: `{"properties":{"pageSize":{"type":"integer"}}}`,
			values: []argValue{{key: argLimit, value: 10, optional: true}},
			want:   map[string]any{"pageSize": 10}},
		{name: "empty values are not sent; optional ones are dropped when undeclared",
			schema: `{"properties":{"projectId":{"type":"string"}}}`,
			values: []argValue{{key: argProject, value: "p"}, {key: argApp, value: ""}, {key: argLimit, value: 10, optional: true}},
			want:   map[string]any{"projectId": "p"}},
		{name: "a value with no property",
			schema:  `{"properties":{"projectId":{"type":"string"},"name":{"type":"string"}}}`,
			values:  []argValue{{key: argProject, value: "p"}, {key: argApp, value: "a"}},
			wantErr: "the server's t tool declares no argument for the app id (--app) (it declares: name, projectId)"},
		{name: "a required property with no value",
			schema:  `{"properties":{"projectId":{"type":"string"},"instanceId":{"type":"string"}},"required":["projectId","instanceId"]}`,
			values:  []argValue{{key: argRun, value: "r"}},
			wantErr: "requires projectId, the project (--project), which twice has no value for"},
		{name: "a required property twice does not know",
			schema:  `{"properties":{"region":{"type":"string"}},"required":["region"]}`,
			wantErr: "requires region, which twice has no value for (it declares: region)"},
		{name: "an unreadable schema declares nothing",
			schema:  `"nope"`,
			values:  []argValue{{key: argRun, value: "r"}},
			wantErr: "declares no argument for the run id (it declares: none)"},
	}
	for _, tc := range tests {
		tool := parseToolSchema("t", jsontext.Value(tc.schema))
		got, err := tool.buildArgs(tc.values)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%s: err = %v, want %q", tc.name, err, tc.wantErr)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %#v, %v; want %#v", tc.name, got, err, tc.want)
		}
	}
}

func TestToolSuffixMatch(t *testing.T) {
	s := &session{tools: map[string]*toolInfo{}}
	for _, n := range []string{"mcp__catalyst__catalyst_get_workflow_run", "catalyst_get_workflow_runs_v2", "catalyst_list_workflow_runs"} {
		s.tools[n] = &toolInfo{name: n}
		s.toolNames = append(s.toolNames, n)
	}
	if got, ok := s.tool(ToolGetRun); !ok || got.name != "mcp__catalyst__catalyst_get_workflow_run" {
		t.Errorf("get tool = %v", got)
	}
	if got, ok := s.tool(ToolListRuns); !ok || got.name != ToolListRuns {
		t.Errorf("list tool = %v", got)
	}
	if _, ok := s.tool("catalyst_export_workflow_run"); ok {
		t.Error("found a tool the server does not offer")
	}
}

func TestNormName(t *testing.T) {
	for in, want := range map[string]string{"projectId": "projectid", "Project_ID": "projectid", "status[]": "status", "page-token": "pagetoken"} {
		if got := normName(in); got != want {
			t.Errorf("normName(%q) = %q, want %q", in, got, want)
		}
	}
}
