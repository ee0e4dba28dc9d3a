package review

import (
	"strings"
	"sync"

	"github.com/twice-cli/twice/detect"
)

// Knowledge as data. What a library's call does to the outside world (a
// sink, a read, a conditional or idempotent write), where its key goes,
// how it refuses a duplicate, what a second run does in the library's own
// words, which values are new on every run, which calls retry or sleep:
// all of it lives in tables, one file per library or family of libraries
// (lib_*.go), listed once in libraries.go. The engine here indexes the
// rows once and answers the walker's questions; it holds no knowledge of
// any one library.

// library is one library's table: the calls twice recognises, and the
// modules whose other calls twice knows to have no effect it must see.
type library struct {
	// name is the library as people call it ("Stripe", "Dapr").
	name string
	// source says where its API was read (repository, tag, file).
	source string
	// modules are the import roots twice knows: Python top-level modules,
	// Go import path prefixes, C# root namespaces. A call into a module
	// no library names is code twice cannot see.
	modules map[Lang][]string
	rows    []api
}

// api is one row of a library's table.
type api struct {
	// Recognition: every field that is set must hold.

	// lang is the row's language; "" matches every language, after the
	// rows written for the call's own language.
	lang Lang
	// ref is the qualified name the call, attribute or value resolves to
	// through the imports: exact ("uuid.uuid4"), every name under a
	// prefix ending in "." ("stripe.") or written before a final "*"
	// ("github.com/stripe/stripe-go*"), or a suffix written after a
	// leading "*" ("*MessageResource.Create").
	ref string
	// methods are the call's method or function names (any of them); for
	// a constructor (newObj), the type's name.
	methods []string
	// fold compares methods case-insensitively.
	fold bool
	// recv are words the receiver's text holds, case-folded (any of them).
	recv []string
	// hasRecv, noRecv and noRef constrain the call's shape: a method on
	// an object, a plain function, a call not rooted at an import.
	hasRecv, noRecv, noRef bool
	// newObj matches a constructor (C#'s new T(…)).
	newObj bool
	// imports are modules one of which the call's file must import (a
	// prefix of an import's qualified name: "twilio", "anthropic",
	// "github.com/twilio/"): two SDKs that spell a call alike
	// (client.messages.create sends an SMS with Twilio and asks a model
	// with Anthropic) are told apart by what the file imports.
	imports []string
	// attr matches an attribute or property access rather than a call
	// (C#'s DateTime.UtcNow, a response's .text).
	attr bool
	// when is what the columns cannot say, written beside the row.
	when func(c *libCall) bool
	// decide classifies a call whose kind depends on its arguments (a
	// SQL statement, an HTTP method argument); it reports whether the row
	// applies and fills e.
	decide func(c *libCall, e *effect) bool

	// What it is.

	kind effectKind
	// what names the call in a message. {m} is the method, {M} the method
	// upper case, {verb} the method's HTTP verb, {recv} the receiver's
	// name, {recvText} its text, {fn} the called expression, {ref} the
	// resolved name after the row's ref prefix, {short} its last two
	// elements (CustomerService.CreateAsync), {noun} the resource it acts
	// on as words ("customer"), {url} the url argument.
	what string
	url  place
	// key is where the call's key goes (a state key, an idempotency key);
	// keyName names that key in a message ("" is "the key"). store and
	// value are a state call's store and value arguments.
	key          place
	keyName      string
	store, value place
	// idem marks a key setter whose key is an idempotency key.
	idem bool
	// refuses says how the call refuses its own duplicate (a guard), or
	// how the key it carries makes the provider refuse one.
	refuses string
	// twice is what a second run does, in the library's words ("charges
	// twice", "creates a second customer", "writes a second row").
	twice string
	// severity raises the hazard's severity (a payment: high).
	severity detect.Severity
	// httpClient marks a request made through .NET's HttpClient, which
	// the app may configure to retry.
	httpClient bool

	// order is the row's place in the catalogue; lib its library.
	order int
	lib   *library
}

