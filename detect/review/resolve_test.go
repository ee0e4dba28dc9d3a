package review_test

import (
	"strings"
	"testing"

	"github.com/twice-cli/twice/detect/review"
	"github.com/twice-cli/twice/detect/review/python"
)

// TestNamesResolveThroughImports: an alias of uuid is still uuid, in Go
// and in Python, and a deterministic uuid (uuid5) is not a generated key.
func TestNamesResolveThroughImports(t *testing.T) {
	pyOK, _ := python.Available()
	for _, tc := range []struct {
		name, file, src string
		want            bool
	}{
		{"go alias", "a.go", goActivity(`id "github.com/google/uuid"`, `id.NewString()`), true},
		{"go dot-free alias of gofrs", "a.go", goActivity(`gid "github.com/gofrs/uuid/v5"`, `gid.Must(gid.NewV4()).String()`), true},
		{"go time", "a.go", goActivity(`clock "time"`, `clock.Now().Format("150405")`), true},
		{"go sha1 uuid is stable", "a.go", goActivity(`"github.com/google/uuid"`, `uuid.NewSHA1(uuid.NameSpaceURL, []byte(orderID)).String()`), false},
		{"python module alias", "a.py", pyActivity("import uuid as u", "str(u.uuid4())"), true},
		{"python from-import alias", "a.py", pyActivity("from uuid import uuid4 as make_id", "make_id().hex"), true},
		{"python datetime class", "a.py", pyActivity("from datetime import datetime", "datetime.now().isoformat()"), true},
		{"python uuid5 is stable", "a.py", pyActivity("import uuid", "str(uuid.uuid5(uuid.NAMESPACE_URL, order['id']))"), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if strings.HasSuffix(tc.file, ".py") && !pyOK {
				t.Skip("no Python parser in this build")
			}
			rep := reviewDir(t, map[string]string{tc.file: tc.src})
			got := false
			for _, h := range rep.Hazards {
				if h.Rule == review.RuleKeyGeneratedInBody {
					got = true
				}
			}
			if got != tc.want {
				t.Fatalf("key-generated-in-body: %v, want %v (hazards %v)", got, tc.want, rep.Hazards)
			}
		})
	}
}

func goActivity(imp, key string) string {
	return `package main

import (
	"net/http"

	` + imp + `
	"github.com/dapr/durabletask-go/workflow"
)

func Pay(ctx workflow.ActivityContext) (any, error) {
	var orderID string
	_ = ctx.GetInput(&orderID)
	req, _ := http.NewRequest(http.MethodPost, "https://pay.example.com", nil)
	req.Header.Set("Idempotency-Key", ` + key + `)
	_, err := http.DefaultClient.Do(req)
	return nil, err
}

func main() { _ = workflow.NewRegistry().AddActivity(Pay) }
`
}

func pyActivity(imp, key string) string {
	return imp + `
import requests
import dapr.ext.workflow as wf

wfr = wf.WorkflowRuntime()


@wfr.activity(name="pay")
def pay(ctx, order):
    requests.post("https://pay.example.com", headers={"Idempotency-Key": ` + key + `})
`
}

// TestHelpersAndOpaqueCalls: helpers are followed two levels deep; a
// third level, and a call into a package outside the tree, are listed as
// code twice cannot see.
func TestHelpersAndOpaqueCalls(t *testing.T) {
	src := `package main

import (
	"database/sql"

	"example.com/shop/billing"
	"github.com/dapr/durabletask-go/workflow"
)

var db *sql.DB

func one(id string) error   { return two(id) }
func two(id string) error   { return three(id) }
func three(id string) error { _, err := db.Exec("INSERT INTO t (x) VALUES ($1)", id); return err }

func direct(id string) error { _, err := db.Exec("INSERT INTO u (x) VALUES ($1)", id); return err }

func Work(ctx workflow.ActivityContext) (any, error) {
	var id string
	_ = ctx.GetInput(&id)
	_ = direct(id)
	_ = one(id)
	return nil, billing.Charge(id)
}

func main() { _ = workflow.NewRegistry().AddActivity(Work) }
`
	rep := reviewDir(t, map[string]string{"w.go": src})
	a := rep.Activity("Work")
	if a == nil {
		t.Fatal("Work not found")
	}
	var lines []int
	for _, h := range a.Hazards {
		lines = append(lines, h.Line)
		if h.Line == 16 && (len(h.Via) != 1 || !strings.HasPrefix(h.Via[0], "direct (called at")) {
			t.Errorf("the hazard in direct has via %v", h.Via)
		}
	}
	if len(lines) != 1 || lines[0] != 16 {
		t.Errorf("hazards at lines %v, want only 16 (three is three levels down)", lines)
	}
	var opaque []string
	for _, o := range a.Opaque {
		opaque = append(opaque, o.Target)
	}
	got := strings.Join(opaque, " | ")
	if !strings.Contains(got, "example.com/shop/billing.Charge") || !strings.Contains(got, "three (deeper than 2 helper levels)") {
		t.Errorf("calls twice cannot see: %s", got)
	}
}
