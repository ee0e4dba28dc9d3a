package catalyst

import (
	"strings"
	"testing"
	"time"
)

func TestLookupEventTypeAcceptsEverySpelling(t *testing.T) {
	tests := []struct {
		in   string
		want EventType
	}{
		{"taskScheduled", EventTaskScheduled},
		{"TaskScheduled", EventTaskScheduled},
		{"task_scheduled", EventTaskScheduled},
		{"TASK_SCHEDULED", EventTaskScheduled},
		{"orchestratorStarted", EventWorkflowStarted},
		{"WorkflowStarted", EventWorkflowStarted},
		{"subOrchestrationInstanceCreated", EventChildWorkflowCreated},
		{"SubOrchCreated", EventChildWorkflowCreated},
		{"childWorkflowInstanceFailed", EventChildWorkflowFailed},
		{"ChildWorkflowCompleted", EventChildWorkflowCompleted},
		{"executionStalled", EventExecutionStalled},
		{"detachedWorkflowInstanceCreated", EventDetachedWorkflowCreated},
	}
	for _, tt := range tests {
		got, ok := LookupEventType(tt.in)
		if !ok || got != tt.want {
			t.Errorf("LookupEventType(%q) = %v, %v; want %v", tt.in, got, ok, tt.want)
		}
	}
	if got, ok := LookupEventType("entityOperationCalled"); ok || got != EventUnknown {
		t.Errorf("unknown type = %v, %v; want Unknown, false", got, ok)
	}
}

func TestEventTypeStringRoundTrips(t *testing.T) {
	for ty := EventExecutionStarted; ty < eventTypeCount; ty++ {
		back, ok := LookupEventType(ty.String())
		if !ok || back != ty {
			t.Errorf("%v: String %q looks up as %v", int(ty), ty.String(), back)
		}
	}
}

func TestPayloadFieldAndNumbering(t *testing.T) {
	if EventTaskScheduled.PayloadField() != "input" || EventTaskCompleted.PayloadField() != "output" ||
		EventTimerCreated.PayloadField() != "" {
		t.Error("PayloadField mismatch")
	}
	if !EventTimerCreated.IsNumbered() || EventTaskCompleted.IsNumbered() {
		t.Error("IsNumbered mismatch")
	}
}

func TestPayloadStatesAndText(t *testing.T) {
	tests := []struct {
		name  string
		p     Payload
		state PayloadState
		text  string
		size  int
	}{
		{"quoted without escapes", QuotedPayload(`"ch_1"`), PayloadPresent, "ch_1", 4},
		{"quoted with escapes", QuotedPayload(`"{\"a\":1,\"b\":\"x\\ny\"}"`), PayloadPresent, "{\"a\":1,\"b\":\"x\\ny\"}", 18},
		{"unicode escape and surrogate pair", QuotedPayload(`"\u00e9\ud83d\ude00\/"`), PayloadPresent, "é😀/", 7},
		{"lone surrogate", QuotedPayload(`"\ud800x"`), PayloadPresent, "\uFFFDx", 4},
		{"empty literal", QuotedPayload(`""`), PayloadEmpty, "", 0},
		{"plain text", PresentPayload("msg_01"), PayloadPresent, "msg_01", 6},
		{"plain empty", PresentPayload(""), PayloadEmpty, "", 0},
		{"withheld", AbsentPayload(PayloadWithheld), PayloadWithheld, "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.p.State != tt.state || tt.p.Text() != tt.text || tt.p.Size() != tt.size {
				t.Errorf("got state %v text %q size %d; want %v %q %d", tt.p.State, tt.p.Text(), tt.p.Size(), tt.state, tt.text, tt.size)
			}
		})
	}
	if lit, ok := QuotedPayload(`"x"`).WireLiteral(); !ok || lit != `"x"` {
		t.Errorf("WireLiteral = %q, %v", lit, ok)
	}
	if _, ok := PresentPayload("x").WireLiteral(); ok {
		t.Error("plain payload reported a wire literal")
	}
}

func TestStatusNormalisation(t *testing.T) {
	tests := []struct {
		in    Status
		want  Status
		known bool
		ended bool
	}{
		{"ORCHESTRATION_STATUS_COMPLETED", StatusCompleted, true, true},
		{"COMPLETED", StatusCompleted, true, true},
		{"Failed", StatusFailed, true, true},
		{"running", StatusRunning, true, false},
		{"cancelled", StatusCanceled, true, true},
		{"ORCHESTRATION_STATUS_CONTINUED_AS_NEW", StatusContinuedAsNew, true, true},
		{"STALLED", StatusStalled, true, false},
		{"Hibernating", "hibernating", false, false},
	}
	for _, tt := range tests {
		if got := tt.in.Normalized(); got != tt.want || tt.in.IsKnown() != tt.known || tt.in.IsEnded() != tt.ended {
			t.Errorf("%q: normalized %q known %v ended %v", tt.in, got, tt.in.IsKnown(), tt.in.IsEnded())
		}
	}
	if !Status("ORCHESTRATION_STATUS_FAILED").Is("failed") {
		t.Error("Is should compare across spellings")
	}
}

