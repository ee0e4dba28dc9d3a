//go:build cgo

package python

import (
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tspython "github.com/tree-sitter/tree-sitter-python/bindings/go"

	"github.com/twice-cli/twice/detect/review"
	"github.com/twice-cli/twice/detect/review/internal/tsconv"
)

// Available reports whether this build can parse Python, and why not.
func Available() (bool, string) { return true, "" }

// Parse parses one file.
func (Frontend) Parse(name string, src []byte) (*review.File, error) {
	tree, err := tsconv.Parse(tspython.Language(), src)
	if err != nil {
		return nil, err
	}
	defer tree.Close()
	root := tree.RootNode()
	c := &converter{Source: tsconv.NewSource(src)}
	f := &review.File{
		Path:    name,
		Lang:    review.LangPython,
		Package: moduleName(name),
		Imports: map[string]string{},
		Lines:   c.Idx.Lines(),
		Src:     src,
	}
	c.file = f
	c.nested = map[*review.Expr]*review.Func{}
	c.pkgBase = f.Package
	if !strings.HasSuffix(name, "/__init__.py") && name != "__init__.py" {
		c.pkgBase = ""
		if i := strings.LastIndexByte(f.Package, '.'); i >= 0 {
			c.pkgBase = f.Package[:i]
		}
	}
	c.imports(root)
	c.module(root)
	if err := c.nest.Err(); err != nil {
		return nil, err
	}
	if err := review.CheckNesting(f); err != nil {
		return nil, err
	}
	c.sdk()
	c.helperCalls()
	return f, nil
}

// moduleName turns a path into a dotted module name ("app/tasks.py" →
// "app.tasks"; a package's __init__.py is the package).
func moduleName(p string) string {
	p = strings.TrimSuffix(p, ".py")
	p = strings.TrimSuffix(p, "/__init__")
	p = strings.TrimPrefix(p, "./")
	for strings.HasPrefix(p, "../") {
		p = p[3:]
	}
	p = strings.TrimPrefix(p, "/")
	return strings.ReplaceAll(p, "/", ".")
}

type converter struct {
	tsconv.Source
	file *review.File
	// nest bounds the conversion's recursion (review.MaxNesting).
	nest review.Depth
	// class is the class whose body is being read.
	class string
	lits  int
	// self is the class of the method whose body is being read (self's
	// type); vars maps its annotated parameters to their types; fields
	// collects the class's attributes' types (self.x = Gateway(…), a
	// parameter annotated gateway: Gateway, a class-level x: T).
	self   string
	vars   map[string]string
	fields map[string]string
	// nested maps a nested definition's function literal to the function
	// it was read as (a def inside a def: registered by its decorator or
	// by name in the enclosing body).
	nested map[*review.Expr]*review.Func
	// pkgBase is the package a relative import starts from.
	pkgBase string
	// helpers are the file's functions that register their parameter.
	helpers []regHelper
}

// typeOf is an annotation's type, through Optional[T], T | None and
// quotes, qualified through the imports ("" for builtins and unions of
// several types).
func (c *converter) typeOf(n *sitter.Node) string {
	if n == nil {
		return ""
	}
	ok := c.enter(n)
	defer c.nest.Leave()
	if !ok {
		return ""
	}
	switch n.Kind() {
	case "type":
		if xs := named(n); len(xs) == 1 {
			return c.typeOf(xs[0])
		}
	case "identifier":
		name := c.text(n)
		switch name {
		case "str", "int", "float", "bool", "bytes", "dict", "list", "tuple", "set", "None", "Any", "object":
			return ""
		}
		if q, ok := c.file.Imports[name]; ok {
			return q
		}
		return name
	case "attribute":
		obj := c.typeOf(n.ChildByFieldName("object"))
		if obj == "" {
			return ""
		}
		return obj + "." + c.text(n.ChildByFieldName("attribute"))
	case "string":
		for _, ch := range named(n) {
			if ch.Kind() == "string_content" {
				return c.text(ch)
			}
		}
	case "generic_type", "subscript":
		// Optional[Gateway]
		xs := named(n)
		if len(xs) == 2 && (c.text(xs[0]) == "Optional" || strings.HasSuffix(c.text(xs[0]), ".Optional")) {
			return c.typeOf(xs[1])
		}
	case "type_parameter":
		if xs := named(n); len(xs) == 1 {
			return c.typeOf(xs[0])
		}
	case "binary_operator":
		// Gateway | None
		l, r := n.ChildByFieldName("left"), n.ChildByFieldName("right")
		if c.text(r) == "None" {
			return c.typeOf(l)
		}
	}
	return ""
}

