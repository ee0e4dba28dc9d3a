package catalysttest

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// This file plants a token in everything a server controls, for tests
// that check no output of a client ever shows it: headers, bodies (around
// every length a client cuts an error at), the server's name, its tools'
// and arguments' names, and every field of a run and its history.

// CutPoints are the lengths at which twice cuts server text in messages
// (a kind, a tool or argument name, a request id, an excerpt, a 401 body, an
// error body, a body read for a message). A token planted across each of
// them checks that it is removed before the cut.
var CutPoints = []int{64, 80, 128, 200, 300, 1024, 2048, 4096}

// Straddle returns a body of filler with token crossing offset cut: its
// first half before cut, the rest after.
func Straddle(token string, cut int) string {
	before := max(cut-len(token)/2, 0)
	return strings.Repeat("x", before) + token + strings.Repeat("y", 32)
}

// UEscape returns s with every character written as a JSON \uXXXX escape.
func UEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r > 0xFFFF {
			b.WriteRune(r)
			continue
		}
		fmt.Fprintf(&b, `\u%04x`, r)
	}
	return b.String()
}

// Encodings returns token in the forms a server may echo it in: as is,
// JSON-escaped (\/ and \uXXXX), URL-encoded, base64, and base64 of
// "Bearer <token>".
func Encodings(token string) map[string]string {
	return map[string]string{
		"as is":            token,
		"slash-escaped":    strings.ReplaceAll(token, "/", `\/`),
		"u-escaped":        UEscape(token),
		"url-encoded":      url.QueryEscape(token),
		"base64":           base64.StdEncoding.EncodeToString([]byte(token)),
		"base64 bearer":    base64.StdEncoding.EncodeToString([]byte("Bearer " + token)),
		"base64url bearer": base64.RawURLEncoding.EncodeToString([]byte("Bearer " + token)),
		"hex":              hex.EncodeToString([]byte(token)),
		"HTML entities":    htmlEntities(token),
		"20-char prefix":   token[:min(20, len(token))] + "Zz9",
	}
}

// htmlEntities writes every character of s as a numeric HTML entity.
func htmlEntities(s string) string {
	var b strings.Builder
	for _, r := range s {
		fmt.Fprintf(&b, "&#%d;", r)
	}
	return b.String()
}

// EchoRun returns the bundled run charge-7731 with token planted in every
// field of its document the server writes: the workflow, status, app and
// project fields, every event's name, instance and execution ids, error
// type, message and stack trace, and every payload (holding the token as
// is and JSON-escaped, inside the payload's own JSON). Its id stays
// charge-7731, so that it is found. Serve it at the full level to keep
// its payloads.
func EchoRun(token string) Run {
	var base Run
	for _, r := range Bundled() {
		if r.ID == "charge-7731" {
			base = r
		}
	}
	var doc map[string]any
	if err := json.Unmarshal(base.Doc, &doc); err != nil {
		panic(fmt.Sprintf("catalysttest: charge-7731: %v", err)) // a build defect
	}
	payload := `{"note":"` + token + `","escaped":"` + UEscape(token) + `","slash":"` + strings.ReplaceAll(token, "/", `\/`) + `"}`
	plant := func(m map[string]any) {
		for k, v := range m {
			s, ok := v.(string)
			if !ok {
				continue
			}
			switch k {
			case "input", "output", "result", "customStatus", "custom_status":
				m[k] = payload
			case "timestamp", "createdAt", "lastUpdatedAt", "event_type", "instanceID", "fire_at":
			case "task_execution_id", "origin__activity_retry_task_execution_id":
				m[k] = s + "-" + token // both ends alike: the grouping holds
			default:
				m[k] = s + " " + token
			}
		}
	}
	plant(doc)
	doc["customStatus"] = payload
	if events, ok := doc["history"].([]any); ok {
		for _, e := range events {
			if m, ok := e.(map[string]any); ok {
				plant(m)
			}
		}
	}
	b, err := json.Marshal(doc)
	if err != nil {
		panic(err)
	}
	base.Doc = b
	base.Workflow += " " + token
	base.AppID = "payments"
	return base
}

// EchoListRun returns a run whose list row holds token in its id, app id,
// workflow name and status.
func EchoListRun(token string) Run {
	r := Bundled()[0]
	r = r.WithID("run-" + token)
	r.AppID = "app-" + token
	r.Workflow = "wf-" + token
	r.Status = "RUNNING " + token
	return r
}

