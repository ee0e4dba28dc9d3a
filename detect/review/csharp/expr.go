//go:build cgo

package csharp

// Expressions: C# expressions into the neutral form's, object creation
// and initializers as calls with keyed entries.

import (
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/twice-cli/twice/detect/review"
	"github.com/twice-cli/twice/detect/review/internal/tsconv"
)

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
	ok := c.enter(n)
	defer c.nest.Leave()
	if !ok {
		return &review.Expr{}
	}
	x := &review.Expr{Pos: c.pos(n), Text: c.Excerpt(n)}
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
		x = &review.Expr{Pos: c.pos(n), Text: c.Excerpt(n)}
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
