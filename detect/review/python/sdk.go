//go:build cgo

package python

import (
	"sort"
	"strings"

	"github.com/twice-cli/twice/detect/review"
)

// sdk finds registrations and call sites.
//
// The names follow dapr/python-sdk v1.18.3,
// ext/dapr-ext-workflow/dapr/ext/workflow/workflow_runtime.py
// (activity(name=…) and workflow(name=…) decorators, register_activity(fn,
// name=…): the registered name is name, else fn.__name__),
// dapr_workflow_context.py (call_activity(activity, *, input, retry_policy,
// app_id); call_child_workflow(workflow, *, input, instance_id,
// retry_policy)) and retry_policy.py (RetryPolicy: first_retry_interval,
// max_number_of_attempts, backoff_coefficient, max_retry_interval,
// retry_timeout; no error predicate).
func (c *converter) sdk() {
	f := c.file
	for _, fn := range f.Funcs {
		c.decorated(fn, nil)
		review.EachCall(fn.Body, func(x *review.Expr) { c.call(fn, x) })
	}
	// Definitions nested in functions, registered by their decorator.
	for _, fn := range c.nestedInOrder() {
		c.decorated(fn, fn)
	}
}

// nestedInOrder lists the nested definitions in source order.
func (c *converter) nestedInOrder() []*review.Func {
	out := make([]*review.Func, 0, len(c.nested))
	for _, fn := range c.nested {
		out = append(out, fn)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Pos.Line != out[j].Pos.Line {
			return out[i].Pos.Line < out[j].Pos.Line
		}
		return out[i].Pos.Col < out[j].Pos.Col
	})
	return out
}

// decorated registers a function its SDK decorator names; inline is set
// for a nested definition (not in the module's functions).
func (c *converter) decorated(fn, inline *review.Func) {
	for _, d := range fn.Decorators {
		kind, name := decoratorKind(d)
		if kind == 0 {
			continue
		}
		r := review.Registration{Name: name, Kind: kind, Func: fn.Name, Pos: d.Pos, File: c.file, Inline: inline}
		if name == "" {
			r.Name = fn.Short
			if call := d; call.Kind == review.ExprCall {
				if n := call.Keyword("name"); n != nil && n.Kind != review.ExprString {
					r.Name, r.NameRef = "", n
				}
			}
		}
		c.file.Registrations = append(c.file.Registrations, r)
	}
}

// decoratorKind recognises @wfr.activity, @wfr.activity(name=…),
// @wfr.workflow and @wfr.workflow(name=…).
func decoratorKind(d *review.Expr) (review.DefKind, string) {
	call := d
	if d.Kind == review.ExprCall {
		d = d.X
	}
	if d == nil || d.Kind != review.ExprAttr {
		return 0, ""
	}
	name := ""
	if call.Kind == review.ExprCall {
		if n := call.Keyword("name"); n != nil && n.Kind == review.ExprString {
			name = n.Str
		}
	}
	switch d.Name {
	case "activity":
		return review.KindActivity, name
	case "workflow", "versioned_workflow":
		return review.KindWorkflow, name
	}
	return 0, ""
}

func (c *converter) call(caller *review.Func, x *review.Expr) {
	f := c.file
	switch x.Method() {
	case "import_module", "iter_modules", "walk_packages", "getmembers":
		f.RuntimeDiscovery = true
	case "register_activity", "add_activity":
		c.registerIn(caller, x, review.KindActivity, x.Arg(0), stringKw(x, "name"), x.Keyword("name"))
	case "register_workflow", "add_orchestrator", "register_versioned_workflow":
		c.registerIn(caller, x, review.KindWorkflow, x.Arg(0), stringKw(x, "name"), x.Keyword("name"))
	case "add_named_activity":
		if n := x.Arg(0); n != nil && (n.Kind == review.ExprString || n.Kind == review.ExprIdent) {
			c.registerIn(caller, x, review.KindActivity, x.Arg(1), n.Str, n)
		}
	case "call_activity":
		if len(x.Args) > 0 || x.Keyword("activity") != nil {
			f.CallSites = append(f.CallSites, c.callSite(caller, x, false))
		}
	case "call_child_workflow", "call_sub_orchestrator":
		if len(x.Args) > 0 || x.Keyword("workflow") != nil {
			f.CallSites = append(f.CallSites, c.callSite(caller, x, true))
		}
	}
}

func stringKw(x *review.Expr, k string) string {
	if v := x.Keyword(k); v != nil && v.Kind == review.ExprString {
		return v.Str
	}
	return ""
}

