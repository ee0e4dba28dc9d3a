package live

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/go-resty/resty/v2"
	"github.com/twice-cli/twice/catalyst/safetext"
)

// rpcCall is one JSON-RPC exchange: a request (or a notification) POSTed to
// the endpoint.
type rpcCall struct {
	// op says what was asked for, in words, for errors.
	op     string
	method string
	params any
	notify bool
	// tool names the tool of a tools/call, for the debug log.
	tool string
}

// rpcMessage is a JSON-RPC 2.0 message as read: a response (id with result
// or error), or a request or notification from the server (method), which
// twice ignores.
type rpcMessage struct {
	JSONRPC string         `json:"jsonrpc"`
	ID      jsontext.Value `json:"id"`
	Method  string         `json:"method"`
	Result  jsontext.Value `json:"result"`
	Error   *rpcError      `json:"error"`
}

type rpcError struct {
	Code    int            `json:"code"`
	Message string         `json:"message"`
	Data    jsontext.Value `json:"data"`
}

type rpcRequest struct {
	JSONRPC string `json:"jsonrpc"`
	ID      *int64 `json:"id,omitzero"`
	Method  string `json:"method"`
	Params  any    `json:"params,omitzero"`
}

// rpcReply is a successful exchange: the result and the response headers,
// both with the token redacted.
type rpcReply struct {
	result jsontext.Value
	header http.Header
	// original is the result as the server sent it, kept only when it
	// held the token (twice record must see what it would save).
	original jsontext.Value
}

// errSessionGone marks an HTTP 404 to a request that carried a session id:
// the server forgot the session, and the client opens a new one.
var errSessionGone = errors.New("MCP session expired")

// attemptResult is the outcome of one HTTP attempt.
type attemptResult struct {
	reply *rpcReply
	err   error
	// retry is set for transient failures; retryAfter holds the
	// Retry-After header of a 429/503.
	retry      bool
	retryAfter string
	// once limits a retry to a single extra attempt (a refusal the server
	// marked retryable).
	once bool
}

// exchange sends call, retrying transient failures with backoff, honouring
// Retry-After up to its cap and the context throughout.
func (c *Client) exchange(ctx context.Context, sess *session, call rpcCall) (*rpcReply, error) {
	for attempt := 1; ; attempt++ {
		if ctx.Err() != nil {
			return nil, cancelled(ctx, call.op)
		}
		// Each attempt is a new request with an id of its own: one that
		// timed out may still be in flight at the server, which refuses a
		// second request with its id.
		req := rpcRequest{JSONRPC: "2.0", Method: call.method, Params: call.params}
		var id int64
		if !call.notify {
			id = c.nextID.Add(1)
			req.ID = &id
		}
		body, err := marshal(req)
		if err != nil {
			return nil, fmt.Errorf("%s: encoding the request: %w", call.op, err)
		}
		res := c.attempt(ctx, sess, call, body, id, attempt)
		if res.err == nil {
			return res.reply, nil
		}
		if ctx.Err() != nil {
			return nil, cancelled(ctx, call.op)
		}
		if !res.retry || attempt >= c.cfg.MaxAttempts || res.once && attempt >= 2 {
			var se *StatusError
			var re *RefusalError
			if errors.As(res.err, &se) {
				se.Attempts = attempt
			} else if res.retry && attempt > 1 && !errors.As(res.err, &re) {
				return nil, fmt.Errorf("%w (gave up after %d attempts; check the network and the endpoint with twice doctor, or open a saved history offline with twice show FILE)", res.err, attempt)
			}
			return nil, res.err
		}
		wait := backoff(attempt, c.cfg.BackoffBase, c.cfg.BackoffMax, c.cfg.Jitter)
		if res.retryAfter != "" {
			now := c.cfg.Now()
			asked, ok, tooLong := retryAfterWait(res.retryAfter, now, c.cfg.RetryAfterCap)
			if tooLong {
				d, _ := parseRetryAfter(res.retryAfter, now)
				if d > 100*365*24*time.Hour {
					d = 100 * 365 * 24 * time.Hour // an absurd header; keep the words readable
				}
				at := now.Add(d)
				return nil, &RateLimitError{Op: call.op, Host: c.host, RetryAfter: d, At: at, Cap: c.cfg.RetryAfterCap}
			}
			if ok && asked > wait {
				wait = asked
			}
		}
		c.debug.printf("retry %s in %v after attempt %d/%d: %v", call.method, wait.Round(time.Millisecond), attempt, c.cfg.MaxAttempts, res.err)
		if err := c.cfg.Sleep(ctx, wait); err != nil {
			return nil, cancelled(ctx, call.op+" (while waiting to retry)")
		}
	}
}

