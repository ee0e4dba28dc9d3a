package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/twice-cli/twice/detect"
)

// repoFile reads a file at the repository's root.
func repoFile(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "..", "..", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestReadmeCommandsWorkWithOnlyGo: README's first code block is exactly
// two commands, the demo and the tests, and the test command needs nothing
// but Go (-race needs cgo and a C compiler); CI runs exactly that command,
// and the race detector as well.
func TestReadmeCommandsWorkWithOnlyGo(t *testing.T) {
	readme := repoFile(t, "README.md")
	block := regexp.MustCompile("(?s)```sh\n(.*?)```").FindStringSubmatch(readme)
	if block == nil {
		t.Fatal("README has no sh code block")
	}
	cmds := strings.Split(strings.TrimSpace(block[1]), "\n")
	if len(cmds) != 2 {
		t.Fatalf("README's first block has %d commands, want 2: %q", len(cmds), cmds)
	}
	if !strings.HasPrefix(cmds[0], "go run ./cmd/twice show demo:") {
		t.Errorf("first command %q does not run twice on a bundled demo", cmds[0])
	}
	if cmds[1] != "go test ./..." {
		t.Errorf("second command %q, want go test ./... (-race needs a C compiler a machine with only Go lacks)", cmds[1])
	}
	ci := repoFile(t, ".ci/run")
	lines := map[string]bool{}
	for _, l := range strings.Split(ci, "\n") {
		lines[strings.TrimSpace(l)] = true
	}
	if !lines[cmds[1]] {
		t.Errorf(".ci/run does not run README's test command %q as it is", cmds[1])
	}
	if !regexp.MustCompile(`(?m)^\s*(CGO_ENABLED=1 )?go test -race \./\.\.\.$`).MatchString(ci) {
		t.Errorf(".ci/run no longer runs the tests under the race detector")
	}
	if !strings.Contains(ci, "gcc") || !strings.Contains(ci, "tmux") || !strings.Contains(ci, "apt-get") {
		t.Errorf(".ci/run does not install gcc and tmux with apt-get when they are missing")
	}
}

// TestReadmeListsEveryFinding: README's table of findings is the
// catalogue's (detect.Checks), row for row, in the order the help lists
// it: a finding added, renamed or re-documented without its README row
// fails here, and the message is the table to paste.
func TestReadmeListsEveryFinding(t *testing.T) {
	const header = "| finding | severity | when |\n|---|---|---|\n"
	var want strings.Builder
	want.WriteString(header)
	for _, c := range findingsBySeverity() {
		want.WriteString("| `" + string(c.ID) + "` | " + c.Severity.String() + " | " + c.Doc + " |\n")
	}
	readme := repoFile(t, "README.md")
	i := strings.Index(readme, header)
	if i < 0 {
		t.Fatalf("README has no table of findings; add under \"What twice finds in a history\":\n%s", want.String())
	}
	got := readme[i:]
	if end := strings.Index(got, "\n\n"); end >= 0 {
		got = got[:end+1]
	}
	if got != want.String() {
		t.Errorf("README's table of findings is not the catalogue's; it should read:\n%s", want.String())
	}
}

// TestScanHelpListsEveryFinding: twice scan --help lists each finding of
// the catalogue with its default severity and title.
func TestScanHelpListsEveryFinding(t *testing.T) {
	res := newHarness(t).run("scan", "--help")
	if res.code != ExitOK {
		t.Fatalf("exit %d: %s", res.code, res.errOut)
	}
	for _, c := range detect.Checks() {
		if !regexp.MustCompile(`(?m)^  ` + regexp.QuoteMeta(string(c.ID)) + ` +` + c.Severity.String() + ` +` +
			regexp.QuoteMeta(c.Title) + `$`).MatchString(res.out) {
			t.Errorf("scan --help does not list %s (%s, %q):\n%s", c.ID, c.Severity, c.Title, res.out)
		}
	}
}