// place is where an argument is: a keyword (Python's, C#'s named
// argument) or a 0-based position, the keyword first.
type place struct {
	pos int
	kw  string
	set bool
}

// arg is the argument at pos (-1: none) or named kw.
func arg(pos int, kw string) place { return place{pos: pos, kw: kw, set: true} }

// of returns the argument a place names in a call, or nil.
func (p place) of(call *Expr) *Expr {
	if !p.set {
		return nil
	}
	if p.kw != "" {
		if v := call.Keyword(p.kw); v != nil {
			return v
		}
	}
	if p.pos >= 0 {
		return call.Arg(p.pos)
	}
	return nil
}

// The kinds a row can say besides the effects (effects.go): each is asked
// by its own question, so one call can be a read and a whole response
// body at once.
const (
	// kindNeutral: not a side effect (logging, in-memory collections,
	// plumbing); asked before twice guesses from a method's name.
	kindNeutral effectKind = iota + 32
	// kindPersist: saves objects changed in memory (an ORM's commit).
	kindPersist
	// kindKeySetter: sets the key a request built before carries.
	kindKeySetter
	// kindStatusRaise: raises on any HTTP error status, 4xx and 5xx alike.
	kindStatusRaise
	// kindWholeBody: a whole response body or result set.
	kindWholeBody
	// kindFresh: a value new on every run (a UUID, the time, a random
	// number): a key made from it is generated in the body.
	kindFresh
	// kindAttemptID: an activity context's per-attempt id.
	kindAttemptID
	// kindWorkflowID: the calling workflow's instance id, as the activity
	// context gives it.
	kindWorkflowID
	// kindInstanceID: a workflow context's own instance id.
	kindInstanceID
	// kindRetry: a retry library's entry, which retries inside the body.
	kindRetry
	// kindRetryBuilder: a call in a chain that builds a retry policy
	// (Polly's WaitAndRetryAsync, AddRetry).
	kindRetryBuilder
	// kindSleep: a wait.
	kindSleep
	// kindUniqueViolation: the error a unique constraint raises, by the
	// name or code a handler catches.
	kindUniqueViolation
)

// question is which index a row answers in. The last three are asked by
// a qualified name alone (byRef).
type question int8

const (
	qEffect question = iota
	qNeutral
	qPersist
	qKeySetter
	qStatusRaise
	qWholeBody
	qFresh
	qContext // kindAttemptID, kindWorkflowID: on the activity context
	qInstance
	qRetry
	qRetryBuilder
	qSleep
	qUniqueViolation
	nQuestions
)

// byRef reports whether a question is asked by a qualified name alone.
func (q question) byRef() bool { return q == qFresh || q == qRetry || q == qSleep }

func (k effectKind) question() question {
	switch k {
	case kindNeutral:
		return qNeutral
	case kindPersist:
		return qPersist
	case kindKeySetter:
		return qKeySetter
	case kindStatusRaise:
		return qStatusRaise
	case kindWholeBody:
		return qWholeBody
	case kindFresh:
		return qFresh
	case kindAttemptID, kindWorkflowID:
		return qContext
	case kindInstanceID:
		return qInstance
	case kindRetry:
		return qRetry
	case kindRetryBuilder:
		return qRetryBuilder
	case kindSleep:
		return qSleep
	case kindUniqueViolation:
		return qUniqueViolation
	}
	return qEffect
}

// libCall is a call (or an attribute, for attr rows) as a row sees it.
type libCall struct {
	*Expr
	m, ref string
	recv   *Expr
	lang   Lang
	// file is the call's file (nil when the question is asked without
	// one): what it imports.
	file *File
	// values gives a variable's assigned expression (a SQL string held
	// in a variable, a headers dict), or nil.
	values func(string) *Expr
	// param reports whether a name is a parameter of the function the
	// call is in, or nil.
	param func(string) bool
}

func newLibCall(e *Expr, lang Lang, values func(string) *Expr) *libCall {
	c := &libCall{Expr: e, ref: e.Ref, lang: lang, values: values}
	if e.Kind == ExprCall {
		c.m, c.recv = e.Method(), e.Receiver()
	} else {
		c.m, c.recv = e.Name, e.X
	}
	return c
}

