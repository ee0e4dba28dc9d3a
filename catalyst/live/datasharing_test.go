package live

import (
	"context"
	"strings"
	"testing"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/catalysttest"
)

// TestDataSharing (A22): at metadata the payloads are absent and marked
// withheld, naming the level (configured, or inferred and said so); at full
// they are present; a configured level is used as given.
func TestDataSharing(t *testing.T) {
	tests := []struct {
		name         string
		serverLevel  catalyst.Level
		configured   catalyst.Level
		want         catalyst.DataSharing
		wantWithheld bool
		wantText     string
	}{
		{name: "metadata, not configured: inferred",
			serverLevel:  catalyst.LevelMetadata,
			want:         catalyst.DataSharing{Filtered: true, Level: catalyst.LevelMetadata, Inferred: true},
			wantWithheld: true, wantText: "(metadata, inferred)"},
		{name: "metadata, configured",
			serverLevel: catalyst.LevelMetadata, configured: catalyst.LevelMetadata,
			want:         catalyst.DataSharing{Filtered: true, Level: catalyst.LevelMetadata},
			wantWithheld: true, wantText: "level (metadata)"},
		{name: "full, not configured: payloads present, full inferred",
			serverLevel: catalyst.LevelFull,
			want:        catalyst.DataSharing{Filtered: true, Level: catalyst.LevelFull, Inferred: true}},
		{name: "full, configured",
			serverLevel: catalyst.LevelFull, configured: catalyst.LevelFull,
			want: catalyst.DataSharing{Filtered: true, Level: catalyst.LevelFull}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, catalysttest.Options{Level: tc.serverLevel}, func(c *Config) { c.Level = tc.configured })
			f, err := h.client.Fetch(context.Background(), chargeRef)
			if err != nil {
				t.Fatal(err)
			}
			hist := f.History
			if f.DataSharing != tc.want || hist.Run.DataSharing != tc.want {
				t.Errorf("data sharing = %+v (run %+v), want %+v", f.DataSharing, hist.Run.DataSharing, tc.want)
			}
			scheduled := hist.At(2) // the first ChargeCard TaskScheduled
			if scheduled.Type != catalyst.EventTaskScheduled {
				t.Fatalf("event 2 is %v", scheduled.Type)
			}
			if tc.wantWithheld {
				if got := len(hist.Withheld()); got != 7 {
					t.Errorf("%d payloads withheld, want 7", got)
				}
				if scheduled.Payload.State != catalyst.PayloadWithheld {
					t.Errorf("scheduled payload state = %v", scheduled.Payload.State)
				}
				if text := hist.Run.DataSharing.PayloadText(scheduled.Payload); !strings.Contains(text, tc.wantText) {
					t.Errorf("payload text = %q, want it to contain %q", text, tc.wantText)
				}
				if strings.Contains(string(f.Raw), `"input"`) || strings.Contains(string(f.Raw), `"result"`) {
					t.Errorf("raw history still carries payloads")
				}
				return
			}
			if len(hist.Withheld()) != 0 {
				t.Errorf("%d payloads withheld at full", len(hist.Withheld()))
			}
			// The run carries input and output but no customStatus: at full
			// an absent one is absent, not withheld.
			if r := hist.Run; r.CustomStatus.State != catalyst.PayloadNone || !r.Input.Has() {
				t.Errorf("run at full: custom status %v, input %v; want none and present", r.CustomStatus.State, r.Input.State)
			}
			if !scheduled.Payload.Has() || !strings.Contains(scheduled.Payload.Text(), "A-7731") {
				t.Errorf("scheduled payload = %v %q", scheduled.Payload.State, scheduled.Payload.Text())
			}
		})
	}
}

