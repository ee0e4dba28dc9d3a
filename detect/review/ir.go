package review

// The language-neutral form every front-end turns its syntax tree into. The
// rules read only this, so each rule is written once for every language.
// It keeps what the rules need (calls with their resolved names and
// arguments, assignments, conditions, loops, returns and raises, string
// literals) and drops the rest.

// Lang is a source language twice reviews.
type Lang string

// Languages.
const (
	LangGo     Lang = "go"
	LangPython Lang = "python"
	LangCSharp Lang = "csharp"
)

// language is what twice knows of a language besides its front-end (a
// package of its own, listed in detect/review/langs): its name as people
// write it and its files' extension.
type language struct {
	lang  Lang
	title string
	ext   string
}

// languages are the languages twice reviews, in the order a report lists
// them. Adding a language is its line here, its front-end package and
// its line in langs.Options (docs/architecture.md).
var languages = [...]language{
	{LangGo, "Go", ".go"},
	{LangPython, "Python", ".py"},
	{LangCSharp, "C#", ".cs"},
}

// Langs returns the languages twice reviews, in the order a report lists
// them.
func Langs() []Lang {
	out := make([]Lang, len(languages))
	for i, l := range languages {
		out[i] = l.lang
	}
	return out
}

// lookup returns what twice knows of l.
func (l Lang) lookup() (language, bool) {
	for _, x := range languages {
		if x.lang == l {
			return x, true
		}
	}
	return language{}, false
}

// Title is the language's name as people write it: Go, Python, C#.
func (l Lang) Title() string {
	if x, ok := l.lookup(); ok {
		return x.title
	}
	return string(l)
}

// Ext is the extension of the language's files: .go, .py, .cs ("" for a
// language twice does not review).
func (l Lang) Ext() string {
	x, _ := l.lookup()
	return x.ext
}

// Pos is a place in a file: 1-based line and column, the column counted in
// Unicode code points.
type Pos struct {
	Line int
	Col  int
}

// IsValid reports whether the position was set.
func (p Pos) IsValid() bool { return p.Line > 0 }

// ExprKind is what an expression is.
type ExprKind int8

// Expression kinds.
const (
	ExprOther ExprKind = iota
	// ExprIdent is a name: Name.
	ExprIdent
	// ExprAttr is X.Name (a selector, attribute or member access).
	ExprAttr
	// ExprCall is X(Args…, Keys…).
	ExprCall
	// ExprString is a string literal; Str is its value. An interpolated
	// string (f-string, template) has its literal parts in Str and its
	// holes in Args.
	ExprString
	// ExprNumber is a numeric literal; Str is its text.
	ExprNumber
	// ExprComposite is a list, tuple, set, map, dict or struct literal:
	// elements in Args, keyed entries in Keys; Name is the type, if any.
	ExprComposite
	// ExprBinary is Args[0] Op Args[1].
	ExprBinary
	// ExprUnary is Op X (including Go's & and *, await, not).
	ExprUnary
	// ExprIndex is X[Args[0]].
	ExprIndex
	// ExprFunc is a function literal or lambda; Body holds its statements.
	ExprFunc
)

// Expr is one expression.
type Expr struct {
	Kind ExprKind
	Pos  Pos
	// Text is the expression's source, cut to a few hundred bytes.
	Text string
	// Name: an identifier's name, an attribute's or a call's last name
	// (the method), a composite's type.
	Name string
	// X: an attribute's object, a call's function, an index's collection,
	// a unary's operand.
	X *Expr
	// Args: a call's positional arguments, a composite's elements, a
	// binary's two operands, an interpolated string's holes, an index.
	Args []*Expr
	// Keys: a call's keyword arguments, a composite's keyed entries.
	Keys []KeyValue
	// Str is a string literal's value or a number's text.
	Str string
	// Op is a binary or unary operator.
	Op string
	// Ref is the qualified name an identifier, attribute or call's
	// function resolves to through the file's imports ("uuid.uuid4",
	// "github.com/google/uuid.New"), "" when it is not rooted at an
	// import.
	Ref string
	// Body is a function literal's statements.
	Body []*Stmt
	// Type is the expression's static type when the front-end knows it
	// from a declaration and no import Ref already names it: a variable's
	// or field's declared type, this, a created object's type, a static
	// class named in a call. It is a type of the reviewed tree or one twice
	// does not know, as written ("Gateway", "billing.Client" qualified to
	// "example.com/shop/billing.Client"). The analysis follows a call
	// x.M() into the tree through x's type.
	Type string
}

