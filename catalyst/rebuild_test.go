package catalyst

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestParseElapsed reads what the Dapr CLI's HumanizeDuration prints
// (dapr/cli v1.18.0 utils/utils.go), and its error: half the last digit
// printed (plus a nanosecond for the float formatting); minutes, hours,
// the first row's "Age:" and anything else say nothing usable.
func TestParseElapsed(t *testing.T) {
	for _, tc := range []struct {
		in       string
		d, err   time.Duration
		unusable bool
	}{
		{in: "", d: 0, err: 0},
		{in: "873ns", d: 873, err: 0},
		{in: "12.5µs", d: 12500, err: 51},
		{in: "12.5us", d: 12500, err: 51},
		{in: "748.0ms", d: 748 * time.Millisecond, err: 50*time.Microsecond + 1},
		{in: "1000.0ms", d: time.Second, err: 50*time.Microsecond + 1},
		{in: "48.58s", d: 48580 * time.Millisecond, err: 5*time.Millisecond + 1},
		{in: "14ms", d: 14 * time.Millisecond, err: 500*time.Microsecond + 1},
		{in: "2s", d: 2 * time.Second, err: 500*time.Millisecond + 1},
		// Every quantum from 10 ns to 1 s.
		{in: "7.25µs", d: 7250, err: 6},
		{in: "3µs", d: 3000, err: 501},
		{in: "3.25ms", d: 3250 * time.Microsecond, err: 5001},
		{in: "3.1s", d: 3100 * time.Millisecond, err: 50*time.Millisecond + 1},
		{in: "2.5m", unusable: true},
		{in: "1.2h", unusable: true},
		{in: "Age:2.1h", unusable: true},
		{in: "Age:14.0ms", unusable: true},
		{in: "-3.00s", unusable: true},
		{in: "3.s", unusable: true},
		{in: ".5s", unusable: true},
		{in: "5", unusable: true},
		{in: "99999999999999s", unusable: true},
		{in: "99999999ns", d: 99999999, err: 0},
		{in: "999999999ns", unusable: true}, // more digits than any the CLI prints
	} {
		d, err, ok := parseElapsed([]byte(tc.in)).value()
		if ok == tc.unusable || ok && (d != tc.d || err != tc.err) {
			t.Errorf("parseElapsed(%q) = %v ±%v (ok %v), want %v ±%v (usable %v)", tc.in, d, err, ok, tc.d, tc.err, !tc.unusable)
		}
	}
}

