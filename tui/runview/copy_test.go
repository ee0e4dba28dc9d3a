package runview

import (
	"strings"
	"testing"

	"github.com/twice-cli/twice/catalyst/safetext"
	"github.com/twice-cli/twice/detect"
	"github.com/twice-cli/twice/detect/review"
	"github.com/twice-cli/twice/tui/internal/tuitest"
)

// TestCopyNeverHoldsAControlCharacter (issue 26, item 6): y on a Code row
// copied a folder's or file's name raw, newline and all (pasted into a
// shell with bracketed paste off, the next line ran). A copy of one value
// (a file:line, a name, an id) holds no control character whatever it
// is: it is refused, saying so, and what is copied is always safe.
func TestCopyNeverHoldsAControlCharacter(t *testing.T) {
	for _, bad := range []string{"\n", "\r", "\t", "\x1b[2J", "\u2028", "\u202e", "\x00"} {
		h := tuitest.Charge()
		x := analyzed(h)
		path := "svc/pay" + bad + "touch /tmp/pwned" + bad + "/charge.go"
		src := &CodeSource{Review: &review.Report{Activities: []review.Activity{
			{Name: "ChargeCard", Lang: review.LangGo, Location: review.Location{File: path, Line: 3, Col: 1}},
		}}}
		x.AddCode(src)
		m := newView(120, 40)
		m.SetCode(src)
		m.SetHistory(h, x, false)
		m.SetTab(TabCode)
		text, what := m.CopyTarget()
		if strings.Contains(text, "pwned") || !safetext.IsSafe(text) {
			t.Errorf("%q in a path: y copies %q (%s)", bad, text, what)
		}
		if text == "" && !strings.Contains(what, "not copied") {
			t.Errorf("%q in a path: nothing copied and the status says %q", bad, what)
		}

		// A name or an id from the history, alike.
		inv := detect.Invocation{Name: "Charge", Key: "id" + bad + "reboot", Attempts: []detect.Attempt{{Number: 1, ExecutionID: "x" + bad + "reboot"}}}
		for _, att := range []int{-1, 0} {
			if text, what := invocationCopy(&inv, att); !safetext.IsSafe(text) || text == "" && !strings.Contains(what, "not copied") {
				t.Errorf("%q in an id: y copies %q (%s)", bad, text, what)
			}
		}
	}
}
