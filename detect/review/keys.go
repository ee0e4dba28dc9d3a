package review

import (
	"strings"
)

// sourceKind is where an unstable value came from.
type sourceKind int8

const (
	// srcGenerated: a UUID, random value or the current time, made in the
	// body.
	srcGenerated sourceKind = iota + 1
	// srcPerAttempt: the activity context's per-attempt scheduling id.
	srcPerAttempt
	// srcWorkflowID: the calling workflow's instance id, as the activity
	// context gives it (unstable only when that workflow is a retried
	// child).
	srcWorkflowID
)

// source is an unstable value and the expression that made it.
type source struct {
	kind sourceKind
	expr *Expr
	// what names the value when the rule's words do not fit it.
	what string
}

// IsKnownCall reports whether a qualified name is one the rules know: a
// generator of per-run values, a sleep, or a retry library's entry. A
// front-end uses it to choose between candidate resolutions (C#'s static
// usings).
func IsKnownCall(ref string) bool {
	return refIs(qFresh, ref) != nil || isSleepRef(ref) || retryLibrary(ref) != ""
}

// norm folds a name for matching: lower case, no separators.
func norm(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'A' && r <= 'Z':
			b.WriteRune(r + 'a' - 'A')
		case r == '-' || r == '_' || r == '.' || r == ' ' || r == ':':
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// isIdemName reports whether a header, keyword or field name carries an
// idempotency or deduplication key (the key providers and brokers use to
// refuse a repeat).
func isIdemName(name string) bool {
	n := norm(name)
	return strings.Contains(n, "idempot") || strings.Contains(n, "dedup")
}

// isMessageIDName reports whether a name carries a message's id.
func isMessageIDName(name string) bool {
	switch norm(name) {
	case "messageid", "msgid", "cloudeventid", "eventid", "xmessageid", "messagededuplicationid", "ceid":
		return true
	}
	return isIdemName(name)
}

// isKeyName reports whether a keyword, field or dict key names a key
// position: an idempotency key, a message id, a primary or object key.
// Credentials (api keys, secret keys) are not keys in this sense.
func isKeyName(name string) bool {
	n := norm(name)
	if isMessageIDName(name) {
		return true
	}
	switch n {
	case "id", "key", "pk", "objectkey", "primarykey", "documentid", "docid", "rowkey", "partitionkey", "uuid":
		return true
	}
	return false
}

// isKeyColumn reports whether a SQL column looks like a primary or unique
// key.
func isKeyColumn(col string) bool {
	c := strings.ToLower(strings.Trim(col, "`\"[] "))
	switch {
	case c == "id" || c == "key" || c == "pk" || c == "uuid" || c == "reference" || c == "ref":
		return true
	case strings.HasSuffix(c, "_id") || strings.HasSuffix(c, "_key") || strings.HasSuffix(c, "_uuid") || strings.HasSuffix(c, "_ref"):
		return !strings.Contains(c, "api_key") && !strings.Contains(c, "secret")
	case strings.Contains(c, "idempot") || strings.Contains(c, "dedup"):
		return true
	}
	return false
}
