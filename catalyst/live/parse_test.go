package live

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/twice-cli/twice/catalyst"
)

func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)
	limit := time.Minute
	tests := []struct {
		in      string
		wait    time.Duration
		ok      bool
		tooLong bool
	}{
		{in: "", ok: false},
		{in: "2", wait: 2 * time.Second, ok: true},
		{in: " 0 ", wait: 0, ok: true},
		{in: "60", wait: time.Minute, ok: true},
		{in: "61", wait: limit, ok: true, tooLong: true},
		{in: "3600", wait: limit, ok: true, tooLong: true},
		{in: "99999999999999999999999", wait: limit, ok: true, tooLong: true},
		{in: "-5", ok: false},
		{in: "+5", ok: false},
		{in: "1.5", ok: false},
		{in: "abc", ok: false},
		{in: "Wed, 02 Dec 2026 10:00:30 GMT", wait: 30 * time.Second, ok: true},
		{in: "Wed, 02 Dec 2026 09:00:00 GMT", wait: 0, ok: true},
		{in: "Wed, 02 Dec 2026 11:00:00 GMT", wait: limit, ok: true, tooLong: true},
		{in: "Wednesday, 02-Dec-26 10:00:10 GMT", wait: 10 * time.Second, ok: true},
		{in: "Wed Dec  2 10:00:05 2026", wait: 5 * time.Second, ok: true},
	}
	for _, tc := range tests {
		wait, ok, tooLong := retryAfterWait(tc.in, now, limit)
		if wait != tc.wait || ok != tc.ok || tooLong != tc.tooLong {
			t.Errorf("retryAfterWait(%q) = %v, %v, %v; want %v, %v, %v", tc.in, wait, ok, tooLong, tc.wait, tc.ok, tc.tooLong)
		}
	}
}

// FuzzRetryAfter: for seconds, dates and garbage, the wait is always within
// [0, cap], an unusable header waits nothing, and too long means capped.
func FuzzRetryAfter(f *testing.F) {
	for _, s := range []string{"2", "0", "3600", "Wed, 02 Dec 2026 10:00:30 GMT", "abc", "-1", "18446744073709551616", ""} {
		f.Add(s, int64(1795860000), int64(60))
	}
	f.Fuzz(func(t *testing.T, v string, nowUnix int64, capSeconds int64) {
		if capSeconds < 0 || capSeconds > 1<<20 {
			return
		}
		limit := time.Duration(capSeconds) * time.Second
		now := time.Unix(nowUnix%(1<<40), 0)
		wait, ok, tooLong := retryAfterWait(v, now, limit)
		if wait < 0 || wait > limit {
			t.Fatalf("retryAfterWait(%q) = %v outside [0, %v]", v, wait, limit)
		}
		if !ok && (wait != 0 || tooLong) {
			t.Fatalf("unusable %q gave wait %v tooLong %v", v, wait, tooLong)
		}
		if tooLong && wait != limit {
			t.Fatalf("too long %q waits %v, not the cap", v, wait)
		}
		if d, ok2 := parseRetryAfter(v, now); ok2 != ok || d < 0 {
			t.Fatalf("parseRetryAfter(%q) = %v, %v", v, d, ok2)
		}
	})
}

func TestBackoff(t *testing.T) {
	none := func(time.Duration) time.Duration { return 0 }
	most := func(n time.Duration) time.Duration { return n - 1 }
	base, limit := 100*time.Millisecond, time.Second
	for n, want := range map[int]time.Duration{1: 50 * time.Millisecond, 2: 100 * time.Millisecond, 3: 200 * time.Millisecond, 4: 400 * time.Millisecond, 5: 500 * time.Millisecond, 60: 500 * time.Millisecond} {
		if got := backoff(n, base, limit, none); got != want {
			t.Errorf("backoff(%d) = %v, want %v", n, got, want)
		}
		if got := backoff(n, base, limit, most); got >= 2*want || got < want {
			t.Errorf("backoff(%d) with full jitter = %v, want in [%v, %v)", n, got, want, 2*want)
		}
	}
	for i := 0; i < 1000; i++ {
		if d := randomJitter(10 * time.Millisecond); d < 0 || d >= 10*time.Millisecond {
			t.Fatalf("randomJitter = %v", d)
		}
	}
}

