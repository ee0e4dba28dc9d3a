package review

import (
	"fmt"
	"github.com/twice-cli/twice/detect"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// retryLibrary names the retry library entry a qualified name is
// (lib_retry.go), or "".
func retryLibrary(ref string) string {
	if refIs(qRetry, ref) != nil {
		return ref
	}
	return ""
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
		if x.Kind == ExprCall && is(qRetryBuilder, x, LangCSharp) != nil {
			found = true
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
	if r := w.row(is(qRetryBuilder, call, f.file.Lang)); r != nil {
		return "builds " + r.what + " (" + call.Name + ") inside the body"
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
// time.Sleep, <-time.After, Task.Delay (lib_retry.go).
func (w *walker) isSleep(e *Expr) bool { return w.row(refIs(qSleep, e.Ref)) != nil }

func isSleepRef(ref string) bool { return refIs(qSleep, ref) != nil }

// loop flags a loop that sleeps and handles a failure: a retry written in
// the body. The sleep may be a helper's (sleepCtx(ctx, backoff)). A loop
// that waits for a result to appear (a poll) is not a retry.
func (w *walker) loop(s *Stmt, f *frame) {
	sleeps, handles := false, false
	Walk(s.Body, func(st *Stmt) bool {
		for _, e := range st.StmtExprs() {
			for _, c := range e.Calls() {
				if w.isSleep(c) || w.helperSleeps(c, f) {
					sleeps = true
				}
			}
			e.Exprs(func(x *Expr) bool {
				if x.Kind == ExprUnary && x.Op == "<-" && x.X != nil && x.X.Kind == ExprCall && w.isSleep(x.X) {
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
	if sleeps && handles && !w.polls(s, f) {
		w.hazard(f, RuleRetryInBody, s.Pos, "a loop that sleeps and tries again: a retry written inside the activity body")
	}
}

// helperSleeps reports whether a call is to a function of the tree whose
// own body waits (a sleep, or a select on a timer): a loop that calls it
// sleeps.
func (w *walker) helperSleeps(c *Expr, f *frame) bool {
	fn := w.helper(c, f)
	if fn == nil {
		return false
	}
	if w.sleepers == nil {
		w.sleepers = map[*Func]bool{}
	}
	if v, ok := w.sleepers[fn]; ok {
		return v
	}
	found := false
	Walk(fn.Body, func(st *Stmt) bool {
		if st.Kind == StmtLoop {
			return false // a helper that loops is a retry or a poll of its own
		}
		for _, e := range st.StmtExprs() {
			e.Exprs(func(x *Expr) bool {
				if x.Kind == ExprCall && w.isSleep(x) {
					found = true
				}
				return !found
			})
		}
		return !found
	})
	w.sleepers[fn] = found
	return found
}

// polls reports whether a loop waits for a result to appear rather than
// retrying a failure: it is bounded by a clock (a deadline), or writes
// nothing, and it leaves when a value it read says the result is there
// (if status == done: break), not on an error or an HTTP status.
func (w *walker) polls(s *Stmt, f *frame) bool {
	counters := map[string]bool{}
	for _, l := range s.Lhs {
		for _, id := range l.Idents() {
			counters[id] = true
		}
	}
	if !pollExit(s.Body, counters) {
		return false
	}
	if s.X != nil && textHas(s.X, "deadline", "monotonic", "time.time", "time.now", "before(", "elapsed", "timeout", "utcnow") {
		return true
	}
	writes := false
	Walk(s.Body, func(st *Stmt) bool {
		for _, e := range st.StmtExprs() {
			for _, c := range e.Calls() {
				switch classify(c, f.file, nil, nil).kind {
				case effInsert, effIncrement, effAppend, effPost, effPublish, effEmail, effOpaqueWrite, effIdempotent, effGuard:
					writes = true
				case effNone:
					// A helper of the tree may write: only a clock makes
					// its loop a poll.
					if w.helper(c, f) != nil && !w.helperSleeps(c, f) {
						writes = true
					}
				}
			}
		}
		return !writes
	})
	return !writes
}

// pollExit reports whether a loop body leaves (return, break) when a
// value says the result is there: an if outside the failure handlers
// whose condition is not an error, an HTTP status or the loop's counter
// (if attempt >= attempts: break is the retry's own bound).
func pollExit(list []*Stmt, counters map[string]bool) bool {
	for _, st := range list {
		switch st.Kind {
		case StmtIf:
			if st.X != nil && leavesLoop(st.Body) && !isErrCheck(st.X) &&
				!textHas(st.X, "err", "status_code", "statuscode", "issuccess", "is_success", "attempt", "retr", "tries") && !usesCounter(st.X, counters) {
				return true
			}
			if pollExit(st.Body, counters) || pollExit(st.Else, counters) {
				return true
			}
		case StmtTry, StmtBlock:
			if pollExit(st.Body, counters) || pollExit(st.Else, counters) {
				return true
			}
		}
	}
	return false
}

func usesCounter(e *Expr, counters map[string]bool) bool {
	for _, id := range e.Idents() {
		if counters[id] {
			return true
		}
	}
	return false
}

// leavesLoop reports whether a block returns or breaks.
func leavesLoop(list []*Stmt) bool {
	for _, s := range list {
		switch s.Kind {
		case StmtReturn, StmtBreak:
			return true
		case StmtBlock:
			if leavesLoop(s.Body) {
				return true
			}
		}
	}
	return false
}

var (
	rejectName = regexp.MustCompile(`(?i)declin|reject|invalid|validation|notfound|not_found|insufficient|forbidden|unauthori[sz]ed|permanent|denied|fraud|badrequest|bad_request|notallowed|unprocessable|nonretr|non_retr|businesserror|business_error|conflict|outofstock|out_of_stock`)
	// genericError names error classes and constructors that say nothing
	// of the failure's class: their message decides, and only on a branch
	// that tests the input.
	genericError  = regexp.MustCompile(`^(ValueError|TypeError|RuntimeError|Exception|Error|ArgumentException|ArgumentNullException|ArgumentOutOfRangeException|InvalidOperationException|New|Errorf)$`)
	rejectText    = regexp.MustCompile(`(?i)declined|insufficient funds|insufficient balance|invalid|not found|rejected|denied|forbidden|fraud|not allowed|not permitted|validation|unprocessable|blocked|expired card|card expired|is required|are required|must be|must not|cannot be empty|missing|unsupported|not supported|out of stock|not enough`)
	transientText = regexp.MustCompile(`(?i)timeout|timed out|unavailable|try again|retry|temporar|503|502|504|429|connection|malformed|response was|unexpected response`)
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
	if e.Kind == ExprCall && (e.Ref == "fmt.Errorf" || e.Ref == "errors.Join") {
		// fmt.Errorf("cancel %s: %w", id, ErrOrderNotFound): the wrapped
		// error is the rejection.
		for _, a := range e.Args[min(1, len(e.Args)):] {
			if a.Kind == ExprIdent || a.Kind == ExprAttr {
				if ok, _ := rejection(a); ok {
					return true, Clip(e.Text)
				}
			}
		}
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

// catchesDuplicate names what a try's handler catches when it is a
// unique-constraint violation ("" when none is): the first name or code
// a unique-violation row lists (lib_sql.go) that the handler's text holds.
func (w *walker) catchesDuplicate(s *Stmt) string {
	for _, c := range s.Catches {
		if c == nil {
			continue
		}
		best, at := "", -1
		for _, r := range knowledge().uniqueNames {
			for _, n := range r.methods {
				if i := wordIndex(c.Text, n); i >= 0 && (at < 0 || i < at) {
					best, at = c.Text[i:i+len(n)], i
					w.row(r)
				}
			}
		}
		if best != "" {
			return best
		}
	}
	return ""
}

// wordIndex is where text holds name, or -1: case-folded for words, a
// code not as part of a longer number.
func wordIndex(text, name string) int {
	lt, ln := strings.ToLower(text), strings.ToLower(name)
	digits := ln != "" && isDigit(ln[0])
	for i := 0; i < len(lt); {
		j := strings.Index(lt[i:], ln)
		if j < 0 {
			return -1
		}
		j += i
		end := j + len(ln)
		if !digits || (j == 0 || !isDigit(lt[j-1])) && (end == len(lt) || !isDigit(lt[end])) {
			return j
		}
		i = j + 1
	}
	return -1
}

func isDigit(b byte) bool { return b >= '0' && b <= '9' }

// isStatusRaise reports whether a call raises on any HTTP error status,
// 4xx and 5xx alike: requests' and httpx's raise_for_status(), .NET's
// EnsureSuccessStatusCode().

var (
	atLeast400 = regexp.MustCompile(`>=?\s*(400|399)\b`)
	below500   = regexp.MustCompile(`<\s*500\b|<=\s*499\b`)
)

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

// statusRejection records an if that tests an HTTP status for a 4xx and
// raises, or (Go) returns a non-nil error: a permanent rejection raised
// as a failure (if resp.StatusCode == 404 { return fmt.Errorf(…) }).
func (w *walker) statusRejection(s *Stmt, f *frame) bool {
	if s.X == nil || !textHas(s.X, "status") || !status4xx.MatchString(s.X.Text) {
		return false
	}
	if atLeast400.MatchString(s.X.Text) && !below500.MatchString(s.X.Text) || strings.Contains(s.X.Text, ">= 500") || strings.Contains(s.X.Text, ">=500") {
		return false // >= 400 takes 5xx too: raise_for_status's shape, not a rejection
	}
	for _, st := range s.Body {
		switch {
		case st.Kind == StmtRaise:
		case st.Kind == StmtReturn && f.file.Lang == LangGo && len(st.Rhs) > 0:
			if last := st.Rhs[len(st.Rhs)-1]; last.Kind == ExprIdent && last.Name == "nil" {
				continue
			}
		default:
			continue
		}
		if !w.caught(f.file.Lang, raisedClass(st.X)) {
			w.rejections = append(w.rejections, w.loc(f, st.Pos))
			w.rejectText = append(w.rejectText, "an error on a 4xx status ("+Clip(s.X.Text)+")")
		}
		return true
	}
	return false
}

// retriesServerErrors reports whether an if tests an HTTP status for a
// 5xx and restarts the loop (if resp.StatusCode >= 500 { …; continue }):
// what falls through it is every other failure, a 4xx.
func retriesServerErrors(s *Stmt) bool {
	if s.Kind != StmtIf || s.X == nil || len(s.Else) > 0 || len(s.Body) == 0 || !textHas(s.X, "status") {
		return false
	}
	if !at500.MatchString(s.X.Text) {
		return false
	}
	return s.Body[len(s.Body)-1].Kind == StmtContinue
}

// raisesOnStatus are the calls that raise on any non-success status.
var raisesOnStatus = map[string]bool{"raise_for_status": true, "EnsureSuccessStatusCode": true}

// at500 matches a test for a server error: >= 500, > 499.
var at500 = regexp.MustCompile(`>=\s*500\b|>\s*499\b`)

// rejectsRest records the error a statement returns or raises unconditionally
// after a loop's 5xx-retry branch: the statuses it is reached with are
// the 4xx ones the loop chose not to retry, permanent rejections.
func (w *walker) rejectsRest(s, retry *Stmt, f *frame) bool {
	if retry.X == nil {
		return false
	}
	switch {
	case s.Kind == StmtRaise:
	case s.Kind == StmtReturn && f.file.Lang == LangGo && len(s.Rhs) > 0:
		if last := s.Rhs[len(s.Rhs)-1]; last.Kind == ExprIdent && last.Name == "nil" {
			return false
		}
	case s.Kind == StmtExpr && s.X != nil && s.X.Kind == ExprCall && raisesOnStatus[s.X.Method()]:
		// r.raise_for_status() / EnsureSuccessStatusCode() after the 5xx branch.
	default:
		return false
	}
	if w.caught(f.file.Lang, raisedClass(s.X)) {
		return false
	}
	w.rejections = append(w.rejections, w.loc(f, s.Pos))
	w.rejectText = append(w.rejectText, fmt.Sprintf("an error on a status below 500, which the loop does not retry (%s, line %d)", Clip(retry.X.Text), retry.Pos.Line))
	return true
}

// raise records a business rejection raised in the body: by its name or
// message, or a class of the tree whose bases name a rejection
// (class OutOfStock(BusinessRuleError)). One a try around it catches,
// by its class, a base of it or everything, and does not raise again, is
// returned as a value, not raised.
func (w *walker) raise(s *Stmt, f *frame) {
	ok, what := rejection(s.X)
	if cls := raisedClass(s.X); ok && (genericError.MatchString(cls) || !rejectName.MatchString(cls)) && !w.underDataTest(f) && !(w.inHandler > 0 && w.parsing[len(w.parsing)-1]) {
		// raise RuntimeError("TOKEN is required"): a message alone says
		// rejection only on a branch that tests the input or what the
		// body read, not configuration.
		ok = false
	}
	if !ok {
		if n := raisedClass(s.X); n != "" && w.baseRejects(f.file.Lang, n, 0) {
			ok, what = true, Clip(s.X.Text)
		}
	}
	if !ok || w.caught(f.file.Lang, raisedClass(s.X)) {
		return
	}
	if w.inHandler > 0 && !rejectName.MatchString(raisedClass(s.X)) && !w.baseRejects(f.file.Lang, raisedClass(s.X), 0) && !w.parsing[len(w.parsing)-1] {
		// raise RuntimeError("invalid JSON from the server") in an except:
		// it translates a failure twice cannot judge (a cut response may
		// be transient); only a class named for a rejection says more.
		return
	}
	w.rejections = append(w.rejections, w.loc(f, s.Pos))
	w.rejectText = append(w.rejectText, what)
}

// underDataTest reports whether the walk is in a branch of an if of the
// raising function whose condition derives from the activity's input or what the body read (if
// not req.get("id"):, if stock < req.qty), not from configuration.
func (w *walker) underDataTest(f *frame) bool {
	for i := len(w.conds) - 1; i >= 0; i-- {
		c := w.conds[i]
		if c.cond == nil || c.f != f {
			continue // a test in a caller guards the call, not this raise
		}
		if k := w.provenance(c.cond, c.f, 0).kind; k == provInput || k == provRead {
			return true
		}
	}
	return false
}

// raisedClass is the class a raise names: raise X(…), throw new X(…).
func raisedClass(e *Expr) string {
	if e == nil {
		return ""
	}
	switch e.Kind {
	case ExprCall, ExprIdent, ExprAttr:
		return e.Name
	}
	return ""
}

// baseRejects reports whether a class of the tree derives from one whose
// name says rejection.
func (w *walker) baseRejects(lang Lang, class string, depth int) bool {
	if depth > 4 {
		return false
	}
	for _, d := range w.ix.types[string(lang)+":"+class] {
		for _, b := range d.decl.Bases {
			b = simpleName(b)
			if rejectName.MatchString(b) && !transientText.MatchString(b) || w.baseRejects(lang, b, depth+1) {
				return true
			}
		}
	}
	return false
}

// derives reports whether class is base or derives from it in the tree;
// for a class the tree does not declare, whether its name extends the
// base's stem (DurableHistoryInvalidReferenceError, DurableHistoryError).
func (w *walker) derives(lang Lang, class, base string, depth int) bool {
	if class == base {
		return true
	}
	if depth > 4 {
		return false
	}
	if len(w.ix.types[string(lang)+":"+class]) == 0 {
		stem := strings.TrimSuffix(strings.TrimSuffix(base, "Error"), "Exception")
		return len(stem) >= 6 && stem != base && strings.HasPrefix(class, stem)
	}
	for _, d := range w.ix.types[string(lang)+":"+class] {
		for _, b := range d.decl.Bases {
			if w.derives(lang, simpleName(b), base, depth+1) {
				return true
			}
		}
	}
	return false
}

var catchAll = map[string]bool{"Exception": true, "BaseException": true, "System.Exception": true}

// caught reports whether a try around the raise catches its class (by
// name, or a base of it in the tree, or everything) and does not raise
// again.
func (w *walker) caught(lang Lang, class string) bool {
	for i := len(w.tries) - 1; i >= 0; i-- {
		t := w.tries[i]
		for j, c := range t.Catches {
			match := c == nil
			if c != nil {
				for _, word := range catchWords(c.Text) {
					if catchAll[word] || class != "" && w.derives(lang, class, simpleName(word), 0) {
						match = true
					}
				}
			}
			if !match {
				continue
			}
			return j < len(t.Handlers) && !reraises(t.Handlers[j])
		}
	}
	return false
}

// catchWords are the names a handler's text holds (except (A, B) as e;
// catch (DbException ex) when (…)).
func catchWords(text string) []string {
	if i := strings.Index(text, " when "); i >= 0 {
		text = text[:i]
	}
	return strings.FieldsFunc(text, func(r rune) bool {
		return !(r == '_' || r == '.' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	})
}

// reraises reports whether a handler raises again.
func reraises(body []*Stmt) bool {
	found := false
	Walk(body, func(s *Stmt) bool {
		if s.Kind == StmtRaise {
			found = true
		}
		return !found
	})
	return found
}

// sentinel reports whether a Go error value is a package-level sentinel
// whose message says rejection (var ErrSoldOut = errors.New("sold out:
// not enough stock")).
func (w *walker) sentinel(e *Expr, f *frame) (bool, string) {
	if e == nil || e.Kind != ExprIdent && e.Kind != ExprAttr {
		return false, ""
	}
	v := w.ix.pkgOf(f.file).global(e.Name)
	if v == nil && e.Kind == ExprAttr && e.Ref != "" {
		if i := strings.LastIndexByte(e.Ref, '.'); i > 0 {
			if p := w.ix.pkgFor(f.file.Lang, e.Ref[:i]); p != nil {
				v = p.global(e.Name)
			}
		}
	}
	if v == nil || v.Kind != ExprCall {
		return false, ""
	}
	if ok, _ := rejection(v); ok {
		return true, Clip(e.Text) + " (" + Clip(v.Text) + ")"
	}
	return false, ""
}

// ret records a Go error return that is a rejection, and a root-level
// return of a whole response body.
func (w *walker) ret(s *Stmt, f *frame) {
	if f.file.Lang == LangGo && len(s.Rhs) > 0 {
		last := s.Rhs[len(s.Rhs)-1]
		if ok, what := w.sentinel(last, f); ok {
			w.rejections = append(w.rejections, w.loc(f, s.Pos))
			w.rejectText = append(w.rejectText, what)
		} else if last.Kind == ExprCall && (last.Ref == "fmt.Errorf" || last.Ref == "errors.Join") {
			for _, a := range last.Args {
				if ok, what := w.sentinel(a, f); ok {
					w.rejections = append(w.rejections, w.loc(f, s.Pos))
					w.rejectText = append(w.rejectText, what)
					break
				}
			}
		}
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
	if f.depth != 0 || len(s.Rhs) == 0 || w.inFunc > 0 {
		return
	}
	if what := w.wholeBody(s.Rhs[0], f, 0); what != "" && !w.commandAnswer(s.Rhs[0], f, 0) {
		w.hazard(f, RuleLargePayload, s.Pos, "returns "+what+" as the activity's output, which is stored in the workflow history")
	} else if what := w.collectionOut(s.Rhs[0], f); what != "" {
		w.hazard(f, RuleLargePayload, s.Pos, "returns "+what+", a collection that grows with the data, as the activity's output: every element is stored in the workflow history")
	} else if what := w.marshalledEntity(s.Rhs[0], f); what != "" {
		w.hazard(f, RuleLargePayload, s.Pos, "returns "+what+" as the activity's output: the whole entity, every element of its collection included, is stored in the workflow history")
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
		if d := f.decoded[e.Name]; d != "" {
			return e.Name + " (" + d + ")"
		}
		if v := f.values[e.Name]; v != nil {
			return w.wholeBody(v, f, depth+1)
		}
	case ExprAttr:
		// resp.text is the body; resp.content[0].text and
		// response.choices[0].message.content are one field of it (an
		// LLM's answer), a small value the caller asked for.
		if e.X == nil || e.X.Kind != ExprIdent && e.X.Kind != ExprCall {
			return ""
		}
		if llmAnswer(e.X, f) {
			return "" // a model's answer text (response.text of generate_content)
		}
		if r := w.row(is(qWholeBody, e, f.file.Lang)); r != nil {
			return e.Text + " (" + r.what + ")"
		}
	case ExprCall:
		if r := w.row(is(qWholeBody, e, f.file.Lang)); r != nil {
			return e.Text + " (" + r.what + ")"
		}
		switch {
		case e.Name == "string" || e.Name == "RawMessage" || e.Name == "loads" || e.Name == "list" || e.Name == "str":
			if a := e.Arg(0); a != nil {
				return w.wholeBody(a, f, depth+1)
			}
		}
		if fn := w.helper(e, f); fn != nil && depth < 3 && !w.stack[fn] {
			// return client.get_run(id): what the helper returns.
			if what := w.helperBody(fn, e, f, depth+1); what != "" {
				return Clip(e.Text) + ", which returns " + what + " (" + fn.File.Path + ")"
			}
		}
	}
	return ""
}

// llmCalls are the calls of model SDKs whose response's text is the
// model's answer, not a document.
var llmCalls = map[string]bool{"generate_content": true, "generate_content_async": true, "generateContent": true,
	"GenerateContentAsync": true, "complete": true, "acomplete": true, "chat": true, "predict": true, "invoke": true, "ainvoke": true}

// llmAnswer reports whether a value is a model SDK's response.
func llmAnswer(e *Expr, f *frame) bool {
	for i := 0; i < 4 && e != nil; i++ {
		switch e.Kind {
		case ExprUnary:
			e = e.X
		case ExprIdent:
			v := f.values[e.Name]
			if v == e {
				return false
			}
			e = v
		case ExprCall:
			return llmCalls[e.Name]
		default:
			return false
		}
	}
	return false
}

// collectionType matches a declared type that is an unbounded
// collection: a list, sequence, array or dictionary.
var collectionType = regexp.MustCompile(`\b(IEnumerable|IList|List|IReadOnlyList|IReadOnlyCollection|ICollection)\s*<\s*([\w.]+)|([\w.]+)\[\]`)

// smallElements are element types a collection of references holds (ids,
// names, counts): what the seed asks an activity to return.
var smallElements = map[string]bool{"string": true, "String": true, "int": true, "long": true, "Guid": true, "bool": true,
	"decimal": true, "double": true, "byte": true, "char": true, "System.String": true, "System.Guid": true}

// collectionOut says whether the activity returns a collection its
// declared output type makes unbounded (Task<IEnumerable<Row>>,
// list[dict], a record of the tree holding one), and what; "" when not,
// or when what it returns is empty.
func (w *walker) collectionOut(e *Expr, f *frame) string {
	if f.depth != 0 || e == nil || f.file.Lang != LangCSharp || isEmptyLiteral(e) {
		return ""
	}
	decl := w.root.Returns
	if decl == "" {
		return ""
	}
	if p := w.provenance(e, f, 0); p.kind == provInput || p.kind == provConst {
		return "" // computed from the input, already in the history
	}
	if !w.reachedOut() {
		return "" // a computation over the input alone: nothing fetched
	}
	if m := collectionType.FindStringSubmatch(decl); m != nil {
		if elem := m[2] + m[3]; smallElements[elem] {
			return "" // references (ids, names): what the seed asks for
		}
		return Clip(e.Text) + " (declared " + Clip(decl) + ")"
	}
	// A record of the tree that holds a collection (Costs = rows.ToArray()).
	for _, name := range regexp.MustCompile(`[A-Z]\w*`).FindAllString(decl, -1) {
		for _, d := range w.ix.types[string(f.file.Lang)+":"+name] {
			for field, t := range d.decl.Fields {
				if setEmpty(e, field) {
					continue // new Page { Rows = [] }: nothing in it
				}
				if m := collectionType.FindStringSubmatch(t); m != nil && !smallElements[m[2]+m[3]] {
					return Clip(e.Text) + " (" + name + "." + field + " is " + t + ")"
				}
			}
		}
	}
	return ""
}

// marshalledEntity says whether a Go activity returns a value of the
// tree's types serialised whole (out, _ := json.Marshal(order); return
// string(out)) whose struct holds a slice or map of records: an entity
// with its collection, where a reference is what the seed asks for.
func (w *walker) marshalledEntity(e *Expr, f *frame) string {
	if f.depth != 0 || e == nil || f.file.Lang != LangGo {
		return ""
	}
	if e.Kind == ExprCall && e.Name == "string" && len(e.Args) == 1 {
		e = e.Args[0]
	}
	if e.Kind == ExprIdent {
		e = w.value(f, e.Name)
	}
	if e == nil || e.Kind != ExprCall || e.Ref != "encoding/json.Marshal" || len(e.Args) != 1 || !w.reachedOut() {
		return ""
	}
	if p := w.provenance(e.Args[0], f, 0); p.kind == provInput || p.kind == provConst {
		return ""
	}
	t := w.typeOf(e.Args[0], f, 0)
	if t == "" {
		return ""
	}
	d, ok := w.ix.typeSeenFrom(f.file, simpleName(t), typeNamespace(t))
	if !ok {
		return ""
	}
	var fields []string
	for field := range d.decl.Fields {
		fields = append(fields, field)
	}
	sort.Strings(fields)
	for _, field := range fields {
		if ft := d.decl.Fields[field]; strings.HasPrefix(ft, "[]") {
			return Clip(e.Text) + " (" + d.decl.Name + "." + field + " is " + ft + ")"
		}
	}
	return ""
}

// setEmpty reports whether an object literal sets a field to an empty
// collection or nothing (new Page { Rows = [] }).
func setEmpty(e *Expr, field string) bool {
	if e == nil || e.Kind != ExprComposite && !(e.Kind == ExprCall && e.Op == "new") {
		return false
	}
	for _, k := range e.Keys {
		if k.Key == field {
			return k.Value != nil && (isEmptyLiteral(k.Value) || strings.Join(strings.Fields(k.Value.Text), "") == "[]")
		}
	}
	return false
}

// reachedOut reports whether the body so far called anything outside the
// process: a classified call (a read, a write) or code twice cannot see.
func (w *walker) reachedOut() bool {
	if len(w.opaque) > 0 {
		return true
	}
	for _, o := range w.ops {
		if o.kind == opEffect {
			return true
		}
	}
	return false
}

// isEmptyLiteral reports whether an expression is an empty collection or
// nothing: [], {}, None, null, Array.Empty<T>(), ([], false).
func isEmptyLiteral(e *Expr) bool {
	switch e.Kind {
	case ExprIdent:
		return e.Name == "None" || e.Name == "null" || e.Name == "nil"
	case ExprComposite:
		if len(e.Keys) == 0 && len(e.Args) == 0 {
			return true
		}
		for _, a := range e.Args {
			if !isEmptyLiteral(a) && a.Kind != ExprIdent && a.Kind != ExprNumber && a.Kind != ExprString {
				return false
			}
		}
		return len(e.Keys) == 0 && len(e.Args) > 0 && isEmptyLiteral(e.Args[0])
	case ExprCall:
		return e.Name == "Empty" || e.Op == "new" && len(e.Args) == 0 && len(e.Keys) == 0 && strings.Contains(e.Text, "List<")
	}
	return false
}

// commandWords are the first words of a call that asks a service to do
// something (its answer is an acknowledgement, not a document).
var commandWords = map[string]bool{"post": true, "put": true, "patch": true, "create": true, "start": true, "ensure": true,
	"mark": true, "sync": true, "arm": true, "cleanup": true, "update": true, "trigger": true, "submit": true, "send": true,
	"invoke": true, "dispatch": true, "enqueue": true, "register": true, "record": true, "set": true, "delete": true}

// commandAnswer reports whether a returned body is a service's answer to
// a command (a POST, PUT or PATCH; a helper named for a command or given
// a write verb): an acknowledgement sized by the request, not a whole
// document (the seed's large payload is a read's result).
func (w *walker) commandAnswer(e *Expr, f *frame, depth int) bool {
	if e == nil || depth > 4 {
		return false
	}
	switch e.Kind {
	case ExprUnary:
		return w.commandAnswer(e.X, f, depth+1)
	case ExprIdent:
		if v := f.values[e.Name]; v != nil && v != e {
			return w.commandAnswer(v, f, depth+1)
		}
	case ExprAttr, ExprIndex:
		return w.commandAnswer(e.X, f, depth+1)
	case ExprCall:
		if ws := methodWords(e.Name); len(ws) > 0 && commandWords[strings.TrimPrefix(ws[0], "_")] {
			return true
		}
		if hasStringArg(e, "POST", "PUT", "PATCH", "DELETE") {
			return true
		}
		if r := e.Receiver(); r != nil {
			return w.commandAnswer(r, f, depth+1)
		}
		if len(e.Args) == 1 && (e.Name == "loads" || e.Name == "string" || e.Name == "str" || e.Name == "list") {
			return w.commandAnswer(e.Args[0], f, depth+1)
		}
	}
	return false
}

// helperBody is the whole body a helper of the tree returns, if it
// returns one.
func (w *walker) helperBody(fn *Func, call *Expr, f *frame, depth int) string {
	w.stack[fn] = true
	defer delete(w.stack, fn)
	nf := w.helperFrame(fn, call, f)
	found := ""
	Walk(fn.Body, func(s *Stmt) bool {
		switch s.Kind {
		case StmtAssign:
			for i, l := range s.Lhs {
				if l.Kind == ExprIdent && (i < len(s.Rhs) || len(s.Rhs) == 1) {
					r := s.Rhs[0]
					if i < len(s.Rhs) {
						r = s.Rhs[i]
					}
					nf.values[l.Name] = r
				}
			}
		case StmtReturn:
			if len(s.Rhs) > 0 && found == "" {
				found = w.wholeBody(s.Rhs[0], nf, depth)
			}
		}
		return found == ""
	})
	return found
}

// finish turns the body's ops into hazards and guards.
func (w *walker) finish(rootFrame *frame) {
	w.ctorKeysIfWrites()
	hasGuard := false
	for i := range w.ops {
		o := &w.ops[i]
		if o.kind != opEffect || o.eff.kind != effGuard {
			continue
		}
		switch o.keyProv.kind {
		case provUnstable:
			// Its key is new on every attempt (reported): it refuses
			// nothing a retry sends.
			o.eff.kind = effIdempotent
			continue
		case provUnseen, provRead, provField:
			o.eff.kind = effIdempotent
			w.act.Keys = append(w.act.Keys, KeyNote{Location: o.loc, Excerpt: excerptAt(w.ix, o.loc), Unseen: true,
				What: o.eff.what + ", keyed by " + Clip(o.keyProv.expr.Text) + ": a key whose source twice cannot see, so twice cannot say a repeat is refused"})
			continue
		}
		hasGuard = true
		w.act.Guards = append(w.act.Guards, Guard{Location: o.loc, Excerpt: excerptAt(w.ix, o.loc), What: o.eff.what})
	}
	if w.idemKV && !w.keyGenerated() {
		// A key header, keyword or field set from the input: the provider
		// refuses the repeat. A key twice cannot trace is no guard.
		for _, o := range w.ops {
			if o.kind != opEffect || (o.eff.kind != effPost && o.eff.kind != effPublish && o.eff.kind != effEmail) {
				continue
			}
			switch {
			case w.idemAt != nil && !w.idemUnseen:
				what := o.eff.what + ", its " + strconv.Quote(w.idemAt.text) + " key from the input"
				w.act.Guards = append(w.act.Guards, Guard{Location: w.idemAt.loc, Excerpt: excerptAt(w.ix, w.idemAt.loc), What: what})
			case len(w.act.Keys) == 0:
				w.act.Keys = append(w.act.Keys, KeyNote{Location: o.loc, Excerpt: excerptAt(w.ix, o.loc), Unseen: true,
					What: o.eff.what + " carries an idempotency key whose source twice cannot see, so twice cannot say a repeat is refused"})
			}
			break
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
	case effInsert, effIncrement, effAppend:
		w.hazardAt(o, RuleUnkeyedSideEffect, e.sinkMessage())
	case effPost:
		if e.keyed || w.idemKV {
			return
		}
		h := w.hazardAt(o, RuleUnkeyedSideEffect, e.sinkMessage())
		if e.payment && h != nil {
			h.Severity = maxSev(h.Severity, detect.SeverityHigh)
		}
	case effPublish:
		if e.keyed {
			return
		}
		w.hazardAt(o, RuleUnkeyedSideEffect, e.sinkMessage())
	case effEmail:
		if e.keyed || hasGuardBefore(w.ops, i) {
			return
		}
		w.hazardAt(o, RuleUnkeyedSideEffect, e.sinkMessage())
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
			if c.within {
				// if absent { create }: the write is the if's body.
				for _, wr := range w.ops {
					if wr.kind != opEffect || wr.seq <= c.seq || wr.seq > c.end || !actsOnAbsence(wr) {
						continue
					}
					w.hazardAt(r, RuleCheckThenAct, fmt.Sprintf("reads with %s, and when it finds nothing (line %d) writes with %s at line %d with no conditional write behind it: two attempts can both find nothing and both write",
						Clip(r.eff.call.X.Text), c.loc.Line, Clip(wr.eff.what), wr.loc.Line))
					return
				}
				continue
			}
			if testsAbsence(c.cond) {
				// if missing { return }: what follows runs on what was
				// found, not on its absence.
				continue
			}
			frameEnd, inHelper := w.frameEnds[c.frame]
			for _, wr := range w.ops[ci+1:] {
				if wr.seq <= c.end || wr.kind != opEffect || wr.from == r.seq {
					continue // an increment of what was read is reported as one
				}
				if inHelper && wr.seq > frameEnd {
					break // the early return left the helper, not the activity
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

// actsOnAbsence reports whether a write made when a read found nothing
// is one two attempts would both make: a sink, or a state save of a
// value made in the body (each attempt saves its own new id).
func actsOnAbsence(o op) bool {
	switch o.eff.kind {
	case effInsert, effPost, effPublish, effEmail, effIncrement, effAppend:
		return true
	case effIdempotent:
		return o.fresh
	}
	// A write guessed from a method's name on an object twice cannot see
	// (store.save after "no etag yet") is too weak a sign here:
	// initialising what was missing is usually a write of a default.
	return false
}

// testsAbsence reports whether a condition tests that a value is missing
// or empty: x == null, x is None, not x, !x, x == "", string.Empty,
// IsNullOrEmpty(x), len(x) == 0, !x.Any(); never an error check.
func testsAbsence(e *Expr) bool {
	if e == nil {
		return false
	}
	switch e.Kind {
	case ExprUnary:
		if e.Op == "not" || e.Op == "!" {
			x := e.X
			if x != nil && x.Kind == ExprCall && x.Name == "Any" {
				return true
			}
			return x != nil && (x.Kind == ExprIdent || x.Kind == ExprAttr) && !isErrName(rootName(x))
		}
	case ExprCall:
		switch e.Name {
		case "IsNullOrEmpty", "IsNullOrWhiteSpace":
			return true
		}
	case ExprBinary:
		switch e.Op {
		case "==", "is", "===":
		default:
			return false
		}
		a, b := e.Arg(0), e.Arg(1)
		if a == nil || b == nil {
			return false
		}
		if isNothing(a) {
			a, b = b, a
		}
		if !isNothing(b) || isErrName(rootName(a)) {
			return false
		}
		return true
	}
	return false
}

// isNothing reports whether an expression is null, nil, None, an empty
// string, string.Empty or 0 (a count).
func isNothing(e *Expr) bool {
	switch e.Kind {
	case ExprIdent:
		return e.Name == "nil" || e.Name == "null" || e.Name == "None"
	case ExprString:
		return e.Str == ""
	case ExprNumber:
		return e.Str == "0"
	case ExprAttr:
		return e.Name == "Empty"
	}
	return e.Text == "null" || e.Text == "None" || e.Text == "nil"
}

func rootName(e *Expr) string {
	for e != nil && (e.Kind == ExprAttr || e.Kind == ExprCall || e.Kind == ExprIndex) {
		e = e.X
	}
	if e != nil && e.Kind == ExprIdent {
		return e.Name
	}
	return ""
}

func isErrName(n string) bool {
	return n == "err" || n == "error" || n == "ex" || n == "e" || strings.HasSuffix(n, "Err") || strings.HasSuffix(n, "Error")
}

// failureClass is how the body can fail, from what it does: it calls
// nothing that can fail (it computes, logs or waits), or it only reads;
// "" when it writes or calls code twice cannot see.
func (w *walker) failureClass() string {
	if len(w.act.Opaque) > 0 {
		return ""
	}
	reads := false
	for _, o := range w.ops {
		switch {
		case o.kind == opEffect && o.eff.kind == effRead:
			reads = true
		case o.kind == opEffect || o.kind == opWriteCall || o.kind == opAugAttr:
			return ""
		}
	}
	if reads {
		return "read-only"
	}
	if w.raises {
		return ""
	}
	return "never fails"
}

// ctorKeysIfWrites reports the fresh keys placed in constructors when the
// body makes a write the value could key; a body that only reads (a GET
// handler building its answer with Id = Guid.NewGuid()) keys nothing.
func (w *walker) ctorKeysIfWrites() {
	writes := false
	for _, o := range w.ops {
		if o.kind == opWriteCall || o.kind == opEffect && o.eff.kind != effRead && o.eff.kind != effNone {
			writes = true
			break
		}
	}
	if !writes {
		return
	}
	for _, h := range w.ctorKeys {
		k := fmt.Sprintf("%s@%s:%d:%d", h.Rule, h.Location.File, h.Location.Line, h.Location.Col)
		if !w.seen[k] {
			w.seen[k] = true
			w.act.Hazards = append(w.act.Hazards, h)
		}
	}
}
