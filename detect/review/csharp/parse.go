//go:build cgo

package csharp

import (
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tscsharp "github.com/tree-sitter/tree-sitter-c-sharp/bindings/go"

	"github.com/twice-cli/twice/detect/review"
	"github.com/twice-cli/twice/detect/review/internal/tsconv"
)

// Available reports whether this build can parse C#, and why not.
func Available() (bool, string) { return true, "" }

// Parse parses one file.
func (Frontend) Parse(name string, src []byte) (*review.File, error) {
	tree, err := tsconv.Parse(tscsharp.Language(), src)
	if err != nil {
		return nil, err
	}
	defer tree.Close()
	root := tree.RootNode()
	c := &converter{Source: tsconv.NewSource(src), classes: map[string]*class{}, params: map[*review.Expr][]string{}}
	f := &review.File{
		Path:    name,
		Lang:    review.LangCSharp,
		Imports: map[string]string{},
		Lines:   c.Idx.Lines(),
		Src:     src,
	}
	c.file = f
	c.usings(root)
	c.declare(root, "", "")
	f.Package = c.firstNS
	c.unit(root)
	c.sdk()
	return f, nil
}

// class is what the converter knows of a type declared in the file.
type class struct {
	name  string
	outer string
	// fields maps a field, property or primary-constructor parameter to
	// its declared type, as written.
	fields  map[string]string
	methods map[string]bool
	bases   []string
}

type converter struct {
	tsconv.Source
	file *review.File
	// statics are the types of using static directives.
	statics []string
	classes map[string]*class
	firstNS string
	// cls is the class whose members are being read; fn the function.
	cls *class
	fn  *review.Func
	// locals maps the current function's parameters and locals to their
	// declared types ("" when not known: var x = await …).
	locals map[string]string
	// raises collects throw expressions met inside a statement; they
	// are emitted after it as raise statements.
	raises []*review.Stmt
	// params holds the parameter names of lambdas, for a lambda
	// registered as an activity.
	params map[*review.Expr][]string
	lits   int
	// inDefaults is set while the arguments of ConfigureHttpClientDefaults
	// are read: a handler added there applies to every HttpClient.
	inDefaults bool
}

func (c *converter) text(n *sitter.Node) string { return c.Source.Text(n) }

func (c *converter) pos(n *sitter.Node) review.Pos { return c.Source.Pos(n) }

func named(n *sitter.Node) []*sitter.Node { return tsconv.Named(n) }

// hasToken reports whether a node has an anonymous child with the text.
func hasToken(n *sitter.Node, tok string) bool {
	for i := uint(0); i < n.ChildCount(); i++ {
		ch := n.Child(i)
		if ch != nil && !ch.IsNamed() && ch.Kind() == tok {
			return true
		}
	}
	return false
}

// usings reads the file's using directives: aliases, static usings and
// namespaces imported whole.
func (c *converter) usings(root *sitter.Node) {
	var visit func(n *sitter.Node)
	visit = func(n *sitter.Node) {
		for _, ch := range named(n) {
			switch ch.Kind() {
			case "using_directive":
				alias := ch.ChildByFieldName("name")
				var target string
				for _, t := range named(ch) {
					if alias != nil && t.Equals(*alias) {
						continue
					}
					target = typeText(c, t)
				}
				switch {
				case target == "":
				case alias != nil:
					c.file.Imports[c.text(alias)] = target
				case hasToken(ch, "static"):
					c.statics = append(c.statics, target)
				default:
					c.file.OpenImports = append(c.file.OpenImports, target)
				}
			case "namespace_declaration":
				visit(ch.ChildByFieldName("body"))
			}
		}
	}
	visit(root)
}

// typeText is a type's name as written, without generic arguments,
// nullability or a global:: prefix ("" for arrays, tuples and var).
func typeText(c *converter, n *sitter.Node) string {
	if n == nil {
		return ""
	}
	switch n.Kind() {
	case "identifier":
		return c.text(n)
	case "generic_name":
		if id := named(n); len(id) > 0 {
			return c.text(id[0])
		}
	case "qualified_name":
		q, nm := typeText(c, n.ChildByFieldName("qualifier")), typeText(c, n.ChildByFieldName("name"))
		if q == "" {
			return nm
		}
		return q + "." + nm
	case "alias_qualified_name":
		if nm := n.ChildByFieldName("name"); nm != nil {
			return typeText(c, nm)
		}
	case "nullable_type", "ref_type", "scoped_type":
		if t := named(n); len(t) > 0 {
			return typeText(c, t[0])
		}
	case "predefined_type":
		return c.text(n)
	}
	return ""
}