// ctorType is the class a call constructs (Gateway(…), gateways.Gateway(…)):
// a callee whose last name is capitalised.
func ctorType(x *review.Expr) string {
	if x == nil || x.Kind != review.ExprCall || x.Name == "" || x.Name[0] < 'A' || x.Name[0] > 'Z' {
		return ""
	}
	if x.Ref != "" {
		return x.Ref
	}
	if x.X != nil {
		return x.X.Text
	}
	return ""
}

func (c *converter) text(n *sitter.Node) string { return c.Source.Text(n) }

func (c *converter) pos(n *sitter.Node) review.Pos { return c.Source.Pos(n) }

// enter counts one level of nesting down at n (review.Depth); the caller
// defers c.nest.Leave() and, on false, does not descend.
func (c *converter) enter(n *sitter.Node) bool {
	return c.nest.Enter(func() review.Pos { return c.pos(n) })
}

func named(n *sitter.Node) []*sitter.Node { return tsconv.Named(n) }

// imports reads every import statement, wherever it is (in any block,
// not inside expressions, which hold no statement).
func (c *converter) imports(root *sitter.Node) {
	var visit func(n *sitter.Node)
	visit = func(n *sitter.Node) {
		ok := c.enter(n)
		defer c.nest.Leave()
		if !ok {
			return
		}
		switch n.Kind() {
		case "import_statement":
			for _, ch := range named(n) {
				switch ch.Kind() {
				case "dotted_name":
					full := c.text(ch)
					first, _, _ := strings.Cut(full, ".")
					c.file.Imports[first] = first
				case "aliased_import":
					c.file.Imports[c.text(ch.ChildByFieldName("alias"))] = c.text(ch.ChildByFieldName("name"))
				}
			}
			return
		case "import_from_statement":
			mod := c.absModule(c.text(n.ChildByFieldName("module_name")))
			prefix := mod
			if !strings.HasSuffix(prefix, ".") {
				prefix += "."
			}
			for _, ch := range named(n) {
				if ch.Equals(*n.ChildByFieldName("module_name")) {
					continue
				}
				switch ch.Kind() {
				case "dotted_name":
					c.file.Imports[c.text(ch)] = prefix + c.text(ch)
				case "aliased_import":
					c.file.Imports[c.text(ch.ChildByFieldName("alias"))] = prefix + c.text(ch.ChildByFieldName("name"))
				}
			}
			return
		}
		for _, ch := range named(n) {
			if k := ch.Kind(); k == "block" || strings.HasSuffix(k, "_statement") || strings.HasSuffix(k, "_clause") || strings.HasSuffix(k, "_definition") {
				visit(ch) // an import is a statement: expressions hold none
			}
		}
	}
	visit(root)
}

// absModule resolves a relative module name (from .x import y; from
// ..x import y) against the file's package; an absolute one is kept. The
// result keeps one leading dot when the package is above the reviewed
// root, so the resolver still matches it by suffix.
func (c *converter) absModule(mod string) string {
	if !strings.HasPrefix(mod, ".") {
		return mod
	}
	dots := len(mod) - len(strings.TrimLeft(mod, "."))
	rest := mod[dots:]
	base := c.pkgBase
	for i := 1; i < dots; i++ {
		j := strings.LastIndexByte(base, '.')
		if j < 0 {
			if base == "" {
				return mod
			}
			base = ""
			continue
		}
		base = base[:j]
	}
	if base == "" {
		return mod
	}
	if rest == "" {
		return base
	}
	return base + "." + rest
}

