//go:build unix

package cli

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSourceFIFOAndDevZeroAreRefused (issue 26, item 4): a named pipe or a
// link to /dev/zero named as source (on the command line, --source FILE)
// is listed as not a regular file and never read: the command ends at
// once, and a review of nothing but them says no source was reviewed.
func TestSourceFIFOAndDevZeroAreRefused(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe.go")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	zero := filepath.Join(dir, "zero.go")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		code int
	}{
		{[]string{"review", fifo, zero}, ExitOK},
		{[]string{"review", fifo, zero, "--exit-status"}, ExitError},
		{[]string{"show", "demo:payment-timeout", "--source", fifo, "--source", zero, "-o", "text"}, ExitOK},
	} {
		args := tc.args
		done := make(chan result, 1)
		go func() { done <- newHarness(t).run(args...) }()
		select {
		case res := <-done:
			all := res.out + res.errOut
			if !strings.Contains(all, "not a regular file") || !strings.Contains(res.errOut, "no Go, Python or C# source") {
				t.Errorf("twice %s: exit %d\n%s\n%s", strings.Join(args, " "), res.code, res.out, res.errOut)
			}
			if res.code != tc.code {
				t.Errorf("twice %s: exit %d, want %d (nothing reviewed is never a pass under --exit-status)", strings.Join(args, " "), res.code, tc.code)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("twice %s did not end", strings.Join(args, " "))
		}
	}
}
