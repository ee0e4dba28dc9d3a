package cli

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/twice-cli/twice/catalyst"
)

// TestEmptyHistoryIsAnError: a document that reads as a history but holds
// no events is an error (exit 1) that says so, names the format it read
// as and what was expected — from standard input, a file, and in a scan,
// where it is one more file not read and --exit-status cannot pass.
func TestEmptyHistoryIsAnError(t *testing.T) {
	for _, doc := range []string{`{"events":[]}`, `[]`, `null`, `{"history":[]}`, "[]\n"} {
		t.Run(doc, func(t *testing.T) {
			for _, args := range [][]string{{"show", "-"}, {"show", "-o", "json", "-"}, {"scan", "-"}, {"scan", "--exit-status", "-"}} {
				h := newHarness(t)
				h.in = doc
				r := h.run(args...)
				if r.code != ExitError {
					t.Errorf("%v: exit %d, want 1\nstdout:\n%s", args, r.code, r.out)
				}
				if r.out != "" {
					t.Errorf("%v: printed a run for an empty history:\n%s", args, r.out)
				}
				for _, want := range []string{"standard input holds no events", "(it reads as ", "expected a workflow run's history"} {
					if !strings.Contains(r.errOut, want) {
						t.Errorf("%v: stderr %q lacks %q", args, r.errOut, want)
					}
				}
				if strings.Contains(r.errOut, "level not reported") {
					t.Errorf("%v: withheld marks printed for an empty history: %q", args, r.errOut)
				}
			}
		})
	}
	empty := writeFile(t, "empty.json", `{"events":[]}`)
	r := newHarness(t).run("show", empty)
	if r.code != ExitError || !strings.Contains(r.errOut, `"`+empty+`" holds no events (it reads as Dapr GetInstanceHistory protojson)`) {
		t.Errorf("file: exit %d, stderr %q", r.code, r.errOut)
	}
	r = newHarness(t).run("scan", "-o", "json", empty, chargeFile(t))
	if r.code != ExitError || !strings.Contains(r.out, `"not_read":[{"source":`) || !strings.Contains(r.out, `"runs":[{`) {
		t.Errorf("scan: exit %d, want 1 with the other run and not_read:\n%s\n%s", r.code, r.out, r.errOut)
	}
	if !strings.Contains(r.errOut, "holds no events") || !strings.Contains(r.errOut, "1 of 2 runs could not be read") {
		t.Errorf("scan: stderr %q", r.errOut)
	}
}

// catalystMetadataFile is Catalyst flattened events with every payload
// missing and no level named: twice infers metadata.
const catalystMetadataFile = `[{"event_id":-1,"event_type":"ExecutionStarted","timestamp":"2026-01-01T00:00:00Z","name":"wf","instance_id":"r1"},
 {"event_id":0,"event_type":"TaskScheduled","timestamp":"2026-01-01T00:00:01Z","name":"ChargeCard","task_execution_id":"x1"},
 {"event_id":-1,"event_type":"TaskCompleted","timestamp":"2026-01-01T00:00:02Z","task_scheduled_id":0,"task_execution_id":"x1"}]`

