package review

import "strings"

// A read-modify-write of a counter through a state store: the body reads
// a key, adds to or subtracts from what it read, and saves the result to
// the same key. A second run reads the value the first one wrote and
// changes it again: the hazard table's "Increment a counter or balance"
// (dapr/dotnet-sdk's examples/Workflow/WorkflowConsoleApp
// UpdateInventoryActivity has this shape).

// stateKey is a state call's store and key as written, where its row
// names them (lib_dapr.go: get_state/save_state, GetState/SaveState,
// GetStateAsync/SaveStateAsync), or "".
func stateKey(e effect) string {
	if e.row == nil || !e.row.store.set || !e.row.key.set {
		return ""
	}
	store, key := e.row.store.of(e.call), e.row.key.of(e.call)
	if store == nil || key == nil {
		return ""
	}
	return squash(store.Text) + "|" + squash(key.Text)
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
