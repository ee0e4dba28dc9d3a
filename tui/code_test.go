package tui

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/twice-cli/twice/catalyst/safetext/hostiletest"
	"github.com/twice-cli/twice/detect/review"
	"github.com/twice-cli/twice/detect/review/langs"
	"github.com/twice-cli/twice/detect/review/python"
	"github.com/twice-cli/twice/fixtures"
	"github.com/twice-cli/twice/tui/editor"
	"github.com/twice-cli/twice/tui/internal/tuitest"
	"github.com/twice-cli/twice/tui/runview"
)

// The Code tab (twice show --source, issue 18) is tested here: its
// screens on the bundled demos and their services, the key flow from the
// Code tab to the editor, and what e says when it cannot open anything.

// fakeEditorLog names the file the fake editor writes its arguments to:
// when TestMain finds it set, the test binary is the fake editor (run
// through a link named like a real one), not the tests.
const fakeEditorLog = "TWICE_FAKE_EDITOR_LOG"

// runFakeEditor records the arguments the test binary was started with,
// one per line, when it runs as the fake editor, and reports whether it
// did.
func runFakeEditor() bool {
	log := os.Getenv(fakeEditorLog)
	if log == "" {
		return false
	}
	if err := os.WriteFile(log, []byte(strings.Join(os.Args, "\n")), 0o600); err != nil {
		os.Exit(2)
	}
	return true
}

// reviewed reviews roots (read from fsys when it is not nil) as twice show
// --source does, and returns the view's source.
func reviewed(fsys fstest.MapFS, roots ...string) *CodeSource {
	opts := langs.Options()
	src := &CodeSource{}
	if fsys != nil {
		opts.FS, src.Files = fsys, fsys
	}
	rep, err := review.Review(context.Background(), roots, opts)
	if err != nil {
		panic(err)
	}
	src.Review = rep
	return src
}

// demoCode is the review of the bundled demo services, embedded in twice
// (--source demo).
func demoCode() *CodeSource {
	opts := langs.Options()
	opts.FS = fixtures.DemoServices()
	rep, err := review.Review(context.Background(), []string{fixtures.DemoServicesRoot}, opts)
	if err != nil {
		panic(err)
	}
	return &CodeSource{Review: rep, Files: fixtures.DemoServices()}
}

// diskCode is the review of testdata/source on disk: the charge service
// alone, so the checkout's other two activities are not found.
func diskCode() *CodeSource { return reviewed(nil, "testdata/source") }

// withCode adds a source to a scene's options.
func withCode(opts func() Options, code func() *CodeSource) func() Options {
	return func() Options {
		o := opts()
		o.Code = code()
		return o
	}
}

// needPython skips a test of a demo whose service is Python when this
// build cannot review Python (no cgo).
func needPython(t *testing.T) {
	t.Helper()
	if ok, why := python.Available(); !ok {
		t.Skip("the demo's service is Python: " + why)
	}
}

// codeScenes are the Code tab's screens: payment-timeout's hazard (the key
// made with uuid.uuid4()) with its excerpt beside the list and whole
// screen, worker-crash's two hazards, the finding's code row in the
// Findings tab, activities the source does not define, and the help
// screen with the Code keys. py marks the scenes that need Python review.
func codeScenes() []struct {
	scene
	py bool
} {
	timeout := withCode(demo("payment-timeout"), demoCode)
	partial := withCode(demo("payment-timeout"), diskCode)
	return []struct {
		scene
		py bool
	}{
		{scene{name: "code", opts: timeout, keys: []string{"["}}, true},
		{scene{name: "code-excerpt", opts: timeout, keys: []string{"[", "enter"}}, true},
		{scene{name: "code-findings", opts: timeout, keys: []string{"[", "[", "G"}}, true},
		{scene{name: "code-worker-crash", opts: withCode(demo("worker-crash"), demoCode), keys: []string{"["}}, true},
		{scene{name: "code-not-found", opts: partial, keys: []string{"[", "g"}}, false},
		{scene{name: "code-help", opts: partial, keys: []string{"?"}}, false},
	}
}

