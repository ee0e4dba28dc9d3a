package review

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// maxDepth is how many levels of same-package helpers a body is followed
// into.
const maxDepth = 2

// op is one thing the body does, in source order (helpers inlined).
type op struct {
	seq  int
	kind opKind
	eff  effect
	loc  Location
	via  []string
	// vars are the names a read's result was assigned to.
	vars []string
	// end is a check's last seq (the end of its if body).
	end int
	// key is a state read's store and key, as written.
	key string
	// cond is a check's condition.
	cond *Expr
	// text is what the op is, for messages.
	text string
	// keyProv is where a write's key comes from (provNone: no key
	// position, or an unstable one, reported as a hazard).
	keyProv prov
	// within marks a check whose if does not leave early: what it guards
	// is its body (if absent { create }), not what follows it.
	within bool
	// fresh marks a state save whose value is made in the body (a new
	// id): two attempts that both found nothing save different values.
	fresh bool
	// from is the seq of the state read an increment was counted from.
	from int
	// frame is the walk a check was made in (frame.id): its early
	// return stops the writes of that call only.
	frame int
}

type opKind int8

const (
	opEffect    opKind = iota + 1
	opCheck            // an if that tests something and leaves early
	opAugAttr          // obj.attr += n
	opWriteCall        // commit / save: persists an object changed in memory
)

// walker reviews one activity's body.
type walker struct {
	ix   *index
	act  *Activity
	root *Func
	// self is the activity's class when root is a method it inherits.
	self   string
	ops    []op
	seq    int
	seen   map[string]bool // hazards already reported, by rule and place
	stack  map[*Func]bool
	idemKV bool // an idempotency key is set somewhere in the body
	// idemAt is where the first idempotency key from a stable value is
	// set (the line that makes the provider refuse a repeat).
	idemAt *op
	// idemUnseen is set when an idempotency key's source is one twice
	// cannot see: no write it keys is claimed as a guard.
	idemUnseen bool
	// wfIDKeys are key positions holding the calling workflow's id
	// (decided once the call sites are known).
	wfIDKeys []Hazard
	// rejections are business rejections the body raises.
	rejections []Location
	rejectText []string
	// statusRaise is a raise_for_status() or EnsureSuccessStatusCode()
	// the body calls with no branch before it that returns a 4xx as a
	// value: it raises a permanent 4xx as it raises a transient 5xx.
	statusRaise *Location
	statusCall  string
	// handled4xx is set once the body has returned on a 4xx status.
	handled4xx bool
	opaque     map[string]bool
	// typing counts typeOf's nesting.
	typing int
	// inFunc counts the function literals and lambdas the walk is in: a
	// return there is the literal's, not the activity's output.
	inFunc int
	// httpRetried is set once a retrying HttpClient is reported.
	httpRetried bool
	// sleepers caches whether a helper's own body waits.
	sleepers map[*Func]bool
	// frames counts the helpers' walks; frameEnds is the last seq of each
	// (a check's early return in a helper stops that helper only).
	frames    int
	frameEnds map[int]int
	// raises is set when the body raises or throws anything.
	raises bool
	// tries are the try statements whose body the walk is in, innermost
	// last (a rejection one of them catches does not leave the activity).
	tries []*Stmt
	// inHandler counts the exception handlers the walk is in.
	inHandler int
	// conds are the conditions of the ifs whose branches the walk is in.
	conds []condAt
	// parsing says, for each handler the walk is in, whether its try
	// parses the activity's input (json.loads(args)): a raise there
	// rejects the input.
	parsing []bool
	// helperTaint memoizes the unstable value each helper returns (nil:
	// none); returnDepth bounds the helpers followed for it.
	helperTaint map[*Func]*source
	returnDepth int
	// inCtor is set while the keyed arguments of a constructor that is
	// no effect are checked: a fresh value there keys nothing unless the
	// body writes (a read handler's response record's Id is not a key).
	inCtor bool
	// ctorKeys are the fresh-key hazards found with inCtor set, reported
	// by finish only if the body makes a write.
	ctorKeys []Hazard
}

// condAt is an if's condition and the frame it is tested in.
type condAt struct {
	cond *Expr
	f    *frame
}

// frame is one function being walked.
type frame struct {
	fn     *Func
	file   *File
	taint  map[string]*source
	values map[string]*Expr
	ctx    string // the activity context parameter's name
	depth  int
	via    []string
	// counted maps a variable to the state read its value was computed
	// from by adding or subtracting (qty := item.Qty - n): written back
	// to the same key, it is an increment.
	counted map[string]*op
	// prov pins a name's provenance: the activity's input parameters, a
	// helper's parameters bound to the caller's arguments.
	prov map[string]prov
	// caller is the frame that called this helper (nil at the activity):
	// a parameter's value is an expression of the caller's.
	caller *frame
	// id numbers a helper's walk (0: the activity's own body), so that a
	// check's early return is known to stop only that call's writes.
	id int
	// decoded maps a variable to the whole response decoded into it.
	decoded map[string]string
}

func (w *walker) loc(f *frame, p Pos) Location {
	return Location{File: f.file.Path, Line: p.Line, Col: p.Col}
}

func (w *walker) add(o op) {
	w.seq++
	o.seq = w.seq
	w.ops = append(w.ops, o)
}

// hazard records a hazard once per rule and place.
func (w *walker) hazard(f *frame, rule RuleID, p Pos, msg string) {
	l := w.loc(f, p)
	k := fmt.Sprintf("%s@%s:%d:%d", rule, l.File, l.Line, l.Col)
	if w.seen[k] {
		return
	}
	r, _ := RuleByID(rule)
	h := Hazard{
		Rule: rule, Severity: r.Severity, Activity: w.act.Name, Location: l,
		Excerpt: LineText(f.file.Src, p.Line), Message: msg, Via: append([]string(nil), f.via...),
	}
	if w.inCtor && rule == RuleKeyGeneratedInBody {
		w.ctorKeys = append(w.ctorKeys, h)
		return
	}
	w.seen[k] = true
	w.act.Hazards = append(w.act.Hazards, h)
}

// receiverParam reports whether a parameter is the function's receiver
// (Go's "recv:"-marked one, Python's self or cls), not an argument a
// caller passes.
func receiverParam(p string) bool {
	return strings.HasPrefix(p, "recv:") || p == "self" || p == "cls"
}

// plainParams are a function's parameters a caller passes, in order: its
// receiver left out.
func plainParams(fn *Func) []string {
	var plain []string
	for _, p := range fn.Params {
		if !receiverParam(p) {
			plain = append(plain, p)
		}
	}
	return plain
}

// ctxParam is an activity's context parameter: its first parameter.
func ctxParam(fn *Func) string {
	for _, p := range fn.Params {
		if !receiverParam(p) {
			return p
		}
	}
	return ""
}

func (w *walker) walkFunc(fn *Func, f *frame) {
	if w.stack[fn] {
		return
	}
	w.stack[fn] = true
	defer delete(w.stack, fn)
	if f.depth == 0 {
		w.decorators(fn, f)
		w.pinInput(fn, f)
	}
	w.stmts(fn.Body, f)
}

