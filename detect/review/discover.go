package review

import (
	"path"
	"strings"
)

// Discovery (issue 21, §1 and §2): what a registration the front-end
// read resolves to across files and modules, what a workflow calls that
// no registration names, and what twice could not follow.

// resolveRegistration finds the body a registration names: its inline
// literal, the function it names, else the closure its factory returns.
func (ix *index) resolveRegistration(r Registration) *Func {
	if r.Inline != nil {
		return r.Inline
	}
	if fn := ix.resolve(r.File, r.Func); fn != nil {
		return fn
	}
	if r.Factory != "" {
		if fac := ix.resolve(r.File, r.Factory); fac != nil {
			return ix.returnedClosure(fac, 0)
		}
	}
	return nil
}

// returnedClosure is the function literal a factory returns (return
// func(ctx …) {…}; Python: return a nested def; or what another factory
// it returns the call of returns), as a function named after the factory,
// where it is defined; nil when it returns none.
func (ix *index) returnedClosure(fac *Func, depth int) *Func {
	if depth > maxConstDepth {
		return nil
	}
	var lit *Expr
	var inner *Func
	var visit func(list []*Stmt)
	visit = func(list []*Stmt) {
		for _, s := range list {
			if s == nil || lit != nil {
				return
			}
			if s.Kind == StmtReturn && len(s.Rhs) > 0 {
				v := s.Rhs[0]
				if v.Kind == ExprIdent {
					v = Assigned(fac.Body, nil, v.Name)
				}
				if v != nil && v.Kind == ExprFunc {
					lit = v
					return
				}
				if v != nil && v.Kind == ExprCall && v.X != nil && inner == nil {
					ref := v.X.Name
					if v.X.Ref != "" {
						ref = v.X.Ref
					}
					if f := ix.resolve(fac.File, ref); f != nil && f != fac {
						if c := ix.returnedClosure(f, depth+1); c != nil {
							inner = c
						}
					}
				}
			}
			visit(s.Body)
			visit(s.Else)
			for _, h := range s.Handlers {
				visit(h)
			}
			visit(s.Finally)
		}
	}
	visit(fac.Body)
	if lit == nil && inner != nil {
		if inner.File != fac.File {
			return inner // its body's positions are in its own file
		}
		return &Func{Name: fac.Name, Short: fac.Short, Recv: fac.Recv, Pos: fac.Pos, Body: inner.Body, File: inner.File}
	}
	if lit == nil {
		return nil
	}
	return &Func{Name: fac.Name, Short: fac.Short, Recv: fac.Recv, Pos: fac.Pos, Body: lit.Body, File: fac.File}
}

// maxConstDepth bounds following a constant through other constants.
const maxConstDepth = 4

// constant evaluates a name argument written as a constant: a string,
// a package-level or module-level constant (in another file or module
// too), or a concatenation of them.
func (ix *index) constant(from *File, e *Expr, depth int) (string, bool) {
	if e == nil || depth > maxConstDepth {
		return "", false
	}
	switch e.Kind {
	case ExprString:
		if len(e.Args) > 0 {
			return "", false // an interpolated string
		}
		return e.Str, true
	case ExprBinary:
		if e.Op == "+" && len(e.Args) == 2 {
			a, ok1 := ix.constant(from, e.Args[0], depth+1)
			b, ok2 := ix.constant(from, e.Args[1], depth+1)
			return a + b, ok1 && ok2
		}
	case ExprIdent:
		if p := ix.pkgOf(from); p != nil {
			if v := p.global(e.Name); v != nil && v != e {
				return ix.constantIn(p, v, depth)
			}
		}
		ref := e.Ref
		if ref == "" {
			ref = from.Imports[e.Name]
		}
		return ix.qualifiedConstant(from, ref, depth)
	case ExprAttr:
		return ix.qualifiedConstant(from, e.Ref, depth)
	}
	return "", false
}

func (ix *index) constantIn(p *pkg, v *Expr, depth int) (string, bool) {
	if len(p.files) == 0 {
		return "", false
	}
	return ix.constant(p.files[0], v, depth+1)
}

// qualifiedConstant evaluates "module.NAME" or "import/path.Name".
func (ix *index) qualifiedConstant(from *File, ref string, depth int) (string, bool) {
	cut := strings.LastIndexByte(ref, '.')
	if cut <= 0 {
		return "", false
	}
	q := ix.pkgFrom(from, ref[:cut])
	if q == nil {
		return "", false
	}
	if v := q.global(ref[cut+1:]); v != nil {
		return ix.constantIn(q, v, depth)
	}
	return "", false
}

