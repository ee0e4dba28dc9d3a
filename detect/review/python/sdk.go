//go:build cgo

package python

import (
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
		for _, d := range fn.Decorators {
			kind, name := decoratorKind(d)
			if kind == 0 {
				continue
			}
			if name == "" {
				name = fn.Short
			}
			f.Registrations = append(f.Registrations, review.Registration{Name: name, Kind: kind, Func: fn.Name, Pos: d.Pos, File: f})
		}
		review.EachCall(fn.Body, func(x *review.Expr) { c.call(fn, x) })
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
	case "workflow":
		return review.KindWorkflow, name
	}
	return 0, ""
}

func (c *converter) call(caller *review.Func, x *review.Expr) {
	f := c.file
	switch x.Method() {
	case "register_activity", "add_activity":
		c.registerIn(caller, x, review.KindActivity, x.Arg(0), stringKw(x, "name"), x.Keyword("name"))
	case "register_workflow", "add_orchestrator":
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
// a literal list or dict (for fn in [charge, ship]: wfr.register_activity(fn)),
// each element; nameExpr is the name argument, which may be the loop's key.
func (c *converter) registerIn(caller *review.Func, x *review.Expr, kind review.DefKind, ref *review.Expr, name string, nameExpr *review.Expr) {
	if ref != nil && ref.Kind == review.ExprIdent && ref.Ref == "" {
		if elems, keyVar, ok := review.RangeOf(caller.Body, c.file.Globals, x.Pos, ref.Name, false); ok {
			for _, el := range elems {
				n := name
				if el.Key != nil && el.Key.Kind == review.ExprString && nameExpr != nil && nameExpr.Kind == review.ExprIdent && nameExpr.Name == keyVar {
					n = el.Key.Str
				}
				c.register(x, kind, el.Value, n)
			}
			return
		}
	}
	c.register(x, kind, ref, name)
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

func (c *converter) register(x *review.Expr, kind review.DefKind, ref *review.Expr, name string) {
	if ref == nil {
		return
	}
	r := review.Registration{Kind: kind, Pos: x.Pos, File: c.file}
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
	case review.ExprAttr:
		// A bound method of an object made elsewhere: the module's only
		// method of that name.
		r.Func, r.Name = "?."+ref.Name, ref.Name
		if ref.Ref != "" {
			r.Func = ref.Ref
		}
	default:
		return
	}
	if name != "" {
		r.Name = name
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
