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
	// helper is the helper of the tree that makes the value and where
	// ("shortID (pkg/ids.go:14)"), when the body calls one.
	helper string
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
	case "id", "key", "pk", "objectkey", "primarykey", "documentid", "docid", "rowkey", "partitionkey", "uuid",
		"identifier", "reference", "ref":
		return true
	}
	// artifactRef, order_ref: a reference the record is stored under (a
	// link's href is not one).
	return len(n) > 4 && strings.HasSuffix(n, "ref") && !strings.HasSuffix(n, "href") && !strings.HasSuffix(n, "pref")
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

// provKind is where a key's value comes from, as far as twice can trace
// it (issue 21: a key is "from the input" only when the code proves it).
// The order is the order of concern: a value made of parts is as
// doubtful as its most doubtful part.
type provKind int8

const (
	provNone provKind = iota
	// provConst: a literal, the same for every operation.
	provConst
	// provField: a field of the activity's object or a package value
	// (configuration): unseen when it is the whole key.
	provField
	// provInput: the activity's input, the context's task execution id
	// or the workflow instance id.
	provInput
	// provRead: a value the body reads (a retry reads it again, changed
	// by the first attempt).
	provRead
	// provUnseen: code or data twice cannot see.
	provUnseen
	// provUnstable: new on every attempt (reported as a hazard).
	provUnstable
)

// prov is a key value's provenance and the part that decided it.
type prov struct {
	kind provKind
	expr *Expr
}

func worse(a, b prov) prov {
	if b.kind > a.kind {
		return b
	}
	return a
}

// pureCalls are functions and methods that make their result from their
// arguments and receiver only: formatting, joining, hashing, encoding,
// case and trimming, conversions, name-based UUIDs.
var pureCalls = map[string]bool{
	"str": true, "int": true, "format": true, "join": true, "Join": true, "Sprintf": true, "Sprint": true, "Itoa": true,
	"FormatInt": true, "FormatUint": true, "Quote": true, "QuoteIdentifier": true, "ToString": true, "Format": true, "Concat": true,
	"lower": true, "upper": true, "strip": true, "rstrip": true, "lstrip": true, "replace": true, "encode": true, "decode": true,
	"ToLower": true, "ToUpper": true, "ToLowerInvariant": true, "ToUpperInvariant": true, "Trim": true, "TrimSpace": true,
	"Replace": true, "ReplaceAll": true, "hexdigest": true, "digest": true, "Sum256": true, "Sum": true, "sha256": true, "sha1": true,
	"md5": true, "blake2b": true, "EncodeToString": true, "b64encode": true, "urlsafe_b64encode": true, "ToBase64String": true,
	"ToHexString": true, "dumps": true, "Marshal": true, "uuid3": true, "uuid5": true, "NewSHA1": true, "NewMD5": true,
	"Value": true, "String": true, "Guid": true, "Parse": true, "ToSHA256": true,
	"loads": true, "model_validate": true, "parse_obj": true, "DeserializeObject": true, "Deserialize": true, "Substring": true, "split": true, "Split": true, "removeprefix": true, "removesuffix": true, "casefold": true,
}

// provenance says where an expression's value comes from (depth bounds
// the chain of variables and helpers followed).
func (w *walker) provenance(e *Expr, f *frame, depth int) prov {
	if e == nil || depth > 6 {
		return prov{provUnseen, e}
	}
	switch e.Kind {
	case ExprString:
		p := prov{provConst, e}
		for _, a := range e.Args {
			p = worse(p, w.provenance(a, f, depth+1))
		}
		return p
	case ExprNumber:
		return prov{provConst, e}
	case ExprIdent:
		switch e.Name {
		case "nil", "None", "null", "true", "false", "True", "False":
			return prov{provConst, e}
		case "self", "this", "cls":
			return prov{provField, e}
		}
		if p, ok := f.prov[e.Name]; ok {
			return p
		}
		if v := f.values[e.Name]; v != nil && v != e {
			return w.provenance(v, f, depth+1)
		}
		if v := w.ix.pkgOf(f.file).global(e.Name); v != nil && v != e {
			if p := w.provenance(v, f, depth+1); p.kind == provConst {
				return p
			}
		}
		return prov{provField, e}
	case ExprAttr:
		if f.ctx != "" && e.X != nil && e.X.Kind == ExprIdent && e.X.Name == f.ctx {
			return prov{provInput, e} // the context's ids (a per-attempt id is tainted before)
		}
		if e.X == nil {
			return prov{provField, e}
		}
		p := w.provenance(e.X, f, depth+1)
		p.expr = e
		return p
	case ExprIndex:
		p := w.provenance(e.X, f, depth+1)
		for _, a := range e.Args {
			if q := w.provenance(a, f, depth+1); q.kind > provInput {
				p = worse(p, q)
			}
		}
		p.expr = e
		return p
	case ExprUnary:
		return w.provenance(e.X, f, depth+1)
	case ExprBinary, ExprComposite:
		p := prov{provConst, e}
		for _, a := range e.Args {
			p = worse(p, w.provenance(a, f, depth+1))
		}
		for _, k := range e.Keys {
			p = worse(p, w.provenance(k.Value, f, depth+1))
		}
		return p
	case ExprCall:
		return w.callProvenance(e, f, depth)
	}
	return prov{provUnseen, e}
}

