package detect

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/twice-cli/twice/catalyst"
)

// TestDetectAsksTraitsNotFormats: detect's code never names a wire format
// (catalyst.FormatDaprCLI, …): what a source can say is a trait its
// decoder sets (catalyst.Traits), so a new format with the same quirks
// needs nothing new here.
func TestDetectAsksTraitsNotFormats(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if x, ok := sel.X.(*ast.Ident); ok && x.Name == "catalyst" && strings.HasPrefix(sel.Sel.Name, "Format") {
					t.Errorf("%s: detect names a format (catalyst.%s); ask the history's Traits instead",
						fset.Position(sel.Pos()), sel.Sel.Name)
				}
			}
			return true
		})
	}
}

// TestTraitsDecideNotTheFormat: every Dapr CLI case of the corpus,
// analysed again as if another format had carried the same traits, gives
// the same invocations, findings and skipped checks, but for the name of
// the format in the sentences that name it.
func TestTraitsDecideNotTheFormat(t *testing.T) {
	noun := catalyst.FormatDaprCLI.Noun()
	other := catalyst.FormatProtoJSON.Noun()
	for _, c := range corpusCases() {
		if c.format != fmtDaprCLI {
			continue
		}
		t.Run(c.file(), func(t *testing.T) {
			h := decodeCorpusFile(t, c.file())
			if h.Traits != catalyst.DaprCLITraits() {
				t.Fatalf("the decoder set %+v, want the Dapr CLI's traits %+v", h.Traits, catalyst.DaprCLITraits())
			}
			want := Analyze(h, Options{})
			h.Format = catalyst.FormatProtoJSON
			got := Analyze(h, Options{})
			renamed := func(s string) string { return strings.ReplaceAll(s, other, noun) }
			for i := range got.Findings {
				for j := range got.Findings[i].Evidence {
					got.Findings[i].Evidence[j].Fact.Text = renamed(got.Findings[i].Evidence[j].Fact.Text)
				}
			}
			for i := range got.Skipped {
				got.Skipped[i].Reason = renamed(got.Skipped[i].Reason)
			}
			for i := range got.OutcomeNotes {
				got.OutcomeNotes[i].Text = renamed(got.OutcomeNotes[i].Text)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("the format's name changed the analysis, not only its words:\ngot  %s\nwant %s",
					summaryOf(got, true), summaryOf(want, true))
			}
		})
	}
}
