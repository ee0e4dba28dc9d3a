package live

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/catalysttest"
)

// realRerun reads one rerun history of detect's real-source suite: the
// same rerun (order-5005 rerun from its ChargeCard, eventId 1, as
// order-5005-r1; dapr/dapr pkg/actors/targets/workflow/orchestrator/fork/fork.go)
// written as protojson by durabletask-go v0.10.1 (Dapr v1.16.1–v1.16.3;
// v1.16.4+ use v0.10.2, the same protos) or v0.12.1.
//
// What a Dapr 1.16 rerun holds, read at the tags: dapr/dapr v1.16.0 to
// v1.16.19 pin dapr/durabletask-go v0.9.0–v0.10.2 (go.mod), whose
// protos (submodules/durabletask-protobuf at 39d5b4f,
// protos/orchestrator_service.proto) have no RerunParentInstanceInfo;
// dapr/dapr v1.16.x fork.go copies every event before the target as it is
// (handleBefore's default, the executionStarted naming the source run
// included) and re-adds the target unchanged (handleFound), so nothing in
// the history marks it a rerun. v1.17.0 (durabletask-go v0.11.0,
// durabletask-protobuf 164ee3a) sets rerunParentInstanceInfo on the
// target in handleFound.
func realRerun(t *testing.T, dtgo string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "detect", "testdata", "realsource", "protojson-durabletask-go-"+dtgo, "rerun.json"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestAnUnmarkedRerunIsReadAsTheRunAskedFor: a Dapr 1.16 rerun's history
// names its source run and carries no marker. Read live, it is the run
// asked for, its start shown as naming the source, no fork invented; a
// marked rerun of the very run asked for is that run's rerun, refused.
func TestAnUnmarkedRerunIsReadAsTheRunAskedFor(t *testing.T) {
	h := newHarness(t, catalysttest.Options{}, nil)
	ref := catalyst.RunRef{ID: "order-5005-r1", AppID: "orders", Project: "default"}

	h.srv.Inject(catalysttest.Fault{On: catalysttest.ToolGetRun, Times: 1, Kind: catalysttest.FaultToolText, Body: realRerun(t, "v0.10.1")})
	f, err := h.client.Fetch(context.Background(), ref)
	if err != nil {
		t.Fatalf("a Dapr 1.16 rerun is refused: %v", err)
	}
	r := f.History.Run
	if r.ID != "order-5005-r1" || r.ForeignStart() != "order-5005" || r.RerunOf != "" || r.RerunFrom != 0 || f.History.RerunFork() != -1 {
		t.Errorf("run %q, foreign start %q, rerun of %q from %d, fork %d; want the run asked for, its start naming order-5005, no fork",
			r.ID, r.ForeignStart(), r.RerunOf, r.RerunFrom, f.History.RerunFork())
	}
	if link, ok := catalyst.ConsoleLink("", r); !ok || !strings.Contains(link, "/workflows/orders/order-5005-r1?") {
		t.Errorf("link %q, %v; want the run asked for", link, ok)
	}

	// Marked (Dapr 1.17+): the same, with the fork known and no foreign start.
	h.srv.Inject(catalysttest.Fault{On: catalysttest.ToolGetRun, Times: 1, Kind: catalysttest.FaultToolText, Body: realRerun(t, "v0.12.1")})
	f, err = h.client.Fetch(context.Background(), ref)
	if err != nil {
		t.Fatal(err)
	}
	if r := f.History.Run; r.ID != "order-5005-r1" || r.RerunOf != "order-5005" || r.RerunFrom != 1 || r.ForeignStart() != "" {
		t.Errorf("marked rerun: %+v", r)
	}

	// Asked for the source run, the server answered with its rerun.
	h.srv.Inject(catalysttest.Fault{On: catalysttest.ToolGetRun, Times: 1, Kind: catalysttest.FaultToolText, Body: realRerun(t, "v0.12.1")})
	_, err = h.client.Fetch(context.Background(), catalyst.RunRef{ID: "order-5005", AppID: "orders", Project: "default"})
	if !errors.Is(err, ErrBadResponse) || !strings.Contains(err.Error(), "the history of a rerun of order-5005, not of order-5005 itself") {
		t.Errorf("the source run read as its rerun's history: %v", err)
	}
}