// TestGoldenCode renders the Code tab's scenes at 80×24, 120×40 and
// 200×60, in monochrome, against testdata/TestGoldenCode/*.golden.
func TestGoldenCode(t *testing.T) {
	for _, sc := range codeScenes() {
		for _, size := range [][2]int{{80, 24}, {120, 40}, {200, 60}} {
			t.Run(sc.name+"_"+sizeName(size), func(t *testing.T) {
				if sc.py {
					needPython(t)
				}
				m := render(t, sc.scene, size[0], size[1], colorprofile.ASCII)
				out := ansi.Strip(m.View().Content)
				checkFrame(t, out, size[0], size[1])
				golden.RequireEqual(t, out)
			})
		}
	}
}

// TestCodeTabOnlyWithSource: a run shown without source has the four tabs
// it always had, and e does nothing there; with source, a fifth, Code,
// whose count is its rows, and e is in the key bar.
func TestCodeTabOnlyWithSource(t *testing.T) {
	plainRun := start(t, Options{History: tuitest.Checkout()}, 120, 40)
	if s := plain(plainRun); strings.Contains(s, "Code") || !strings.Contains(s, "Findings 1") {
		t.Errorf("a run without source shows a Code tab:\n%s", s)
	}
	if got := keys(t, plainRun, "[").run.Tab(); got != runview.TabFindings {
		t.Errorf("[ from the first tab went to tab %d, want Findings (the last)", got)
	}
	before := plainRun.status
	keys(t, plainRun, "e")
	if plainRun.status != before {
		t.Errorf("e without source said %q", plainRun.status.text)
	}

	m := start(t, Options{History: tuitest.Checkout(), Code: diskCode()}, 120, 40)
	m = keys(t, m, "[")
	s := plain(m)
	if m.run.Tab() != runview.TabCode || !strings.Contains(s, "[Code 3]") || !strings.Contains(s, "e open in editor") {
		t.Errorf("[ did not open the Code tab with its three rows and e in the key bar:\n%s", s)
	}
}

// TestCodeTabListsEveryActivity: an activity the run called that the
// source does not define is a row of its own, said to be not found, and
// its detail says what was reviewed and which names the source registers.
func TestCodeTabListsEveryActivity(t *testing.T) {
	m := keys(t, start(t, Options{History: tuitest.Checkout(), Code: diskCode()}, 200, 60), "[")
	s := plain(m)
	for _, want := range []string{"? ABSENT not found", "ReserveInventory", "SendReceipt", "▲ HIGH   key-generated-in-body ChargeCard"} {
		if !strings.Contains(s, want) {
			t.Errorf("the Code tab lacks %q:\n%s", want, s)
		}
	}
	// The tab opens on the most severe hazard.
	if d := strings.Join(m.run.DetailLines(), "\n"); !strings.Contains(d, "uuid.NewString()") {
		t.Errorf("the Code tab did not open on ChargeCard's hazard; detail:\n%s", d)
	}
	m = keys(t, m, "g")
	d := ansi.Strip(strings.Join(m.run.DetailLines(), "\n"))
	for _, want := range []string{
		"ReserveInventory is called in this run, but the source given does not define it",
		"source reviewed: testdata/source (1 file: 1 Go)",
		"it registers: ChargeCard",
	} {
		if !strings.Contains(d, want) {
			t.Errorf("the not-found detail lacks %q:\n%s", want, d)
		}
	}
}