// attempt sends one HTTP request and classifies its outcome.
func (c *Client) attempt(ctx context.Context, sess *session, call rpcCall, body []byte, id int64, n int) attemptResult {
	actx, cancel := context.WithTimeout(ctx, c.cfg.RequestTimeout)
	defer cancel()
	r := c.http.R().
		SetContext(actx).
		SetHeader("Content-Type", "application/json").
		SetHeader("Accept", "application/json, text/event-stream").
		SetHeader("User-Agent", "twice/"+c.cfg.Version).
		SetBody(body)
	if sess != nil {
		r.SetHeader("MCP-Protocol-Version", sess.protocol)
		if sess.id != "" {
			r.SetHeader("Mcp-Session-Id", sess.id)
		}
	}
	what := call.method
	if call.tool != "" {
		what += " " + call.tool
	}
	c.debug.printf("→ POST %s %s attempt %d/%d (headers: Content-Type, Accept, Authorization, MCP-Protocol-Version, Mcp-Session-Id; values not logged)",
		c.endpoint.Redacted(), what, n, c.cfg.MaxAttempts)
	start := time.Now()
	resp, err := r.Post(c.endpoint.String())
	elapsed := time.Since(start)
	if resp != nil && resp.RawResponse != nil {
		c.answered.Store(true)
		if c.cfg.OnStatus != nil {
			c.cfg.OnStatus(resp.StatusCode())
		}
	}
	if err != nil {
		c.debug.printf("← %s failed after %v: %v", what, elapsed.Round(time.Millisecond), err)
		switch {
		case ctx.Err() != nil:
			return attemptResult{err: cancelled(ctx, call.op)}
		case errors.Is(err, resty.ErrResponseBodyTooLarge):
			return attemptResult{err: fmt.Errorf("%w: %s: the answer from %s is larger than %d bytes; %s",
				ErrResponseTooLarge, call.op, c.host, c.cfg.MaxBodyBytes, tooLargeHint(call.tool))}
		case errors.Is(err, errRedirect):
			return attemptResult{err: fmt.Errorf("%s: %w", call.op, unwrapURLError(err))}
		case actx.Err() == context.DeadlineExceeded:
			return attemptResult{retry: true, err: fmt.Errorf("%s: no complete answer from %s within %v", call.op, c.host, c.cfg.RequestTimeout)}
		}
		return attemptResult{retry: retryableTransportError(err), err: fmt.Errorf("%s: %w", call.op, err)}
	}
	status := resp.StatusCode()
	// The one place an answer comes in: from here on nothing of it, body
	// or header, holds the token, whatever later cuts it short.
	original := resp.Body()
	raw := c.redact.Bytes(original)
	header := c.redactHeader(resp.Header())
	ctype := header.Get("Content-Type")
	if ctype == "" {
		ctype = "(no Content-Type)"
	}
	c.debug.printf("← %d %s %s, %d bytes in %v", status, ctype, what, len(raw), elapsed.Round(time.Millisecond))
	if status >= 200 && status < 300 {
		if call.notify {
			return attemptResult{reply: &rpcReply{header: header}}
		}
		msg, err := parseReply(header.Get("Content-Type"), raw, id)
		if err != nil {
			return attemptResult{err: fmt.Errorf("%w: %s: %s answered in a way twice cannot read (%v); first bytes: %s",
				ErrBadResponse, call.op, c.host, err, c.excerpt(raw))}
		}
		if msg.Error != nil {
			return c.rpcFailure(call, msg.Error)
		}
		reply := &rpcReply{result: msg.Result, header: header}
		if len(raw) > 0 && len(original) > 0 && &raw[0] != &original[0] {
			if orig, err := parseReply(resp.Header().Get("Content-Type"), original, id); err == nil && orig.Error == nil {
				reply.original = orig.Result
			}
		}
		return attemptResult{reply: reply}
	}
	return c.statusFailure(call, sess, status, header, raw)
}