// declare records every type the file declares (its fields, methods and
// bases) before any body is read, so a call to a method defined further
// down is known.
func (c *converter) declare(n *sitter.Node, ns, outer string) {
	for _, ch := range named(n) {
		switch ch.Kind() {
		case "namespace_declaration":
			name := typeText(c, ch.ChildByFieldName("name"))
			if c.firstNS == "" {
				c.firstNS = name
			}
			c.declare(ch.ChildByFieldName("body"), name, outer)
		case "file_scoped_namespace_declaration":
			ns = typeText(c, ch.ChildByFieldName("name"))
			if c.firstNS == "" {
				c.firstNS = ns
			}
		case "class_declaration", "record_declaration", "struct_declaration", "interface_declaration":
			name := c.text(ch.ChildByFieldName("name"))
			cl := &class{name: name, outer: outer, fields: map[string]string{}, methods: map[string]bool{}}
			c.classes[name] = cl
			td := review.TypeDecl{Name: name, Interface: ch.Kind() == "interface_declaration", Pos: c.pos(ch.ChildByFieldName("name"))}
			for _, m := range named(ch) {
				switch m.Kind() {
				case "modifier":
					if c.text(m) == "abstract" {
						td.Abstract = true
					}
				case "base_list":
					for _, b := range named(m) {
						if b.Kind() == "primary_constructor_base_type" {
							b = b.ChildByFieldName("type")
						}
						if t := typeText(c, b); t != "" {
							td.Bases = append(td.Bases, t)
						}
					}
				case "parameter_list": // a primary constructor
					for _, p := range named(m) {
						if p.Kind() == "parameter" {
							cl.fields[c.text(p.ChildByFieldName("name"))] = typeText(c, p.ChildByFieldName("type"))
						}
					}
				}
			}
			cl.bases = td.Bases
			td.Fields = cl.fields
			c.file.Types = append(c.file.Types, td)
			body := ch.ChildByFieldName("body")
			for _, m := range named(body) {
				switch m.Kind() {
				case "field_declaration", "event_field_declaration":
					for _, vd := range named(m) {
						if vd.Kind() != "variable_declaration" {
							continue
						}
						t := typeText(c, vd.ChildByFieldName("type"))
						for _, d := range named(vd) {
							if d.Kind() == "variable_declarator" {
								ft := t
								if ft == "" || ft == "var" {
									ft = creationType(c, initOf(d))
								}
								cl.fields[c.text(d.ChildByFieldName("name"))] = ft
							}
						}
					}
				case "property_declaration":
					cl.fields[c.text(m.ChildByFieldName("name"))] = typeText(c, m.ChildByFieldName("type"))
				case "method_declaration":
					cl.methods[c.text(m.ChildByFieldName("name"))] = true
				}
			}
			c.declare(body, ns, name)
		}
	}
}

// initOf is a variable declarator's initializer.
func initOf(d *sitter.Node) *sitter.Node {
	name := d.ChildByFieldName("name")
	for _, ch := range named(d) {
		if name != nil && ch.Equals(*name) {
			continue
		}
		if ch.Kind() == "bracketed_argument_list" || ch.Kind() == "tuple_pattern" {
			continue
		}
		return ch
	}
	return nil
}

// creationType is the type an initializer creates (new T(…)), or "".
func creationType(c *converter, n *sitter.Node) string {
	if n != nil && n.Kind() == "object_creation_expression" {
		return typeText(c, n.ChildByFieldName("type"))
	}
	return ""
}

