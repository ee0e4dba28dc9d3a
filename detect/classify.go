package detect

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// SplitWords splits an activity or workflow name into lower-case words at
// case changes (ChargeCard, HTTPPostJSON), underscores, hyphens, dots,
// slashes, spaces and any other character that is neither a letter nor a
// digit. Runs of digits are words of their own. It never fails: a name with
// no letters or digits gives no words.
func SplitWords(name string) []string {
	var words []string
	start := -1 // byte offset of the current word, -1 when between words
	var prev rune
	prevKind := kindNone
	flush := func(end int) {
		if start >= 0 && end > start {
			words = append(words, strings.ToLower(name[start:end]))
		}
		start = -1
	}
	for i := 0; i < len(name); {
		r, size := utf8.DecodeRuneInString(name[i:])
		k := runeKindOf(r, size)
		switch {
		case k == kindNone:
			flush(i)
		case start < 0:
			start = i
		case k != prevKind && (k == kindDigit || prevKind == kindDigit):
			// "Send2FA": a digit run is a word of its own.
			flush(i)
			start = i
		case k == kindUpper && prevKind == kindLower:
			// "chargeCard": a lower-to-upper change starts a word.
			flush(i)
			start = i
		case k == kindLower && prevKind == kindUpper && i-utf8.RuneLen(prev) > start:
			// "HTTPPost": the last capital of a run starts the next word.
			cut := i - utf8.RuneLen(prev)
			flush(cut)
			start = cut
		}
		prev, prevKind = r, k
		i += size
	}
	flush(len(name))
	return words
}

type runeKind uint8

const (
	kindNone runeKind = iota
	kindUpper
	kindLower
	kindDigit
)

func runeKindOf(r rune, size int) runeKind {
	switch {
	case r == utf8.RuneError && size <= 1:
		return kindNone
	case unicode.IsDigit(r):
		return kindDigit
	case unicode.IsUpper(r) || unicode.IsTitle(r):
		return kindUpper
	case unicode.IsLetter(r):
		return kindLower
	}
	return kindNone
}

// verbClass is what one word of a name suggests.
type verbClass uint8

const (
	verbNone verbClass = iota
	// verbSideEffect: a verb that changes the outside world wherever it
	// appears in the name (charge, send, insert, save, ...).
	verbSideEffect
	// verbSoftSideEffect: a word that is a side-effect verb where a verb
	// goes (it leads the name, or follows "and", "then", "or": OrderPizza,
	// FetchAndStore) and usually a noun elsewhere (GetOrder, GetStoreHours).
	verbSoftSideEffect
	verbReadOnly
	verbIdempotent
	// verbConjunction joins two verbs of one name (ValidateAndSave,
	// GetOrCreate): the word after it is where a verb goes.
	verbConjunction
)

// classOfWord returns what a lower-case word suggests an activity does.
func classOfWord(w string) verbClass {
	switch w {
	case "charge", "pay", "refund", "transfer", "send", "notify", "publish",
		"insert", "write", "append", "increment", "incr", "decrement", "ship",
		"reserve", "debit", "enqueue", "create", "provision", "submit",
		"capture", "withdraw", "deposit", "dispatch", "emit", "deduct",
		"allocate", "subscribe", "purchase", "buy", "sell", "trigger", "add", "update", "patch", "modify",
		"cancel", "approve", "fulfill", "fulfil", "mint", "grant", "transmit",
		"deliver", "upload", "bill", "topup", "payout", "settle",
		"authorize", "authorise", "commit", "broadcast", "produce",
		"launch", "spawn", "tweet", "redeem", "donate",
		"enroll", "invite", "activate",
		// Writes and calls that act whatever follows them.
		"save", "persist", "confirm", "apply", "execute", "invoke", "assign",
		"checkout", "renew", "remind", "escalate", "resend", "accrue", "award":
		return verbSideEffect
	case "order", "email", "mail", "sms", "book", "credit", "invoice",
		"payment", "message", "notification", "letter", "signup", "post",
		"page", "webhook",
		// Verbs that write where a verb goes, and are nouns or adjectives
		// elsewhere (GetStoreHours, ListOpenOrders, GetReleaseNotes).
		"store", "sync", "log", "track", "import", "export", "open", "release",
		"lock", "reverse", "void", "reset", "reject", "decline", "accept",
		"claim", "deploy", "install", "migrate", "print", "reply", "forward",
		"rotate", "upgrade", "downgrade", "collect", "attach", "sign",
		"record", "issue", "start", "schedule", "register", "push", "place", "alert":
		return verbSoftSideEffect
	case "get", "fetch", "read", "list", "lookup", "query", "validate", "check",
		"compute", "render", "calculate", "calc", "search", "find", "load",
		"retrieve", "describe", "verify", "inspect", "estimate", "quote",
		"count", "parse", "format", "transform", "convert", "map", "filter",
		"sort", "resolve", "evaluate", "analyze", "analyse", "score", "predict",
		"classify", "summarize", "summarise", "download", "extract", "select",
		"scan", "poll", "ping", "probe", "peek", "is", "has", "can", "should",
		"exists", "lint", "diff", "compare", "match", "detect", "measure",
		"preview", "simulate", "dry", "encode", "decode", "hash",
		"encrypt", "decrypt", "serialize", "deserialize", "wait", "sleep",
		"status", "health", "view", "show", "watch", "test", "geocode":
		return verbReadOnly
	case "delete", "remove", "put", "set", "upsert", "replace", "clear",
		"unset", "purge", "erase", "drop", "unlock", "ensure",
		"disable", "enable", "overwrite", "deactivate", "unsubscribe",
		"archive", "expire", "revoke", "close":
		return verbIdempotent
	case "and", "then", "or", "plus", "also":
		return verbConjunction
	}
	// "audit" is not a read: AuditOrder may inspect the order or write an
	// audit trail, so alone it says nothing (LogAudit writes).
	return verbNone
}

