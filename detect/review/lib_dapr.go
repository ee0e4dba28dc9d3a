package review

import "strings"

// The Dapr SDKs (python-sdk with dapr-ext-workflow, go-sdk, dotnet-sdk):
// pub/sub, state and the workflow contexts' ids. A publish with no
// deterministic id publishes a duplicate; a state save to a key is a
// whole value to a key (idempotent), conditional with an etag or
// first-write concurrency; a state read, changed and saved back to its
// key is a read-modify-write (counter.go).
func libDapr() library {
	const dup = "publishes a duplicate"
	const etag = "the store refuses a save whose etag no longer matches, or a second first write"
	conditional := func(c *libCall) bool { return stateConditional(c.Expr) }
	return library{
		name: "Dapr",
		source: "dapr/python-sdk v1.16 (dapr/clients/grpc/client.py: save_state, get_state, publish_event; ext/dapr-ext-workflow workflow_activity_context.py), " +
			"dapr/go-sdk v1.13 (client/state.go: SaveState, SaveStateWithETag; workflow/activity_context.go), dapr/dotnet-sdk v1.18.5 (DaprClient: SaveStateAsync, TrySaveStateAsync; WorkflowActivityContext.TaskExecutionKey)",
		modules: map[Lang][]string{
			LangPython: {"dapr", "durabletask"},
			LangGo:     {"github.com/dapr/"},
			LangCSharp: {"Dapr"},
		},
		rows: []api{
			// .NET.
			{lang: LangCSharp, methods: []string{"PublishEventAsync", "BulkPublishEventAsync", "PublishByteEventAsync"}, kind: effPublish, what: "publish ({m})", twice: dup,
				refuses: "the subscriber drops a repeated CloudEvent id"},
			{lang: LangCSharp, methods: []string{"TrySaveStateAsync"}, kind: effGuard, what: "state save with an etag ({m})", refuses: etag, key: arg(1, "key")},
			{lang: LangCSharp, methods: []string{"TrySaveAsync", "TrySaveByteStateAsync"}, kind: effGuard, what: "state save with an etag ({m})", refuses: etag},
			{lang: LangCSharp, methods: []string{"SaveStateAsync"}, when: conditional, kind: effGuard, what: "state save with an etag or first-write concurrency ({m})", refuses: etag, key: arg(1, "key")},
			{lang: LangCSharp, methods: []string{"SaveBulkStateAsync", "ExecuteStateTransactionAsync", "SaveByteStateAsync"}, when: conditional,
				kind: effGuard, what: "state save with an etag or first-write concurrency ({m})", refuses: etag},
			{lang: LangCSharp, methods: []string{"SaveStateAsync"}, kind: effIdempotent, what: "state save ({m})", key: arg(1, "key"), store: arg(0, "storeName"), value: arg(2, "value")},
			{lang: LangCSharp, methods: []string{"SaveBulkStateAsync", "ExecuteStateTransactionAsync", "SaveByteStateAsync"}, kind: effIdempotent, what: "state save ({m})"},
			{lang: LangCSharp, methods: []string{"DeleteStateAsync", "TryDeleteStateAsync"}, kind: effIdempotent, what: "{m}"},
			{lang: LangCSharp, methods: []string{"GetStateAsync", "GetStateAndETagAsync"}, kind: effRead, what: "{m}", key: arg(1, "key"), store: arg(0, "storeName")},
			{lang: LangCSharp, methods: []string{"GetBulkStateAsync", "GetStateEntryAsync", "GetByteStateAsync"}, kind: effRead, what: "{m}"},
			{lang: LangCSharp, attr: true, methods: []string{"TaskExecutionKey"}, kind: kindAttemptID,
				what: "the task execution id, which the .NET SDK makes anew for every retry (each attempt is scheduled as a new task)"},
			// Python and Go.
			{methods: []string{"publish_event", "PublishEvent", "PublishEventfromCustomContent", "PublishEvents", "publish_events"}, kind: effPublish, what: "publish ({m})", twice: dup,
				refuses: "the subscriber drops a repeated CloudEvent id"},
			{methods: []string{"SaveStateWithETag"}, kind: effGuard, what: "state save with an etag or first-write concurrency ({m})", refuses: etag, key: arg(2, "")},
			{methods: []string{"save_state"}, when: conditional, kind: effGuard, what: "state save with an etag or first-write concurrency ({m})", refuses: etag, key: arg(1, "key")},
			{methods: []string{"SaveState"}, when: conditional, kind: effGuard, what: "state save with an etag or first-write concurrency ({m})", refuses: etag, key: arg(2, "")},
			{methods: []string{"SaveBulkState", "save_bulk_state"}, when: conditional, kind: effGuard, what: "state save with an etag or first-write concurrency ({m})", refuses: etag},
			{methods: []string{"save_state"}, kind: effIdempotent, what: "state save ({m})", key: arg(1, "key"), store: arg(0, "store_name"), value: arg(2, "value")},
			{methods: []string{"SaveState"}, kind: effIdempotent, what: "state save ({m})", key: arg(2, ""), store: arg(1, ""), value: arg(3, "")},
			{methods: []string{"save_bulk_state", "SaveBulkState", "execute_state_transaction", "ExecuteStateTransaction"}, kind: effIdempotent, what: "state save ({m})"},
			{methods: []string{"get_state"}, kind: effRead, what: "{m}", key: arg(1, "key"), store: arg(0, "store_name")},
			{methods: []string{"GetState"}, kind: effRead, what: "{m}", key: arg(2, ""), store: arg(1, "")},
			{methods: []string{"GetBulkState", "get_bulk_state"}, kind: effRead, what: "{m}"},

			// The activity context's ids (on the activity's context
			// parameter): the per-attempt scheduling id, and the calling
			// workflow's instance id.
			{methods: []string{"GetTaskID"}, kind: kindAttemptID, what: "the per-attempt scheduling id"},
			{attr: true, methods: []string{"task_id", "TaskId", "TaskID"}, kind: kindAttemptID, what: "the per-attempt scheduling id"},
			{attr: true, methods: []string{"workflow_id", "orchestration_id", "InstanceId", "WorkflowId"}, kind: kindWorkflowID, what: "the calling workflow's instance id"},
			// A workflow context's own instance id.
			{attr: true, methods: []string{"instance_id", "InstanceId", "ID", "InstanceID"}, kind: kindInstanceID, what: "the workflow's own instance id"},

			// Service invocation: the verb decides; a POST does what the
			// called app's handler does (routes.go).
			{lang: LangCSharp, methods: []string{"InvokeMethodAsync", "InvokeMethodWithResponseAsync", "CreateInvokeMethodRequest", "InvokeMethodGrpcAsync"},
				decide: invokeDotnet, twice: "calls the other app's handler again"},
			{lang: LangPython, methods: []string{"invoke_method"}, decide: invokePython, twice: "calls the other app's handler again"},
			{lang: LangGo, methods: []string{"InvokeMethod", "InvokeMethodWithContent", "InvokeMethodWithCustomContent"}, decide: invokeGo, twice: "calls the other app's handler again"},
			// Actor calls: a method whose name reads is a read; any other
			// changes the actor's state again on a second run.
			{lang: LangGo, methods: []string{"InvokeActor"}, decide: func(c *libCall, e *effect) bool {
				req := c.Arg(1)
				if req != nil && req.Kind == ExprUnary {
					req = req.X
				}
				if req == nil {
					return false
				}
				return actorEffect(e, keyValue(req, "ActorType"), keyValue(req, "Method"))
			}, twice: "runs the actor's method again"},
			// Output bindings: the operation decides; a create sends through
			// the binding (an email, an SMS, a queue message, an HTTP call).
			{lang: LangCSharp, methods: []string{"InvokeBindingAsync"}, decide: func(c *libCall, e *effect) bool { return bindingEffect(c, e, c.Arg(0), c.Arg(1)) },
				twice: "sends it through the binding again"},
			{lang: LangPython, methods: []string{"invoke_binding"}, decide: func(c *libCall, e *effect) bool {
				return bindingEffect(c, e, callArgOrKw(c.Expr, 0, "binding_name"), callArgOrKw(c.Expr, 1, "operation"))
			}, twice: "sends it through the binding again"},
			{lang: LangGo, methods: []string{"InvokeBinding", "InvokeOutputBinding"}, decide: func(c *libCall, e *effect) bool {
				req := c.Arg(1)
				if req != nil && req.Kind == ExprUnary {
					req = req.X
				}
				if req == nil {
					return false
				}
				return bindingEffect(c, e, keyValue(req, "Name"), keyValue(req, "Operation"))
			}, twice: "sends it through the binding again"},

			{methods: []string{"GetInput", "get_input", "GetTaskID", "GetTaskExecutionID", "get_inner_context", "Context", "GetTraceContext", "get_propagated_history"}, kind: kindNeutral},
		},
	}
}

