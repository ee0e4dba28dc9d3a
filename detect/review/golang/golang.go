// Package golang is twice review's Go front-end: it parses Go source with
// go/parser and turns each file into review's language-neutral form,
// recognising the Dapr Go SDK's workflow package (RegisterActivity,
// CallActivity, ActivityRetryPolicy) and durabletask-go's (AddActivity,
// AddActivityN, WithActivityRetryPolicy, RetryPolicy.Handle).
package golang

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path"
	"strconv"
	"strings"

	"github.com/twice-cli/twice/detect/review"
)

// Frontend parses Go files.
type Frontend struct{}

// Lang returns review.LangGo.
func (Frontend) Lang() review.Lang { return review.LangGo }

// Match reports whether the file is Go source twice reviews (test files
// are left out: they call activities directly, never through the engine).
func (Frontend) Match(name string) bool {
	return strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go")
}

// Parse parses one file. The file's Package is its directory; the caller
// may replace it with an import path.
func (Frontend) Parse(name string, src []byte) (*review.File, error) {
	fset := token.NewFileSet()
	af, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	c := &converter{fset: fset, src: src, idx: review.NewLineIndex(src)}
	f := &review.File{
		Path:    name,
		Lang:    review.LangGo,
		Package: path.Dir(name),
		Imports: map[string]string{},
		Lines:   c.idx.Lines(),
		Src:     src,
	}
	c.file = f
	for _, im := range af.Imports {
		p, err := strconv.Unquote(im.Path.Value)
		if err != nil {
			continue
		}
		local := importName(p)
		if im.Name != nil {
			local = im.Name.Name
		}
		if local == "_" || local == "." {
			continue
		}
		f.Imports[local] = p
	}
	for _, d := range af.Decls {
		if gd, ok := d.(*ast.GenDecl); ok && (gd.Tok == token.VAR || gd.Tok == token.CONST) {
			c.vars = nil
			f.Globals = c.stmt(f.Globals, &ast.DeclStmt{Decl: gd})
			continue
		}
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.TYPE {
			c.types(gd)
			continue
		}
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		fn := &review.Func{Short: fd.Name.Name, Name: fd.Name.Name, Pos: c.pos(fd.Name.Pos()), File: f}
		c.vars = map[string]string{}
		if fd.Recv != nil && len(fd.Recv.List) == 1 {
			fn.Recv = recvType(fd.Recv.List[0].Type)
			fn.Name = fn.Recv + "." + fn.Short
			for _, n := range fd.Recv.List[0].Names {
				fn.Params = append(fn.Params, "recv:"+n.Name)
				c.vars[n.Name] = fn.Recv
			}
		}
		for _, p := range fd.Type.Params.List {
			t := c.typeName(p.Type)
			for _, n := range p.Names {
				fn.Params = append(fn.Params, n.Name)
				c.vars[n.Name] = t
			}
		}
		if res := fd.Type.Results; res != nil && len(res.List) > 0 {
			fn.Result = c.typeName(res.List[0].Type)
		}
		c.fn, c.lits = fn, 0
		fn.Body = c.stmts(fd.Body.List)
		f.Funcs = append(f.Funcs, fn)
	}
	if err := c.nest.Err(); err != nil {
		return nil, err
	}
	if err := review.CheckNesting(f); err != nil {
		return nil, err
	}
	c.sdk(f)
	return f, nil
}

// importName is the name a package is known by when imported without a
// name: its last path element, less a major-version suffix and a "go-"
// or ".go" decoration.
func importName(p string) string {
	parts := strings.Split(p, "/")
	last := parts[len(parts)-1]
	if len(parts) > 1 && len(last) >= 2 && last[0] == 'v' && isDigits(last[1:]) {
		last = parts[len(parts)-2]
	}
	last = strings.TrimPrefix(last, "go-")
	last = strings.TrimSuffix(last, ".go")
	last = strings.TrimSuffix(last, "-go")
	if i := strings.IndexAny(last, ".-"); i >= 0 {
		last = last[:i]
	}
	return last
}

func isDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

