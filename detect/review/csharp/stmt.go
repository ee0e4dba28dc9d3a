//go:build cgo

package csharp

// Statements: C# statements into the neutral form's.

import (
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/twice-cli/twice/detect/review"
)

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
	ok := c.enter(n)
	defer c.nest.Leave()
	if !ok {
		return out
	}
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
			cond := &review.Expr{Kind: review.ExprOther, Pos: c.pos(sec), Text: c.Excerpt(sec)}
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