// TestCodeFilterSortAndCopy: / and ! filter the Code rows (the count
// follows), s sorts them, and y copies a hazard's file:line and rule,
// saying what it copied.
func TestCodeFilterSortAndCopy(t *testing.T) {
	m := keys(t, start(t, Options{History: tuitest.Checkout(), Code: diskCode()}, 120, 40), "[")
	m = keys(t, m, "/", "u", "u", "i", "d", "enter")
	if s := plain(m); !strings.Contains(s, "Code 1/3") || !strings.Contains(s, "filter: /uuid") {
		t.Errorf("/uuid did not keep ChargeCard's row alone (its line holds uuid):\n%s", s)
	}
	if d := strings.Join(m.run.DetailLines(), "\n"); !strings.Contains(d, "/uuid matched message, line") {
		t.Errorf("the detail pane does not say the filter matched the line:\n%s", d)
	}
	m = keys(t, m, "esc", "!")
	if s := plain(m); !strings.Contains(s, "Code 1/3") {
		t.Errorf("! did not keep the flagged activity's row alone:\n%s", s)
	}
	m = keys(t, m, "!", "s", "a")
	s := plain(m)
	if !strings.Contains(s, "sorted by ACTIVITY ↑") || strings.Index(s, "ChargeCard") > strings.Index(s, "ReserveInventory") {
		t.Errorf("s a did not sort the rows by activity:\n%s", s)
	}
	m = keys(t, m, "g", "y")
	if want := "copied the hazard's file:line and rule testdata/source/charge.go:33 key-generated-in-body"; !strings.Contains(m.status.text, want) {
		t.Errorf("y said %q, want it to contain %q", m.status.text, want)
	}
}

// TestCodeEnterShowsTheExcerpt: enter shows the selected row whole screen,
// the reviewed line marked among its neighbours; esc gives the list the
// keys again.
func TestCodeEnterShowsTheExcerpt(t *testing.T) {
	m := keys(t, start(t, Options{History: tuitest.Checkout(), Code: diskCode()}, 80, 24), "[", "enter")
	s := plain(m)
	for _, want := range []string{"▶ ▲ HIGH key-generated-in-body · ChargeCard", "› 33 │ req.Header.Set(\"Idempotency-Key\", uuid.NewString())", "  32 │ }"} {
		if !strings.Contains(s, want) {
			t.Errorf("enter did not show the excerpt whole screen (%q):\n%s", want, s)
		}
	}
	m = keys(t, m, "esc", "k")
	if got := m.run.Selection(); got != "code:0" {
		t.Errorf("after esc, k selected %q; want the list to have the keys (code:0)", got)
	}
}

// TestFindingJumpsToItsCode: enter on a finding's code row opens the
// activity's hazard in the Code tab.
func TestFindingJumpsToItsCode(t *testing.T) {
	m := keys(t, start(t, Options{History: tuitest.Checkout(), Code: diskCode()}, 120, 40), "[", "[", "G")
	if s := plain(m); !strings.Contains(s, "›    └ code: likely a real duplicate: ChargeCard makes its key") {
		t.Fatalf("the finding has no code row:\n%s", s)
	}
	if s := plain(m); !strings.Contains(s, "enter show code · e open in editor") {
		t.Errorf("the code row's keys are not in the key bar:\n%s", s)
	}
	m = keys(t, m, "e") // no editor here: it says what it would have opened
	if want := "no editor to open testdata/source/charge.go:33 in"; !strings.Contains(m.status.text, want) {
		t.Errorf("e on the code row said %q, want %q", m.status.text, want)
	}
	m = keys(t, m, "enter")
	if m.run.Tab() != runview.TabCode || !strings.Contains(plain(m), "› ▲ HIGH") {
		t.Errorf("enter on the code row did not select ChargeCard's hazard in the Code tab:\n%s", plain(m))
	}
}

