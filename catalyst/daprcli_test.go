package catalyst

import (
	"strings"
	"testing"
	"time"
)

// research/dapr-cli-json.md §9: ChargeCard fails twice with 503, then
// succeeds (CLI 1.18), and the same run as CLI 1.17 prints it.
func TestDaprCLIChargeExample(t *testing.T) {
	common := func(timer1, timer3 string) []string {
		return []string{
			`ExecutionStarted id=-1 ts=2026-08-20T09:14:03Z name=ChargeWorkflow exec=c1d2e3f4-5a6b-4c7d-8e9f-0a1b2c3d7731 payload=present:{"orderId":"A-7731","amountCents":4999,"currency":"USD"}`,
			`WorkflowStarted id=-1 ts=2026-08-20T09:14:03Z`,
			`TaskScheduled id=0 ts=2026-08-20T09:14:03Z name=ChargeCard exec=8a4f2c71-3b9e-4d05-a6c2-91e07f5d3b18 payload=present:{"orderId":"A-7731","amountCents":4999,"currency":"USD"} router=payments->`,
			`TaskFailed id=-1 ts=2026-08-20T09:14:03Z exec=8a4f2c71-3b9e-4d05-a6c2-91e07f5d3b18 failure0=*errors.errorString|payment gateway returned 503 Service Unavailable|""|false router=payments->`,
			`WorkflowStarted id=-1 ts=2026-08-20T09:14:04Z`,
			`TimerCreated id=1 ts=2026-08-20T09:14:04Z name=ChargeCard-retry fire=2026-08-20T09:14:06Z` + timer1 + ` router=payments->`,
			`TimerFired id=-1 ts=2026-08-20T09:14:06Z timer=1 fire=2026-08-20T09:14:06Z`,
			`WorkflowStarted id=-1 ts=2026-08-20T09:14:06Z`,
			`TaskScheduled id=2 ts=2026-08-20T09:14:06Z name=ChargeCard exec=8a4f2c71-3b9e-4d05-a6c2-91e07f5d3b18 payload=present:{"orderId":"A-7731","amountCents":4999,"currency":"USD"} router=payments->`,
			`TaskFailed id=-1 ts=2026-08-20T09:14:06Z sched=2 exec=8a4f2c71-3b9e-4d05-a6c2-91e07f5d3b18 failure0=*errors.errorString|payment gateway returned 503 Service Unavailable|""|false router=payments->`,
			`WorkflowStarted id=-1 ts=2026-08-20T09:14:06Z`,
			`TimerCreated id=3 ts=2026-08-20T09:14:06Z name=ChargeCard-retry fire=2026-08-20T09:14:10Z` + timer3 + ` router=payments->`,
			`TimerFired id=-1 ts=2026-08-20T09:14:10Z timer=3 fire=2026-08-20T09:14:10Z`,
			`WorkflowStarted id=-1 ts=2026-08-20T09:14:10Z`,
			`TaskScheduled id=4 ts=2026-08-20T09:14:10Z name=ChargeCard exec=8a4f2c71-3b9e-4d05-a6c2-91e07f5d3b18 payload=present:{"orderId":"A-7731","amountCents":4999,"currency":"USD"} router=payments->`,
			`TaskCompleted id=-1 ts=2026-08-20T09:14:11Z sched=4 exec=8a4f2c71-3b9e-4d05-a6c2-91e07f5d3b18 payload=present:{"chargeId":"ch_3PqZ8xLk","status":"captured"} router=payments->`,
			`WorkflowStarted id=-1 ts=2026-08-20T09:14:11Z`,
			`ExecutionCompleted id=5 ts=2026-08-20T09:14:11Z payload=present:{"orderId":"A-7731","chargeId":"ch_3PqZ8xLk","status":"paid"} router=payments-> status=COMPLETED`,
		}
	}
	origin := " origin=activityRetry:8a4f2c71-3b9e-4d05-a6c2-91e07f5d3b18"
	for file, want := range map[string][]string{
		"dapr-cli-1.18-charge.json": common(origin, origin),
		"dapr-cli-1.17-charge.json": common("", ""), // no timer origins before 1.18
	} {
		t.Run(file, func(t *testing.T) {
			h, err := decodeFile(t, file)
			if err != nil {
				t.Fatal(err)
			}
			checkEvents(t, h, want)
			// The attempt's span is its row's elapsed, "758.6ms", rebuilt
			// though the rows print whole seconds.
			if sp := h.Span(h.At(2).Timestamp, h.At(3).Timestamp); !sp.Rebuilt() || sp.D != 758600*time.Microsecond {
				t.Errorf("attempt 1 took %+v, want a rebuilt 758.6ms", sp)
			}
			// The CLI prints no instance id for the run.
			checkRunIDs(t, h, Run{AppID: "payments", Workflow: "ChargeWorkflow", Status: "COMPLETED",
				ExecutionID: "c1d2e3f4-5a6b-4c7d-8e9f-0a1b2c3d7731"})
			if h.Format != FormatDaprCLI || !h.Lossy || h.UnknownFields != 0 || h.Run.DataSharing.Filtered {
				t.Errorf("format %s lossy %v unknown %d sharing %+v", h.Format, h.Lossy, h.UnknownFields, h.Run.DataSharing)
			}
		})
	}
}

