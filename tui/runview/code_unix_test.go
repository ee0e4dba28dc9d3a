//go:build unix

package runview

import (
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/twice-cli/twice/catalyst/regfile"
)

// TestCodeSourceReadFileRefusesAPipe (issue 26, item 4): a reviewed file's
// name swapped for a named pipe is refused at once; before, the Code tab's
// read waited on the pipe for ever.
func TestCodeSourceReadFileRefusesAPipe(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "a.go")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := (&CodeSource{}).ReadFile(filepath.ToSlash(fifo))
		done <- err
	}()
	select {
	case err := <-done:
		if !regfile.IsNotRegular(err) {
			t.Errorf("a named pipe: %v, want it refused as not a regular file", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("reading a named pipe did not end")
	}
}
