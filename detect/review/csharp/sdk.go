//go:build cgo

package csharp

import (
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/twice-cli/twice/detect/review"
)

// The names follow dapr/dotnet-sdk v1.18.5, as read at that tag:
//   - src/Dapr.Workflow.Abstractions/WorkflowActivity.cs and Workflow.cs:
//     an activity derives WorkflowActivity<TInput, TOutput> and overrides
//     RunAsync(WorkflowActivityContext context, TInput input); a workflow
//     derives Workflow<TInput, TOutput>.
//   - src/Dapr.Workflow.Abstractions/WorkflowRuntimeOptions.cs and
//     src/Dapr.Workflow/Worker/WorkflowsFactory.cs: RegisterActivity<T>(name
//     = null) registers T under name ?? typeof(T).Name;
//     RegisterActivity<TInput, TOutput>(name, implementation) registers a
//     function; the same for RegisterWorkflow.
//   - src/Dapr.Workflow.Versioning.Generators/WorkflowSourceGenerator.cs
//     (bundled in the Dapr.Workflow package): every class deriving
//     WorkflowActivity`2 or Workflow`2 is registered under its simple name
//     through WorkflowAutoRegistry, with no call in the code.
//   - src/Dapr.Workflow.Abstractions/WorkflowContext.cs and
//     WorkflowTaskOptions.cs: CallActivityAsync(name, input, options),
//     CallChildWorkflowAsync(workflowName, input, options);
//     WorkflowTaskOptions(RetryPolicy, TargetAppId, PropagationScope) and
//     ChildWorkflowTaskOptions(InstanceId, RetryPolicy, …).
//   - src/Dapr.Workflow.Abstractions/WorkflowRetryPolicy.cs: the policy
//     takes maxNumberOfAttempts, firstRetryInterval, backoffCoefficient,
//     maxRetryInterval and retryTimeout, and has no error predicate.
//   - src/Dapr.Workflow/Worker/Internal/WorkflowOrchestrationContext.cs
//     (CallActivityAsync): a retry policy is applied by the SDK, each attempt
//     scheduled as a new task with its own task execution id, and
//     src/Dapr.Workflow/Worker/WorkflowWorker.cs gives the activity that id
//     as WorkflowActivityContext.TaskExecutionKey: it differs per attempt.

// baseKind says whether a type derives WorkflowActivity<,> or Workflow<,>.
func baseKind(bases []string) review.DefKind {
	for _, b := range bases {
		switch strings.TrimPrefix(b, "Dapr.Workflow.") {
		case "WorkflowActivity":
			return review.KindActivity
		case "Workflow":
			return review.KindWorkflow
		}
	}
	return 0
}

// derives says whether bases reach WorkflowActivity<,> or Workflow<,>,
// through base classes the file declares (an abstract activity base).
func (c *converter) derives(bases []string, depth int) review.DefKind {
	if k := baseKind(bases); k != 0 || depth > 4 {
		return k
	}
	for _, b := range bases {
		if cl := c.classes[b]; cl != nil {
			if k := c.derives(cl.bases, depth+1); k != 0 {
				return k
			}
		}
	}
	return 0
}