func TestStamp(t *testing.T) {
	at := time.Date(2026, 8, 20, 9, 14, 3, 201e6, time.UTC)
	s := StampOf(at)
	if !s.Time().Equal(at) || s.IsZero() {
		t.Errorf("round trip: %v", s.Time())
	}
	never := StampOf(time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC))
	if !never.IsNever() || never.Time().Year() != 9999 {
		t.Errorf("never = %v", never.Time())
	}
	if StampOf(time.Time{}) != 0 || !Stamp(0).Time().IsZero() {
		t.Error("zero stamp")
	}
	if d := StampOf(at.Add(30 * time.Second)).Sub(s); d != 30*time.Second {
		t.Errorf("Sub = %v", d)
	}
	if d := never.Sub(s); d != 0 {
		t.Errorf("Sub with never = %v", d)
	}
}

func TestHistoryStoresEventsAcrossChunks(t *testing.T) {
	h := NewHistory(Run{ID: "r"})
	n := 3*(1<<chunkBits) + 7
	for i := 0; i < n; i++ {
		h.Append(Event{ID: int32(i)})
	}
	if h.Len() != n {
		t.Fatalf("Len = %d", h.Len())
	}
	first := h.At(0)
	h.Append(Event{ID: -5})
	if h.At(0) != first {
		t.Error("appending moved an earlier event")
	}
	count := 0
	for i, e := range h.All() {
		if int(e.Index) != i || (i < n && e.ID != int32(i)) {
			t.Fatalf("event %d has index %d id %d", i, e.Index, e.ID)
		}
		count++
	}
	if count != n+1 {
		t.Errorf("All yielded %d", count)
	}
}

func TestApplyDataSharing(t *testing.T) {
	build := func() *History {
		return NewHistory(Run{ID: "r"},
			Event{Type: EventTaskScheduled},                                 // absent input
			Event{Type: EventTaskCompleted, Payload: QuotedPayload(`"ok"`)}, // present
			Event{Type: EventTaskCompleted, Payload: QuotedPayload(`""`)},   // empty
			Event{Type: EventTimerCreated},                                  // no payload field
			Event{Type: EventTaskScheduled, Payload: AbsentPayload(PayloadRedacted)},
		)
	}
	tests := []struct {
		name string
		d    DataSharing
		want []PayloadState
	}{
		{"dapr protojson: absent is none", DataSharing{}, []PayloadState{PayloadNone, PayloadPresent, PayloadEmpty, PayloadNone, PayloadRedacted}},
		{"catalyst metadata: absent is withheld", DataSharing{Filtered: true, Level: LevelMetadata}, []PayloadState{PayloadWithheld, PayloadPresent, PayloadEmpty, PayloadNone, PayloadRedacted}},
		{"catalyst unknown level: withheld", DataSharing{Filtered: true}, []PayloadState{PayloadWithheld, PayloadPresent, PayloadEmpty, PayloadNone, PayloadRedacted}},
		{"catalyst full: absent is none", DataSharing{Filtered: true, Level: "FULL"}, []PayloadState{PayloadNone, PayloadPresent, PayloadEmpty, PayloadNone, PayloadRedacted}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := build()
			h.ApplyDataSharing(tt.d)
			for i, want := range tt.want {
				if got := h.At(i).Payload.State; got != want {
					t.Errorf("event %d: %v, want %v", i, got, want)
				}
			}
			h.ApplyDataSharing(tt.d) // applying twice changes nothing
			for i, want := range tt.want {
				if got := h.At(i).Payload.State; got != want {
					t.Errorf("second apply: event %d: %v, want %v", i, got, want)
				}
			}
			if h.Run.DataSharing != tt.d {
				t.Errorf("run data sharing = %+v", h.Run.DataSharing)
			}
			wantRun := PayloadNone
			if tt.d.Withholds() {
				wantRun = PayloadWithheld
			}
			if h.Run.Input.State != wantRun || h.Run.CustomStatus.State != wantRun {
				t.Errorf("run payloads = %v %v, want %v", h.Run.Input.State, h.Run.CustomStatus.State, wantRun)
			}
		})
	}
}