// module reads top-level definitions and statements.
func (c *converter) module(root *sitter.Node) {
	var top []*review.Stmt
	for _, ch := range named(root) {
		switch ch.Kind() {
		case "function_definition", "decorated_definition", "class_definition":
			c.definition(ch, nil)
		default:
			top = c.stmt(top, ch)
		}
	}
	c.file.Globals = top
	// Module-level statements can register activities (wfr.register_activity
	// at the bottom of a file, under if __name__ == "__main__"): they are
	// kept as a function of their own for the SDK pass.
	if len(top) > 0 {
		c.file.Funcs = append(c.file.Funcs, &review.Func{Name: "<module>", Short: "<module>", Body: top, File: c.file, Pos: review.Pos{Line: 1, Col: 1}})
	}
}

// definition reads a function or class definition (with decorators).
func (c *converter) definition(n *sitter.Node, decorators []*review.Expr) {
	ok := c.enter(n)
	defer c.nest.Leave()
	if !ok {
		return
	}
	switch n.Kind() {
	case "decorated_definition":
		for _, ch := range named(n) {
			if ch.Kind() == "decorator" {
				if e := named(ch); len(e) > 0 {
					decorators = append(decorators, c.expr(e[0]))
				}
			}
		}
		if d := n.ChildByFieldName("definition"); d != nil {
			c.definition(d, decorators)
		}
	case "class_definition":
		saved, savedFields := c.class, c.fields
		c.class, c.fields = c.text(n.ChildByFieldName("name")), map[string]string{}
		td := review.TypeDecl{Name: c.class, Pos: c.pos(n.ChildByFieldName("name")), Fields: c.fields}
		for _, b := range named(n.ChildByFieldName("superclasses")) {
			if t := c.typeOf(b); t != "" {
				td.Bases = append(td.Bases, t)
			}
		}
		for _, ch := range named(n.ChildByFieldName("body")) {
			switch ch.Kind() {
			case "function_definition", "decorated_definition", "class_definition":
				c.definition(ch, nil)
			case "expression_statement":
				// gateway: Gateway (a dataclass field or an annotation).
				for _, a := range named(ch) {
					if a.Kind() == "assignment" && a.ChildByFieldName("type") != nil {
						if t := c.typeOf(a.ChildByFieldName("type")); t != "" {
							c.fields[c.text(a.ChildByFieldName("left"))] = t
						}
					}
				}
			}
		}
		c.file.Types = append(c.file.Types, td)
		c.class, c.fields = saved, savedFields
	case "function_definition":
		name := c.text(n.ChildByFieldName("name"))
		fn := &review.Func{Name: name, Short: name, Recv: c.class, Pos: c.pos(n.ChildByFieldName("name")), File: c.file, Decorators: decorators}
		if c.class != "" {
			fn.Name = c.class + "." + name
		}
		if rt := n.ChildByFieldName("return_type"); rt != nil {
			fn.Returns = c.text(rt)
		}
		savedSelf, savedVars := c.self, c.vars
		c.self, c.vars = c.class, map[string]string{}
		for _, p := range named(n.ChildByFieldName("parameters")) {
			pn := c.paramName(p)
			fn.Params = append(fn.Params, pn)
			if t := c.typeOf(p.ChildByFieldName("type")); t != "" {
				c.vars[pn] = t
			}
		}
		fn.Result = c.typeOf(n.ChildByFieldName("return_type"))
		saved := c.class
		c.class = ""
		c.lits = 0
		fn.Body = c.block(n.ChildByFieldName("body"))
		c.class = saved
		c.self, c.vars = savedSelf, savedVars
		c.file.Funcs = append(c.file.Funcs, fn)
	}
}

func (c *converter) paramName(p *sitter.Node) string {
	switch p.Kind() {
	case "identifier":
		return c.text(p)
	case "default_parameter", "typed_default_parameter":
		return c.text(p.ChildByFieldName("name"))
	case "typed_parameter":
		for _, ch := range named(p) {
			if ch.Kind() == "identifier" {
				return c.text(ch)
			}
		}
	}
	return "*" + c.text(p)
}

func (c *converter) block(n *sitter.Node) []*review.Stmt {
	var out []*review.Stmt
	for _, ch := range named(n) {
		out = c.stmt(out, ch)
	}
	return out
}