// rowSet is one question's index: rows by method (as written, and folded)
// and rows that name no method, per language ("" for every language).
type rowSet struct {
	byMethod map[string][]*api
	byFold   map[string][]*api
	any      []*api
}

// catalogue is every library's rows, indexed per question and language.
type catalogue struct {
	libs []library
	sets [nQuestions]map[Lang]*rowSet
	// refs index the by-name questions: exact names, and prefixes.
	refs     [nQuestions]map[string]*api
	prefixes [nQuestions][]*api
	// modules are the known import roots per language.
	modules map[Lang][]string
	// uniqueNames are the unique-violation rows' names, for a handler's
	// text.
	uniqueNames []*api
}

// knowledge is the catalogue, built once on first use from libraries().
var knowledge = sync.OnceValue(func() *catalogue { return newCatalogue(libraries()) })

func newCatalogue(libs []library) *catalogue {
	k := &catalogue{libs: libs, modules: map[Lang][]string{}}
	for q := range k.sets {
		k.sets[q] = map[Lang]*rowSet{}
		k.refs[q] = map[string]*api{}
	}
	order := 0
	for li := range k.libs {
		lib := &k.libs[li]
		for l, ms := range lib.modules {
			k.modules[l] = append(k.modules[l], ms...)
		}
		for ri := range lib.rows {
			r := &lib.rows[ri]
			r.order, r.lib = order, lib
			order++
			q := r.kind.question()
			if q == qUniqueViolation {
				k.uniqueNames = append(k.uniqueNames, r)
				continue
			}
			if q.byRef() {
				if strings.HasSuffix(r.ref, ".") || strings.HasSuffix(r.ref, "*") {
					k.prefixes[q] = append(k.prefixes[q], r)
				} else if k.refs[q][r.ref] == nil {
					k.refs[q][r.ref] = r
				}
				continue
			}
			set := k.sets[q][r.lang]
			if set == nil {
				set = &rowSet{byMethod: map[string][]*api{}, byFold: map[string][]*api{}}
				k.sets[q][r.lang] = set
			}
			methods := r.methods
			if len(methods) == 0 && r.ref != "" && !strings.HasSuffix(r.ref, ".") && !strings.HasSuffix(r.ref, "*") {
				// An exact or suffix ref names its function last.
				ref := strings.TrimPrefix(r.ref, "*")
				methods = []string{ref[strings.LastIndexAny(ref, "./")+1:]}
			}
			switch {
			case len(methods) == 0:
				set.any = append(set.any, r)
			case r.fold:
				for _, m := range methods {
					set.byFold[strings.ToLower(m)] = append(set.byFold[strings.ToLower(m)], r)
				}
			default:
				for _, m := range methods {
					set.byMethod[m] = append(set.byMethod[m], r)
				}
			}
		}
	}
	return k
}

// candidates are a question's rows that may match method m in a
// language, in catalogue order: the language's own rows, then every
// language's.
func (k *catalogue) candidates(q question, lang Lang, m string, buf []*api) []*api {
	buf = buf[:0]
	for _, l := range []Lang{lang, ""} {
		set := k.sets[q][l]
		if set == nil {
			continue
		}
		start := len(buf)
		buf = append(buf, set.byMethod[m]...)
		if len(set.byFold) > 0 {
			buf = append(buf, set.byFold[strings.ToLower(m)]...)
		}
		buf = append(buf, set.any...)
		sortRows(buf[start:])
		if l == "" {
			break
		}
	}
	return buf
}

// sortRows puts a few rows in catalogue order (insertion sort: the lists
// are short).
func sortRows(rs []*api) {
	for i := 1; i < len(rs); i++ {
		for j := i; j > 0 && rs[j].order < rs[j-1].order; j-- {
			rs[j], rs[j-1] = rs[j-1], rs[j]
		}
	}
}

// find returns the first row of a question that matches the call.
func (k *catalogue) find(q question, c *libCall) *api {
	var buf [16]*api
	for _, r := range k.candidates(q, c.lang, c.m, buf[:0]) {
		if r.matches(c) {
			return r
		}
	}
	return nil
}

