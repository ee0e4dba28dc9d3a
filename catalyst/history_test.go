package catalyst

import "testing"

func TestInferLevel(t *testing.T) {
	sched := func(p Payload) Event { return Event{Type: EventTaskScheduled, Name: "a", Payload: p} }
	tests := []struct {
		name   string
		run    Run
		events []Event
		want   Level
	}{
		{"no payload-carrying event", Run{}, []Event{{Type: EventTimerFired}}, LevelUnknown},
		{"every payload absent", Run{}, []Event{sched(AbsentPayload(PayloadNone)), sched(AbsentPayload(PayloadWithheld))}, LevelMetadata},
		{"one event payload present", Run{}, []Event{sched(AbsentPayload(PayloadNone)), sched(PresentPayload(`{"a":1}`))}, LevelFull},
		{"an empty payload is shared too", Run{}, []Event{sched(PresentPayload(""))}, LevelFull},
		{"the run's input present", Run{Input: PresentPayload(`1`)}, []Event{sched(AbsentPayload(PayloadNone))}, LevelFull},
		{"redacted is no evidence", Run{}, []Event{sched(AbsentPayload(PayloadRedacted))}, LevelUnknown},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := NewHistory(tt.run)
			for _, e := range tt.events {
				h.Append(e)
			}
			if got := h.InferLevel(); got != tt.want {
				t.Errorf("InferLevel = %q, want %q", got, tt.want)
			}
			h.SettleDataSharing(LevelSources{Filtered: true})
			ds := h.Run.DataSharing
			if !ds.Filtered || ds.Level != tt.want || ds.Inferred != (tt.want != LevelUnknown) {
				t.Errorf("applied %+v", ds)
			}
			if tt.want == LevelFull && len(h.Withheld()) != 0 {
				t.Errorf("withheld payloads at full: %d", len(h.Withheld()))
			}
		})
	}
}
