package live

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/safetext"
)

// ErrResponseTooLarge reports a response body over Config.MaxBodyBytes. It is
// never retried.
var ErrResponseTooLarge = errors.New("response too large")

// ErrBadResponse reports a response twice cannot read: not JSON-RPC, not
// JSON, or missing what the tool should return. It is never retried.
var ErrBadResponse = errors.New("unreadable response")

// Refusal kinds. Catalyst's own kinds keep its spelling (upper-case
// connection kinds, lower-case data-sharing kinds); the others are twice's
// names for refusals that came as an HTTP status or a tool message.
const (
	KindNotAuthenticated      = "NOT_AUTHENTICATED"
	KindNoOrg                 = "NO_ORG"
	KindNoOrganization        = "NO_ORGANIZATION"
	KindOrgMismatch           = "ORG_MISMATCH"
	KindOrgUnavailable        = "ORG_UNAVAILABLE"
	KindCatalystNotEnabled    = "CATALYST_NOT_ENABLED"
	KindDenied                = "denied"
	KindNoPolicy              = "no-policy"
	KindUnfilterable          = "unfilterable"
	KindDataSharingRestricted = "DATA_SHARING_RESTRICTED"
	// KindNoWorkflowStore: the project has no managed workflow store (the
	// server said FAILED_PRECONDITION or "unsupported").
	KindNoWorkflowStore = "NO_WORKFLOW_STORE"
	// KindForbidden: HTTP 403, or a tool saying so.
	KindForbidden = "FORBIDDEN"
	// KindNotFound: HTTP 404, or a tool saying the run does not exist.
	KindNotFound = "NOT_FOUND"
	// KindToolError: a tool reported an error of no known kind.
	KindToolError = "TOOL_ERROR"
)

// RefusalError is Catalyst saying no: a refusal kind with the server's
// message (sanitized), whether it may be retried, and what was asked for.
// Refusals are shown as refusals, never as an empty result.
type RefusalError struct {
	// Kind is one of the Kind constants, or a kind the server named that
	// twice does not know (kept verbatim, sanitized).
	Kind string
	// Message is the server's message, sanitized for a terminal.
	Message string
	// Retryable is the server's retryable flag.
	Retryable bool
	// Status is the HTTP status when the refusal came as one, else 0.
	Status int
	// Op says what was asked for ("reading run charge-7731 of app payments in project default").
	Op string
	// Tool is the tool called (as the server names it), or "" for the
	// session's own requests (initialize, tools/list). Hints are worded by it.
	Tool string
	// Host is the endpoint's host.
	Host string
	// SuppliedOrg and CredentialOrg are the two organizations of an
	// ORG_MISMATCH, read from its message.
	SuppliedOrg   string
	CredentialOrg string
	// Level is the data-sharing level configured, for data-sharing kinds.
	Level catalyst.Level
	// TokenFrom says where the credential came from, for NOT_AUTHENTICATED.
	TokenFrom string
}

// Error describes the refusal, what was asked for, and what to do next.
func (e *RefusalError) Error() string {
	var b strings.Builder
	b.WriteString("catalyst refused")
	if e.Op != "" {
		b.WriteString(" ")
		b.WriteString(e.Op)
	}
	if e.Host != "" {
		b.WriteString(" at ")
		b.WriteString(e.Host)
	}
	b.WriteString(": ")
	b.WriteString(e.Kind)
	if e.Status != 0 {
		fmt.Fprintf(&b, " (HTTP %d)", e.Status)
	}
	if e.Message != "" {
		b.WriteString(": ")
		b.WriteString(e.Message)
	}
	if h := e.Hint(); h != "" {
		b.WriteString(". ")
		b.WriteString(h)
	}
	return b.String()
}

// Is makes errors.Is(err, ErrNotAuthenticated) true for NOT_AUTHENTICATED.
func (e *RefusalError) Is(target error) bool {
	return target == ErrNotAuthenticated && e.Kind == KindNotAuthenticated
}

// DataSharing reports whether the refusal comes from the organization's
// data-sharing level (denied, no-policy, unfilterable,
// DATA_SHARING_RESTRICTED). Those are never retried.
func (e *RefusalError) DataSharing() bool {
	switch e.Kind {
	case KindDenied, KindNoPolicy, KindUnfilterable, KindDataSharingRestricted:
		return true
	}
	return false
}

