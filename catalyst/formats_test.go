package catalyst

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
	"testing"
)

// formatConstants are the Format constants history.go declares, read from
// the source so that a format added there is checked here without a list
// to keep.
func formatConstants(t *testing.T) []Format {
	t.Helper()
	file, err := parser.ParseFile(token.NewFileSet(), "history.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []Format
	for _, decl := range file.Decls {
		gd, ok := decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.CONST {
			continue
		}
		for _, spec := range gd.Specs {
			vs := spec.(*ast.ValueSpec)
			if id, ok := vs.Type.(*ast.Ident); !ok || id.Name != "Format" {
				continue
			}
			for _, v := range vs.Values {
				if lit, ok := v.(*ast.BasicLit); ok && lit.Kind == token.STRING {
					out = append(out, Format(strings.Trim(lit.Value, `"`)))
				}
			}
		}
	}
	if len(out) < 4 {
		t.Fatalf("found %d Format constants in history.go, want at least 4", len(out))
	}
	return out
}

// TestEveryFormatIsNamed: every format twice reads has a name for people
// (Description) and is in the list an unreadable input's error gives
// (readableFormats). A format added without either fails here
// (docs/architecture.md, "Adding an input format").
func TestEveryFormatIsNamed(t *testing.T) {
	for _, f := range formatConstants(t) {
		d := f.Description()
		if d == string(f) || d == "" {
			t.Errorf("format %q has no Description (history.go)", f)
			continue
		}
		if !strings.Contains(readableFormats, strings.TrimSuffix(d, "y")) { // "twice saved histories" there
			t.Errorf("format %q (%s) is not in readableFormats (decode.go), what a FormatError says twice reads", f, d)
		}
	}
}
