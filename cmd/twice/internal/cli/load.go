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

	"github.com/charmbracelet/x/term"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/safetext"
	"github.com/twice-cli/twice/cmd/twice/internal/report"
	"github.com/twice-cli/twice/detect"
	"github.com/twice-cli/twice/detect/review"
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
	// identity is the run id, app id and project the user gave on the
	// command line (--run, --app, --project) for a history that does not
	// name them: a file, standard input or a demo (applyIdentity).
	identity catalyst.RunRef
}

// withIdentity gives a history read from a file, standard input or a demo
// the identity the user's flags name (none for a live read, whose run is
// the argument), and says on note which flags it ignores.
func withIdentity(t target, run, app, project string, note func(string)) target {
	if t.kind == targetLive {
		if run != "" && run != t.ref.ID {
			note("twice: --run " + quote(run) + " is ignored: the run read from Catalyst is the argument, " + quote(t.ref.ID))
		}
		return t
	}
	t.identity = catalyst.RunRef{ID: run, AppID: app, Project: project}
	return t
}

// applyIdentity fills the run id, app id and project a history does not
// name from what the user gave (withIdentity); one the history names
// differently is an error naming both, never silently replaced.
func applyIdentity(t target, h *catalyst.History) error {
	id, run := t.identity, &h.Run
	conflict := func(what, flag, has, given string) error {
		return usagef("%s names %s %s, but %s says %s: drop %s, or give the history of that run",
			targetName(t), what, quote(has), flag, quote(given), flag)
	}
	fill := func(have *string, given, what, flag string) error {
		switch {
		case given == "":
		case *have == "":
			*have = given
		case *have != given:
			return conflict(what, flag, *have, given)
		}
		return nil
	}
	// --run names the run the history is read as: one whose start alone
	// names another run (a Dapr 1.16 rerun) takes it (Run.ReadAs).
	if err := run.ReadAs(id.ID); err != nil {
		if other := (*catalyst.OtherRunError)(nil); errors.As(err, &other) && other.RerunOf {
			return usagef("%s is a rerun of %s, not that run: drop --run, or give the history of %s",
				targetName(t), quote(id.ID), quote(id.ID))
		}
		return conflict("run", "--run", run.ID, id.ID)
	}
	if err := fill(&run.AppID, id.AppID, "app", "--app"); err != nil {
		return err
	}
	switch p := run.Project; {
	case id.Project == "":
	case p.Name == "" && p.UID == "":
		run.Project.Name = id.Project
	case id.Project != p.Name && id.Project != p.UID && strings.TrimPrefix(id.Project, "prj-") != strings.TrimPrefix(p.UID, "prj-"):
		return conflict("project", "--project", first(p.Name, p.UID), id.Project)
	}
	return nil
}