// TokenEchoScenarios lists servers that echo token into everything they
// control: each header a client reads, bodies of every status with the
// token across every cut point and in every encoding, the server's name,
// tool names, argument names, and every field of a run list and a
// history. Some need their Options (the server's name, tools, runs).
func TokenEchoScenarios(token string) []LeakScenario {
	call := func(f Fault) []Fault { f.On = "tools/call"; return []Fault{f} }
	hdr := func(pairs ...string) http.Header {
		h := http.Header{}
		for i := 0; i+1 < len(pairs); i += 2 {
			h.Set(pairs[i], pairs[i+1])
		}
		return h
	}
	var out []LeakScenario
	add := func(name string, opts Options, faults ...Fault) {
		out = append(out, LeakScenario{Name: name, Options: opts, Faults: faults})
	}
	ok := `{"jsonrpc":"2.0","id":1,"result":{}}`
	add("Content-Type echoing the token", Options{}, call(Fault{Kind: FaultStatus, Status: 200,
		Header: hdr("Content-Type", "application/json; charset="+token+"; ;"), Body: ok})...)
	add("Content-Type echoing the token on every answer", Options{}, Fault{Kind: FaultStatus, Status: 200,
		Header: hdr("Content-Type", token+"/"+token+"; a"), Body: ok})
	add("Content-Type naming an unknown type with the token", Options{}, call(Fault{Kind: FaultStatus, Status: 200,
		Header: hdr("Content-Type", "text/"+token), Body: ok})...)
	add("X-Request-Id echoing the token", Options{}, call(Fault{Kind: FaultStatus, Status: 500,
		Header: hdr("X-Request-Id", token), Body: errorsBody("boom")})...)
	add("X-Correlation-Id echoing the token on a 503", Options{}, call(Fault{Kind: FaultStatus, Status: 503,
		Header: hdr("X-Correlation-Id", "id "+token), Body: "unavailable"})...)
	for _, cut := range CutPoints {
		body := Straddle(token, cut)
		add(fmt.Sprintf("401 body with the token across byte %d", cut), Options{}, Fault{Kind: FaultStatus, Status: 401, Body: body})
		add(fmt.Sprintf("500 body with the token across byte %d", cut), Options{}, call(Fault{Kind: FaultStatus, Status: 500, Body: body})...)
		add(fmt.Sprintf("tool error with the token across byte %d", cut), Options{}, call(Fault{Kind: FaultToolError, Body: body})...)
		add(fmt.Sprintf("JSON-RPC error with the token across byte %d", cut), Options{}, call(Fault{Kind: FaultRPCError, Code: -32000, Body: body})...)
		add(fmt.Sprintf("tool text with the token across byte %d", cut), Options{}, call(Fault{Kind: FaultToolText, Body: body})...)
		add(fmt.Sprintf("unreadable answer with the token across byte %d", cut), Options{}, call(Fault{Kind: FaultStatus, Status: 200, Body: "<" + body})...)
	}
	// A body cut through the token, then going on (issue 26, item 7): its
	// first 12 or 20 characters followed by a newline or a full stop, or
	// its last ones after a newline.
	for _, n := range []int{12, 20} {
		if n >= len(token) {
			continue
		}
		for name, after := range map[string]string{"a newline": "\n", "a full stop": ".", "an ellipsis": "…"} {
			body := "rejected: " + token[:n] + after
			add(fmt.Sprintf("401 body with the first %d characters of the token then %s", n, name), Options{}, Fault{Kind: FaultStatus, Status: 401, Body: body})
			add(fmt.Sprintf("500 body with the first %d characters of the token then %s", n, name), Options{}, call(Fault{Kind: FaultStatus, Status: 500, Body: body})...)
			add(fmt.Sprintf("tool error with the first %d characters of the token then %s", n, name), Options{}, call(Fault{Kind: FaultToolError, Body: body})...)
			add(fmt.Sprintf("JSON-RPC error with the first %d characters of the token then %s", n, name), Options{}, call(Fault{Kind: FaultRPCError, Code: -32000, Body: body})...)
		}
		add(fmt.Sprintf("500 body with the last %d characters of the token after a newline", n), Options{}, call(Fault{Kind: FaultStatus, Status: 500, Body: "cut\n" + token[len(token)-n:] + " rest"})...)
	}
	for name, enc := range Encodings(token) {
		add("500 body with the token "+name, Options{}, call(Fault{Kind: FaultStatus, Status: 500, Body: "token: " + enc})...)
		add("refusal with the token "+name, Options{}, Refusal("tools/call", 0, "DENIED", "no: "+enc, false))
	}
	add("refusal kind holding the token", Options{}, Refusal("tools/call", 0, "KIND_"+token, "x", false))
	add("server name echoing the token", Options{ServerName: "catalyst " + token})
	add("tool names echoing the token", Options{ToolPrefix: token + "__"})
	add("argument names echoing the token", Options{ArgNames: map[string]string{"pageSize": "pageSize" + token, "appId": "appId_" + token}})
	add("run id argument named by the token", Options{ArgNames: map[string]string{"instanceId": "id_" + token}})
	runs := []Run{EchoRun(token), EchoListRun(token)}
	for _, r := range Bundled() {
		if r.ID != "charge-7731" {
			runs = append(runs, r)
		}
	}
	add("run fields and history echoing the token", Options{Runs: runs, Level: "full"})
	return out
}