// Hint says what the user can do next.
func (e *RefusalError) Hint() string {
	level := "the organization's data-sharing level"
	if e.Level != catalyst.LevelUnknown {
		level += " (" + safetext.Line(string(e.Level)) + ")"
	}
	switch e.Kind {
	case KindNotAuthenticated:
		from := ""
		if e.TokenFrom != "" {
			from = " (the token came from " + e.TokenFrom + ")"
		}
		return "The credential is missing, expired or for another environment" + from +
			": provide a current token through " + EnvToken + ", token_file or token_command; twice doctor shows what is used"
	case KindNoOrg, KindNoOrganization:
		return "The credential belongs to no Catalyst organization: choose one in the Catalyst console, or pass --org"
	case KindOrgMismatch:
		if e.SuppliedOrg != "" && e.CredentialOrg != "" {
			return "twice asked for organization " + e.SuppliedOrg + " but the credential belongs to " + e.CredentialOrg +
				": pass --org " + e.CredentialOrg + ", or use a credential of " + e.SuppliedOrg
		}
		return "The organization asked for is not the credential's: check --org and the credential"
	case KindOrgUnavailable:
		return "The organization is unavailable right now: try again in a few minutes"
	case KindCatalystNotEnabled:
		return "Catalyst is not enabled for this organization: an administrator enables it in the Catalyst console"
	case KindDenied:
		return "The whole response is withheld at " + level + "; an organization administrator can raise the level to full"
	case KindNoPolicy:
		return "This operation has no reviewed data-sharing policy on the server (a gap on Catalyst's side, not your setup); report it to Diagrid"
	case KindUnfilterable:
		cause := "The server could not filter the response at " + level + ", usually because it was cut at its size limit"
		switch {
		case isTool(e.Tool, ToolListRuns):
			return cause + ": ask for fewer runs per page (twice runs or scan with a smaller --limit or a narrower --since)"
		case isTool(e.Tool, ToolGetRun):
			return cause + ": one run's history cannot be asked for in smaller parts, so " +
				"read it with the Dapr CLI (dapr workflow history RUN_ID -o json | twice show -), or ask an organization administrator to raise the level to full"
		}
		return cause + "; report it to Diagrid if it persists"
	case KindDataSharingRestricted:
		return "Restricted at " + level + "; an organization administrator can raise the level to full"
	case KindNoWorkflowStore:
		return "The project has no managed workflow store, or the app's sidecar started before it existed; runs cannot be read until it does (this is not an empty list)"
	case KindForbidden:
		return "The credential may not read this: check the project and app names and your role in the organization"
	case KindNotFound:
		return "Check the run id, the app and the project"
	}
	return ""
}

// RateLimitError reports that the server asked twice to wait longer than
// Config.RetryAfterCap before trying again.
type RateLimitError struct {
	// Op says what was asked for.
	Op string
	// Host is the endpoint's host.
	Host string
	// RetryAfter is the wait the server asked for.
	RetryAfter time.Duration
	// At is when the wait ends.
	At time.Time
	// Cap is the longest wait twice accepts.
	Cap time.Duration
}

// Error says who is rate limiting and when to try again.
func (e *RateLimitError) Error() string {
	return fmt.Sprintf("catalyst at %s is rate limiting %s and asks to wait %s (until %s); twice waits at most %s: try again after then",
		e.Host, e.Op, roundDuration(e.RetryAfter), e.At.UTC().Format(time.RFC3339), e.Cap)
}

// StatusError reports an HTTP failure that is not a refusal: a server error
// (after the attempts allowed, for transient ones) or an unexpected status.
type StatusError struct {
	// Status is the last HTTP status.
	Status int
	// Op says what was asked for.
	Op string
	// Host is the endpoint's host.
	Host string
	// Attempts is how many times the request was tried.
	Attempts int
	// Body is the start of the response body, sanitized.
	Body string
	// RequestID is the server's request id header, when it sent one.
	RequestID string
}

// Error describes the failure and what to do next.
func (e *StatusError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "catalyst at %s failed %s: HTTP %d %s", e.Host, e.Op, e.Status, http.StatusText(e.Status))
	if e.Attempts > 1 {
		fmt.Fprintf(&b, " after %d attempts", e.Attempts)
	}
	if e.RequestID != "" {
		fmt.Fprintf(&b, " (request id %s)", e.RequestID)
	}
	if e.Body != "" {
		fmt.Fprintf(&b, ": %s", e.Body)
	}
	switch {
	case e.Status == http.StatusTooManyRequests:
		b.WriteString("; the server is rate limiting twice: wait a minute and try again")
	case e.Status >= 500:
		b.WriteString("; the service is failing: try again later, or open a saved history offline (twice show FILE)")
	case e.Status >= 400:
		b.WriteString("; check the endpoint URL and twice's version (twice doctor)")
	}
	return b.String()
}

func roundDuration(d time.Duration) time.Duration {
	if d > time.Minute {
		return d.Round(time.Second)
	}
	return d.Round(time.Millisecond)
}

// wireRefusal is the refusal body Catalyst sends:
// {"error":{"kind":…,"message":…,"retryable":…}}, or the inner object alone.
type wireRefusal struct {
	Error *wireRefusalBody `json:"error"`
	wireRefusalBody
}

type wireRefusalBody struct {
	Kind      string `json:"kind"`
	Code      string `json:"code"`
	Message   string `json:"message"`
	Retryable bool   `json:"retryable"`
}

