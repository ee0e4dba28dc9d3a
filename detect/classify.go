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
	// appears in the name (charge, send, insert, ...).
	verbSideEffect
	// verbSoftSideEffect: a word that is a side-effect verb when it leads
	// the name (OrderPizza, EmailUser) and usually a noun elsewhere
	// (GetOrder, ValidateEmail).
	verbSoftSideEffect
	verbReadOnly
	verbIdempotent
)

// classOfWord returns what a lower-case word suggests an activity does.
func classOfWord(w string) verbClass {
	switch w {
	case "charge", "pay", "refund", "transfer", "send", "notify", "publish",
		"insert", "write", "append", "increment", "incr", "decrement", "ship",
		"reserve", "debit", "enqueue", "create", "provision", "submit",
		"capture", "withdraw", "deposit", "dispatch", "emit", "push",
		"issue", "deduct", "allocate", "register", "subscribe", "purchase",
		"buy", "sell", "place", "trigger", "add", "update", "patch", "modify",
		"cancel", "approve", "fulfill", "fulfil", "mint", "grant", "transmit",
		"deliver", "upload", "record", "bill", "topup", "payout", "settle",
		"authorize", "authorise", "commit", "alert", "broadcast", "produce",
		"schedule", "start", "launch", "spawn", "tweet", "redeem", "donate",
		"enroll", "invite", "activate":
		return verbSideEffect
	case "order", "email", "mail", "sms", "book", "credit", "invoice",
		"payment", "message", "notification", "letter", "signup", "post",
		"page", "webhook":
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
		"status", "health", "view", "show", "watch", "audit", "test":
		return verbReadOnly
	case "delete", "remove", "put", "set", "upsert", "replace", "clear",
		"unset", "purge", "erase", "drop", "unlock", "ensure",
		"disable", "enable", "overwrite", "deactivate", "unsubscribe",
		"archive", "expire", "revoke", "close":
		return verbIdempotent
	}
	return verbNone
}

// ClassifyActivity says what an activity's name suggests it does: a side
// effect (charge, send, insert, ...), a read (get, fetch, validate, ...), an
// already idempotent write (delete, put or set of a whole document), or
// unknown. The leading word decides when it is a verb, unless a later word is
// a side-effect verb (ValidateAndCharge is a side effect); nouns that double
// as verbs (order, email, book, credit) count as side effects only when they
// lead the name or no read verb follows.
func ClassifyActivity(name string) ActivityClass {
	words := SplitWords(name)
	if len(words) == 0 {
		return ClassUnknown
	}
	first := classOfWord(words[0])
	laterHard, laterRead, laterIdem, laterSoft := false, false, false, false
	for _, w := range words[1:] {
		switch classOfWord(w) {
		case verbSideEffect:
			laterHard = true
		case verbReadOnly:
			laterRead = true
		case verbIdempotent:
			laterIdem = true
		case verbSoftSideEffect:
			laterSoft = true
		}
	}
	switch first {
	case verbSideEffect:
		return ClassSideEffect
	case verbSoftSideEffect:
		// OrderLookup and CreditCheck read; OrderPizza and EmailUser act.
		if laterRead && !laterHard {
			return ClassReadOnly
		}
		return ClassSideEffect
	case verbReadOnly:
		if laterHard {
			return ClassSideEffect
		}
		return ClassReadOnly
	case verbIdempotent:
		if laterHard {
			return ClassSideEffect
		}
		return ClassIdempotent
	}
	// The name does not lead with a verb (PaymentProcessor, card_charge,
	// process_payment): any side-effect word decides, then a read, then an
	// idempotent write.
	switch {
	case laterHard:
		return ClassSideEffect
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