func (c *converter) stmt(out []*review.Stmt, n *sitter.Node) []*review.Stmt {
	ok := c.enter(n)
	defer c.nest.Leave()
	if !ok {
		return out
	}
	p := c.pos(n)
	switch n.Kind() {
	case "expression_statement":
		for _, ch := range named(n) {
			switch ch.Kind() {
			case "assignment", "augmented_assignment":
				out = append(out, c.assign(ch))
			default:
				out = append(out, &review.Stmt{Kind: review.StmtExpr, Pos: p, X: c.expr(ch)})
			}
		}
		return out
	case "if_statement":
		st := &review.Stmt{Kind: review.StmtIf, Pos: p, X: c.expr(n.ChildByFieldName("condition")), Body: c.block(n.ChildByFieldName("consequence"))}
		tail := st
		for _, ch := range named(n) {
			switch ch.Kind() {
			case "elif_clause":
				e := &review.Stmt{Kind: review.StmtIf, Pos: c.pos(ch), X: c.expr(ch.ChildByFieldName("condition")), Body: c.block(ch.ChildByFieldName("consequence"))}
				tail.Else = []*review.Stmt{e}
				tail = e
			case "else_clause":
				tail.Else = c.block(ch.ChildByFieldName("body"))
			}
		}
		return append(out, st)
	case "for_statement":
		st := &review.Stmt{Kind: review.StmtLoop, Pos: p, X: c.expr(n.ChildByFieldName("right")), Body: c.block(n.ChildByFieldName("body"))}
		if l := n.ChildByFieldName("left"); l != nil {
			st.Lhs = []*review.Expr{c.expr(l)}
		}
		return append(out, st)
	case "while_statement":
		return append(out, &review.Stmt{Kind: review.StmtLoop, Pos: p, X: c.expr(n.ChildByFieldName("condition")), Body: c.block(n.ChildByFieldName("body"))})
	case "try_statement":
		st := &review.Stmt{Kind: review.StmtTry, Pos: p, Body: c.block(n.ChildByFieldName("body"))}
		for _, ch := range named(n) {
			switch ch.Kind() {
			case "except_clause", "except_group_clause":
				var body []*review.Stmt
				var catches *review.Expr
				for _, b := range named(ch) {
					if b.Kind() == "block" {
						body = c.block(b)
					} else if catches == nil {
						catches = c.expr(b) // except IntegrityError [as e]
					}
				}
				st.Handlers = append(st.Handlers, body)
				st.Catches = append(st.Catches, catches)
			case "else_clause":
				st.Else = c.block(ch.ChildByFieldName("body"))
			case "finally_clause":
				for _, b := range named(ch) {
					if b.Kind() == "block" {
						st.Finally = c.block(b)
					}
				}
			}
		}
		return append(out, st)
	case "with_statement":
		st := &review.Stmt{Kind: review.StmtBlock, Pos: p, Body: c.block(n.ChildByFieldName("body"))}
		// with open(p, "a") as f: … — the items are calls (and bind names).
		for _, ch := range named(n) {
			if ch.Kind() != "with_clause" {
				continue
			}
			for _, item := range named(ch) {
				v := item.ChildByFieldName("value")
				if v == nil {
					continue
				}
				if v.Kind() == "as_pattern" {
					vals := named(v)
					if len(vals) >= 2 {
						out = append(out, &review.Stmt{Kind: review.StmtAssign, Pos: c.pos(v), Op: "=", Lhs: []*review.Expr{c.expr(vals[len(vals)-1])}, Rhs: []*review.Expr{c.expr(vals[0])}})
					}
					continue
				}
				out = append(out, &review.Stmt{Kind: review.StmtExpr, Pos: c.pos(v), X: c.expr(v)})
			}
		}
		return append(out, st)
	case "return_statement":
		st := &review.Stmt{Kind: review.StmtReturn, Pos: p}
		for _, ch := range named(n) {
			st.Rhs = append(st.Rhs, c.expr(ch))
		}
		return append(out, st)
	case "raise_statement":
		st := &review.Stmt{Kind: review.StmtRaise, Pos: p}
		if xs := named(n); len(xs) > 0 {
			st.X = c.expr(xs[0])
		}
		return append(out, st)
	case "break_statement":
		return append(out, &review.Stmt{Kind: review.StmtBreak, Pos: p})
	case "continue_statement":
		return append(out, &review.Stmt{Kind: review.StmtContinue, Pos: p})
	case "block":
		return append(out, c.block(n)...)
	case "function_definition", "decorated_definition", "class_definition":
		// A nested definition: a closure, usually a helper or a retry
		// wrapper. It is kept as a function literal the body may call.
		saved := c.file.Funcs
		c.definition(n, nil)
		if len(c.file.Funcs) > len(saved) {
			fn := c.file.Funcs[len(c.file.Funcs)-1]
			c.file.Funcs = c.file.Funcs[:len(c.file.Funcs)-1]
			name := &review.Expr{Kind: review.ExprIdent, Name: fn.Short, Pos: fn.Pos, Text: fn.Short}
			lit := &review.Expr{Kind: review.ExprFunc, Pos: fn.Pos, Body: fn.Body, Name: fn.Short}
			c.nested[lit] = fn
			out = append(out, &review.Stmt{Kind: review.StmtAssign, Pos: p, Op: "=", Lhs: []*review.Expr{name}, Rhs: []*review.Expr{lit}})
			for _, d := range fn.Decorators {
				out = append(out, &review.Stmt{Kind: review.StmtExpr, Pos: d.Pos, X: d})
			}
		}
		return out
	}
	return out
}

