package tui

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"

	tea "charm.land/bubbletea/v2"

	"github.com/twice-cli/twice/catalyst/safetext"
	"github.com/twice-cli/twice/tui/runview"
)

// editorClosedMsg: the editor e started has returned (err: why it failed).
type editorClosedMsg struct {
	// name is the editor's program, at the file:line it was opened at.
	name, at string
	// copied is set when it opened a temporary copy of an embedded file;
	// noLine when twice does not know how to tell it the line (line).
	copied, noLine bool
	line           int
	err            error
}

// edit opens a source file at a line in the user's editor, the view
// suspended until it returns (tea.ExecProcess). The editor runs directly,
// never through a shell: its argument vector is $VISUAL's or $EDITOR's
// words, the line in the editor's syntax, and the file. A file of an
// embedded source (the bundled demo services) is written to a temporary
// copy first, removed when twice quits.
func (m *Model) edit(msg runview.EditMsg) tea.Cmd {
	if msg.File == "" {
		m.setStatus(msg.Why)
		return nil
	}
	at := safetext.Line(msg.File) + ":" + strconv.Itoa(msg.Line)
	ed := m.opts.Editor
	if len(ed.Argv) == 0 {
		m.setError("no editor to open " + at + " in: set $VISUAL or $EDITOR (for example export EDITOR=vim) and run twice again")
		return nil
	}
	path := filepath.FromSlash(msg.File)
	copied := msg.Source.Embedded()
	if copied {
		var err error
		if path, err = m.sourceCopy(msg); err != nil {
			m.setError("cannot open " + at + ": writing a copy of the embedded demo source failed: " + safetext.Line(err.Error()))
			return nil
		}
	} else if _, err := os.Stat(path); err != nil {
		why := safetext.Line(err.Error())
		if errors.Is(err, fs.ErrNotExist) {
			why = "it is not there any more (twice reads the path as it was given to --source, from the folder twice was started in)"
		}
		m.setError("cannot open " + at + ": " + why)
		return nil
	}
	name := safetext.Line(ed.Name())
	argv := ed.Command(path, msg.Line)
	cmd := exec.Command(argv[0], argv[1:]...)
	if cmd.Err != nil {
		m.setError("cannot run the editor " + name + " ($" + ed.Var + "): " + safetext.Line(cmd.Err.Error()))
		return nil
	}
	done := editorClosedMsg{name: name, at: at, copied: copied, noLine: !ed.KnowsLines(), line: msg.Line}
	return tea.ExecProcess(cmd, func(err error) tea.Msg {
		done.err = err
		return done
	})
}

// onEditorClosed says how the editor ended, and what twice could not do.
func (m *Model) onEditorClosed(msg editorClosedMsg) {
	var exit *exec.ExitError
	switch {
	case errors.As(msg.err, &exit):
		m.setError("the editor " + msg.name + " exited with status " + strconv.Itoa(exit.ExitCode()) + " (" + msg.at + ")")
		return
	case msg.err != nil:
		m.setError("could not run the editor " + msg.name + " on " + msg.at + ": " + safetext.Line(msg.err.Error()))
		return
	}
	text := "back from " + msg.name + " (" + msg.at + ")"
	if msg.noLine {
		text += "; twice does not know how to give " + msg.name + " a line: go to line " + strconv.Itoa(msg.line)
	}
	if msg.copied {
		text += "; that was a temporary copy of the embedded demo source, removed when twice quits"
	}
	m.setStatus(text)
}

// sourceCopy writes a file of an embedded source to the view's temporary
// folder (made on first use) and returns its path. A file copied before is
// not written again: what was edited in it stays until twice quits.
func (m *Model) sourceCopy(msg runview.EditMsg) (string, error) {
	if !fs.ValidPath(msg.File) {
		return "", fmt.Errorf("%s is not a path inside the embedded source", msg.File)
	}
	if m.copies == "" {
		dir, err := os.MkdirTemp(m.opts.TempDir, "twice-demo-source-")
		if err != nil {
			return "", err
		}
		m.copies = dir
	}
	path := filepath.Join(m.copies, filepath.FromSlash(msg.File))
	if _, err := os.Stat(path); err == nil {
		return path, nil
	}
	b, err := msg.Source.ReadFile(msg.File)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return "", err
	}
	return path, os.WriteFile(path, b, 0o600)
}

// removeCopies removes the temporary copies e wrote (Run calls it when the
// program ends).
func (m *Model) removeCopies() {
	if m.copies != "" {
		_ = os.RemoveAll(m.copies)
		m.copies = ""
	}
}