// invokeEffect fills a service invocation's effect from its verb and the
// called method's name: GET reads, PUT and DELETE are idempotent, any
// other (POST, the default) calls a handler (routes.go).
func invokeEffect(c *libCall, e *effect, verb string, app, method *Expr) bool {
	name := urlText(method, nil)
	target := strings.Trim(urlText(app, nil), "\"") + "/" + strings.TrimPrefix(name, "/")
	switch strings.ToUpper(verb) {
	case "GET", "HEAD":
		e.kind, e.what = effRead, "service invocation GET "+target
	case "PUT", "DELETE":
		e.kind, e.what = effIdempotent, "service invocation "+strings.ToUpper(verb)+" "+target
	default:
		e.kind, e.what = effPost, "service invocation POST "+target
	}
	e.twice = "calls the other app's handler again"
	e.invokePath = name
	return true
}

// verbOf is an HTTP method argument's verb: HttpMethod.Post, "post".
func verbOf(x *Expr) string {
	if x == nil {
		return ""
	}
	switch x.Kind {
	case ExprString:
		return x.Str
	case ExprAttr, ExprIdent:
		if strings.HasPrefix(x.Text, "HttpMethod.") || strings.HasPrefix(x.Ref, "System.Net.Http.HttpMethod") || strings.HasPrefix(x.Ref, "net/http.Method") {
			return strings.TrimPrefix(x.Name, "Method")
		}
	}
	return ""
}

