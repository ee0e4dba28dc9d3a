package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"time"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/safetext"
	"github.com/twice-cli/twice/cmd/twice/internal/report"
	"github.com/twice-cli/twice/detect"
	"github.com/twice-cli/twice/fixtures"
)

// targetKind says where a history named on the command line comes from.
type targetKind int

const (
	targetFile targetKind = iota
	targetStdin
	targetDemo
	targetLive
)

// target is one history named on the command line.
type target struct {
	kind targetKind
	// arg is the argument as given: a path, "-", "demo:NAME" or a run id.
	arg string
	// ref names the run for live reads.
	ref catalyst.RunRef
}

// resolveTarget decides what an argument names: "-" is standard input,
// "demo:NAME" a bundled demo, an existing path a file; anything else is a
// run id, read live when an app is known (--app or the config's app).
func resolveTarget(arg, app, project string) (target, error) {
	switch {
	case arg == "":
		return target{}, usagef("an empty argument is not a history: give a file, -, demo:NAME or a run id")
	case arg == "-":
		return target{kind: targetStdin, arg: arg}, nil
	case strings.HasPrefix(arg, fixtures.DemoPrefix):
		return target{kind: targetDemo, arg: arg}, nil
	}
	if _, err := os.Stat(arg); err == nil {
		return target{kind: targetFile, arg: arg}, nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return target{}, fmt.Errorf("cannot read %s: %w", quote(arg), err)
	}
	if looksLikePath(arg) || app == "" {
		if app == "" && !looksLikePath(arg) {
			return target{}, usagef("%s is not a file or a bundled demo; to read run %s from Catalyst, give its app: --app APP (or set app in twice.yaml)",
				quote(arg), quote(arg))
		}
		return target{}, fmt.Errorf("%s does not exist: give a history file, - for standard input, or demo:NAME (twice demo list)", quote(arg))
	}
	return target{kind: targetLive, arg: arg, ref: catalyst.RunRef{ID: arg, AppID: app, Project: project}}, nil
}

// looksLikePath reports whether arg is meant as a file rather than a run id.
func looksLikePath(arg string) bool {
	return strings.ContainsAny(arg, `/\`) || strings.HasSuffix(strings.ToLower(arg), ".json") || strings.HasPrefix(arg, ".")
}

// quote prints untrusted text (an argument, a path) inside a message.
func quote(s string) string { return `"` + safetext.Line(s) + `"` }

// loadHistory reads the history a target names. Live reads use lc.
func (f *Factory) loadHistory(ctx context.Context, t target, lc LiveClient) (*catalyst.History, error) {
	switch t.kind {
	case targetStdin:
		if f.IO.IsStdinTTY != nil && f.IO.IsStdinTTY() {
			return nil, usagef("- reads a history from standard input, which is a terminal: pipe one in (dapr workflow history ID -o json | twice show -)")
		}
		return readCancellable(ctx, "standard input", func() (*catalyst.History, error) {
			return fixtures.Read(f.IO.In, "-", fixtures.OpenOptions{})
		})
	case targetDemo:
		return fixtures.OpenDemo(t.arg)
	case targetLive:
		return lc.History(ctx, t.ref)
	}
	return readCancellable(ctx, quote(t.arg), func() (*catalyst.History, error) {
		return fixtures.Open(t.arg, fixtures.OpenOptions{})
	})
}

// readCancellable runs read and returns its answer, or the context's error
// as soon as the context is done (ctrl+c, a deadline): reading standard
// input or opening a FIFO blocks in a system call no context can
// interrupt. The read then finishes on its own, or with the process.
func readCancellable(ctx context.Context, what string, read func() (*catalyst.History, error)) (*catalyst.History, error) {
	if ctx.Done() == nil {
		return read()
	}
	type answer struct {
		h   *catalyst.History
		err error
	}
	done := make(chan answer, 1)
	go func() {
		h, err := read()
		done <- answer{h, err}
	}()
	select {
	case a := <-done:
		return a.h, a.err
	case <-ctx.Done():
		return nil, fmt.Errorf("reading %s: %w", what, ctx.Err())
	}
}

// analyze runs detect over a history. A history read live is judged
// against now (a pending attempt overdue now is unknown); a saved one
// against its own last event, so replaying it later gives the same answer.
func analyze(h *catalyst.History, opts detect.Options, now time.Time) report.Analysis {
	return report.Analysis{History: h, Report: analyzer(opts, now)(h)}
}

// analyzeWhileWriting is analyze for writers that have other work to do
// first: detect runs in its own goroutine while the writer starts.
func analyzeWhileWriting(h *catalyst.History, opts detect.Options, now time.Time) report.Analysis {
	return report.Pending(h, analyzer(opts, now))
}

// analyzer returns the detect call analyze makes.
func analyzer(opts detect.Options, now time.Time) func(*catalyst.History) *detect.Report {
	return func(h *catalyst.History) *detect.Report {
		if h.Run.Provenance.Surface == catalyst.SurfaceCatalystMCP && h.Run.Provenance.Recorded == nil {
			opts.Now = now
		}
		return detect.Analyze(h, opts)
	}
}

// readSmallFile reads a file of at most max bytes.
func readSmallFile(path string, max int64) ([]byte, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	data, err := io.ReadAll(io.LimitReader(fh, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("%s is larger than %d bytes", path, max)
	}
	return data, nil
}
