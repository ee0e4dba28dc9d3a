package jsonscan

import (
	"bytes"
	"strconv"
	"strings"
	"testing"
)

// benchDoc is a protojson-like history of n events.
func benchDoc(n int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"events":[`)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		switch i % 2 {
		case 0:
			b.WriteString(`{"eventId":-1,"timestamp":"2025-08-20T08:53:20.013Z","workflowStarted":{}}`)
		case 1:
			b.WriteString(`{"eventId":` + strconv.Itoa(i) + `,"timestamp":"2025-08-20T08:53:20.039Z","taskScheduled":{"name":"ChargeCard","input":"{\"orderId\":\"A-` +
				strconv.Itoa(i) + `\"}","taskExecutionId":"b8640d82-0f12-4004-be8d-5313f4fc2fd2"}}`)
		}
	}
	b.WriteString(`]}`)
	return b.Bytes()
}

// BenchmarkSkipValue validates a whole document through the window, the
// scanner's floor.
func BenchmarkSkipValue(b *testing.B) {
	doc := benchDoc(100_000)
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	for b.Loop() {
		s := New(bytes.NewReader(doc))
		if err := s.SkipValue(); err != nil {
			b.Fatal(err)
		}
		if err := s.End(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLongString scans a 5 MiB string literal.
func BenchmarkLongString(b *testing.B) {
	doc := []byte(`"` + strings.Repeat("abcdefghij", 512<<10) + `"`)
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := NewBytes(doc).String(); err != nil {
			b.Fatal(err)
		}
	}
}