// matches reports whether a row recognises the call.
func (r *api) matches(c *libCall) bool {
	isCall := c.Kind == ExprCall
	if r.attr == isCall {
		return false
	}
	if r.newObj && c.Op != "new" {
		return false
	}
	if len(r.methods) > 0 && !r.hasMethod(c.m) {
		return false
	}
	if r.ref != "" && !refMatches(r.ref, c.ref) {
		return false
	}
	if r.hasRecv && c.recv == nil || r.noRecv && c.recv != nil || r.noRef && c.ref != "" {
		return false
	}
	if len(r.recv) > 0 && !textHas(c.recv, r.recv...) {
		return false
	}
	if len(r.imports) > 0 && !fileImports(c.file, r.imports) {
		return false
	}
	if r.when != nil && !r.when(c) {
		return false
	}
	return true
}

func (r *api) hasMethod(m string) bool {
	for _, x := range r.methods {
		if x == m || r.fold && strings.EqualFold(x, m) {
			return true
		}
	}
	return false
}

// fileImports reports whether a file imports a module under any of the
// prefixes: an import's qualified name (Python's "anthropic.Anthropic",
// Go's "github.com/twilio/twilio-go") or a namespace opened whole (C#).
func fileImports(f *File, mods []string) bool {
	if f == nil {
		return false
	}
	for _, m := range mods {
		for _, q := range f.Imports {
			if strings.HasPrefix(q, m) {
				return true
			}
		}
		for _, q := range f.OpenImports {
			if strings.HasPrefix(q, m) {
				return true
			}
		}
	}
	return false
}

// refMatches reports whether a qualified name is the row's: exact, under
// a prefix ending in ".", or ending in a suffix written after "*".
func refMatches(pattern, ref string) bool {
	if ref == "" {
		return false
	}
	switch {
	case strings.HasPrefix(pattern, "*"):
		return strings.HasSuffix(ref, pattern[1:])
	case strings.HasSuffix(pattern, "*"):
		return strings.HasPrefix(ref, pattern[:len(pattern)-1])
	case strings.HasSuffix(pattern, "."):
		return strings.HasPrefix(ref, pattern)
	}
	return ref == pattern
}

// effectOf is the effect a row gives a call.
func (r *api) effectOf(c *libCall) (effect, bool) {
	e := effect{call: c.Expr, row: r}
	if r.decide != nil {
		if !r.decide(c, &e) {
			return effect{call: c.Expr}, false
		}
		e.row = r
		return e, true
	}
	e.kind, e.what, e.http = r.kind, expand(r.what, c, r), r.httpClient
	e.twice = expand(r.twice, c, r)
	return e, true
}

// expand fills a row's what template.
func expand(tpl string, c *libCall, r *api) string {
	if !strings.Contains(tpl, "{") {
		return tpl
	}
	var b strings.Builder
	for {
		i := strings.IndexByte(tpl, '{')
		if i < 0 {
			b.WriteString(tpl)
			return b.String()
		}
		j := strings.IndexByte(tpl[i:], '}')
		if j < 0 {
			b.WriteString(tpl)
			return b.String()
		}
		b.WriteString(tpl[:i])
		switch tpl[i+1 : i+j] {
		case "m":
			b.WriteString(c.m)
		case "M":
			b.WriteString(strings.ToUpper(c.m))
		case "verb":
			b.WriteString(strings.ToUpper(strings.TrimSuffix(strings.TrimSuffix(c.m, "Async"), "AsJson")))
		case "recv":
			b.WriteString(recvName(c.recv))
		case "recvText":
			if c.recv != nil {
				b.WriteString(c.recv.Text)
			}
		case "fn":
			if c.Expr.X != nil {
				b.WriteString(c.Expr.X.Text)
			}
		case "ref":
			b.WriteString(strings.TrimPrefix(c.ref, strings.TrimSuffix(r.ref, "*")))
		case "url":
			b.WriteString(urlText(r.url.of(c.Expr), nil))
		case "short":
			ref := c.ref
			if i := strings.LastIndexAny(ref, "./"); i > 0 {
				if j := strings.LastIndexAny(ref[:i], "./"); j >= 0 {
					ref = ref[j+1:]
				}
			}
			b.WriteString(ref)
		case "noun":
			b.WriteString(refNoun(c.ref))
		default:
			b.WriteString(tpl[i : i+j+1])
		}
		tpl = tpl[i+j+1:]
	}
}

