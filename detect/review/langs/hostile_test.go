//go:build cgo

package langs

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/twice-cli/twice/detect/review"
)

// deepFiles are files nested far past review.MaxNesting in each shape a
// front-end recurses on (issue 26, item 2): calls, operators, member
// chains, if/else-if chains (which the Python front-end builds into a
// deep neutral form without recursing) and, for Go, nesting go/parser itself
// accepts (it stops at 100,000 levels).
func deepFiles() map[string]string {
	const n = 30_000
	elif := "if a:\n    pass\n" + strings.Repeat("elif a:\n    pass\n", 5000)
	elseIf := "class A { void M() { " + strings.Repeat("if (a) {} else ", 5000) + "{} } }\n"
	return map[string]string{
		"calls.py":   "x = " + strings.Repeat("f(", n) + strings.Repeat(")", n) + "\n",
		"binop.py":   "x = 1" + strings.Repeat(" + 1", n) + "\n",
		"elif.py":    elif,
		"Calls.cs":   "class A { void M() { var x = " + strings.Repeat("f(", n) + strings.Repeat(")", n) + "; } }\n",
		"Members.cs": "class A { void M() { var x = a" + strings.Repeat(".b", n) + "; } }\n",
		"ElseIf.cs":  elseIf,
		"calls.go":   "package p\n\nfunc F() { _ = " + strings.Repeat("f(", 3000) + strings.Repeat(")", 3000) + " }\n",
	}
}

// TestDeepNestingIsSkippedAndListed: each file nested past the limit is
// skipped and listed with why, the review goes on, and a file nested
// below the limit and an ordinary activity are still reviewed. The stack
// is capped at 16 MB while it runs: before, the converters and the rules
// recursed once per level, and these files ended the process
// with Go's fatal stack overflow (not recoverable).
func TestDeepNestingIsSkippedAndListed(t *testing.T) {
	dir := t.TempDir()
	deep := deepFiles()
	files := map[string]string{
		"shallow.py": "x = " + strings.Repeat("f(", 1500) + strings.Repeat(")", 1500) + "\n",
		"activities.py": `from dapr.ext.workflow import WorkflowRuntime
wfr = WorkflowRuntime()

@wfr.activity(name="charge")
def charge(ctx, order):
    return order
`,
	}
	for name, src := range deep {
		files[name] = src
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	defer debug.SetMaxStack(debug.SetMaxStack(16 << 20))
	rep, err := review.Review(context.Background(), []string{dir}, Options())
	if err != nil {
		t.Fatal(err)
	}
	skipped := map[string]string{}
	for _, s := range rep.Skipped {
		skipped[filepath.Base(s.File)] = s.Reason
	}
	for name := range deep {
		if !strings.Contains(skipped[name], "nests deeper than 2000 levels") {
			t.Errorf("%s: skipped = %q, want it listed as nesting too deep", name, skipped[name])
		}
	}
	for _, name := range []string{"shallow.py", "activities.py"} {
		if r, ok := skipped[name]; ok {
			t.Errorf("%s was skipped (%s)", name, r)
		}
	}
	if len(rep.Activities) != 1 || rep.Activities[0].Name != "charge" {
		t.Errorf("activities = %+v, want charge reviewed", rep.Activities)
	}
}

// TestCheckNestingDoesNotRecurse: a neutral form 100,000 levels deep
// (as a front-end may build from flat syntax) is refused by the check
// itself, with a small stack.
func TestCheckNestingDoesNotRecurse(t *testing.T) {
	root := &review.Stmt{Kind: review.StmtIf}
	tail := root
	for range 100_000 {
		next := &review.Stmt{Kind: review.StmtIf, X: &review.Expr{Kind: review.ExprIdent, Name: "a"}}
		tail.Else = []*review.Stmt{next}
		tail = next
	}
	defer debug.SetMaxStack(debug.SetMaxStack(1 << 20))
	err := review.CheckNesting(&review.File{Funcs: []*review.Func{{Name: "f", Body: []*review.Stmt{root}}}})
	if err == nil || !strings.Contains(err.Error(), "nests deeper than") {
		t.Errorf("CheckNesting = %v", err)
	}
}

// BenchmarkReviewHostile reviews the two files of issue 26 at full size:
// a 3.9 MB one-line list (before: not done after 20 minutes) and 1,000,000
// nested calls (before: Go's fatal stack overflow after 1.6 GB).
func BenchmarkReviewHostile(b *testing.B) {
	var list strings.Builder
	list.WriteString("x = [")
	for i := 0; list.Len() < 3_900_000; i++ {
		fmt.Fprintf(&list, "%d, ", i)
	}
	list.WriteString("]\n")
	const n = 1_000_000
	for _, bc := range []struct{ name, src string }{
		{"one-line-list-3.9MB", list.String()},
		{"nested-calls-1M", "x = " + strings.Repeat("f(", n) + strings.Repeat(")", n) + "\n"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			p := filepath.Join(b.TempDir(), "hostile.py")
			if err := os.WriteFile(p, []byte(bc.src), 0o600); err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(bc.src)))
			for b.Loop() {
				if _, err := review.Review(context.Background(), []string{p}, Options()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
