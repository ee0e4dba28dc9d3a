// Package tui is twice's interactive inspector: a run list, and a run view
// with its invocations, events and findings, built on Bubble Tea v2.
//
// The root model keeps a stack of screens — the run list at the bottom when
// there is a source, the run opened from it on top — each a pane
// (common.Pane) bound to the source that fills it. It shows the top one and
// gives it the keys, sizes every one, and builds the key bar and help screen
// from the top one's help, without knowing which pane it holds. It owns the
// source and every command that reads from it (list runs, load a history,
// poll a followed run), the status line and the run keys. Everything slow —
// fetching, detect.Analyze, indexing — runs in commands, off the UI
// goroutine; a request superseded by a newer one is cancelled through its
// own context, and its answer, if one still comes, is dropped by sequence
// number.
package tui

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/safetext"
	"github.com/twice-cli/twice/detect"
	"github.com/twice-cli/twice/detect/review"
	"github.com/twice-cli/twice/tui/common"
	"github.com/twice-cli/twice/tui/diffview"
	"github.com/twice-cli/twice/tui/editor"
	"github.com/twice-cli/twice/tui/format"
	"github.com/twice-cli/twice/tui/lineinput"
	"github.com/twice-cli/twice/tui/runlist"
	"github.com/twice-cli/twice/tui/runview"
	"github.com/twice-cli/twice/tui/style"
)

// Options configure the inspector.
type Options struct {
	// Source lists runs and fetches histories (live or file-backed).
	Source catalyst.Source
	// Query filters the run list.
	Query catalyst.RunQuery
	// Open opens this run directly (twice show RUN_ID / FILE).
	Open *catalyst.RunRef
	// History opens an already-loaded history directly.
	History *catalyst.History
	// Compare opens two histories already read compared (twice diff on a
	// terminal): A, the run compared against, then B.
	Compare [2]*catalyst.History
	// Banner is one line shown at the top, e.g. "no Catalyst credentials —
	// showing the bundled demo histories".
	Banner string
	// Detect tunes detect.Analyze.
	Detect detect.Options
	// Console is the console base URL ("" = catalyst.DefaultConsole).
	Console string
	// Now is the clock (nil = time.Now).
	Now func() time.Time
	// TimeFormat is "relative" (default) or "iso".
	TimeFormat string
	// Profile is the colour profile, decided by the caller: Ascii for
	// NO_COLOR / --color never (monochrome: reverse video, glyphs and
	// words), NoTTY for no escape sequences at all, Unknown to let Bubble
	// Tea detect it.
	Profile colorprofile.Profile
	// Input and Output are the terminal (nil = Bubble Tea's defaults).
	Input  io.Reader
	Output io.Writer
	// OpenURL opens a link in a browser; nil (or failing) prints the link
	// in the status line instead.
	OpenURL func(url string) error
	// FollowInterval is how often follow mode polls a running run
	// (default 5 s); errors back off from it, doubling up to a minute.
	FollowInterval time.Duration
	// Hint words an error from the source for the user, with what to do
	// next (e.g. "not authenticated: run twice doctor"); "" or nil falls
	// back to the error's own text.
	Hint func(error) string
	// SourceName says where the runs are read from, for the run list's
	// title ("Catalyst at mcp.cloud.r1.diagrid.io", "the bundled demo
	// histories"); "" says nothing.
	SourceName string
	// SourceNote, when set, says what the source is doing while a read is
	// in flight ("retry 2 after HTTP 503"; "" for nothing): the loading
	// lines show it.
	SourceNote func() string
	// RefreshEvery, above zero, lists the runs again that often while the
	// run list is on screen (twice --refresh 30s); the title says when it
	// last did.
	RefreshEvery time.Duration
	// Redact removes secrets from an error's words before they are shown
	// (the command's secret.Redactor; nil shows them as they are).
	Redact func(string) string
	// Width and Height, when both are set, are the terminal's size before
	// it reports one (tests that draw into a buffer).
	Width, Height int
	// Code is the workflow and activity source joined to every run the
	// view shows (twice show --source): each finding gains its activity's
	// code evidence, and the run view a Code tab. nil: no source, no tab.
	Code *CodeSource
	// Editor opens a source file at a line (e on the Code tab); its zero
	// value means neither $VISUAL nor $EDITOR is set, which e says.
	Editor editor.Editor
	// TmuxBuffer, when set (twice runs inside tmux: TmuxBuffer(getenv)),
	// loads what y and Y copy into tmux's paste buffer too, where tmux's
	// default settings leave an OSC 52 copy out.
	TmuxBuffer func(ctx context.Context, text string) error
	// TempDir is where e writes the copy of a file of an embedded source
	// (the bundled demo services) for the editor ("" = the system's
	// temporary folder); the copies are removed when Run returns.
	TempDir string
}

