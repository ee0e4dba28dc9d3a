// Package editor says how to open a file at a line in the user's editor:
// which editor ($VISUAL, else $EDITOR, as git and less choose), and the
// argument each common editor takes for a line. It builds an argument
// vector; the caller runs it directly, never through a shell.
package editor

import (
	"strconv"
	"strings"
)

// Editor is the user's editor: its command line, split on spaces (a
// variable such as "code --wait" holds the program and its arguments; quotes
// are not interpreted), and the variable it came from.
type Editor struct {
	// Argv is the program and the arguments the variable gave it.
	Argv []string
	// Var names the variable ("VISUAL" or "EDITOR"), for messages.
	Var string
}

// FromEnv returns the editor $VISUAL names, else the one $EDITOR names;
// false when neither is set (or holds only spaces).
func FromEnv(getenv func(string) string) (Editor, bool) {
	for _, v := range []string{"VISUAL", "EDITOR"} {
		if argv := strings.Fields(getenv(v)); len(argv) > 0 {
			return Editor{Argv: argv, Var: v}, true
		}
	}
	return Editor{}, false
}

// Parse returns the editor a command line names (split on spaces), as if
// variable v held it; false for an empty line.
func Parse(line, v string) (Editor, bool) {
	argv := strings.Fields(line)
	return Editor{Argv: argv, Var: v}, len(argv) > 0
}

// Name is the editor program's base name ("vim", "code"), as the line
// syntax is chosen by.
func (e Editor) Name() string {
	if len(e.Argv) == 0 {
		return ""
	}
	// Either separator: a Windows path names its program the same way
	// wherever the name is read.
	name := e.Argv[0]
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	return strings.TrimSuffix(strings.ToLower(name), ".exe")
}

// lineSyntax is how an editor is told the line to open a file at.
type lineSyntax uint8

const (
	// lineUnknown: twice does not know the editor; the file is opened
	// without a line rather than with an argument it might misread.
	lineUnknown lineSyntax = iota
	// linePlus: "+LINE FILE", vi's syntax, which most terminal editors
	// share.
	linePlus
	// lineGoto: "-g FILE:LINE" (Visual Studio Code and its forks).
	lineGoto
	// lineSuffix: "FILE:LINE" (Sublime Text, Zed).
	lineSuffix
)

// syntaxOf is each known editor's line syntax, by program name.
func syntaxOf(name string) lineSyntax {
	switch name {
	case "vi", "vim", "nvim", "gvim", "view", "nvi", "elvis", "ex", "vis",
		"nano", "pico", "rnano",
		"emacs", "emacsclient", "mg", "zile", "jove",
		"hx", "helix", "micro", "kak", "joe", "jed", "ne", "mcedit", "gedit":
		return linePlus
	case "code", "code-insiders", "codium", "vscodium", "cursor", "windsurf":
		return lineGoto
	case "subl", "sublime_text", "zed", "zeditor":
		return lineSuffix
	}
	return lineUnknown
}

// KnowsLines reports whether twice knows how to tell this editor a line.
func (e Editor) KnowsLines() bool { return syntaxOf(e.Name()) != lineUnknown }

// Command returns the argument vector that opens file at line (1-based; 0
// or less: no line) in the editor: the editor's own arguments, then the
// line in its syntax and the file. A file whose name starts with "-" or
// "+" is given as "./name", so that no editor reads it as an option.
func (e Editor) Command(file string, line int) []string {
	argv := append([]string(nil), e.Argv...)
	if strings.HasPrefix(file, "-") || strings.HasPrefix(file, "+") {
		// Never an option or a line to the editor.
		file = "./" + file
	}
	if line <= 0 {
		return append(argv, file)
	}
	n := strconv.Itoa(line)
	switch syntaxOf(e.Name()) {
	case linePlus:
		return append(argv, "+"+n, file)
	case lineGoto:
		return append(argv, "-g", file+":"+n)
	case lineSuffix:
		return append(argv, file+":"+n)
	}
	return append(argv, file)
}
