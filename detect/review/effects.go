package review

import (
	"regexp"
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
	// sql is the statement text, for SQL calls.
	sql string
	// sqlArg is the position of the SQL argument.
	sqlArg int
	// http marks a request made through .NET's HttpClient (which the app
	// may configure to retry).
	http bool
}

var (
	sqlStart       = regexp.MustCompile(`(?is)^\s*(?:--[^\n]*\n\s*)*(INSERT|UPDATE|DELETE|UPSERT|MERGE|REPLACE|SELECT|WITH)\b`)
	sqlConflict    = regexp.MustCompile(`(?i)\bON\s+CONFLICT\b|\bON\s+DUPLICATE\s+KEY\b|\bINSERT\s+IGNORE\b|\bINSERT\s+OR\s+(?:IGNORE|REPLACE)\b|\bIF\s+NOT\s+EXISTS\b|\bWHERE\s+NOT\s+EXISTS\b`)
	sqlIncrement   = regexp.MustCompile(`(?i)\b([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(?:[A-Za-z_][A-Za-z0-9_]*\.)?([A-Za-z_][A-Za-z0-9_]*)\s*[+-]`)
	sqlAugIncr     = regexp.MustCompile(`(?i)\bSET\b[^;]*\b[A-Za-z_][A-Za-z0-9_]*\s*[+-]=`)
	sqlPrecondtion = regexp.MustCompile(`(?i)\bWHERE\b[^;]*\b(version|etag|revision|row_version|updated_at|status)\s*=`)
	dynamoIncr     = regexp.MustCompile(`(?i)^\s*ADD\b|\bADD\s+[#:A-Za-z_]|([#:A-Za-z_][A-Za-z0-9_]*)\s*=\s*([#:A-Za-z_][A-Za-z0-9_]*)\s*[+-]`)
)

// sqlVerb returns the statement's first keyword, upper case, or "".
func sqlVerb(s string) string {
	m := sqlStart.FindStringSubmatch(s)
	if m == nil {
		return ""
	}
	return strings.ToUpper(m[1])
}

// isIncrementSQL reports whether an UPDATE adds to a column's own value.
func isIncrementSQL(s string) bool {
	if sqlAugIncr.MatchString(s) {
		return true
	}
	up := strings.ToUpper(s)
	i := strings.Index(up, " SET ")
	if i < 0 {
		return false
	}
	set := s[i:]
	if j := strings.Index(strings.ToUpper(set), " WHERE "); j >= 0 {
		set = set[:j]
	}
	for _, m := range sqlIncrement.FindAllStringSubmatch(set, -1) {
		if strings.EqualFold(m[1], m[2]) {
			return true
		}
	}
	return false
}

// classifySQL classifies one SQL statement's text.
func classifySQL(s string) (effectKind, string) {
	one := strings.Join(strings.Fields(s), " ")
	what := Clip(one)
	if len(what) > 60 {
		what = what[:60] + "…"
	}
	switch sqlVerb(s) {
	case "INSERT":
		if sqlConflict.MatchString(s) {
			return effGuard, what
		}
		return effInsert, what
	case "UPSERT", "MERGE", "REPLACE":
		return effGuard, what
	case "UPDATE":
		if isIncrementSQL(s) {
			if sqlPrecondtion.MatchString(s) {
				return effGuard, what
			}
			return effIncrement, what
		}
		if sqlPrecondtion.MatchString(s) {
			return effGuard, what
		}
		return effIdempotent, what
	case "DELETE":
		return effIdempotent, what
	case "SELECT":
		return effRead, what
	case "WITH":
		if sqlConflict.MatchString(s) {
			return effGuard, what
		}
		if strings.Contains(strings.ToUpper(s), "INSERT") {
			return effInsert, what
		}
		return effRead, what
	}
	return effNone, ""
}

// readWords are the first words of a method name that reads.
var readWords = map[string]bool{
	"get": true, "find": true, "fetch": true, "read": true, "lookup": true, "query": true, "select": true,
	"exists": true, "exist": true, "has": true, "load": true, "search": true, "count": true, "first": true,
	"one": true, "scalar": true, "scalars": true, "hget": true, "hexists": true, "sismember": true, "is": true,
	"contains": true, "list": true, "describe": true, "head": true, "retrieve": true, "check": true,
}

