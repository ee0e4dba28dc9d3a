package review

import "strings"

// A read-modify-write of a counter through a state store: the body reads
// a key, adds to or subtracts from what it read, and saves the result to
// the same key. A second run reads the value the first one wrote and
// changes it again: the hazard table's "Increment a counter or balance"
// (dapr/dotnet-sdk's examples/Workflow/WorkflowConsoleApp
// UpdateInventoryActivity has this shape).

// stateKey is a Dapr state call's store and key as written ("" for any
// other call): get_state/save_state (Python), GetState/SaveState (Go, after
// the context), GetStateAsync/SaveStateAsync (C#).
func stateKey(call *Expr, lang Lang, save bool) string {
	m := call.Method()
	var store, key *Expr
	switch lang {
	case LangPython:
		if m != "get_state" && m != "save_state" || (m == "save_state") != save {
			return ""
		}
		store, key = callArgOrKw(call, 0, "store_name"), callArgOrKw(call, 1, "key")
	case LangGo:
		if m != "GetState" && m != "SaveState" || (m == "SaveState") != save {
			return ""
		}
		store, key = call.Arg(1), call.Arg(2)
	case LangCSharp:
		if m != "GetStateAsync" && m != "GetStateAndETagAsync" && m != "SaveStateAsync" || (m == "SaveStateAsync") != save {
			return ""
		}
		store, key = callArgOrKw(call, 0, "storeName"), callArgOrKw(call, 1, "key")
	}
	if store == nil || key == nil {
		return ""
	}
	return squash(store.Text) + "|" + squash(key.Text)
}

// stateValue is a state save's value argument.
func stateValue(call *Expr, lang Lang) *Expr {
	switch lang {
	case LangPython:
		return callArgOrKw(call, 2, "value")
	case LangGo:
		return call.Arg(3)
	}
	return callArgOrKw(call, 2, "value")
}

func squash(s string) string { return strings.Join(strings.Fields(s), " ") }

// rootIdent is the variable an attribute chain starts from (item in
// item.Stock.Qty), or "".
func rootIdent(e *Expr) string {
	for e != nil && e.Kind == ExprAttr {
		e = e.X
	}
	if e != nil && e.Kind == ExprIdent {
		return e.Name
	}
	return ""
}

// readOf is the state read a variable holds the result of, or nil.
func (w *walker) readOf(name string) *op {
	for i := range w.ops {
		o := &w.ops[i]
		if o.kind == opEffect && o.eff.kind == effRead && o.key != "" {
			for _, v := range o.vars {
				if v == name {
					return o
				}
			}
		}
	}
	return nil
}

// countedFrom says whether an expression adds to or subtracts from a
// value read from the state store (item.Qty - n), or names a variable
// that holds one; it returns the read.
func (w *walker) countedFrom(e *Expr, f *frame) *op {
	rd, _ := w.countedValue(e, f)
	return rd
}

// countedValue is countedFrom with the expression that does it.
func (w *walker) countedValue(e *Expr, f *frame) (*op, string) {
	var rd *op
	what := ""
	e.Exprs(func(x *Expr) bool {
		if rd != nil {
			return false
		}
		switch x.Kind {
		case ExprIdent:
			if o := f.counted[x.Name]; o != nil {
				rd, what = o, x.Name
			}
		case ExprBinary:
			if x.Op != "+" && x.Op != "-" {
				return true
			}
			for _, a := range x.Args {
				for _, id := range a.Idents() {
					if o := w.readOf(id); o != nil && a.Kind != ExprNumber {
						rd, what = o, x.Text
						return false
					}
				}
			}
		}
		return true
	})
	return rd, what
}
