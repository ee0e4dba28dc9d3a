package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/twice-cli/twice/catalyst/safetext/hostiletest"
)

// These tests extend terminal_test.go: hostile histories in a real
// terminal, and ctrl+c at every point twice can be waiting.

// paneState returns what the terminal made of the program's output: the
// pane's title and the paste buffers OSC 52 writes create.
func (term *terminal) paneState() (title, buffers string) {
	title = strings.TrimSpace(term.tmux("display", "-p", "-t", "main", "#{pane_title}"))
	out, _ := exec.Command("tmux", "-L", term.sock, "list-buffers").CombinedOutput()
	return title, strings.TrimSpace(string(out))
}

// TestTerminalHostileHistory shows histories of every format with the whole
// hostile corpus planted in them, in the real interactive view, walking
// its tabs, copying what is selected (an event's JSON) and the link, and
// quitting: the terminal's title is twice's own (never "pwned"), what
// reached the clipboard through OSC 52 holds no control, bidi or invisible
// character (the JSON escapes them; a hostile id or link is not copied),
// the screen shows the escapes as text, and the terminal is restored.
func TestTerminalHostileHistory(t *testing.T) {
	bin := buildTwice(t)
	home := t.TempDir()
	for _, d := range hostiletest.Documents(hostiletest.Joined()) {
		if d.Name == "mcp-result" {
			continue // the catalyst document, wrapped: same screens
		}
		t.Run(d.Name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), d.Name+".json")
			if err := os.WriteFile(file, d.Bytes, 0o600); err != nil {
				t.Fatal(err)
			}
			term := startTerminal(t, 120, 40, append(baseEnv, "HOME="+home, "XDG_CONFIG_HOME="+home), bin+" show "+file)
			term.tmux("set", "-g", "set-clipboard", "on") // accept OSC 52 into paste buffers, so a write would show
			s := term.waitFor(`\x1b[2J`)
			if strings.Contains(s, "pwned\n") {
				t.Errorf("the screen shows an interpreted sequence:\n%s", s)
			}
			for _, k := range []string{"Enter", "j", "Tab", "Tab", "j", "j", "j", "j", "y", "Tab", "j", "y", "Y", "?", "?"} {
				term.keys(k)
				time.Sleep(40 * time.Millisecond)
			}
			term.waitFor(`\x1b[2J`)
			title, buffers := term.paneState()
			if title != "twice" {
				t.Errorf("pane title %q, want twice's own", title)
			}
			for _, line := range strings.Split(buffers, "\n") {
				name, _, _ := strings.Cut(line, ":")
				if name == "" {
					continue
				}
				content := term.tmux("show-buffer", "-b", name)
				if v, bad := hostiletest.FindUnsafe(content, false); bad {
					t.Errorf("the clipboard got unsafe %U at byte %d: %.200q", v.Rune, v.Offset, content)
				}
			}
			term.keys("q")
			if st := term.exitStatus(); st != "0" {
				t.Errorf("exit status %s, want 0", st)
			}
			term.checkRestored()
		})
	}
}

// TestTerminalCtrlCAnywhere presses ctrl+c on every screen of the
// interactive view — the run list, a run's tabs, the help, a filter being
// typed — and while it is loading a FIFO nobody writes to: twice exits
// within two seconds with status 130 (as README says) and the terminal is
// restored.
func TestTerminalCtrlCAnywhere(t *testing.T) {
	bin := buildTwice(t)
	home := t.TempDir()
	env := append(baseEnv, "HOME="+home, "XDG_CONFIG_HOME="+home)
	fifo := filepath.Join(t.TempDir(), "history.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatalf("mkfifo: %v", err)
	}
	for _, tc := range []struct {
		name, command, wait string
		keys                []string
	}{
		{"run list", bin, "order-7731", nil},
		{"run list filter", bin, "order-7731", []string{"/", "o", "r"}},
		{"run list help", bin, "order-7731", []string{"?"}},
		{"invocations", bin + " show demo:payment-timeout", "ChargeCard", []string{"Enter"}},
		{"timeline", bin + " show demo:payment-timeout", "ChargeCard", []string{"Tab", "+"}},
		{"events", bin + " show demo:payment-timeout", "ChargeCard", []string{"Tab", "Tab", "j", "j"}},
		{"findings", bin + " show demo:payment-timeout", "ChargeCard", []string{"Tab", "Tab", "Tab"}},
		{"events filter", bin + " show demo:payment-timeout", "ChargeCard", []string{"Tab", "Tab", "/", "c"}},
		{"sort menu", bin + " show demo:payment-timeout", "ChargeCard", []string{"s"}},
		{"detail focused", bin + " show demo:payment-timeout", "ChargeCard", []string{"l", "p"}},
		{"loading a FIFO", bin + " show " + fifo, "quit", nil},
	} {
		t.Run(strings.ReplaceAll(tc.name, " ", "_"), func(t *testing.T) {
			term := startTerminal(t, 100, 30, env, tc.command)
			term.waitFor(tc.wait)
			for _, k := range tc.keys {
				term.keys(k)
				time.Sleep(40 * time.Millisecond)
			}
			start := time.Now()
			term.keys("C-c")
			st := term.exitStatus()
			if d := time.Since(start); d > 2*time.Second {
				t.Errorf("twice took %v to stop after ctrl+c", d)
			}
			if st != "130" {
				t.Errorf("exit status %s after ctrl+c, want 130", st)
			}
			term.checkRestored()
		})
	}
	// Release the FIFO's abandoned reader, if any is left.
	if w, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
		w.Close()
	}
}