// CodeSource is the workflow and activity source twice show --source
// joins to every run the view shows: what twice review found in it, and
// where its files are read from.
type CodeSource struct {
	// Review is the review of the source.
	Review *review.Report
	// Files holds the reviewed files when they are not on disk (the
	// bundled demo services), by the paths the review names them with;
	// nil reads the operating system's files.
	Files fs.FS
}

// Embedded reports whether the files are bundled in twice rather than on
// disk: an editor can open only a copy of them.
func (c *CodeSource) Embedded() bool { return c.view().Embedded() }

// view is the source as the run view takes it (nil for none).
func (c *CodeSource) view() *runview.CodeSource {
	if c == nil {
		return nil
	}
	return &runview.CodeSource{Review: c.Review, Files: c.Files}
}

// ErrInterrupted is what Run returns when the user quit with ctrl+c (the
// command line exits 130, as for an interrupt anywhere else).
var ErrInterrupted = errors.New("interrupted")

// maxFollowBackoff caps the follow-mode poll interval after errors.
const maxFollowBackoff = time.Minute

// maxAnalyses bounds the run-list rows fetched and analyzed at once.
const maxAnalyses = 4

// statusLine is the one-line message above the key bar: an error, or an
// information message about context (what the screen on top showed when
// it was made).
type statusLine struct {
	text    string
	err     bool
	context string
}

// current reports whether the status line is about what the screen on top
// shows: an error always is, until it is replaced.
func (m *Model) statusCurrent() bool {
	return m.status.err || m.status.context == m.top().context()
}

// Model is the inspector's root model.
type Model struct {
	opts    Options
	c       *common.Common
	ctx     context.Context
	analyze analyzeFunc
	// diff is the two runs compared that twice diff opened (nil: none).
	diff *diffScreen

	// stack is the screens, bottom first; the top one is on screen and
	// takes the input. It is never empty.
	stack []screen
	// list is the run list (the bottom of the stack when there is a
	// source), which the list's answers go to; run is the run opened last
	// (on the stack while it is open). Answers about a run go to the run
	// screen that asked.
	list     *listScreen
	run      *runScreen
	showHelp bool
	// commanding is set while the command line (:) is open, cmdline its
	// text (cmdline.go).
	commanding bool
	cmdline    lineinput.Model

	width, height int

	// statusRows is the number of lines the status took at the last
	// layout.
	statusRows int
	status     statusLine

	// followed is the run screen follow mode polls (nil: not following);
	// it is always the one on top.
	followed    *runScreen
	followDelay time.Duration
	followSeq   int

	// refreshSeq numbers the run list's auto-refresh ticks (a newer timer
	// supersedes an older one).
	refreshSeq int

	// bindings are the root's keys (keys.go).
	bindings []common.Binding

	// code is the source joined to every run view (Options.Code).
	code *runview.CodeSource

	// interrupted is set when the user quit with ctrl+c.
	interrupted bool

	// copies is the temporary folder of the embedded source files e
	// opened ("" before the first); Run removes it.
	copies string
}

// New returns the root model for opts. It does no work proportional to the
// history: analysis starts in Init's command.
func New(opts Options) *Model {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.FollowInterval <= 0 {
		opts.FollowInterval = 5 * time.Second
	}
	c := &common.Common{
		Styles:     style.New(opts.Profile),
		Keys:       common.DefaultKeys(),
		Now:        opts.Now,
		TimeFormat: timeFormat(opts.TimeFormat),
		Console:    opts.Console,
		SourceNote: opts.SourceNote,
	}
	m := &Model{
		opts:    opts,
		c:       c,
		ctx:     context.Background(),
		analyze: analyzer(opts.Detect, opts.Now),
		code:    opts.Code.view(),
		list:    &listScreen{Model: runlist.New(c)},

		followDelay: opts.FollowInterval,
		// Until the terminal reports its size (it may never, when the
		// output is not a terminal), draw at the classic 80×24.
		width:  80,
		height: 24,
	}
	m.cmdline = lineinput.Model{Prompt: ":", Limit: 256}
	m.bindings = m.rootBindings()
	m.run = &runScreen{Model: m.newRunView()}
	m.list.SetSource(opts.Query, opts.SourceName)
	if opts.Compare[0] != nil && opts.Compare[1] != nil {
		// twice diff: the two runs compared, and nothing under them.
		a, b := opts.Compare[0], opts.Compare[1]
		m.diff = &diffScreen{Model: diffview.New(c, a.Run, b.Run), ha: a, hb: b}
		m.stack = append(m.stack, m.diff)
		m.layout()
		return m
	}
	opened := opts.History != nil || opts.Open != nil
	if opts.Source != nil || !opened {
		m.stack = append(m.stack, m.list)
	}
	if opened {
		if opts.Open != nil && opts.History == nil {
			ref := *opts.Open
			m.run.ref = &ref
		}
		m.stack = append(m.stack, m.run)
	}
	m.layout()
	if opts.History != nil {
		m.run.SetHistory(opts.History, nil, false)
	}
	return m
}

