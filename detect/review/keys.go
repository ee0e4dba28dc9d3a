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

// generators are the calls that make a new value on every run, by the
// qualified name an import resolves them to. A name ending in "." is a
// prefix: every function of that package or module.
var generators = []string{
	// Python
	"uuid.uuid1", "uuid.uuid4", "uuid.uuid6", "uuid.uuid7", "secrets.", "random.", "os.urandom",
	"time.time", "time.time_ns", "time.monotonic", "time.perf_counter",
	"datetime.datetime.now", "datetime.datetime.utcnow", "datetime.datetime.today", "datetime.date.today",
	"ulid.new", "ulid.ULID", "ulid.from_timestamp", "nanoid.generate", "shortuuid.uuid", "shortuuid.random",
	"bson.ObjectId", "bson.objectid.ObjectId", "uuid6.", "uuid_utils.uuid4", "uuid_utils.uuid7",
	// Go
	"github.com/google/uuid.New", "github.com/google/uuid.NewString", "github.com/google/uuid.NewRandom",
	"github.com/google/uuid.NewV7", "github.com/google/uuid.NewUUID", "github.com/google/uuid.NewV6",
	"github.com/gofrs/uuid.NewV1", "github.com/gofrs/uuid.NewV4", "github.com/gofrs/uuid.NewV6", "github.com/gofrs/uuid.NewV7",
	"github.com/gofrs/uuid/v5.NewV4", "github.com/gofrs/uuid/v5.NewV7",
	"github.com/satori/go.uuid.NewV1", "github.com/satori/go.uuid.NewV4",
	"time.Now", "math/rand.", "math/rand/v2.", "crypto/rand.",
	"github.com/oklog/ulid.", "github.com/oklog/ulid/v2.", "github.com/rs/xid.New", "github.com/segmentio/ksuid.New",
	"github.com/segmentio/ksuid.NewRandom", "github.com/teris-io/shortid.Generate", "github.com/matoous/go-nanoid.",
	"github.com/matoous/go-nanoid/v2.", "github.com/lithammer/shortuuid.New", "github.com/lithammer/shortuuid/v3.New",
	"github.com/lithammer/shortuuid/v4.New", "github.com/jaevor/go-nanoid.",
	// C#
	"System.Guid.NewGuid", "System.Guid.CreateVersion7", "System.DateTime.Now", "System.DateTime.UtcNow", "System.DateTime.Today",
	"System.DateTimeOffset.Now", "System.DateTimeOffset.UtcNow", "System.Random", "System.Random.",
	"System.Security.Cryptography.RandomNumberGenerator.", "System.Ulid.NewUlid", "System.Environment.TickCount",
	"System.Environment.TickCount64", "System.TimeProvider.System.GetUtcNow", "System.Diagnostics.Stopwatch.GetTimestamp",
	"MassTransit.NewId.",
}

// isGenerator reports whether a qualified name makes a new value per run.
func isGenerator(ref string) bool {
	if ref == "" {
		return false
	}
	for _, g := range generators {
		if strings.HasSuffix(g, ".") {
			if strings.HasPrefix(ref, g) {
				return true
			}
		} else if ref == g {
			return true
		}
	}
	return false
}

// IsKnownCall reports whether a qualified name is one the rules know: a
// generator of per-run values, a sleep, or a retry library's entry. A
// front-end uses it to choose between candidate resolutions (C#'s static
// usings).
func IsKnownCall(ref string) bool {
	return isGenerator(ref) || isSleepRef(ref) || retryLibrary(ref) != ""
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