func recvType(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.StarExpr:
		return recvType(t.X)
	case *ast.Ident:
		return t.Name
	case *ast.IndexExpr:
		return recvType(t.X)
	case *ast.IndexListExpr:
		return recvType(t.X)
	}
	return ""
}

type converter struct {
	fset *token.FileSet
	src  []byte
	idx  *review.LineIndex
	file *review.File
	fn   *review.Func
	lits int // function literals seen in the current declaration
	// vars maps the current function's receiver, parameters and declared
	// variables to their named types.
	vars map[string]string
	// nest bounds the conversion's recursion (review.MaxNesting; go/parser
	// allows 100,000 levels).
	nest review.Depth
}

// enter counts one level of nesting down at p (review.Depth); the caller
// defers c.nest.Leave() and, on false, does not descend.
func (c *converter) enter(p token.Pos) bool {
	return c.nest.Enter(func() review.Pos { return c.pos(p) })
}

// types records the file's struct and interface types: fields, embedded
// types and interface methods, so a call on a field or an interface is
// followed into the tree.
func (c *converter) types(gd *ast.GenDecl) {
	for _, sp := range gd.Specs {
		ts, ok := sp.(*ast.TypeSpec)
		if !ok {
			continue
		}
		td := review.TypeDecl{Name: ts.Name.Name, Pos: c.pos(ts.Name.Pos())}
		switch t := ts.Type.(type) {
		case *ast.StructType:
			td.Fields = map[string]string{}
			for _, fl := range t.Fields.List {
				tn := c.typeName(fl.Type)
				if tn == "" {
					tn = c.collectionType(fl.Type)
				}
				if len(fl.Names) == 0 {
					if tn != "" {
						td.Bases = append(td.Bases, tn)
						td.Fields[tn[strings.LastIndexByte(tn, '.')+1:]] = tn
					}
					continue
				}
				for _, n := range fl.Names {
					if tn != "" {
						td.Fields[n.Name] = tn
					}
				}
			}
		case *ast.InterfaceType:
			td.Interface = true
			for _, m := range t.Methods.List {
				if _, ok := m.Type.(*ast.FuncType); ok {
					for _, n := range m.Names {
						td.Methods = append(td.Methods, n.Name)
					}
				} else if tn := c.typeName(m.Type); tn != "" {
					td.Bases = append(td.Bases, tn)
				}
			}
		default:
			continue
		}
		c.file.Types = append(c.file.Types, td)
	}
}

// typeName is a named type as written, through pointers and generic
// arguments, qualified with its package's import path (*billing.Client →
// "example.com/shop/billing.Client"); "" for built-in, slice, map, func
// and channel types.
func (c *converter) typeName(e ast.Expr) string {
	if e == nil {
		return ""
	}
	ok := c.enter(e.Pos())
	defer c.nest.Leave()
	if !ok {
		return ""
	}
	switch t := e.(type) {
	case *ast.StarExpr:
		return c.typeName(t.X)
	case *ast.Ident:
		if builtinTypes[t.Name] {
			return ""
		}
		return t.Name
	case *ast.SelectorExpr:
		if id, ok := t.X.(*ast.Ident); ok {
			if p, ok := c.file.Imports[id.Name]; ok {
				return p + "." + t.Sel.Name
			}
			return id.Name + "." + t.Sel.Name
		}
	case *ast.IndexExpr:
		return c.typeName(t.X)
	case *ast.IndexListExpr:
		return c.typeName(t.X)
	case *ast.ParenExpr:
		return c.typeName(t.X)
	}
	return ""
}

// collectionType is a slice or map field's type as "[]Elem" (the element's
// named type), so the review can tell a struct that holds a collection
// (large-payload) from one that holds references; "" for any other type
// and for collections of built-in types.
func (c *converter) collectionType(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.ArrayType:
		if t.Len == nil {
			if el := c.typeName(t.Elt); el != "" {
				return "[]" + el
			}
		}
	case *ast.MapType:
		if el := c.typeName(t.Value); el != "" {
			return "[]" + el
		}
	}
	return ""
}

