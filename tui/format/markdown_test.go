package format

import (
	"testing"

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