func TestRunIdentity(t *testing.T) {
	h := newHarness(t, catalysttest.Options{}, nil)
	f, err := h.client.Fetch(context.Background(), chargeRef)
	if err != nil {
		t.Fatal(err)
	}
	r := f.History.Run
	if r.ID != "charge-7731" || r.AppID != "payments" || r.Project.Name != "default" ||
		r.Provenance.Surface != catalyst.SurfaceCatalystMCP || r.Provenance.Endpoint != h.srv.Host() || f.Endpoint != h.srv.Host() {
		t.Errorf("run = %+v, endpoint %q", r, f.Endpoint)
	}
	if _, err := h.client.Fetch(context.Background(), catalyst.RunRef{AppID: "payments"}); err == nil || !strings.Contains(err.Error(), "no run id") {
		t.Errorf("Fetch without an id: %v", err)
	}
	// The server answering with another run's history is an error, not that history.
	doc, _ := catalysttest.BundledDoc("clean-run.json")
	h.srv.Inject(catalysttest.Fault{On: catalysttest.ToolGetRun, Kind: catalysttest.FaultToolText, Body: string(doc)})
	if _, err := h.client.Fetch(context.Background(), chargeRef); err == nil || !strings.Contains(err.Error(), "another run (order-1001)") {
		t.Errorf("Fetch of a mismatched history: %v", err)
	}
}

// TestDataSharingUnknownWithoutPayloadCarriers: a history with no event
// that carries a payload, and no run payload, gives no ground to infer a
// level from: it stays unknown, not inferred.
func TestDataSharingUnknownWithoutPayloadCarriers(t *testing.T) {
	doc := []byte(`{"instanceID":"timers-1","appId":"clock","projectId":"default","workflowName":"Wait","runtimeStatus":"RUNNING",
"createdAt":"2026-11-30T08:00:00Z","history":[
{"event_id":-1,"event_type":"WorkflowStarted","timestamp":"2026-11-30T08:00:00Z"},
{"event_id":0,"event_type":"TimerCreated","timestamp":"2026-11-30T08:00:00.100Z","fire_at":"2026-11-30T09:00:00Z"}]}`)
	run, err := catalysttest.RunFromDoc(doc)
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, catalysttest.Options{Level: catalyst.LevelFull, Runs: []catalysttest.Run{run}}, nil)
	f, err := h.client.Fetch(context.Background(), catalyst.RunRef{ID: "timers-1", AppID: "clock", Project: "default"})
	if err != nil {
		t.Fatal(err)
	}
	if want := (catalyst.DataSharing{Filtered: true}); f.DataSharing != want || f.History.Run.DataSharing != want {
		t.Errorf("data sharing = %+v, want %+v (unknown, not inferred)", f.DataSharing, want)
	}
}

// TestReportedLevelWins: a history that names its level is read at that
// level, over a configured one and over what its payloads suggest, as a
// file is (catalyst.ResolveDataSharing). Before, a live read took the
// configured level (or inferred one) and ignored the history's.
func TestReportedLevelWins(t *testing.T) {
	doc := `{"instanceID":"charge-7731","appId":"payments","projectId":"default","workflowName":"Charge",` +
		`"runtimeStatus":"COMPLETED","dataSharingLevel":"full","history":[` +
		`{"event_id":-1,"event_type":"ExecutionStarted","timestamp":"2026-11-30T08:00:00Z","name":"Charge"},` +
		`{"event_id":0,"event_type":"TaskScheduled","timestamp":"2026-11-30T08:00:01Z","name":"ChargeCard"}]}`
	h := newHarness(t, catalysttest.Options{}, func(c *Config) { c.Level = catalyst.LevelMetadata })
	h.srv.Inject(catalysttest.Fault{On: catalysttest.ToolGetRun, Kind: catalysttest.FaultToolText, Body: doc})
	f, err := h.client.Fetch(context.Background(), chargeRef)
	if err != nil {
		t.Fatal(err)
	}
	if want := (catalyst.DataSharing{Filtered: true, Level: catalyst.LevelFull}); f.DataSharing != want || f.History.Run.DataSharing != want {
		t.Errorf("data sharing = %+v, want %+v", f.DataSharing, want)
	}
	if n := len(f.History.Withheld()); n != 0 {
		t.Errorf("%d payloads withheld at the reported level full", n)
	}
}
