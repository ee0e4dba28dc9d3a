package review_test

import (
	"sort"
	"strings"
	"testing"

	"github.com/twice-cli/twice/detect/review/python"
)

// TestRegistrationInALoop: activities registered in a loop over a list
// (in place or in a variable) or over a map or dict of names are each
// found under their registered name, never listed as one unresolved
// registration of the loop variable.
func TestRegistrationInALoop(t *testing.T) {
	pyOK, _ := python.Available()
	goActs := `
func ChargeCard(ctx workflow.ActivityContext) (any, error) { return nil, nil }
func SendEmail(ctx workflow.ActivityContext) (any, error)  { return nil, nil }
func ShipOrder(ctx workflow.ActivityContext) (any, error)  { return nil, nil }
`
	pyActs := `
import dapr.ext.workflow as wf

wfr = wf.WorkflowRuntime()

def charge_card(ctx, order): return None
def send_email(ctx, order): return None
def ship_order(ctx, order): return None
`
	for _, tc := range []struct {
		name, file, src, want string
	}{
		{"go slice literal", "main.go", `package main

import "github.com/dapr/go-sdk/workflow"
` + goActs + `
func main() {
	w, _ := workflow.NewWorker()
	for _, a := range []any{ChargeCard, SendEmail, ShipOrder} {
		if err := w.RegisterActivity(a); err != nil {
			panic(err)
		}
	}
}
`, "ChargeCard,SendEmail,ShipOrder"},
		{"go package-level slice", "main.go", `package main

import "github.com/dapr/durabletask-go/workflow"
` + goActs + `
var activities = []any{ChargeCard, SendEmail}

func main() {
	r := workflow.NewRegistry()
	for i := range activities {
		_ = i
	}
	for _, act := range activities {
		_ = r.AddActivity(act)
	}
}
`, "ChargeCard,SendEmail"},
		{"go map of names", "main.go", `package main

import "github.com/dapr/durabletask-go/workflow"
` + goActs + `
func main() {
	r := workflow.NewRegistry()
	named := map[string]workflow.Activity{"charge-card": ChargeCard, "ship-order": ShipOrder}
	for name, fn := range named {
		_ = r.AddActivityN(name, fn)
	}
}
`, "charge-card,ship-order"},
		{"python list", "app.py", pyActs + `
for fn in [charge_card, send_email]:
    wfr.register_activity(fn)
`, "charge_card,send_email"},
		{"python tuple variable in a function", "app.py", pyActs + `
ACTIVITIES = (charge_card, ship_order)

def main():
    for act in ACTIVITIES:
        wfr.register_activity(act)
`, "charge_card,ship_order"},
		{"python dict items", "app.py", pyActs + `
def main():
    named = {"ChargeCard": charge_card, "SendEmail": send_email}
    for name, fn in named.items():
        wfr.register_activity(fn, name=name)
`, "ChargeCard,SendEmail"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if strings.HasSuffix(tc.file, ".py") && !pyOK {
				t.Skip("no Python parser in this build")
			}
			rep := reviewDir(t, map[string]string{tc.file: tc.src})
			var names []string
			for _, a := range rep.Activities {
				if a.Unresolved {
					t.Errorf("%s is listed as registered but not found (%s)", a.Name, a.Func)
				}
				names = append(names, a.Name)
			}
			sort.Strings(names)
			if got := strings.Join(names, ","); got != tc.want {
				t.Fatalf("activities %s, want %s", got, tc.want)
			}
		})
	}
}