// parseRefusal reads a refusal from a body or tool text: Catalyst's JSON
// shape, or known kinds named in plain text. With loose set (a tool's own
// error text) it also reads "not found" and an unsupported workflow API
// from the words. ok is false when the text names no refusal.
func parseRefusal(text []byte, loose bool) (r RefusalError, ok bool) {
	var w wireRefusal
	if unmarshal(text, &w) == nil {
		body := w.wireRefusalBody
		if w.Error != nil {
			body = *w.Error
		}
		kind := body.Kind
		if kind == "" {
			kind = body.Code
		}
		if kind != "" {
			r = RefusalError{Kind: normalizeKind(kind, body.Message), Message: body.Message, Retryable: body.Retryable}
			return withOrgs(r), true
		}
		if body.Message != "" {
			if k := kindInText(body.Message, loose); k != "" {
				return withOrgs(RefusalError{Kind: k, Message: body.Message}), true
			}
		}
	}
	if k := kindInText(string(text), loose); k != "" {
		return withOrgs(RefusalError{Kind: k, Message: string(text)}), true
	}
	return RefusalError{}, false
}

// normalizeKind maps the spellings a server may use onto the Kind
// constants; an unknown kind is kept as given.
func normalizeKind(kind, message string) string {
	switch k := strings.TrimSpace(kind); strings.ToUpper(strings.ReplaceAll(k, "-", "_")) {
	case "NOT_AUTHENTICATED", "UNAUTHENTICATED", "UNAUTHORIZED":
		return KindNotAuthenticated
	case "NO_ORG":
		return KindNoOrg
	case "NO_ORGANIZATION":
		return KindNoOrganization
	case "ORG_MISMATCH":
		return KindOrgMismatch
	case "ORG_UNAVAILABLE":
		return KindOrgUnavailable
	case "CATALYST_NOT_ENABLED":
		return KindCatalystNotEnabled
	case "DENIED":
		return KindDenied
	case "NO_POLICY":
		return KindNoPolicy
	case "UNFILTERABLE":
		return KindUnfilterable
	case "DATA_SHARING_RESTRICTED":
		return KindDataSharingRestricted
	case "FAILED_PRECONDITION", "UNSUPPORTED", "NO_WORKFLOW_STORE":
		return KindNoWorkflowStore
	case "FORBIDDEN", "PERMISSION_DENIED":
		return KindForbidden
	case "NOT_FOUND":
		return KindNotFound
	default:
		if k2 := kindInText(message, false); k2 != "" {
			return k2
		}
		return safetext.Line(excerpt(k, 64))
	}
}

// kindInText finds a refusal kind named in free text; loose also reads
// the words of a missing run or workflow store.
func kindInText(s string, loose bool) string {
	up := strings.ToUpper(s)
	for _, k := range []string{KindNotAuthenticated, KindOrgMismatch, KindNoOrganization, KindNoOrg,
		KindOrgUnavailable, KindCatalystNotEnabled, KindDataSharingRestricted} {
		if containsWord(up, k) {
			return k
		}
	}
	switch {
	case containsWord(up, "FAILED_PRECONDITION"):
		return KindNoWorkflowStore
	case !loose:
	case strings.Contains(up, "WORKFLOW") && (strings.Contains(up, "UNSUPPORTED") || strings.Contains(up, "NOT SUPPORTED")):
		return KindNoWorkflowStore
	case strings.Contains(up, "NOT FOUND") || containsWord(up, "NOT_FOUND"):
		return KindNotFound
	}
	return ""
}

// containsWord reports whether word occurs in s delimited by non-word
// characters (letters, digits and '_' are word characters).
func containsWord(s, word string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], word)
		if j < 0 {
			return false
		}
		j += i
		end := j + len(word)
		if (j == 0 || !isWordByte(s[j-1])) && (end == len(s) || !isWordByte(s[end])) {
			return true
		}
		i = j + 1
	}
}

func isWordByte(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z'
}

// withOrgs reads the two organizations out of an ORG_MISMATCH message, as
// Catalyst words it: "the organization supplied (A) does not match the
// credential's organization (B)".
func withOrgs(r RefusalError) RefusalError {
	r.SuppliedOrg, r.CredentialOrg = "", ""
	if r.Kind != KindOrgMismatch {
		return r
	}
	var orgs []string
	rest := r.Message
	for len(orgs) < 2 {
		i := strings.IndexByte(rest, '(')
		if i < 0 {
			break
		}
		j := strings.IndexByte(rest[i:], ')')
		if j < 0 {
			break
		}
		orgs = append(orgs, strings.TrimSpace(rest[i+1:i+j]))
		rest = rest[i+j+1:]
	}
	if len(orgs) == 2 {
		r.SuppliedOrg = safetext.Line(excerpt(orgs[0], 128))
		r.CredentialOrg = safetext.Line(excerpt(orgs[1], 128))
	}
	return r
}
