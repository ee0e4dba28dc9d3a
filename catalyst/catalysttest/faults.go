package catalysttest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/twice-cli/twice/catalyst/internal/sleep"
)

// FaultKind is how a fault answers.
type FaultKind int

// Fault kinds.
const (
	// FaultStatus answers Status with Header and Body.
	FaultStatus FaultKind = iota
	// FaultRedirect answers Status (default 307) with Location.
	FaultRedirect
	// FaultDelay waits Delay (or until the client gives up), then serves
	// the request normally.
	FaultDelay
	// FaultSlowBody starts a 200 answer and trickles Body one byte per
	// Delay (default 1 s), until done or the client gives up.
	FaultSlowBody
	// FaultTruncate announces a Content-Length of len(Body)*2, sends Body
	// and closes the connection.
	FaultTruncate
	// FaultHangup closes the connection without answering.
	FaultHangup
	// FaultOversized answers 200 with Size bytes of JSON (0: without end,
	// until the client stops reading).
	FaultOversized
	// FaultRPCError answers a JSON-RPC error: Code, Body as the message,
	// Data as its data.
	FaultRPCError
	// FaultToolError answers a tools/call with a result marked isError
	// whose text is Body (e.g. {"error":{"kind":"denied",…}}).
	FaultToolError
	// FaultToolText answers a tools/call with a successful result whose
	// text is Body (malformed or unexpected documents).
	FaultToolText
)

// Fault is an answer injected in place of the server's.
type Fault struct {
	// On selects requests: "" every POST, a JSON-RPC method
	// ("initialize", "tools/list", "tools/call") or a tool name (without
	// prefix).
	On string
	// Times is how many matching requests it answers; 0 means all.
	Times int
	// Kind is how it answers.
	Kind FaultKind
	// Status, Header and Body make up the answer.
	Status int
	Header http.Header
	Body   string
	// Delay paces FaultDelay and FaultSlowBody.
	Delay time.Duration
	// Location is a redirect's target.
	Location string
	// Size is a FaultOversized body's length.
	Size int64
	// Code and Data make up a FaultRPCError.
	Code int
	Data json.RawMessage
}

// StatusFault answers status on requests matching on, times times (0: all),
// with header pairs ("Retry-After", "2").
func StatusFault(on string, times, status int, headerPairs ...string) Fault {
	h := http.Header{}
	for i := 0; i+1 < len(headerPairs); i += 2 {
		h.Set(headerPairs[i], headerPairs[i+1])
	}
	return Fault{On: on, Times: times, Kind: FaultStatus, Status: status, Header: h,
		Body: errorsBody(http.StatusText(status))}
}

// Refusal answers a tool call with Catalyst's refusal shape:
// {"error":{"kind":kind,"message":message,"retryable":retryable}}.
func Refusal(tool string, times int, kind, message string, retryable bool) Fault {
	b, _ := json.Marshal(map[string]any{"error": map[string]any{"kind": kind, "message": message, "retryable": retryable}})
	return Fault{On: tool, Times: times, Kind: FaultToolError, Body: string(b)}
}

// rpcPeek is what the middleware reads of a request body.
type rpcPeek struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"params"`
}

// middleware counts and records requests, checks the token, adds latency
// and answers with a fault when one matches.
func (s *Server) middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(io.LimitReader(r.Body, 8<<20))
		if err != nil {
			http.Error(w, "unreadable body", http.StatusBadRequest)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		var peek rpcPeek
		_ = json.Unmarshal(body, &peek)
		tool := strings.TrimPrefix(peek.Params.Name, s.opts.ToolPrefix)

		s.mu.Lock()
		s.counts["http"]++
		if peek.Method != "" {
			s.counts[peek.Method]++
		}
		if tool != "" && peek.Method == "tools/call" {
			s.counts[tool]++
		}
		s.seen = append(s.seen, Seen{
			Method: peek.Method, Tool: tool,
			Authorization: r.Header.Get("Authorization"), OrgID: r.Header.Get("x-diagrid-orgid"),
			SessionID: r.Header.Get("Mcp-Session-Id"), ProtocolVersion: r.Header.Get("MCP-Protocol-Version"),
			Arguments: string(peek.Params.Arguments),
			ID:        string(peek.ID),
		})
		fault := s.takeFault(peek.Method, tool)
		s.mu.Unlock()

		if err := sleep.For(r.Context(), s.opts.Latency); err != nil {
			return
		}
		if s.opts.Token != "-" && r.Header.Get("Authorization") != "Bearer "+s.opts.Token {
			w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="`+s.hs.URL+`/.well-known/oauth-protected-resource"`)
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = io.WriteString(w, `{"error":{"kind":"NOT_AUTHENTICATED","message":"missing or invalid bearer token","retryable":false}}`)
			return
		}
		if fault == nil {
			next.ServeHTTP(w, r)
			return
		}
		s.answer(w, r, fault, peek, next)
	})
}

