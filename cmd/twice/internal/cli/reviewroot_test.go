package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReviewRootLinkIsFollowed (issue 26, item 9): a review root that is a
// link to a folder is reviewed as the folder (before: nothing was
// reviewed and --exit-status exited 0); a link inside the tree is still
// not followed.
func TestReviewRootLinkIsFollowed(t *testing.T) {
	target, err := filepath.Abs(filepath.Join(corpusGo, "g01"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	link := filepath.Join(dir, "svc")
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("symlink: %v", err)
	}
	h := newHarness(t)
	res := h.run("review", link, "--exit-status")
	if res.code != ExitFindings || !strings.Contains(res.out, "ChargeCard") {
		t.Errorf("review of a root link: exit %d, want %d with ChargeCard's hazard\n%s\n%s", res.code, ExitFindings, res.out, res.errOut)
	}

	// Inside a tree, a link to a folder is never followed.
	tree := filepath.Join(dir, "tree")
	if err := os.MkdirAll(tree, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(tree, "inner")); err != nil {
		t.Fatal(err)
	}
	h = newHarness(t)
	res = h.run("review", tree, "-o", "json")
	if strings.Contains(res.out, "ChargeCard") {
		t.Errorf("a link inside the tree was followed:\n%s", res.out)
	}
}

// TestReviewOfNoSourceIsNeverAPass (issue 26, item 9): a review that found
// no Go, Python or C# source says so on standard error, and under
// --exit-status or --fail-on it is an error (exit 1), never exit 0.
func TestReviewOfNoSourceIsNeverAPass(t *testing.T) {
	empty := t.TempDir()
	if err := os.WriteFile(filepath.Join(empty, "README.md"), []byte("# not source\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		code int
	}{
		{[]string{"review", empty}, ExitOK},
		{[]string{"review", empty, "--exit-status"}, ExitError},
		{[]string{"review", empty, "--fail-on", "low"}, ExitError},
		{[]string{"review", empty, "-o", "sarif", "--fail-on", "high"}, ExitError},
	} {
		h := newHarness(t)
		res := h.run(tc.args...)
		if res.code != tc.code {
			t.Errorf("twice %s: exit %d, want %d\n%s", strings.Join(tc.args, " "), res.code, tc.code, res.errOut)
		}
		if !strings.Contains(res.errOut, "no Go, Python or C# source") {
			t.Errorf("twice %s: standard error does not say no source was found:\n%s", strings.Join(tc.args, " "), res.errOut)
		}
	}
}
