package editor

import (
	"slices"
	"testing"
)

// TestCommand checks the argument vector for each family of editors, an
// editor with arguments of its own, an unknown editor (no line rather
// than an argument it could misread) and a file named like an option.
func TestCommand(t *testing.T) {
	cases := []struct {
		line string
		file string
		at   int
		want []string
	}{
		{"vim", "svc/charge.go", 47, []string{"vim", "+47", "svc/charge.go"}},
		{"/usr/bin/nvim", "a.py", 3, []string{"/usr/bin/nvim", "+3", "a.py"}},
		{"vi", "a.py", 3, []string{"vi", "+3", "a.py"}},
		{"nano", "a.py", 3, []string{"nano", "+3", "a.py"}},
		{"emacs -nw", "a.py", 3, []string{"emacs", "-nw", "+3", "a.py"}},
		{"emacsclient -t", "a.py", 3, []string{"emacsclient", "-t", "+3", "a.py"}},
		{"hx", "a.py", 3, []string{"hx", "+3", "a.py"}},
		{"micro", "a.py", 3, []string{"micro", "+3", "a.py"}},
		{"code --wait", "svc/charge.go", 47, []string{"code", "--wait", "-g", "svc/charge.go:47"}},
		{"  code   -w  ", "a.py", 3, []string{"code", "-w", "-g", "a.py:3"}},
		{"codium", "a.py", 3, []string{"codium", "-g", "a.py:3"}},
		{"subl -w", "a.py", 3, []string{"subl", "-w", "a.py:3"}},
		{`C:\Tools\Code.exe`, "a.py", 3, []string{`C:\Tools\Code.exe`, "-g", "a.py:3"}},
		{"ed", "a.py", 3, []string{"ed", "a.py"}},
		{"my-editor --flag", "a.py", 3, []string{"my-editor", "--flag", "a.py"}},
		{"vim", "a.py", 0, []string{"vim", "a.py"}},
		{"vim", "-rf.py", 2, []string{"vim", "+2", "./-rf.py"}},
		{"code", "+x.py", 2, []string{"code", "-g", "./+x.py:2"}},
	}
	for _, c := range cases {
		e, ok := Parse(c.line, "EDITOR")
		if !ok {
			t.Fatalf("Parse(%q) found no editor", c.line)
		}
		if got := e.Command(c.file, c.at); !slices.Equal(got, c.want) {
			t.Errorf("%q: Command(%q, %d) = %q, want %q", c.line, c.file, c.at, got, c.want)
		}
	}
}

// TestFromEnv: $VISUAL wins over $EDITOR, a blank variable counts as
// unset, and neither set is said.
func TestFromEnv(t *testing.T) {
	env := func(vals map[string]string) func(string) string {
		return func(k string) string { return vals[k] }
	}
	cases := []struct {
		vals    map[string]string
		want    []string
		wantVar string
		ok      bool
	}{
		{map[string]string{"VISUAL": "code --wait", "EDITOR": "vim"}, []string{"code", "--wait"}, "VISUAL", true},
		{map[string]string{"EDITOR": "vim"}, []string{"vim"}, "EDITOR", true},
		{map[string]string{"VISUAL": "  ", "EDITOR": "nano"}, []string{"nano"}, "EDITOR", true},
		{map[string]string{}, nil, "", false},
	}
	for _, c := range cases {
		e, ok := FromEnv(env(c.vals))
		if ok != c.ok || !slices.Equal(e.Argv, c.want) || e.Var != c.wantVar {
			t.Errorf("FromEnv(%v) = %+v, %v; want %q from %s, %v", c.vals, e, ok, c.want, c.wantVar, c.ok)
		}
	}
}

func TestKnowsLines(t *testing.T) {
	for line, want := range map[string]bool{"vim": true, "code --wait": true, "subl": true, "ed": false, "notepad.exe": false} {
		e, _ := Parse(line, "EDITOR")
		if e.KnowsLines() != want {
			t.Errorf("%q: KnowsLines = %v, want %v", line, !want, want)
		}
	}
}
