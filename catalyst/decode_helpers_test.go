package catalyst

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// summary renders every field of an event that is set, in a fixed order, so
// tests can state a whole decoded event in one line.
func summary(e *Event) string {
	var b strings.Builder
	b.WriteString(e.TypeName())
	add := func(format string, args ...any) { b.WriteString(" "); fmt.Fprintf(&b, format, args...) }
	add("id=%d", e.ID)
	if e.Timestamp != 0 {
		add("ts=%s", stampText(e.Timestamp))
	}
	if e.Name != "" {
		add("name=%s", e.Name)
	}
	switch {
	case !e.HasScheduledID():
		add("sched=none")
	case e.ScheduledID != 0:
		add("sched=%d", e.ScheduledID)
	}
	switch {
	case !e.HasTimerID():
		add("timer=none")
	case e.TimerID != 0:
		add("timer=%d", e.TimerID)
	}
	if e.ExecutionID != "" {
		add("exec=%s", e.ExecutionID)
	}
	if e.InstanceID != "" {
		add("inst=%s", e.InstanceID)
	}
	if e.FireAt != 0 {
		add("fire=%s", stampText(e.FireAt))
	}
	if e.Origin != OriginNone || e.OriginID != "" {
		add("origin=%s:%s", e.Origin, e.OriginID)
	}
	if e.Payload.State != PayloadNone {
		add("payload=%s:%s", e.Payload.State, e.Payload.Text())
	}
	for f, depth := e.Failure, 0; f != nil; f, depth = f.Inner, depth+1 {
		add("failure%d=%s|%s|%q|%v", depth, f.Type, f.Message, f.StackTrace, f.NonRetriable)
	}
	if e.Router != nil {
		add("router=%s->%s", e.Router.Source, e.Router.Target)
	}
	if d := e.Detail; d != nil {
		for _, kv := range [][2]string{
			{"status", string(d.WorkflowStatus)}, {"retryParent", d.RetryParentInstanceID},
			{"rerunParent", d.RerunParentInstanceID}, {"parent", d.ParentInstanceID}, {"parentName", d.ParentName},
			{"stall", d.StallReason}, {"stallText", d.StallDescription}, {"version", d.Version},
		} {
			if kv[1] != "" {
				add("%s=%s", kv[0], kv[1])
			}
		}
		if d.Raw != "" {
			add("raw=%s", d.Raw)
		}
	}
	return b.String()
}

func stampText(s Stamp) string {
	if s.IsNever() {
		return "never"
	}
	return s.Time().Format("2006-01-02T15:04:05.999999999Z07:00")
}

// summaries renders all events of h.
func summaries(h *History) []string {
	var out []string
	for i := range h.Len() {
		out = append(out, summaryAt(h, i))
	}
	return out
}

// summaryAt is summary of h's event i with its time as the source printed
// it: what the decoder rebuilt of the Dapr CLI's times is checked by its
// own tests (rebuild_test.go).
func summaryAt(h *History, i int) string {
	p := *h.At(i)
	p.Timestamp = h.Printed(p.Timestamp)
	return summary(&p)
}

// decodeFile decodes a file under testdata and settles its data-sharing
// level as the file source does with no level configured.
func decodeFile(t *testing.T, name string) (*History, error) {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	h, err := Decode(f, DecodeOptions{Provenance: Provenance{Surface: SurfaceFile, Location: name}})
	if err == nil {
		h.SettleDataSharing(LevelSources{})
	}
	return h, err
}

// decodeSettled decodes doc and settles its data-sharing level as the file
// source does with no level configured.
func decodeSettled(doc string) (*History, error) {
	h, err := Decode(strings.NewReader(doc), DecodeOptions{})
	if err == nil {
		h.SettleDataSharing(LevelSources{})
	}
	return h, err
}

// checkEvents compares h's events with want, line by line.
func checkEvents(t *testing.T, h *History, want []string) {
	t.Helper()
	got := summaries(h)
	for i := 0; i < max(len(got), len(want)); i++ {
		var g, w string
		if i < len(got) {
			g = got[i]
		}
		if i < len(want) {
			w = want[i]
		}
		if g != w {
			t.Errorf("event %d:\n got  %s\n want %s", i, g, w)
		}
	}
}