// madeType is the named type a literal or new() makes ("" otherwise).
func (c *converter) madeType(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.UnaryExpr:
		if t.Op == token.AND {
			return c.madeType(t.X)
		}
	case *ast.CompositeLit:
		if t.Type != nil {
			return c.typeName(t.Type)
		}
	case *ast.CallExpr:
		if id, ok := t.Fun.(*ast.Ident); ok && id.Name == "new" && len(t.Args) == 1 {
			return c.typeName(t.Args[0])
		}
	}
	return ""
}

// builtinTypes are Go's predeclared types: no method of the tree.
var builtinTypes = map[string]bool{
	"string": true, "bool": true, "error": true, "any": true, "byte": true, "rune": true, "int": true, "int8": true,
	"int16": true, "int32": true, "int64": true, "uint": true, "uint8": true, "uint16": true, "uint32": true,
	"uint64": true, "uintptr": true, "float32": true, "float64": true, "complex64": true, "complex128": true,
}

func (c *converter) pos(p token.Pos) review.Pos {
	return c.idx.Pos(c.fset.Position(p).Offset)
}

func (c *converter) text(n ast.Node) string {
	s, e := c.fset.Position(n.Pos()).Offset, c.fset.Position(n.End()).Offset
	if s < 0 || e > len(c.src) || s > e {
		return ""
	}
	return review.ClipBytes(c.src[s:e])
}

func (c *converter) stmts(list []ast.Stmt) []*review.Stmt {
	out := make([]*review.Stmt, 0, len(list))
	for _, s := range list {
		out = c.stmt(out, s)
	}
	return out
}

func (c *converter) block(b *ast.BlockStmt) []*review.Stmt {
	if b == nil {
		return nil
	}
	return c.stmts(b.List)
}