// KeyValue is a keyword argument or a keyed composite entry. Key is the
// keyword, field name or literal key; KeyExpr the key when it is not a
// plain name or literal.
type KeyValue struct {
	Key     string
	KeyExpr *Expr
	Value   *Expr
}

// StmtKind is what a statement is.
type StmtKind int8

// Statement kinds.
const (
	StmtOther StmtKind = iota
	// StmtAssign: Lhs Op Rhs (Op "=", ":=", "+=", …; a declaration with a
	// value is an assignment).
	StmtAssign
	// StmtExpr: X on its own (usually a call).
	StmtExpr
	// StmtIf: if X { Body } else { Else }.
	StmtIf
	// StmtLoop: for/while; X is the condition or the iterated value.
	StmtLoop
	// StmtReturn: return Rhs….
	StmtReturn
	// StmtRaise: raise/throw X, or Go's panic.
	StmtRaise
	// StmtTry: try { Body } handlers { Handlers… } else { Else } finally { Finally }.
	StmtTry
	// StmtBlock: a nested block (with, using, defer, go, a bare block):
	// X is its header expression, if any.
	StmtBlock
	// StmtBreak and StmtContinue leave or restart a loop.
	StmtBreak
	StmtContinue
)

// Stmt is one statement.
type Stmt struct {
	Kind StmtKind
	Pos  Pos
	Lhs  []*Expr
	Rhs  []*Expr
	Op   string
	X    *Expr
	Body []*Stmt
	Else []*Stmt
	// Handlers are a try's exception handlers; Catches what each catches
	// (its exception types and filter, as written; nil: everything).
	Handlers [][]*Stmt
	Catches  []*Expr
	Finally  []*Stmt
}

// Func is a function or method.
type Func struct {
	// Name is how the function is called in its module: "ChargeCard",
	// "charge_card"; a method adds its type: "Service.Charge".
	Name string
	// Short is the name alone ("Charge").
	Short string
	// Recv is a method's type or class ("" for a plain function).
	Recv string
	// Params are the parameter names, in order.
	Params []string
	// Result is the type the function returns first, as written, when it
	// is a named type ("*Gateway" → "Gateway"): a variable made by
	// calling it has that type.
	Result string
	// Returns is the declared return type as written, generic arguments
	// and all ("Task<IEnumerable<Row>>", "list[dict]"; "" when none).
	Returns string
	Pos     Pos
	Body    []*Stmt
	// Decorators are a Python function's decorators, or C# attributes.
	Decorators []*Expr
	// File is the file that defines it.
	File *File
}

// Registration is a place where the source tells the engine an activity
// or workflow's name.
type Registration struct {
	// Name is the registered name, as the engine and the history show it.
	Name string
	// Kind is KindActivity or KindWorkflow.
	Kind DefKind
	// Func names the function registered: a local name ("charge_card",
	// "Service.Charge") or a qualified one through an import
	// ("activities.charge_card", "example.com/shop/activities.ChargeCard").
	Func string
	// Inline is a function literal registered in place.
	Inline *Func
	// Factory names a function whose call made the registered value
	// (newChargeActivity(deps), with_io(charge)): when Func does not name
	// a function of the tree, the closure Factory returns is registered.
	Factory string
	// NameRef is the name argument when it is not a literal (a constant,
	// maybe in another file or module; an expression the code computes):
	// the analysis resolves it, writing a part it cannot know as {…}.
	NameRef *Expr
	// Param, when set, says the registered function is the caller's
	// parameter of that number (1-based): a helper that registers what it
	// is given (MapActivity(fn)); each call of the helper in the tree
	// registers its argument.
	Param int
	// LoopVar and LoopValue bind the loop variable of a registration made
	// in a loop to this element, for evaluating NameRef.
	LoopVar   string
	LoopValue *Expr
	// Unresolved, when set, says why the registered function cannot be
	// known statically ("registered through run-time discovery"); the
	// registration is listed as unresolved with that reason.
	Unresolved string
	// Pos is the registration's place; File its file; Caller the
	// function that makes it (nil for a type the SDK finds itself).
	Pos    Pos
	File   *File
	Caller *Func
	// Implicit is set when no call registers it: the SDK finds it by its
	// type (Dapr.Workflow's source generator registers every class that
	// derives WorkflowActivity<,> under its name). A call that registers
	// the same function wins.
	Implicit bool
}

