package catalyst

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/twice-cli/twice/catalyst/safetext/hostiletest"
)

// cliRowDoc is a one-row `dapr workflow history -o json` document of type
// typ with the given attrs.
func cliRowDoc(typ, name, attrs string) string {
	return `[{"namespace":"default","appID":"payments","play":1,"type":"` + typ + `","name":` + hostiletest.Quote(name) +
		`,"eventId":0,"timestamp":"2026-08-20T09:14:03Z","elapsed":"1ms","status":"RUNNING","details":null,"attrs":` +
		hostiletest.Quote(attrs) + `}]`
}

// pairs joins attrs pairs as the CLI does, leaving out empty values.
func pairs(kv ...string) string {
	var out []string
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] != "" {
			out = append(out, kv[i]+"="+kv[i+1])
		}
	}
	return strings.Join(out, ";")
}

// FuzzDaprCLIAttrs fuzzes the Dapr CLI attrs parser two ways.
//
// Any attrs text on any row type decodes without a panic to one event, or
// fails with a DecodeError (an event id or time that is not one), never
// another error. And values the CLI wrote unescaped come back exactly,
// wherever the format can tell where a value ends: a failure's type (up to
// ";errorMsg="), its free-text message (which may hold ';' and '='), a
// completion's output (up to ";result="), and a timer's name and origin id.
func FuzzDaprCLIAttrs(f *testing.F) {
	for _, seed := range []struct {
		kind uint8
		a, b string
		n    int32
	}{
		{0, "scheduledId=0;errorType=*errors.errorString;errorMsg=payment gateway returned 503", "", 0},
		{1, "*url.Error", `Post "https://x": a=b; c=d;errorType=x`, 7},
		{2, `{"chargeId":"ch_1;a=b"}`, "", 4},
		{3, "ChargeCard-retry", "8a4f2c71-3b9e-4d05-a6c2-91e07f5d3b18", 1},
		{4, "timerId=1;fireAt=2026-08-20T09:14:06Z", "", 0},
		{0, "scheduledId=99999999999;errorMsg=x", "", 0},
		{0, "fireAt=yesterday", "", 0},
		{1, "Err\x1b[2J", "msg\u202e;nonRetriable", -1},
		{0, "input=" + strings.Repeat("x", 200) + "…", "", 0},
		{1, "", "", 0},
	} {
		f.Add(seed.kind, seed.a, seed.b, seed.n)
	}
	types := []string{"TaskScheduled", "TaskCompleted", "TaskFailed", "TimerCreated", "TimerFired", "ExecutionStarted",
		"ExecutionCompleted", "EventRaised", "EventSent", "ExecutionStalled", "WorkflowStarted", "ChildWorkflowCompleted", "Unknown"}
	f.Fuzz(func(t *testing.T, kind uint8, a, b string, n int32) {
		// Any attrs on any row type.
		doc := cliRowDoc(types[int(kind)%len(types)], "x", a)
		h, err := Decode(strings.NewReader(doc), DecodeOptions{})
		var de *DecodeError
		switch {
		case err != nil && (h != nil || !errors.As(err, &de)):
			t.Fatalf("attrs %q: %v, %T %v", a, h != nil, err, err)
		case err == nil && h.Len() != 1:
			t.Fatalf("attrs %q: %d events", a, h.Len())
		}

		// Values that must come back exactly.
		var want func(e *Event) (got, want string)
		switch kind % 3 {
		case 0:
			if strings.Contains(a, ";errorMsg=") || strings.Contains(a, ";nonRetriable=") || strings.Contains(b, ";nonRetriable=") {
				return
			}
			doc = cliRowDoc("TaskFailed", "", pairs("scheduledId", strconv.Itoa(int(n)), "errorType", a, "errorMsg", b))
			want = func(e *Event) (string, string) {
				if e.Failure == nil {
					return "<no failure>|" + strconv.Itoa(int(e.ScheduledID)), a + "|" + b + "|" + strconv.Itoa(int(n))
				}
				return e.Failure.Type + "|" + e.Failure.Message + "|" + strconv.Itoa(int(e.ScheduledID)), a + "|" + b + "|" + strconv.Itoa(int(n))
			}
			if a == "" && b == "" {
				want = func(e *Event) (string, string) { return strconv.Itoa(int(e.ScheduledID)), strconv.Itoa(int(n)) }
			}
		case 1:
			if strings.Contains(a, ";result=") {
				return
			}
			doc = cliRowDoc("TaskCompleted", "", pairs("scheduledId", strconv.Itoa(int(n)), "output", a))
			want = func(e *Event) (string, string) {
				return e.Payload.Text() + "|" + strconv.Itoa(int(e.ScheduledID)), a + "|" + strconv.Itoa(int(n))
			}
		case 2:
			for _, k := range []string{";fireAt=", ";origin=", ";eventName=", ";taskExecId=", ";instanceId="} {
				if strings.Contains(a, k) || k == ";instanceId=" && strings.Contains(b, k) {
					return
				}
			}
			doc = cliRowDoc("TimerCreated", "", pairs("timerName", a, "fireAt", "2026-08-20T09:14:06Z", "origin", "activityRetry", "taskExecId", b))
			want = func(e *Event) (string, string) {
				return e.Name + "|" + e.OriginID + "|" + e.Origin.String(), a + "|" + b + "|activityRetry"
			}
		}
		h, err = Decode(strings.NewReader(doc), DecodeOptions{})
		if err != nil {
			t.Fatalf("a well-formed row failed: %v\n%s", err, doc)
		}
		if got, w := want(h.At(0)); got != w {
			t.Fatalf("attrs came back as %q, want %q\n%s", got, w, doc)
		}
	})
}