// takeFault returns the first queued fault matching, using one of its
// Times. Called with s.mu held.
func (s *Server) takeFault(method, tool string) *Fault {
	for i, f := range s.faults {
		if f.On != "" && f.On != method && (method != "tools/call" || f.On != tool) {
			continue
		}
		if f.Times > 0 {
			f.Times--
			if f.Times == 0 {
				s.faults = append(s.faults[:i:i], s.faults[i+1:]...)
			}
		}
		c := *f
		return &c
	}
	return nil
}

// answer serves a fault.
func (s *Server) answer(w http.ResponseWriter, r *http.Request, f *Fault, peek rpcPeek, next http.Handler) {
	for k, vs := range f.Header {
		for _, v := range vs {
			w.Header().Add(k, v)
		}
	}
	switch f.Kind {
	case FaultStatus:
		if w.Header().Get("Content-Type") == "" {
			w.Header().Set("Content-Type", "application/json")
		}
		w.WriteHeader(f.Status)
		_, _ = io.WriteString(w, f.Body)
	case FaultRedirect:
		status := f.Status
		if status == 0 {
			status = http.StatusTemporaryRedirect
		}
		http.Redirect(w, r, f.Location, status)
	case FaultDelay:
		if sleep.For(r.Context(), f.Delay) != nil {
			return
		}
		next.ServeHTTP(w, r)
	case FaultSlowBody:
		delay := f.Delay
		if delay <= 0 {
			delay = time.Second
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
		fl, _ := w.(http.Flusher)
		for i := 0; i < len(f.Body); i++ {
			if _, err := w.Write([]byte{f.Body[i]}); err != nil {
				return
			}
			if fl != nil {
				fl.Flush()
			}
			if sleep.For(r.Context(), delay) != nil {
				return
			}
		}
	case FaultTruncate:
		hj, ok := w.(http.Hijacker)
		if !ok {
			http.Error(w, "cannot hijack", http.StatusInternalServerError)
			return
		}
		conn, buf, err := hj.Hijack()
		if err != nil {
			return
		}
		defer conn.Close()
		fmt.Fprintf(buf, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", 2*len(f.Body)+2, f.Body)
		_ = buf.Flush()
	case FaultHangup:
		if hj, ok := w.(http.Hijacker); ok {
			if conn, _, err := hj.Hijack(); err == nil {
				conn.Close()
			}
		}
	case FaultOversized:
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
		chunk := bytes.Repeat([]byte(" "), 32<<10)
		id := "null"
		if len(bytes.TrimSpace(peek.ID)) > 0 {
			id = string(peek.ID)
		}
		_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":`+id+`,"result":{"pad":"`)
		for sent := int64(0); f.Size == 0 || sent < f.Size; sent += int64(len(chunk)) {
			if r.Context().Err() != nil {
				return
			}
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
		_, _ = io.WriteString(w, `"}}`)
	case FaultRPCError:
		e := map[string]any{"code": f.Code, "message": f.Body}
		if len(f.Data) > 0 {
			e["data"] = f.Data
		}
		s.reply(w, peek.ID, map[string]any{"jsonrpc": "2.0", "id": peek.ID, "error": e})
	case FaultToolError, FaultToolText:
		result := map[string]any{"content": []any{map[string]any{"type": "text", "text": f.Body}}}
		if f.Kind == FaultToolError {
			result["isError"] = true
		}
		s.reply(w, peek.ID, map[string]any{"jsonrpc": "2.0", "id": peek.ID, "result": result})
	}
}

// reply writes a JSON-RPC message as the SDK would: an event stream, or
// JSON with Options.JSONResponse.
func (s *Server) reply(w http.ResponseWriter, id json.RawMessage, msg map[string]any) {
	if len(id) == 0 {
		msg["id"] = nil
	}
	b, _ := json.Marshal(msg)
	if s.opts.JSONResponse {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write(b)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	_, _ = io.WriteString(w, "event: message\ndata: "+string(b)+"\n\n")
}

// RetryAfterDate formats t as an HTTP date for a Retry-After header.
func RetryAfterDate(t time.Time) string { return t.UTC().Format(http.TimeFormat) }

// errorsBody is Catalyst's REST error body, {"errors":[{"title":…}]}.
func errorsBody(title string) string {
	b, _ := json.Marshal(map[string]any{"errors": []map[string]string{{"title": title}}})
	return string(b)
}