// ClassifyActivity says what an activity's name suggests it does: a side
// effect (charge, send, insert, save, ...), a read (get, fetch, validate,
// ...), an already idempotent write (delete, put or set of a whole
// document), or unknown.
//
// A side-effect verb anywhere wins (ValidateAndSave, GetOrCreateUser). Words
// that are verbs only where a verb goes (store, log, order, email) count
// when they lead the name or follow "and", "then" or "or" (FetchAndStore,
// LogAudit), and are nouns elsewhere (GetStoreHours, ValidateEmail). Read
// and idempotent must be earned: a name is read-only only when every word
// where a verb goes is a read, so ValidateAndReconcile, whose second verb
// twice does not know, is unknown. A name that does not lead with a verb
// (PaymentProcessor, customer_lookup) is classified by the verbs it holds.
func ClassifyActivity(name string) ActivityClass {
	words := SplitWords(name)
	if len(words) == 0 {
		return ClassUnknown
	}
	first := classOfWord(words[0])
	laterHard, laterRead, laterIdem, laterSoft := false, false, false, false
	// Words after a conjunction, where a verb goes.
	verbSoft, verbIdem, verbUnknown, joined := false, false, false, false
	prev := first
	for _, w := range words[1:] {
		c := classOfWord(w)
		atVerb := prev == verbConjunction
		prev = c
		switch c {
		case verbSideEffect:
			laterHard = true
		case verbReadOnly:
			laterRead = true
		case verbIdempotent:
			laterIdem = true
			verbIdem = verbIdem || atVerb
		case verbSoftSideEffect:
			laterSoft = true
			verbSoft = verbSoft || atVerb
		case verbNone:
			verbUnknown = verbUnknown || atVerb
		}
		joined = joined || atVerb
	}
	if laterHard || verbSoft {
		return ClassSideEffect
	}
	switch first {
	case verbSideEffect:
		return ClassSideEffect
	case verbSoftSideEffect:
		// OrderLookup and CreditCheck read; OrderPizza, EmailUser and
		// OrderAndCheck act.
		if laterRead && !joined {
			return ClassReadOnly
		}
		return ClassSideEffect
	case verbReadOnly, verbIdempotent:
		switch {
		case verbUnknown:
			return ClassUnknown
		case first == verbIdempotent || verbIdem:
			return ClassIdempotent
		}
		return ClassReadOnly
	}
	// The name does not lead with a verb (PaymentProcessor, card_charge,
	// process_payment): a read, then a noun-verb, then an idempotent write
	// decides. When it joins verbs (ReconcileAndValidate) its first word is
	// a verb twice does not know.
	switch {
	case joined || verbUnknown:
		return ClassUnknown
	case laterRead:
		return ClassReadOnly
	case laterSoft:
		return ClassSideEffect
	case laterIdem:
		return ClassIdempotent
	}
	return ClassUnknown
}

// classifier classifies activity names once per distinct name, applying the
// caller's overrides first (matched case-insensitively).
type classifier struct {
	overrides map[string]ActivityClass // lower-cased names
	cache     map[string]ActivityClass
	// last is the last name classified: consecutive invocations often
	// share one (interned) name.
	last      string
	lastClass ActivityClass
}

func newClassifier(overrides map[string]ActivityClass) *classifier {
	c := &classifier{cache: make(map[string]ActivityClass)}
	if len(overrides) > 0 {
		c.overrides = make(map[string]ActivityClass, len(overrides))
		for name, class := range overrides {
			c.overrides[strings.ToLower(strings.TrimSpace(name))] = class
		}
	}
	return c
}

// fork returns a classifier with c's overrides and a cache of its own, for
// another goroutine.
func (c *classifier) fork() *classifier {
	return &classifier{overrides: c.overrides, cache: make(map[string]ActivityClass)}
}

func (c *classifier) class(name string) ActivityClass {
	if name == c.last && c.lastClass != 0 {
		return c.lastClass
	}
	cl, ok := c.cache[name]
	if !ok {
		cl = c.classify(name)
		c.cache[name] = cl
	}
	c.last, c.lastClass = name, cl
	return cl
}

func (c *classifier) classify(name string) ActivityClass {
	if cl, ok := c.overrides[strings.ToLower(strings.TrimSpace(name))]; ok && cl.valid() {
		return cl
	}
	return ClassifyActivity(name)
}

// valid reports whether the class is one of the four known classes.
func (c ActivityClass) valid() bool {
	switch c {
	case ClassSideEffect, ClassReadOnly, ClassIdempotent, ClassUnknown:
		return true
	}
	return false
}