// refNoun is the resource a resolved name's call acts on, as words: the
// element before the method, a trailing "Service" dropped
// ("Stripe.Billing.MeterEventService.Create" → "meter event",
// "stripe.PaymentIntent.create" → "payment intent", Go's
// ".../customer.New" → "customer").
func refNoun(ref string) string {
	if ws := detect.SplitWords(refOwner(ref)); len(ws) > 0 {
		return strings.Join(ws, " ")
	}
	return "object"
}

// refOwner is the element of a resolved name before its method, a
// trailing "Service" dropped ("Stripe.PaymentIntentService.Create" →
// "PaymentIntent", ".../paymentintent.New" → "paymentintent"); "" when
// the name has no owner.
func refOwner(ref string) string {
	i := strings.LastIndexAny(ref, "./")
	if i <= 0 {
		return ""
	}
	ref = ref[:i]
	return strings.TrimSuffix(ref[strings.LastIndexAny(ref, "./")+1:], "Service")
}

// classify says what a call does: the first row of its language, then of
// every language, that recognises it; else, for a method on an object
// twice cannot see, a guess from the method's name. values gives
// variables' assigned expressions (a SQL string in a variable, a headers
// dict).
func classify(call *Expr, file *File, values func(string) *Expr, param func(string) bool) effect {
	k := knowledge()
	lang := file.Lang
	c := newLibCall(call, lang, values)
	c.file, c.param = file, param
	var buf [16]*api
	for _, r := range k.candidates(qEffect, lang, c.m, buf[:0]) {
		if !r.matches(c) {
			continue
		}
		if e, ok := r.effectOf(c); ok && e.kind != effNone {
			return keyEffect(e, call, values)
		}
	}
	e := effect{call: call}
	if c.recv != nil && c.ref == "" {
		if r := k.find(qNeutral, c); r != nil {
			e.row = r
			return e
		}
		e.kind = classifyByName(c.m)
		if e.kind != effNone {
			e.what = call.X.Text
		}
	}
	return e
}

// is reports whether a call (or attribute) answers a question: a row that
// recognises it, or nil.
func is(q question, e *Expr, lang Lang) *api {
	if e == nil {
		return nil
	}
	return knowledge().find(q, newLibCall(e, lang, nil))
}

// refIs finds the row of a by-name question (a value new on every run,
// a retry, a sleep) for a qualified name: an exact row, else a prefix
// row whose methods, if it lists any, name the reference's last element.
func refIs(q question, ref string) *api {
	if ref == "" {
		return nil
	}
	k := knowledge()
	if r := k.refs[q][ref]; r != nil {
		return r
	}
	for _, r := range k.prefixes[q] {
		if refMatches(r.ref, ref) && (len(r.methods) == 0 || r.hasMethod(ref[strings.LastIndexByte(ref, '.')+1:])) {
			return r
		}
	}
	return nil
}

// knownModule reports whether a qualified name is in a module some
// library names: one whose calls twice understands or knows to have no
// effect it must see.
func knownModule(lang Lang, ref string) bool {
	mods := knowledge().modules[lang]
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
		for _, m := range mods {
			if strings.HasPrefix(ref, m) {
				return true
			}
		}
	case LangPython:
		if strings.HasPrefix(ref, ".") {
			return false
		}
		first, _, _ := strings.Cut(ref, ".")
		for _, m := range mods {
			if first == m {
				return true
			}
		}
	case LangCSharp:
		first, _, _ := strings.Cut(ref, ".")
		for _, m := range mods {
			if first == m {
				return true
			}
		}
	}
	return false
}
