package review

// LoopElem is one element a loop iterates over: Value, and Key when the
// loop ranges over a map or dict's entries.
type LoopElem struct {
	Key, Value *Expr
}

// RangeOf finds the loop in body that binds name around the call at pos
// (a registration made in a loop over a list of activities) and returns
// the literal elements it iterates over: a list, tuple, slice or map
// literal written in place, held by a variable the body or the file's
// globals assign, or a dict's items(). keyVar names the loop's key
// variable when it has one. ok is false when name is not bound by such a
// loop. Go's for k, v := range binds key and value; a single variable
// binds the element (Python, C#) unless goIndex says it is Go's index.
func RangeOf(body, globals []*Stmt, at Pos, name string, goIndex bool) (elems []LoopElem, keyVar string, ok bool) {
	loop := enclosingLoop(body, at, name)
	if loop == nil {
		return nil, "", false
	}
	value, key := loopVars(loop, goIndex)
	if value != name {
		return nil, "", false
	}
	x := loop.X
	items := false
	if x != nil && x.Kind == ExprCall && x.Name == "items" && len(x.Args) == 0 && x.Receiver() != nil {
		x, items = x.Receiver(), true
	}
	for depth := 0; x != nil && x.Kind == ExprIdent && depth < 3; depth++ {
		x = Assigned(body, globals, x.Name)
	}
	if x == nil || x.Kind != ExprComposite {
		return nil, "", false
	}
	if len(x.Keys) > 0 {
		for _, k := range x.Keys {
			ke := k.KeyExpr
			switch {
			case ke == nil && goIndex:
				// A Go map key written as a name: a constant or variable.
				ke = &Expr{Kind: ExprIdent, Name: k.Key, Text: k.Key, Pos: k.Value.Pos}
			case ke == nil:
				ke = &Expr{Kind: ExprString, Str: k.Key, Text: k.Key, Pos: k.Value.Pos}
			}
			elems = append(elems, LoopElem{Key: ke, Value: k.Value})
		}
		return elems, key, true
	}
	if items {
		return nil, "", false
	}
	for _, a := range x.Args {
		elems = append(elems, LoopElem{Value: a})
	}
	return elems, key, true
}

// LoopOver is the value iterated by the innermost loop that binds name
// around the call at pos (nil: no such loop).
func LoopOver(body []*Stmt, at Pos, name string) *Expr {
	loop := enclosingLoop(body, at, name)
	if loop == nil {
		return nil
	}
	return loop.X
}

// enclosingLoop is the innermost loop binding name whose body holds the
// call at pos.
func enclosingLoop(stmts []*Stmt, at Pos, name string) *Stmt {
	var found *Stmt
	var visit func(list []*Stmt, loops []*Stmt)
	visit = func(list []*Stmt, loops []*Stmt) {
		for _, s := range list {
			if s == nil || found != nil {
				return
			}
			for _, e := range s.StmtExprs() {
				e.Exprs(func(x *Expr) bool {
					if x.Kind == ExprCall && x.Pos == at && found == nil {
						for i := len(loops) - 1; i >= 0; i-- {
							if binds(loops[i], name) {
								found = loops[i]
								break
							}
						}
					}
					if x.Kind == ExprFunc {
						visit(x.Body, loops)
					}
					return found == nil
				})
			}
			inner := loops
			if s.Kind == StmtLoop {
				inner = append(append([]*Stmt(nil), loops...), s)
			}
			visit(s.Body, inner)
			visit(s.Else, loops)
			for _, h := range s.Handlers {
				visit(h, loops)
			}
			visit(s.Finally, loops)
		}
	}
	visit(stmts, nil)
	return found
}

func binds(loop *Stmt, name string) bool {
	for _, l := range loop.Lhs {
		for _, id := range l.Idents() {
			if id == name {
				return true
			}
		}
	}
	return false
}

// loopVars names a loop's element and key variables.
func loopVars(loop *Stmt, goIndex bool) (value, key string) {
	lhs := loop.Lhs
	if len(lhs) == 1 && lhs[0].Kind == ExprComposite && len(lhs[0].Args) == 2 {
		lhs = lhs[0].Args // Python: for name, fn in d.items()
	}
	switch len(lhs) {
	case 1:
		if goIndex {
			return "", lhs[0].Name
		}
		return lhs[0].Name, ""
	case 2:
		return lhs[1].Name, lhs[0].Name
	}
	return "", ""
}

// Assigned is the value last assigned to a name in the body, else in the
// globals (nil when neither assigns it).
func Assigned(body, globals []*Stmt, name string) *Expr {
	var found *Expr
	for _, list := range [][]*Stmt{globals, body} {
		Walk(list, func(s *Stmt) bool {
			if s.Kind == StmtAssign && (s.Op == "=" || s.Op == ":=") {
				for i, l := range s.Lhs {
					if l.Kind == ExprIdent && l.Name == name && i < len(s.Rhs) {
						found = s.Rhs[i]
					}
				}
			}
			return true
		})
	}
	return found
}
