package tui

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/twice-cli/twice/detect"
	"github.com/twice-cli/twice/tui/internal/tuitest"
	"github.com/twice-cli/twice/tui/runview"
)

// BenchmarkOnCall measures issue 23's targets on a history of a million
// events whose every activity carries an input and an output (BigPayloads):
// a key press (under 5 ms) and a filter over payload text, typed and
// settled — every tab's filter command run and applied, the frame drawn —
// (under 200 ms).
func BenchmarkOnCall(b *testing.B) {
	h := tuitest.BigPayloads(1_000_000)
	idx := runview.NewIndex(h, detect.Analyze(h, detect.Options{}))
	cases := []struct {
		name   string
		setup  []string
		keys   []string
		settle bool
	}{
		// One customer: "cus_123456" and "cus_12345" alternately.
		{name: "payload-filter-settled", setup: []string{"/", "c", "u", "s", "_", "1", "2", "3", "4", "5"}, keys: []string{"6", "backspace"}, settle: true},
		{name: "payload-filter-keystroke", setup: []string{"/", "c", "u", "s", "_", "1", "2", "3", "4", "5"}, keys: []string{"6", "backspace"}},
		{name: "invocations-move", keys: []string{"j", "k"}},
		{name: "events-move", setup: []string{"tab", "tab"}, keys: []string{"j", "k"}},
		{name: "filtered-move", setup: []string{"/", "c", "u", "s", "_", "1", "2", "3", "4", "5", "enter"}, keys: []string{"j", "k"}, settle: true},
		// Item 4: a fan-out's rows with their INPUT cells; item 5: the
		// Timeline's labels, zoom around the moment, attempts unfolded.
		{name: "timeline-move", setup: []string{"tab"}, keys: []string{"j", "k"}},
		{name: "timeline-zoom", setup: []string{"tab"}, keys: []string{"+", "-"}},
		{name: "timeline-fold", setup: []string{"tab"}, keys: []string{"space", "space"}},
		{name: "timeline-unfolded-move", setup: []string{"tab", "space"}, keys: []string{"j", "k"}},
		{name: "sort-input-keystroke", keys: []string{"s", "i"}},
		{name: "sort-input-settled", keys: []string{"s", "i"}, settle: true},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			m := loaded(h, idx, nil)
			for _, k := range c.setup {
				_, cmd := m.Update(keyMsg(k))
				m = settle(m, cmd)
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

// BenchmarkOnCallIndex measures the index of a million-event history with
// payloads (detect not included): built once, off the UI goroutine, when
// the analysis arrives.
func BenchmarkOnCallIndex(b *testing.B) {
	h := tuitest.BigPayloads(1_000_000)
	rep := detect.Analyze(h, detect.Options{})
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		runview.NewIndex(h, rep)
	}
}
