package tui

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/twice-cli/twice/fixtures/gen"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/detect"
	"github.com/twice-cli/twice/tui/internal/tuitest"
	"github.com/twice-cli/twice/tui/runview"
)

// benchSizes are the history sizes of the benchmarks.
func benchSizes() []int { return []int{10_000, 100_000, 1_000_000} }

// loaded returns a root model showing h with its analysis idx at 120×40,
// as a run just opened shows it (with the Code tab when code is set).
func loaded(h *catalyst.History, idx *runview.Index, code *CodeSource) *Model {
	m := New(testOptions(Options{History: h, Code: code}))
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	m.run.SetHistory(h, idx, false)
	m.setStatus(m.run.OpenSummary())
	return m
}

// BenchmarkUpdateView measures one key press handled and the frame redrawn,
// on histories of 10k, 100k and 1M events.
func BenchmarkUpdateView(b *testing.B) {
	for _, n := range benchSizes() {
		b.Run(gen.SizeName(n), func(b *testing.B) { benchKeys(b, n) })
	}
}

// benchKeys measures each key on a history of n events, built once for all.
func benchKeys(b *testing.B, n int) {
	h := tuitest.Big(n)
	idx := runview.NewIndex(h, detect.Analyze(h, detect.Options{}))
	// With source (twice show --source): the report joined to the code of
	// its activities, and the Code tab.
	code := benchCode()
	idxCode := runview.NewIndex(h, detect.Analyze(h, detect.Options{}))
	idxCode.AddCode(code.view())
	cases := []struct {
		name  string
		setup []string
		keys  []string
		// settle runs the commands a key returns (a large list's filter
		// runs in one) and applies their results, so the time is the
		// whole filter, not just the key press.
		settle bool
		// code shows the run with its source joined.
		code bool
	}{
		{name: "move", setup: []string{"tab", "tab"}, keys: []string{"j", "k"}},
		{name: "page", setup: []string{"tab", "tab"}, keys: []string{"ctrl+d", "ctrl+u"}},
		{name: "bottom-top", setup: []string{"tab", "tab"}, keys: []string{"G", "g"}},
		{name: "switch-tab", keys: []string{"tab"}},
		{name: "invocations-move", keys: []string{"j", "k"}},
		{name: "expand", keys: []string{"enter"}},
		{name: "filter-keystroke", setup: []string{"tab", "tab", "/"}, keys: []string{"s", "backspace"}},
		{name: "filter-keystroke-settled", setup: []string{"tab", "tab", "/"}, keys: []string{"s", "backspace"}, settle: true},
		{name: "filter-id-settled", setup: []string{"tab", "tab", "/"}, keys: []string{"4", "backspace"}, settle: true},
		{name: "failed-toggle-settled", setup: []string{"tab", "tab"}, keys: []string{"f"}, settle: true},
		{name: "findings-move", setup: []string{"tab", "tab", "tab"}, keys: []string{"j", "k"}},
		{name: "findings-filter-keystroke", setup: []string{"tab", "tab", "tab", "/"}, keys: []string{"s", "backspace"}},
		{name: "timeline-move", setup: []string{"tab"}, keys: []string{"j", "k"}},
		{name: "timeline-page", setup: []string{"tab"}, keys: []string{"ctrl+d", "ctrl+u"}},
		{name: "timeline-zoom", setup: []string{"tab"}, keys: []string{"+", "-"}},
		{name: "sort-keystroke", setup: []string{"tab", "tab"}, keys: []string{"s", "t"}},
		{name: "sort-settled", setup: []string{"tab", "tab"}, keys: []string{"s", "t"}, settle: true},
		{name: "detail-focused-page", setup: []string{"l"}, keys: []string{"ctrl+d", "ctrl+u"}},
		{name: "code-move", setup: []string{"["}, keys: []string{"j", "k"}, code: true},
		{name: "code-filter-keystroke-settled", setup: []string{"[", "/"}, keys: []string{"s", "backspace"}, settle: true, code: true},
		{name: "code-findings-move", setup: []string{"[", "["}, keys: []string{"j", "k"}, code: true},
		{name: "code-findings-filter-settled", setup: []string{"[", "[", "/"}, keys: []string{"s", "backspace"}, settle: true, code: true},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			m := loaded(h, idx, nil)
			if c.code {
				m = loaded(h, idxCode, code)
			}
			for _, k := range c.setup {
				m.Update(keyMsg(k))
			}
			msgs := make([]tea.KeyPressMsg, len(c.keys))
			for i, k := range c.keys {
				msgs[i] = keyMsg(k)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				_, cmd := m.Update(msgs[i%len(msgs)])
				if c.settle {
					m = settle(m, cmd)
				}
				_ = m.View()
			}
		})
	}
}

