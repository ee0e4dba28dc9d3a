//go:build cgo

package csharp

// Names and types: what a name or an object is, through using
// directives, aliases, static usings and declared types.

import (
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/twice-cli/twice/detect/review"
)

// typeText is a type's name as written, without generic arguments,
// nullability or a global:: prefix ("" for arrays, tuples and var).
func typeText(c *converter, n *sitter.Node) string {
	if n == nil {
		return ""
	}
	ok := c.enter(n)
	defer c.nest.Leave()
	if !ok {
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

// memberType is a field's or property's type: typeText's named type, or
// for an array or a generic collection (T[], List<T>, IEnumerable<T>…) the
// type as written, so the review can tell a record that holds a
// collection (large-payload) from one that holds references.
func memberType(c *converter, n *sitter.Node) string {
	if n != nil && n.Kind() == "nullable_type" {
		if t := named(n); len(t) > 0 {
			n = t[0]
		}
	}
	if n == nil {
		return ""
	}
	switch n.Kind() {
	case "array_type":
		return strings.Join(strings.Fields(c.text(n)), "")
	case "generic_name":
		if id := named(n); len(id) > 0 && collectionNames[c.text(id[0])] {
			return strings.Join(strings.Fields(c.text(n)), "")
		}
	}
	return typeText(c, n)
}

// collectionNames are the generic collection types whose element type
// memberType keeps.
var collectionNames = map[string]bool{"List": true, "IList": true, "IEnumerable": true, "IReadOnlyList": true,
	"ICollection": true, "IReadOnlyCollection": true}

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

// typeOf is the static type of an expression used as an object: a
// variable's declared type, this class, a field of a class the file
// declares, a created object's type.
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
