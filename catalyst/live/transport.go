package live

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/twice-cli/twice/catalyst/safetext"
)

// authTransport adds the bearer token and the organization header to
// requests for the configured host only: over https, or over plain http to
// a loopback address. Adding them here, per request, rather than on the
// request itself means no redirect and no other host can ever carry them.
type authTransport struct {
	base http.RoundTripper
	host string
	org  string

	mu    sync.RWMutex
	token string
	from  string // where the token came from
}

func (t *authTransport) setToken(tok Token) {
	t.mu.Lock()
	t.token, t.from = tok.value, tok.From
	t.mu.Unlock()
}

// current returns the token in use (zero before one is resolved).
func (t *authTransport) current() Token {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return Token{value: t.token, From: t.from}
}

// tokenFrom says where the token in use came from ("" before one is resolved).
func (t *authTransport) tokenFrom() string {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.from
}

func (t *authTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if t.allowed(req.URL) {
		t.mu.RLock()
		token := t.token
		t.mu.RUnlock()
		req = req.Clone(req.Context())
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		if t.org != "" {
			req.Header.Set("x-diagrid-orgid", t.org)
		}
	} else if req.Header.Get("Authorization") != "" {
		// Never happens through the client; refuse rather than leak.
		return nil, fmt.Errorf("refusing to send credentials to %s", safetext.Line(req.URL.Host))
	}
	return t.base.RoundTrip(req)
}

// CloseIdleConnections passes through to the base transport.
func (t *authTransport) CloseIdleConnections() {
	if c, ok := t.base.(interface{ CloseIdleConnections() }); ok {
		c.CloseIdleConnections()
	}
}

// allowed reports whether credentials may go to u.
func (t *authTransport) allowed(u *url.URL) bool {
	if !strings.EqualFold(u.Host, t.host) {
		return false
	}
	return u.Scheme == "https" || u.Scheme == "http" && isLoopbackHost(u.Hostname())
}

// errRedirect marks a refused redirect; it is never retried.
var errRedirect = errors.New("redirect refused")

// maxRedirects bounds redirects within the endpoint's host.
const maxRedirects = 3

// redirectPolicy follows a redirect only to the endpoint's own host and
// scheme, at most maxRedirects times. A redirect to another host, or from
// https to http, is refused with an error.
func redirectPolicy(endpoint *url.URL) func(*http.Request, []*http.Request) error {
	return func(req *http.Request, via []*http.Request) error {
		switch {
		case !strings.EqualFold(req.URL.Host, endpoint.Host):
			return fmt.Errorf("%w: the server at %s redirected to another host (%s); twice sends credentials only to the configured endpoint: check the endpoint URL",
				errRedirect, endpoint.Host, safetext.Line(req.URL.Host))
		case req.URL.Scheme != endpoint.Scheme:
			return fmt.Errorf("%w: the server at %s redirected from %s to %s; twice never downgrades the connection: check the endpoint URL",
				errRedirect, endpoint.Host, endpoint.Scheme, safetext.Line(req.URL.Scheme))
		case len(via) > maxRedirects:
			return fmt.Errorf("%w: the server at %s redirected more than %d times; check the endpoint URL",
				errRedirect, endpoint.Host, maxRedirects)
		}
		return nil
	}
}
