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

// sameStore reports whether a save goes to the store a read came from
// (stateKey's store part): the saved value was counted from what was
// read, so a second run changes it again, whichever key expression
// names the record (the read's key, or the id the record carries).
func sameStore(read, save string) bool {
	rs, _, _ := strings.Cut(read, "|")
	ss, _, _ := strings.Cut(save, "|")
	return rs == ss
}

// decodeInto carries a state read on through a decode into an
// out-parameter (Go: json.Unmarshal(item.Value, &inv)): inv holds what
// was read.
func (w *walker) decodeInto(call *Expr) {
	var outs []string
	for _, a := range call.Args {
		if a.Kind == ExprUnary && a.Op == "&" && a.X != nil && a.X.Kind == ExprIdent {
			outs = append(outs, a.X.Name)
		}
	}
	if len(outs) == 0 {
		return
	}
	for i := range w.ops {
		o := &w.ops[i]
		if o.kind != opEffect || o.eff.kind != effRead || o.key == "" || len(o.vars) == 0 {
			continue
		}
		for _, a := range call.Args {
			if !(a.Kind == ExprUnary && a.Op == "&") && usesAny(a, o.vars) {
				o.vars = append(o.vars, outs...)
				break
			}
		}
	}
}

// libraryCode reports whether a function twice would follow is a
// library's own source that a table row already describes (reviewing the
// SDK's repository: DaprClient.SaveStateAsync is found in the tree): a
// C# namespace or Python module some library names.
func libraryCode(fn *Func) bool {
	if fn.File == nil || fn.File.Package == "" {
		return false
	}
	switch fn.File.Lang {
	case LangCSharp, LangPython:
		return knownModule(fn.File.Lang, fn.File.Package)
	}
	return false
}