// neutralMethods never count as a side effect of an activity: in-memory
// collection methods, logging, formatting, closing.
var neutralMethods = map[string]bool{
	"append": true, "extend": true, "insert": true, "add": true, "update": true, "pop": true, "remove": true,
	"setdefault": true, "clear": true, "sort": true, "copy": true, "join": true, "split": true, "format": true,
	"close": true, "Close": true, "write": true, "Write": true, "flush": true, "Flush": true, "encode": true, "decode": true,
	"Set": true, "Add": true, "Del": true, "Append": true, "Store": true, "Put": true, "Lock": true, "Unlock": true, "Done": true,
	"Wait": true, "info": true, "debug": true, "warning": true, "error": true, "exception": true, "critical": true,
	"Info": true, "Debug": true, "Warn": true, "Error": true, "Errorf": true, "Infof": true, "Debugf": true, "Warnf": true,
	"Printf": true, "Println": true, "Print": true, "Sprintf": true, "log": true, "Log": true, "Logf": true,
	"send_keys": true, "set": true, "put": true, "delete": true, "Delete": true, "rollback": true, "Rollback": true,
	"commit": true, "Commit": true, "Reset": true, "Cancel": true, "cancel": true, "Publish": true, "publish": true,
	"Marshal": true, "Unmarshal": true, "Encode": true, "Decode": true, "String": true, "Err": true,
	"Scan": true, "Next": true, "Exec": true, "ExecContext": true, "execute": true, "executemany": true,
	"Do": true, "Header": true, "WithContext": true, "Begin": true, "BeginTx": true, "begin": true,
	"Sleep": true, "sleep": true, "GetInput": true, "get_input": true, "GetTaskID": true, "GetTaskExecutionID": true,
	"get_inner_context": true, "Context": true, "GetTraceContext": true, "get_propagated_history": true, "raise_for_status": true, "json": true, "Unwrap": true, "New": true,
	// .NET: logging, EF Core's unit of work (isPersist), ADO.NET plumbing,
	// Polly's and Dapper's Execute (a SQL argument is classified first).
	"LogInformation": true, "LogWarning": true, "LogError": true, "LogDebug": true, "LogCritical": true, "LogTrace": true,
	"SaveChanges": true, "SaveChangesAsync": true, "CreateClient": true, "AddWithValue": true, "OpenAsync": true, "Open": true,
	"CreateCommand": true, "Execute": true, "ExecuteAsync": true, "EnsureSuccessStatusCode": true, "ReadFromJsonAsync": true,
	"ReadAsStringAsync": true, "ReadAsByteArrayAsync": true, "ReadAsStreamAsync": true, "Dispose": true, "DisposeAsync": true,
}

// methodWords splits a method name into lower-case words.
func methodWords(m string) []string { return detect.SplitWords(m) }