// pinInput marks the activity's parameters after its context as its
// input: a key made from them is "from the input".
func (w *walker) pinInput(fn *Func, f *frame) {
	if f.prov == nil {
		f.prov = map[string]prov{}
	}
	for _, p := range fn.Params {
		if receiverParam(p) || p == f.ctx {
			continue
		}
		f.prov[p] = prov{provInput, nil}
	}
}

// decorators looks at a Python function's decorators for retry libraries.
func (w *walker) decorators(fn *Func, f *frame) {
	for _, d := range fn.Decorators {
		ref := d.Ref
		if d.Kind == ExprCall && d.X != nil {
			ref = d.X.Ref
		}
		if w.row(refIs(qRetry, ref)) != nil {
			w.hazard(f, RuleRetryInBody, d.Pos, "the activity is wrapped in "+ref+", which retries inside the body")
		}
	}
}

func (w *walker) stmts(list []*Stmt, f *frame) {
	// After a loop's `if status >= 500 { continue }`, what the list
	// returns or raises is a 4xx the loop chose not to retry.
	var retried5xx *Stmt
	for _, s := range list {
		w.stmt(s, f)
		switch {
		case retried5xx == nil:
			if retriesServerErrors(s) {
				retried5xx = s
			}
		case w.rejectsRest(s, retried5xx, f) || s.Kind == StmtReturn || s.Kind == StmtRaise:
			retried5xx = &Stmt{} // one rejection per fall-through
		}
	}
}

func (w *walker) stmt(s *Stmt, f *frame) {
	switch s.Kind {
	case StmtAssign:
		before := len(w.ops)
		for _, r := range s.Rhs {
			w.expr(r, f)
		}
		w.assign(s, f, before)
	case StmtExpr, StmtBlock:
		w.expr(s.X, f)
		w.stmts(s.Body, f)
	case StmtIf:
		start := w.seq
		readsBefore := len(w.ops)
		w.expr(s.X, f)
		condReads := w.readsSince(readsBefore)
		w.conds = append(w.conds, condAt{s.X, f})
		w.stmts(s.Body, f)
		w.conds = w.conds[:len(w.conds)-1]
		if w.statusRejection(s, f) {
		} else if returns4xx(s) {
			w.handled4xx = true
		}
		switch {
		case leavesEarly(s.Body):
			w.add(op{kind: opCheck, cond: s.X, end: w.seq, loc: w.loc(f, s.Pos), via: f.via, vars: condReads, frame: f.id})
			w.ops[len(w.ops)-1].seq = start + 1
		case testsAbsence(s.X) && w.seq > start:
			w.add(op{kind: opCheck, cond: s.X, end: w.seq, loc: w.loc(f, s.Pos), via: f.via, vars: condReads, within: true})
			w.ops[len(w.ops)-1].seq = start
		}
		w.conds = append(w.conds, condAt{s.X, f})
		w.stmts(s.Else, f)
		w.conds = w.conds[:len(w.conds)-1]
	case StmtLoop:
		w.expr(s.X, f)
		w.loop(s, f)
		w.stmts(s.Body, f)
	case StmtReturn:
		for _, r := range s.Rhs {
			w.expr(r, f)
		}
		w.ret(s, f)
	case StmtRaise:
		w.expr(s.X, f)
		w.raises = true
		w.raise(s, f)
	case StmtTry:
		from := len(w.ops)
		w.tries = append(w.tries, s)
		w.stmts(s.Body, f)
		w.tries = w.tries[:len(w.tries)-1]
		if c := w.catchesDuplicate(s); c != "" {
			// try: INSERT … except IntegrityError: the unique constraint
			// refuses the repeat and the handler swallows it (insert-ignore).
			// An ORM's insert before the try is refused by the commit or
			// SaveChanges inside it.
			start := from
			for i := from; i < len(w.ops); i++ {
				if w.ops[i].kind == opWriteCall {
					start = 0
				}
			}
			for i := start; i < len(w.ops); i++ {
				if o := &w.ops[i]; o.kind == opEffect && o.eff.kind == effInsert && (i >= from || o.eff.sql == "") {
					o.eff.kind = effGuard
					o.eff.what += ", its duplicate refused by a unique constraint (catches " + c + ")"
				}
			}
		}
		w.inHandler++
		w.parsing = append(w.parsing, w.parsesInput(s.Body, f))
		for _, h := range s.Handlers {
			w.stmts(h, f)
		}
		w.parsing = w.parsing[:len(w.parsing)-1]
		w.inHandler--
		w.stmts(s.Else, f)
		w.stmts(s.Finally, f)
	}
}

// readsSince returns a marker naming the reads made since op n (a read
// inside an if's condition: `if repo.exists(key): return`).
func (w *walker) readsSince(n int) []string {
	var out []string
	for _, o := range w.ops[n:] {
		if o.kind == opEffect && o.eff.kind == effRead {
			out = append(out, "#read"+strconv.Itoa(o.seq))
		}
	}
	return out
}

// leavesEarly reports whether a block returns, raises or continues.
func leavesEarly(list []*Stmt) bool {
	for _, s := range list {
		switch s.Kind {
		case StmtReturn, StmtRaise, StmtContinue:
			return true
		case StmtIf, StmtBlock, StmtTry:
			if leavesEarly(s.Body) {
				return true
			}
		}
	}
	return false
}

