package cli

import (
	"os"
	"strings"
	"testing"
)

// cliRows reads a history the Dapr CLI v1.17.0's row code printed (detect's
// real-source suite, detect/testdata/realsource): its rows name the app
// (the -a given to the CLI) but no run id.
func cliRows(t *testing.T, scenario string) string {
	t.Helper()
	b, err := os.ReadFile(rsFile("dapr-cli-v1.17.0", scenario))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestIdentityFlagsFillWhatAHistoryDoesNotName: `dapr workflow history X
// -a app -o json | twice show -` keeps the run's identity when the user
// gives it, for standard input and files alike, in show and scan; a flag
// that contradicts the history is an error naming both; an ignored flag is
// said to be.
func TestIdentityFlagsFillWhatAHistoryDoesNotName(t *testing.T) {
	rows := cliRows(t, "activity-retry")
	link := "https://catalyst.diagrid.io/workflows/orders/order-1001?project=default"

	doc := rsShow(t, rows, "-", "--run", "order-1001", "--project", "default")
	if got := doc.Runs[0]; got.Run.ID != "order-1001" || got.Run.AppID != "orders" || got.Run.Project.Name != "default" || got.Link != link {
		t.Errorf("run %+v, link %q; want order-1001 of orders in default, linked", got.Run, got.Link)
	}

	// The same from a file, through scan, as text.
	path := writeFile(t, "history.json", rows)
	h := newHarness(t)
	r := h.run("scan", path, "--run", "order-1001", "--project", "default")
	if r.code != ExitOK || !strings.Contains(r.out, link) {
		t.Errorf("scan FILE --run: exit %d, no link %s:\n%s\n%s", r.code, link, r.errOut, r.out)
	}

	// Without the flags there is no link, and the output says why.
	h = newHarness(t)
	h.in = rows
	r = h.run("show", "-", "-o", "text")
	if r.code != ExitOK || strings.Contains(r.out, "/workflows/") || !strings.Contains(r.out, "does not name its run id") {
		t.Errorf("show - without --run: exit %d\n%s", r.code, r.out)
	}

	// --app that contradicts the rows' appID is an error naming both.
	h = newHarness(t)
	h.in = rows
	r = h.run("show", "-", "-o", "text", "--app", "payments")
	if r.code != ExitUsage || !strings.Contains(r.errOut, `"orders"`) || !strings.Contains(r.errOut, `"payments"`) {
		t.Errorf("conflicting --app: exit %d, stderr %q", r.code, r.errOut)
	}

	// --run names one run: two files cannot share it.
	h = newHarness(t)
	r = h.run("scan", path, writeFile(t, "other.json", rows), "--run", "order-1001")
	if r.code != ExitUsage || !strings.Contains(r.errOut, "--run names one run") {
		t.Errorf("--run with two files: exit %d, stderr %q", r.code, r.errOut)
	}

	// A live run's id is its argument: --run is ignored, and said to be.
	h = newHarness(t)
	r = h.run("scan", "order-1001", "--app", "orders", "--run", "other")
	if !strings.Contains(r.errOut, "--run \"other\" is ignored") {
		t.Errorf("--run with a live run: stderr %q", r.errOut)
	}
}