// TestDataSharingLevelAppliesToFiles: the level the user gives applies to a
// file a data-sharing filter applies to and that does not report its level
// (the flag, or the config alone); where no filter applies, or the file
// records another level, one line on stderr says the flag does not apply
// and why, and the output is as without it.
func TestDataSharingLevelAppliesToFiles(t *testing.T) {
	cat := writeFile(t, "cat.json", catalystMetadataFile)
	proto := writeFile(t, "proto.json", chargeHistory("charge_card", "503", `{"order_id":"A-7731"}`))
	for _, tc := range []struct {
		name    string
		config  string
		args    []string
		want    []string // in stdout
		notWant []string // in stdout
		errHas  string   // in stderr ("" : stderr empty)
	}{
		{"inferred without a level", "", []string{"show", cat}, []string{"Data sharing  metadata (inferred: payloads are missing)", "withheld"}, nil, ""},
		{"flag full", "", []string{"--data-sharing-level", "full", "show", cat}, []string{"Data sharing  full\n", "Input         none"}, []string{"withheld"}, ""},
		{"flag FULL", "", []string{"--data-sharing-level", "FULL", "show", cat}, []string{"Data sharing  full\n"}, []string{"withheld"}, ""},
		{"flag metadata", "", []string{"--data-sharing-level", "metadata", "show", cat}, []string{"Data sharing  metadata; 3 event payloads withheld", "(metadata)"}, []string{"inferred"}, ""},
		{"config full", "data_sharing_level: full\n", []string{"show", cat}, []string{"Data sharing  full\n"}, []string{"withheld"}, ""},
		{"flag wins over config", "data_sharing_level: full\n", []string{"--data-sharing-level", "metadata", "show", cat}, []string{"Data sharing  metadata;"}, nil, ""},
		{"json", "", []string{"--data-sharing-level", "full", "show", "-o", "json", cat}, []string{`"data_sharing":{"level":"full","filtered":true,"inferred":false}`}, []string{`"withheld":[{`}, ""},
		{"scan", "", []string{"--data-sharing-level", "full", "scan", cat}, []string{"Data sharing  full\n"}, nil, ""},
		{"protojson", "", []string{"--data-sharing-level", "metadata", "show", proto}, []string{"Data sharing  none (no data-sharing filter on this source)"}, []string{"withheld"},
			`twice: --data-sharing-level does not apply to "` + proto + `": it is Dapr GetInstanceHistory protojson, which no data-sharing filter touches (an absent payload there means none was given)`},
		{"protojson, config only", "data_sharing_level: metadata\n", []string{"show", proto}, []string{"Data sharing  none"}, []string{"withheld"}, ""},
		{"recorded level", "", []string{"--data-sharing-level", "full", "show", "demo:metadata-withheld"}, []string{"Data sharing  metadata;"}, nil,
			`twice: --data-sharing-level full does not apply to "demo:metadata-withheld": it records the level that applied when it was read, metadata`},
		{"recorded level agrees", "", []string{"--data-sharing-level", "metadata", "show", "demo:metadata-withheld"}, []string{"Data sharing  metadata;"}, nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			if tc.config != "" {
				tc.args = append([]string{"--config", writeFile(t, "twice.yaml", tc.config)}, tc.args...)
			}
			r := h.run(tc.args...)
			if r.code != ExitOK {
				t.Fatalf("exit %d: %s", r.code, r.errOut)
			}
			for _, w := range tc.want {
				if !strings.Contains(r.out, w) {
					t.Errorf("stdout lacks %q:\n%s", w, r.out)
				}
			}
			for _, w := range tc.notWant {
				if strings.Contains(r.out, w) {
					t.Errorf("stdout has %q:\n%s", w, r.out)
				}
			}
			if tc.errHas == "" && r.errOut != "" || !strings.Contains(r.errOut, tc.errHas) {
				t.Errorf("stderr %q, want %q", r.errOut, tc.errHas)
			}
			if n := strings.Count(r.errOut, "\n"); tc.errHas != "" && n != 1 {
				t.Errorf("stderr has %d lines, want one", n)
			}
		})
	}
}

// TestUnknownTypeFromAFile: a protojson event keyed "TaskScheduled"
// (PascalCase, not a key Dapr writes) is kept as unknown and shown as such.
func TestUnknownTypeFromAFile(t *testing.T) {
	file := writeFile(t, "unknown.json", `{"events":[{"eventId":-1,"timestamp":"2026-01-01T00:00:00Z","executionStarted":{"name":"wf","workflowInstance":{"instanceId":"r1"}}},
{"eventId":3,"timestamp":"2026-01-01T00:00:01Z","TaskScheduled":{"name":"Charge"}}]}`)
	r := newHarness(t).run("show", file)
	if r.code != ExitOK || !strings.Contains(r.out, "  1  Unknown(TaskScheduled)  ") {
		t.Errorf("text: exit %d:\n%s", r.code, r.out)
	}
	r = newHarness(t).run("show", "-o", "json", file)
	if !strings.Contains(r.out, `"type":"Unknown"`) || !strings.Contains(r.out, `"wire_type":"TaskScheduled"`) || strings.Contains(r.out, `"type":"TaskScheduled"`) {
		t.Errorf("json:\n%s", r.out)
	}
}