func (w *walker) assign(s *Stmt, f *frame, before int) {
	var reads []int
	for i := before; i < len(w.ops); i++ {
		if w.ops[i].kind == opEffect && w.ops[i].eff.kind == effRead {
			reads = append(reads, i)
		}
	}
	// A value computed from a read's result carries it on (Go: row :=
	// QueryRow(…); err := row.Scan(&id); if err == nil { return }).
	for i, o := range w.ops {
		if o.kind != opEffect || o.eff.kind != effRead || len(o.vars) == 0 {
			continue
		}
		for _, r := range s.Rhs {
			if usesAny(r, o.vars) {
				reads = append(reads, i)
				break
			}
		}
	}
	aug := s.Op != "=" && s.Op != ":=" && s.Op != ""
	for i, l := range s.Lhs {
		var r *Expr
		switch {
		case i < len(s.Rhs):
			r = s.Rhs[i]
		case len(s.Rhs) == 1:
			r = s.Rhs[0]
		}
		switch l.Kind {
		case ExprIdent:
			if rd := w.countedFrom(r, f); rd != nil {
				f.counted[l.Name] = rd
			} else if !aug {
				delete(f.counted, l.Name)
			}
			if aug {
				if src := w.taintOf(r, f); src != nil {
					f.taint[l.Name] = src
				}
				continue
			}
			if src := w.taintOf(r, f); src != nil {
				f.taint[l.Name] = src
			} else if len(w.conds) == 0 {
				// A stable value in one branch of an if leaves the other
				// branch's fresh one possible after it.
				delete(f.taint, l.Name)
			}
			if r != nil {
				if p, ok := f.prov[l.Name]; ok && l.Name != "" {
					// A parameter given a new value: its value says where it
					// comes from now (input = input.strip() stays the input's).
					np := w.provenance(r, f, 0)
					if np.kind == provField && p.kind == provInput {
						np = p
					}
					f.prov[l.Name] = np
				}
				f.values[l.Name] = r
			}
			for _, idx := range reads {
				w.ops[idx].vars = append(w.ops[idx].vars, l.Name)
			}
		case ExprAttr:
			if !aug && r != nil {
				// cmd.CommandText = "INSERT …": the value a later call reads.
				f.values[l.Text] = r
			}
			if aug && (s.Op == "+=" || s.Op == "-=") {
				// item.Qty -= n on a state read: the object now holds a count.
				if root := rootIdent(l); root != "" {
					if rd := w.readOf(root); rd != nil {
						f.counted[root] = rd
					}
				}
			}
			if !aug && r != nil {
				// item.Qty = qty where qty was counted from a state read:
				// the object now holds a count.
				if rd := w.countedFrom(r, f); rd != nil {
					if root := rootIdent(l); root != "" {
						f.counted[root] = rd
					}
				}
			}
			if (aug && (s.Op == "+=" || s.Op == "-=")) || (!aug && r != nil && r.Kind == ExprBinary && (r.Op == "+" || r.Op == "-") && r.Arg(0) != nil && r.Arg(0).Text == l.Text) {
				if !isLocalObject(l, f) {
					w.add(op{kind: opAugAttr, loc: w.loc(f, s.Pos), via: f.via, text: l.Text + " " + s.Op + " …"})
				}
			}
			if isKeyName(l.Name) {
				if isIdemName(l.Name) {
					w.idemKV = true
				}
				w.keyPosition(f, l.Name, r, s.Pos)
			}
		case ExprIndex:
			if k := l.Arg(0); k != nil && k.Kind == ExprString && isKeyName(k.Str) {
				if isIdemName(k.Str) {
					w.idemKV = true
				}
				w.keyPosition(f, k.Str, r, s.Pos)
			}
		}
	}
}

// isLocalObject reports whether an attribute's object is a variable the
// function made itself from a literal (a local dict or struct), not a
// loaded record.
func isLocalObject(l *Expr, f *frame) bool {
	x := l.X
	for x != nil && x.Kind == ExprAttr {
		x = x.X
	}
	if x == nil || x.Kind != ExprIdent {
		return false
	}
	if x.Name == "self" || x.Name == "this" || strings.HasPrefix(x.Name, "recv:") {
		return true
	}
	for _, p := range f.fn.Params {
		if p == "recv:"+x.Name {
			return true
		}
	}
	v := f.values[x.Name]
	return v != nil && (v.Kind == ExprComposite || v.Kind == ExprNumber || v.Kind == ExprString)
}

// expr handles every call in an expression, innermost first, and walks
// function literals passed along (a closure given to a retry helper).
func (w *walker) expr(e *Expr, f *frame) {
	if e == nil {
		return
	}
	switch e.Kind {
	case ExprFunc:
		w.inFunc++
		w.stmts(e.Body, f)
		w.inFunc--
		return
	case ExprCall:
		w.expr(e.X, f)
		for _, a := range e.Args {
			w.expr(a, f)
		}
		for _, k := range e.Keys {
			w.expr(k.Value, f)
		}
		w.call(e, f)
		return
	case ExprBinary:
		w.divides(e, f)
	}
	w.expr(e.X, f)
	for _, a := range e.Args {
		w.expr(a, f)
	}
	for _, k := range e.Keys {
		w.expr(k.Value, f)
	}
}

// divides records a division by the activity's input that nothing in the
// body tests first: a zero divisor fails the same way on every attempt (a
// permanent failure, as a rejection is).
func (w *walker) divides(e *Expr, f *frame) {
	if e.Op != "/" && e.Op != "//" && e.Op != "%" || f.depth != 0 {
		return
	}
	d := e.Arg(1)
	if d == nil || d.Kind == ExprNumber || w.provenance(d, f, 0).kind != provInput {
		return
	}
	name := rootIdent(d)
	if name == "" {
		return
	}
	tested := false
	Walk(f.fn.Body, func(s *Stmt) bool {
		if (s.Kind == StmtIf || s.Kind == StmtLoop) && s.X != nil && usesAny(s.X, []string{name}) {
			tested = true
		}
		return !tested
	})
	if tested {
		return
	}
	w.rejections = append(w.rejections, w.loc(f, e.Pos))
	w.rejectText = append(w.rejectText, "a failure on a zero divisor ("+Clip(e.Text)+" divides by its input, untested)")
}

// call handles one call: a helper to follow, a retry library, an effect,
// key positions, code twice cannot see.
func (w *walker) call(call *Expr, f *frame) {
	if recv := call.Receiver(); recv != nil && f.ctx != "" && recv.Kind == ExprIdent && recv.Name == f.ctx && (call.Name == "GetInput" || call.Name == "get_input") {
		// ctx.GetInput(&input): the variable now holds the activity's input.
		if a := call.Arg(0); a != nil {
			for a.Kind == ExprUnary && a.X != nil {
				a = a.X
			}
			if a.Kind == ExprIdent {
				f.prov[a.Name] = prov{provInput, a}
			}
		}
	}
	w.decodes(call, f)
	eff := classify(call, f.file, func(n string) *Expr { return w.heldValue(f, n) }, func(n string) bool { return isParam(f.fn, n) })
	w.row(eff.row)
	rowKey := w.keyPositions(call, eff, f)
	if w.row(is(qStatusRaise, call, f.file.Lang)) != nil && !w.handled4xx && w.statusRaise == nil {
		l := w.loc(f, call.Pos)
		w.statusRaise, w.statusCall = &l, call.Method()+"()"
	}
	if w.row(refIs(qRetry, call.Ref)) != nil {
		w.hazard(f, RuleRetryInBody, call.Pos, "calls "+call.Ref+", which retries inside the body")
	}
	if what := w.pollyRetry(call, f); what != "" {
		w.hazard(f, RuleRetryInBody, call.Pos, what)
	}
	w.decodeInto(call)
	if helper := w.helper(call, f); helper != nil && (eff.row == nil || !libraryCode(helper)) {
		if f.depth < maxDepth {
			w.follow(helper, call, f)
		} else {
			w.noteOpaque(f, call, helper.Name+" (deeper than "+strconv.Itoa(maxDepth)+" helper levels)")
		}
		return
	}
	if eff.kind == effNone {
		switch {
		case w.row(is(qPersist, call, f.file.Lang)) != nil:
			w.add(op{kind: opWriteCall, loc: w.loc(f, call.Pos), via: f.via})
		case w.opaqueCall(call, f):
		}
		return
	}
	if w.toHandler(eff, call, f) {
		return
	}
	if eff.kind == effPost && (anyKey(call, isIdemName)) {
		w.idemKV = true
	}
	var key string
	from := 0
	switch eff.kind {
	case effRead:
		key = stateKey(eff)
	case effIdempotent:
		if k := stateKey(eff); k != "" {
			if rd, what := w.countedValue(eff.row.value.of(call), f); rd != nil && sameStore(rd.key, k) {
				eff.kind, from = effIncrement, rd.seq
				eff.what = fmt.Sprintf("%s of %s (read from the same key at line %d, then added to or subtracted from)", call.Method(), Clip(what), rd.loc.Line)
			}
		}
	}
	if eff.http && !w.httpRetried {
		if r := w.httpRetryFor(f); r != nil {
			w.httpRetried = true
			w.hazard(f, RuleRetryInBody, call.Pos, fmt.Sprintf("%s goes through an HttpClient that %s (%s:%d) makes retry each request: retries inside the activity, invisible to the history and multiplied by the engine's, which repeat a request the server may already have acted on",
				Clip(eff.what), r.Call, r.File.Path, r.Pos.Line))
		}
	}
	if eff.kind == effGuard {
		if et := etagOf(call); et != nil && w.provenance(et, f, 0).kind == provRead && !w.checkedRead(rootIdent(et)) {
			// The etag comes from a read in this body and nothing leaves
			// when the read finds the work done: a retry reads the etag the
			// first attempt left and its write succeeds too. It refuses a
			// concurrent writer, not a repeat.
			eff.kind = effIdempotent
		}
	}
	fresh := false
	if eff.kind == effIdempotent && eff.row != nil && eff.row.value.set {
		if src := w.taintOf(eff.row.value.of(call), f); src != nil && src.kind == srcGenerated {
			fresh = true
		}
	}
	w.add(op{kind: opEffect, eff: eff, loc: w.loc(f, call.Pos), via: f.via, key: key, fresh: fresh, from: from, keyProv: rowKey})
	if eff.kind == effOpaqueWrite {
		w.noteOpaque(f, call, "")
	}
	if eff.sql != "" {
		if p := w.sqlKeys(call, eff, f); p.kind > w.ops[len(w.ops)-1].keyProv.kind {
			w.ops[len(w.ops)-1].keyProv = p
		}
		if w.insertOfCheckedKey(call, eff, f) {
			// The key the check read by refuses the repeat's row.
			w.ops[len(w.ops)-1].eff.kind = effGuard
		}
	}
}

