package format

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/twice-cli/twice/catalyst"
)

// TestTicketRunLine: a copied finding names its run, and says what the
// history does not name rather than leaving it out.
func TestTicketRunLine(t *testing.T) {
	run := catalyst.Run{ID: "order-7731", Workflow: "Checkout_Workflow", AppID: "payments", Project: catalyst.Project{Name: "default"}}
	if got, want := TicketRunLine(&run, "https://c.example/workflows/payments/order-7731"),
		`Run order-7731 (Checkout\_Workflow), app payments, project default: <https://c.example/workflows/payments/order-7731>`; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	if got, want := TicketRunLine(&catalyst.Run{ID: "r1", Project: catalyst.Project{UID: "165"}}, ""),
		"Run r1, app not named in this history, project 165; no console link (it needs the app id and the run id as plain ids)."; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

// TestWrapKeepsFileLineWhole: a path wider than a line breaks after a
// slash, so its file:line:col is never broken across lines (issue 23,
// item 8); in styled prose too.
func TestWrapKeepsFileLineWhole(t *testing.T) {
	const loc = "demo/services/dotnet-retry/Activities/ReserveHotelActivity.cs:19:9"
	for _, s := range []string{
		"at: " + loc + " then more words",
		"\x1b[1mat:\x1b[0m " + loc + " then more words",
	} {
		lines := Wrap(s, 44)
		found := false
		for _, l := range lines {
			if Width(l) > 44 {
				t.Errorf("%q: line %q is wider than 44", s, l)
			}
			found = found || strings.Contains(ansi.Strip(l), "ReserveHotelActivity.cs:19:9")
		}
		if !found {
			t.Errorf("%q: the file:line:col is broken:\n%s", s, strings.Join(lines, "\n"))
		}
		if got := strings.ReplaceAll(ansi.Strip(strings.Join(lines, "")), " ", ""); !strings.Contains(got, strings.ReplaceAll(loc, " ", "")) {
			t.Errorf("%q: text lost: %q", s, got)
		}
	}
	// A file name wider than a line alone is still broken at the width,
	// and nothing is lost.
	long := "a/" + strings.Repeat("x", 60) + ".go:1:2"
	if got := strings.Join(Wrap(long, 20), ""); got != long {
		t.Errorf("a long file name: %q", got)
	}
}