// TestEditSaysWhatItCannotOpen: with no editor set, on an activity the
// source does not define, on a file no longer there, and with an editor
// that is not installed, e says so and runs nothing.
func TestEditSaysWhatItCannotOpen(t *testing.T) {
	noEditor := keys(t, start(t, Options{History: tuitest.Checkout(), Code: diskCode()}, 120, 40), "[", "e")
	if want := "no editor to open testdata/source/charge.go:33 in: set $VISUAL or $EDITOR"; !strings.Contains(noEditor.status.text, want) {
		t.Errorf("e with no editor said %q, want %q", noEditor.status.text, want)
	}

	vim := editor.Editor{Argv: []string{"vim"}, Var: "EDITOR"}
	notFound := keys(t, start(t, Options{History: tuitest.Checkout(), Code: diskCode(), Editor: vim}, 120, 40), "[", "g", "e")
	if want := "the source given does not define ReserveInventory: there is no file to open"; notFound.status.text != want {
		t.Errorf("e on a not-found row said %q, want %q", notFound.status.text, want)
	}

	dir := t.TempDir()
	file := filepath.Join(dir, "charge.go")
	copyFile(t, "testdata/source/charge.go", file)
	code := reviewed(nil, dir)
	if err := os.Remove(file); err != nil {
		t.Fatal(err)
	}
	gone := keys(t, start(t, Options{History: tuitest.Checkout(), Code: code, Editor: vim}, 120, 40), "[", "e")
	if want := "charge.go:33: it is not there any more"; !strings.Contains(gone.status.text, want) {
		t.Errorf("e on a removed file said %q, want %q", gone.status.text, want)
	}
	if d := strings.Join(gone.run.DetailLines(), "\n"); !strings.Contains(d, "the file is not there any more") {
		t.Errorf("the detail pane of a removed file does not say so:\n%s", d)
	}

	missing := editor.Editor{Argv: []string{"twice-no-such-editor"}, Var: "VISUAL"}
	absent := keys(t, start(t, Options{History: tuitest.Checkout(), Code: diskCode(), Editor: missing}, 120, 40), "[", "e")
	if want := "cannot run the editor twice-no-such-editor ($VISUAL)"; !strings.Contains(absent.status.text, want) {
		t.Errorf("e with an editor not installed said %q, want %q", absent.status.text, want)
	}
}

// copyFile copies a file for a test.
func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// fakeEditor links the test binary as an editor named name in a temporary
// folder and returns the editor (with args after it, as $EDITOR would hold
// them) and the file its arguments will be written to.
func fakeEditor(t *testing.T, name string, args ...string) (editor.Editor, string) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	link := filepath.Join(dir, name)
	if err := os.Symlink(self, link); err != nil {
		t.Skipf("cannot link the test binary as an editor: %v", err)
	}
	log := filepath.Join(dir, "argv")
	t.Setenv(fakeEditorLog, log)
	return editor.Editor{Argv: append([]string{link}, args...), Var: "EDITOR"}, log
}