// settle runs cmd and applies what it returns, except timers.
func settle(m *Model, cmd tea.Cmd) *Model {
	if cmd == nil {
		return m
	}
	switch msg := cmd().(type) {
	case tea.BatchMsg:
		for _, c := range msg {
			m = settle(m, c)
		}
	case nil, spinner.TickMsg:
	default:
		next, cmd := m.Update(msg)
		m = settle(next.(*Model), cmd)
	}
	return m
}

// BenchmarkFirstFrame measures the time from an already-decoded history to
// the first frame on screen (detect runs afterwards, off the UI goroutine).
func BenchmarkFirstFrame(b *testing.B) {
	h := tuitest.Big(1_000_000)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m := New(testOptions(Options{History: h}))
		next, _ := m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
		_ = next.(*Model).View()
	}
}

// BenchmarkFirstFrameOpened measures the time from a run's history decoded
// (the source answered) to its first frame: the header, the events and the
// tabs waiting for detect, which the same update starts off the UI
// goroutine (the command is not run here).
func BenchmarkFirstFrameOpened(b *testing.B) {
	h := tuitest.Big(1_000_000)
	ref := catalyst.RunRef{ID: h.Run.ID}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m := New(testOptions(Options{Source: tuitest.NewSource(), Open: &ref}))
		next, _ := m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
		next, _ = next.Update(historyDecodedMsg{to: m.run, seq: m.run.req.seq, history: h})
		_ = next.(*Model).View()
	}
}

// benchCode is the source of Big's first ten activities (Step0…Step9),
// each making its idempotency key with uuid: a hazard apiece, and the
// other ninety activities not found.
func benchCode() *CodeSource {
	var b strings.Builder
	b.WriteString("package steps\n\nimport (\n\t\"net/http\"\n\t\"strings\"\n\n" +
		"\t\"github.com/dapr/durabletask-go/workflow\"\n\t\"github.com/google/uuid\"\n)\n\n")
	for i := range 10 {
		fmt.Fprintf(&b, "func Step%d(ctx workflow.ActivityContext) (any, error) {\n"+
			"\treq, _ := http.NewRequest(http.MethodPost, \"https://api.example/v1/steps\", strings.NewReader(\"{}\"))\n"+
			"\treq.Header.Set(\"Idempotency-Key\", uuid.NewString())\n"+
			"\t_, err := http.DefaultClient.Do(req)\n\treturn nil, err\n}\n\n", i)
	}
	b.WriteString("func Register(r *workflow.Registry) {\n")
	for i := range 10 {
		fmt.Fprintf(&b, "\t_ = r.AddActivity(Step%d)\n", i)
	}
	b.WriteString("}\n")
	return reviewed(fstest.MapFS{"steps/steps.go": {Data: []byte(b.String())}}, "steps")
}

// BenchmarkAddCode measures what source adds to the background work after
// a load: the join and the Code tab's index (files read included).
func BenchmarkAddCode(b *testing.B) {
	code := benchCode()
	for _, n := range benchSizes() {
		b.Run(gen.SizeName(n), func(b *testing.B) {
			h := tuitest.Big(n)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				x := runview.NewIndex(h, detect.Analyze(h, detect.Options{}))
				b.StartTimer()
				x.AddCode(code.view())
			}
		})
	}
}

// BenchmarkAnalyzeIndex measures the background work after a load: detect
// and the run view's index, at each size.
func BenchmarkAnalyzeIndex(b *testing.B) {
	for _, n := range benchSizes() {
		b.Run(gen.SizeName(n), func(b *testing.B) {
			h := tuitest.Big(n)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				rep := detect.Analyze(h, detect.Options{})
				runview.NewIndex(h, rep)
			}
		})
	}
}
