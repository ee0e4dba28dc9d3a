package report

import (
	"testing"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/safetext"
	"github.com/twice-cli/twice/detect"
)

// TestOwnNamesNeedNoEscaping holds jsonEnc.name to its premise: every name
// twice writes with it (each value an enum can hold, known or not) is the
// same JSON string whether escaped or copied.
func TestOwnNamesNeedNoEscaping(t *testing.T) {
	var names []string
	for v := range 256 {
		names = append(names,
			catalyst.EventType(v).String(), catalyst.EventType(v).PayloadField(),
			catalyst.TimerOrigin(v).String(), catalyst.PayloadState(v).String(),
			detect.Kind(int8(v)).String(), detect.LinkRule(int8(v)).String(),
			detect.Outcome(int8(v)).String(), detect.Severity(v-128).String(),
			detect.FailureClass(int8(v)).String(), detect.ActivityClass(int8(v)).String())
	}
	for _, s := range names {
		var e jsonEnc
		e.name(s)
		if want := string(safetext.AppendJSON(nil, s)); string(e.buf) != want {
			t.Errorf("name(%q) wrote %s, escaping gives %s", s, e.buf, want)
		}
	}
}