// byShortName is the one function or method of a language's tree with a
// short name (nil: none, or several).
func (ix *index) byShortName(lang Lang, name string) *Func {
	var found *Func
	for _, p := range ix.order {
		if p.lang != lang {
			continue
		}
		for _, fn := range p.byShort[name] {
			if found != nil && found != fn {
				return nil
			}
			found = fn
		}
	}
	return found
}

// typeLocation is where a type of the tree is declared.
func (ix *index) typeLocation(from *File, typ string) (Location, bool) {
	d, ok := ix.typeSeenFrom(from, simpleName(typ), typeNamespace(typ))
	if !ok {
		return Location{}, false
	}
	for _, f := range d.pkg.files {
		for i := range f.Types {
			if &f.Types[i] == d.decl {
				return Location{File: f.Path, Line: d.decl.Pos.Line, Col: d.decl.Pos.Col}, true
			}
		}
	}
	return Location{}, false
}

// infer finds the activities workflows call that no registration names
// (the function the call names, or the one function of the tree with the
// called name) and the functions that call activities without being
// registered as workflows: both are reviewed, marked inferred. A called
// name it cannot find is listed as unresolved. It sets ix.registered and
// ix.workflows for what it infers.
func infer(rep *Report, ix *index, files []*File) (acts, wfs []*Func) {
	registeredNames := map[string]bool{}
	for _, n := range ix.registered {
		registeredNames[n] = true
	}
	listed := map[string]bool{}
	for _, u := range rep.Unresolved {
		listed[u.Name] = true
		registeredNames[u.Name] = true
	}
	// Functions that register something set a runtime up: they are not
	// workflows, whatever they call.
	registers := map[string]bool{}
	wfKeys := map[string]bool{}
	for fn := range ix.workflows {
		wfKeys[fn.File.Path+":"+fn.Name] = true
	}
	for _, f := range files {
		for _, r := range f.Registrations {
			if r.Caller != nil {
				registers[f.Path+":"+r.Caller.Name] = true
			}
		}
	}
	for _, f := range files {
		for _, cs := range f.CallSites {
			if cs.Caller != nil && !cs.Child && cs.Caller.Name != "<module>" {
				k := cs.Caller.File.Path + ":" + cs.Caller.Name
				if _, ok := ix.workflows[cs.Caller]; !ok && !wfKeys[k] && !registers[k] {
					if _, act := ix.registered[cs.Caller]; !act {
						wfKeys[k] = true
						ix.workflows[cs.Caller] = cs.Caller.Short
						wfs = append(wfs, cs.Caller)
					}
				}
			}
			if cs.Child {
				continue
			}
			var fn *Func
			name := cs.Target
			if cs.ByName {
				if registeredNames[name] {
					continue
				}
				fn = ix.byShortName(f.Lang, name)
			} else {
				fn = ix.resolve(f, cs.Target)
				if i := strings.LastIndexByte(cs.Target, '.'); fn == nil && i > 0 && !strings.HasPrefix(cs.Target, "?.") {
					// self.run_tool: the package's only method of that name.
					fn = ix.resolve(f, "?."+cs.Target[i+1:])
				}
				if fn == nil {
					if i := strings.LastIndexAny(name, "./"); i >= 0 {
						name = name[i+1:]
					}
					if registeredNames[name] {
						continue
					}
				}
			}
			if fn != nil {
				if _, ok := ix.registered[fn]; ok {
					continue
				}
				if !cs.ByName {
					name = fn.Short
				}
				ix.registered[fn] = name
				registeredNames[name] = true
				acts = append(acts, fn)
				continue
			}
			if name == "" || listed[name] {
				continue
			}
			listed[name] = true
			reason := ReasonNotInTree
			if !cs.ByName && cs.Target == "" {
				reason = ReasonComputedTarget
			}
			rep.Unresolved = append(rep.Unresolved, Unresolved{Name: name, Kind: KindActivity, Reason: reason,
				Location: Location{File: f.Path, Line: cs.Pos.Line, Col: cs.Pos.Col}})
		}
	}
	// A folder whose code is found at run time (a package that imports
	// its modules and collects their functions): its public functions
	// with an activity's signature, (ctx, input), are its activities.
	for _, f := range files {
		if !f.RuntimeDiscovery {
			continue
		}
		dir := path.Dir(f.Path)
		for _, p := range ix.order {
			if p.lang != f.Lang {
				continue
			}
			for _, g := range p.files {
				if _, ok := within(path.Dir(g.Path), dir); !ok {
					continue
				}
				for _, fn := range g.Funcs {
					if fn.Recv != "" || strings.HasPrefix(fn.Short, "_") || fn.Short == "<module>" || signatureParams(fn) != 2 {
						continue
					}
					if _, ok := ix.registered[fn]; ok {
						continue
					}
					if _, ok := ix.workflows[fn]; ok {
						continue
					}
					ix.registered[fn] = fn.Short
					acts = append(acts, fn)
				}
			}
		}
	}
	return acts, wfs
}

