//go:build unix

package regfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestOnlyRegularFilesAreRead: a FIFO (with no writer: it would block a
// plain open for ever), a link to /dev/zero and a folder are each refused
// at once, naming what they are; a regular file reads; a file past the cap
// is refused after max+1 bytes, whatever its size.
func TestOnlyRegularFilesAreRead(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe.py")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	zero := filepath.Join(dir, "zero.py")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	plain := filepath.Join(dir, "plain.py")
	if err := os.WriteFile(plain, []byte("print(1)\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ path, kind string }{
		{fifo, "a named pipe (FIFO)"},
		{zero, "a character device"},
		{dir, "a folder"},
	} {
		done := make(chan error, 1)
		go func() { _, err := ReadFile(tc.path, 1<<20); done <- err }()
		select {
		case err := <-done:
			if !IsNotRegular(err) || !strings.Contains(err.Error(), tc.kind) {
				t.Errorf("ReadFile(%s) = %v, want a NotRegularError saying %q", tc.path, err, tc.kind)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("ReadFile(%s) still blocked after 5 s", tc.path)
		}
	}
	if data, err := ReadFile(plain, 1<<20); err != nil || string(data) != "print(1)\n" {
		t.Errorf("plain file: %q, %v", data, err)
	}
	if _, err := ReadFile(plain, 4); !errors.As(err, new(*TooLargeError)) {
		t.Errorf("over the cap: %v, want a TooLargeError", err)
	}
	// A reader that never ends (what /dev/zero is) stops at the cap.
	if _, err := ReadAll(endless{}, "endless", 1<<20); !errors.As(err, new(*TooLargeError)) {
		t.Errorf("endless reader: %v", err)
	}
}

type endless struct{}

func (endless) Read(p []byte) (int, error) { clear(p); return len(p), nil }