// fieldType records self.x = v's type on the class: a constructor call
// or an annotated parameter.
func (c *converter) fieldType(st *review.Stmt) {
	if c.fields == nil || c.self == "" || len(st.Lhs) != 1 || len(st.Rhs) != 1 {
		return
	}
	l, r := st.Lhs[0], st.Rhs[0]
	if l.Kind != review.ExprAttr || l.X == nil || l.X.Name != "self" {
		return
	}
	t := r.Type
	if t == "" {
		t = ctorType(r)
	}
	if t != "" {
		if _, seen := c.fields[l.Name]; !seen {
			c.fields[l.Name] = t
		}
	}
}

func (c *converter) assign(n *sitter.Node) *review.Stmt {
	st := &review.Stmt{Kind: review.StmtAssign, Pos: c.pos(n), Op: "="}
	ok := c.enter(n)
	defer c.nest.Leave()
	if !ok {
		return st
	}
	defer c.fieldType(st)
	if n.Kind() == "augmented_assignment" {
		st.Op = c.text(n.ChildByFieldName("operator"))
	}
	left := n.ChildByFieldName("left")
	if left != nil && (left.Kind() == "pattern_list" || left.Kind() == "tuple_pattern") {
		for _, ch := range named(left) {
			st.Lhs = append(st.Lhs, c.expr(ch))
		}
	} else if left != nil {
		st.Lhs = []*review.Expr{c.expr(left)}
	}
	if r := n.ChildByFieldName("right"); r != nil {
		if r.Kind() == "assignment" { // a = b = value
			inner := c.assign(r)
			st.Lhs = append(st.Lhs, inner.Lhs...)
			st.Rhs = inner.Rhs
		} else {
			st.Rhs = []*review.Expr{c.expr(r)}
		}
	}
	return st
}

