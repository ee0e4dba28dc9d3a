//go:build cgo

package tsconv

import (
	"fmt"
	"strings"
	"testing"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tspython "github.com/tree-sitter/tree-sitter-python/bindings/go"
)

// listNode parses x = [0, 1, …] of n items and returns its list node.
func listNode(t *testing.T, n int) (*sitter.Tree, *sitter.Node, Source) {
	t.Helper()
	var b strings.Builder
	b.WriteString("x = [")
	for i := range n {
		fmt.Fprintf(&b, "%d, # c\n", i)
	}
	b.WriteString("]\n")
	src := NewSource([]byte(b.String()))
	tree, err := Parse(tspython.Language(), src.Src)
	if err != nil {
		t.Fatal(err)
	}
	list := tree.RootNode().NamedChild(0).NamedChild(0).ChildByFieldName("right")
	if list == nil || list.Kind() != "list" {
		t.Fatalf("no list node: %v", tree.RootNode().ToSexp())
	}
	return tree, list, src
}

// TestNamedKeepsOrderAndDropsComments: read with a cursor (many
// children) or by index (a few), Named gives every named child but
// comments, in order.
func TestNamedKeepsOrderAndDropsComments(t *testing.T) {
	for _, n := range []int{3, cursorPast, cursorPast + 1, 50_000} {
		tree, list, src := listNode(t, n)
		kids := Named(list)
		if len(kids) != n {
			t.Fatalf("%d children of %d", len(kids), n)
		}
		for i, k := range kids {
			if got := src.Text(k); got != fmt.Sprint(i) {
				t.Fatalf("child %d of %d is %q", i, n, got)
			}
		}
		tree.Close()
	}
}