func TestParseReply(t *testing.T) {
	tests := []struct {
		name, ctype, body string
		ok                bool
		wantErr           string
	}{
		{name: "json", ctype: "application/json", body: `{"jsonrpc":"2.0","id":7,"result":{"x":1}}`, ok: true},
		{name: "json with charset", ctype: "application/json; charset=utf-8", body: `{"jsonrpc":"2.0","id":7,"result":{}}`, ok: true},
		{name: "string id", ctype: "application/json", body: `{"jsonrpc":"2.0","id":"7","result":{}}`, ok: true},
		{name: "batch", ctype: "application/json", body: `[{"jsonrpc":"2.0","id":6,"result":{}},{"jsonrpc":"2.0","id":7,"result":{"x":1}}]`, ok: true},
		{name: "sse after a notification and a comment, CRLF", ctype: "text/event-stream",
			body: ": keepalive\r\nevent: message\r\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\"}\r\n\r\nid: 1\r\ndata: {\"jsonrpc\":\"2.0\",\r\ndata: \"id\":7,\"result\":{\"x\":1}}\r\n\r\n", ok: true},
		{name: "sse without the final blank line", ctype: "text/event-stream", body: "data:{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}", ok: true},
		{name: "sse for another id", ctype: "text/event-stream", body: "data: {\"jsonrpc\":\"2.0\",\"id\":8,\"result\":{}}\n\n", wantErr: "ended without the answer to request 7"},
		{name: "sse with garbage", ctype: "text/event-stream", body: "data: {nope\n\n", wantErr: "malformed JSON"},
		{name: "json for another id", ctype: "application/json", body: `{"jsonrpc":"2.0","id":8,"result":{}}`, wantErr: "no answer to request 7"},
		{name: "not 2.0", ctype: "application/json", body: `{"jsonrpc":"1.0","id":7,"result":{}}`, wantErr: "not a JSON-RPC 2.0"},
		{name: "neither result nor error", ctype: "application/json", body: `{"jsonrpc":"2.0","id":7}`, wantErr: "neither result nor error"},
		{name: "html", ctype: "text/html", body: `<html>`, wantErr: "neither application/json nor text/event-stream"},
		{name: "bad content type", ctype: "text/;;", body: `{}`, wantErr: "unreadable Content-Type"},
	}
	for _, tc := range tests {
		msg, err := parseReply(tc.ctype, []byte(tc.body), 7)
		if tc.ok {
			if err != nil || string(msg.ID) == "" || len(msg.Result) == 0 {
				t.Errorf("%s: %+v, %v", tc.name, msg, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
			t.Errorf("%s: err = %v, want %q", tc.name, err, tc.wantErr)
		}
	}
}

func TestParseRunPage(t *testing.T) {
	row := `{"instanceID":"r1","workflowName":"W","runtimeStatus":"RUNNING","createdAt":"2026-11-30T09:14:02Z","appId":"a"}`
	tests := []struct {
		name, doc string
		rows      int
		next      string
		wantErr   string
	}{
		{name: "items + nextPageToken", doc: `{"items":[` + row + `],"nextPageToken":"t2"}`, rows: 1, next: "t2"},
		{name: "runs + continuationToken", doc: `{"runs":[` + row + `,` + row + `],"continuationToken":"c"}`, rows: 2, next: "c"},
		{name: "workflowRuns + next", doc: `{"workflowRuns":[` + row + `],"next":"n"}`, rows: 1, next: "n"},
		{name: "bare array", doc: `[` + row + `]`, rows: 1},
		{name: "data object with items and token in metadata", doc: `{"data":{"items":[` + row + `]},"metadata":{"continue":"k"}}`, rows: 1, next: "k"},
		{name: "data array, numeric token", doc: `{"data":[` + row + `],"nextToken":17}`, rows: 1, next: "17"},
		{name: "null items", doc: `{"items":null}`, rows: 0},
		{name: "case-folded keys", doc: `{"Items":[` + row + `],"NextPageToken":"x"}`, rows: 1, next: "x"},
		{name: "no array", doc: `{"count":3,"what":"x"}`, wantErr: "holds no array of runs (its keys: count, what)"},
		{name: "not an object", doc: `"hello"`, wantErr: "not a JSON object or array"},
		{name: "row not an object", doc: `{"items":[1]}`, wantErr: "run 1 of the page is not a JSON object"},
	}
	for _, tc := range tests {
		p, err := parseRunPage([]byte(tc.doc))
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%s: err = %v, want %q", tc.name, err, tc.wantErr)
			}
			continue
		}
		if err != nil || len(p.rows) != tc.rows || p.next != tc.next {
			t.Errorf("%s: %d rows, next %q, %v", tc.name, len(p.rows), p.next, err)
		}
	}
}

