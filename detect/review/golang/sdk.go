package golang

import (
	"go/ast"
	"go/parser"
	"strings"

	"github.com/twice-cli/twice/detect/review"
)

// sdk finds the file's registrations and orchestrator call sites.
//
// The names follow the SDKs as read at these tags:
//   - github.com/dapr/go-sdk v1.13.0, workflow/worker.go, context.go,
//     activity_context.go: (*WorkflowWorker).RegisterActivity and
//     RegisterWorkflow take the function and register it under the last
//     dot-separated element of its runtime name; CallActivity(activity,
//     ActivityInput(x), ActivityRetryPolicy(RetryPolicy{…})); RetryPolicy
//     has no error predicate.
//   - github.com/dapr/durabletask-go v0.14.0, workflow/registry.go,
//     activity.go, api/helpers/task.go: AddActivity/AddWorkflow (the same
//     naming), AddActivityN/AddWorkflowN(name, fn); CallActivity(activity,
//     WithActivityInput(x), WithActivityRetryPolicy(&RetryPolicy{…}));
//     RetryPolicy.Handle is an error predicate. go-sdk v1.14 uses this
//     package.
func (c *converter) sdk(f *review.File) {
	for _, fn := range f.Funcs {
		review.EachCall(fn.Body, func(x *review.Expr) { c.call(f, fn, x) })
	}
}

func (c *converter) call(f *review.File, caller *review.Func, x *review.Expr) {
	switch x.Method() {
	case "RegisterActivity", "AddActivity":
		c.register(f, caller, x, review.KindActivity, x.Arg(0), "")
	case "RegisterWorkflow", "AddWorkflow":
		c.register(f, caller, x, review.KindWorkflow, x.Arg(0), "")
	case "AddActivityN", "RegisterActivityN":
		if n := x.Arg(0); n != nil {
			c.register(f, caller, x, review.KindActivity, x.Arg(1), n.Str)
		}
	case "AddWorkflowN", "RegisterWorkflowN":
		if n := x.Arg(0); n != nil {
			c.register(f, caller, x, review.KindWorkflow, x.Arg(1), n.Str)
		}
	case "CallActivity":
		if len(x.Args) > 0 {
			f.CallSites = append(f.CallSites, c.callSite(caller, x, false))
		}
	case "CallChildWorkflow", "CallSubOrchestrator":
		if len(x.Args) > 0 {
			f.CallSites = append(f.CallSites, c.callSite(caller, x, true))
		}
	}
}

// register records a registration of fnRef under name ("" : the name
// reflection gives the function).
func (c *converter) register(f *review.File, caller *review.Func, x *review.Expr, kind review.DefKind, ref *review.Expr, name string) {
	if ref == nil {
		return
	}
	// for _, a := range []any{ChargeCard, SendEmail} { w.RegisterActivity(a) }:
	// one registration per element.
	if ref.Kind == review.ExprIdent && ref.Ref == "" {
		if elems, keyVar, ok := review.RangeOf(caller.Body, f.Globals, x.Pos, ref.Name, true); ok {
			nameArg := x.Arg(0)
			for _, el := range elems {
				n, nameRef := name, (*review.Expr)(nil)
				if el.Key != nil && nameArg != nil && nameArg.Kind == review.ExprIdent && nameArg.Name == keyVar {
					if el.Key.Kind == review.ExprString {
						n = el.Key.Str
					} else {
						n, nameRef = "", el.Key
					}
				}
				c.registerNamed(f, caller, x, kind, el.Value, n, nameRef)
			}
			return
		}
	}
	var nameRef *review.Expr
	if n := x.Arg(0); name == "" && n != nil && n != ref && n.Kind != review.ExprString && strings.HasSuffix(x.Method(), "N") {
		nameRef = n // AddActivityN(activityCharge, …): a constant
	}
	c.registerNamed(f, caller, x, kind, ref, name, nameRef)
}

// registerNamed records one registration; nameRef, when set, is a name
// argument the analysis resolves (a constant).
func (c *converter) registerNamed(f *review.File, caller *review.Func, x *review.Expr, kind review.DefKind, ref *review.Expr, name string, nameRef *review.Expr) {
	r := review.Registration{Kind: kind, Pos: x.Pos, File: f, Caller: caller, NameRef: nameRef}
	if ref.Kind == review.ExprIdent && ref.Ref == "" && caller.Recv == "" {
		for i, p := range caller.Params {
			if p == ref.Name {
				r.Param, r.Func = i+1, ""
				f.Registrations = append(f.Registrations, r)
				return
			}
		}
	}
	if ref.Kind == review.ExprIdent && ref.Ref == "" {
		// act := NewChargeActivity(deps); r.AddActivity(act)
		if v := review.Assigned(caller.Body, nil, ref.Name); v != nil && v.Kind == review.ExprCall && v.X != nil {
			if fn, _ := c.funcRef(v.X, caller); fn != "" {
				r.Factory = fn
			}
		}
	}
	if ref.Kind == review.ExprCall && ref.X != nil {
		// A factory's result (NewChargeActivity(deps)): the closure it
		// returns. A wrapper's (withLogging(Charge)): the function wrapped,
		// when the tree has it.
		r.Factory, _ = c.funcRef(ref.X, caller)
		if a := ref.Arg(0); a != nil && (a.Kind == review.ExprIdent || a.Kind == review.ExprAttr) {
			r.Func, r.Name = c.funcRef(a, caller)
		}
		if r.Name == "" || strings.HasSuffix(r.Name, "-fm") {
			r.Name = ""
		}
	} else {
		r.Func, r.Name = c.funcRef(ref, caller)
	}
	if ref.Kind == review.ExprFunc {
		r.Inline = &review.Func{Name: r.Func, Short: r.Func, Pos: ref.Pos, Body: ref.Body, File: f}
	}
	if name != "" || nameRef != nil {
		r.Name = name
	}
	if r.Func == "" && r.Inline == nil && r.Factory == "" {
		return
	}
	f.Registrations = append(f.Registrations, r)
}