// registration records RegisterActivity and RegisterWorkflow calls; n is
// the invocation, x its conversion.
func (c *converter) registration(n *sitter.Node, x *review.Expr) {
	var kind review.DefKind
	switch x.Name {
	case "RegisterActivity":
		kind = review.KindActivity
	case "RegisterWorkflow":
		kind = review.KindWorkflow
	default:
		return
	}
	var targs []string
	if fn := n.ChildByFieldName("function"); fn != nil && fn.Kind() == "member_access_expression" {
		if g := fn.ChildByFieldName("name"); g != nil && g.Kind() == "generic_name" {
			for _, ch := range named(g) {
				if ch.Kind() == "type_argument_list" {
					for _, t := range named(ch) {
						targs = append(targs, typeText(c, t))
					}
				}
			}
		}
	}
	r := review.Registration{Kind: kind, Pos: x.Pos, File: c.file}
	name := x.Keyword("name")
	if name == nil {
		name = x.Arg(0)
	}
	impl := x.Keyword("implementation")
	if impl == nil {
		impl = x.Arg(1)
	}
	switch {
	case len(targs) == 1 && impl == nil:
		// RegisterActivity<ReserveHotelActivity>() or …("name").
		t := targs[0]
		if a, ok := c.file.Imports[t]; ok {
			t = a
		}
		r.Name = t[strings.LastIndexByte(t, '.')+1:]
		r.Func = t + ".RunAsync"
	case impl != nil:
		switch impl.Kind {
		case review.ExprFunc:
			caller := "<main>"
			if c.fn != nil {
				caller = c.fn.Name
			}
			r.Func = caller + "." + impl.Name
			r.Inline = &review.Func{Name: r.Func, Short: impl.Name, Pos: impl.Pos, Body: impl.Body, File: c.file, Params: c.params[impl]}
		case review.ExprIdent:
			r.Func = impl.Name
			if cl := c.classWithMethod(impl.Name); cl != "" {
				r.Func = cl + "." + impl.Name
			}
		case review.ExprAttr:
			r.Func = impl.Text
			if impl.X != nil && impl.X.Kind == review.ExprIdent && impl.X.Name == "this" && c.cls != nil {
				r.Func = c.cls.name + "." + impl.Name
			}
		default:
			return
		}
	default:
		return
	}
	if name != nil && name.Kind == review.ExprString {
		r.Name = name.Str
	}
	if r.Name == "" {
		return
	}
	c.file.Registrations = append(c.file.Registrations, r)
}

// httpRetryHandlers are the IHttpClientBuilder extensions that make an
// HttpClient retry each request (Microsoft.Extensions.Http.Resilience's
// standard handler retries every method, POST included, by default;
// Microsoft.Extensions.Http.Polly's handlers run a Polly policy).
var httpRetryHandlers = map[string]bool{
	"AddStandardResilienceHandler": true, "AddStandardHedgingHandler": true, "AddResilienceHandler": true,
	"AddPolicyHandler": true, "AddTransientHttpErrorPolicy": true, "AddPolicyHandlerFromRegistry": true,
}

// httpRetry records a retrying HttpClient: for every client
// (ConfigureHttpClientDefaults), a typed client (AddHttpClient<T>) or a
// named one (AddHttpClient("name")).
func (c *converter) httpRetry(n *sitter.Node, x *review.Expr) {
	if !httpRetryHandlers[x.Name] {
		return
	}
	r := review.HTTPRetry{Call: x.Name, Pos: x.Pos, File: c.file}
	if !c.inDefaults {
		scope, ok := c.clientOf(n)
		if !ok {
			return
		}
		r.Scope = scope
	}
	c.file.HTTPRetries = append(c.file.HTTPRetries, r)
}

// clientOf finds the AddHttpClient call a handler is chained to and the
// client it configures: the typed client's type, or "name:" and its name.
func (c *converter) clientOf(n *sitter.Node) (string, bool) {
	for depth := 0; n != nil && depth < 8; depth++ {
		fn := n.ChildByFieldName("function")
		if fn == nil || fn.Kind() != "member_access_expression" {
			return "", false
		}
		name := fn.ChildByFieldName("name")
		if c.memberName(name) == "AddHttpClient" {
			if name.Kind() == "generic_name" {
				for _, ch := range named(name) {
					if ch.Kind() == "type_argument_list" {
						if ts := named(ch); len(ts) > 0 {
							return typeText(c, ts[len(ts)-1]), true
						}
					}
				}
			}
			if a := named(n.ChildByFieldName("arguments")); len(a) > 0 {
				if v := c.exprNoRaise(argValue(a[0])); v.Kind == review.ExprString {
					return "name:" + v.Str, true
				}
			}
			return "", false
		}
		n = fn.ChildByFieldName("expression")
		if n == nil || n.Kind() != "invocation_expression" {
			return "", false
		}
	}
	return "", false
}

// sdk records the classes the SDK registers by their type, and every
// orchestrator call site.
func (c *converter) sdk() {
	f := c.file
	for _, td := range f.Types {
		if td.Abstract || td.Interface {
			continue
		}
		if k := c.derives(td.Bases, 0); k != 0 {
			f.Registrations = append(f.Registrations, review.Registration{Name: td.Name, Kind: k, Func: td.Name + ".RunAsync", Pos: td.Pos, File: f, Implicit: true})
		}
	}
	for _, fn := range f.Funcs {
		review.EachCall(fn.Body, func(x *review.Expr) {
			switch x.Name {
			case "CallActivityAsync":
				f.CallSites = append(f.CallSites, c.callSite(fn, x, false))
			case "CallChildWorkflowAsync":
				f.CallSites = append(f.CallSites, c.callSite(fn, x, true))
			}
		})
	}
}

