package review

import (
	"strings"

	"github.com/twice-cli/twice/detect"
)

// effectKind is what a call does to the outside world.
type effectKind int8

const (
	effNone effectKind = iota
	// Writes that repeat when run twice (the hazard table's rows).
	effInsert    // INSERT a row (no conflict clause), an ORM add/create
	effIncrement // increment a counter or balance
	effAppend    // append to a file, list or object
	effPost      // POST to a provider (an HTTP POST, a payment SDK's create)
	effPublish   // publish an event or message
	effEmail     // send an email or SMS
	// A write that refuses its own duplicate: a conditional insert, an
	// upsert, SETNX, an etag or version precondition, a condition
	// expression (a guard).
	effGuard
	// A write that is idempotent by shape: DELETE, a PUT of a whole
	// document to a key, an UPDATE that sets values.
	effIdempotent
	// A read.
	effRead
	// A call on an object twice cannot see whose name reads as a side
	// effect (shipments.create): counted by check-then-act, listed as
	// opaque.
	effOpaqueWrite
)

// effect is one classified call.
type effect struct {
	kind effectKind
	call *Expr
	// what describes it ("INSERT INTO payments", "POST https://…").
	what string
	// keyed: the call itself carries an idempotency key or message id.
	keyed bool
	// payment marks a POST to a payment provider (a charge, a refund).
	payment bool
	// twice is what a second run does, in the library's words ("" : the
	// kind's words).
	twice string
	// row is the table row that recognised the call (nil: a guess from
	// the method's name).
	row *api
	// sql is the statement text, for SQL calls.
	sql string
	// sqlArg is the position of the SQL argument.
	sqlArg int
	// http marks a request made through .NET's HttpClient (which the app
	// may configure to retry).
	http bool
	// invokePath is a service invocation's method name: the tree's
	// handler for it decides what the call does (routes.go).
	invokePath string
}

// readWords are the first words of a method name that reads.
var readWords = map[string]bool{
	"get": true, "find": true, "fetch": true, "read": true, "lookup": true, "query": true, "select": true,
	"exists": true, "exist": true, "has": true, "load": true, "search": true, "count": true, "first": true,
	"one": true, "scalar": true, "scalars": true, "hget": true, "hexists": true, "sismember": true, "is": true,
	"contains": true, "list": true, "describe": true, "head": true, "retrieve": true, "check": true,
}

// methodWords splits a method name into lower-case words.
func methodWords(m string) []string { return detect.SplitWords(m) }

// classifyByName classifies a call on an object twice cannot see, by its
// method name: a read, a side effect, or nothing.
func classifyByName(m string) effectKind {
	if m == "" {
		return effNone
	}
	ws := methodWords(m)
	if len(ws) == 0 {
		return effNone
	}
	if readWords[ws[0]] {
		return effRead
	}
	if detect.ClassifyActivity(m) == detect.ClassSideEffect {
		return effOpaqueWrite
	}
	return effNone
}

// textHas reports whether an expression's text contains any of the
// words, case-folded.
func textHas(e *Expr, words ...string) bool {
	if e == nil {
		return false
	}
	t := strings.ToLower(e.Text)
	for _, w := range words {
		if strings.Contains(t, w) {
			return true
		}
	}
	return false
}

// anyKey reports whether a call, anywhere in its arguments (nested
// literals, option calls, a method chain), names a key that pred accepts:
// a keyword, a dict or struct key, a header set by a Set/SetHeader call,
// or an option function's name.
func anyKey(call *Expr, pred func(string) bool) bool {
	found := false
	call.Exprs(func(x *Expr) bool {
		if found {
			return false
		}
		for _, k := range x.Keys {
			if pred(k.Key) {
				found = true
			}
		}
		if x.Kind == ExprCall {
			if pred(x.Name) {
				found = true
			}
			if a := x.Arg(0); a != nil && a.Kind == ExprString && isHeaderSetter(x.Name) && pred(a.Str) {
				found = true
			}
		}
		return true
	})
	return found
}

// heldKey is anyKey for literals held by variables the call names (a
// metadata map built before the call).
func heldKey(call *Expr, pred func(string) bool, values func(string) *Expr) bool {
	if values == nil {
		return false
	}
	for _, id := range call.Idents() {
		// A literal, or an object built with an initializer (C#: new
		// ServiceBusMessage(…) { MessageId = … }).
		if v := values(id); v != nil && (v.Kind == ExprComposite || v.Kind == ExprCall && v.Op == "new") {
			for _, k := range v.Keys {
				if pred(k.Key) {
					return true
				}
			}
		}
	}
	return false
}

// isHeaderSetter reports whether a method sets a header or metadata
// entry by name as its first argument.
func isHeaderSetter(m string) bool {
	switch m {
	case "Set", "Add", "SetHeader", "set", "add", "putheader", "add_header", "AddHeader", "Append", "WithHeader", "Header", "TryAddWithoutValidation":
		return true
	}
	return false
}

// hasStringArg reports whether any argument (recursively) is a string
// literal equal to one of vals, case-folded.
func hasStringArg(e *Expr, vals ...string) bool {
	for _, s := range e.Strings() {
		for _, v := range vals {
			if strings.EqualFold(strings.TrimSpace(s), v) {
				return true
			}
		}
	}
	return false
}