// DefKind says what a registration registers.
type DefKind int8

// Registration kinds.
const (
	KindActivity DefKind = 1
	KindWorkflow DefKind = 2
)

// CallSite is an orchestrator's call of an activity or child workflow.
type CallSite struct {
	// Target is the called activity or workflow's registered name when the
	// call names it by string, else the function reference as Func in
	// Registration.
	Target string
	// ByName is set when Target is a string name.
	ByName bool
	// Child is set for a child-workflow call.
	Child bool
	// Policy is the retry policy argument (nil: none).
	Policy *Expr
	// PolicyID identifies the policy value: a variable's name, or the
	// literal's text. Two call sites with one PolicyID share one policy.
	PolicyID string
	// PolicyHasPredicate is set when the policy sets an error predicate
	// (durabletask-go's Handle).
	PolicyHasPredicate bool
	// PredicateSupported says whether the SDK's policy type can carry a
	// predicate at all (false: dapr-ext-workflow's RetryPolicy).
	PredicateSupported bool
	// Input is the input argument (nil: none).
	Input *Expr
	// InstanceID is a child workflow's instance id argument (nil: none).
	InstanceID *Expr
	Pos        Pos
	// Caller is the function making the call.
	Caller *Func
}

// HTTPRetry is an HTTP client configured to retry each request itself.
type HTTPRetry struct {
	// Scope is the clients it applies to: "" every client of the app
	// (ConfigureHttpClientDefaults), a type name (the typed client of
	// AddHttpClient<T>), or "name:x" (the named client AddHttpClient("x")).
	Scope string
	// Call is the configuring call's name (AddStandardResilienceHandler).
	Call string
	Pos  Pos
	File *File
}

// File is one parsed source file.
type File struct {
	// Path is the file's path as found under the reviewed root, with
	// forward slashes.
	Path string
	Lang Lang
	// Package identifies the module the file belongs to: Go's import path
	// (or directory), Python's dotted module name.
	Package string
	// Imports maps a local name to the qualified name it stands for:
	// "u" → "github.com/google/uuid", "mk" → "uuid.uuid4".
	Imports map[string]string
	// OpenImports are namespaces imported whole (C#'s using directives):
	// a type name the file does not define may be declared in any of them.
	OpenImports []string
	// Types are the classes, structs, records and interfaces the file
	// declares, with their base types (C#), so a call on an interface
	// can be followed into its one implementation.
	Types []TypeDecl
	Funcs []*Func
	// Globals are the file's top-level assignments (a package-level or
	// module-level retry policy, a client).
	Globals []*Stmt
	// Registrations and CallSites, wherever they appear in the file.
	Registrations []Registration
	CallSites     []CallSite
	// HTTPRetries are HTTP clients the file configures to retry inside
	// every call (.NET's AddStandardResilienceHandler and Polly handlers).
	HTTPRetries []HTTPRetry
	// RuntimeDiscovery is set when the file finds code at run time
	// (Python's importlib.import_module, pkgutil.iter_modules,
	// inspect.getmembers): the functions of its folder with an activity's
	// signature are reviewed as inferred activities.
	RuntimeDiscovery bool
	// Build names the build configuration whose code was reviewed when
	// the file compiles differently per configuration (C#'s #if DEBUG):
	// "Release", the code that runs in production; "" when the file has
	// no conditional compilation.
	Build string
	// Lines is the number of lines.
	Lines int
	// Src is the file's bytes (for excerpts).
	Src []byte
	// PredicateSupported says whether this file's SDK retry policy type
	// has an error predicate (Go durabletask-go workflow: yes; Go
	// go-sdk workflow and Python dapr-ext-workflow: no).
	PredicateSupported bool
}

