package cli

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"strings"
	"testing"
)

// TestOptionsHoldNoFactory: no command's options struct holds the
// Factory; each holds the dependencies it uses (deps.go), set by its
// NewCmd function, as cli/cli's commands do. A command that needs
// something new takes it as a field (a func the Factory provides), or
// embeds runDeps / viewDeps when it reads and analyses runs.
func TestOptionsHoldNoFactory(t *testing.T) {
	fset := token.NewFileSet()
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(file, func(n ast.Node) bool {
			ts, ok := n.(*ast.TypeSpec)
			if !ok || !strings.HasSuffix(ts.Name.Name, "Options") {
				return true
			}
			st, ok := ts.Type.(*ast.StructType)
			if !ok {
				return true
			}
			checked++
			for _, field := range st.Fields.List {
				typ := field.Type
				if star, ok := typ.(*ast.StarExpr); ok {
					typ = star.X
				}
				if id, ok := typ.(*ast.Ident); ok && id.Name == "Factory" {
					t.Errorf("%s: %s holds the Factory: give it the dependencies it uses instead (deps.go)", fset.Position(field.Pos()), ts.Name.Name)
				}
			}
			return true
		})
	}
	if checked < 8 {
		t.Errorf("checked %d options structs, want every command's (at least 8)", checked)
	}
}