func TestRunsOfRows(t *testing.T) {
	c, err := New(Config{Level: catalyst.LevelMetadata})
	if err != nil {
		t.Fatal(err)
	}
	p, err := parseRunPage([]byte(`{"items":[
		{"instance_id":"a","workflow_name":"W","status":"failed","created_at":1764493200000,"updated_at":"2026-11-30T09:00:05Z","app_id":"app","input":"{\"k\":1}","output":{"v":2},"customStatus":null},
		{"workflowName":"no id"},
		{"id":7,"startTime":1764493100}]}`))
	if err != nil {
		t.Fatal(err)
	}
	rp := c.runsOf(p, catalyst.RunQuery{Project: "default", AppID: "fallback"})
	if len(rp.runs) != 2 || rp.skipped != 1 {
		t.Fatalf("runs %d skipped %d", len(rp.runs), rp.skipped)
	}
	a, b := rp.runs[0], rp.runs[1]
	if a.ID != "a" || a.Workflow != "W" || !a.Status.Is(catalyst.StatusFailed) || a.AppID != "app" ||
		a.CreatedAt != time.UnixMilli(1764493200000).UTC() || a.UpdatedAt.IsZero() ||
		a.Input.Text() != `{"k":1}` || a.Output.Text() != `{"v":2}` || a.CustomStatus.State != catalyst.PayloadNotRequested ||
		a.DataSharing.Level != catalyst.LevelMetadata || a.Project.Name != "default" {
		t.Errorf("run a = %+v", a)
	}
	if b.ID != "7" || b.AppID != "fallback" || b.CreatedAt != time.Unix(1764493100, 0).UTC() {
		t.Errorf("run b = %+v", b)
	}
	list, err := paginate(t.Context(), func(context.Context, string, int) (runPage, error) { return rp, nil }, 10, 5)
	if err != nil || !list.Partial || !strings.Contains(list.Reason, "1 rows had no run id") {
		t.Errorf("a page with a row lacking an id: partial %v, reason %q, %v", list.Partial, list.Reason, err)
	}
}

func TestBodyText(t *testing.T) {
	for in, want := range map[string]string{
		`{"errors":[{"title":"Forbidden","detail":"role apiConsumer cannot read project p"}]}`: "Forbidden: role apiConsumer cannot read project p",
		`{"errors":[{"title":"Forbidden"}]}`:                                                   "Forbidden",
		`plain words`:                                                                          "plain words",
	} {
		if got := bodyText([]byte(in)); got != want {
			t.Errorf("bodyText(%s) = %q, want %q", in, got, want)
		}
	}
}

// TestFoldedKeys pins how rows with keys differing only in case or
// spelling, and duplicate keys, are read: the first in byte order of the
// spellings wins; of two identical keys, the last.
func TestFoldedKeys(t *testing.T) {
	m, err := foldedObject([]byte(`{"instanceID":"lower","InstanceId":"upper","instance_id":"snake","x":1,"x":2}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := scalarString(m["instanceid"]); got != "upper" {
		t.Errorf("instanceid = %q, want upper", got)
	}
	if got := scalarString(m["x"]); got != "2" {
		t.Errorf("duplicate x = %q, want the last", got)
	}
}