func (c *converter) expr(n *sitter.Node) *review.Expr {
	if n == nil {
		return nil
	}
	ok := c.enter(n)
	defer c.nest.Leave()
	if !ok {
		return &review.Expr{}
	}
	x := &review.Expr{Pos: c.pos(n), Text: c.Excerpt(n)}
	switch n.Kind() {
	case "identifier":
		x.Kind, x.Name = review.ExprIdent, c.text(n)
		switch t, ok := c.vars[x.Name]; {
		case (x.Name == "self" || x.Name == "cls") && c.self != "":
			x.Type = c.self
		case ok:
			x.Type = t
		default:
			x.Ref = c.file.Imports[x.Name]
		}
	case "attribute":
		x.Kind, x.X, x.Name = review.ExprAttr, c.expr(n.ChildByFieldName("object")), c.text(n.ChildByFieldName("attribute"))
		if x.X != nil && x.X.Ref != "" {
			x.Ref = x.X.Ref + "." + x.Name
		}
	case "call":
		x.Kind, x.X = review.ExprCall, c.expr(n.ChildByFieldName("function"))
		if x.X != nil {
			x.Name, x.Ref = x.X.Name, x.X.Ref
		}
		for _, a := range named(n.ChildByFieldName("arguments")) {
			switch a.Kind() {
			case "keyword_argument":
				x.Keys = append(x.Keys, review.KeyValue{Key: c.text(a.ChildByFieldName("name")), Value: c.expr(a.ChildByFieldName("value"))})
			case "dictionary_splat":
				if v := named(a); len(v) > 0 {
					x.Keys = append(x.Keys, review.KeyValue{Key: "**", Value: c.expr(v[0])})
				}
			case "list_splat":
				if v := named(a); len(v) > 0 {
					x.Args = append(x.Args, c.expr(v[0]))
				}
			default:
				x.Args = append(x.Args, c.expr(a))
			}
		}
	case "string":
		x.Kind = review.ExprString
		var b strings.Builder
		for _, ch := range named(n) {
			switch ch.Kind() {
			case "string_content":
				b.WriteString(c.text(ch))
			case "escape_sequence":
				b.WriteString(unescape(c.text(ch)))
			case "interpolation":
				if e := ch.ChildByFieldName("expression"); e != nil {
					x.Args = append(x.Args, c.expr(e))
				}
				b.WriteString("{}")
			}
		}
		x.Str = b.String()
	case "concatenated_string":
		x.Kind = review.ExprString
		var b strings.Builder
		for _, ch := range named(n) {
			s := c.expr(ch)
			b.WriteString(s.Str)
			x.Args = append(x.Args, s.Args...)
		}
		x.Str = b.String()
	case "integer", "float":
		x.Kind, x.Str = review.ExprNumber, c.text(n)
	case "true", "false", "none":
		x.Kind, x.Name = review.ExprIdent, c.text(n)
	case "dictionary":
		x.Kind = review.ExprComposite
		for _, ch := range named(n) {
			if ch.Kind() != "pair" {
				continue
			}
			k := ch.ChildByFieldName("key")
			kv := review.KeyValue{Value: c.expr(ch.ChildByFieldName("value"))}
			ke := c.expr(k)
			if ke.Kind == review.ExprString && len(ke.Args) == 0 {
				kv.Key = ke.Str
			} else {
				kv.KeyExpr = ke
			}
			x.Keys = append(x.Keys, kv)
		}
	case "list", "tuple", "set", "expression_list", "pattern_list", "tuple_pattern", "list_pattern":
		x.Kind = review.ExprComposite
		for _, ch := range named(n) {
			x.Args = append(x.Args, c.expr(ch))
		}
	case "binary_operator", "boolean_operator", "comparison_operator":
		x.Kind = review.ExprBinary
		for _, ch := range named(n) {
			x.Args = append(x.Args, c.expr(ch))
		}
		if op := n.ChildByFieldName("operator"); op != nil {
			x.Op = c.text(op)
		} else if n.ChildCount() >= 3 {
			x.Op = c.text(n.Child(1))
		}
	case "not_operator", "unary_operator":
		x.Kind, x.Op = review.ExprUnary, c.text(n.Child(0))
		if xs := named(n); len(xs) > 0 {
			x.X = c.expr(xs[len(xs)-1])
		}
	case "await", "yield":
		x.Kind, x.Op = review.ExprUnary, n.Kind()
		if xs := named(n); len(xs) > 0 {
			x.X = c.expr(xs[0])
		}
	case "parenthesized_expression":
		if xs := named(n); len(xs) == 1 {
			return c.expr(xs[0])
		}
	case "subscript":
		x.Kind, x.X = review.ExprIndex, c.expr(n.ChildByFieldName("value"))
		if s := n.ChildByFieldName("subscript"); s != nil {
			x.Args = []*review.Expr{c.expr(s)}
		}
	case "lambda":
		c.lits++
		x.Kind, x.Name = review.ExprFunc, "lambda"
		if b := n.ChildByFieldName("body"); b != nil {
			x.Body = []*review.Stmt{{Kind: review.StmtReturn, Pos: c.pos(b), Rhs: []*review.Expr{c.expr(b)}}}
		}
	case "conditional_expression", "list_comprehension", "dictionary_comprehension", "set_comprehension", "generator_expression", "keyword_argument", "pair", "as_pattern", "named_expression":
		for _, ch := range named(n) {
			x.Args = append(x.Args, c.expr(ch))
		}
	}
	return x
}

func unescape(s string) string { return tsconv.Unescape(s) }