// signatureParams counts a Python function's parameters as
// inspect.signature does: every named, *args and **kwargs parameter, not
// the bare * and / separators (an activity takes two: ctx and its input).
func signatureParams(fn *Func) int {
	n := 0
	for _, p := range fn.Params {
		if p != "**" && p != "*/" {
			n++
		}
	}
	return n
}

// isSDKImport reports whether an import path, module or namespace is a
// Dapr workflow SDK's: a tree that imports one defines workflows.
func isSDKImport(v string) bool {
	for _, s := range [...]string{"dapr/go-sdk/workflow", "dapr/durabletask-go", "microsoft/durabletask-go",
		"dapr.ext.workflow", "durabletask", "Dapr.Workflow"} {
		if strings.Contains(v, s) {
			return true
		}
	}
	return false
}

// importsSDK reports whether a file imports a Dapr workflow SDK.
func importsSDK(files []*File) bool {
	for _, f := range files {
		for _, v := range f.Imports {
			if isSDKImport(v) {
				return true
			}
		}
		for _, v := range f.OpenImports {
			if isSDKImport(v) {
				return true
			}
		}
	}
	return false
}

// unknownPart stands for a part of a computed name twice cannot know.
const unknownPart = "{…}"

// nameScope is where a computed name's expression is evaluated: its file,
// the function whose locals it may use, and the values bound to names
// (a called function's parameters, a loop's variable).
type nameScope struct {
	file  *File
	fn    *Func
	vars  map[string]boundValue
	depth int
}

type boundValue struct {
	e     *Expr
	scope *nameScope
}

// computedName evaluates a registration's name argument that the code
// computes (self._activity_name(fn), f"{PREFIX}.{fn.__name__}"): literal
// parts, constants, f-strings, x.__name__ of a function, the return of a
// function of the tree it calls; a part it cannot know is written {…}. ok
// is false when nothing of it is known.
func (ix *index) computedName(r Registration) (string, bool) {
	sc := &nameScope{file: r.File, fn: r.Caller, vars: map[string]boundValue{}}
	if r.LoopVar != "" && r.LoopValue != nil {
		sc.vars[r.LoopVar] = boundValue{r.LoopValue, sc}
	}
	s, ok := ix.evalName(sc, r.NameRef)
	if !ok || strings.Trim(strings.ReplaceAll(s, unknownPart, ""), "._-:/ ") == "" {
		return "", false
	}
	return s, true
}

// maxNameDepth bounds the calls followed to compute a name.
const maxNameDepth = 6

func (ix *index) evalName(sc *nameScope, e *Expr) (string, bool) {
	if e == nil || sc.depth > maxNameDepth {
		return "", false
	}
	switch e.Kind {
	case ExprString:
		if len(e.Args) == 0 {
			return e.Str, true
		}
		parts := strings.Split(e.Str, "{}")
		if len(parts) != len(e.Args)+1 {
			return "", false
		}
		var b strings.Builder
		for i, p := range parts {
			b.WriteString(p)
			if i < len(e.Args) {
				if v, ok := ix.evalName(sc, e.Args[i]); ok {
					b.WriteString(v)
				} else {
					b.WriteString(unknownPart)
				}
			}
		}
		return b.String(), true
	case ExprBinary:
		if e.Op == "+" && len(e.Args) == 2 {
			a, ok1 := ix.evalName(sc, e.Args[0])
			b, ok2 := ix.evalName(sc, e.Args[1])
			if ok1 && ok2 {
				return a + b, true
			}
		}
		return "", false
	case ExprIdent:
		if b, ok := sc.vars[e.Name]; ok {
			return ix.evalName(b.scope, b.e)
		}
		if sc.fn != nil {
			if v := Assigned(sc.fn.Body, nil, e.Name); v != nil && v != e {
				inner := *sc
				inner.depth++
				return ix.evalName(&inner, v)
			}
		}
		return ix.constant(sc.file, e, 0)
	case ExprAttr:
		if e.Name == "__name__" && e.X != nil {
			if fn := ix.funcValue(sc, e.X); fn != "" {
				return fn, true
			}
			return "", false
		}
		if e.Ref != "" {
			return ix.constant(sc.file, e, 0)
		}
		return "", false
	case ExprCall:
		return ix.evalCall(sc, e)
	case ExprOther:
		// a if cond else b: the branch that is a string.
		if len(e.Args) == 3 && strings.Contains(e.Text, " if ") && strings.Contains(e.Text, " else ") {
			if v, ok := ix.evalName(sc, e.Args[0]); ok {
				return v, true
			}
			return ix.evalName(sc, e.Args[2])
		}
	}
	return "", false
}

