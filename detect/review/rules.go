package review

import (
	"fmt"
	"github.com/twice-cli/twice/detect"
	"regexp"
	"strconv"
	"strings"
)

// retryLibraries are the retry helpers and decorators twice recognises,
// by qualified name (a trailing "." matches the whole package).
var retryLibraries = []string{
	"tenacity.", "backoff.on_exception", "backoff.on_predicate", "retrying.retry", "retry.retry", "retry.api.retry_call",
	"urllib3.util.retry.Retry", "urllib3.Retry", "requests.adapters.Retry", "stamina.retry", "stamina.",
	"github.com/avast/retry-go.", "github.com/avast/retry-go/v4.", "github.com/avast/retry-go/v5.",
	"github.com/cenkalti/backoff.Retry", "github.com/cenkalti/backoff/v4.Retry", "github.com/cenkalti/backoff/v4.RetryNotify",
	"github.com/cenkalti/backoff/v5.Retry", "github.com/sethvargo/go-retry.Do", "github.com/sethvargo/go-retry.",
	"k8s.io/client-go/util/retry.", "github.com/hashicorp/go-retryablehttp.", "github.com/failsafe-go/failsafe-go.",
	"Polly.", "Polly.Policy.", "Polly.ResiliencePipelineBuilder",
}

// retryEntry are the names of a retry library's functions that run a
// retry (not its options: retry.Attempts, stop_after_attempt).
var retryEntry = map[string]bool{
	"Do": true, "DoWithData": true, "Retry": true, "RetryNotify": true, "RetryWithData": true, "RetryNotifyWithData": true,
	"OnError": true, "RetryOnConflict": true, "NewClient": true, "Get": true, "Run": true, "With": true,
	"retry": true, "Retrying": true, "AsyncRetrying": true, "retry_call": true, "retry_context": true,
}

// retryLibrary names the retry library a qualified name belongs to, or "".
func retryLibrary(ref string) string {
	if ref == "" {
		return ""
	}
	for _, l := range retryLibraries {
		if ref == l {
			return ref
		}
		if strings.HasSuffix(l, ".") && strings.HasPrefix(ref, l) && retryEntry[ref[strings.LastIndexByte(ref, '.')+1:]] {
			return ref
		}
	}
	return ""
}

// pollyRetryMethods are the Polly builder methods that add a retry: v7's
// policies (Policy.Handle<E>().WaitAndRetryAsync(…)) and v8's pipelines
// (new ResiliencePipelineBuilder().AddRetry(…)).
var pollyRetryMethods = map[string]bool{
	"Retry": true, "RetryAsync": true, "RetryForever": true, "RetryForeverAsync": true, "WaitAndRetry": true,
	"WaitAndRetryAsync": true, "WaitAndRetryForever": true, "WaitAndRetryForeverAsync": true, "AddRetry": true,
}

// chainRoot is the start of a method chain: the name or the created
// object the first call is made on.
func chainRoot(e *Expr) *Expr {
	for e != nil {
		switch {
		case e.Kind == ExprCall && e.Op == "new":
			return e
		case e.Kind == ExprCall || e.Kind == ExprAttr:
			if e.X == nil {
				return e
			}
			e = e.X
		default:
			return e
		}
	}
	return nil
}

// isPollyRetry reports whether an expression builds a Polly retry.
func isPollyRetry(e *Expr) bool {
	found := false
	e.Exprs(func(x *Expr) bool {
		if x.Kind == ExprCall && pollyRetryMethods[x.Name] {
			if r := chainRoot(x); r != nil && strings.HasPrefix(r.Ref, "Polly.") {
				found = true
			}
		}
		return !found
	})
	return found
}