// newRunView returns a run view, with the Code tab when source was given.
func (m *Model) newRunView() *runview.Model {
	v := runview.New(m.c)
	v.SetCode(m.code)
	return v
}

// Init starts what the first screen needs: the analysis of a given history,
// the fetch of a run to open, or the run list.
func (m *Model) Init() tea.Cmd {
	switch {
	case m.diff != nil:
		return m.diff.load(m)
	case m.opts.History != nil:
		seq := m.run.req.start(m.ctx)
		return tea.Batch(analyzeHistory(m.opts.History, m.analyze, m.run, seq), m.run.SetLoading(""))
	case m.run.ref != nil:
		return m.run.load(m, loadOpen)
	}
	return m.list.fetch(m)
}

// timeFormat parses Options.TimeFormat: "iso", else relative.
func timeFormat(s string) format.TimeFormat {
	if f, ok := format.ParseTimeFormat(s); ok {
		return f
	}
	return format.Relative
}

// analyzer returns the analysis the view runs: detect with opts, judging a
// live run's pending attempts against the clock (now), and a saved one's
// against its own last instant, as the command line does.
func analyzer(opts detect.Options, now func() time.Time) analyzeFunc {
	return func(h *catalyst.History) *detect.Report {
		o := opts
		if h.Run.Provenance.Live() && now != nil && o.Now.IsZero() {
			o.Now = now()
		}
		return detect.Analyze(h, o)
	}
}

// Run runs the inspector until the user quits or ctx is cancelled.
func Run(ctx context.Context, opts Options) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	m := New(opts)
	m.ctx = ctx // before Init, which starts the first request
	popts := []tea.ProgramOption{tea.WithContext(ctx)}
	if opts.Input != nil {
		popts = append(popts, tea.WithInput(opts.Input))
	}
	if opts.Output != nil {
		popts = append(popts, tea.WithOutput(opts.Output))
	}
	if opts.Profile != colorprofile.Unknown {
		popts = append(popts, tea.WithColorProfile(opts.Profile))
	}
	if opts.Width > 0 && opts.Height > 0 {
		popts = append(popts, tea.WithWindowSize(opts.Width, opts.Height))
	}
	defer m.removeCopies()
	_, err := tea.NewProgram(m, popts...).Run()
	if errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil {
		return ctx.Err()
	}
	if err == nil && m.interrupted {
		return ErrInterrupted
	}
	return err
}