// checkedRead reports whether the read whose result a variable holds is
// tested by an if that leaves early (if (sent is not null) return).
func (w *walker) checkedRead(name string) bool {
	if name == "" {
		return false
	}
	for _, r := range w.ops {
		if r.kind != opEffect || r.eff.kind != effRead || !contains(r.vars, name) {
			continue
		}
		for _, c := range w.ops {
			if c.kind == opCheck && c.seq > r.seq && checks(c, r) {
				return true
			}
		}
	}
	return false
}

// value returns the expression last assigned to a name in the frame, or
// at package level.
func (w *walker) value(f *frame, name string) *Expr {
	if v := f.values[name]; v != nil {
		return v
	}
	return w.ix.pkgOf(f.file).global(name)
}

// heldValue is value, and for a variable made by calling a helper of the
// tree (options = BuildOptions(input)) the literal or object the helper
// returns, so that a row can see the options a call is given.
func (w *walker) heldValue(f *frame, name string) *Expr {
	v := w.value(f, name)
	if v == nil || v.Kind != ExprCall || v.Op == "new" {
		return v
	}
	fn := w.helper(v, f)
	if fn == nil {
		return v
	}
	var ret *Expr
	Walk(fn.Body, func(s *Stmt) bool {
		if s.Kind == StmtReturn && len(s.Rhs) == 1 && ret == nil {
			if r := s.Rhs[0]; r.Kind == ExprComposite || r.Kind == ExprCall && r.Op == "new" {
				ret = r
			}
		}
		return ret == nil
	})
	if ret != nil {
		return ret
	}
	return v
}

// row notes that a table row answered a question about the body (the
// corpus test checks that every row is exercised) and returns it.
func (w *walker) row(r *api) *api {
	if r != nil {
		w.ix.rowsUsed[r] = true
	}
	return r
}

// helper resolves a call to a function in the reviewed tree.
func (w *walker) helper(call *Expr, f *frame) *Func {
	fx := call.X
	if fx == nil {
		return nil
	}
	switch fx.Kind {
	case ExprIdent:
		if fx.Ref != "" {
			return w.ix.resolve(f.file, fx.Ref)
		}
		if fn := w.ix.resolve(f.file, fx.Name); fn != nil {
			return fn
		}
		// var open = dial: a package-level variable that holds one of the
		// tree's functions (so tests can swap it) calls that function.
		if v := w.ix.pkgOf(f.file).global(fx.Name); v != nil && v.Kind == ExprIdent && v.Name != fx.Name {
			if v.Ref != "" {
				return w.ix.resolve(f.file, v.Ref)
			}
			return w.ix.resolve(f.file, v.Name)
		}
		return nil
	case ExprAttr:
		if fx.Ref != "" {
			return w.ix.resolve(f.file, fx.Ref)
		}
		// this.M() in a method the activity inherits: the activity's own
		// class's M first (an override of a template method's hook).
		if w.self != "" && fx.X != nil && fx.X.Kind == ExprIdent && (fx.X.Name == "this" || fx.X.Name == "self") {
			if fn := w.ix.method(f.file, w.self, fx.Name); fn != nil {
				return fn
			}
		}
		// A method of the object's type: a declared variable, a field of
		// the receiver, a value a constructor of the tree returned.
		if t := w.typeOf(fx.X, f, 0); t != "" {
			if fn := w.ix.method(f.file, t, fx.Name); fn != nil {
				return fn
			}
		}
		obj := fx.X
		if obj != nil && obj.Kind == ExprIdent {
			// self.m(), or a Go method on the receiver.
			if (obj.Name == "self" || isRecv(f.fn, obj.Name)) && f.fn.Recv != "" {
				return w.ix.resolve(f.file, f.fn.Recv+"."+fx.Name)
			}
		}
	}
	return nil
}

// httpRetryFor is the retrying HttpClient configuration that applies to
// a request made in the frame's function: every client, the typed client
// the function's class is (or the activity's), or a named client the
// function creates.
func (w *walker) httpRetryFor(f *frame) *HTTPRetry {
	for i := range w.ix.httpRetries {
		r := &w.ix.httpRetries[i]
		switch {
		case r.Scope == "":
			return r
		case strings.HasPrefix(r.Scope, "name:"):
			name := strings.TrimPrefix(r.Scope, "name:")
			for _, fn := range []*Func{f.fn, w.root} {
				if createsClient(fn, name) {
					return r
				}
			}
		default:
			if t := simpleName(r.Scope); t == f.fn.Recv || t == w.root.Recv {
				return r
			}
		}
	}
	return nil
}