// pollyRetry says whether a call builds a Polly retry in the body, or runs
// the body's work through a retry policy the class holds (a field built
// in its initializer or constructor, or typed as a Polly retry policy).
func (w *walker) pollyRetry(call *Expr, f *frame) string {
	if f.file.Lang != LangCSharp {
		return ""
	}
	if pollyRetryMethods[call.Name] {
		if r := chainRoot(call); r != nil && strings.HasPrefix(r.Ref, "Polly.") {
			return "builds a Polly retry (" + call.Name + ") inside the body"
		}
	}
	switch call.Name {
	case "Execute", "ExecuteAsync", "ExecuteAndCapture", "ExecuteAndCaptureAsync":
	default:
		return ""
	}
	if strings.HasPrefix(call.Ref, "Polly.Retry.") {
		return "runs its work through a Polly retry policy (" + Clip(call.X.Text) + ")"
	}
	recv := call.Receiver()
	if recv == nil {
		return ""
	}
	name := recv.Name
	if recv.Kind == ExprAttr && (recv.X == nil || recv.X.Name != "this") {
		return ""
	}
	if _, local := f.values[name]; local {
		return "" // built in the body: reported where it is built
	}
	if v := w.ix.pkgOf(f.file).global(name); v != nil && isPollyRetry(v) {
		return "runs its work through " + name + ", a Polly retry policy the class builds"
	}
	return ""
}

// isSleep reports whether a call waits: time.sleep, asyncio.sleep,
// time.Sleep, <-time.After, Task.Delay.
func isSleep(e *Expr) bool { return isSleepRef(e.Ref) }

func isSleepRef(ref string) bool {
	switch ref {
	case "time.sleep", "asyncio.sleep", "time.Sleep", "time.After", "gevent.sleep", "trio.sleep", "System.Threading.Tasks.Task.Delay", "System.Threading.Thread.Sleep":
		return true
	}
	return false
}

// loop flags a loop that sleeps and handles a failure: a retry written in
// the body.
func (w *walker) loop(s *Stmt, f *frame) {
	sleeps, handles := false, false
	Walk(s.Body, func(st *Stmt) bool {
		for _, e := range st.StmtExprs() {
			for _, c := range e.Calls() {
				if isSleep(c) {
					sleeps = true
				}
			}
			e.Exprs(func(x *Expr) bool {
				if x.Kind == ExprUnary && x.Op == "<-" && x.X != nil && x.X.Kind == ExprCall && isSleep(x.X) {
					sleeps = true
				}
				return true
			})
		}
		switch st.Kind {
		case StmtTry:
			if len(st.Handlers) > 0 {
				handles = true
			}
		case StmtIf:
			if st.X != nil && (strings.Contains(st.X.Text, "err") || strings.Contains(st.X.Text, "status")) {
				handles = true
			}
		case StmtContinue:
			handles = true
		}
		return true
	})
	if sleeps && handles {
		w.hazard(f, RuleRetryInBody, s.Pos, "a loop that sleeps and tries again: a retry written inside the activity body")
	}
}

var (
	rejectName    = regexp.MustCompile(`(?i)declin|reject|invalid|validation|notfound|not_found|insufficient|forbidden|unauthori[sz]ed|permanent|denied|fraud|badrequest|bad_request|notallowed|unprocessable|nonretr|non_retr|businesserror|business_error`)
	rejectText    = regexp.MustCompile(`(?i)declined|insufficient funds|insufficient balance|invalid|not found|rejected|denied|forbidden|fraud|not allowed|not permitted|validation|unprocessable|blocked|expired card|card expired`)
	transientText = regexp.MustCompile(`(?i)timeout|timed out|unavailable|try again|retry|temporar|503|502|504|429|connection`)
)

// rejection reports whether an error or exception expression is a
// business rejection, and a short description.
func rejection(e *Expr) (bool, string) {
	if e == nil {
		return false, ""
	}
	name, msg := "", ""
	switch e.Kind {
	case ExprCall:
		name = e.Name
		for _, s := range e.Strings() {
			msg = s
			break
		}
	case ExprIdent, ExprAttr:
		name = e.Name
	case ExprUnary:
		if e.X != nil && e.X.Kind == ExprComposite {
			name = e.X.Name
		}
	case ExprComposite:
		name = e.Name
	}
	if msg != "" && transientText.MatchString(msg) {
		return false, ""
	}
	if name != "" && rejectName.MatchString(name) {
		return true, Clip(e.Text)
	}
	if msg != "" && rejectText.MatchString(msg) && (isErrorCtor(e) || e.Kind == ExprCall) {
		return true, Clip(e.Text)
	}
	if st := httpStatusArg(e); st >= 400 && st < 500 && st != 408 && st != 429 {
		return true, Clip(e.Text)
	}
	return false, ""
}