// TestFolderArgument: a folder given as a history is read as the history
// files in it (show: the run list over them; scan: each of them); an empty
// one says it holds none, and a scan reports it as one more file not read.
func TestFolderArgument(t *testing.T) {
	dir := t.TempDir()
	r := newHarness(t).run("show", "-o", "text", dir)
	want := `"` + dir + `" holds no history files: twice reads the *.json files in a folder (not its sub-folders)`
	if r.code != ExitError || !strings.Contains(r.errOut, want) {
		t.Errorf("exit %d, stderr %q; want %q", r.code, r.errOut, want)
	}
	r = newHarness(t).run("scan", dir, chargeFile(t))
	if r.code != ExitError || !strings.Contains(r.out, "Run A-7731") || strings.Count(r.errOut, dir) != 1 ||
		!strings.Contains(r.errOut, "is a folder with no history files in it") {
		t.Errorf("scan: exit %d, stderr %q (want the folder named once, in its message)\n%s", r.code, r.errOut, r.out)
	}
	full := t.TempDir()
	for _, name := range []string{"a.json", "b.json"} {
		if err := os.WriteFile(filepath.Join(full, name), []byte(cleanHistory), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	r = newHarness(t).run("scan", full)
	if r.code != ExitOK || strings.Count(r.out, "Run order-1001") != 2 || !strings.HasPrefix(r.out, "Scan summary: 2 runs") {
		t.Errorf("scan of a folder: exit %d, stderr %q\n%s", r.code, r.errOut, r.out)
	}
}

// TestReadCancellable: a read that fails while the context is being
// cancelled (ctrl+c reaches the writer of a pipe too, and its EOF races
// the signal) is reported as interrupted; a read that fails on its own
// still fails with its own error; a slow read calls the notice once.
func TestReadCancellable(t *testing.T) {
	eof := errors.New("standard input is empty")
	failNow := func() (*catalyst.History, error) { return nil, eof }

	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		time.Sleep(interruptGrace / 5)
		cancel()
	}()
	if _, err := readCancellable(ctx, "standard input", nil, failNow); !errors.Is(err, context.Canceled) {
		t.Errorf("EOF then ctrl+c: %v, want the interruption", err)
	}

	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	start := time.Now()
	if _, err := readCancellable(ctx, "standard input", nil, failNow); !errors.Is(err, eof) {
		t.Errorf("EOF alone: %v, want the read's error", err)
	}
	if d := time.Since(start); d < interruptGrace {
		t.Errorf("a failed read returned after %v, before the grace of %v", d, interruptGrace)
	}

	ok := func() (*catalyst.History, error) { return catalyst.NewHistory(catalyst.Run{ID: "r"}), nil }
	notices := 0
	start = time.Now()
	if h, err := readCancellable(ctx, "x", func() { notices++ }, ok); err != nil || h == nil {
		t.Errorf("fast read: %v", err)
	}
	if d := time.Since(start); d >= interruptGrace {
		t.Errorf("a read that succeeded waited %v", d)
	}
	if notices != 0 {
		t.Errorf("a fast read printed the notice")
	}
	slow := func() (*catalyst.History, error) { time.Sleep(noticeAfter + 100*time.Millisecond); return ok() }
	if _, err := readCancellable(ctx, "x", func() { notices++ }, slow); err != nil || notices != 1 {
		t.Errorf("slow read: %v, %d notices, want 1", err, notices)
	}
}

// ttyBuffer is standard error on a terminal, for tests.
type ttyBuffer struct {
	mu sync.Mutex
	bytes.Buffer
}

func (b *ttyBuffer) IsTerminal() bool { return true }

func (b *ttyBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.Buffer.Write(p)
}

func (b *ttyBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.Buffer.String()
}

// TestReadingNoticeOnATerminal: while twice waits for a history on a pipe,
// one line on standard error says so when standard error is a terminal;
// piped, or when the history arrives at once, nothing is said.
func TestReadingNoticeOnATerminal(t *testing.T) {
	history := chargeHistory("charge_card", "503", "{}")
	for _, tc := range []struct {
		name  string
		tty   bool
		delay time.Duration
		want  bool
	}{
		{"slow pipe, stderr a terminal", true, noticeAfter + 200*time.Millisecond, true},
		{"fast pipe, stderr a terminal", true, 0, false},
		{"slow pipe, stderr piped", false, noticeAfter + 200*time.Millisecond, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pr, pw := io.Pipe()
			go func() {
				time.Sleep(tc.delay)
				io.WriteString(pw, history)
				pw.Close()
			}()
			var errOut interface {
				io.Writer
				String() string
			} = &bytes.Buffer{}
			if tc.tty {
				errOut = &ttyBuffer{}
			}
			out := &bytes.Buffer{}
			streams := &IOStreams{In: pr, Out: out, ErrOut: errOut,
				IsStdinTTY: func() bool { return false }, IsStdoutTTY: func() bool { return false }}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			code := Execute(ctx, NewFactory(streams, testEnv(t, nil)), []string{"show", "-"})
			if code != ExitOK {
				t.Fatalf("exit %d: %s", code, errOut.String())
			}
			const notice = "twice: reading the history from standard input…\n"
			if got := errOut.String() == notice; got != tc.want {
				t.Errorf("stderr %q; want the notice: %v", errOut.String(), tc.want)
			}
			if !strings.Contains(out.String(), "Run A-7731") {
				t.Errorf("the history was not shown:\n%s", out.String())
			}
		})
	}
}