// Update routes a message: the source's answers and the panes' requests to
// the root's handlers, input through the root's keys to the pane on top,
// and everything else to every pane on the stack.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.layout()
		return m, nil
	case tea.KeyPressMsg:
		return m, m.handleKey(msg)
	case tea.PasteMsg:
		if m.commanding {
			m.cmdline.Update(msg)
			return m, nil
		}
		return m, m.top().Update(msg)
	case tea.MouseMsg:
		return m, m.handleMouse(msg)
	case tea.InterruptMsg:
		m.interrupted = true
		return m, tea.Quit
	case runsListedMsg:
		return m, m.onRunsListed(msg)
	case runAnalyzedMsg:
		return m, m.onRunAnalyzed(msg)
	case historyDecodedMsg:
		return m, m.onHistoryDecoded(msg)
	case historyAnalyzedMsg:
		return m, m.onHistoryAnalyzed(msg)
	case historyRefreshedMsg:
		return m, m.onHistoryRefreshed(msg)
	case historyPolledMsg:
		return m, m.onHistoryPolled(msg)
	case followTickMsg:
		return m, m.onFollowTick(msg)
	case urlOpenedMsg:
		m.onURLOpened(msg)
		return m, nil
	case tmuxLoadedMsg:
		m.onTmuxLoaded(msg)
		return m, nil
	case runlist.OpenMsg:
		return m, m.openRun(msg.Run)
	case runlist.DiffMsg:
		return m, m.openDiff(msg)
	case diffview.LoadedMsg:
		m.onDiffLoaded(msg)
		return m, nil
	case runview.OpenChildMsg:
		return m, m.openChild(msg)
	case runview.EditMsg:
		return m, m.edit(msg)
	case editorClosedMsg:
		m.onEditorClosed(msg)
		return m, nil
	case refreshTickMsg:
		return m, m.onRefreshTick(msg)
	case common.BackMsg:
		return m, m.back()
	case common.StatusMsg:
		if msg.Err {
			m.setError(msg.Text)
		} else {
			m.setStatus(msg.Text)
		}
		return m, nil
	}
	// Spinner ticks and the panes' own messages: each pane takes its own.
	cmds := make([]tea.Cmd, len(m.stack))
	for i, s := range m.stack {
		cmds[i] = s.Update(msg)
	}
	return m, tea.Batch(cmds...)
}

// top is the screen on top of the stack: the one on screen.
func (m *Model) top() screen { return m.stack[len(m.stack)-1] }

// push puts a screen on top of the stack, sized to the window. Follow mode
// and the status line are for the screen on top: they stop and clear.
func (m *Model) push(s screen) {
	m.stopFollow()
	m.setStatus("")
	s.SetSize(m.width, m.paneHeight())
	m.stack = append(m.stack, s)
}

// back closes the screen on top and shows the one below it, which starts
// what it still needs.
func (m *Model) back() tea.Cmd {
	if len(m.stack) == 1 {
		m.setStatus("no run list to go back to: this history was opened directly (q quits)")
		return nil
	}
	m.stopFollow()
	m.top().close()
	m.stack[len(m.stack)-1] = nil
	m.stack = m.stack[:len(m.stack)-1]
	m.setStatus("")
	return m.top().uncovered(m)
}

// layout gives the screens the window minus the banner, status lines and
// key bar.
func (m *Model) layout() {
	m.statusRows = m.statusHeight()
	h := m.paneHeight()
	for _, s := range m.stack {
		s.SetSize(m.width, h)
	}
}

// paneHeight is the height left for the pane on screen.
func (m *Model) paneHeight() int {
	return max(m.height-1-m.statusRows-m.bannerHeight(), 0)
}

// maxStatusRows bounds the lines an error in the status line may take: it
// is wrapped rather than cut, since what to do next is usually at its end.
const maxStatusRows = 3

// statusHeight is the number of lines the status takes: one, or an error
// wrapped up to maxStatusRows (never more than leaves the pane a few lines).
func (m *Model) statusHeight() int {
	if !m.status.err || m.width <= 0 {
		return 1
	}
	n := len(format.Wrap("✗ "+safetext.Line(m.status.text), max(m.width-m.followWidth(), 1)))
	return max(min(n, maxStatusRows, (m.height-m.bannerHeight()-1)/4), 1)
}

func (m *Model) bannerHeight() int {
	if m.opts.Banner == "" {
		return 0
	}
	return 1
}

// setStatus shows an information message ("" clears the status line). It
// belongs to what the screen on top shows now (its tab and filter): once
// that changes, the line no longer shows it.
func (m *Model) setStatus(text string) {
	m.showStatus(statusLine{text: text, context: m.top().context()})
}

// setError shows an error message.
func (m *Model) setError(text string) { m.showStatus(statusLine{text: text, err: true}) }

// showStatus shows s, laying the panes out again when its height changed.
func (m *Model) showStatus(s statusLine) {
	m.status = s
	if m.statusHeight() != m.statusRows {
		m.layout()
	}
}

// errorText words err for the user: the caller's hint, or the error's text,
// with any secret redacted.
func (m *Model) errorText(err error) string {
	text := m.describeError(err)
	if m.opts.Redact != nil {
		text = m.opts.Redact(text)
	}
	return text
}

func (m *Model) describeError(err error) string {
	if m.opts.Hint != nil {
		if h := m.opts.Hint(err); h != "" {
			return h
		}
	}
	switch {
	case errors.Is(err, context.Canceled):
		return "cancelled"
	case errors.Is(err, context.DeadlineExceeded):
		return "the source did not answer in time: " + err.Error()
	}
	return err.Error()
}
