package catalyst

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/twice-cli/twice/catalyst/safetext/hostiletest"
)

// FuzzCatalystFlat builds a Catalyst flattened history — an envelope with
// run metadata, a scheduled task and its failure, with an unknown field —
// from fuzzed strings and numbers, and decodes it: every value comes back
// exactly (strings byte for byte, invalid UTF-8 included), the unknown
// field is counted, and nothing else is invented. Then the same document
// with the fuzzed bytes spliced in as raw JSON (a value of the unknown
// field) decodes, or fails with a DecodeError or FormatError, never
// another error, and never to a different number of events.
func FuzzCatalystFlat(f *testing.F) {
	f.Add("ChargeCard", "8a4f2c71-3b9e-4d05-a6c2-91e07f5d3b18", `{"order":1}`, "timeout", "at x\n\tat y", "run-1", int32(0), true, `{"a":[1,2]}`)
	f.Add("", "", "", "", "", "", int32(-1), false, `null`)
	f.Add("\x1b]0;pwned\x07", "\u202e", "\xff\xfe", "a\x00b", "\r\n", "[red]", int32(2147483647), false, `"x`)
	f.Add(strings.Repeat("n", 70<<10), "x", "y", "z", "w", "r", int32(5), true, `[`)
	f.Fuzz(func(t *testing.T, name, exec, input, msg, stack, run string, id int32, nonRetriable bool, raw string) {
		q := hostiletest.Quote
		doc := func(unknown string) string {
			return `{"instanceID":` + q(run) + `,"appId":"payments","x_unknown":` + unknown + `,"history":[` +
				`{"event_id":` + strconv.Itoa(int(id)) + `,"event_type":"TaskScheduled","timestamp":"2026-08-20T09:14:03.240Z","name":` + q(name) +
				`,"task_execution_id":` + q(exec) + `,"input":` + q(input) + `},` +
				`{"event_id":-1,"event_type":"TaskFailed","timestamp":"2026-08-20T09:14:04Z","task_scheduled_id":` + strconv.Itoa(int(id)) +
				`,"task_execution_id":` + q(exec) + `,"failure_details_error_message":` + q(msg) + `,"failure_details_stack_trace":` + q(stack) +
				`,"failure_details_is_non_retriable":` + strconv.FormatBool(nonRetriable) + `}]}`
		}
		h, err := Decode(strings.NewReader(doc(`"u"`)), DecodeOptions{})
		if err != nil {
			t.Fatalf("a well-formed document failed: %v", err)
		}
		if h.Format != FormatCatalyst || h.Len() != 2 || h.UnknownFields != 1 {
			t.Fatalf("format %s, %d events, %d unknown fields", h.Format, h.Len(), h.UnknownFields)
		}
		s, fl := h.At(0), h.At(1)
		got := []string{h.Run.ID, s.Name, s.ExecutionID, s.Payload.Text(), strconv.Itoa(int(s.ID)),
			fl.ExecutionID, strconv.Itoa(int(fl.ScheduledID))}
		want := []string{run, name, exec, input, strconv.Itoa(int(id)), exec, strconv.Itoa(int(id))}
		if fl.Failure == nil {
			if msg != "" || stack != "" || nonRetriable {
				t.Fatalf("the failure was lost")
			}
		} else {
			got = append(got, fl.Failure.Message, fl.Failure.StackTrace, strconv.FormatBool(fl.Failure.NonRetriable))
			want = append(want, msg, stack, strconv.FormatBool(nonRetriable))
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("value %d came back as %.80q, want %.80q", i, got[i], want[i])
			}
		}
		if s.Payload.State != PayloadPresent && input != "" || input == "" && s.Payload.State != PayloadEmpty {
			t.Fatalf("input %.40q decoded as %s", input, s.Payload.State)
		}

		h, err = Decode(strings.NewReader(doc(raw)), DecodeOptions{})
		var de *DecodeError
		var fe *FormatError
		switch {
		case err != nil && (h != nil || !errors.As(err, &de) && !errors.As(err, &fe)):
			t.Fatalf("raw %q: %T %v", raw, err, err)
		case err == nil && h.Len() != 2:
			t.Fatalf("raw %q: %d events", raw, h.Len())
		}
	})
}
