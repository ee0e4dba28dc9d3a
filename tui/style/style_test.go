package style

import (
	"strings"
	"testing"

	"github.com/charmbracelet/colorprofile"

	"github.com/twice-cli/twice/tui/format"
)

func all(s *Styles) []Style {
	out := []Style{s.Banner, s.Title, s.Label, s.Faint, s.Heading, s.Selected, s.TabOn, s.TabOff, s.Info, s.Error, s.KeyBar, s.New, s.Link}
	for a := format.AlertNone; a <= format.AlertHigh; a++ {
		out = append(out, s.Alert(a))
	}
	for _, t := range []format.Tone{format.ToneNeutral, format.ToneGood, format.ToneBad, format.TonePending} {
		out = append(out, s.Tone(t))
	}
	return out
}

func TestProfiles(t *testing.T) {
	for _, st := range all(New(colorprofile.NoTTY)) {
		if got := st.Render("x"); got != "x" {
			t.Errorf("NoTTY style renders %q", got)
		}
	}
	ascii := New(colorprofile.ASCII)
	for _, st := range all(ascii) {
		if got := st.Render("x"); strings.Contains(got, "[3") || strings.Contains(got, "[9") {
			t.Errorf("Ascii style sets a colour: %q", got)
		}
	}
	if got := ascii.Selected.Render("x"); !strings.Contains(got, "\x1b[7m") {
		t.Errorf("Ascii selection is not reverse video: %q", got)
	}
	ansi := New(colorprofile.ANSI)
	if got := ansi.Alert(format.AlertHigh).Render("x"); !strings.Contains(got, "31") {
		t.Errorf("ANSI high alert is not red: %q", got)
	}
	if New(colorprofile.ANSI).Alert(format.Alert(9)).Render("x") != "x" {
		t.Error("an unknown alert level is styled")
	}
	if (Style{}).Render("") != "" {
		t.Error("the zero style changed empty text")
	}
}
