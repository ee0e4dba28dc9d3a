package catalyst

import (
	"errors"
	"strings"
	"testing"
)

// TestReadAs: a history is read as the run asked for unless it is clearly
// another run's. Only a start names the run in a Dapr 1.16 rerun (its
// executionStarted is the source's, nothing marks it: dapr/dapr v1.16.x
// pkg/actors/targets/workflow/orchestrator/fork/fork.go).
func TestReadAs(t *testing.T) {
	es := `{"eventId":-1,"timestamp":"2026-08-20T10:00:00Z","executionStarted":{"name":"W","orchestrationInstance":{"instanceId":"src"}}}`
	marked := `{"eventId":1,"timestamp":"2026-08-20T10:10:00Z","taskScheduled":{"name":"A","rerunParentInstanceInfo":{"instanceID":"src"}}}`
	tests := []struct {
		name, doc, as  string
		id, foreign    string
		other          string // the OtherRunError's id; "" for none
		otherIsRerunOf bool
	}{
		{name: "start only, same run", doc: `{"events":[` + es + `]}`, as: "src", id: "src"},
		{name: "start only, other run: read, start named", doc: `{"events":[` + es + `]}`, as: "r1", id: "r1", foreign: "src"},
		{name: "nothing asked", doc: `{"events":[` + es + `]}`, id: "src"},
		{name: "metadata names another run", doc: `{"instanceID":"src","history":[]}`, as: "r1", id: "src", other: "src"},
		{name: "marked rerun", doc: `{"events":[` + es + `,` + marked + `]}`, as: "r1", id: "r1"},
		{name: "marked rerun of the run asked for", doc: `{"events":[` + es + `,` + marked + `]}`, as: "src", other: "src", otherIsRerunOf: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, err := Decode(strings.NewReader(tt.doc), DecodeOptions{})
			if err != nil {
				t.Fatal(err)
			}
			err = h.Run.ReadAs(tt.as)
			var other *OtherRunError
			if errors.As(err, &other) != (tt.other != "") || other != nil && (other.ID != tt.other || other.RerunOf != tt.otherIsRerunOf) {
				t.Fatalf("ReadAs(%q) = %v", tt.as, err)
			}
			if err != nil {
				return
			}
			if h.Run.ID != tt.id || h.Run.ForeignStart() != tt.foreign || h.Run.RerunFrom != 0 && h.Run.RerunOf == "" {
				t.Errorf("id %q, foreign start %q; want %q, %q", h.Run.ID, h.Run.ForeignStart(), tt.id, tt.foreign)
			}
		})
	}
}

// TestARerunOfARerunNamesItsOwnSource: the rerun of a rerun copies its
// source's marked event before marking its own fork (dapr/dapr v1.17.0
// orchestrator/fork/fork.go: handleBefore keeps the earlier marked task,
// handleFound marks the target, which joins the inbox last). The run is a
// rerun of the newest source, from the newest fork.
func TestARerunOfARerunNamesItsOwnSource(t *testing.T) {
	doc := `{"events":[
{"eventId":-1,"timestamp":"2026-08-20T10:00:00Z","executionStarted":{"name":"W","orchestrationInstance":{"instanceId":"orig"}}},
{"eventId":0,"timestamp":"2026-08-20T10:05:00Z","taskScheduled":{"name":"A","rerunParentInstanceInfo":{"instanceID":"orig"}}},
{"eventId":-1,"timestamp":"2026-08-20T10:05:01Z","taskCompleted":{"taskScheduledId":0}},
{"eventId":1,"timestamp":"2026-08-20T10:09:00Z","taskScheduled":{"name":"B","rerunParentInstanceInfo":{"instanceID":"r1"}}}]}`
	h, err := Decode(strings.NewReader(doc), DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if r := h.Run; r.RerunOf != "r1" || r.RerunFrom != 1 || h.RerunFork() != 3 || r.ID != "" {
		t.Errorf("rerun of %q from %d (event %d), id %q; want r1 from 1 (event 3), no id", r.RerunOf, r.RerunFrom, h.RerunFork(), r.ID)
	}
}