// cliRows builds a CLI history from compact rows: "second elapsed type
// [eventId]", the second counted from 09:14:00 (an elapsed of "-" leaves
// the key out).
func cliRows(t *testing.T, rows ...string) *History {
	t.Helper()
	var b strings.Builder
	b.WriteString("[")
	for i, r := range rows {
		f := strings.Fields(r)
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"namespace":"default","appID":"a","play":0,"type":%q,"name":null`, f[2])
		if len(f) > 3 {
			fmt.Fprintf(&b, `,"eventId":%s`, f[3])
		}
		fmt.Fprintf(&b, `,"timestamp":"2026-08-20T09:14:%02sZ"`, f[0])
		switch f[1] {
		case "-":
		case "5", "{}":
			fmt.Fprintf(&b, `,"elapsed":%s`, f[1])
		case `""`:
			b.WriteString(`,"elapsed":""`)
		default:
			fmt.Fprintf(&b, `,"elapsed":%q`, f[1])
		}
		b.WriteString(`,"status":"RUNNING"`)
		if f[2] == "ExecutionCompleted" && len(f) > 4 {
			fmt.Fprintf(&b, `,"details":"execDuration=%s"`, f[4])
		} else {
			b.WriteString(`,"details":null`)
		}
		b.WriteString("}")
	}
	b.WriteString("]")
	h, err := Decode(strings.NewReader(b.String()), DecodeOptions{})
	if err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	return h
}

// TestRebuildFromElapsed: the rows' times are rebuilt from their elapsed
// values where the values and the printed seconds agree, every rebuilt
// time keeps its printed second, and a span is rebuilt only between rows
// of one unbroken chain; elsewhere it is measured between printed seconds,
// ±1 s.
func TestRebuildFromElapsed(t *testing.T) {
	type span struct {
		from, to int
		// d is the span shown; rebuilt, whether it was rebuilt; err, the
		// most error it may state (rebuilt ones).
		d       time.Duration
		rebuilt bool
		err     time.Duration
	}
	const ms = time.Millisecond
	for _, tc := range []struct {
		name  string
		rows  []string
		spans []span
	}{{
		name: "one chain",
		rows: []string{"03 Age:2.1h ExecutionStarted", "03 14.4ms WorkflowStarted", "03 38.3ms TaskScheduled 0",
			"04 758.6ms TaskFailed", "04 11.8ms WorkflowStarted", "04 20.5ms TimerCreated 1", "06 2.01s TimerFired"},
		spans: []span{{2, 3, 758600 * ms / 1000, true, 51 * time.Microsecond},
			{3, 6, 2042300 * ms / 1000, true, 5200 * time.Microsecond}, {0, 6, 2853600 * ms / 1000, true, 6 * ms}},
	}, {
		// A row with no elapsed (hand-edited, or another tool's) breaks
		// the chain: spans across it are ±1 s.
		name: "missing elapsed",
		rows: []string{"03 Age:1h ExecutionStarted", "03 14.4ms WorkflowStarted", "03 38.3ms TaskScheduled 0",
			"04 - TaskFailed", "04 11.8ms WorkflowStarted", "04 20.5ms TimerCreated 1"},
		spans: []span{{1, 2, 38300 * time.Microsecond, true, 51 * time.Microsecond},
			{2, 3, time.Second, false, 0}, {0, 5, time.Second, false, 0},
			{3, 5, 32300 * time.Microsecond, true, 102 * time.Microsecond}},
	}, {
		// Row 2 crossing into second 04 after 960 ms puts the first row
		// after 03.0256; row 3's "2.50s" then puts it in second 06 or
		// later, not 04: an elapsed value after row 2 (the row that bounds
		// the window) is wrong. Rows 0–2 stay one chain, row 3 starts
		// another, and nothing ties them.
		name: "inconsistent elapsed",
		rows: []string{"03 Age:1h ExecutionStarted", "03 14.4ms WorkflowStarted", "04 960.0ms TaskScheduled 0",
			"04 2.50s TaskFailed", "04 11.8ms WorkflowStarted", "05 990.5ms TimerCreated 1"},
		spans: []span{{1, 2, 960 * ms, true, 51 * time.Microsecond},
			{2, 3, 0, false, 0}, {0, 5, 2 * time.Second, false, 0},
			{4, 5, 990500 * time.Microsecond, true, 51 * time.Microsecond}},
	}, {
		// The same contradiction bounded by the first row: every value
		// after it is suspect, and only row 3 on is rebuilt.
		name: "inconsistent from the start",
		rows: []string{"03 Age:1h ExecutionStarted", "03 14.4ms WorkflowStarted", "03 938.3ms TaskScheduled 0",
			"04 2.50s TaskFailed", "04 11.8ms WorkflowStarted", "05 990.5ms TimerCreated 1"},
		spans: []span{{1, 2, 0, false, 0}, {3, 4, 11800 * time.Microsecond, true, 51 * time.Microsecond}},
	}, {
		// Minutes print to a tenth (±3 s): no better than the printed
		// seconds, so the chain breaks there and the wait is ±1 s.
		name: "across minutes",
		rows: []string{"03 Age:1h ExecutionStarted", "03 14.4ms WorkflowStarted", "03 20.5ms TimerCreated 1",
			"33 2.5m TimerFired", "33 11.0ms WorkflowStarted", "34 998.0ms TaskScheduled 2"},
		spans: []span{{2, 3, 30 * time.Second, false, 0}, {1, 2, 20500 * time.Microsecond, true, 51 * time.Microsecond},
			{3, 5, 1009 * ms, true, 102 * time.Microsecond}},
	}, {
		// Two of a turn's actions are sorted by eventId, not time: the
		// elapsed between them may be a negative difference's size.
		name: "sorted by eventId",
		rows: []string{"03 Age:1h ExecutionStarted", "03 14.4ms WorkflowStarted", "03 2.0ms TaskScheduled 1",
			"03 4.0µs TaskScheduled 2", "03 3.1µs TaskScheduled 3"},
		spans: []span{{2, 3, 4 * time.Microsecond, true, 9 * time.Microsecond},
			{1, 4, 2007100, true, 65 * time.Microsecond}},
	}, {
		// execDuration checks the chain from the first row: here the
		// rows' elapsed values say 1.04 s, execDuration 9.04 s.
		name: "execDuration contradicts",
		rows: []string{"03 Age:1h ExecutionStarted", "03 14.0ms WorkflowStarted", "04 1.00s TaskScheduled 0",
			"04 13.0ms WorkflowStarted", "04 13.0ms ExecutionCompleted 1 9.04s"},
		spans: []span{{0, 4, time.Second, false, 0}, {1, 2, time.Second, false, 0}},
	}, {
		name: "execDuration agrees",
		rows: []string{"03 Age:1h ExecutionStarted", "03 14.0ms WorkflowStarted", "04 1.00s TaskScheduled 0",
			"04 13.0ms WorkflowStarted", "04 13.0ms ExecutionCompleted 1 1.04s"},
		spans: []span{{0, 4, 1040 * ms, true, 6 * ms}},
	}, {
		// An elapsed that is no string (a hand-edited row) is skipped as
		// before twice read it: it breaks the chain, and the rows decode.
		name: "elapsed not a string",
		rows: []string{"03 Age:1h ExecutionStarted", "03 14.0ms WorkflowStarted", "03 5 TaskScheduled 0",
			"03 {} WorkflowStarted", "04 990.0ms TaskScheduled 1"},
		spans: []span{{0, 1, 14 * ms, true, 51 * time.Microsecond}, {1, 2, 0, false, 0}, {3, 4, 990 * ms, true, 51 * time.Microsecond}},
	}, {
		// Row 2 has no elapsed: it starts a chain of its own, placed in
		// the middle of its second, before row 1's rebuilt time. The
		// rebuilt times go down in row order; each is still found.
		name: "chains out of order",
		rows: []string{"03 Age:1h ExecutionStarted", "03 900.0ms WorkflowStarted", "03 - TaskScheduled 0",
			"03 1.0ms TaskFailed"},
		spans: []span{{0, 1, 900 * ms, true, 51 * time.Microsecond}, {2, 3, ms, true, 51 * time.Microsecond},
			{1, 2, 0, false, 0}, {0, 3, 0, false, 0}},
	}, {
		name:  "equal times",
		rows:  []string{"03 Age:1h ExecutionStarted", `03 "" WorkflowStarted`, "03 1.0ms TaskScheduled 0"},
		spans: []span{{0, 1, 0, true, time.Nanosecond}, {0, 2, ms, true, 51 * time.Microsecond}},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			h := cliRows(t, tc.rows...)
			if tc.name == "chains out of order" && (h.clock == nil || h.clock.order == nil) {
				t.Fatal("the rebuilt times do not go down: the test proves nothing")
			}
			for i, r := range tc.rows {
				want := time.Date(2026, 8, 20, 9, 14, 0, 0, time.UTC).Add(time.Duration(atoi(strings.Fields(r)[0])) * time.Second)
				if got := h.Printed(h.At(i).Timestamp).Time(); !got.Equal(want) {
					t.Errorf("row %d is printed at %v, want %v", i, got, want)
				}
				if ts := h.At(i).Timestamp; ts%Stamp(time.Second) == 0 && h.clock != nil && h.clock.segOf(i) >= 0 {
					t.Errorf("row %d was rebuilt to a whole second", i)
				}
			}
			for _, s := range tc.spans {
				sp := h.Span(h.At(s.from).Timestamp, h.At(s.to).Timestamp)
				switch {
				case sp.Rebuilt() != s.rebuilt:
					t.Errorf("rows %d→%d: %+v, want rebuilt %v", s.from, s.to, sp, s.rebuilt)
				case sp.D != s.d:
					t.Errorf("rows %d→%d: %v, want %v", s.from, s.to, sp.D, s.d)
				case s.rebuilt && sp.Err > s.err:
					t.Errorf("rows %d→%d: ±%v, want at most ±%v", s.from, s.to, sp.Err, s.err)
				case !s.rebuilt && (sp.Step != time.Second || sp.Err != time.Second):
					t.Errorf("rows %d→%d: %+v, want ±1s", s.from, s.to, sp)
				}
			}
		})
	}
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return n
}

// TestRebuiltRunTimes: the run's times are its rows' rebuilt times, so a
// run's duration is rebuilt too, and printed as the CLI printed them.
func TestRebuiltRunTimes(t *testing.T) {
	h := cliRows(t, "03 Age:1h ExecutionStarted", "03 14.0ms WorkflowStarted", "04 1.00s TaskScheduled 0",
		"04 13.0ms WorkflowStarted", "04 13.0ms ExecutionCompleted 1 1.04s")
	sp := h.SpanTimes(h.Run.CreatedAt, h.Run.UpdatedAt)
	if !sp.Rebuilt() || sp.D != 1040*time.Millisecond {
		t.Errorf("the run took %+v, want a rebuilt 1.04s", sp)
	}
	// The run carries it where no history is at hand (a run list).
	if got := h.Run.Span(h.Run.UpdatedAt); got != sp {
		t.Errorf("the run's own span is %+v, want %+v", got, sp)
	}
	later := h.Run.UpdatedAt.Add(90 * time.Second)
	start := time.Date(2026, 8, 20, 9, 14, 3, 0, time.UTC)
	if got := h.Run.Span(later); !got.Coarse() || got.D != later.Sub(start) {
		t.Errorf("to a clock reading: %+v, want %v from the printed start to the clock, ±1s", got, later.Sub(start))
	}
	plain := cliRows(t, "03 - ExecutionStarted", "04 - WorkflowStarted")
	if got := plain.Run.Span(plain.Run.UpdatedAt); !got.Coarse() || got.D != time.Second {
		t.Errorf("rows with no elapsed: the run took %+v, want ~1s", got)
	}
	if got := h.PrintedTime(h.Run.CreatedAt); got.Second() != 3 || got.Nanosecond() != 0 {
		t.Errorf("the run started at %v as printed, want 09:14:03", got)
	}
	// A fireAt, a whole second, is never taken for a rebuilt time.
	fire := Stamp(time.Date(2026, 8, 20, 9, 14, 5, 0, time.UTC).UnixNano())
	if sp := h.Span(h.At(3).Timestamp, fire); !sp.Coarse() || sp.D != time.Second {
		t.Errorf("a row to a fireAt: %+v, want ~1s between printed times", sp)
	}
}

// TestRebuildLeavesOtherFormats: protojson's times are the engine's own,
// exact; nothing is rebuilt.
func TestRebuildLeavesOtherFormats(t *testing.T) {
	h, err := decodeFile(t, "protojson-b-retries.json")
	if err != nil {
		t.Fatal(err)
	}
	if h.RebuiltSpans() {
		t.Error("protojson's spans were rebuilt")
	}
	if sp := h.Span(h.At(0).Timestamp, h.At(h.Len()-1).Timestamp); !sp.Exact() {
		t.Errorf("a protojson span is %+v, want exact", sp)
	}
}