// classifyByName classifies a call on an object twice cannot see, by its
// method name: a read, a side effect, or nothing.
func classifyByName(m string) effectKind {
	if m == "" || neutralMethods[m] {
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

// classify says what a call does. values gives variables' assigned
// expressions (a SQL string in a variable, a headers dict).
func classify(call *Expr, lang Lang, values func(string) *Expr) effect {
	m := call.Method()
	ref := call.Ref
	recv := call.Receiver()
	e := effect{call: call}

	// SQL text in an argument.
	for i, a := range call.Args {
		if s := sqlText(a, values); s != "" {
			if k, what := classifySQL(s); k != effNone {
				e.kind, e.what, e.sql, e.sqlArg = k, what, s, i
				return e
			}
		}
	}
	if lang == LangCSharp {
		if ec := classifyCSharp(call, values); ec.kind != effNone {
			return keyEffect(ec, call, values)
		}
	}
	// SQLAlchemy: session.execute(insert(t).values(…)[.on_conflict_do_nothing()]).
	if m == "execute" || m == "exec" {
		if k := sqlalchemyInsert(call); k != effNone {
			e.kind, e.what = k, "INSERT (SQLAlchemy insert())"
			if k == effGuard {
				e.what = "INSERT … ON CONFLICT (SQLAlchemy)"
			}
			return e
		}
	}

	switch {
	// HTTP.
	case lang == LangPython && (m == "post") && recv != nil:
		e.kind, e.what = effPost, "POST "+urlText(call.Arg(0), call.Keyword("url"))
	case lang == LangPython && m == "request" && (hasStringArg(callArgOrKw(call, 0, "method"), "POST")):
		e.kind, e.what = effPost, "POST "+urlText(call.Arg(1), call.Keyword("url"))
	case ref == "net/http.Post" || ref == "net/http.PostForm":
		e.kind, e.what = effPost, "POST "+urlText(call.Arg(0), nil)
	case lang == LangGo && (m == "Post" || m == "PostForm") && recv != nil && ref == "":
		e.kind, e.what = effPost, "POST "+urlText(call.Arg(0), nil)
	case ref == "net/http.NewRequest" || ref == "net/http.NewRequestWithContext":
		method := call.Arg(0)
		if ref == "net/http.NewRequestWithContext" {
			method = call.Arg(1)
		}
		if method != nil && ((method.Kind == ExprString && strings.EqualFold(method.Str, "POST")) || method.Ref == "net/http.MethodPost") {
			url := call.Arg(1)
			if ref == "net/http.NewRequestWithContext" {
				url = call.Arg(2)
			}
			e.kind, e.what = effPost, "POST "+urlText(url, nil)
		}
	// Payment providers' SDKs.
	case strings.HasPrefix(ref, "stripe.") && (strings.EqualFold(m, "create") || m == "capture" || m == "confirm"):
		e.kind, e.what, e.payment = effPost, "Stripe "+strings.TrimPrefix(ref, "stripe."), true
	case strings.HasPrefix(ref, "github.com/stripe/stripe-go") && (m == "New" || m == "Capture" || m == "Confirm"):
		e.kind, e.what, e.payment = effPost, "Stripe "+call.X.Text, true
	// Email and SMS.
	case ref == "net/smtp.SendMail" || m == "SendMail" || m == "sendmail":
		e.kind, e.what = effEmail, "email ("+m+")"
	case m == "send_message" && (call.Keyword("QueueUrl") != nil || textHas(recv, "sqs")):
		e.kind, e.what = effPublish, "SQS send_message"
	case m == "SendMessage" && textHas(recv, "sqs"):
		e.kind, e.what = effPublish, "SQS SendMessage"
	case m == "send_message" && textHas(recv, "smtp", "server", "mail", "conn"):
		e.kind, e.what = effEmail, "email ("+m+")"
	case (m == "send" || m == "Send") && textHas(recv, "sendgrid", "sg", "mail", "postmark", "mailgun", "ses"):
		e.kind, e.what = effEmail, "email ("+recvName(recv)+"."+m+")"
	case m == "send_email" || m == "SendEmail" || m == "send_templated_email" || m == "SendTemplatedEmail":
		e.kind, e.what = effEmail, "email ("+m+")"
	case m == "create" && recv != nil && strings.HasSuffix(strings.ToLower(recv.Name), "messages"):
		e.kind, e.what = effEmail, "SMS ("+recv.Text+".create)"
	case m == "CreateMessage":
		e.kind, e.what = effEmail, "SMS (CreateMessage)"
	// Publishing.
	case m == "publish_event" || m == "PublishEvent" || m == "PublishEventfromCustomContent" || m == "PublishEvents" || m == "publish_events":
		e.kind, e.what = effPublish, "publish ("+m+")"
	case (m == "publish" || m == "Publish") && (recv != nil && textHas(recv, "publish", "pubsub", "sns", "topic", "js", "nats", "nc", "bus", "broker", "events", "client")):
		e.kind, e.what = effPublish, "publish ("+recvName(recv)+"."+m+")"
	case m == "produce" || m == "WriteMessages" || (m == "SendMessage" && textHas(recv, "producer", "sarama")) || (m == "send" && textHas(recv, "producer", "kafka")):
		e.kind, e.what = effPublish, "publish ("+recvName(recv)+"."+m+")"
	// Counters.
	case isRedisIncr(m):
		e.kind, e.what = effIncrement, "redis "+strings.ToUpper(m)
	case m == "Increment" || ref == "cloud.google.com/go/firestore.Increment" || (m == "Increment" && ref != "") || strings.HasSuffix(ref, "firestore.Increment"):
		e.kind, e.what = effIncrement, "increment ("+call.X.Text+")"
	case (m == "update_one" || m == "update_many" || m == "UpdateOne" || m == "UpdateMany" || m == "find_one_and_update" || m == "FindOneAndUpdate") && anyKey(call, func(k string) bool { return k == "$inc" }):
		e.kind, e.what = effIncrement, "$inc ("+m+")"
	case (m == "update_item" || m == "UpdateItem") && updateExprIncrements(call):
		if call.Keyword("ConditionExpression") != nil || anyKey(call, func(k string) bool { return k == "ConditionExpression" }) {
			e.kind, e.what = effGuard, m+" with ConditionExpression"
		} else {
			e.kind, e.what = effIncrement, m+" (ADD / x = x + …)"
		}
	// Appends.
	case isRedisAppend(m, call):
		e.kind, e.what = effAppend, "redis "+strings.ToUpper(m)
	case lang == LangPython && (m == "open" && recv == nil || (m == "open" && ref == "aiofiles.open")) && isAppendMode(callArgOrKw(call, 1, "mode")):
		e.kind, e.what = effAppend, "open(…, \"a\")"
	case lang == LangPython && m == "open" && recv != nil && isAppendMode(callArgOrKw(call, 0, "mode")):
		e.kind, e.what = effAppend, "open(\"a\")"
	case ref == "os.OpenFile" && mentions(call.Arg(1), "os.O_APPEND"):
		e.kind, e.what = effAppend, "os.OpenFile(…, os.O_APPEND…)"
	case m == "append_block" || m == "AppendBlock" || m == "append_blob_from_text" || m == "AppendBlockFromURL":
		e.kind, e.what = effAppend, m
	// Guards: writes that refuse their own duplicate.
	case m == "setnx" || m == "SetNX" || m == "hsetnx" || m == "HSetNX" || m == "SetArgs" && anyKey(call, func(k string) bool { return k == "Mode" }) || (m == "set" && isTrue(call.Keyword("nx"))):
		e.kind, e.what = effGuard, "SET NX ("+m+")"
	case m == "SaveStateWithETag" || ((m == "save_state" || m == "SaveState" || m == "SaveBulkState" || m == "save_bulk_state") && stateConditional(call)):
		e.kind, e.what = effGuard, "state save with an etag or first-write concurrency ("+m+")"
	case m == "save_state" || m == "SaveState" || m == "save_bulk_state" || m == "SaveBulkState" || m == "execute_state_transaction" || m == "ExecuteStateTransaction":
		e.kind, e.what = effIdempotent, "state save ("+m+")"
	case (m == "put_item" || m == "PutItem") && (call.Keyword("ConditionExpression") != nil || anyKey(call, func(k string) bool { return k == "ConditionExpression" })):
		e.kind, e.what = effGuard, m+" with ConditionExpression"
	case m == "put_item" || m == "PutItem" || m == "put_object" || m == "PutObject" || m == "replace_one" || m == "ReplaceOne" || m == "upload_fileobj" || m == "upload_file":
		e.kind, e.what = effIdempotent, m
	case (m == "update_one" || m == "UpdateOne" || m == "update_many" || m == "UpdateMany") && (isTrue(call.Keyword("upsert")) || anyCall(call, "SetUpsert")):
		e.kind, e.what = effGuard, m+" with upsert"
	case m == "insert_one" || m == "InsertOne" || m == "insert_many" || m == "InsertMany":
		if anyKey(call, func(k string) bool { return k == "_id" }) {
			e.kind, e.what = effGuard, m+" with _id from the input"
		} else {
			e.kind, e.what = effInsert, m
		}
	case m == "get_or_create" || m == "update_or_create" || m == "FirstOrCreate" || m == "merge" && textHas(recv, "session") || m == "Upsert" || m == "upsert":
		e.kind, e.what = effGuard, m
	// ORM inserts.
	case (m == "add" || m == "add_all") && recv != nil && (textHas(recv, "session") || recvName(recv) == "db"):
		e.kind, e.what = effInsert, recvName(recv)+"."+m+" (ORM insert)"
	case (m == "create" || m == "bulk_create") && recv != nil && strings.HasSuffix(recv.Text, "objects"):
		e.kind, e.what = effInsert, recv.Text+"."+m+" (ORM insert)"
	case m == "Create" && recv != nil && textHas(recv, "db", "gorm", "tx"):
		if anyCall(call, "Clauses") && mentions(call, "OnConflict") {
			e.kind, e.what = effGuard, "Create with clause.OnConflict"
		} else {
			e.kind, e.what = effInsert, recvName(recv)+".Create (ORM insert)"
		}
	// HTTP methods that are idempotent by shape, and reads.
	case lang == LangPython && (m == "put" || m == "delete") && recv != nil && textHas(recv, "requests", "httpx", "session", "client", "http"):
		e.kind, e.what = effIdempotent, strings.ToUpper(m)
	case lang == LangPython && m == "get" && recv != nil && textHas(recv, "requests", "httpx", "session", "client", "http"):
		e.kind, e.what = effRead, "GET"
	case m == "get_state" || m == "GetState" || m == "GetBulkState" || m == "get_bulk_state":
		e.kind, e.what = effRead, m
	}
	if e.kind != effNone {
		return keyEffect(e, call, values)
	}
	if recv != nil && ref == "" {
		e.kind = classifyByName(m)
		if e.kind != effNone {
			e.what = call.X.Text
		}
	}
	return e
}

// keyEffect notes whether a POST, publish or send carries its own key
// (an idempotency key, a message id), and whether a POST is a payment.
func keyEffect(e effect, call *Expr, values func(string) *Expr) effect {
	switch e.kind {
	case effPost:
		e.keyed = anyKey(call, isIdemName)
	case effPublish:
		e.keyed = anyKey(call, isMessageIDName) || heldKey(call, isMessageIDName, values)
	case effEmail:
		e.keyed = anyKey(call, isIdemName)
	}
	if e.kind == effPost && !e.payment {
		e.payment = isPaymentURL(e.what)
	}
	return e
}

// sqlText returns the SQL an argument holds: a literal, a literal held by
// a variable, text("…"), or a concatenation or interpolation whose
// literal start is SQL.
func sqlText(a *Expr, values func(string) *Expr) string {
	for depth := 0; a != nil && depth < 4; depth++ {
		switch a.Kind {
		case ExprString:
			if sqlVerb(a.Str) != "" {
				return a.Str
			}
			return ""
		case ExprIdent:
			if values == nil {
				return ""
			}
			a = values(a.Name)
		case ExprCall:
			if a.Name == "text" || a.Name == "SQL" || a.Name == "sql" || a.Name == "dedent" {
				a = a.Arg(0)
				continue
			}
			return ""
		case ExprBinary:
			var b strings.Builder
			for _, s := range a.Strings() {
				b.WriteString(s)
				b.WriteByte(' ')
			}
			if s := b.String(); sqlVerb(s) != "" {
				return s
			}
			return ""
		default:
			return ""
		}
	}
	return ""
}

// sqlalchemyInsert classifies a SQLAlchemy insert() construct inside a
// call's arguments.
func sqlalchemyInsert(call *Expr) effectKind {
	found, guarded := false, false
	for _, a := range call.Args {
		a.Exprs(func(x *Expr) bool {
			if x.Kind == ExprCall {
				if x.Name == "insert" && (strings.HasPrefix(x.Ref, "sqlalchemy") || x.Ref == "") && x.Receiver() == nil {
					found = true
				}
				switch x.Name {
				case "on_conflict_do_nothing", "on_conflict_do_update", "on_duplicate_key_update":
					guarded = true
				case "prefix_with":
					if hasStringArg(x, "IGNORE", "OR IGNORE", "OR REPLACE") {
						guarded = true
					}
				}
			}
			return true
		})
	}
	switch {
	case found && guarded:
		return effGuard
	case found:
		return effInsert
	}
	return effNone
}

func callArgOrKw(call *Expr, i int, kw string) *Expr {
	if v := call.Keyword(kw); v != nil {
		return v
	}
	return call.Arg(i)
}

func isAppendMode(e *Expr) bool {
	return e != nil && e.Kind == ExprString && strings.HasPrefix(e.Str, "a")
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

func isRedisIncr(m string) bool {
	switch strings.ToLower(m) {
	case "incr", "incrby", "incrbyfloat", "hincrby", "hincrbyfloat", "zincrby", "decr", "decrby":
		return true
	}
	return false
}

func isRedisAppend(m string, call *Expr) bool {
	switch strings.ToLower(m) {
	case "rpush", "lpush", "xadd", "rpushx", "lpushx":
		return true
	case "append":
		// Redis APPEND takes a key and a value (plus a context in Go): a
		// list's append takes one value.
		recv := call.Receiver()
		return len(call.Args) >= 2 && recv != nil && textHas(recv, "redis", "rdb", "cache", "kv")
	}
	return false
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

func updateExprIncrements(call *Expr) bool {
	var exprs []*Expr
	if v := call.Keyword("UpdateExpression"); v != nil {
		exprs = append(exprs, v)
	}
	call.Exprs(func(x *Expr) bool {
		for _, k := range x.Keys {
			if k.Key == "UpdateExpression" {
				exprs = append(exprs, k.Value)
			}
		}
		return true
	})
	for _, v := range exprs {
		for _, s := range v.Strings() {
			if dynamoIncr.MatchString(s) {
				if m := dynamoIncr.FindStringSubmatch(s); m != nil && m[1] != "" && m[1] != m[2] {
					continue
				}
				return true
			}
		}
	}
	return false
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