// TestTerminalCtrlCWhileReadingInput: ctrl+c while twice reads a history
// from standard input that never ends (the writer ignores the signal, as a
// remote command's pipe does), from an ordinary pipe whose writer the same
// ctrl+c kills (its EOF races the signal), or from a FIFO nobody writes
// to, exits at once with 130. (Regression tests: the read blocked in a
// system call and twice ignored ctrl+c until its input ended; and the
// writer's EOF won, "standard input is empty", exit 1.) While it waits on
// standard input, one line on the terminal says what twice is doing.
func TestTerminalCtrlCWhileReadingInput(t *testing.T) {
	bin := buildTwice(t)
	home := t.TempDir()
	env := append(baseEnv, "HOME="+home, "XDG_CONFIG_HOME="+home)
	fifo := filepath.Join(t.TempDir(), "history.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatalf("mkfifo: %v", err)
	}
	// The writer starts a history, then sends a space every 200 ms forever;
	// it ignores ctrl+c and ends when twice closes the pipe (SIGPIPE).
	writer := `sh -c 'trap "" INT; printf "{\"events\":["; while printf " "; do sleep 0.2; done'`
	for name, command := range map[string]string{
		"stdin":      writer + " | " + bin + " show -",
		"stdin scan": writer + " | " + bin + " scan - -o json",
		// sleep does not trap INT: ctrl+c ends it, closing the pipe.
		"stdin writer dies":       "sleep 100 | " + bin + " show -",
		"stdin writer dies, scan": "sleep 100 | " + bin + " scan - -o json",
		"fifo":                    bin + " show " + fifo + " -o text",
		"fifo opened":             writer + " > " + fifo + " & " + bin + " scan " + fifo,
	} {
		t.Run(strings.ReplaceAll(name, " ", "_"), func(t *testing.T) {
			// The pane's shell survives ctrl+c (trap), so that it can say
			// how twice exited; twice itself gets the signal as usual.
			term := startTerminal(t, 100, 30, env, "trap : INT; "+command)
			// Wait until twice is blocked reading, however loaded the
			// machine: its notice on standard input, else (a FIFO) its
			// process opening or holding the FIFO; a fixed pause let ctrl+c reach the shell
			// before twice had started.
			if strings.HasPrefix(name, "stdin") {
				term.waitFor("reading the history from standard input")
			} else {
				waitForFIFOReader(t, bin, fifo)
			}
			time.Sleep(100 * time.Millisecond)
			start := time.Now()
			term.keys("C-c")
			st := term.exitStatus()
			if d := time.Since(start); d > 2*time.Second {
				t.Errorf("twice took %v to stop after ctrl+c", d)
			}
			if st != "130" {
				t.Errorf("exit status %s after ctrl+c, want 130", st)
			}
			screen := term.screen()
			if !strings.Contains(screen, "twice: interrupted") {
				t.Errorf("twice did not say it was interrupted:\n%s", screen)
			}
			if strings.Contains(screen, "standard input is empty") {
				t.Errorf("ctrl+c was reported as an empty input:\n%s", screen)
			}
			if notice := "twice: reading the history from standard input…"; strings.HasPrefix(name, "stdin") != strings.Contains(screen, notice) {
				t.Errorf("the notice %q (want it: %v):\n%s", notice, strings.HasPrefix(name, "stdin"), screen)
			}
		})
	}
}

// waitForFIFOReader waits, for up to 20 s, until a process running the
// binary at bin is blocked opening the FIFO (a thread waits for a writer)
// or holds it open.
func waitForFIFOReader(t *testing.T, bin, fifo string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		dirs, _ := os.ReadDir("/proc")
		for _, d := range dirs {
			proc := filepath.Join("/proc", d.Name())
			if exe, err := os.Readlink(filepath.Join(proc, "exe")); err != nil || exe != bin {
				continue
			}
			tasks, _ := filepath.Glob(filepath.Join(proc, "task", "*", "wchan"))
			for _, w := range tasks {
				if b, _ := os.ReadFile(w); string(b) == "wait_for_partner" {
					return
				}
			}
			fds, _ := filepath.Glob(filepath.Join(proc, "fd", "*"))
			for _, fd := range fds {
				if target, _ := os.Readlink(fd); target == fifo {
					return
				}
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("%s did not open %s within 20 s", bin, fifo)
}