// targetName names where a history was read from, for messages.
func targetName(t target) string {
	if t.kind == targetStdin {
		return "the history on standard input"
	}
	return quote(t.arg)
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

// historyReader reads the histories a command line names (load), and
// does to each what every command does (check).
type historyReader struct {
	// IO is where standard input is read from and notices go.
	IO *IOStreams
	// Level is the data-sharing level the user gave, and whether it came
	// from the flag (Factory.userLevel).
	Level func() (level catalyst.Level, fromFlag bool, err error)
	// LimitMemory applies the large-file memory policy while the file at
	// path is read (memlimit.go), and returns what ends it.
	LimitMemory func(path string) (restore func())
	// StderrTTY reports whether standard error is a terminal.
	StderrTTY func() bool
}

// histories returns the factory's history reader.
func (f *Factory) histories() *historyReader {
	return &historyReader{IO: f.IO, Level: f.userLevel, LimitMemory: f.limitMemoryFor, StderrTTY: f.stderrTTY}
}

// load reads the history a target names. Live reads use lc. A
// history read from a file, a demo or standard input is read with the
// data-sharing level the user gave (openOptions) and must hold at least
// one event (check).
func (r *historyReader) load(ctx context.Context, t target, lc LiveClient) (*catalyst.History, error) {
	if t.kind == targetLive {
		return lc.History(ctx, t.ref)
	}
	opts, err := r.openOptions()
	if err != nil {
		return nil, err
	}
	var h *catalyst.History
	switch t.kind {
	case targetStdin:
		if r.IO.IsStdinTTY != nil && r.IO.IsStdinTTY() {
			return nil, usagef("- reads a history from standard input, which is a terminal: pipe one in (dapr workflow history ID -o json | twice show -)")
		}
		h, err = readCancellable(ctx, "standard input", r.readingNotice(), func() (*catalyst.History, error) {
			return fixtures.Read(r.IO.In, "-", opts)
		})
	case targetDemo:
		h, err = fixtures.OpenDemo(t.arg, opts)
	default:
		if info, statErr := os.Stat(t.arg); statErr == nil && info.IsDir() {
			return nil, fmt.Errorf("%s is a folder with no history files in it (twice reads the *.json files in a folder, not its sub-folders)",
				quote(t.arg))
		}
		h, err = readCancellable(ctx, quote(t.arg), nil, func() (*catalyst.History, error) {
			return fixtures.Open(t.arg, opts)
		})
	}
	if err != nil {
		return nil, err
	}
	if err := r.check(t, h, func(note string) { fmt.Fprintln(r.IO.ErrOut, note) }); err != nil {
		return nil, err
	}
	return h, nil
}

// check does to a history read from a file, a demo or standard
// input what every command does: one with no events is an error, and where
// the data-sharing level the user gave did not decide (no filter applies,
// or the history or its recording names another), a notice says so.
// Notices go to note; nil drops them.
func (r *historyReader) check(t target, h *catalyst.History, note func(string)) error {
	if h.Len() == 0 {
		return emptyHistoryError(t, h)
	}
	if rec := h.Run.Provenance.Recorded; rec != nil && rec.Unverified != "" && note != nil {
		note("twice: " + quote(t.arg) + " was " + safetext.Line(rec.Unverified))
	}
	if err := applyIdentity(t, h); err != nil {
		return err
	}
	return r.dataSharingNotice(t, h, note)
}

// emptyHistoryError says that a document read as a history holds no
// events, which format it read as, and what was expected: an empty list is
// not a run, and printing it as one ("running", "Findings: none") would
// present nothing as success.
func emptyHistoryError(t target, h *catalyst.History) error {
	what := "standard input"
	if t.kind != targetStdin {
		what = quote(t.arg)
	}
	as := ""
	if h.Format != "" {
		as = " (it reads as " + h.Format.Description() + ")"
	}
	return fmt.Errorf("%s holds no events%s: expected a workflow run's history, with at least its ExecutionStarted event "+
		"(dapr workflow history ID -o json, Dapr's GetInstanceHistory {\"events\":[…]}, Catalyst's events, or a twice saved history)", what, as)
}

// userLevel returns the data-sharing level the user gave, the one rule
// every reader of it follows: the flag, else the config's
// data_sharing_level (both read by catalyst.ParseLevel, which the config
// checked already), and whether it came from the flag.
func (f *Factory) userLevel() (catalyst.Level, bool, error) {
	level, err := levelFlag(f.Globals.DataSharingLevel)
	if err != nil {
		return catalyst.LevelUnknown, false, err
	}
	if level != catalyst.LevelUnknown {
		return level, true, nil
	}
	cfg, err := f.Config()
	if err != nil {
		return catalyst.LevelUnknown, false, err
	}
	return catalyst.Level(cfg.DataSharingLevel), false, nil
}

// levelFlag reads --data-sharing-level (catalyst.ParseLevel); a value
// that is not a level is a usage error.
func levelFlag(v string) (catalyst.Level, error) {
	level, ok := catalyst.ParseLevel(v)
	if !ok {
		return catalyst.LevelUnknown, usagef("--data-sharing-level %s is not a Catalyst level: use metadata or full, or leave it out to let twice infer it", quote(v))
	}
	return level, nil
}

// openOptions are the options every history file, demo and standard input
// is opened with: the data-sharing level the user gave, which the file
// loader weighs with what the history says (catalyst.ResolveDataSharing).
func (r *historyReader) openOptions() (fixtures.OpenOptions, error) {
	level, _, err := r.Level()
	return fixtures.OpenOptions{Level: level}, err
}

// dataSharingNotice says, when --data-sharing-level was given and did not
// decide the level of a history read from a file, a demo or standard
// input, why: no data-sharing filter applies to it, or it records the level
// that applied when it was read. A level set only in the config is used
// where it can be, silently. note nil drops the notice.
func (r *historyReader) dataSharingNotice(t target, h *catalyst.History, note func(string)) error {
	level, fromFlag, err := r.Level()
	if err != nil || !fromFlag || note == nil {
		return err
	}
	what := "standard input"
	if t.kind != targetStdin {
		what = quote(t.arg)
	}
	switch ds := h.Run.DataSharing; {
	case !ds.Filtered:
		note(fmt.Sprintf("twice: --data-sharing-level does not apply to %s: it is %s, which no data-sharing filter touches (an absent payload there means none was given)",
			what, h.Format.Description()))
	case !strings.EqualFold(string(ds.Level), string(level)):
		note(fmt.Sprintf("twice: --data-sharing-level %s does not apply to %s: it records the level that applied when it was read, %s",
			safetext.Line(string(level)), what, safetext.Line(string(ds.Level))))
	}
	return nil
}

// readingNotice returns what readCancellable calls when standard input is
// slow to arrive: one line on standard error, when standard error is a
// terminal, so a person waiting on a pipe knows what twice is doing. It
// returns nil when standard error is not a terminal.
func (r *historyReader) readingNotice() func() {
	if !r.StderrTTY() {
		return nil
	}
	return func() { fmt.Fprintln(r.IO.ErrOut, "twice: reading the history from standard input…") }
}

// stderrTTY reports whether standard error is a terminal: a writer that
// says so itself (tests), or a file descriptor that is one.
func (f *Factory) stderrTTY() bool {
	switch w := f.terminal().ErrOut.(type) {
	case interface{ IsTerminal() bool }:
		return w.IsTerminal()
	case interface{ Fd() uintptr }:
		return term.IsTerminal(w.Fd())
	}
	return false
}

// noticeAfter is how long a read may take before readCancellable calls its
// notice: long enough that a history piped from a file prints nothing.
const noticeAfter = 300 * time.Millisecond

// interruptGrace is how long readCancellable waits, once a read failed, for
// the cancellation that may have caused it: ctrl+c on a terminal signals
// the whole pipeline, and the writer, killed by the same SIGINT, closes the
// pipe; the read's EOF then races the signal twice gets.
const interruptGrace = 50 * time.Millisecond

// readCancellable runs read and returns its answer, or the context's error
// as soon as the context is done (ctrl+c, a deadline): reading standard
// input or opening a FIFO blocks in a system call no context can
// interrupt. The read then finishes on its own, or with the process. A
// read that fails is given interruptGrace for the context to be done, and
// is then reported as interrupted. notice, when set, is called once if the
// read is still going after noticeAfter.
func readCancellable(ctx context.Context, what string, notice func(), read func() (*catalyst.History, error)) (*catalyst.History, error) {
	if ctx.Done() == nil && notice == nil {
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
	var slow <-chan time.Time
	if notice != nil {
		timer := time.NewTimer(noticeAfter)
		defer timer.Stop()
		slow = timer.C
	}
	for {
		select {
		case a := <-done:
			if a.err != nil && ctx.Done() != nil {
				grace := time.NewTimer(interruptGrace)
				defer grace.Stop()
				select {
				case <-ctx.Done():
					return nil, fmt.Errorf("reading %s: %w", what, ctx.Err())
				case <-grace.C:
				}
			}
			return a.h, a.err
		case <-ctx.Done():
			return nil, fmt.Errorf("reading %s: %w", what, ctx.Err())
		case <-slow:
			notice()
			slow = nil
		}
	}
}

// analyze runs detect over a history. A history read live is judged
// against now (a pending attempt overdue now is unknown); a saved one
// against its own last event, so replaying it later gives the same answer.
func analyze(h *catalyst.History, opts detect.Options, now time.Time, code *review.Report) report.Analysis {
	r, j := analyzer(opts, now, code)(h)
	return report.Analysis{History: h, Report: r, Code: j}
}

// analyzeWhileWriting is analyze for writers that have other work to do
// first: detect runs in its own goroutine while the writer starts.
func analyzeWhileWriting(h *catalyst.History, opts detect.Options, now time.Time, code *review.Report) report.Analysis {
	return report.Pending(h, analyzer(opts, now, code))
}

// analyzer returns the detect call analyze makes, joined to the reviewed
// source when there is one (--source).
func analyzer(opts detect.Options, now time.Time, code *review.Report) func(*catalyst.History) (*detect.Report, *review.Joined) {
	return func(h *catalyst.History) (*detect.Report, *review.Joined) {
		if h.Run.Provenance.Live() {
			opts.Now = now
		}
		r := detect.Analyze(h, opts)
		return r, review.Join(r, code)
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