// funcRef returns how a function reference names its function in the
// package (or through an import) and the name the SDKs' reflection gives
// it: the last dot-separated element of its runtime name, which is
// "Name-fm" for a method value and "funcN" for a function literal.
func (c *converter) funcRef(ref *review.Expr, caller *review.Func) (fn, name string) {
	switch ref.Kind {
	case review.ExprIdent:
		return ref.Name, ref.Name
	case review.ExprAttr:
		if ref.Ref != "" {
			return ref.Ref, ref.Name
		}
		// A method value: x.Method. When x is a variable of a declared type
		// (acts := &Activities{…}; a parameter), that type's method;
		// else "?.Method" asks the resolver for the package's only method
		// of that name.
		if t := c.typeOfValue(ref.X, caller, 0); t != "" {
			return t + "." + ref.Name, ref.Name + "-fm"
		}
		return "?." + ref.Name, ref.Name + "-fm"
	case review.ExprString:
		return "", ref.Str
	case review.ExprFunc:
		return caller.Short + "." + ref.Name, ref.Name
	case review.ExprUnary:
		if ref.X != nil {
			return c.funcRef(ref.X, caller)
		}
	}
	return "", ""
}

// typeOfValue is the named type of a value that registers a method: a
// typed variable, &T{…} or T{…}, or a variable assigned one of them or
// the result of a function of the file that returns a named type
// (acts := NewActivities(db)).
func (c *converter) typeOfValue(e *review.Expr, caller *review.Func, depth int) string {
	if e == nil || depth > 3 {
		return ""
	}
	if e.Type != "" {
		return e.Type
	}
	switch e.Kind {
	case review.ExprUnary:
		return c.typeOfValue(e.X, caller, depth+1)
	case review.ExprComposite:
		return c.typeName(c.typeExpr(e.Name))
	case review.ExprIdent:
		if v := review.Assigned(caller.Body, c.file.Globals, e.Name); v != nil && v != e {
			return c.typeOfValue(v, caller, depth+1)
		}
	case review.ExprCall:
		if e.X != nil && e.X.Kind == review.ExprIdent {
			for _, fn := range c.file.Funcs {
				if fn.Name == e.X.Name && fn.Result != "" {
					return fn.Result
				}
			}
		}
	}
	return ""
}

// typeExpr parses a composite literal's type text back into a type
// expression ("" when it is not one).
func (c *converter) typeExpr(s string) ast.Expr {
	e, err := parser.ParseExpr(s)
	if err != nil {
		return nil
	}
	return e
}

func (c *converter) callSite(caller *review.Func, x *review.Expr, child bool) review.CallSite {
	cs := review.CallSite{Child: child, Pos: x.Pos, Caller: caller}
	target := x.Arg(0)
	if target.Kind == review.ExprString {
		cs.Target, cs.ByName = target.Str, true
	} else {
		cs.Target, _ = c.funcRef(target, caller)
	}
	for _, opt := range x.Args[1:] {
		if opt.Kind != review.ExprCall {
			continue
		}
		switch opt.Method() {
		case "ActivityInput", "WithActivityInput", "ActivityRawInput", "WithRawActivityInput",
			"ChildWorkflowInput", "WithChildWorkflowInput", "WithRawChildWorkflowInput",
			"WithSubOrchestratorInput", "WithRawSubOrchestratorInput", "WithRawActivityInputValue":
			cs.Input = opt.Arg(0)
		case "ChildWorkflowInstanceID", "WithChildWorkflowInstanceID", "WithSubOrchestrationInstanceID":
			cs.InstanceID = opt.Arg(0)
		case "ActivityRetryPolicy", "ChildWorkflowRetryPolicy":
			// go-sdk's workflow.RetryPolicy has no error predicate.
			cs.Policy = opt.Arg(0)
		case "WithActivityRetryPolicy", "WithChildWorkflowRetryPolicy", "WithSubOrchestrationRetryPolicy":
			cs.Policy, cs.PredicateSupported = opt.Arg(0), true
		}
	}
	if cs.Policy != nil {
		p := cs.Policy
		if p.Kind == review.ExprUnary && p.Op == "&" && p.X != nil {
			p = p.X
		}
		switch p.Kind {
		case review.ExprIdent:
			cs.PolicyID = p.Name
			cs.PolicyHasPredicate = policyHasHandle(caller, p.Name)
		case review.ExprAttr:
			cs.PolicyID = p.Text
		default:
			cs.PolicyID = strings.Join(strings.Fields(p.Text), " ")
			cs.PolicyHasPredicate = p.Keyword("Handle") != nil
		}
	}
	return cs
}

// policyHasHandle reports whether a policy variable assigned in the
// caller sets Handle (a package-level policy is looked up by the
// resolver, which sees every file).
func policyHasHandle(caller *review.Func, name string) bool {
	found := false
	review.Walk(caller.Body, func(s *review.Stmt) bool {
		if s.Kind != review.StmtAssign {
			return true
		}
		for i, l := range s.Lhs {
			if l.Kind == review.ExprIdent && l.Name == name && i < len(s.Rhs) {
				v := s.Rhs[i]
				if v.Kind == review.ExprUnary && v.X != nil {
					v = v.X
				}
				if v.Keyword("Handle") != nil {
					found = true
				}
			}
			if l.Kind == review.ExprAttr && l.Name == "Handle" && l.X != nil && l.X.Name == name {
				found = true
			}
		}
		return true
	})
	return found
}
