//go:build cgo

package csharp

import (
	sitter "github.com/tree-sitter/go-tree-sitter"
	tscsharp "github.com/tree-sitter/tree-sitter-c-sharp/bindings/go"

	"github.com/twice-cli/twice/detect/review"
	"github.com/twice-cli/twice/detect/review/internal/tsconv"
)

// Available reports whether this build can parse C#, and why not.
func Available() (bool, string) { return true, "" }

// Parse parses one file.
func (Frontend) Parse(name string, src []byte) (*review.File, error) {
	// What a Release build compiles (#if DEBUG … #else …): the lines
	// keep their places, so positions and excerpts are the file's.
	compiled, conditional := Release(src)
	tree, err := tsconv.Parse(tscsharp.Language(), compiled)
	if err != nil {
		return nil, err
	}
	defer tree.Close()
	root := tree.RootNode()
	c := &converter{Source: tsconv.NewSource(compiled), classes: map[string]*class{}, params: map[*review.Expr][]string{}}
	f := &review.File{
		Path:    name,
		Lang:    review.LangCSharp,
		Imports: map[string]string{},
		Lines:   c.Idx.Lines(),
		Src:     src,
	}
	if conditional {
		f.Build = "Release"
	}
	c.file = f
	c.usings(root)
	c.declare(root, "", "")
	f.Package = c.firstNS
	c.unit(root)
	if err := c.nest.Err(); err != nil {
		return nil, err
	}
	if err := review.CheckNesting(f); err != nil {
		return nil, err
	}
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
	// nest bounds the conversion's recursion (review.MaxNesting).
	nest review.Depth
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

// enter counts one level of nesting down at n (review.Depth); the caller
// defers c.nest.Leave() and, on false, does not descend.
func (c *converter) enter(n *sitter.Node) bool {
	return c.nest.Enter(func() review.Pos { return c.pos(n) })
}

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
		ok := c.enter(n)
		defer c.nest.Leave()
		if !ok {
			return
		}
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

// declare records every type the file declares (its fields, methods and
// bases) before any body is read, so a call to a method defined further
// down is known.
func (c *converter) declare(n *sitter.Node, ns, outer string) {
	ok := c.enter(n)
	defer c.nest.Leave()
	if !ok {
		return
	}
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
						t := memberType(c, vd.ChildByFieldName("type"))
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
					cl.fields[c.text(m.ChildByFieldName("name"))] = memberType(c, m.ChildByFieldName("type"))
				case "method_declaration":
					cl.methods[c.text(m.ChildByFieldName("name"))] = true
				}
			}
			c.declare(body, ns, name)
		}
	}
}

// unit reads the compilation unit: top-level statements, namespaces and
// type declarations.
func (c *converter) unit(root *sitter.Node) {
	var top []*review.Stmt
	main := &review.Func{Name: "<main>", Short: "<main>", Pos: review.Pos{Line: 1, Col: 1}, File: c.file}
	c.fn, c.locals = main, map[string]string{}
	var visit func(n *sitter.Node)
	visit = func(n *sitter.Node) {
		ok := c.enter(n)
		defer c.nest.Leave()
		if !ok {
			return
		}
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
	ok := c.enter(n)
	defer c.nest.Leave()
	if !ok {
		return
	}
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
	for _, field := range []string{"returns", "type"} {
		if rt := n.ChildByFieldName(field); rt != nil {
			fn.Returns = c.text(rt)
			break
		}
	}
	for _, al := range named(n) {
		if al.Kind() == "attribute_list" {
			for _, a := range named(al) {
				if a.Kind() == "attribute" {
					fn.Decorators = append(fn.Decorators, &review.Expr{Kind: review.ExprIdent, Pos: c.pos(a), Name: typeText(c, a.ChildByFieldName("name")), Text: c.Excerpt(a)})
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
