package tui

import (
	"reflect"
	"strings"
	"testing"
)

// TestOptionsAreTuis: a caller (the command line) configures the view with
// tui's own types and the model's, never a pane's: no field of Options is
// of a type from a package under tui/ (runview's CodeSource was one).
func TestOptionsAreTuis(t *testing.T) {
	typ := reflect.TypeFor[Options]()
	for i := range typ.NumField() {
		f := typ.Field(i)
		ft := f.Type
		for ft.Kind() == reflect.Pointer || ft.Kind() == reflect.Slice {
			ft = ft.Elem()
		}
		if p := ft.PkgPath(); strings.Contains(p, "/tui/") && !strings.HasSuffix(p, "/tui/editor") {
			t.Errorf("Options.%s is a %s: a caller would import %s", f.Name, ft, p)
		}
	}
}
