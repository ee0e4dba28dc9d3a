package diffview

import (
	"strings"
	"testing"

	"github.com/charmbracelet/colorprofile"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/safetext/hostiletest"
	"github.com/twice-cli/twice/detect"
	"github.com/twice-cli/twice/tui/common"
	"github.com/twice-cli/twice/tui/internal/tuitest"
	"github.com/twice-cli/twice/tui/style"
)

func newCommon() *common.Common {
	return &common.Common{Styles: style.New(colorprofile.NoTTY), Keys: common.DefaultKeys(), Now: tuitest.Now}
}

// TestEveryKeyIsDocumented checks the view's bindings.
func TestEveryKeyIsDocumented(t *testing.T) {
	m := New(newCommon(), catalyst.Run{ID: "a"}, catalyst.Run{ID: "b"})
	tuitest.CheckBindings(t, "diff view", m.Keys().Bindings, 0, &m.c.Keys)
}

// TestHostileNames: every text of both runs reaches the frame through the
// sanitizer, at every row the cursor can select, and the frame keeps its
// size.
func TestHostileNames(t *testing.T) {
	for _, s := range hostiletest.Corpus(false) {
		for _, doc := range hostiletest.Documents(s.Value) {
			if doc.Name == "fixture" {
				continue
			}
			h, err := catalyst.Decode(strings.NewReader(string(doc.Bytes)), catalyst.DecodeOptions{})
			if err != nil {
				t.Fatal(err)
			}
			r := Run{History: h, Report: detect.Analyze(h, detect.Options{})}
			other := tuitest.Charge()
			o := Run{History: other, Report: detect.Analyze(other, detect.Options{})}
			m := New(newCommon(), h.Run, other.Run)
			m.SetSize(100, 30)
			m.SetDiff(Compare(r, o), nil)
			for range m.rows() {
				out := m.View()
				if v, bad := hostiletest.FindUnsafe(out, false); bad {
					t.Fatalf("%s in %s: raw %U in the frame", s.Name, doc.Name, v.Rune)
				}
				if n := strings.Count(out, "\n") + 1; n != 30 {
					t.Fatalf("%s in %s: %d lines, want 30", s.Name, doc.Name, n)
				}
				m.move(1)
			}
		}
	}
}
