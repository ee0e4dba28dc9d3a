package live

// Retries are twice's own loop around single resty requests (resty's retry
// count is 0). That sidesteps resty v2's retry pitfalls — a RetryCondition
// replacing the default error check, conditions called with a nil response,
// Retry-After clamped to RetryMaxWaitTime, ErrResponseBodyTooLarge retried —
// and lets tests inject the sleep.
//
// Every request twice sends is a JSON-RPC POST to read-only tools
// (initialize, tools/list, tools/call of list and get tools), so repeating
// one after a lost answer is safe: nothing changes on the server.

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/go-resty/resty/v2"
)

// retryableStatus reports whether an HTTP status is a transient failure
// worth another attempt: 429, 502, 503, 504.
func retryableStatus(code int) bool {
	switch code {
	case http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return true
	}
	return false
}

// retryableTransportError reports whether a request error (no response
// status) is transient: a refused or reset connection, a truncated body, a
// per-request timeout. A refused redirect, an oversized body, a TLS
// verification failure and the caller's cancellation are not.
func retryableTransportError(err error) bool {
	var (
		unknownAuth x509.UnknownAuthorityError
		hostErr     x509.HostnameError
		certInvalid x509.CertificateInvalidError
		verifyErr   *tls.CertificateVerificationError
		recordErr   tls.RecordHeaderError
	)
	switch {
	case err == nil:
		return false
	case errors.Is(err, errRedirect), errors.Is(err, resty.ErrResponseBodyTooLarge), errors.Is(err, context.Canceled):
		return false
	case errors.As(err, &unknownAuth), errors.As(err, &hostErr), errors.As(err, &certInvalid),
		errors.As(err, &verifyErr), errors.As(err, &recordErr):
		return false
	case strings.Contains(err.Error(), "unsupported protocol scheme"):
		return false
	}
	return true
}

// backoff returns the wait before attempt n+1 after n failed attempts
// (n ≥ 1): a random duration in [t/2, t) where t = min(max, base·2^(n-1)).
func backoff(n int, base, maxWait time.Duration, jitter func(time.Duration) time.Duration) time.Duration {
	t := base
	for i := 1; i < n && t < maxWait; i++ {
		t *= 2
	}
	if t > maxWait {
		t = maxWait
	}
	half := t / 2
	if half <= 0 {
		return t
	}
	return half + jitter(t-half)
}

// randomJitter returns a random duration in [0, n).
func randomJitter(n time.Duration) time.Duration {
	if n <= 0 {
		return 0
	}
	return time.Duration(rand.Int64N(int64(n)))
}

// parseRetryAfter reads a Retry-After value, delay-seconds or an HTTP date,
// as a wait measured from now. ok is false when the value is absent or
// unreadable (the caller falls back to its backoff). A date in the past
// gives 0. The wait is never negative; seconds too large to represent give
// the longest duration.
func parseRetryAfter(v string, now time.Time) (wait time.Duration, ok bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	// delay-seconds: digits only (ParseUint takes no sign), any number of
	// them.
	if n, err := strconv.ParseUint(v, 10, 64); err == nil || errors.Is(err, strconv.ErrRange) {
		if err != nil || n > uint64(maxDuration/time.Second) {
			return maxDuration, true
		}
		return time.Duration(n) * time.Second, true
	}
	t, err := http.ParseTime(v)
	if err != nil {
		return 0, false
	}
	d := t.Sub(now)
	if d < 0 {
		d = 0
	}
	return d, true
}

const maxDuration = time.Duration(1<<63 - 1)

// retryAfterWait decides what a Retry-After value means for the next
// attempt: the wait (always within [0, limit]), whether the header was
// usable, and whether the server asked for more than limit, in which case
// the caller fails at once instead of waiting.
func retryAfterWait(v string, now time.Time, limit time.Duration) (wait time.Duration, ok, tooLong bool) {
	d, ok := parseRetryAfter(v, now)
	if !ok {
		return 0, false, false
	}
	if d > limit {
		return limit, true, true
	}
	return d, true, false
}