// TypeDecl is a type the file declares.
type TypeDecl struct {
	// Name is the type's simple name; Bases its base class and the
	// interfaces it implements, as written (generic arguments dropped).
	Name      string
	Bases     []string
	Interface bool
	// Fields maps a field or property to its declared type, as written
	// (pointers and generic arguments dropped).
	Fields map[string]string
	// Methods are an interface's method names (Go: its implementations
	// are the types that have them all).
	Methods []string
	// Abstract is set for an abstract class.
	Abstract bool
	Pos      Pos
}

// Walk calls fn for every statement in stmts and in their nested blocks
// and function literals, in source order; fn returning false skips a
// statement's children.
func Walk(stmts []*Stmt, fn func(*Stmt) bool) {
	for _, s := range stmts {
		if s == nil || !fn(s) {
			continue
		}
		Walk(s.Body, fn)
		Walk(s.Else, fn)
		for _, h := range s.Handlers {
			Walk(h, fn)
		}
		Walk(s.Finally, fn)
	}
}

// EachCall calls fn for every call in the statements, in source order,
// outermost first, including the calls inside function literals and
// lambdas (a registration or call site made in a callback).
func EachCall(stmts []*Stmt, fn func(*Expr)) {
	Walk(stmts, func(s *Stmt) bool {
		for _, e := range s.StmtExprs() {
			e.Exprs(func(x *Expr) bool {
				if x.Kind == ExprFunc {
					EachCall(x.Body, fn)
					return false
				}
				if x.Kind == ExprCall {
					fn(x)
				}
				return true
			})
		}
		return true
	})
}

// Exprs calls fn for the expression and every sub-expression, outermost
// first; fn returning false skips its children. Function literals' bodies
// are not entered.
func (e *Expr) Exprs(fn func(*Expr) bool) {
	if e == nil || !fn(e) {
		return
	}
	e.X.Exprs(fn)
	for _, a := range e.Args {
		a.Exprs(fn)
	}
	for _, k := range e.Keys {
		k.KeyExpr.Exprs(fn)
		k.Value.Exprs(fn)
	}
}

// StmtExprs returns the statement's own expressions (not its nested
// statements').
func (s *Stmt) StmtExprs() []*Expr {
	out := make([]*Expr, 0, len(s.Lhs)+len(s.Rhs)+1)
	out = append(out, s.Lhs...)
	out = append(out, s.Rhs...)
	if s.X != nil {
		out = append(out, s.X)
	}
	return out
}

// Calls returns every call inside the expression, outermost first.
func (e *Expr) Calls() []*Expr {
	var out []*Expr
	e.Exprs(func(x *Expr) bool {
		if x.Kind == ExprCall {
			out = append(out, x)
		}
		return true
	})
	return out
}

// Method is a call's method or function name (the last name of its
// function expression).
func (e *Expr) Method() string {
	if e == nil || e.Kind != ExprCall || e.X == nil {
		return ""
	}
	return e.X.Name
}

// Receiver is a call's receiver expression (nil for a plain function
// call).
func (e *Expr) Receiver() *Expr {
	if e == nil || e.Kind != ExprCall || e.X == nil || e.X.Kind != ExprAttr {
		return nil
	}
	return e.X.X
}

// Keyword returns a call's keyword argument (or a composite's entry) by
// name, or nil.
func (e *Expr) Keyword(name string) *Expr {
	if e == nil {
		return nil
	}
	for _, k := range e.Keys {
		if k.Key == name {
			return k.Value
		}
	}
	return nil
}

// Arg returns the i-th positional argument, or nil.
func (e *Expr) Arg(i int) *Expr {
	if e == nil || i < 0 || i >= len(e.Args) {
		return nil
	}
	return e.Args[i]
}

// Idents returns the names of every identifier in the expression.
func (e *Expr) Idents() []string {
	var out []string
	e.Exprs(func(x *Expr) bool {
		if x.Kind == ExprIdent {
			out = append(out, x.Name)
		}
		return true
	})
	return out
}

// Strings returns the values of every string literal in the expression,
// in order.
func (e *Expr) Strings() []string {
	var out []string
	e.Exprs(func(x *Expr) bool {
		if x.Kind == ExprString {
			out = append(out, x.Str)
		}
		return true
	})
	return out
}