// research/dapr-cli-json.md §10: SendEmail times out once; a payload is cut
// at 120 characters and an output string is printed unquoted.
func TestDaprCLIWelcomeExample(t *testing.T) {
	h, err := decodeFile(t, "dapr-cli-1.18-welcome.json")
	if err != nil {
		t.Fatal(err)
	}
	if h.Len() != 15 {
		t.Fatalf("%d events, want 15", h.Len())
	}
	cut := h.At(3)
	if cut.Type != EventTaskCompleted || !strings.HasSuffix(cut.Payload.Text(), "pleas…") || cut.ScheduledID != 0 {
		t.Errorf("cut payload: %s", summary(cut))
	}
	if got := summaryAt(h, 6); got != `TaskFailed id=-1 ts=2026-08-21T14:02:21Z sched=1 exec=b7e4c019-5a2d-4f63-9e8b-2d1f6c7a3e95 failure0=*url.Error|Post "https://mail-api.example.com/v3/send": context deadline exceeded (Client.Timeout exceeded while awaiting headers)|""|false router=notifier->` {
		t.Errorf("failure row: %s", got)
	}
	if got := summaryAt(h, 12); got != `TaskCompleted id=-1 ts=2026-08-21T14:02:27Z sched=3 exec=b7e4c019-5a2d-4f63-9e8b-2d1f6c7a3e95 payload=present:msg_01J9Z7QK router=notifier->` {
		t.Errorf("unquoted output row: %s", got)
	}
	if got := summaryAt(h, 8); got != `TimerCreated id=2 ts=2026-08-21T14:02:21Z name=SendEmail-retry fire=2026-08-21T14:02:26Z origin=activityRetry:b7e4c019-5a2d-4f63-9e8b-2d1f6c7a3e95 router=notifier->` {
		t.Errorf("retry timer row: %s", got)
	}
}

func TestDaprCLIEdgeRows(t *testing.T) {
	h, err := decodeFile(t, "dapr-cli-edge.json")
	if err != nil {
		t.Fatal(err)
	}
	checkEvents(t, h, []string{
		// A ';' inside the input; the parent from details.
		`ExecutionStarted id=-1 ts=2026-08-20T09:14:03Z name=OrderWorkflow exec=ex-9 payload=present:{"orderId":"A;1"} parent=root-1`,
		`WorkflowStarted id=-1 ts=2026-08-20T09:14:03Z version=v2`,
		// "a->b" arrives escaped as a-\u003eb.
		`TaskScheduled id=0 ts=2026-08-20T09:14:03Z name=Reserve exec=t-1 payload=present:plain text; not json=1 router=orders->stock rerunParent=orders-old`,
		// The message runs to the trailing ;nonRetriable=true, even when it holds ";errorType=".
		`TaskFailed id=-1 ts=2026-08-20T09:14:04Z exec=t-1 failure0=ValueError|bad sku;errorType=x|""|true router=orders->stock`,
		// CLI 1.16 wrote result= where later versions write output=.
		`TaskCompleted id=-1 ts=2026-08-20T09:14:05Z exec=t-1 payload=present:old-style`,
		// The origin only in details.
		`TimerCreated id=1 ts=2026-08-20T09:14:05Z fire=2026-08-20T09:14:10Z origin=childWorkflowRetry:orders-1:0000`,
		`TimerCreated id=2 ts=2026-08-20T09:14:05Z name=approval fire=2026-08-21T09:14:05Z origin=externalEvent:approval`,
		`EventSent id=3 ts=2026-08-20T09:14:06Z name=shipped inst=billing-7 payload=present:{"box":1}`,
		`ChildWorkflowFailed id=-1 ts=2026-08-20T09:14:07Z sched=none`,
		`Unknown id=-1 ts=2026-08-20T09:14:08Z raw={"namespace":"default","appID":"orders","play":2,"type":"Unknown","name":null,"timestamp":"2026-08-20T09:14:08Z","elapsed":"1.0ms","status":"RUNNING","details":null}`,
		`ExecutionStalled id=-1 ts=2026-08-20T09:14:09Z stall=PATCH_MISMATCH stallText=patch p3 missing; redeploy`,
		// No output attr: none, or empty (the CLI prints neither).
		`ExecutionCompleted id=4 ts=2026-08-20T09:14:10Z payload=none-or-empty: failure0=TaskFailedError|Reserve failed: bad sku|""|false router=orders-> status=FAILED`,
	})
	checkRunIDs(t, h, Run{AppID: "orders", Workflow: "OrderWorkflow", Status: "FAILED", ExecutionID: "ex-9", ParentID: "root-1"})
	if h.Run.FailureMessage != "Reserve failed: bad sku" {
		t.Errorf("failure message %q", h.Run.FailureMessage)
	}
}