// editorArgv waits for the fake editor's arguments.
func editorArgv(t *testing.T, log string) []string {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if b, err := os.ReadFile(log); err == nil && len(b) > 0 {
			return strings.Split(string(b), "\n")
		}
		if time.Now().After(deadline) {
			t.Fatal("the editor never ran")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestFlowCodeToEditor is the key flow of the Code tab in a running
// program: open the tab, move, show a row's excerpt, go back, and open the
// hazard's line in the editor (a fake vim recording its arguments); the
// view comes back and says so.
func TestFlowCodeToEditor(t *testing.T) {
	ed, log := fakeEditor(t, "vim")
	tm, f := program(t, Options{History: tuitest.Checkout(), Code: diskCode(), Editor: ed})
	waitFor(t, f, "Code 3")

	press(tm, "[")
	waitFor(t, f, "[Code 3]", "▲ HIGH key-generated-in-body · ChargeCard", "enter show excerpt", "e open in editor")
	press(tm, "k") // the activity above is not in the source
	waitFor(t, f, "? not found · ReserveInventory", "enter why")
	press(tm, "j", "enter")
	waitFor(t, f, "▶ ▲ HIGH key-generated-in-body", "› 33 │ req.Header.Set(\"Idempotency-Key\", uuid.NewString())")
	press(tm, "esc", "e")
	waitFor(t, f, "back from vim (testdata/source/charge.go:33)")

	got := editorArgv(t, log)
	want := []string{ed.Argv[0], "+33", filepath.FromSlash("testdata/source/charge.go")}
	if !slices.Equal(got, want) {
		t.Errorf("the editor ran with %q, want %q", got, want)
	}
	m := finalModel(t, tm)
	if m.run.Tab() != runview.TabCode || m.run.Selection() != "code:1" {
		t.Errorf("after the editor: tab %d, selection %q; want the Code tab on the hazard", m.run.Tab(), m.run.Selection())
	}
}

// TestFlowEditEmbeddedOpensACopy: a file of an embedded source (the
// bundled demo services are one) is written to a temporary copy, which
// the editor — here one whose $EDITOR carries an argument, and which takes
// its line as -g FILE:LINE — opens at the line; the copy goes when the
// view ends.
func TestFlowEditEmbeddedOpensACopy(t *testing.T) {
	src, err := os.ReadFile("testdata/source/charge.go")
	if err != nil {
		t.Fatal(err)
	}
	files := fstest.MapFS{"svc/charge.go": {Data: src}}
	ed, log := fakeEditor(t, "code", "--wait")
	tmp := t.TempDir()
	tm, f := program(t, Options{History: tuitest.Checkout(), Code: reviewed(files, "svc"), Editor: ed, TempDir: tmp})
	waitFor(t, f, "Code 3")
	press(tm, "[")
	waitFor(t, f, "[Code 3]", "at: svc/charge.go:33:2")
	press(tm, "e")
	waitFor(t, f, "back from code (svc/charge.go:33); that was a temporary copy")

	got := editorArgv(t, log)
	if len(got) != 4 || got[0] != ed.Argv[0] || got[1] != "--wait" || got[2] != "-g" || !strings.HasSuffix(got[3], filepath.FromSlash("/svc/charge.go:33")) {
		t.Fatalf("the editor ran with %q, want [code --wait -g <copy>/svc/charge.go:33]", got)
	}
	copyPath := strings.TrimSuffix(got[3], ":33")
	if !strings.HasPrefix(copyPath, tmp) {
		t.Errorf("the copy %s is not in the view's temporary folder %s", copyPath, tmp)
	}
	if b, err := os.ReadFile(copyPath); err != nil || string(b) != string(src) {
		t.Errorf("the copy holds %d bytes (%v), want the embedded file's %d", len(b), err, len(src))
	}
	m := finalModel(t, tm)
	m.removeCopies()
	if _, err := os.Stat(copyPath); !os.IsNotExist(err) {
		t.Errorf("the copy is still there after the view ended: %v", err)
	}
}

// TestCodeHostileSource: source text reaches the terminal only through the
// sanitizer — a hazard's line carrying an escape sequence, a bidi override
// and a zero-width space, in the Code tab's list and excerpt, the Findings
// tab's code row and every detail line.
func TestCodeHostileSource(t *testing.T) {
	src, err := os.ReadFile("testdata/source/charge.go")
	if err != nil {
		t.Fatal(err)
	}
	hostile := strings.Replace(string(src), `uuid.NewString())`,
		"uuid.NewString()) // \x1b[2J\x1b]0;owned\x07 \u202egnp.exe \u200b\x1b[31m", 1)
	code := reviewed(fstest.MapFS{"svc/charge.go": {Data: []byte(hostile)}}, "svc")
	for _, k := range [][]string{{"["}, {"[", "enter"}, {"[", "[", "G"}, {"[", "/", "o", "w", "n", "e", "d", "enter"}} {
		for _, size := range [][2]int{{80, 24}, {200, 60}} {
			sc := scene{name: "hostile-code", opts: func() Options { return Options{History: tuitest.Checkout(), Code: code} }, keys: k}
			m := render(t, sc, size[0], size[1], colorprofile.NoTTY)
			out := m.View().Content
			if v, bad := hostiletest.FindUnsafe(out, false); bad {
				t.Fatalf("keys %q: unsafe character %U at byte %d in view:\n%s", k, v.Rune, v.Offset, out)
			}
			for _, l := range m.run.DetailLines() {
				if v, bad := hostiletest.FindUnsafe(l, false); bad {
					t.Fatalf("keys %q: unsafe character %U in detail line %q", k, v.Rune, l)
				}
			}
		}
	}
	m := keys(t, start(t, Options{History: tuitest.Checkout(), Code: code}, 200, 60), "[")
	if d := strings.Join(m.run.DetailLines(), "\n"); !strings.Contains(d, `\x1b[2J`) || !strings.Contains(d, `\u202e`) {
		t.Errorf("the hostile line is not shown escaped:\n%s", d)
	}
}