// redactHeader returns h with the token redacted from every value (h itself
// when no value holds it).
func (c *Client) redactHeader(h http.Header) http.Header {
	if c.redact.Empty() {
		return h
	}
	var out http.Header
	for k, vs := range h {
		for i, v := range vs {
			if clean := c.redact.String(v); clean != v {
				if out == nil {
					out = h.Clone()
				}
				out[k][i] = clean
			}
		}
	}
	if out == nil {
		return h
	}
	return out
}

// tooLargeHint says what to do about an answer over the body limit, by the
// operation: a run list can ask for fewer runs per page; one run's history
// cannot be cut, so only the limit helps.
func tooLargeHint(tool string) string {
	const limit = "max_body_bytes in the config (twice.yaml)"
	switch {
	case isTool(tool, ToolListRuns):
		return "ask for fewer runs per page (twice runs or scan with a smaller --limit or a narrower --since) or raise " + limit
	case isTool(tool, ToolGetRun):
		return "the run's history is that large: raise " + limit
	}
	return "raise " + limit
}

// isTool reports whether name is the tool want, with or without a client
// prefix.
func isTool(name, want string) bool {
	return name == want || strings.HasSuffix(name, "_"+want)
}

// statusFailure classifies a non-2xx answer.
func (c *Client) statusFailure(call rpcCall, sess *session, status int, header http.Header, raw []byte) attemptResult {
	refusal, isRefusal := parseRefusal(raw, false)
	if !isRefusal {
		// A JSON-RPC error body (the SDK answers some HTTP errors this way).
		var msg rpcMessage
		if unmarshal(raw, &msg) == nil && msg.Error != nil {
			refusal, isRefusal = refusalFromRPC(msg.Error)
		}
	}
	switch {
	case status == http.StatusUnauthorized:
		if !isRefusal || refusal.Kind != KindNotAuthenticated {
			refusal = RefusalError{Kind: KindNotAuthenticated, Message: bodyText(raw)}
		}
		return attemptResult{err: c.refusal(refusal, call.op, call.tool, status)}
	case status == http.StatusNotFound && sess != nil && sess.id != "" && !isRefusal:
		return attemptResult{err: errSessionGone}
	case retryableStatus(status):
		err := error(&StatusError{Status: status, Op: call.op, Host: c.host, Body: c.excerpt(raw), RequestID: requestID(header)})
		if isRefusal {
			err = c.refusal(refusal, call.op, call.tool, status)
		}
		return attemptResult{err: err, retry: true, retryAfter: header.Get("Retry-After")}
	case isRefusal:
		res := attemptResult{err: c.refusal(refusal, call.op, call.tool, status)}
		res.retry, res.once = c.retryOnce(refusal)
		return res
	case status == http.StatusForbidden:
		return attemptResult{err: c.refusal(RefusalError{Kind: KindForbidden, Message: bodyText(raw)}, call.op, call.tool, status)}
	case status == http.StatusNotFound:
		return attemptResult{err: c.refusal(RefusalError{Kind: KindNotFound,
			Message: "the endpoint " + c.endpoint.Redacted() + " has no MCP server; check the endpoint URL"}, call.op, call.tool, status)}
	}
	return attemptResult{err: &StatusError{Status: status, Op: call.op, Host: c.host, Body: c.excerpt(raw), RequestID: requestID(header)}}
}