func TestDaprCLINullIsZeroEvents(t *testing.T) {
	h, err := decodeFile(t, "dapr-cli-null.json")
	if err != nil {
		t.Fatal(err)
	}
	if h.Len() != 0 || h.Format != FormatDaprCLI || !h.Lossy || h.Run.Status != StatusRunning {
		t.Errorf("%d events, format %s, lossy %v, status %q", h.Len(), h.Format, h.Lossy, h.Run.Status)
	}
}

func TestDaprCLIAttrs(t *testing.T) {
	tests := []struct {
		typ, attrs, want string
		unknown          int
	}{
		{"TaskFailed", "scheduledId=3;errorType=E;errorMsg=a=b;c", `TaskFailed id=-1 sched=3 failure0=E|a=b;c|""|false`, 0},
		{"TaskFailed", "errorMsg=only;nonRetriable=true", `TaskFailed id=-1 sched=none failure0=|only|""|true`, 0},
		{"TaskCompleted", "output=x;scheduledId=1", `TaskCompleted id=-1 sched=none payload=present:x;scheduledId=1`, 0},
		{"TimerFired", "timerId=7;fireAt=2026-01-02T03:04:05Z", `TimerFired id=-1 timer=7 fire=2026-01-02T03:04:05Z`, 0},
		{"TimerCreated", "origin=createTimer", `TimerCreated id=0 origin=createTimer:`, 0},
		{"EventRaised", "eventName=go;payload=", `EventRaised id=-1 name=go payload=empty:`, 0},
		{"TaskScheduled", "bogus=1", `TaskScheduled id=0 payload=none-or-empty:`, 1},
		{"ExecutionTerminated", "input=x", `ExecutionTerminated id=-1 payload=not-in-format:`, 1},
	}
	for _, tt := range tests {
		doc := `[{"type":"` + tt.typ + `","play":0,"attrs":` + quoteJSON(tt.attrs) + `}]`
		h, err := Decode(strings.NewReader(doc), DecodeOptions{})
		if err != nil {
			t.Errorf("%s %q: %v", tt.typ, tt.attrs, err)
			continue
		}
		if got := summaryAt(h, 0); got != tt.want || h.UnknownFields != tt.unknown {
			t.Errorf("%s %q:\n got  %s (unknown %d)\n want %s (unknown %d)", tt.typ, tt.attrs, got, h.UnknownFields, tt.want, tt.unknown)
		}
	}
	for _, bad := range [][2]string{{"TaskCompleted", "scheduledId=x"}, {"TimerFired", "timerId=99999999999"}, {"TimerFired", "fireAt=yesterday"}} {
		doc := `[{"type":"` + bad[0] + `","play":0,"attrs":` + quoteJSON(bad[1]) + `}]`
		if _, err := Decode(strings.NewReader(doc), DecodeOptions{}); err == nil || !strings.Contains(err.Error(), "attrs") {
			t.Errorf("%s attrs %q: %v, want an error naming the attrs", bad[0], bad[1], err)
		}
	}
}

func quoteJSON(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`)
	return `"` + r.Replace(s) + `"`
}

// TestCLIKeyOrderNamesEachBit: cliExpectedKey's table and cliField agree,
// so a key found in the expected order is the field cliField would name.
func TestCLIKeyOrderNamesEachBit(t *testing.T) {
	for i, quoted := range cliKeyOrder {
		key := cliKeyName(uint16(1) << i)
		if `"`+string(key)+`":` != quoted {
			t.Errorf("cliKeyName(1<<%d) = %q, want the key of %s", i, key, quoted)
		}
		if got := cliField(key); got != uint16(1)<<i {
			t.Errorf("cliField(%q) = %#x, want %#x (its place in cliKeyOrder)", key, got, uint16(1)<<i)
		}
	}
}
