package catalyst

import "testing"

// TestResolveDataSharing: the order README states. Where a filter applies
// (the history says so, or its source does), the level the history reports
// wins, then the level a recording names, then the configured level, then
// a level a recording inferred, then what the payloads show; where none
// applies, nothing is withheld and a recorded level is only kept to say.
func TestResolveDataSharing(t *testing.T) {
	const (
		meta = LevelMetadata
		full = LevelFull
	)
	filtered := DataSharing{Filtered: true}
	reported := func(l Level) DataSharing { return DataSharing{Filtered: true, Level: l} }
	tests := []struct {
		name     string
		reported DataSharing
		src      LevelSources
		inferred Level // what the payloads show
		want     DataSharing
		infers   bool // whether the payloads are looked at
	}{
		{name: "reported beats everything", reported: reported(full),
			src: LevelSources{Recorded: meta, Configured: meta}, inferred: meta, want: DataSharing{Filtered: true, Level: full}},
		{name: "recorded beats configured", reported: filtered,
			src: LevelSources{Recorded: full, Configured: meta}, inferred: meta, want: DataSharing{Filtered: true, Level: full}},
		{name: "configured beats a recorded inference", reported: filtered,
			src: LevelSources{Recorded: full, RecordedInferred: true, Configured: meta}, inferred: full, want: DataSharing{Filtered: true, Level: meta}},
		{name: "configured beats the payloads", reported: filtered,
			src: LevelSources{Configured: full}, inferred: meta, want: DataSharing{Filtered: true, Level: full}},
		{name: "a recorded inference beats a new one", reported: filtered,
			src: LevelSources{Recorded: full, RecordedInferred: true}, inferred: LevelUnknown, want: DataSharing{Filtered: true, Level: full, Inferred: true}},
		{name: "the payloads", reported: filtered, inferred: meta,
			want: DataSharing{Filtered: true, Level: meta, Inferred: true}, infers: true},
		{name: "nothing to go by", reported: filtered, inferred: LevelUnknown,
			want: DataSharing{Filtered: true}, infers: true},
		{name: "the source's filter", src: LevelSources{Filtered: true}, inferred: full,
			want: DataSharing{Filtered: true, Level: full, Inferred: true}, infers: true},
		{name: "no filter: a configured level changes nothing", src: LevelSources{Configured: meta}, inferred: meta,
			want: DataSharing{}},
		{name: "no filter: a recorded level is kept to say", src: LevelSources{Recorded: meta, RecordedInferred: true, Configured: full},
			want: DataSharing{Level: meta, Inferred: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			looked := false
			infer := func() Level { looked = true; return tt.inferred }
			if got := ResolveDataSharing(tt.reported, tt.src, infer); got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
			if looked != tt.infers {
				t.Errorf("payloads looked at: %v, want %v", looked, tt.infers)
			}
		})
	}
	if got := ResolveDataSharing(filtered, LevelSources{}, nil); got != filtered {
		t.Errorf("nothing to infer from: %+v", got)
	}
}

// TestSettleDataSharing: settling marks every absent payload an event can
// carry, and the run's, withheld where the level withholds; elsewhere it
// changes no payload.
func TestSettleDataSharing(t *testing.T) {
	history := func(ds DataSharing) *History {
		h := NewHistory(Run{DataSharing: ds, Output: PresentPayload(`1`)},
			Event{Type: EventTaskScheduled, Payload: AbsentPayload(PayloadNone)},
			Event{Type: EventTimerFired},
			Event{Type: EventTaskCompleted, Payload: PresentPayload(`2`)},
			Event{Type: EventTaskScheduled, Payload: AbsentPayload(PayloadRedacted)})
		return h
	}
	h := history(DataSharing{Filtered: true, Level: LevelMetadata})
	if d := h.SettleDataSharing(LevelSources{}); d != h.Run.DataSharing || d.Level != LevelMetadata {
		t.Fatalf("settled %+v, run %+v", d, h.Run.DataSharing)
	}
	want := []PayloadState{PayloadWithheld, PayloadNone, PayloadPresent, PayloadRedacted}
	for i, e := range h.All() {
		if e.Payload.State != want[i] {
			t.Errorf("metadata: event %d payload %v, want %v", i, e.Payload.State, want[i])
		}
	}
	if h.Run.Input.State != PayloadWithheld || h.Run.CustomStatus.State != PayloadWithheld || h.Run.Output.State != PayloadPresent {
		t.Errorf("metadata: run input %v, custom status %v, output %v", h.Run.Input.State, h.Run.CustomStatus.State, h.Run.Output.State)
	}
	for _, ds := range []DataSharing{{Filtered: true, Level: LevelFull}, {}} {
		h := history(ds)
		h.SettleDataSharing(LevelSources{})
		if n := len(h.Withheld()); n != 0 || h.Run.Input.State != PayloadNone || h.At(0).Payload.State != PayloadNone {
			t.Errorf("%+v: %d withheld, run input %v", ds, n, h.Run.Input.State)
		}
	}
}

func TestParseLevel(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Level
		ok   bool
	}{
		{"", LevelUnknown, true},
		{"  ", LevelUnknown, true},
		{"metadata", LevelMetadata, true},
		{" Full\t", LevelFull, true},
		{"METADATA", LevelMetadata, true},
		{"everything", LevelUnknown, false},
		{"full-ish", LevelUnknown, false},
	} {
		if got, ok := ParseLevel(tc.in); got != tc.want || ok != tc.ok {
			t.Errorf("ParseLevel(%q) = %q, %v; want %q, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}