// rpcFailure turns a JSON-RPC error into a refusal, or a plain error.
func (c *Client) rpcFailure(call rpcCall, e *rpcError) attemptResult {
	if r, ok := refusalFromRPC(e); ok {
		res := attemptResult{err: c.refusal(r, call.op, call.tool, 0)}
		res.retry, res.once = c.retryOnce(r)
		return res
	}
	return attemptResult{err: fmt.Errorf("%s: %s answered %s with JSON-RPC error %d: %s",
		call.op, c.host, call.method, e.Code, c.clean(e.Message, 300))}
}

// bodyText is what an error body says: the title and detail of a
// {"errors":[{"title","detail"}]} body (Catalyst's REST shape), else the
// start of the body.
func bodyText(raw []byte) string {
	var b struct {
		Errors []struct {
			Title  string `json:"title"`
			Detail string `json:"detail"`
		} `json:"errors"`
	}
	if unmarshal(raw, &b) == nil && len(b.Errors) > 0 {
		e := b.Errors[0]
		if e.Detail != "" && e.Title != "" {
			return e.Title + ": " + e.Detail
		}
		return e.Title + e.Detail
	}
	return excerpt(string(raw), 300)
}

// retryOnce says whether a refusal earns one more attempt: the server marked
// it retryable and it is not a data-sharing refusal.
func (c *Client) retryOnce(r RefusalError) (retry, once bool) {
	if r.Retryable && !r.DataSharing() {
		return true, true
	}
	return false, false
}

// refusalFromRPC reads a refusal from a JSON-RPC error's data or message.
func refusalFromRPC(e *rpcError) (RefusalError, bool) {
	if len(e.Data) > 0 {
		if r, ok := parseRefusal(e.Data, true); ok {
			if r.Message == "" || r.Message == string(e.Data) {
				r.Message = e.Message
			}
			return r, true
		}
	}
	return parseRefusal([]byte(e.Message), true)
}

// refusal completes a refusal with what was asked for, and sanitizes the
// server's message.
func (c *Client) refusal(r RefusalError, op, tool string, status int) *RefusalError {
	r.Op = op
	r.Tool = tool
	r.Host = c.host
	r.Status = status
	r.Message = c.clean(r.Message, 1024)
	r = withOrgs(r) // again, from the cleaned message
	r.Level = c.cfg.Level
	if r.Kind == KindNotAuthenticated {
		r.TokenFrom = c.auth.tokenFrom()
	}
	return &r
}

// clean makes server text safe to show: the token removed (before the
// cut: a token's first half is still the token), cut to n bytes, sanitized
// for a terminal.
func (c *Client) clean(s string, n int) string {
	return safetext.Line(excerpt(strings.TrimSpace(c.redact.String(s)), n))
}

// excerpt shows the start of a body, sanitized and at most 1 KiB. The body
// was redacted as it arrived, so the cut cannot leave part of the token.
func (c *Client) excerpt(raw []byte) string {
	if len(raw) > 4096 {
		raw = raw[:4096]
	}
	s := c.clean(string(raw), 1024)
	if s == "" {
		return "(empty body)"
	}
	return s
}

// requestID returns the server's request id header, sanitized.
func requestID(h http.Header) string {
	for _, k := range []string{"X-Request-Id", "X-Correlation-Id", "Request-Id"} {
		if v := h.Get(k); v != "" {
			return safetext.Line(excerpt(v, 128))
		}
	}
	return ""
}

// unwrapURLError drops net/http's `Post "url":` prefix from a refused
// redirect, keeping the policy's own words.
func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) && ue.Err != nil {
		return ue.Err
	}
	return err
}