// callProvenance is provenance for a call: the context's ids, a helper of
// the tree (its returns, its parameters bound to the arguments), a pure
// transform of its receiver and arguments, a read; else unseen.
func (w *walker) callProvenance(e *Expr, f *frame, depth int) prov {
	recv := e.Receiver()
	if f.ctx != "" && recv != nil && recv.Kind == ExprIdent && recv.Name == f.ctx {
		return prov{provInput, e}
	}
	read := func() bool {
		eff := classify(e, f.file, func(n string) *Expr { return w.heldValue(f, n) }, func(n string) bool { return isParam(f.fn, n) })
		return eff.kind == effRead && eff.row != nil
	}
	if fn := w.helper(e, f); fn != nil {
		if read() {
			return prov{provRead, e} // a library's read, whose source the tree may also hold
		}
		return w.returnProvenance(fn, e, f, depth+1)
	}
	name := e.Name
	switch name {
	case "get", "Get", "GetValueOrDefault", "GetString", "getattr":
		// input.get("id"): the input's; a store's or a client's get: a read.
		if recv != nil {
			if p := w.provenance(recv, f, depth+1); p.kind == provInput || p.kind == provConst {
				return prov{p.kind, e}
			}
		} else if a := e.Arg(0); a != nil && name == "getattr" {
			if p := w.provenance(a, f, depth+1); p.kind == provInput {
				return prov{p.kind, e}
			}
		}
		return prov{provUnseen, e}
	}
	if e.Op == "new" || pureCalls[name] || e.X != nil && pureCalls[e.X.Name] {
		p := prov{provConst, e}
		if recv != nil && e.Op != "new" && (e.X.Ref == "" || recv.Kind != ExprIdent) {
			p = worse(p, w.provenance(recv, f, depth+1))
		}
		for _, a := range e.Args {
			p = worse(p, w.provenance(a, f, depth+1))
		}
		for _, k := range e.Keys {
			p = worse(p, w.provenance(k.Value, f, depth+1))
		}
		if p.kind == provConst && len(e.Args) == 0 && recv == nil {
			return prov{provUnseen, e}
		}
		return p
	}
	if eff := classify(e, f.file, func(n string) *Expr { return w.heldValue(f, n) }, func(n string) bool { return isParam(f.fn, n) }); eff.kind == effRead {
		return prov{provRead, e}
	}
	return prov{provUnseen, e}
}

// returnProvenance is what a helper of the tree returns, its parameters
// bound to the call's arguments as the caller sees them.
func (w *walker) returnProvenance(fn *Func, call *Expr, f *frame, depth int) prov {
	if w.stack[fn] || depth > 6 {
		return prov{provUnseen, call}
	}
	w.stack[fn] = true
	defer delete(w.stack, fn)
	nf := w.helperFrame(fn, call, f)
	p := prov{provNone, call}
	Walk(fn.Body, func(s *Stmt) bool {
		switch s.Kind {
		case StmtAssign:
			for i, l := range s.Lhs {
				if l.Kind == ExprIdent && s.Op != "+=" {
					if i < len(s.Rhs) {
						nf.values[l.Name] = s.Rhs[i]
					} else if len(s.Rhs) == 1 {
						nf.values[l.Name] = s.Rhs[0]
					}
				}
			}
		case StmtReturn:
			if len(s.Rhs) > 0 {
				p = worse(p, w.provenance(s.Rhs[0], nf, depth+1))
			}
		}
		return true
	})
	if p.kind == provNone {
		return prov{provUnseen, call}
	}
	return p
}

// helperFrame is a frame for a helper, its parameters bound to a call's
// arguments: their values, taint and provenance in the caller's frame.
func (w *walker) helperFrame(fn *Func, call *Expr, f *frame) *frame {
	nf := &frame{fn: fn, file: fn.File, taint: map[string]*source{}, values: map[string]*Expr{}, counted: map[string]*op{},
		prov: map[string]prov{}, depth: f.depth + 1}
	plain := plainParams(fn)
	for i, a := range call.Args {
		if i < len(plain) {
			if src := w.taintOf(a, f); src != nil {
				nf.taint[plain[i]] = src
			}
			nf.values[plain[i]] = a
			nf.prov[plain[i]] = w.provenance(a, f, 0)
			if a.Kind == ExprIdent && a.Name == f.ctx && f.ctx != "" {
				nf.ctx = plain[i]
			}
		}
	}
	for _, k := range call.Keys {
		if src := w.taintOf(k.Value, f); src != nil {
			nf.taint[k.Key] = src
		}
		nf.values[k.Key] = k.Value
		nf.prov[k.Key] = w.provenance(k.Value, f, 0)
	}
	return nf
}

// etagOf is the etag a conditional state write carries: a state entry's
// own (entry.TrySaveAsync()), or an etag argument.
func etagOf(call *Expr) *Expr {
	switch call.Method() {
	case "TrySaveAsync", "TryDeleteAsync":
		return call.Receiver()
	case "SaveStateWithETag":
		return call.Arg(4)
	case "TrySaveStateAsync", "TryDeleteStateAsync":
		if v := call.Keyword("etag"); v != nil {
			return v
		}
		return call.Arg(3)
	}
	for _, k := range []string{"etag", "ETag", "Etag"} {
		if v := call.Keyword(k); v != nil {
			return v
		}
	}
	var found *Expr
	call.Exprs(func(x *Expr) bool {
		for _, k := range x.Keys {
			if strings.EqualFold(k.Key, "etag") && found == nil {
				found = k.Value
			}
		}
		return found == nil
	})
	return found
}