// The interactive view reads a history file through its source; the source
// does what the command line does to every file: an empty history is an
// error, the level the user gave applies, and nothing is written to
// standard error (the view covers it).
func TestInteractiveFileSourceChecksLikeTheCommandLine(t *testing.T) {
	cat := writeFile(t, "cat.json", catalystMetadataFile)
	proto := writeFile(t, "proto.json", chargeHistory("charge_card", "503", `{"order_id":"A-7731"}`))
	empty := writeFile(t, "empty.json", `{"events":[]}`)
	for _, tc := range []struct {
		name      string
		args      []string
		wantLevel catalyst.Level
		wantErr   string
	}{
		{"empty history", []string{"show", empty}, "", "holds no events"},
		{"the flag's level applies", []string{"--data-sharing-level", "full", "show", cat}, catalyst.LevelFull, ""},
		{"inferred without a flag", []string{"show", cat}, catalyst.LevelMetadata, ""},
		{"no filter: the flag does not apply, silently", []string{"--data-sharing-level", "metadata", "show", proto}, catalyst.LevelUnknown, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			h.tty, h.tuiErr = true, nil
			f, _, errOut := h.factory()
			if code := Execute(context.Background(), f, tc.args); code != ExitOK || len(h.tuiCalls) != 1 {
				t.Fatalf("exit %d, %d views: %s", code, len(h.tuiCalls), errOut)
			}
			req := h.tuiCalls[0]
			got, err := req.Source.History(context.Background(), *req.Ref)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.Run.DataSharing.Level != tc.wantLevel {
				t.Errorf("level %q, want %q", got.Run.DataSharing.Level, tc.wantLevel)
			}
			if errOut.Len() != 0 {
				t.Errorf("stderr %q, want nothing while the view runs", errOut)
			}
		})
	}
}