// registerIn registers ref, or, when ref is the variable of a loop over
// a literal list, tuple or dict (for fn in [charge, ship]:
// wfr.register_activity(fn)), or over a method of the class returning one
// (for fn in self._standard_activities()), each element; nameExpr is the
// name argument, which may be the loop's key. A wrapped reference
// (register_activity(with_io(fn)), self._named(fn, name)) registers the
// function wrapped, else the closure the wrapper returns.
func (c *converter) registerIn(caller *review.Func, x *review.Expr, kind review.DefKind, ref *review.Expr, name string, nameExpr *review.Expr) {
	factory := ""
	if ref != nil && ref.Kind == review.ExprCall && ref.X != nil {
		factory = c.refName(ref.X)
		// self._named(fn, name_expr): a wrapper that names what it wraps.
		if n := ref.Arg(1); n != nil && name == "" && nameExpr == nil {
			nameExpr = n
		}
		ref = ref.Arg(0)
	}
	if ref != nil && ref.Kind == review.ExprIdent && ref.Ref == "" {
		if elems, keyVar, ok := c.rangeOf(caller, x.Pos, ref.Name); ok {
			for _, el := range elems {
				n := name
				var nameRef *review.Expr
				switch {
				case el.Key != nil && el.Key.Kind == review.ExprString && nameExpr != nil && nameExpr.Kind == review.ExprIdent && nameExpr.Name == keyVar:
					n = el.Key.Str
				case n == "" && nameExpr != nil && nameExpr.Kind != review.ExprString:
					nameRef = nameExpr
				}
				before := len(c.file.Registrations)
				c.register(caller, x, kind, el.Value, n, nameRef, factory)
				if nameRef != nil && len(c.file.Registrations) > before {
					r := &c.file.Registrations[len(c.file.Registrations)-1]
					r.LoopVar, r.LoopValue = ref.Name, el.Value
				}
			}
			return
		}
		// A parameter of a helper that registers what it is given
		// (def _register(fn): wfr.register_activity(fn)): each call of the
		// helper registers its argument.
		if i := paramIndex(caller, ref.Name); i >= 0 && caller.Name != "<module>" {
			c.helpers = append(c.helpers, regHelper{fn: caller, param: i, kind: kind, factory: factory})
			return
		}
	}
	var nameRef *review.Expr
	if name == "" && nameExpr != nil && nameExpr.Kind != review.ExprString {
		nameRef = nameExpr
	}
	c.register(caller, x, kind, ref, name, nameRef, factory)
	// wfr.register_activity(acts.charge): acts's class's method, when its
	// type is known (a typed parameter, acts = PaymentActivities(…)).
	if ref != nil && ref.Kind == review.ExprAttr && ref.Ref == "" && ref.X != nil && len(c.file.Registrations) > 0 {
		t := ref.X.Type
		if t == "" && ref.X.Kind == review.ExprIdent {
			t = ctorType(review.Assigned(caller.Body, c.file.Globals, ref.X.Name))
		}
		if t != "" {
			c.file.Registrations[len(c.file.Registrations)-1].Func = t + "." + ref.Name
		}
	}
}

// refName is how a called function is named for the resolver.
func (c *converter) refName(e *review.Expr) string {
	switch {
	case e.Ref != "":
		return e.Ref
	case e.Kind == review.ExprIdent:
		return e.Name
	case e.Kind == review.ExprAttr:
		return "?." + e.Name
	}
	return ""
}

// rangeOf is review.RangeOf, and a loop over a call of a method or
// function of this file that returns a literal tuple or list.
func (c *converter) rangeOf(caller *review.Func, at review.Pos, name string) ([]review.LoopElem, string, bool) {
	if elems, keyVar, ok := review.RangeOf(caller.Body, c.file.Globals, at, name, false); ok {
		return elems, keyVar, true
	}
	elems := c.returnedElems(caller, review.LoopOver(caller.Body, at, name), 0)
	return elems, "", len(elems) > 0
}

// returnedElems lists the elements of a value a loop iterates: a call
// of a method or function of this file returning a literal tuple or list,
// a variable assigned one, or either branch of a conditional of them.
func (c *converter) returnedElems(caller *review.Func, loopX *review.Expr, depth int) []review.LoopElem {
	if loopX == nil || depth > 3 {
		return nil
	}
	if loopX.Kind == review.ExprIdent {
		return c.returnedElems(caller, review.Assigned(caller.Body, nil, loopX.Name), depth+1)
	}
	if loopX.Kind == review.ExprOther && len(loopX.Args) == 3 && strings.Contains(loopX.Text, " if ") {
		return append(c.returnedElems(caller, loopX.Args[0], depth+1), c.returnedElems(caller, loopX.Args[2], depth+1)...)
	}
	if loopX.Kind != review.ExprCall || loopX.X == nil || len(loopX.Args) > 0 {
		return nil
	}
	var callee *review.Func
	for _, fn := range c.file.Funcs {
		if fn.Short == loopX.X.Name && (loopX.X.Kind == review.ExprIdent) == (fn.Recv == "") {
			if callee != nil {
				return nil
			}
			callee = fn
		}
	}
	if callee == nil {
		return nil
	}
	for _, s := range callee.Body {
		if s.Kind == review.StmtReturn && len(s.Rhs) == 1 && s.Rhs[0].Kind == review.ExprComposite && len(s.Rhs[0].Keys) == 0 {
			var elems []review.LoopElem
			for _, a := range s.Rhs[0].Args {
				elems = append(elems, review.LoopElem{Value: a})
			}
			return elems
		}
	}
	return nil
}