func isErrorCtor(e *Expr) bool {
	switch e.Ref {
	case "errors.New", "fmt.Errorf":
		return true
	}
	return strings.HasSuffix(e.Name, "Error") || strings.HasSuffix(e.Name, "Exception") || strings.HasSuffix(e.Name, "Err")
}

// httpStatusArg returns a status_code=4xx keyword or literal argument of
// an exception constructor (HTTPException(status_code=402)).
func httpStatusArg(e *Expr) int {
	if e.Kind != ExprCall {
		return 0
	}
	for _, k := range e.Keys {
		if strings.Contains(strings.ToLower(k.Key), "status") && k.Value != nil && k.Value.Kind == ExprNumber {
			n, _ := strconv.Atoi(k.Value.Str)
			return n
		}
	}
	if strings.Contains(strings.ToLower(e.Name), "http") {
		if a := e.Arg(0); a != nil && a.Kind == ExprNumber {
			n, _ := strconv.Atoi(a.Str)
			return n
		}
	}
	return 0
}

// duplicateCatch names the exceptions and codes of a unique-constraint
// violation: SQLAlchemy's and DB-API's IntegrityError, psycopg's
// UniqueViolation, EF Core's DbUpdateException, Postgres 23505, SQL
// Server 2627 and 2601, MongoDB's DuplicateKey.
var duplicateCatch = regexp.MustCompile(`IntegrityError|UniqueViolation|DuplicateKey|DbUpdateException|23505|\b2627\b|\b2601\b|(?i)duplicate key|unique constraint`)

// catchesDuplicate names what a try's handler catches when it is a
// unique-constraint violation ("" when none is).
func catchesDuplicate(s *Stmt) string {
	for _, c := range s.Catches {
		if c != nil {
			if m := duplicateCatch.FindString(c.Text); m != "" {
				return m
			}
		}
	}
	return ""
}

// isStatusRaise reports whether a call raises on any HTTP error status,
// 4xx and 5xx alike: requests' and httpx's raise_for_status(), .NET's
// EnsureSuccessStatusCode().
func isStatusRaise(call *Expr) bool {
	switch call.Method() {
	case "raise_for_status", "EnsureSuccessStatusCode":
		return call.Receiver() != nil
	}
	return false
}

var status4xx = regexp.MustCompile(`\b4\d\d\b|<\s*500\b|>=?\s*400\b|IsClientError|is_client_error|BadRequest|PaymentRequired|NotFound|Conflict|UnprocessableEntity`)

// returns4xx reports whether an if tests an HTTP status for a 4xx and
// returns (the rejection comes back as a value).
func returns4xx(s *Stmt) bool {
	if s.X == nil || !textHas(s.X, "status") || !status4xx.MatchString(s.X.Text) {
		return false
	}
	for _, st := range s.Body {
		if st.Kind == StmtReturn {
			return true
		}
	}
	return false
}

// raise records a business rejection raised in the body.
func (w *walker) raise(s *Stmt, f *frame) {
	if ok, what := rejection(s.X); ok {
		w.rejections = append(w.rejections, w.loc(f, s.Pos))
		w.rejectText = append(w.rejectText, what)
	}
}

// ret records a Go error return that is a rejection, and a root-level
// return of a whole response body.
func (w *walker) ret(s *Stmt, f *frame) {
	if f.file.Lang == LangGo && len(s.Rhs) > 0 {
		last := s.Rhs[len(s.Rhs)-1]
		if last.Kind == ExprIdent && last.Name != "nil" && last.Name != "err" {
			if ok, what := rejection(last); ok {
				w.rejections = append(w.rejections, w.loc(f, s.Pos))
				w.rejectText = append(w.rejectText, what)
			}
		} else if ok, what := rejection(last); ok {
			w.rejections = append(w.rejections, w.loc(f, s.Pos))
			w.rejectText = append(w.rejectText, what)
		}
	}
	if f.depth != 0 || len(s.Rhs) == 0 {
		return
	}
	if what := w.wholeBody(s.Rhs[0], f, 0); what != "" {
		w.hazard(f, RuleLargePayload, s.Pos, "returns "+what+" as the activity's output, which is stored in the workflow history")
	}
}