func TestApplyDataSharingCanBeCorrected(t *testing.T) {
	h := NewHistory(Run{}, Event{Type: EventTaskScheduled})
	h.ApplyDataSharing(DataSharing{Filtered: true}) // decoder: level unknown
	if h.At(0).Payload.State != PayloadWithheld {
		t.Fatal("unknown level should withhold")
	}
	h.ApplyDataSharing(DataSharing{Filtered: true, Level: LevelFull}) // caller knows better
	if h.At(0).Payload.State != PayloadNone || h.Run.Input.State != PayloadNone {
		t.Errorf("full level left %v / %v", h.At(0).Payload.State, h.Run.Input.State)
	}
}

func TestPayloadTextNamesTheLevel(t *testing.T) {
	tests := []struct {
		d    DataSharing
		p    Payload
		want string
	}{
		{DataSharing{Filtered: true, Level: LevelMetadata}, AbsentPayload(PayloadWithheld), "withheld: not shared at this organization's data-sharing level (metadata)"},
		{DataSharing{Filtered: true}, AbsentPayload(PayloadWithheld), "withheld: not shared at this organization's data-sharing level (level not reported; Catalyst's default is metadata)"},
		{DataSharing{Filtered: true, Level: LevelMetadata, Inferred: true}, AbsentPayload(PayloadWithheld), "withheld: not shared at this organization's data-sharing level (metadata, inferred)"},
		{DataSharing{}, AbsentPayload(PayloadNone), "none"},
		{DataSharing{}, QuotedPayload(`""`), "empty"},
		{DataSharing{}, AbsentPayload(PayloadRedacted), "redacted when saved"},
		{DataSharing{}, AbsentPayload(PayloadNotRequested), "not requested"},
		{DataSharing{}, PresentPayload("x"), ""},
	}
	for _, tt := range tests {
		if got := tt.d.PayloadText(tt.p); got != tt.want {
			t.Errorf("PayloadText(%v, %v) = %q, want %q", tt.d, tt.p.State, got, tt.want)
		}
	}
}

func TestLevelTextIsSafeToPrint(t *testing.T) {
	d := DataSharing{Filtered: true, Level: "meta\x1b]0;pwned\x07data"}
	for _, s := range []string{d.LevelText(), d.WithheldText(), d.PayloadText(AbsentPayload(PayloadWithheld))} {
		if strings.ContainsAny(s, "\x1b\x07") {
			t.Errorf("raw control characters in %q", s)
		}
	}
}

func TestLevelTextSaysWhyALevelWasInferred(t *testing.T) {
	tests := []struct {
		ds   DataSharing
		want string
	}{
		{DataSharing{}, "none (no data-sharing filter on this source)"},
		{DataSharing{Filtered: true}, "not reported (Catalyst's default is metadata)"},
		{DataSharing{Filtered: true, Level: LevelMetadata}, "metadata"},
		{DataSharing{Filtered: true, Level: LevelMetadata, Inferred: true}, "metadata (inferred: payloads are missing)"},
		{DataSharing{Filtered: true, Level: LevelFull, Inferred: true}, "full (inferred: payloads are present)"},
	}
	for _, tt := range tests {
		if got := tt.ds.LevelText(); got != tt.want {
			t.Errorf("%+v: %q, want %q", tt.ds, got, tt.want)
		}
	}
}

func TestTypeLabelNeverWearsAKnownName(t *testing.T) {
	unknown := Event{Type: EventUnknown, Detail: &EventDetail{TypeName: "TaskScheduled"}}
	if got := unknown.TypeLabel(); got != "Unknown(TaskScheduled)" {
		t.Errorf("unknown label %q", got)
	}
	if got := unknown.TypeName(); got != "TaskScheduled" {
		t.Errorf("unknown wire name %q", got)
	}
	known := Event{Type: EventTaskScheduled}
	if got := known.TypeLabel(); got != "TaskScheduled" {
		t.Errorf("known label %q", got)
	}
	if got := (&Event{Type: EventUnknown}).TypeLabel(); got != "Unknown" {
		t.Errorf("bare unknown label %q", got)
	}
}

// TestTypeOfDisplayNameAgreesWithLookup: the shortcut for the usual
// spelling of a type gives what LookupEventType gives, for every type's
// String, and nothing for any other spelling of it.
func TestTypeOfDisplayNameAgreesWithLookup(t *testing.T) {
	known := 0
	for typ := EventUnknown; typ < eventTypeCount; typ++ {
		name := typ.String()
		for _, spelling := range []string{name, strings.ToLower(name), strings.ToUpper(name), name + " ", "x" + name} {
			got := typeOfDisplayName([]byte(spelling))
			if got == EventUnknown {
				continue
			}
			known++
			if want, _ := LookupEventType(spelling); got != want || spelling != name {
				t.Errorf("typeOfDisplayName(%q) = %v; LookupEventType gives %v", spelling, got, want)
			}
		}
	}
	if known < 10 {
		t.Errorf("only %d spellings known: the shortcut covers too little to matter", known)
	}
}
