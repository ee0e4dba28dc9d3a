package catalysttest

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/twice-cli/twice/catalyst"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestBundled(t *testing.T) {
	runs := Bundled()
	var got []string
	for _, r := range runs {
		got = append(got, r.ID+"/"+r.AppID+"/"+r.Status)
		if r.CreatedAt.IsZero() || r.Workflow == "" || !json.Valid(r.Doc) {
			t.Errorf("run %s is incomplete: %+v", r.ID, r)
		}
	}
	want := "onboard-42/accounts/COMPLETED order-1001/orders/COMPLETED charge-7731/payments/COMPLETED refund-88/payments/FAILED"
	if strings.Join(got, " ") != want {
		t.Errorf("bundled = %s", strings.Join(got, " "))
	}
	r := runs[2].WithID("charge-0001")
	again, err := RunFromDoc(r.Doc)
	if err != nil || again.ID != "charge-0001" || runs[2].ID != "charge-7731" {
		t.Errorf("WithID: %+v, %v", again, err)
	}
	if _, err := RunFromDoc([]byte(`{"appId":"x"}`)); err == nil {
		t.Error("a document without instanceID was accepted")
	}
}

func TestApplyLevel(t *testing.T) {
	doc := []byte(`{"instanceID":"r","input":"{\"a\":1}","history":[{"event_id":0,"name":"A","input":"x","nested":{"result":"y","keep":[1,{"output":null,"customStatus":"s"}]}}],"customStatus":"c","output":""}`)
	got, err := ApplyLevel(doc, catalyst.LevelMetadata)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"instanceID":"r","history":[{"event_id":0,"name":"A","nested":{"keep":[1,{}]}}]}`
	if string(got) != want {
		t.Errorf("metadata:\n%s\nwant\n%s", got, want)
	}
	full, err := ApplyLevel(doc, catalyst.LevelFull)
	if err != nil || !bytes.Equal(full, doc) {
		t.Errorf("full changed the document: %s, %v", full, err)
	}
	for _, bad := range []string{`{"a":`, `{"a":1} x`, `[1,]`} {
		if _, err := ApplyLevel([]byte(bad), catalyst.LevelMetadata); err == nil {
			t.Errorf("ApplyLevel(%q) accepted malformed JSON", bad)
		}
	}
}

// bearer adds the test token to every request.
type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// sdkSession connects the official MCP client to srv with the test token;
// the session is closed when the test ends.
func sdkSession(t *testing.T, srv *Server) *mcp.ClientSession {
	t.Helper()
	client := mcp.NewClient(&mcp.Implementation{Name: "sdk-test", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: srv.URL, DisableStandaloneSSE: true,
		HTTPClient: &http.Client{Transport: bearer{TestToken}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// TestWithTheSDKClient: the stand-in serves the official MCP client, lists,
// pages, filters, withholds payloads at metadata and refuses unknown runs.
func TestWithTheSDKClient(t *testing.T) {
	srv := New(Options{PageSize: 2})
	defer srv.Close()
	ctx := context.Background()
	cs := sdkSession(t, srv)
	tools, err := cs.ListTools(ctx, nil)
	if err != nil || len(tools.Tools) != 2 {
		t.Fatalf("tools: %+v, %v", tools, err)
	}
	call := func(name string, args map[string]any) (string, bool) {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return res.Content[0].(*mcp.TextContent).Text, res.IsError
	}
	page1, _ := call(ToolListRuns, map[string]any{"projectId": "default"})
	if !strings.Contains(page1, `"nextPageToken":"p2"`) || strings.Count(page1, "instanceID") != 2 ||
		!strings.Contains(page1, "refund-88") || !strings.Contains(page1, "charge-7731") {
		t.Errorf("page 1 = %s", page1)
	}
	page2, _ := call(ToolListRuns, map[string]any{"projectId": "default", "pageToken": "p2"})
	if strings.Contains(page2, "nextPageToken") || !strings.Contains(page2, "order-1001") || !strings.Contains(page2, "onboard-42") {
		t.Errorf("page 2 = %s", page2)
	}
	failed, _ := call(ToolListRuns, map[string]any{"projectId": "default", "status": "failed", "startTimeFrom": "2026-11-30T10:00:00Z"})
	if strings.Count(failed, "instanceID") != 1 || !strings.Contains(failed, "refund-88") {
		t.Errorf("failed since 10:00 = %s", failed)
	}
	hist, isErr := call(ToolGetRun, map[string]any{"projectId": "default", "appId": "payments", "instanceId": "charge-7731"})
	if isErr || !strings.Contains(hist, `"origin__activity_retry_task_execution_id"`) ||
		strings.Contains(hist, `"input"`) || strings.Contains(hist, `"result"`) || strings.Contains(hist, `"output"`) {
		t.Errorf("history at metadata = %s", hist)
	}
	srv.SetLevel(catalyst.LevelFull)
	hist, _ = call(ToolGetRun, map[string]any{"instanceId": "charge-7731"})
	if !strings.Contains(hist, `"input"`) || !strings.Contains(hist, `"result"`) {
		t.Errorf("history at full lacks payloads: %s", hist)
	}
	srv.AddRun(Bundled()[2].WithID("charge-9"))
	if added, isErr := call(ToolGetRun, map[string]any{"instanceId": "charge-9"}); isErr || !strings.Contains(added, `"instanceID": "charge-9"`) {
		t.Errorf("added run = %.200s", added)
	}
	srv.SetPaging(PagingRepeat)
	if repeated, _ := call(ToolListRuns, map[string]any{"projectId": "default", "pageToken": "same-token"}); !strings.Contains(repeated, `"nextPageToken":"same-token"`) {
		t.Errorf("repeated paging = %s", repeated)
	}
	missing, isErr := call(ToolGetRun, map[string]any{"instanceId": "nope", "appId": "payments"})
	if !isErr || !strings.Contains(missing, `"kind":"NOT_FOUND"`) {
		t.Errorf("unknown run = %s (isError %v)", missing, isErr)
	}
	if srv.Count("initialize") != 1 || srv.Count(ToolListRuns) != 4 || srv.Count(ToolGetRun) != 4 || srv.Count("tools/call") != 8 {
		t.Errorf("counts: initialize %d, list %d, get %d, calls %d", srv.Count("initialize"), srv.Count(ToolListRuns), srv.Count(ToolGetRun), srv.Count("tools/call"))
	}
}

// post sends one JSON-RPC request as a client would and returns the answer.
func post(t *testing.T, url, token, body string) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

func TestTokenChecked(t *testing.T) {
	srv := New(Options{})
	defer srv.Close()
	for _, tok := range []string{"", "wrong"} {
		resp, body := post(t, srv.URL, tok, initialize)
		if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(resp.Header.Get("WWW-Authenticate"), "resource_metadata") ||
			!strings.Contains(body, "NOT_AUTHENTICATED") {
			t.Errorf("token %q: %d %s", tok, resp.StatusCode, body)
		}
	}
	if resp, _ := post(t, srv.URL, TestToken, initialize); resp.StatusCode != http.StatusOK {
		t.Errorf("the right token: %d", resp.StatusCode)
	}
	if srv.Count("http") != 3 || srv.Count("initialize") != 3 {
		t.Errorf("counted %d requests", srv.Count("http"))
	}
	open := New(Options{Token: "-"})
	defer open.Close()
	if resp, _ := post(t, open.URL, "", initialize); resp.StatusCode != http.StatusOK {
		t.Errorf("Token \"-\" refused a request without one: %d", resp.StatusCode)
	}
}

func TestFaultsAreUsedUp(t *testing.T) {
	srv := New(Options{JSONResponse: true})
	defer srv.Close()
	srv.Inject(StatusFault("initialize", 2, 503, "Retry-After", "3"), Refusal("tools/call", 1, "denied", "no", false))
	for i, want := range []int{503, 503, 200} {
		resp, body := post(t, srv.URL, TestToken, initialize)
		if resp.StatusCode != want {
			t.Errorf("request %d: %d %s", i+1, resp.StatusCode, body)
		}
		if want == 503 && resp.Header.Get("Retry-After") != "3" {
			t.Errorf("request %d: Retry-After %q", i+1, resp.Header.Get("Retry-After"))
		}
	}
	_, body := post(t, srv.URL, TestToken, `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"x"}}`)
	if !strings.Contains(body, `"isError":true`) || !strings.Contains(body, `\"kind\":\"denied\"`) || !strings.Contains(body, `"id":9`) {
		t.Errorf("refusal = %s", body)
	}
	if srv.Count("initialize") != 3 || srv.Count("tools/call") != 1 {
		t.Errorf("counts: %d, %d", srv.Count("initialize"), srv.Count("tools/call"))
	}
}