// wholeBody says whether an expression is a whole response body or
// result set: resp.json(), resp.text, resp.content, cursor.fetchall(),
// io.ReadAll(resp.Body), or a variable holding one.
func (w *walker) wholeBody(e *Expr, f *frame, depth int) string {
	if e == nil || depth > 3 {
		return ""
	}
	switch e.Kind {
	case ExprUnary:
		if e.Op == "await" {
			return w.wholeBody(e.X, f, depth+1)
		}
	case ExprIdent:
		if v := f.values[e.Name]; v != nil {
			return w.wholeBody(v, f, depth+1)
		}
	case ExprAttr:
		if (e.Name == "text" || e.Name == "content" || e.Name == "body") && e.X != nil && textHas(e.X, "resp", "response", "res", "r") {
			return e.Text + " (the whole response body)"
		}
	case ExprCall:
		switch {
		case e.Ref == "io.ReadAll" || e.Ref == "io/ioutil.ReadAll":
			return e.Text + " (the whole response body)"
		case (e.Name == "json" || e.Name == "read" || e.Name == "text") && len(e.Args) == 0 && e.Receiver() != nil && textHas(e.Receiver(), "resp", "response", "res", "r"):
			return e.Text + " (the whole response body)"
		case e.Name == "ReadAsStringAsync" || e.Name == "ReadAsByteArrayAsync" || e.Name == "GetStringAsync" || e.Name == "GetByteArrayAsync":
			return e.Text + " (the whole response body)"
		case (e.Name == "ReadFromJsonAsync" || e.Name == "GetFromJsonAsync") && f.file.Lang == LangCSharp:
			return e.Text + " (the whole response document)"
		case e.Name == "fetchall" || e.Name == "all" && textHas(e.Receiver(), "query", "scalars", "result", "cursor"):
			return e.Text + " (every row)"
		case e.Name == "string" || e.Name == "RawMessage" || e.Name == "loads" || e.Name == "list" || e.Name == "str":
			if a := e.Arg(0); a != nil {
				return w.wholeBody(a, f, depth+1)
			}
		}
	}
	return ""
}

// knownModules are libraries whose calls twice either understands or
// knows to have no side effect it must see; a call into any other
// package outside the reviewed tree is code twice cannot see.
var knownModules = []string{
	// Python standard library and common libraries.
	"uuid", "time", "datetime", "json", "logging", "os", "sys", "re", "math", "random", "secrets", "hashlib", "hmac",
	"base64", "typing", "dataclasses", "decimal", "enum", "functools", "itertools", "collections", "asyncio",
	"smtplib", "email", "urllib", "http", "ssl", "socket", "pathlib", "io", "csv", "string", "textwrap", "copy",
	"requests", "httpx", "aiohttp", "sqlalchemy", "psycopg", "psycopg2", "asyncpg", "pymysql", "sqlite3", "redis",
	"sendgrid", "twilio", "stripe", "boto3", "botocore", "dapr", "durabletask", "tenacity", "backoff", "pydantic",
	"pymongo", "motor", "kafka", "confluent_kafka", "nats", "google", "azure", "jinja2", "structlog", "ulid",
	// Go standard library is every path without a dot in its first element;
	// these are the common third-party ones.
	"github.com/dapr/", "github.com/google/uuid", "github.com/redis/", "github.com/go-redis/", "gorm.io/",
	"github.com/jackc/", "github.com/lib/pq", "github.com/jmoiron/sqlx", "github.com/stripe/", "github.com/sendgrid/",
	"github.com/twilio/", "github.com/aws/", "cloud.google.com/", "github.com/nats-io/", "github.com/segmentio/",
	"github.com/IBM/sarama", "github.com/Shopify/sarama", "go.mongodb.org/", "github.com/go-resty/", "github.com/avast/",
	"github.com/cenkalti/", "google.golang.org/", "github.com/sirupsen/logrus", "go.uber.org/", "github.com/rs/",
	"github.com/gofrs/", "github.com/oklog/", "github.com/pkg/errors", "golang.org/x/",
}