// parseReply finds the response to request id in a body: a JSON object, a
// JSON array (batch), or a text/event-stream of messages.
func parseReply(contentType string, body []byte, id int64) (rpcMessage, error) {
	media := ""
	if contentType != "" {
		m, _, err := mime.ParseMediaType(contentType)
		if err != nil {
			return rpcMessage{}, fmt.Errorf("unreadable Content-Type %q", safetext.Line(excerpt(contentType, 80)))
		}
		media = m
	}
	want := strconv.FormatInt(id, 10)
	switch {
	case media == "text/event-stream":
		var found *rpcMessage
		var firstErr error
		sseData(body, func(data []byte) bool {
			msg, ok, err := matchMessage(data, want)
			if err != nil && firstErr == nil {
				firstErr = err
			}
			if ok {
				found = &msg
				return false
			}
			return true
		})
		if found != nil {
			return *found, nil
		}
		if firstErr != nil {
			return rpcMessage{}, firstErr
		}
		return rpcMessage{}, fmt.Errorf("the event stream ended without the answer to request %s", want)
	case media == "" || media == "application/json" || strings.HasSuffix(media, "+json"):
		msg, ok, err := matchMessage(body, want)
		if err != nil {
			return rpcMessage{}, err
		}
		if !ok {
			return rpcMessage{}, fmt.Errorf("the body holds no answer to request %s", want)
		}
		return msg, nil
	}
	return rpcMessage{}, fmt.Errorf("Content-Type %s is neither application/json nor text/event-stream", safetext.Line(media))
}

// matchMessage reads one JSON-RPC message or a batch and returns the
// response whose id is want.
func matchMessage(data []byte, want string) (rpcMessage, bool, error) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return rpcMessage{}, false, errors.New("empty body")
	}
	var batch []rpcMessage
	if data[0] == '[' {
		if err := unmarshal(data, &batch); err != nil {
			return rpcMessage{}, false, fmt.Errorf("malformed JSON: %v", err)
		}
	} else {
		var m rpcMessage
		if err := unmarshal(data, &m); err != nil {
			return rpcMessage{}, false, fmt.Errorf("malformed JSON: %v", err)
		}
		batch = []rpcMessage{m}
	}
	for _, m := range batch {
		if m.Method != "" || !sameID(m.ID, want) {
			continue
		}
		if m.JSONRPC != "2.0" {
			return rpcMessage{}, false, fmt.Errorf("not a JSON-RPC 2.0 response (jsonrpc %q)", safetext.Line(excerpt(m.JSONRPC, 16)))
		}
		if m.Error == nil && len(m.Result) == 0 {
			return rpcMessage{}, false, errors.New("a JSON-RPC response with neither result nor error")
		}
		return m, true, nil
	}
	return rpcMessage{}, false, nil
}

// sameID compares a response id (a number, or a string holding one) with
// the decimal id sent.
func sameID(raw jsontext.Value, want string) bool {
	s := string(bytes.TrimSpace(raw))
	return s == want || s == `"`+want+`"`
}

// sseData calls yield with the data of each event in a text/event-stream
// body (data lines joined with newlines), until yield returns false. An
// event of one data line is passed without copying it.
func sseData(body []byte, yield func([]byte) bool) {
	var data []byte
	have, owned := false, false
	dispatch := func() bool {
		if !have {
			return true
		}
		d := data
		data, have, owned = nil, false, false
		return yield(d)
	}
	for len(body) > 0 {
		line := body
		next := len(body)
		if i := bytes.IndexAny(body, "\r\n"); i >= 0 {
			line = body[:i]
			next = i + 1
			if body[i] == '\r' && i+1 < len(body) && body[i+1] == '\n' {
				next = i + 2
			}
		}
		body = body[next:]
		switch {
		case len(line) == 0:
			if !dispatch() {
				return
			}
		case line[0] == ':':
			// comment
		default:
			field, value := line, []byte(nil)
			if i := bytes.IndexByte(line, ':'); i >= 0 {
				field, value = line[:i], line[i+1:]
				if len(value) > 0 && value[0] == ' ' {
					value = value[1:]
				}
			}
			if string(field) == "data" {
				switch {
				case !have:
					data = value // a subslice of body: most events have one line
				case !owned:
					data = append(append(append([]byte(nil), data...), '\n'), value...)
					owned = true
				default:
					data = append(append(data, '\n'), value...)
				}
				have = true
			}
		}
	}
	dispatch()
}