// stmt appends the statement's conversion to out (an if's or a for's init
// statement comes first, as its own statement).
func (c *converter) stmt(out []*review.Stmt, s ast.Stmt) []*review.Stmt {
	ok := c.enter(s.Pos())
	defer c.nest.Leave()
	if !ok {
		return out
	}
	p := c.pos(s.Pos())
	switch s := s.(type) {
	case *ast.AssignStmt:
		// x := &T{…}, T{…} or new(T): x has type T.
		if s.Tok == token.DEFINE && c.vars != nil && len(s.Lhs) == len(s.Rhs) {
			for i, l := range s.Lhs {
				if id, ok := l.(*ast.Ident); ok {
					if t := c.madeType(s.Rhs[i]); t != "" {
						c.vars[id.Name] = t
					} else {
						delete(c.vars, id.Name)
					}
				}
			}
		}
		return append(out, &review.Stmt{Kind: review.StmtAssign, Pos: p, Lhs: c.exprs(s.Lhs), Rhs: c.exprs(s.Rhs), Op: s.Tok.String()})
	case *ast.DeclStmt:
		gd, ok := s.Decl.(*ast.GenDecl)
		if !ok {
			return out
		}
		for _, sp := range gd.Specs {
			vs, ok := sp.(*ast.ValueSpec)
			if !ok {
				continue
			}
			if vs.Type != nil && c.vars != nil {
				if t := c.typeName(vs.Type); t != "" {
					for _, n := range vs.Names {
						c.vars[n.Name] = t
					}
				}
			}
			if len(vs.Values) == 0 {
				continue
			}
			var lhs []*review.Expr
			for _, n := range vs.Names {
				lhs = append(lhs, c.expr(n))
			}
			out = append(out, &review.Stmt{Kind: review.StmtAssign, Pos: c.pos(vs.Pos()), Lhs: lhs, Rhs: c.exprs(vs.Values), Op: "="})
		}
		return out
	case *ast.ExprStmt:
		x := c.expr(s.X)
		if call, ok := s.X.(*ast.CallExpr); ok {
			if id, ok := call.Fun.(*ast.Ident); ok && id.Name == "panic" {
				return append(out, &review.Stmt{Kind: review.StmtRaise, Pos: p, X: x.Arg(0)})
			}
		}
		return append(out, &review.Stmt{Kind: review.StmtExpr, Pos: p, X: x})
	case *ast.IncDecStmt:
		op := "+="
		if s.Tok == token.DEC {
			op = "-="
		}
		one := &review.Expr{Kind: review.ExprNumber, Str: "1", Text: "1", Pos: p}
		return append(out, &review.Stmt{Kind: review.StmtAssign, Pos: p, Lhs: []*review.Expr{c.expr(s.X)}, Rhs: []*review.Expr{one}, Op: op})
	case *ast.IfStmt:
		if s.Init != nil {
			out = c.stmt(out, s.Init)
		}
		st := &review.Stmt{Kind: review.StmtIf, Pos: p, X: c.expr(s.Cond), Body: c.block(s.Body)}
		if s.Else != nil {
			st.Else = c.stmt(nil, s.Else)
		}
		return append(out, st)
	case *ast.ForStmt:
		if s.Init != nil {
			out = c.stmt(out, s.Init)
		}
		st := &review.Stmt{Kind: review.StmtLoop, Pos: p, X: c.expr(s.Cond), Body: c.block(s.Body)}
		if s.Post != nil {
			st.Body = c.stmt(st.Body, s.Post)
		}
		return append(out, st)
	case *ast.RangeStmt:
		st := &review.Stmt{Kind: review.StmtLoop, Pos: p, X: c.expr(s.X), Body: c.block(s.Body)}
		if s.Key != nil {
			st.Lhs = append(st.Lhs, c.expr(s.Key))
		}
		if s.Value != nil {
			st.Lhs = append(st.Lhs, c.expr(s.Value))
		}
		return append(out, st)
	case *ast.ReturnStmt:
		return append(out, &review.Stmt{Kind: review.StmtReturn, Pos: p, Rhs: c.exprs(s.Results)})
	case *ast.BlockStmt:
		return append(out, &review.Stmt{Kind: review.StmtBlock, Pos: p, Body: c.block(s)})
	case *ast.LabeledStmt:
		return c.stmt(out, s.Stmt)
	case *ast.DeferStmt:
		return append(out, &review.Stmt{Kind: review.StmtBlock, Pos: p, X: c.expr(s.Call)})
	case *ast.GoStmt:
		return append(out, &review.Stmt{Kind: review.StmtBlock, Pos: p, X: c.expr(s.Call)})
	case *ast.BranchStmt:
		switch s.Tok {
		case token.BREAK:
			return append(out, &review.Stmt{Kind: review.StmtBreak, Pos: p})
		case token.CONTINUE:
			return append(out, &review.Stmt{Kind: review.StmtContinue, Pos: p})
		}
		return out
	case *ast.SwitchStmt:
		if s.Init != nil {
			out = c.stmt(out, s.Init)
		}
		return append(out, c.cases(p, c.expr(s.Tag), s.Body))
	case *ast.TypeSwitchStmt:
		if s.Init != nil {
			out = c.stmt(out, s.Init)
		}
		out = c.stmt(out, s.Assign)
		return append(out, c.cases(p, nil, s.Body))
	case *ast.SelectStmt:
		st := &review.Stmt{Kind: review.StmtBlock, Pos: p}
		for _, cl := range s.Body.List {
			if cc, ok := cl.(*ast.CommClause); ok {
				if cc.Comm != nil {
					st.Body = c.stmt(st.Body, cc.Comm)
				}
				st.Body = append(st.Body, c.stmts(cc.Body)...)
			}
		}
		return append(out, st)
	case *ast.SendStmt:
		return append(out, &review.Stmt{Kind: review.StmtExpr, Pos: p, X: c.expr(s.Value)})
	}
	return out
}

// cases turns a switch into a chain of ifs: each case's condition is the
// tag compared with its values (or the case expression itself).
func (c *converter) cases(p review.Pos, tag *review.Expr, body *ast.BlockStmt) *review.Stmt {
	root := &review.Stmt{Kind: review.StmtBlock, Pos: p}
	for _, cl := range body.List {
		cc, ok := cl.(*ast.CaseClause)
		if !ok {
			continue
		}
		cond := &review.Expr{Kind: review.ExprOther, Pos: c.pos(cc.Pos())}
		for _, v := range cc.List {
			ve := c.expr(v)
			if tag != nil {
				ve = &review.Expr{Kind: review.ExprBinary, Op: "==", Args: []*review.Expr{tag, ve}, Pos: ve.Pos, Text: tag.Text + " == " + ve.Text}
			}
			cond.Args = append(cond.Args, ve)
		}
		if len(cond.Args) == 1 {
			cond = cond.Args[0]
		}
		root.Body = append(root.Body, &review.Stmt{Kind: review.StmtIf, Pos: c.pos(cc.Pos()), X: cond, Body: c.stmts(cc.Body)})
	}
	return root
}

