//go:build unix

package review_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/twice-cli/twice/detect/review"
	"github.com/twice-cli/twice/detect/review/langs"
)

const hostileGoActivity = `package svc

import "github.com/dapr/go-sdk/workflow"

func Charge(ctx workflow.ActivityContext) (any, error) { return nil, nil }
`

// reviewWithin runs a review that must end within d: before, a named pipe
// held it forever and a link to /dev/zero read until memory ran out.
func reviewWithin(t *testing.T, d time.Duration, roots []string, opts review.Options) (*review.Report, error) {
	t.Helper()
	type result struct {
		rep *review.Report
		err error
	}
	done := make(chan result, 1)
	go func() {
		rep, err := review.Review(context.Background(), roots, opts)
		done <- result{rep, err}
	}()
	select {
	case r := <-done:
		return r.rep, r.err
	case <-time.After(d):
		t.Fatalf("review of %v did not end within %v", roots, d)
		return nil, nil
	}
}

// TestNonRegularSourcesAreNotRead (issue 26, item 4): a named pipe, a link
// to /dev/zero and a link to a named pipe, named on the command line as a
// source file (as a shell glob or --source FILE or the config's source:
// names them), are skipped and listed as not regular files; the regular
// file beside them is reviewed.
func TestNonRegularSourcesAreNotRead(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe.go")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	zero := filepath.Join(dir, "zero.go")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	pipeLink := filepath.Join(dir, "pipelink.py")
	if err := os.Symlink(fifo, pipeLink); err != nil {
		t.Fatal(err)
	}
	ok := filepath.Join(dir, "ok.go")
	if err := os.WriteFile(ok, []byte(hostileGoActivity), 0o600); err != nil {
		t.Fatal(err)
	}
	roots := []string{fifo, zero, pipeLink, ok}
	rep, err := reviewWithin(t, 10*time.Second, roots, langs.Options())
	if err != nil {
		t.Fatal(err)
	}
	why := map[string]string{}
	for _, s := range rep.Skipped {
		why[filepath.Base(s.File)] = s.Reason
	}
	for name, want := range map[string]string{"pipe.go": "named pipe", "zero.go": "device", "pipelink.py": "named pipe"} {
		if _, ok := langs.Options().Unavailable[review.LangOfFile(name)]; ok {
			continue
		}
		if !strings.Contains(why[name], want) {
			t.Errorf("%s: skipped because %q, want it named as %s", name, why[name], want)
		}
	}
	if rep.Files[review.LangGo] != 1 {
		t.Errorf("Go files reviewed: %d, want 1 (ok.go); skipped: %+v", rep.Files[review.LangGo], rep.Skipped)
	}
}

// TestSourceReadStopsAtTheCap: a regular file over the cap is skipped and
// listed with the cap.
func TestSourceReadStopsAtTheCap(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.go")
	if err := os.WriteFile(big, []byte(hostileGoActivity+strings.Repeat("// pad\n", 400)), 0o600); err != nil {
		t.Fatal(err)
	}
	opts := langs.Options()
	opts.MaxFileBytes = 1024
	rep, err := reviewWithin(t, 10*time.Second, []string{big}, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Skipped) != 1 || !strings.Contains(rep.Skipped[0].Reason, "larger than 1024 bytes") {
		t.Fatalf("skipped: %+v, want big.go larger than 1024 bytes", rep.Skipped)
	}
}
