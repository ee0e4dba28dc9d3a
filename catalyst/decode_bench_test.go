package catalyst

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"
)

// genProtoJSON writes a protojson history of n events shaped like a long
// run of one activity: each call is workflowStarted, taskScheduled (with an
// input and a fresh task execution id), workflowStarted, taskCompleted.
func genProtoJSON(n int) []byte {
	var b bytes.Buffer
	b.Grow(n * 130)
	ts := time.Date(2025, 8, 20, 8, 53, 20, 13e6, time.UTC)
	stamp := func() string {
		ts = ts.Add(13 * time.Millisecond)
		return ts.Format("2006-01-02T15:04:05.000Z07:00")
	}
	b.WriteString(`{"events":[`)
	fmt.Fprintf(&b, `{"eventId":-1,"timestamp":%q,"workflowStarted":{}}`, stamp())
	fmt.Fprintf(&b, `,{"eventId":-1,"timestamp":%q,"executionStarted":{"name":"Big","input":"{\"x\":1}","workflowInstance":{"instanceId":"big-1","executionId":"f7e4d1c6-c9d5-4250-bf05-f83da6104a2b"}}}`, stamp())
	for i := 2; i < n; i++ {
		k := (i - 2) / 4
		id := fmt.Sprintf("%08x-0f12-4004-be8d-%012x", uint32(k)*2654435761, k)
		switch (i - 2) % 4 {
		case 0, 2:
			fmt.Fprintf(&b, `,{"eventId":-1,"timestamp":%q,"workflowStarted":{}}`, stamp())
		case 1:
			fmt.Fprintf(&b, `,{"eventId":%d,"timestamp":%q,"taskScheduled":{"name":"ChargeCard","input":"{\"orderId\":\"A-%d\"}","taskExecutionId":%q}}`, k, stamp(), k, id)
		case 3:
			fmt.Fprintf(&b, `,{"eventId":-1,"timestamp":%q,"taskCompleted":{"taskScheduledId":%d,"result":"{\"ok\":true}","taskExecutionId":%q}}`, stamp(), k, id)
		}
	}
	b.WriteString(`]}`)
	return b.Bytes()
}

// genFlat writes the same run in Catalyst's flattened form, at the metadata
// level (no payloads).
func genFlat(n int) []byte {
	var b bytes.Buffer
	b.Grow(n * 150)
	ts := time.Date(2025, 8, 20, 8, 53, 20, 13e6, time.UTC)
	b.WriteString(`{"instance_id":"big-1","data_sharing_level":"metadata","history":[`)
	for i := 0; i < n; i++ {
		ts = ts.Add(13 * time.Millisecond)
		if i > 0 {
			b.WriteByte(',')
		}
		k := i / 4
		id := fmt.Sprintf("%08x-0f12-4004-be8d-%012x", uint32(k)*2654435761, k)
		switch i % 4 {
		case 0, 2:
			fmt.Fprintf(&b, `{"event_id":-1,"event_type":"WorkflowStarted","timestamp":%q}`, ts.Format(time.RFC3339Nano))
		case 1:
			fmt.Fprintf(&b, `{"event_id":%d,"event_type":"TaskScheduled","timestamp":%q,"name":"ChargeCard","task_execution_id":%q}`, k, ts.Format(time.RFC3339Nano), id)
		case 3:
			fmt.Fprintf(&b, `{"event_id":-1,"event_type":"TaskCompleted","timestamp":%q,"task_scheduled_id":%d,"task_execution_id":%q}`, ts.Format(time.RFC3339Nano), k, id)
		}
	}
	b.WriteString(`]}`)
	return b.Bytes()
}

// BenchmarkDecode decodes one activity's long run (see genProtoJSON) at
// 10k, 100k and 1M events; BenchmarkDecodeGenerated decodes the realistic
// mix in every format. Each input is built only when its benchmark runs.
// TWICE_BENCH_FILE names a history file to decode as well.
func BenchmarkDecode(b *testing.B) {
	for _, n := range []int{10_000, 100_000, 1_000_000} {
		b.Run("protojson/"+benchSize(n), func(b *testing.B) { benchDecode(b, genProtoJSON(n), n) })
	}
	b.Run("catalyst/"+benchSize(100_000), func(b *testing.B) { benchDecode(b, genFlat(100_000), 100_000) })
	if path := os.Getenv("TWICE_BENCH_FILE"); path != "" {
		b.Run("file", func(b *testing.B) {
			doc, err := os.ReadFile(path)
			if err != nil {
				b.Fatal(err)
			}
			h, err := Decode(bytes.NewReader(doc), DecodeOptions{})
			if err != nil {
				b.Fatal(err)
			}
			benchDecode(b, doc, h.Len())
		})
	}
}

// benchSize names an event count as the benchmarks do: 10k, 100k, 1M.
func benchSize(n int) string {
	if n >= 1_000_000 && n%1_000_000 == 0 {
		return strconv.Itoa(n/1_000_000) + "M"
	}
	if n >= 1000 && n%1000 == 0 {
		return strconv.Itoa(n/1000) + "k"
	}
	return strconv.Itoa(n)
}

func benchDecode(b *testing.B, doc []byte, events int) {
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	for b.Loop() {
		h, err := Decode(bytes.NewReader(doc), DecodeOptions{})
		if err != nil {
			b.Fatal(err)
		}
		if h.Len() != events {
			b.Fatalf("%d events, want %d", h.Len(), events)
		}
	}
	b.ReportMetric(float64(events)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
}