func paramIndex(fn *review.Func, name string) int {
	for i, p := range fn.Params {
		if p == name {
			return i
		}
	}
	return -1
}

// regHelper is a function of the file that registers its parameter.
type regHelper struct {
	fn      *review.Func
	param   int
	kind    review.DefKind
	factory string
}

// helperCalls registers the arguments of every call of a registering
// helper in this file; a call inside a loop over a value computed at run
// time (a package scanned with importlib) is listed as unresolved.
func (c *converter) helperCalls() {
	if len(c.helpers) == 0 {
		return
	}
	for _, fn := range c.file.Funcs {
		review.EachCall(fn.Body, func(x *review.Expr) {
			for _, h := range c.helpers {
				if x.X == nil || x.X.Kind != review.ExprIdent || x.X.Name != h.fn.Short || h.fn.Recv != "" {
					continue
				}
				arg := x.Arg(h.param)
				if arg == nil {
					continue
				}
				if arg.Kind == review.ExprIdent && arg.Ref == "" {
					if elems, _, ok := c.rangeOf(fn, x.Pos, arg.Name); ok {
						for _, el := range elems {
							c.register(fn, x, h.kind, el.Value, "", nil, h.factory)
						}
						continue
					}
					if over := review.LoopOver(fn.Body, x.Pos, arg.Name); over != nil {
						c.file.Registrations = append(c.file.Registrations, review.Registration{Kind: h.kind, Pos: x.Pos, File: c.file, Caller: fn,
							Name: strings.Join(strings.Fields(over.Text), " "), Unresolved: review.ReasonRuntime})
						continue
					}
				}
				c.register(fn, x, h.kind, arg, "", nil, h.factory)
			}
		})
	}
}

func (c *converter) register(caller *review.Func, x *review.Expr, kind review.DefKind, ref *review.Expr, name string, nameRef *review.Expr, factory string) {
	if ref == nil {
		return
	}
	r := review.Registration{Kind: kind, Pos: x.Pos, File: c.file, Caller: caller, NameRef: nameRef, Factory: factory}
	switch ref.Kind {
	case review.ExprIdent:
		r.Func = ref.Name
		if ref.Ref != "" {
			r.Func = ref.Ref
		}
		r.Name = ref.Name
		if i := strings.LastIndexByte(r.Func, '.'); i >= 0 && name == "" {
			r.Name = r.Func[i+1:]
		}
		// A definition nested in the registering function, or a variable
		// holding a factory's result (wf = make_flow(cfg)).
		if ref.Ref == "" {
			lit := review.Assigned(caller.Body, nil, ref.Name)
			switch {
			case lit != nil && lit.Kind == review.ExprFunc:
				if fn := c.nested[lit]; fn != nil {
					r.Inline = fn
				}
			case lit != nil && lit.Kind == review.ExprCall && lit.X != nil && r.Factory == "":
				r.Factory = c.refName(lit.X)
			}
		}
	case review.ExprAttr:
		// A bound method of an object made elsewhere: the module's only
		// method of that name.
		r.Func, r.Name = "?."+ref.Name, ref.Name
		if ref.Ref != "" {
			r.Func = ref.Ref
		}
	default:
		if factory == "" {
			return
		}
	}
	if name != "" {
		r.Name = name
	}
	if nameRef != nil {
		r.Name = ""
	}
	c.file.Registrations = append(c.file.Registrations, r)
}

func (c *converter) callSite(caller *review.Func, x *review.Expr, child bool) review.CallSite {
	cs := review.CallSite{Child: child, Pos: x.Pos, Caller: caller}
	target := x.Arg(0)
	if target == nil {
		target = x.Keyword("activity")
		if child {
			target = x.Keyword("workflow")
		}
	}
	switch target.Kind {
	case review.ExprString:
		cs.Target, cs.ByName = target.Str, true
	case review.ExprIdent:
		cs.Target = target.Name
		if target.Ref != "" {
			cs.Target = target.Ref
		}
	case review.ExprAttr:
		cs.Target = target.Text
		if target.Ref != "" {
			cs.Target = target.Ref
		}
	}
	cs.Input = x.Keyword("input")
	if cs.Input == nil && len(x.Args) > 1 {
		cs.Input = x.Arg(1)
	}
	cs.InstanceID = x.Keyword("instance_id")
	if p := x.Keyword("retry_policy"); p != nil && p.Text != "None" {
		cs.Policy = p
		switch p.Kind {
		case review.ExprIdent, review.ExprAttr:
			cs.PolicyID = p.Text
		default:
			cs.PolicyID = strings.Join(strings.Fields(p.Text), " ")
		}
	}
	return cs
}