// createsClient reports whether a function calls CreateClient("name").
func createsClient(fn *Func, name string) bool {
	found := false
	Walk(fn.Body, func(s *Stmt) bool {
		for _, e := range s.StmtExprs() {
			for _, c := range e.Calls() {
				if c.Name == "CreateClient" && c.Arg(0) != nil && c.Arg(0).Kind == ExprString && c.Arg(0).Str == name {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// typeOf is an expression's static type as far as the tree says: what
// the front-end knew, a field of a typed object, the type a literal or a
// constructor of the tree makes, or a variable's value's type.
func (w *walker) typeOf(e *Expr, f *frame, depth int) string {
	// depth bounds one chain; typing bounds the recursion through helper
	// (x = x.Next() would otherwise loop).
	if e == nil || depth > 4 || w.typing > 8 {
		return ""
	}
	w.typing++
	defer func() { w.typing-- }()
	if e.Type != "" {
		return e.Type
	}
	switch e.Kind {
	case ExprIdent:
		if v := f.values[e.Name]; v != nil && v != e {
			return w.typeOf(v, f, depth+1)
		}
	case ExprAttr:
		if e.Ref == "" {
			if t := w.typeOf(e.X, f, depth+1); t != "" {
				return w.ix.fieldType(f.file, t, e.Name)
			}
		}
	case ExprUnary:
		if e.Op == "&" || e.Op == "*" || e.Op == "await" {
			return w.typeOf(e.X, f, depth+1)
		}
	case ExprComposite:
		if f.file.Lang == LangGo && e.Name != "" && !strings.ContainsAny(e.Name, "[]{}") {
			return qualifyIn(f.file, strings.TrimPrefix(e.Name, "*"))
		}
	case ExprCall:
		if fn := w.helper(e, f); fn != nil && fn.Result != "" {
			return qualifyIn(fn.File, fn.Result)
		}
	}
	return ""
}

// isParam reports whether a name is one of a function's parameters.
func isParam(fn *Func, name string) bool {
	for _, p := range fn.Params {
		if p == name {
			return true
		}
	}
	return false
}

func isRecv(fn *Func, name string) bool {
	for _, p := range fn.Params {
		if p == "recv:"+name {
			return true
		}
	}
	return false
}

// follow walks a helper's body with its parameters bound to the call's
// arguments' taint.
func (w *walker) follow(fn *Func, call *Expr, f *frame) {
	nf := w.helperFrame(fn, call, f)
	nf.caller = f
	w.frames++
	nf.id = w.frames
	defer func() {
		if w.frameEnds == nil {
			w.frameEnds = map[int]int{}
		}
		w.frameEnds[nf.id] = w.seq
	}()
	nf.via = append(append([]string(nil), f.via...), fmt.Sprintf("%s (called at %s:%d)", fn.Name, f.file.Path, call.Pos.Line))
	w.walkFunc(fn, nf)
	// getJSON(url, &out): a response the helper decoded into its
	// out-parameter is the caller's variable's now.
	if len(nf.decoded) == 0 {
		return
	}
	plain := plainParams(fn)
	for i, a := range call.Args {
		if i < len(plain) && nf.decoded[plain[i]] != "" {
			if v := outParam(a); v != nil {
				f.markDecoded(v, nf.decoded[plain[i]]+", decoded by "+fn.Name+" ("+fn.File.Path+":"+strconv.Itoa(fn.Pos.Line)+")")
			}
		}
	}
}

// parseCalls parse or validate a value: failing on the input, they fail
// the same way on every attempt.
var parseCalls = map[string]bool{"loads": true, "load": true, "Unmarshal": true, "Parse": true, "parse": true, "model_validate": true,
	"model_validate_json": true, "parse_obj": true, "parse_raw": true, "Deserialize": true, "DeserializeObject": true, "int": true,
	"float": true, "Decimal": true, "fromisoformat": true, "strptime": true, "ParseExact": true, "validate": true}

// parsesInput reports whether a try's body parses or validates the
// activity's input.
func (w *walker) parsesInput(body []*Stmt, f *frame) bool {
	found := false
	for _, s := range body {
		for _, e := range s.StmtExprs() {
			for _, c := range e.Calls() {
				if parseCalls[c.Name] && c.Arg(0) != nil && w.provenance(c.Arg(0), f, 0).kind == provInput {
					found = true
				}
			}
		}
	}
	return found
}

// outParam is the variable a call's argument lets the callee fill (&v),
// or nil.
func outParam(a *Expr) *Expr {
	if a != nil && a.Kind == ExprUnary && a.Op == "&" && a.X != nil && a.X.Kind == ExprIdent {
		return a.X
	}
	if a != nil && a.Kind == ExprIdent {
		return a // a pointer parameter passed on
	}
	return nil
}

// markDecoded records that a variable holds a whole decoded response,
// unless it is a typed record (a named struct: what the seed asks for).
func (f *frame) markDecoded(v *Expr, what string) {
	if v.Type != "" {
		return
	}
	if val := f.values[v.Name]; val != nil && val.Kind == ExprComposite && val.Name != "" && !strings.HasPrefix(val.Name, "map[") && !strings.HasPrefix(val.Name, "[]") {
		return
	}
	if f.decoded == nil {
		f.decoded = map[string]string{}
	}
	f.decoded[v.Name] = what
}

// decodes notes json.Unmarshal(body, &v) and json.NewDecoder(body).Decode(&v)
// of a whole response body into a variable.
func (w *walker) decodes(call *Expr, f *frame) {
	var data, out *Expr
	switch {
	case call.Ref == "encoding/json.Unmarshal" || call.Ref == "json.Unmarshal":
		data, out = call.Arg(0), outParam(call.Arg(1))
	case call.Name == "Decode":
		if r := call.Receiver(); r != nil && r.Kind == ExprCall && r.Name == "NewDecoder" {
			data, out = r.Arg(0), outParam(call.Arg(0))
		}
	}
	if data == nil || out == nil {
		return
	}
	if what := w.wholeBody(data, f, 0); what != "" {
		f.markDecoded(out, "the response decoded from "+what)
	} else if _, isParam := f.prov[out.Name]; isParam && f.depth > 0 && w.bodyLike(data) {
		f.markDecoded(out, "the whole response body")
	}
}

// bodyLike reports whether an expression reads as a response body
// (resp.Body, body, respBody).
func (w *walker) bodyLike(e *Expr) bool {
	return e != nil && strings.Contains(strings.ToLower(e.Text), "body")
}

// opaqueCall notes a call twice cannot see; it reports whether it did.
func (w *walker) opaqueCall(call *Expr, f *frame) bool {
	if f.file.Lang == LangPython && call.Name != "" && call.Name[0] >= 'A' && call.Name[0] <= 'Z' {
		return false // a class made (an ORM model, a dataclass), not code that acts
	}
	if call.Ref != "" && !knownModule(f.file.Lang, call.Ref) {
		w.noteOpaque(f, call, call.Ref)
		return true
	}
	return false
}

func (w *walker) noteOpaque(f *frame, call *Expr, target string) {
	name := call.X.Text
	if target == "" {
		target = name
	}
	if w.opaque[target] {
		return
	}
	w.opaque[target] = true
	w.act.Opaque = append(w.act.Opaque, Opaque{Location: w.loc(f, call.Pos), Call: name, Target: target})
}

// taintOf returns the unstable source an expression derives from, or nil.
func (w *walker) taintOf(e *Expr, f *frame) *source {
	var found *source
	e.Exprs(func(x *Expr) bool {
		if found != nil && found.kind != srcWorkflowID {
			return false
		}
		if isTimeBucket(x) {
			// int(time.time()) // 60, now.Truncate(time.Hour), UtcNow.Date:
			// a window every retry inside it shares (a rate limit's key).
			return false
		}
		if x.Kind == ExprBinary && (x.Op == "or" || x.Op == "??") && f.depth > 0 && (w.provenance(x.Arg(0), f, 0).kind == provInput || isParam(f.fn, rootIdent(x.Arg(0)))) {
			// req.job_id or uuid4() in a helper or a handler: the caller's
			// value comes first, the fresh one only when it sends none (the
			// activity's own fallback is reported where it is written).
			return false
		}
		switch x.Kind {
		case ExprIdent:
			if s := f.taint[x.Name]; s != nil && (found == nil || s.kind != srcWorkflowID) {
				found = s
			}
			// C#: UtcNow through using static System.DateTime.
			if f.file.Lang == LangCSharp && w.row(refIs(qFresh, x.Ref)) != nil {
				found = &source{kind: srcGenerated, expr: x}
				return false
			}
		case ExprCall:
			if w.row(refIs(qFresh, x.Ref)) != nil {
				found = &source{kind: srcGenerated, expr: x}
				return false
			}
			if fn := w.helper(x, f); fn != nil {
				if s := w.returnTaint(fn); s != nil && (found == nil || s.kind != srcWorkflowID) {
					found = s
					if s.kind != srcWorkflowID {
						return false
					}
				}
			}
			if x.X != nil && x.X.Kind == ExprAttr && x.X.X != nil && x.X.X.Kind == ExprIdent && x.X.X.Name == f.ctx && f.ctx != "" {
				if s := w.contextSource(x, f.file.Lang); s != nil {
					found = s
					return false
				}
			}
		case ExprAttr:
			// C#'s clock is a property: DateTime.UtcNow.
			if f.file.Lang == LangCSharp && w.row(refIs(qFresh, x.Ref)) != nil {
				found = &source{kind: srcGenerated, expr: x}
				return false
			}
			if x.X != nil && x.X.Kind == ExprIdent && x.X.Name == f.ctx && f.ctx != "" {
				if s := w.contextSource(x, f.file.Lang); s != nil {
					found = s
					return false
				}
			}
		}
		return true
	})
	return found
}

// isTimeBucket reports whether an expression cuts a value to a window: a
// division by a number, a Truncate, a date.
func isTimeBucket(x *Expr) bool {
	switch x.Kind {
	case ExprBinary:
		return (x.Op == "//" || x.Op == "/") && x.Arg(1) != nil && x.Arg(1).Kind == ExprNumber
	case ExprCall:
		return x.Name == "Truncate" || x.Name == "date" || x.Name == "Date" && x.Ref == ""
	case ExprAttr:
		return x.Name == "Date" && x.Ref == ""
	}
	return false
}

// returnTaint is the unstable value a helper of the tree returns whatever
// its arguments: a fresh UUID, time or random value it makes (shortID()
// returning a cut uuid.NewString()), through two levels of helpers.
func (w *walker) returnTaint(fn *Func) *source {
	if s, ok := w.helperTaint[fn]; ok {
		return s
	}
	if w.helperTaint == nil {
		w.helperTaint = map[*Func]*source{}
	}
	w.helperTaint[fn] = nil // a recursive helper returns nothing new through itself
	if w.returnDepth >= 2 {
		delete(w.helperTaint, fn)
		return nil
	}
	w.returnDepth++
	defer func() { w.returnDepth-- }()
	nf := &frame{fn: fn, file: fn.File, taint: map[string]*source{}, values: map[string]*Expr{}, counted: map[string]*op{}, prov: map[string]prov{}, depth: 1}
	var found *source
	Walk(fn.Body, func(s *Stmt) bool {
		switch s.Kind {
		case StmtAssign:
			for i, l := range s.Lhs {
				var r *Expr
				if i < len(s.Rhs) {
					r = s.Rhs[i]
				} else if len(s.Rhs) == 1 {
					r = s.Rhs[0]
				}
				if l.Kind == ExprIdent && r != nil {
					if src := w.taintOf(r, nf); src != nil {
						nf.taint[l.Name] = src
					}
					nf.values[l.Name] = r
				}
			}
		case StmtReturn:
			if len(s.Rhs) > 0 && found == nil {
				if src := w.taintOf(s.Rhs[0], nf); src != nil && src.kind == srcGenerated {
					c := *src
					if c.helper == "" {
						c.helper = fmt.Sprintf("%s (%s:%d)", fn.Name, fn.File.Path, s.Pos.Line)
					}
					found = &c
				}
			}
		}
		return found == nil
	})
	w.helperTaint[fn] = found
	return found
}

// contextSource is the unstable id an activity context's attribute or
// method gives (lib_dapr.go), or nil.
func (w *walker) contextSource(x *Expr, lang Lang) *source {
	r := w.row(is(qContext, x, lang))
	if r == nil {
		return nil
	}
	if r.kind == kindWorkflowID {
		return &source{kind: srcWorkflowID, expr: x, what: r.what}
	}
	return &source{kind: srcPerAttempt, expr: x, what: r.what}
}

// keyPositions checks every key position a call fills.
func (w *walker) keyPositions(call *Expr, eff effect, f *frame) (rowKey prov) {
	m := call.Method()
	// A header or metadata entry set by name.
	if a := call.Arg(0); a != nil && a.Kind == ExprString && isHeaderSetter(m) && isKeyName(a.Str) && len(call.Args) >= 2 {
		if isIdemName(a.Str) {
			w.idemKV = true
		}
		w.keyPosition(f, a.Str, call.Arg(1), call.Pos)
	}
	// A key a row places: a key setter's (params.SetIdempotencyKey(k)),
	// a state write's key argument.
	c := newLibCall(call, f.file.Lang, nil)
	if r := w.row(knowledge().find(qKeySetter, c)); r != nil {
		if r.idem {
			w.idemKV = true
		}
		w.keyPosition(f, expand(r.keyName, c, r), r.key.of(call), call.Pos)
	} else if r := eff.row; r != nil && eff.kind != effRead && r.key.set && r.key.pos >= 0 {
		rowKey = w.keyPosition(f, "key", r.key.of(call), call.Pos)
	} else if v := rowKeyValue(eff.row, call, func(n string) *Expr { return w.value(f, n) }); v != nil {
		rowKey = w.keyPosition(f, eff.row.key.kw, v, valuePos(v, call.Pos))
	}
	// new ActorId(x), ActorId(x): an id type made from a value keys what
	// it addresses.
	if (strings.HasSuffix(call.Name, "Id") || strings.HasSuffix(call.Name, "ID")) && len(call.Name) > 2 && call.Name[0] >= 'A' && call.Name[0] <= 'Z' && len(call.Args) == 1 && call.X != nil && call.X.Kind == ExprIdent {
		w.keyPosition(f, call.Name, call.Arg(0), valuePos(call.Arg(0), call.Pos))
	}
	// Keywords and literal entries anywhere in the arguments. A
	// constructor that is no effect (new Card(Id: …)) places a key only
	// if the body goes on to write (finish decides).
	w.inCtor = eff.kind == effNone && eff.row == nil && call.Op == "new"
	for _, k := range call.Keys {
		if isKeyName(k.Key) {
			if isIdemName(k.Key) {
				w.idemKV = true
			}
			w.keyPosition(f, k.Key, k.Value, valuePos(k.Value, call.Pos))
		}
	}
	w.inCtor = false
	var lits []*Expr
	for _, a := range call.Args {
		a.Exprs(func(x *Expr) bool {
			if x.Kind == ExprCall {
				return false // a nested call has its own turn
			}
			if x.Kind == ExprComposite {
				lits = append(lits, x)
			}
			if x.Kind == ExprIdent {
				if v := w.value(f, x.Name); v != nil && v.Kind == ExprComposite {
					lits = append(lits, v)
				}
			}
			return true
		})
	}
	for _, kw := range call.Keys {
		if kw.Value != nil && kw.Value.Kind == ExprIdent {
			if v := w.value(f, kw.Value.Name); v != nil && v.Kind == ExprComposite {
				lits = append(lits, v)
			}
		}
		if kw.Value != nil && kw.Value.Kind == ExprComposite {
			lits = append(lits, kw.Value)
		}
	}
	for _, lit := range lits {
		lit.Exprs(func(x *Expr) bool {
			if x.Kind == ExprCall {
				return false
			}
			for _, k := range x.Keys {
				if isKeyName(k.Key) {
					if isIdemName(k.Key) {
						w.idemKV = true
					}
					w.keyPosition(f, k.Key, k.Value, valuePos(k.Value, call.Pos))
				}
			}
			return true
		})
	}
	return rowKey
}

// keyPosition checks one value placed in a key position, and says where
// the value comes from (provNone: it is unstable, and reported).
func (w *walker) keyPosition(f *frame, name string, v *Expr, at Pos) prov {
	if v == nil {
		return prov{}
	}
	src := w.taintOf(v, f)
	if src == nil {
		p := w.provenance(v, f, 0)
		if p.kind == provField {
			p.kind = provUnseen // configuration alone: twice cannot say it differs per operation
		}
		if isIdemName(name) {
			w.idemKey(f, name, v, at, p)
		}
		return p
	}
	switch src.kind {
	case srcGenerated:
		what := Clip(src.expr.Text)
		msg := fmt.Sprintf("%s is %s, made inside the activity body: every retry sends a new one", keyWord(name), what)
		if src.helper != "" {
			msg = fmt.Sprintf("%s is %s, and %s makes it from %s: a value made inside the activity, new on every retry",
				keyWord(name), Clip(v.Text), src.helper, what)
		}
		w.hazard(f, RuleKeyGeneratedInBody, at, msg)
		return prov{provUnstable, src.expr}
	case srcPerAttempt:
		what := src.what
		if what == "" {
			what = "the per-attempt scheduling id"
		}
		w.hazard(f, RulePerAttemptKey, at, fmt.Sprintf("%s is derived from %s, %s: every retry has a different one",
			keyWord(name), Clip(src.expr.Text), what))
		return prov{provUnstable, src.expr}
	case srcWorkflowID:
		l := w.loc(f, at)
		w.wfIDKeys = append(w.wfIDKeys, Hazard{Rule: RulePerAttemptKey, Activity: w.act.Name, Location: l,
			Excerpt: LineText(f.file.Src, at.Line), Via: append([]string(nil), f.via...),
			Message: fmt.Sprintf("%s is derived from %s, the calling workflow's instance id", keyWord(name), Clip(src.expr.Text))})
		if isIdemName(name) {
			w.idemKey(f, name, v, at, prov{provInput, src.expr})
		}
		return prov{provInput, src.expr}
	}
	return prov{}
}

// idemKey records an idempotency key and where its value comes from:
// from the input (the provider refuses a repeat), a constant (shared by
// every operation), or a source twice cannot see.
func (w *walker) idemKey(f *frame, name string, v *Expr, at Pos, p prov) {
	switch p.kind {
	case provInput:
		if w.idemAt == nil {
			w.idemAt = &op{loc: w.loc(f, at), text: name}
		}
	case provConst:
		w.keyNote(f, at, fmt.Sprintf("the %s key is the constant %s, shared by every operation: it refuses this activity's repeat, and every other call made with it",
			strconv.Quote(name), Clip(v.Text)), false)
	default:
		what := "a value twice cannot trace"
		if p.kind == provRead {
			what = "a value the body reads"
		}
		if p.expr != nil && p.expr != v {
			what += " (" + Clip(p.expr.Text) + ")"
		}
		w.keyNote(f, at, fmt.Sprintf("the %s key is %s, %s: a key whose source twice cannot see, so twice cannot say a repeat is refused",
			strconv.Quote(name), Clip(v.Text), what), true)
	}
}

// keyNote records a key that is neither a guard nor a hazard; unseen
// marks a key whose source twice cannot see (no write it keys is a
// guard).
func (w *walker) keyNote(f *frame, at Pos, what string, unseen bool) {
	l := w.loc(f, at)
	for _, k := range w.act.Keys {
		if k.Location == l {
			return
		}
	}
	w.act.Keys = append(w.act.Keys, KeyNote{Location: l, Excerpt: LineText(f.file.Src, at.Line), What: what, Unseen: unseen})
	if unseen {
		w.idemUnseen = true
	}
}

func keyWord(name string) string {
	if name == "" || name == "key" {
		return "the key"
	}
	return "the key in " + strconv.Quote(name)
}

var placeholder = regexp.MustCompile(`\$\d+|\?|%s|%\(\w+\)s|:\w+|@\w+`)

// sqlKeys maps an INSERT's values to its columns and checks the key
// columns' values.
func (w *walker) sqlKeys(call *Expr, eff effect, f *frame) (worst prov) {
	if sqlVerb(eff.sql) == "CREATE" {
		return w.ddlKey(call, eff, f)
	}
	if sqlVerb(eff.sql) != "INSERT" {
		return
	}
	cols, vals := insertColumns(eff.sql)
	if len(cols) == 0 {
		return
	}
	params := call.Args[eff.sqlArg+1:]
	if len(params) == 1 && params[0].Kind == ExprComposite {
		if len(params[0].Keys) > 0 {
			for _, k := range params[0].Keys {
				for i, v := range vals {
					if strings.TrimLeft(v, ":@%(") == k.Key || strings.TrimSuffix(strings.TrimPrefix(v, "%("), ")s") == k.Key {
						if i < len(cols) && isKeyColumn(cols[i]) {
							worst = worse(worst, w.keyPosition(f, cols[i], k.Value, call.Pos))
						}
					}
				}
			}
			return
		}
		params = params[0].Args
	}
	n := 0
	for i, v := range vals {
		if i >= len(cols) {
			break
		}
		if !placeholder.MatchString(v) {
			continue
		}
		idx := n
		if strings.HasPrefix(v, "$") {
			if k, err := strconv.Atoi(v[1:]); err == nil {
				idx = k - 1
			}
		}
		n++
		if idx < len(params) && isKeyColumn(cols[i]) {
			worst = worse(worst, w.keyPosition(f, cols[i], params[idx], call.Pos))
		}
	}
	return worst
}

var (
	sqlFromTable   = regexp.MustCompile(`(?is)\bFROM\s+([\w."]+)`)
	sqlWhereEq     = regexp.MustCompile(`(?i)\b(\w+)"?\s*=\s*(\$\d+|\?|%s|:\w+|@\w+)`)
	sqlInsertTable = regexp.MustCompile(`(?is)^\s*INSERT\s+INTO\s+([\w."]+)`)
)

// sqlParam is the argument a statement's placeholder binds: $k is the
// k-th parameter, any other the nth placeholder's (n counts from 0).
func sqlParam(call *Expr, sqlArg int, ph string, n int) *Expr {
	if strings.HasPrefix(ph, "$") {
		if k, err := strconv.Atoi(ph[1:]); err == nil {
			n = k - 1
		}
	}
	params := call.Args[sqlArg+1:]
	if n < 0 || n >= len(params) {
		return nil
	}
	return params[n]
}

// insertOfCheckedKey reports whether an INSERT without a conflict clause
// binds a key column to the same stable value that an earlier SELECT on
// the same table, whose result the body tests and leaves on, filtered
// that column by: the table's key refuses the row a repeat would add
// (SELECT … FROM t WHERE id = $1; found → return; INSERT INTO t (id, …)).
func (w *walker) insertOfCheckedKey(call *Expr, eff effect, f *frame) bool {
	if eff.kind != effInsert || sqlVerb(eff.sql) != "INSERT" {
		return false
	}
	tm := sqlInsertTable.FindStringSubmatch(eff.sql)
	cols, vals := insertColumns(eff.sql)
	if tm == nil || len(cols) == 0 {
		return false
	}
	bound := map[string]*Expr{} // key column → its value
	n := 0
	for i, v := range vals {
		if i >= len(cols) || !placeholder.MatchString(v) {
			continue
		}
		// A primary key's shape: a column named id (key, pk, uuid), or
		// the first column listed when it is key-like (job_id, …).
		col := strings.ToLower(strings.Trim(cols[i], "`\"[] "))
		pk := col == "id" || col == "key" || col == "pk" || col == "uuid" || i == 0 && isKeyColumn(col)
		if p := sqlParam(call, eff.sqlArg, v, n); p != nil && pk && w.taintOf(p, f) == nil {
			bound[col] = p
		}
		n++
	}
	for _, r := range w.ops {
		if r.kind != opEffect || r.eff.kind != effRead || r.eff.call == nil || sqlVerb(r.eff.sql) != "SELECT" || r.loc.File != f.file.Path {
			continue
		}
		fm := sqlFromTable.FindStringSubmatch(r.eff.sql)
		if fm == nil || !strings.EqualFold(strings.Trim(fm[1], `"`), strings.Trim(tm[1], `"`)) {
			continue
		}
		checked := false
		for _, c := range w.ops {
			if c.kind == opCheck && c.seq > r.seq && checks(c, r) {
				checked = true
				break
			}
		}
		if !checked {
			continue
		}
		i := strings.Index(strings.ToUpper(r.eff.sql), "WHERE")
		if i < 0 {
			continue
		}
		where := r.eff.sql[i:]
		before := len(placeholder.FindAllString(r.eff.sql[:i], -1))
		for _, m := range sqlWhereEq.FindAllStringSubmatchIndex(where, -1) {
			col, ph := strings.ToLower(where[m[2]:m[3]]), where[m[4]:m[5]]
			v := bound[col]
			if v == nil {
				continue
			}
			k := before + len(placeholder.FindAllString(where[:m[4]], -1))
			if p := sqlParam(r.eff.call, r.eff.sqlArg, ph, k); p != nil && strings.TrimSpace(p.Text) == strings.TrimSpace(v.Text) {
				return true
			}
		}
	}
	return false
}

// ddlKey checks the name a CREATE ROLE / DATABASE / SCHEMA … statement
// makes, when a format verb places it (fmt.Sprintf("CREATE ROLE %s", name)):
// the database refuses an existing name, so the name is the key, and a
// fresh one makes another role or database on every attempt.
func (w *walker) ddlKey(call *Expr, eff effect, f *frame) prov {
	m := sqlCreateNamed.FindStringSubmatchIndex(eff.sql)
	if m == nil || eff.sqlArg >= len(call.Args) {
		return prov{}
	}
	if name := eff.sql[m[4]:m[5]]; !strings.Contains(name, "%") {
		return prov{}
	}
	format := call.Args[eff.sqlArg]
	for depth := 0; format != nil && format.Kind == ExprIdent && depth < 4; depth++ {
		format = w.value(f, format.Name)
	}
	if format == nil || format.Kind != ExprCall || format.Name != "Sprintf" {
		return prov{}
	}
	// The name is the format's first verb if no verb comes before it.
	if strings.Count(strings.ReplaceAll(eff.sql[:m[4]], "%%", ""), "%") > 0 {
		return prov{}
	}
	return w.keyPosition(f, strings.ToLower(eff.sql[m[2]:m[3]])+" name", format.Arg(1), call.Pos)
}

var insertCols = regexp.MustCompile(`(?is)INSERT\s+(?:OR\s+\w+\s+|IGNORE\s+)?INTO\s+[\w."\x60\[\]]+\s*\(([^)]*)\)\s*VALUES\s*\(([^)]*)\)`)

// insertColumns returns an INSERT's column names and value expressions.
func insertColumns(sql string) (cols, vals []string) {
	m := insertCols.FindStringSubmatch(sql)
	if m == nil {
		return nil, nil
	}
	for _, c := range strings.Split(m[1], ",") {
		cols = append(cols, strings.TrimSpace(c))
	}
	for _, v := range strings.Split(m[2], ",") {
		vals = append(vals, strings.TrimSpace(v))
	}
	return cols, vals
}

// usesAny reports whether an expression names any of vars.
func usesAny(e *Expr, vars []string) bool {
	for _, id := range e.Idents() {
		for _, v := range vars {
			if id == v {
				return true
			}
		}
	}
	return false
}

// valuePos is where a key's value is written (the line a reader looks
// for), or the call's place when the value has none.
func valuePos(v *Expr, call Pos) Pos {
	if v != nil && v.Pos.IsValid() {
		return v.Pos
	}
	return call
}