// knownNamespaces are the C# root namespaces of libraries twice
// understands or knows to have no side effect it must see.
var knownNamespaces = map[string]bool{
	"System": true, "Microsoft": true, "Dapr": true, "Polly": true, "Stripe": true, "SendGrid": true, "Twilio": true,
	"Azure": true, "Amazon": true, "Npgsql": true, "Dapper": true, "StackExchange": true, "MassTransit": true,
	"Confluent": true, "MailKit": true, "MimeKit": true, "MongoDB": true, "Newtonsoft": true, "Serilog": true,
}

// knownModule reports whether a qualified name is in a known module.
func knownModule(lang Lang, ref string) bool {
	switch lang {
	case LangGo:
		path := ref
		if i := strings.LastIndexByte(path, '.'); i > strings.LastIndexByte(path, '/') {
			path = path[:i]
		}
		first, _, _ := strings.Cut(path, "/")
		if !strings.Contains(first, ".") {
			return true // the standard library
		}
	case LangPython:
		if strings.HasPrefix(ref, ".") {
			return false
		}
		first, _, _ := strings.Cut(ref, ".")
		for _, m := range knownModules {
			if first == m {
				return true
			}
		}
		return false
	case LangCSharp:
		first, _, _ := strings.Cut(ref, ".")
		return knownNamespaces[first]
	}
	for _, m := range knownModules {
		if strings.HasPrefix(ref, m) {
			return true
		}
	}
	return false
}

// finish turns the body's ops into hazards and guards.
func (w *walker) finish(rootFrame *frame) {
	hasGuard := false
	for _, o := range w.ops {
		if o.kind == opEffect && o.eff.kind == effGuard {
			hasGuard = true
			w.act.Guards = append(w.act.Guards, Guard{Location: o.loc, Excerpt: excerptAt(w.ix, o.loc), What: o.eff.what})
		}
	}
	if w.idemKV {
		// A key header, keyword or field set from a stable value: the
		// provider refuses the repeat.
		for _, o := range w.ops {
			if o.kind == opEffect && (o.eff.kind == effPost || o.eff.kind == effPublish || o.eff.kind == effEmail) && !w.keyGenerated() {
				at := o.loc
				what := o.eff.what + " with an idempotency key"
				if w.idemAt != nil {
					at = w.idemAt.loc
					what = o.eff.what + ", its " + strconv.Quote(w.idemAt.text) + " key from the input"
				}
				w.act.Guards = append(w.act.Guards, Guard{Location: at, Excerpt: excerptAt(w.ix, at), What: what})
				break
			}
		}
	}
	persists := false
	for _, o := range w.ops {
		if o.kind == opWriteCall {
			persists = true
		}
	}
	for i, o := range w.ops {
		switch o.kind {
		case opAugAttr:
			if persists {
				w.hazardAt(o, RuleUnkeyedSideEffect, "increments "+o.text+" and saves it: a second run counts twice")
			}
		case opEffect:
			w.effectHazard(o, i, hasGuard)
		}
	}
	if !hasGuard {
		w.checkThenAct()
	}
}

// keyGenerated reports whether a key-generated-in-body or per-attempt-key
// hazard was found.
func (w *walker) keyGenerated() bool {
	for _, h := range w.act.Hazards {
		if h.Rule == RuleKeyGeneratedInBody || h.Rule == RulePerAttemptKey {
			return true
		}
	}
	return false
}

func (w *walker) effectHazard(o op, i int, hasGuard bool) {
	e := o.eff
	switch e.kind {
	case effInsert:
		w.hazardAt(o, RuleUnkeyedSideEffect, e.what+": an INSERT with no conflict clause writes a second row when the activity runs twice")
	case effIncrement:
		w.hazardAt(o, RuleUnkeyedSideEffect, e.what+": an increment counts twice when the activity runs twice")
	case effAppend:
		w.hazardAt(o, RuleUnkeyedSideEffect, e.what+": an append duplicates the content when the activity runs twice")
	case effPost:
		if e.keyed || w.idemKV {
			return
		}
		msg := e.what + " with no idempotency key: a second run repeats it at the provider"
		if e.payment {
			msg = e.what + " with no idempotency key: a second run charges twice"
		}
		h := w.hazardAt(o, RuleUnkeyedSideEffect, msg)
		if e.payment && h != nil {
			h.Severity = maxSev(h.Severity, detect.SeverityHigh)
		}
	case effPublish:
		if e.keyed {
			return
		}
		w.hazardAt(o, RuleUnkeyedSideEffect, e.what+" with no deterministic message id: a second run publishes a duplicate")
	case effEmail:
		if e.keyed || hasGuardBefore(w.ops, i) {
			return
		}
		w.hazardAt(o, RuleUnkeyedSideEffect, e.what+" with no dedupe record and no provider key: a second run sends it again")
	}
}