// callSite reads CallActivityAsync(name, input, options) or
// CallChildWorkflowAsync(workflowName, input, options).
func (c *converter) callSite(caller *review.Func, x *review.Expr, child bool) review.CallSite {
	cs := review.CallSite{Child: child, Pos: x.Pos, Caller: caller}
	target := x.Arg(0)
	for _, k := range []string{"name", "workflowName", "activityName"} {
		if target == nil {
			target = x.Keyword(k)
		}
	}
	switch {
	case target == nil:
	case target.Kind == review.ExprString:
		cs.Target, cs.ByName = target.Str, true
	case target.Kind == review.ExprIdent || target.Kind == review.ExprAttr:
		// A constant holding the name.
		if v := c.valueOf(caller, target); v != nil && v.Kind == review.ExprString {
			cs.Target, cs.ByName = v.Str, true
		} else {
			cs.Target, cs.ByName = target.Name, true
		}
	}
	cs.Input = x.Keyword("input")
	if cs.Input == nil {
		cs.Input = x.Arg(1)
	}
	opts := x.Keyword("options")
	if opts == nil {
		opts = x.Arg(2)
	}
	c.options(caller, opts, &cs)
	return cs
}

// options reads a WorkflowTaskOptions or ChildWorkflowTaskOptions value:
// its retry policy (and a child's instance id), following a variable or
// field to the value it was given.
func (c *converter) options(caller *review.Func, opts *review.Expr, cs *review.CallSite) {
	if opts == nil || opts.Kind == review.ExprIdent && opts.Name == "null" {
		return
	}
	id := ""
	v := opts
	if opts.Kind == review.ExprIdent || opts.Kind == review.ExprAttr && opts.X != nil && opts.X.Kind == review.ExprIdent && opts.X.Name == "this" {
		id = opts.Name
		v = c.valueOf(caller, opts)
	}
	if v == nil || v.Kind != review.ExprCall || v.Op != "new" {
		// A value built where twice cannot see: a policy when its name
		// says so.
		if id != "" && strings.Contains(strings.ToLower(id), "retry") {
			cs.Policy, cs.PolicyID = opts, id
		}
		return
	}
	child := v.Name == "ChildWorkflowTaskOptions"
	policy := v.Keyword("RetryPolicy")
	if policy == nil {
		if child {
			policy = v.Arg(1)
		} else {
			policy = v.Arg(0)
		}
	}
	if child {
		cs.InstanceID = v.Keyword("InstanceId")
		if cs.InstanceID == nil {
			cs.InstanceID = v.Arg(0)
		}
	}
	if policy == nil || policy.Kind == review.ExprIdent && policy.Name == "null" {
		return
	}
	cs.Policy = policy
	switch {
	case policy.Kind == review.ExprIdent || policy.Kind == review.ExprAttr:
		cs.PolicyID = policy.Name
	case id != "":
		cs.PolicyID = id
	default:
		cs.PolicyID = strings.Join(strings.Fields(policy.Text), " ")
	}
}

// valueOf is the value last assigned to a local of the caller, or a field
// of the file's classes (this.x or x).
func (c *converter) valueOf(caller *review.Func, e *review.Expr) *review.Expr {
	name := e.Name
	local := e.Kind == review.ExprIdent
	var found *review.Expr
	if local && caller != nil {
		review.Walk(caller.Body, func(s *review.Stmt) bool {
			if s.Kind == review.StmtAssign && s.Op == "=" {
				for i, l := range s.Lhs {
					if l.Kind == review.ExprIdent && l.Name == name && i < len(s.Rhs) {
						found = s.Rhs[i]
					}
				}
			}
			return true
		})
	}
	if found != nil {
		return found
	}
	for _, s := range c.file.Globals {
		for i, l := range s.Lhs {
			if l.Kind == review.ExprIdent && l.Name == name && i < len(s.Rhs) {
				found = s.Rhs[i]
			}
		}
	}
	return found
}
