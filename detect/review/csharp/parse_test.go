package csharp_test

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/twice-cli/twice/detect/review/csharp"
)

// TestParseSurvivesDamagedSource parses every C# file of the corpus and
// the demo service cut short at many places and with bytes flipped (a
// half-saved file, a merge conflict, a syntax error): the front-end never
// panics and always gives a file, as tree-sitter recovers from errors.
func TestParseSurvivesDamagedSource(t *testing.T) {
	if ok, why := csharp.Available(); !ok {
		t.Skip(why)
	}
	var files []string
	for _, root := range []string{"../testdata/corpus/csharp", "../../../fixtures/demo/services/dotnet-retry"} {
		_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err == nil && strings.HasSuffix(p, ".cs") {
				files = append(files, p)
			}
			return err
		})
	}
	if len(files) < 20 {
		t.Fatalf("found %d C# files to damage, want the corpus's", len(files))
	}
	rng := rand.New(rand.NewPCG(18, 2))
	junk := []byte("{}()[];,.<>=!?:@$\"'`\\/*\n\t xyz0=>?.??")
	parse := func(name string, src []byte) {
		defer func() {
			if r := recover(); r != nil {
				t.Fatalf("%s (%d bytes): the front-end panicked: %v\n%s", name, len(src), r, src)
			}
		}()
		f, err := csharp.Frontend{}.Parse(name, src)
		if err != nil || f == nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	for _, p := range files {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for cut := 0; cut < len(src); cut += 1 + len(src)/16 {
			parse(p, src[:cut])
		}
		for i := 0; i < 16; i++ {
			b := append([]byte(nil), src...)
			for j := 0; j < 1+rng.IntN(8); j++ {
				b[rng.IntN(len(b))] = junk[rng.IntN(len(junk))]
			}
			parse(p, b)
		}
	}
}

// TestMatch leaves out test projects, test files and generated code.
func TestMatch(t *testing.T) {
	for name, want := range map[string]bool{
		"src/Shop/Activities/ChargeCard.cs":         true,
		"Program.cs":                                true,
		"tests/Shop.Tests/ChargeCardTests.cs":       false,
		"src/Shop.UnitTests/Fakes.cs":               false,
		"src/Shop/ChargeCardTest.cs":                false,
		"src/Shop/obj/Debug/Dapr_Workflow.g.cs":     false,
		"src/Shop/Properties/Resources.Designer.cs": false,
		"src/Shop/Activities/ChargeCard.csx":        false,
	} {
		if got := (csharp.Frontend{}).Match(name); got != want {
			t.Errorf("Match(%q) = %v, want %v", name, got, want)
		}
	}
}