// keyEffect notes whether a POST, publish or send carries its own key
// (an idempotency key, a message id), and whether a POST is a payment.
func keyEffect(e effect, call *Expr, values func(string) *Expr) effect {
	switch e.kind {
	case effPost:
		e.keyed = anyKey(call, isIdemName) || rowKeyValue(e.row, call, values) != nil
	case effPublish:
		e.keyed = anyKey(call, isMessageIDName) || heldKey(call, isMessageIDName, values)
	case effEmail:
		e.keyed = anyKey(call, isIdemName)
	}
	if e.row != nil {
		if e.twice == "" && e.row.decide == nil {
			e.twice = e.row.twice
		}
		e.payment = e.row.severity >= detect.SeverityHigh
	}
	if e.kind == effPost && !e.payment && isPaymentURL(e.what) {
		e.payment, e.twice = true, "charges twice"
	}
	return e
}

// twiceWords are what a second run of a sink does: the row's words, else
// the kind's.
func (e effect) twiceWords() string {
	if e.twice != "" {
		return e.twice
	}
	switch e.kind {
	case effInsert:
		return "writes a second row"
	case effIncrement:
		return "counts twice"
	case effAppend:
		return "duplicates the content"
	case effPost:
		return "repeats it at the provider"
	case effPublish:
		return "publishes a duplicate"
	case effEmail:
		return "sends it again"
	}
	return ""
}

// sinkMessage says what a sink that refuses no duplicate does when the
// activity runs twice.
func (e effect) sinkMessage() string {
	switch e.kind {
	case effInsert:
		return e.what + ": an INSERT with no conflict clause " + e.twiceWords() + " when the activity runs twice"
	case effIncrement:
		return e.what + ": an increment " + e.twiceWords() + " when the activity runs twice"
	case effAppend:
		return e.what + ": an append " + e.twiceWords() + " when the activity runs twice"
	case effPost:
		return e.what + " with no idempotency key: a second run " + e.twiceWords()
	case effPublish:
		return e.what + " with no deterministic message id: a second run " + e.twiceWords()
	case effEmail:
		return e.what + " with no dedupe record and no provider key: a second run " + e.twiceWords()
	}
	return ""
}

func callArgOrKw(call *Expr, i int, kw string) *Expr {
	if v := call.Keyword(kw); v != nil {
		return v
	}
	return call.Arg(i)
}

func isTrue(e *Expr) bool {
	return e != nil && (e.Text == "True" || e.Text == "true")
}

// mentions reports whether an expression's text names s.
func mentions(e *Expr, s string) bool {
	return e != nil && strings.Contains(e.Text, s)
}

// anyCall reports whether a call's subtree calls a method named m.
func anyCall(call *Expr, m string) bool {
	found := false
	call.Exprs(func(x *Expr) bool {
		if x.Kind == ExprCall && x.Name == m {
			found = true
		}
		return !found
	})
	return found
}

// stateConditional reports whether a Dapr state save carries an etag or
// first-write concurrency.
func stateConditional(call *Expr) bool {
	if call.Keyword("etag") != nil {
		return true
	}
	t := call.Text
	return strings.Contains(t, "first_write") || strings.Contains(t, "FirstWrite") || strings.Contains(t, "Etag:") || strings.Contains(t, "ETag:") ||
		strings.Contains(t, "etag:") || strings.Contains(t, "ETag =") // C#: StateTransactionRequest(…, etag: e), new SaveStateItem { ETag = e }
}

// urlText is a URL argument's text for a message.
func urlText(a, kw *Expr) string {
	if a == nil {
		a = kw
	}
	if a == nil {
		return "(url)"
	}
	if a.Kind == ExprString {
		return a.Str
	}
	if s := a.Strings(); len(s) > 0 {
		return strings.Join(s, "…")
	}
	return a.Text
}

func isPaymentURL(s string) bool {
	s = strings.ToLower(s)
	for _, w := range []string{"pay", "charge", "refund", "transfer", "payout", "invoice"} {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

func recvName(e *Expr) string {
	if e == nil {
		return ""
	}
	if e.Kind == ExprIdent || e.Kind == ExprAttr {
		return e.Name
	}
	return e.Text
}

// rowKeyValue is the value a call gives the key a row names by keyword
// (a meter event's Identifier): a keyword or field anywhere in the call's
// arguments, or in an options object a variable holds; nil when the call
// sets none (or the row names its key by position, or by no keyword
// another rule does not already know).
func rowKeyValue(r *api, call *Expr, values func(string) *Expr) *Expr {
	if r == nil || !r.key.set || r.key.pos >= 0 || r.key.kw == "" || isIdemName(r.key.kw) {
		return nil
	}
	var found *Expr
	look := func(e *Expr) {
		e.Exprs(func(x *Expr) bool {
			for _, k := range x.Keys {
				if found == nil && k.Key == r.key.kw {
					found = k.Value
				}
			}
			return found == nil
		})
	}
	look(call)
	if found == nil && values != nil {
		for _, id := range call.Idents() {
			if v := values(id); v != nil && (v.Kind == ExprComposite || v.Kind == ExprCall && v.Op == "new") {
				look(v)
			}
		}
	}
	return found
}