// funcValue is the short name of the function an expression refers to
// (a name bound to self.charge, charge itself), for fn.__name__.
func (ix *index) funcValue(sc *nameScope, e *Expr) string {
	for i := 0; i < maxNameDepth && e != nil; i++ {
		if e.Kind == ExprIdent {
			if b, ok := sc.vars[e.Name]; ok {
				e, sc = b.e, b.scope
				continue
			}
		}
		switch e.Kind {
		case ExprIdent:
			if fn := ix.resolve(sc.file, e.Name); fn != nil {
				return fn.Short
			}
		case ExprAttr:
			return e.Name
		}
		return ""
	}
	return ""
}

// evalCall evaluates a call of a function or method of the tree that
// returns one value, its parameters bound to the call's arguments.
func (ix *index) evalCall(sc *nameScope, call *Expr) (string, bool) {
	if call.X == nil {
		return "", false
	}
	var fn *Func
	switch {
	case call.X.Ref != "":
		fn = ix.resolve(sc.file, call.X.Ref)
	case call.X.Kind == ExprIdent:
		fn = ix.resolve(sc.file, call.X.Name)
	case call.X.Kind == ExprAttr:
		fn = ix.resolve(sc.file, "?."+call.X.Name)
	}
	if fn == nil {
		return "", false
	}
	var ret *Expr
	for _, s := range fn.Body {
		if s.Kind == StmtReturn && len(s.Rhs) == 1 {
			if ret != nil {
				return "", false // several returns: which one runs is not known
			}
			ret = s.Rhs[0]
		}
	}
	if ret == nil {
		return "", false
	}
	inner := &nameScope{file: fn.File, fn: fn, vars: map[string]boundValue{}, depth: sc.depth + 1}
	params := fn.Params
	if fn.Recv != "" && len(params) > 0 && (params[0] == "self" || params[0] == "cls") {
		params = params[1:]
	}
	for i, a := range call.Args {
		if i < len(params) {
			inner.vars[params[i]] = boundValue{a, sc}
		}
	}
	return ix.evalName(inner, ret)
}

// ReasonHelperUncalled is why a helper's registration of its parameter
// is not reviewed when no call of the helper passes a function.
const ReasonHelperUncalled = "registered through a helper's parameter that no call in the tree fills"

// expandHelpers replaces a registration of a helper's parameter
// (func MapActivity(a task.Activity) { r.AddActivityN("*", a) }) with one
// registration per call of the helper in the tree, of the function it is
// given; a helper nobody calls stays, listed as unresolved.
func expandHelpers(ix *index, regs []Registration, files []*File) []Registration {
	var helpers []Registration
	out := regs[:0:0]
	for _, r := range regs {
		if r.Param > 0 && r.Caller != nil {
			helpers = append(helpers, r)
			continue
		}
		out = append(out, r)
	}
	if len(helpers) == 0 {
		return regs
	}
	for _, h := range helpers {
		n := 0
		for _, f := range files {
			if f.Lang != h.File.Lang {
				continue
			}
			for _, fn := range f.Funcs {
				EachCall(fn.Body, func(x *Expr) {
					if x.X == nil || (x.X.Kind != ExprIdent && x.X.Ref == "") || x.X.Name != h.Caller.Short {
						return
					}
					ref := x.X.Name
					if x.X.Ref != "" {
						ref = x.X.Ref
					}
					if ix.resolve(f, ref) != h.Caller {
						return
					}
					arg := x.Arg(h.Param - 1)
					if arg == nil {
						return
					}
					r := Registration{Kind: h.Kind, Pos: x.Pos, File: f, Caller: fn}
					switch {
					case arg.Kind == ExprCall && arg.X != nil:
						r.Factory = arg.X.Name
						if arg.X.Ref != "" {
							r.Factory = arg.X.Ref
						}
					case arg.Ref != "":
						r.Func = arg.Ref
					case arg.Kind == ExprIdent:
						r.Func = arg.Name
					default:
						return
					}
					out = append(out, r)
					n++
				})
			}
		}
		if n == 0 {
			h.Unresolved = ReasonHelperUncalled
			out = append(out, h)
		}
	}
	return out
}