func hasGuardBefore(ops []op, i int) bool {
	for _, o := range ops[:i] {
		if o.kind == opEffect && o.eff.kind == effGuard {
			return true
		}
	}
	return false
}

// hazardAt records a hazard at an op's place.
func (w *walker) hazardAt(o op, rule RuleID, msg string) *Hazard {
	k := fmt.Sprintf("%s@%s:%d:%d", rule, o.loc.File, o.loc.Line, o.loc.Col)
	if w.seen[k] {
		return nil
	}
	w.seen[k] = true
	r, _ := RuleByID(rule)
	w.act.Hazards = append(w.act.Hazards, Hazard{Rule: rule, Severity: r.Severity, Activity: w.act.Name, Location: o.loc,
		Excerpt: excerptAt(w.ix, o.loc), Message: msg, Via: append([]string(nil), o.via...)})
	return &w.act.Hazards[len(w.act.Hazards)-1]
}

// checkThenAct finds a read, an if on its result that leaves early, and
// a write after that if.
func (w *walker) checkThenAct() {
	for ri, r := range w.ops {
		if r.kind != opEffect || r.eff.kind != effRead {
			continue
		}
		for ci := ri + 1; ci < len(w.ops); ci++ {
			c := w.ops[ci]
			if c.kind != opCheck || !checks(c, r) {
				continue
			}
			for _, wr := range w.ops[ci+1:] {
				if wr.seq <= c.end || wr.kind != opEffect {
					continue
				}
				switch wr.eff.kind {
				case effInsert, effPost, effPublish, effEmail, effIncrement, effAppend, effOpaqueWrite:
					w.hazardAt(r, RuleCheckThenAct, fmt.Sprintf("reads with %s, returns early when it finds something (line %d), then writes with %s at line %d with no conditional write behind it",
						Clip(r.eff.call.X.Text), c.loc.Line, Clip(wr.eff.what), wr.loc.Line))
					return
				}
			}
		}
	}
}

// checks reports whether an if tests a read's result for presence (an
// ordering comparison, qty < 0, tests a value, not whether the write was
// done).
func checks(c, r op) bool {
	if c.cond != nil && c.cond.Kind == ExprBinary && isOrdering(c.cond.Op) && !textHas(c.cond, "len(", "count", "length") {
		return false
	}
	if isErrCheck(c.cond) {
		return false // Go's if err != nil { return err }: the read failed
	}
	for _, v := range c.vars {
		if v == "#read"+strconv.Itoa(r.seq) {
			return true
		}
	}
	if c.cond == nil {
		return false
	}
	for _, id := range c.cond.Idents() {
		for _, v := range r.vars {
			if id == v {
				return true
			}
		}
	}
	return false
}

// isErrCheck reports whether a condition is err != nil.
func isErrCheck(e *Expr) bool {
	if e == nil || e.Kind != ExprBinary || e.Op != "!=" || len(e.Args) != 2 {
		return false
	}
	a, b := e.Args[0], e.Args[1]
	if a.Kind == ExprIdent && a.Name == "nil" {
		a, b = b, a
	}
	return b.Kind == ExprIdent && b.Name == "nil" && a.Kind == ExprIdent && (a.Name == "err" || strings.HasSuffix(a.Name, "Err"))
}

func isOrdering(op string) bool {
	switch op {
	case "<", ">", "<=", ">=":
		return true
	}
	return false
}

func excerptAt(ix *index, l Location) string {
	if f := ix.files[l.File]; f != nil {
		return LineText(f.Src, l.Line)
	}
	return ""
}