// actorEffect fills an actor call's effect from its method's name: a
// name that reads (Get…, List…) reads; any other runs the method, which
// changes the actor's state, again on a second run.
func actorEffect(e *effect, actorType, method *Expr) bool {
	m := strings.Trim(urlText(method, nil), "\"")
	what := "actor call " + strings.Trim(urlText(actorType, nil), "\"") + "." + m
	if actorType == nil {
		what = "actor call " + m
	}
	if classifyByName(m) == effRead {
		e.kind, e.what = effRead, what
		return true
	}
	e.kind, e.what, e.twice = effPost, what, "runs the actor's method again"
	return true
}

// onActorProxy reports whether a call is made on an actor proxy
// (ActorProxy.Create(…), a variable named for an actor or proxy).
func onActorProxy(c *libCall) bool {
	return textHas(c.recv, "actor", "proxy")
}

// invokeDotnet: InvokeMethodAsync(HttpMethod.Post, appId, method, data)
// or InvokeMethodAsync(appId, method, data) (a POST); on an actor proxy,
// InvokeMethodAsync(method, data) calls the actor.
func invokeDotnet(c *libCall, e *effect) bool {
	if onActorProxy(c) {
		return actorEffect(e, nil, c.Arg(0))
	}
	if v := verbOf(c.Arg(0)); v != "" {
		return invokeEffect(c, e, v, c.Arg(1), c.Arg(2))
	}
	if c.Arg(1) == nil {
		return false // InvokeMethodWithResponseAsync(request): the request says
	}
	return invokeEffect(c, e, "POST", callArgOrKw(c.Expr, 0, "appId"), callArgOrKw(c.Expr, 1, "methodName"))
}

// invokePython: invoke_method(app_id, method_name, data, …, http_verb=…).
func invokePython(c *libCall, e *effect) bool {
	if onActorProxy(c) {
		return actorEffect(e, nil, callArgOrKw(c.Expr, 0, "method"))
	}
	verb := "POST"
	if v := c.Keyword("http_verb"); v != nil && v.Kind == ExprString {
		verb = v.Str
	}
	return invokeEffect(c, e, verb, callArgOrKw(c.Expr, 0, "app_id"), callArgOrKw(c.Expr, 1, "method_name"))
}

// invokeGo: InvokeMethod(ctx, appID, method, verb) and the WithContent
// forms.
func invokeGo(c *libCall, e *effect) bool {
	verb := verbOf(c.Arg(3))
	if verb == "" {
		verb = "POST"
	}
	return invokeEffect(c, e, verb, c.Arg(1), c.Arg(2))
}

// keyValue is a composite literal's keyed entry, or nil.
func keyValue(lit *Expr, key string) *Expr {
	for _, k := range lit.Keys {
		if k.Key == key {
			return k.Value
		}
	}
	return nil
}

// bindingEffect fills an output binding call's effect from its operation
// and its name's words: get and list read, delete is idempotent; a
// create (or any other operation) through an email or SMS binding sends
// a message, through any other binding (a queue, an HTTP endpoint) it
// publishes one, refused only by a message id in its metadata.
func bindingEffect(c *libCall, e *effect, name, op *Expr) bool {
	binding := strings.Trim(urlText(name, nil), "\"")
	operation := "create"
	if op != nil && op.Kind == ExprString {
		operation = strings.ToLower(op.Str)
	} else if op != nil && op.Kind != ExprString {
		operation = strings.ToLower(op.Text)
	}
	what := "output binding " + binding + " (" + operation + ")"
	lower := strings.ToLower(binding)
	switch {
	case operation == "get" || operation == "list" || strings.HasSuffix(operation, "get") || strings.HasSuffix(operation, "list"):
		e.kind, e.what = effRead, what
	case operation == "delete" || strings.HasSuffix(operation, "delete"):
		e.kind, e.what = effIdempotent, what
	case strings.Contains(lower, "mail") || strings.Contains(lower, "smtp") || strings.Contains(lower, "sendgrid"):
		e.kind, e.what, e.twice = effEmail, "email through "+what, "sends the email again"
	case strings.Contains(lower, "sms") || strings.Contains(lower, "twilio"):
		e.kind, e.what, e.twice = effEmail, "SMS through "+what, "sends the SMS again"
	default:
		e.kind, e.what, e.twice = effPublish, what, "sends a second message through the binding"
	}
	return true
}
