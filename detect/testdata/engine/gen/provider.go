package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"
)

// provider is a fake payment/mail/carrier API on the loopback address that
// answers each call by script: the activities make real HTTP calls, so
// their failures are what a Go activity returns for a real 503 or a client
// timeout.
type provider struct {
	srv     *httptest.Server
	mu      sync.Mutex
	scripts map[string][]string
	calls   map[string]int
	release chan struct{}
}

// The outcomes a script lists, one per call: the last repeats.
const (
	answerOK   = "ok"   // 200 with a JSON body
	answer503  = "503"  // 503 Service Unavailable
	answer409  = "409"  // 409 Conflict: a business rejection no retry fixes
	answerHang = "hang" // no answer until the caller gives up or the provider closes
)

// answerSlow answers after d: "slow:<duration>:<ok|503>".
func answerSlow(d time.Duration, then string) string { return "slow:" + d.String() + ":" + then }

func newProvider() *provider {
	p := &provider{scripts: map[string][]string{}, calls: map[string]int{}, release: make(chan struct{})}
	p.srv = httptest.NewServer(http.HandlerFunc(p.serve))
	return p
}

// close answers every hanging call and stops the server.
func (p *provider) close() {
	close(p.release)
	p.srv.Close()
}

// script sets the answers to the calls made with key.
func (p *provider) script(key string, answers ...string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.scripts[key] = answers
	p.calls[key] = 0
}

func (p *provider) next(key string) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := p.scripts[key]
	if len(s) == 0 {
		return answerOK
	}
	n := p.calls[key]
	p.calls[key]++
	if n >= len(s) {
		n = len(s) - 1
	}
	return s[n]
}

func (p *provider) serve(w http.ResponseWriter, r *http.Request) {
	key := strings.TrimPrefix(r.URL.Path, "/v1/")
	answer := p.next(key)
	if d, then, ok := strings.Cut(strings.TrimPrefix(answer, "slow:"), ":"); ok && strings.HasPrefix(answer, "slow:") {
		wait, _ := time.ParseDuration(d)
		select {
		case <-time.After(wait):
		case <-r.Context().Done():
			return
		case <-p.release:
		}
		answer = then
	}
	switch answer {
	case answerHang:
		select {
		case <-r.Context().Done():
		case <-p.release:
		}
		http.Error(w, "provider shut down", http.StatusBadGateway)
	case answer503:
		http.Error(w, "upstream unavailable", http.StatusServiceUnavailable)
	case answer409:
		http.Error(w, "out of stock", http.StatusConflict)
	default:
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"id":"%s-%d","status":"ok"}`, strings.ReplaceAll(key, "/", "-"), time.Now().UnixMilli()%100000)
	}
}

// call is what every activity does: one POST to the provider, with the
// activity's own client timeout (0: none).
func (p *provider) call(ctx context.Context, key string, timeout time.Duration, body any) (map[string]any, error) {
	b, err := json.Marshal(body)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.srv.URL+"/v1/"+key, bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	client := &http.Client{Timeout: timeout}
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("POST /v1/%s: %s", key, resp.Status)
	}
	var out map[string]any
	if err := json.Unmarshal(data, &out); err != nil {
		return nil, err
	}
	return out, nil
}