// qualify resolves a type name as written: a type the file declares, or
// one twice does not know, is a hint (the tree may declare it); a
// library type twice knows is a qualified reference.
func (c *converter) qualify(t string) (ref, hint string) {
	if t == "" {
		return "", ""
	}
	first, rest, dotted := strings.Cut(t, ".")
	if a, ok := c.file.Imports[first]; ok {
		if dotted {
			t = a + "." + rest
		} else {
			t = a
		}
		first, _, dotted = strings.Cut(t, ".")
	}
	if dotted {
		if rootNamespaces[first] {
			return t, ""
		}
		return "", t
	}
	if c.classes[t] != nil {
		return "", t
	}
	if predefined[t] {
		return "System." + t, ""
	}
	if nss := knownTypes[t]; len(nss) > 0 {
		for _, ns := range nss {
			if contains(c.file.OpenImports, ns) || contains(implicitUsings, ns) {
				return ns + "." + t, ""
			}
		}
		return nss[0] + "." + t, ""
	}
	return "", t
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// unit reads the compilation unit: top-level statements, namespaces and
// type declarations.
func (c *converter) unit(root *sitter.Node) {
	var top []*review.Stmt
	main := &review.Func{Name: "<main>", Short: "<main>", Pos: review.Pos{Line: 1, Col: 1}, File: c.file}
	c.fn, c.locals = main, map[string]string{}
	var visit func(n *sitter.Node)
	visit = func(n *sitter.Node) {
		for _, ch := range named(n) {
			switch ch.Kind() {
			case "global_statement":
				for _, s := range named(ch) {
					top = c.stmt(top, s)
				}
			case "namespace_declaration":
				visit(ch.ChildByFieldName("body"))
			case "class_declaration", "record_declaration", "struct_declaration":
				c.typeDecl(ch)
			}
		}
	}
	visit(root)
	// Top-level statements (Program.cs) register activities: they are
	// kept as a function of their own for the SDK pass.
	if len(top) > 0 {
		main.Body = top
		c.file.Funcs = append(c.file.Funcs, main)
	}
}

// typeDecl reads a class's members: methods, constructors, field
// initializers (kept as globals: a retry policy or options value) and
// nested types.
func (c *converter) typeDecl(n *sitter.Node) {
	saved := c.cls
	c.cls = c.classes[c.text(n.ChildByFieldName("name"))]
	defer func() { c.cls = saved }()
	if c.cls == nil {
		return
	}
	for _, m := range named(n.ChildByFieldName("body")) {
		switch m.Kind() {
		case "method_declaration":
			c.method(m, c.text(m.ChildByFieldName("name")))
		case "constructor_declaration":
			// A constructor's assignments to fields (a retry policy built
			// there) are kept as the class's globals.
			fn := c.method(m, ".ctor")
			review.Walk(fn.Body, func(s *review.Stmt) bool {
				if s.Kind == review.StmtAssign {
					c.file.Globals = append(c.file.Globals, fieldAssign(s))
				}
				return true
			})
		case "field_declaration":
			c.fn, c.locals = nil, map[string]string{}
			for _, vd := range named(m) {
				if vd.Kind() == "variable_declaration" {
					c.file.Globals = c.varDecl(c.file.Globals, vd)
				}
			}
		case "property_declaration":
			if v := m.ChildByFieldName("value"); v != nil && v.Kind() != "arrow_expression_clause" {
				c.fn, c.locals = nil, map[string]string{}
				name := m.ChildByFieldName("name")
				c.file.Globals = append(c.file.Globals, &review.Stmt{Kind: review.StmtAssign, Pos: c.pos(m), Op: "=",
					Lhs: []*review.Expr{c.ident(name)}, Rhs: []*review.Expr{c.exprTyped(v, typeText(c, m.ChildByFieldName("type")))}})
			}
		case "class_declaration", "record_declaration", "struct_declaration":
			c.typeDecl(m)
		}
	}
}

// fieldAssign turns this.x = v into x = v.
func fieldAssign(s *review.Stmt) *review.Stmt {
	out := *s
	out.Lhs = make([]*review.Expr, len(s.Lhs))
	for i, l := range s.Lhs {
		if l.Kind == review.ExprAttr && l.X != nil && l.X.Kind == review.ExprIdent && l.X.Name == "this" {
			cp := *l
			cp.Kind, cp.X = review.ExprIdent, nil
			l = &cp
		}
		out.Lhs[i] = l
	}
	return &out
}

// method reads a method or constructor into a function of the class.
func (c *converter) method(n *sitter.Node, name string) *review.Func {
	fn := &review.Func{Name: c.cls.name + "." + name, Short: name, Recv: c.cls.name, File: c.file, Pos: c.pos(n)}
	if nm := n.ChildByFieldName("name"); nm != nil {
		fn.Pos = c.pos(nm)
	}
	for _, al := range named(n) {
		if al.Kind() == "attribute_list" {
			for _, a := range named(al) {
				if a.Kind() == "attribute" {
					fn.Decorators = append(fn.Decorators, &review.Expr{Kind: review.ExprIdent, Pos: c.pos(a), Name: typeText(c, a.ChildByFieldName("name")), Text: review.Clip(c.text(a))})
				}
			}
		}
	}
	savedFn, savedLocals := c.fn, c.locals
	c.fn, c.locals, c.lits = fn, map[string]string{}, 0
	for _, p := range named(n.ChildByFieldName("parameters")) {
		if p.Kind() == "parameter" {
			pn := c.text(p.ChildByFieldName("name"))
			fn.Params = append(fn.Params, pn)
			c.locals[pn] = typeText(c, p.ChildByFieldName("type"))
		}
	}
	fn.Body = c.body(n.ChildByFieldName("body"))
	c.fn, c.locals = savedFn, savedLocals
	c.file.Funcs = append(c.file.Funcs, fn)
	return fn
}

// body reads a block or an expression body (=> x: a return of x).
func (c *converter) body(n *sitter.Node) []*review.Stmt {
	if n == nil {
		return nil
	}
	if n.Kind() == "arrow_expression_clause" {
		if e := named(n); len(e) > 0 {
			return c.withRaises([]*review.Stmt{{Kind: review.StmtReturn, Pos: c.pos(e[0]), Rhs: []*review.Expr{c.expr(e[0])}}})
		}
		return nil
	}
	if n.Kind() != "block" {
		// A lambda's expression body.
		return c.withRaises([]*review.Stmt{{Kind: review.StmtReturn, Pos: c.pos(n), Rhs: []*review.Expr{c.expr(n)}}})
	}
	return c.block(n)
}

func (c *converter) withRaises(out []*review.Stmt) []*review.Stmt {
	out = append(out, c.raises...)
	c.raises = nil
	return out
}

func (c *converter) block(n *sitter.Node) []*review.Stmt {
	var out []*review.Stmt
	for _, ch := range named(n) {
		out = c.stmt(out, ch)
	}
	return out
}

// stmtBody reads a statement used as a body (a block or one statement).
func (c *converter) stmtBody(n *sitter.Node) []*review.Stmt {
	if n == nil {
		return nil
	}
	if n.Kind() == "block" {
		return c.block(n)
	}
	return c.stmt(nil, n)
}

// stmt appends the statement's conversion to out, followed by the raises
// of any throw expression inside it.
func (c *converter) stmt(out []*review.Stmt, n *sitter.Node) []*review.Stmt {
	saved := c.raises
	c.raises = nil
	out = c.stmt1(out, n)
	out = append(out, c.raises...)
	c.raises = saved
	return out
}

func (c *converter) stmt1(out []*review.Stmt, n *sitter.Node) []*review.Stmt {
	p := c.pos(n)
	switch n.Kind() {
	case "block":
		return append(out, c.block(n)...)
	case "local_declaration_statement":
		for _, vd := range named(n) {
			if vd.Kind() == "variable_declaration" {
				out = c.varDecl(out, vd)
			}
		}
		return out
	case "expression_statement":
		for _, ch := range named(n) {
			out = c.exprStmt(out, ch)
		}
		return out
	case "if_statement":
		st := &review.Stmt{Kind: review.StmtIf, Pos: p, X: c.expr(n.ChildByFieldName("condition")), Body: c.stmtBody(n.ChildByFieldName("consequence"))}
		if alt := n.ChildByFieldName("alternative"); alt != nil {
			st.Else = c.stmtBody(alt)
		}
		return append(out, st)
	case "for_statement":
		for _, init := range n.ChildrenByFieldName("initializer", n.Walk()) {
			if init.Kind() == "variable_declaration" {
				out = c.varDecl(out, &init)
			} else if init.IsNamed() {
				out = c.exprStmt(out, &init)
			}
		}
		st := &review.Stmt{Kind: review.StmtLoop, Pos: p, X: c.expr(n.ChildByFieldName("condition")), Body: c.stmtBody(n.ChildByFieldName("body"))}
		for _, u := range n.ChildrenByFieldName("update", n.Walk()) {
			if u.IsNamed() {
				st.Body = c.exprStmt(st.Body, &u)
			}
		}
		return append(out, st)
	case "foreach_statement":
		st := &review.Stmt{Kind: review.StmtLoop, Pos: p, X: c.expr(n.ChildByFieldName("right"))}
		if l := n.ChildByFieldName("left"); l != nil {
			c.locals[c.text(l)] = typeText(c, n.ChildByFieldName("type"))
			st.Lhs = []*review.Expr{c.expr(l)}
		}
		st.Body = c.stmtBody(n.ChildByFieldName("body"))
		return append(out, st)
	case "while_statement", "do_statement":
		return append(out, &review.Stmt{Kind: review.StmtLoop, Pos: p, X: c.expr(n.ChildByFieldName("condition")), Body: c.stmtBody(n.ChildByFieldName("body"))})
	case "try_statement":
		st := &review.Stmt{Kind: review.StmtTry, Pos: p, Body: c.stmtBody(n.ChildByFieldName("body"))}
		for _, ch := range named(n) {
			switch ch.Kind() {
			case "catch_clause":
				// catch (DbUpdateException ex) when (…): the declaration and
				// the filter, as written.
				var catches *review.Expr
				if k := strings.TrimSpace(strings.TrimSuffix(c.text(ch), c.text(ch.ChildByFieldName("body")))); k != "catch" {
					catches = &review.Expr{Kind: review.ExprOther, Pos: c.pos(ch), Text: review.Clip(k)}
				}
				st.Handlers = append(st.Handlers, c.stmtBody(ch.ChildByFieldName("body")))
				st.Catches = append(st.Catches, catches)
			case "finally_clause":
				for _, b := range named(ch) {
					if b.Kind() == "block" {
						st.Finally = c.block(b)
					}
				}
			}
		}
		return append(out, st)
	case "using_statement", "lock_statement", "fixed_statement", "checked_statement", "unsafe_statement":
		// using (var x = …) { … }: the resources first, as statements.
		var body *sitter.Node
		if b := n.ChildByFieldName("body"); b != nil {
			body = b
		}
		for _, ch := range named(n) {
			if body != nil && ch.Equals(*body) {
				continue
			}
			switch ch.Kind() {
			case "variable_declaration":
				out = c.varDecl(out, ch)
			case "block":
				body = ch
			default:
				if strings.HasSuffix(ch.Kind(), "statement") {
					body = ch
					continue
				}
				out = c.exprStmt(out, ch)
			}
		}
		return append(out, &review.Stmt{Kind: review.StmtBlock, Pos: p, Body: c.stmtBody(body)})
	case "return_statement", "yield_statement":
		st := &review.Stmt{Kind: review.StmtReturn, Pos: p}
		for _, ch := range named(n) {
			st.Rhs = append(st.Rhs, c.expr(ch))
		}
		return append(out, st)
	case "throw_statement":
		st := &review.Stmt{Kind: review.StmtRaise, Pos: p}
		if xs := named(n); len(xs) > 0 {
			st.X = c.expr(xs[0])
		}
		return append(out, st)
	case "break_statement":
		return append(out, &review.Stmt{Kind: review.StmtBreak, Pos: p})
	case "continue_statement":
		return append(out, &review.Stmt{Kind: review.StmtContinue, Pos: p})
	case "switch_statement":
		root := &review.Stmt{Kind: review.StmtBlock, Pos: p, X: c.expr(n.ChildByFieldName("value"))}
		for _, sec := range named(n.ChildByFieldName("body")) {
			if sec.Kind() != "switch_section" {
				continue
			}
			cond := &review.Expr{Kind: review.ExprOther, Pos: c.pos(sec), Text: review.Clip(c.text(sec))}
			st := &review.Stmt{Kind: review.StmtIf, Pos: c.pos(sec), X: cond}
			for _, ch := range named(sec) {
				if strings.HasSuffix(ch.Kind(), "statement") || ch.Kind() == "block" {
					st.Body = c.stmt(st.Body, ch)
				} else {
					cond.Args = append(cond.Args, c.expr(ch))
				}
			}
			root.Body = append(root.Body, st)
		}
		return append(out, root)
	case "labeled_statement":
		for _, ch := range named(n) {
			if ch.Kind() != "identifier" {
				out = c.stmt(out, ch)
			}
		}
		return out
	case "local_function_statement":
		// A local function: a helper or a retry wrapper, kept as a
		// function literal assigned to its name.
		name := c.text(n.ChildByFieldName("name"))
		lit := &review.Expr{Kind: review.ExprFunc, Pos: c.pos(n), Name: name, Text: name}
		var ps []string
		for _, prm := range named(n.ChildByFieldName("parameters")) {
			if prm.Kind() == "parameter" {
				pn := c.text(prm.ChildByFieldName("name"))
				ps = append(ps, pn)
				c.locals[pn] = typeText(c, prm.ChildByFieldName("type"))
			}
		}
		c.params[lit] = ps
		lit.Body = c.body(n.ChildByFieldName("body"))
		c.locals[name] = ""
		return append(out, &review.Stmt{Kind: review.StmtAssign, Pos: p, Op: "=", Lhs: []*review.Expr{{Kind: review.ExprIdent, Name: name, Pos: c.pos(n), Text: name}}, Rhs: []*review.Expr{lit}})
	}
	return out
}

// varDecl turns a variable declaration into assignments, recording each
// variable's type.
func (c *converter) varDecl(out []*review.Stmt, vd *sitter.Node) []*review.Stmt {
	t := typeText(c, vd.ChildByFieldName("type"))
	if t == "var" {
		t = ""
	}
	for _, d := range named(vd) {
		if d.Kind() != "variable_declarator" {
			continue
		}
		init := initOf(d)
		var lhs []*review.Expr
		if nameNode := d.ChildByFieldName("name"); nameNode != nil {
			name := c.text(nameNode)
			vt := t
			if vt == "" {
				vt = c.inferType(init)
			}
			if c.locals != nil {
				c.locals[name] = vt
			}
			lhs = []*review.Expr{c.ident(nameNode)}
		} else {
			// var (value, etag) = …: each name, type unknown.
			for _, ch := range named(d) {
				if ch.Kind() != "tuple_pattern" {
					continue
				}
				for _, id := range named(ch) {
					if id.Kind() == "identifier" {
						if c.locals != nil {
							c.locals[c.text(id)] = ""
						}
						lhs = append(lhs, c.ident(id))
					}
				}
			}
		}
		if init == nil || len(lhs) == 0 {
			continue
		}
		out = append(out, &review.Stmt{Kind: review.StmtAssign, Pos: c.pos(d), Op: "=", Lhs: lhs, Rhs: []*review.Expr{c.exprTyped(init, t)}})
	}
	return out
}

// inferType is the type of an initializer when it says: new T(…), or a
// factory whose return type twice knows.
func (c *converter) inferType(n *sitter.Node) string {
	for n != nil && (n.Kind() == "await_expression" || n.Kind() == "parenthesized_expression") {
		xs := named(n)
		if len(xs) == 0 {
			return ""
		}
		n = xs[0]
	}
	if n == nil {
		return ""
	}
	switch n.Kind() {
	case "object_creation_expression":
		return typeText(c, n.ChildByFieldName("type"))
	case "cast_expression":
		return typeText(c, n.ChildByFieldName("type"))
	case "invocation_expression":
		fx := c.exprNoRaise(n.ChildByFieldName("function"))
		if t, ok := returnTypes[fx.Ref]; ok {
			return t
		}
	}
	return ""
}

// exprNoRaise converts an expression for a look, dropping the raises it
// would record.
func (c *converter) exprNoRaise(n *sitter.Node) *review.Expr {
	saved := c.raises
	x := c.expr(n)
	c.raises = saved
	return x
}

// exprStmt turns an expression used as a statement into a statement:
// assignments, ++ and -- become assignments.
func (c *converter) exprStmt(out []*review.Stmt, n *sitter.Node) []*review.Stmt {
	p := c.pos(n)
	switch n.Kind() {
	case "assignment_expression":
		st := &review.Stmt{Kind: review.StmtAssign, Pos: p, Op: "="}
		if op := n.ChildByFieldName("operator"); op != nil {
			st.Op = c.text(op)
		}
		left := n.ChildByFieldName("left")
		if left != nil && left.Kind() == "tuple_expression" {
			for _, a := range named(left) {
				st.Lhs = append(st.Lhs, c.expr(argValue(a)))
			}
		} else {
			st.Lhs = []*review.Expr{c.expr(left)}
		}
		lt := ""
		if left != nil && left.Kind() == "identifier" {
			lt = c.varType(c.text(left))
		}
		st.Rhs = []*review.Expr{c.exprTyped(n.ChildByFieldName("right"), lt)}
		return append(out, st)
	case "postfix_unary_expression", "prefix_unary_expression":
		t := c.text(n)
		if strings.HasSuffix(t, "++") || strings.HasPrefix(t, "++") || strings.HasSuffix(t, "--") || strings.HasPrefix(t, "--") {
			op := "+="
			if strings.Contains(t, "--") {
				op = "-="
			}
			xs := named(n)
			if len(xs) == 1 {
				one := &review.Expr{Kind: review.ExprNumber, Str: "1", Text: "1", Pos: p}
				return append(out, &review.Stmt{Kind: review.StmtAssign, Pos: p, Op: op, Lhs: []*review.Expr{c.expr(xs[0])}, Rhs: []*review.Expr{one}})
			}
		}
	}
	return append(out, &review.Stmt{Kind: review.StmtExpr, Pos: p, X: c.expr(n)})
}

// argValue is an argument's expression.
func argValue(a *sitter.Node) *sitter.Node {
	if a == nil || a.Kind() != "argument" {
		return a
	}
	name := a.ChildByFieldName("name")
	for _, ch := range named(a) {
		if name != nil && ch.Equals(*name) {
			continue
		}
		return ch
	}
	return nil
}

// varType is the declared type of a local, parameter or field of the
// class (or an enclosing one); ok is false when the name is none of them.
func (c *converter) varTypeOK(name string) (string, bool) {
	if t, ok := c.locals[name]; ok {
		return t, true
	}
	for cl := c.cls; cl != nil; cl = c.classes[cl.outer] {
		if t, ok := cl.fields[name]; ok {
			return t, true
		}
		if cl.outer == "" {
			break
		}
	}
	return "", false
}

func (c *converter) varType(name string) string {
	t, _ := c.varTypeOK(name)
	return t
}

// classWithMethod names the class that declares a method called without
// this: the current class, a base class the file declares, or an
// enclosing class ("" when none).
func (c *converter) classWithMethod(name string) string {
	for cl := c.cls; cl != nil; cl = c.classes[cl.outer] {
		seen := map[*class]bool{}
		for k := cl; k != nil && !seen[k]; {
			seen[k] = true
			if k.methods[name] {
				return k.name
			}
			var next *class
			for _, b := range k.bases {
				if bc := c.classes[b]; bc != nil {
					next = bc
					break
				}
			}
			k = next
		}
		if cl.outer == "" {
			break
		}
	}
	return ""
}

func (c *converter) ident(n *sitter.Node) *review.Expr {
	name := c.text(n)
	return &review.Expr{Kind: review.ExprIdent, Name: name, Pos: c.pos(n), Text: name}
}

// exprTyped converts an expression whose type the context gives (an
// implicit new() in a typed declaration).
func (c *converter) exprTyped(n *sitter.Node, t string) *review.Expr {
	if n != nil && n.Kind() == "implicit_object_creation_expression" && t != "" {
		return c.creation(n, t, nil)
	}
	return c.expr(n)
}

// typeOf is the static type of an expression used as an object: a
// variable's declared type, this class, a field of a class the file
// declares, a created object's type.
func (c *converter) typeOf(n *sitter.Node) string {
	if n == nil {
		return ""
	}
	switch n.Kind() {
	case "identifier":
		return c.varType(c.text(n))
	case "this", "this_expression":
		if c.cls != nil {
			return c.cls.name
		}
	case "base", "base_expression":
		if c.cls != nil && len(c.cls.bases) > 0 {
			return c.cls.bases[0]
		}
	case "member_access_expression":
		ot := c.typeOf(n.ChildByFieldName("expression"))
		if cl := c.classes[ot]; cl != nil {
			return cl.fields[c.text(n.ChildByFieldName("name"))]
		}
	case "object_creation_expression":
		return typeText(c, n.ChildByFieldName("type"))
	case "parenthesized_expression":
		if xs := named(n); len(xs) == 1 {
			return c.typeOf(xs[0])
		}
	case "cast_expression":
		return typeText(c, n.ChildByFieldName("type"))
	}
	return ""
}

// memberName is a member access's name without generic arguments.
func (c *converter) memberName(n *sitter.Node) string {
	if n == nil {
		return ""
	}
	if n.Kind() == "generic_name" {
		if id := named(n); len(id) > 0 {
			return c.text(id[0])
		}
	}
	return c.text(n)
}

func (c *converter) expr(n *sitter.Node) *review.Expr {
	if n == nil {
		return nil
	}
	x := &review.Expr{Pos: c.pos(n), Text: review.Clip(c.text(n))}
	switch n.Kind() {
	case "identifier":
		c.name(x, c.text(n))
	case "generic_name":
		c.name(x, c.memberName(n))
	case "predefined_type":
		x.Kind, x.Name = review.ExprIdent, c.text(n)
	case "this", "this_expression":
		x.Kind, x.Name = review.ExprIdent, "this"
		if c.cls != nil {
			x.Type = c.cls.name
		}
	case "base", "base_expression":
		x.Kind, x.Name = review.ExprIdent, "this"
		if c.cls != nil && len(c.cls.bases) > 0 {
			x.Type = c.cls.bases[0]
		}
	case "alias_qualified_name":
		// global::System → System.
		if nm := n.ChildByFieldName("name"); nm != nil {
			return c.expr(nm)
		}
	case "qualified_name":
		t := typeText(c, n)
		x.Kind, x.Name = review.ExprAttr, t[strings.LastIndexByte(t, '.')+1:]
		x.Ref, x.Type = c.qualify(t)
	case "member_access_expression":
		obj := n.ChildByFieldName("expression")
		x.Kind, x.X, x.Name = review.ExprAttr, c.expr(obj), c.memberName(n.ChildByFieldName("name"))
		c.member(x, obj)
	case "conditional_access_expression":
		// a?.B: the binding's name on the condition's object.
		obj := n.ChildByFieldName("condition")
		x.Kind, x.X = review.ExprAttr, c.expr(obj)
		for _, ch := range named(n) {
			if ch.Kind() == "member_binding_expression" {
				x.Name = c.memberName(ch.ChildByFieldName("name"))
			}
		}
		c.member(x, obj)
	case "invocation_expression":
		fn := n.ChildByFieldName("function")
		if fn != nil && fn.Kind() == "identifier" && c.text(fn) == "nameof" {
			// nameof(ReserveHotelActivity) is the string "ReserveHotelActivity".
			x.Kind = review.ExprString
			if a := named(n.ChildByFieldName("arguments")); len(a) > 0 {
				t := c.text(argValue(a[0]))
				if i := strings.IndexByte(t, '<'); i >= 0 {
					t = t[:i]
				}
				x.Str = t[strings.LastIndexByte(t, '.')+1:]
			}
			return x
		}
		x.Kind, x.X = review.ExprCall, c.expr(fn)
		if fn != nil && fn.Kind() == "identifier" && x.X.Ref == "" && c.cls != nil {
			// Helper(x) of this class: this.Helper(x).
			if cl := c.classWithMethod(x.X.Name); cl != "" {
				this := &review.Expr{Kind: review.ExprIdent, Name: "this", Type: cl, Pos: x.X.Pos, Text: "this"}
				x.X = &review.Expr{Kind: review.ExprAttr, X: this, Name: x.X.Name, Pos: x.X.Pos, Text: x.X.Text}
			}
		}
		if x.X != nil {
			x.Name, x.Ref = x.X.Name, x.X.Ref
		}
		savedDefaults := c.inDefaults
		if x.Name == "ConfigureHttpClientDefaults" {
			c.inDefaults = true
		}
		defer func() { c.inDefaults = savedDefaults }()
		// A call in a chain that spans lines is placed at its method's
		// name (.WaitAndRetryAsync(…) on its own line), not the chain's start.
		if fn != nil && fn.Kind() == "member_access_expression" {
			if nm := fn.ChildByFieldName("name"); nm != nil && nm.StartPosition().Row != n.StartPosition().Row {
				x.Pos = c.pos(nm)
			}
		}
		c.args(x, n.ChildByFieldName("arguments"))
		c.registration(n, x)
		c.httpRetry(n, x)
	case "object_creation_expression":
		return c.creation(n, typeText(c, n.ChildByFieldName("type")), x)
	case "implicit_object_creation_expression":
		return c.creation(n, "", x)
	case "anonymous_object_creation_expression":
		x.Kind = review.ExprComposite
		c.anonymous(x, n)
	case "initializer_expression", "array_creation_expression", "implicit_array_creation_expression", "collection_expression", "stackalloc_expression":
		x.Kind = review.ExprComposite
		c.initializer(x, n)
	case "tuple_expression":
		x.Kind = review.ExprComposite
		for _, a := range named(n) {
			x.Args = append(x.Args, c.expr(argValue(a)))
		}
	case "string_literal":
		x.Kind = review.ExprString
		var b strings.Builder
		for _, ch := range named(n) {
			switch ch.Kind() {
			case "string_literal_content":
				b.WriteString(c.text(ch))
			case "escape_sequence":
				b.WriteString(unescape(c.text(ch)))
			}
		}
		x.Str = b.String()
	case "verbatim_string_literal":
		x.Kind = review.ExprString
		t := c.text(n)
		t = strings.TrimPrefix(t, "@")
		x.Str = strings.ReplaceAll(strings.TrimSuffix(strings.TrimPrefix(t, `"`), `"`), `""`, `"`)
	case "raw_string_literal":
		x.Kind = review.ExprString
		for _, ch := range named(n) {
			if ch.Kind() == "raw_string_content" {
				x.Str += c.text(ch)
			}
		}
	case "interpolated_string_expression":
		x.Kind = review.ExprString
		var b strings.Builder
		for _, ch := range named(n) {
			switch ch.Kind() {
			case "string_content":
				b.WriteString(c.text(ch))
			case "escape_sequence":
				b.WriteString(unescape(c.text(ch)))
			case "interpolation":
				for _, e := range named(ch) {
					switch e.Kind() {
					case "interpolation_brace", "interpolation_alignment_clause", "interpolation_format_clause", "interpolation_start", "interpolation_quote":
					default:
						x.Args = append(x.Args, c.expr(e))
					}
				}
				b.WriteString("{}")
			}
		}
		x.Str = b.String()
	case "character_literal":
		x.Kind, x.Str = review.ExprString, strings.Trim(c.text(n), "'")
	case "integer_literal", "real_literal":
		x.Kind, x.Str = review.ExprNumber, c.text(n)
	case "boolean_literal", "null_literal":
		x.Kind, x.Name = review.ExprIdent, c.text(n)
	case "binary_expression":
		x.Kind = review.ExprBinary
		x.Args = []*review.Expr{c.expr(n.ChildByFieldName("left")), c.expr(n.ChildByFieldName("right"))}
		if op := n.ChildByFieldName("operator"); op != nil {
			x.Op = c.text(op)
		}
	case "prefix_unary_expression":
		x.Kind = review.ExprUnary
		if xs := named(n); len(xs) > 0 {
			x.X = c.expr(xs[0])
		}
		x.Op = strings.TrimSpace(strings.TrimSuffix(c.text(n), c.text(named(n)[0])))
	case "postfix_unary_expression":
		xs := named(n)
		if len(xs) == 1 && strings.HasSuffix(c.text(n), "!") {
			return c.expr(xs[0]) // null-forgiving
		}
		x.Kind = review.ExprUnary
		if len(xs) > 0 {
			x.X = c.expr(xs[0])
		}
		x.Op = strings.TrimPrefix(c.text(n), c.text(xs[0]))
	case "await_expression":
		x.Kind, x.Op = review.ExprUnary, "await"
		if xs := named(n); len(xs) > 0 {
			x.X = c.expr(xs[0])
		}
	case "parenthesized_expression":
		if xs := named(n); len(xs) == 1 {
			return c.expr(xs[0])
		}
	case "cast_expression":
		return c.expr(n.ChildByFieldName("value"))
	case "as_expression":
		return c.expr(n.ChildByFieldName("left"))
	case "element_access_expression":
		x.Kind, x.X = review.ExprIndex, c.expr(n.ChildByFieldName("expression"))
		for _, a := range named(n.ChildByFieldName("subscript")) {
			x.Args = append(x.Args, c.expr(argValue(a)))
		}
	case "lambda_expression", "anonymous_method_expression":
		c.lits++
		x.Kind, x.Name = review.ExprFunc, "lambda"
		var ps []string
		if prm := n.ChildByFieldName("parameters"); prm != nil {
			if prm.Kind() == "implicit_parameter" || prm.Kind() == "identifier" {
				ps = append(ps, c.text(prm))
			}
			for _, p := range named(prm) {
				if p.Kind() == "parameter" {
					ps = append(ps, c.text(p.ChildByFieldName("name")))
				}
			}
		}
		for _, p := range ps {
			if _, ok := c.locals[p]; !ok && c.locals != nil {
				c.locals[p] = ""
			}
		}
		c.params[x] = ps
		body := n.ChildByFieldName("body")
		if body == nil {
			for _, ch := range named(n) {
				if ch.Kind() == "block" {
					body = ch
				}
			}
		}
		saved := c.raises
		c.raises = nil
		x.Body = c.body(body)
		c.raises = saved
	case "throw_expression":
		// x ?? throw new NotFoundException(…): raised where it is.
		st := &review.Stmt{Kind: review.StmtRaise, Pos: x.Pos}
		if xs := named(n); len(xs) > 0 {
			st.X = c.expr(xs[0])
		}
		c.raises = append(c.raises, st)
		x.Kind = review.ExprOther
	case "declaration_expression":
		name := n.ChildByFieldName("name")
		if c.locals != nil {
			c.locals[c.text(name)] = typeText(c, n.ChildByFieldName("type"))
		}
		return c.ident(name)
	case "assignment_expression":
		// An assignment inside an expression: its value.
		return c.expr(n.ChildByFieldName("right"))
	default:
		// conditional, is-pattern, switch expressions, with, ranges, …:
		// their parts.
		for _, ch := range named(n) {
			x.Args = append(x.Args, c.expr(argValue(ch)))
		}
	}
	return x
}

// name resolves an identifier: a variable (local, parameter, field) is
// left as it is; a method of this class called without this gets the
// class as its Type; a namespace, a type twice knows or a static using's
// member gets its qualified Ref.
func (c *converter) name(x *review.Expr, name string) {
	x.Kind, x.Name = review.ExprIdent, name
	if t, ok := c.varTypeOK(name); ok {
		// A variable: its declared type, when it is one the tree may
		// declare (a library type twice knows types its calls' Ref).
		if ref, hint := c.qualify(t); ref == "" {
			x.Type = hint
		}
		return
	}
	if c.classWithMethod(name) != "" {
		return // a method of this class: the call makes it this.Name
	}
	if rootNamespaces[name] {
		x.Ref = name
		return
	}
	if ref, _ := c.qualify(name); ref != "" {
		x.Ref = ref
		return
	}
	if len(c.statics) > 0 && name != "" && name[0] >= 'A' && name[0] <= 'Z' && c.classes[name] == nil {
		// using static System.Guid; … NewGuid(): the first static using
		// whose member is one twice knows, else the first.
		for _, s := range c.statics {
			ref, _ := c.qualify(s)
			if ref == "" {
				ref = s
			}
			if x.Ref == "" || review.IsKnownCall(ref+"."+name) {
				x.Ref = ref + "." + name
			}
		}
	}
}

// member types an attribute: a member of a type or namespace twice knows
// is qualified; a member of an object of a known type is that type's; an
// object of a type the tree may declare (or a static class) gives a hint.
func (c *converter) member(x *review.Expr, obj *sitter.Node) {
	ox := x.X
	if ox == nil {
		return
	}
	// A static member or a namespace chain: System.Guid.NewGuid.
	if ox.Ref != "" && (ox.Kind == review.ExprIdent || ox.Kind == review.ExprAttr) && !c.isVariable(obj) {
		x.Ref = ox.Ref + "." + x.Name
		return
	}
	t := c.typeOf(obj)
	if t == "" && ox.Kind == review.ExprIdent && ox.Ref == "" && ox.Type == "" && !c.isVariable(obj) {
		t = ox.Name // a static class, perhaps in the tree
	}
	if t == "" {
		return
	}
	ref, hint := c.qualify(t)
	switch {
	case ref != "":
		x.Ref = ref + "." + x.Name
	case hint != "" && ox.Type == "":
		ox.Type = hint
	}
}

// isVariable reports whether an object expression is a variable (not a
// type name).
func (c *converter) isVariable(n *sitter.Node) bool {
	if n == nil || n.Kind() != "identifier" {
		return n != nil && n.Kind() != "qualified_name" && n.Kind() != "alias_qualified_name" && n.Kind() != "member_access_expression" && n.Kind() != "generic_name" && n.Kind() != "predefined_type"
	}
	_, ok := c.varTypeOK(c.text(n))
	return ok
}

// args reads a call's arguments: positional ones into Args, named ones
// (name: value) into Keys.
func (c *converter) args(x *review.Expr, list *sitter.Node) {
	for _, a := range named(list) {
		if a.Kind() != "argument" {
			continue
		}
		v := argValue(a)
		if nm := a.ChildByFieldName("name"); nm != nil {
			x.Keys = append(x.Keys, review.KeyValue{Key: c.text(nm), Value: c.expr(v)})
			continue
		}
		x.Args = append(x.Args, c.expr(v))
	}
}

// creation turns new T(args) { init } into a call of T (Op "new"): the
// arguments in Args and Keys, the initializer's members in Keys.
func (c *converter) creation(n *sitter.Node, t string, x *review.Expr) *review.Expr {
	if x == nil {
		x = &review.Expr{Pos: c.pos(n), Text: review.Clip(c.text(n))}
	}
	x.Kind, x.Op = review.ExprCall, "new"
	simple := t[strings.LastIndexByte(t, '.')+1:]
	tx := &review.Expr{Kind: review.ExprIdent, Name: simple, Pos: x.Pos, Text: t}
	tx.Ref, x.Type = c.qualify(t)
	x.X, x.Name, x.Ref = tx, simple, tx.Ref
	var args, init *sitter.Node
	if n.Kind() == "object_creation_expression" {
		args, init = n.ChildByFieldName("arguments"), n.ChildByFieldName("initializer")
	} else {
		for _, ch := range named(n) {
			switch ch.Kind() {
			case "argument_list":
				args = ch
			case "initializer_expression":
				init = ch
			}
		}
	}
	c.args(x, args)
	if init != nil {
		c.initializer(x, init)
	}
	return x
}

// initializer reads an object or collection initializer: Name = v and
// ["k"] = v into Keys, { "k", v } pairs into Keys, plain elements into
// Args.
func (c *converter) initializer(x *review.Expr, n *sitter.Node) {
	for _, ch := range named(n) {
		switch ch.Kind() {
		case "initializer_expression":
			if n.Kind() == "initializer_expression" {
				if kv := named(ch); len(kv) == 2 {
					k := c.expr(kv[0])
					entry := review.KeyValue{Value: c.expr(kv[1])}
					if k.Kind == review.ExprString && len(k.Args) == 0 {
						entry.Key = k.Str
					} else {
						entry.KeyExpr = k
					}
					x.Keys = append(x.Keys, entry)
					continue
				}
			}
			x.Args = append(x.Args, c.expr(ch))
		case "assignment_expression":
			left, right := ch.ChildByFieldName("left"), ch.ChildByFieldName("right")
			entry := review.KeyValue{Value: c.expr(right)}
			switch {
			case left == nil:
			case left.Kind() == "identifier":
				entry.Key = c.text(left)
			case left.Kind() == "element_binding_expression" || left.Kind() == "bracketed_argument_list":
				if a := named(left); len(a) > 0 {
					k := c.expr(argValue(a[0]))
					if k.Kind == review.ExprString && len(k.Args) == 0 {
						entry.Key = k.Str
					} else {
						entry.KeyExpr = k
					}
				}
			default:
				entry.KeyExpr = c.expr(left)
			}
			x.Keys = append(x.Keys, entry)
		case "array_type", "identifier", "generic_name", "predefined_type", "qualified_name":
			if n.Kind() != "initializer_expression" {
				continue // an array creation's type
			}
			x.Args = append(x.Args, c.expr(ch))
		default:
			x.Args = append(x.Args, c.expr(ch))
		}
	}
}

// anonymous reads new { Id = x, order.Amount } into Keys.
func (c *converter) anonymous(x *review.Expr, n *sitter.Node) {
	var key string
	for i := uint(0); i < n.ChildCount(); i++ {
		ch := n.Child(i)
		if ch == nil {
			continue
		}
		if !ch.IsNamed() {
			if ch.Kind() == "=" && i > 0 {
				if prev := n.Child(i - 1); prev != nil && prev.Kind() == "identifier" {
					key = c.text(prev)
					// The identifier was taken as a value: undo it.
					if k := len(x.Keys); k > 0 && x.Keys[k-1].Value != nil && x.Keys[k-1].Value.Pos == c.pos(prev) {
						x.Keys = x.Keys[:k-1]
					}
				}
			}
			continue
		}
		if ch.Kind() == "comment" {
			continue
		}
		v := c.expr(ch)
		k := key
		key = ""
		if k == "" {
			// A projection initializer: the member's name.
			k = v.Name
		}
		x.Keys = append(x.Keys, review.KeyValue{Key: k, Value: v})
	}
}

func unescape(s string) string { return tsconv.Unescape(s) }
