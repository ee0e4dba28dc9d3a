package review

import "fmt"

// MaxNesting is how deeply a reviewed file's statements and expressions
// may nest: past it the file is skipped and listed, as go/parser does past
// its own limit. It bounds every recursive walk over a file's syntax tree
// and over the neutral form (Walk, Exprs and the rules), so no file can
// exhaust the stack. Real code stays far below it (CPython refuses 200
// nested parentheses).
const MaxNesting = 2000

// TooDeepError says a file nests deeper than MaxNesting.
type TooDeepError struct {
	// Line is where the limit was passed (0: not known).
	Line int
}

// Error says how deep, and where.
func (e *TooDeepError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("nests deeper than %d levels (at line %d): not reviewed", MaxNesting, e.Line)
	}
	return fmt.Sprintf("nests deeper than %d levels: not reviewed", MaxNesting)
}

// Depth is a front-end's nesting counter: Enter before converting a
// nested statement or expression, Leave after. Once the file passes
// MaxNesting, Enter reports false for the rest of it and Err says where.
type Depth struct {
	n   int
	err *TooDeepError
}

// Enter counts one level down at pos and reports whether the converter
// may descend. Every Enter is paired with a Leave, whatever it reported.
func (d *Depth) Enter(pos func() Pos) bool {
	d.n++
	if d.err == nil && d.n > MaxNesting {
		d.err = &TooDeepError{Line: pos().Line}
	}
	return d.err == nil
}

// Leave counts one level up.
func (d *Depth) Leave() { d.n-- }

// Err is the file's TooDeepError, or nil.
func (d *Depth) Err() error {
	if d.err == nil {
		return nil
	}
	return d.err
}

// CheckNesting checks a parsed file's neutral form, without recursion:
// nil when no statement or expression nests deeper than MaxNesting (a
// front-end's converter may build deep forms from flat syntax, such as a
// long elif chain), else a TooDeepError.
func CheckNesting(f *File) error {
	type item struct {
		s     *Stmt
		e     *Expr
		depth int
	}
	var stack []item
	pushStmts := func(list []*Stmt, depth int) {
		for _, s := range list {
			if s != nil {
				stack = append(stack, item{s: s, depth: depth})
			}
		}
	}
	pushExpr := func(e *Expr, depth int) {
		if e != nil {
			stack = append(stack, item{e: e, depth: depth})
		}
	}
	pushStmts(f.Globals, 1)
	for _, fn := range f.Funcs {
		pushStmts(fn.Body, 1)
		for _, d := range fn.Decorators {
			pushExpr(d, 1)
		}
	}
	for _, r := range f.Registrations {
		if r.Inline != nil {
			pushStmts(r.Inline.Body, 1)
		}
	}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if it.depth > MaxNesting {
			var p Pos
			if it.s != nil {
				p = it.s.Pos
			} else {
				p = it.e.Pos
			}
			return &TooDeepError{Line: p.Line}
		}
		d := it.depth + 1
		if s := it.s; s != nil {
			for _, e := range s.Lhs {
				pushExpr(e, d)
			}
			for _, e := range s.Rhs {
				pushExpr(e, d)
			}
			pushExpr(s.X, d)
			pushStmts(s.Body, d)
			pushStmts(s.Else, d)
			for _, h := range s.Handlers {
				pushStmts(h, d)
			}
			for _, e := range s.Catches {
				pushExpr(e, d)
			}
			pushStmts(s.Finally, d)
			continue
		}
		e := it.e
		pushExpr(e.X, d)
		for _, a := range e.Args {
			pushExpr(a, d)
		}
		for _, k := range e.Keys {
			pushExpr(k.KeyExpr, d)
			pushExpr(k.Value, d)
		}
		pushStmts(e.Body, d)
	}
	return nil
}