func (c *converter) exprs(list []ast.Expr) []*review.Expr {
	out := make([]*review.Expr, 0, len(list))
	for _, e := range list {
		out = append(out, c.expr(e))
	}
	return out
}

func (c *converter) expr(e ast.Expr) *review.Expr {
	if e == nil {
		return nil
	}
	ok := c.enter(e.Pos())
	defer c.nest.Leave()
	if !ok {
		return &review.Expr{}
	}
	x := &review.Expr{Pos: c.pos(e.Pos()), Text: c.text(e)}
	switch e := e.(type) {
	case *ast.Ident:
		x.Kind, x.Name = review.ExprIdent, e.Name
		if t, ok := c.vars[e.Name]; ok {
			x.Type = t
		} else if p, ok := c.file.Imports[e.Name]; ok {
			x.Ref = p
		}
	case *ast.SelectorExpr:
		x.Kind, x.Name, x.X = review.ExprAttr, e.Sel.Name, c.expr(e.X)
		if x.X.Ref != "" && x.X.Kind == review.ExprIdent {
			x.Ref = x.X.Ref + "." + e.Sel.Name
		}
	case *ast.CallExpr:
		x.Kind, x.X, x.Args = review.ExprCall, c.expr(e.Fun), c.exprs(e.Args)
		x.Name, x.Ref = x.X.Name, x.X.Ref
	case *ast.BasicLit:
		if e.Kind == token.STRING {
			x.Kind = review.ExprString
			if v, err := strconv.Unquote(e.Value); err == nil {
				x.Str = v
			}
		} else {
			x.Kind, x.Str = review.ExprNumber, e.Value
		}
	case *ast.CompositeLit:
		x.Kind = review.ExprComposite
		if e.Type != nil {
			x.Name = c.text(e.Type)
		}
		for _, el := range e.Elts {
			if kv, ok := el.(*ast.KeyValueExpr); ok {
				k := review.KeyValue{Value: c.expr(kv.Value)}
				switch key := kv.Key.(type) {
				case *ast.Ident:
					k.Key = key.Name
				case *ast.BasicLit:
					if v, err := strconv.Unquote(key.Value); err == nil {
						k.Key = v
					}
					// The literal as an expression too: a key written as a
					// name (a constant) is the one with no KeyExpr.
					k.KeyExpr = c.expr(kv.Key)
				default:
					k.KeyExpr = c.expr(kv.Key)
				}
				x.Keys = append(x.Keys, k)
				continue
			}
			x.Args = append(x.Args, c.expr(el))
		}
	case *ast.BinaryExpr:
		x.Kind, x.Op, x.Args = review.ExprBinary, e.Op.String(), []*review.Expr{c.expr(e.X), c.expr(e.Y)}
	case *ast.UnaryExpr:
		x.Kind, x.Op, x.X = review.ExprUnary, e.Op.String(), c.expr(e.X)
	case *ast.StarExpr:
		x.Kind, x.Op, x.X = review.ExprUnary, "*", c.expr(e.X)
	case *ast.ParenExpr:
		return c.expr(e.X)
	case *ast.TypeAssertExpr:
		return c.expr(e.X)
	case *ast.SliceExpr:
		return c.expr(e.X)
	case *ast.IndexExpr:
		x.Kind, x.X, x.Args = review.ExprIndex, c.expr(e.X), []*review.Expr{c.expr(e.Index)}
	case *ast.FuncLit:
		c.lits++
		x.Kind, x.Body = review.ExprFunc, c.block(e.Body)
		x.Name = "func" + strconv.Itoa(c.lits)
	}
	return x
}
