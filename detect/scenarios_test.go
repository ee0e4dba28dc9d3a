package detect

import (
	"strconv"
	"strings"
	"time"

	"github.com/twice-cli/twice/catalyst"
)

// wantInv is an expected invocation: name, attempt count, link rule, outcome.
type wantInv struct {
	name     string
	attempts int
	link     LinkRule
	outcome  Outcome
}

// wantFinding is an expected finding.
type wantFinding struct {
	id       FindingID
	sev      Severity
	conf     Confidence
	activity string
}

// scenario is one history built in engine order, with what Analyze must
// find in it. invs lists only the invocations named in wantAll order; when
// count is set, the report must hold exactly that many invocations and invs
// checks a prefix.
type scenario struct {
	name     string
	about    string
	build    func() *catalyst.History
	invs     []wantInv
	count    int
	findings []wantFinding
	// inputsGroup: the grouping rests on visible inputs (attempts linked by
	// order alone whose inputs differ), so a view without payloads groups
	// otherwise.
	inputsGroup bool
}

const (
	execA = "8a4f2c71-3b9e-4d05-a6c2-91e07f5d3b18"
	execB = "11111111-aaaa-4bbb-8ccc-000000000001"
	execC = "22222222-aaaa-4bbb-8ccc-000000000002"
	execD = "33333333-aaaa-4bbb-8ccc-000000000003"
)

const (
	msg503      = "POST https://pay.example/charges: 503 Service Unavailable"
	msgDeadline = `Post "https://mail-api.example.com/v3/send": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`
	msgReadTO   = "requests.exceptions.ReadTimeout: HTTPSConnectionPool(host='api.stripe.com', port=443): Read timed out. (read timeout=30)"
	msgCanceled = "System.Threading.Tasks.TaskCanceledException: The request was canceled due to the configured HttpClient.Timeout of 30 seconds elapsing."
	msgDeclined = "card_declined: Your card was declined."
)

func scenarios() []scenario {
	return []scenario{
		{
			name:  "go-success",
			about: "one activity, one attempt, completed (history-format.md example A)",
			build: func() *catalyst.History {
				b := newHB("OrderWorkflow")
				b.turn().start("0b6c9a3e")
				s := b.sched("ReserveStock", execA, `{"orderId":1001}`)
				b.wait(400*time.Millisecond).turn().done(s, execA, `{"reserved":true}`).complete(catalyst.StatusCompleted)
				return b.history()
			},
			invs:  []wantInv{{"ReserveStock", 1, LinkFirst, OutcomeCompleted}},
			count: 1,
		},
		{
			name:  "python-retry-503",
			about: "Python ≥1.18: one task_execution_id, unnamed activityRetry timers, two 503s then success (example B)",
			build: pythonRetry503("charge_card", msg503),
			invs:  []wantInv{{"charge_card", 3, LinkByID, OutcomeCompleted}},
			count: 1,
			findings: []wantFinding{
				{FindingDuplicateSideEffect, SeverityHigh, ConfidenceProbable, "charge_card"},
			},
		},
		{
			name:  "go-retry-deadline-email",
			about: "Go SDK: SendEmail times out (context deadline exceeded), the retry succeeds (dapr-cli-json.md example 2)",
			build: func() *catalyst.History {
				b := newHB("WelcomeWorkflow")
				b.turn().start("3e9b1c55")
				r := b.sched("RenderTemplate", execB, `{"templateId":"welcome-v3"}`)
				b.wait(250*time.Millisecond).turn().done(r, execB, `{"subject":"Welcome"}`)
				s1 := b.sched("SendEmail", execA, `{"to":"dana@example.com"}`)
				b.wait(10*time.Second).turn().fail(s1, execA, "*url.Error", msgDeadline)
				t := b.timer(5*time.Second, "SendEmail-retry", catalyst.OriginActivityRetry, execA)
				b.turn().fire(t)
				s2 := b.sched("SendEmail", execA, `{"to":"dana@example.com"}`)
				b.wait(600*time.Millisecond).turn().done(s2, execA, `"msg_01J9Z7QK"`).complete(catalyst.StatusCompleted)
				return b.history()
			},
			invs: []wantInv{
				{"RenderTemplate", 1, LinkFirst, OutcomeCompleted},
				{"SendEmail", 2, LinkByID, OutcomeCompleted},
			},
			count: 2,
			findings: []wantFinding{
				{FindingDuplicateSideEffect, SeverityHigh, ConfidenceProbable, "SendEmail"},
			},
		},
		{
			name:  "race-fetch-quote",
			about: "a read-only call raced a createTimer timer, lost, was called again; the first completes late (example C)",
			build: raceScenario("fetch_quote", true, true),
			invs: []wantInv{
				{"fetch_quote", 1, LinkFirst, OutcomeCompleted},
				{"fetch_quote", 1, LinkFirst, OutcomeCompleted},
			},
			count: 2,
			findings: []wantFinding{
				{FindingTimeoutRace, SeverityLow, ConfidenceObserved, "fetch_quote"},
			},
		},
		{
			name:  "race-charge-late",
			about: "ChargeCard raced a timer; the new call and the late first call both completed",
			build: raceScenario("ChargeCard", true, true),
			invs: []wantInv{
				{"ChargeCard", 1, LinkFirst, OutcomeCompleted},
				{"ChargeCard", 1, LinkFirst, OutcomeCompleted},
			},
			count: 2,
			findings: []wantFinding{
				{FindingTimeoutRace, SeverityHigh, ConfidenceObserved, "ChargeCard"},
			},
		},
		{
			name:  "race-charge-running",
			about: "ChargeCard raced a timer; the first call has no outcome in a running run read with no clock",
			build: raceScenario("ChargeCard", false, false),
			invs: []wantInv{
				{"ChargeCard", 1, LinkFirst, OutcomePending},
				{"ChargeCard", 1, LinkFirst, OutcomeCompleted},
			},
			count: 2,
			findings: []wantFinding{
				{FindingTimeoutRace, SeverityHigh, ConfidenceProbable, "ChargeCard"},
				{FindingUnknownOutcome, SeverityLow, ConfidencePossible, "ChargeCard"},
			},
		},
		{
			name:  "child-retry-go",
			about: "Go on Dapr master: a child retried under a new instance id with retryParentInstanceInfo (example D)",
			build: childRetry(true, true, false),
			invs:  []wantInv{{"ShipOrder", 2, LinkByID, OutcomeCompleted}},
			count: 1,
			findings: []wantFinding{
				{FindingChildWorkflowRetried, SeverityMedium, ConfidenceObserved, "ShipOrder"},
			},
		},
		{
			name:  "child-retry-origin",
			about: "Dapr 1.18.x: a child retried, linked only by the childWorkflowRetry timer origin",
			build: childRetry(false, true, false),
			invs:  []wantInv{{"ShipOrder", 2, LinkByOrigin, OutcomeCompleted}},
			count: 1,
			findings: []wantFinding{
				{FindingChildWorkflowRetried, SeverityMedium, ConfidenceObserved, "ShipOrder"},
			},
		},
		{
			name:  "child-reused-python",
			about: "Python: every child attempt reuses the first attempt's instance id",
			build: childRetry(false, true, true),
			invs:  []wantInv{{"ShipOrder", 2, LinkByID, OutcomeCompleted}},
			count: 1,
			findings: []wantFinding{
				{FindingChildWorkflowRetried, SeverityMedium, ConfidenceObserved, "ShipOrder"},
			},
		},
		{
			name:  "child-dotnet-order",
			about: ".NET: a new child id per attempt and an origin id that matches no child: grouped by order",
			build: childRetry(false, false, false),
			invs:  []wantInv{{"ShipOrder", 2, LinkInferred, OutcomeCompleted}},
			count: 1,
			findings: []wantFinding{
				{FindingChildWorkflowRetried, SeverityMedium, ConfidenceObserved, "ShipOrder"},
			},
		},
		{
			name:  "dotnet-per-attempt-ids",
			about: ".NET ≥1.17: a new task_execution_id per attempt; the retry timers point to the first",
			build: func() *catalyst.History {
				b := newHB("OrderWorkflow")
				b.turn().start("e1")
				s1 := b.sched("ChargeCard", execA, `{"orderId":"A-1"}`)
				b.wait(30*time.Second).turn().fail(s1, execA, "System.Threading.Tasks.TaskCanceledException", msgCanceled)
				t1 := b.timer(5*time.Second, "", catalyst.OriginActivityRetry, execA)
				b.turn().fire(t1)
				s2 := b.sched("ChargeCard", execB, `{"orderId":"A-1"}`)
				b.wait(30*time.Second).turn().fail(s2, execB, "System.Threading.Tasks.TaskCanceledException", msgCanceled)
				t2 := b.timer(10*time.Second, "", catalyst.OriginActivityRetry, execA)
				b.turn().fire(t2)
				s3 := b.sched("ChargeCard", execC, `{"orderId":"A-1"}`)
				b.wait(time.Second).turn().done(s3, execC, `{"chargeId":"ch_9"}`).complete(catalyst.StatusCompleted)
				return b.history()
			},
			invs:  []wantInv{{"ChargeCard", 3, LinkByOrigin, OutcomeCompleted}},
			count: 1,
			findings: []wantFinding{
				{FindingDuplicateSideEffect, SeverityHigh, ConfidenceProbable, "ChargeCard"},
			},
		},
		{
			name:  "python-legacy-reused-eventid",
			about: "Python <1.17.2: no ids, no origins, unnamed timers, the same eventId for every attempt",
			build: func() *catalyst.History {
				b := newHB("notify_workflow")
				b.turn().start("")
				id := b.sched("send_sms", "", `{"to":"+15550100"}`)
				b.wait(30*time.Second).turn().fail(id, "", "ReadTimeout", msgReadTO)
				t := b.timer(2*time.Second, "", catalyst.OriginNone, "")
				b.turn().fire(t)
				b.schedAs(id, "send_sms", "", `{"to":"+15550100"}`)
				b.wait(time.Second).turn().done(id, "", `{"sid":"SM_2"}`).complete(catalyst.StatusCompleted)
				return b.history()
			},
			invs:  []wantInv{{"send_sms", 2, LinkInferred, OutcomeCompleted}},
			count: 1,
			findings: []wantFinding{
				{FindingDuplicateSideEffect, SeverityHigh, ConfidenceProbable, "send_sms"},
			},
		},
		{
			name:  "go-dapr116-named-timers",
			about: "Go on Dapr 1.16/1.17: shared task_execution_id, timers named ChargeCard-retry, no origins",
			build: goRetry("ChargeCard", execA, catalyst.OriginNone, "ChargeCard-retry", "*errors.errorString", msg503),
			invs:  []wantInv{{"ChargeCard", 2, LinkByID, OutcomeCompleted}},
			count: 1,
			findings: []wantFinding{
				{FindingDuplicateSideEffect, SeverityHigh, ConfidenceProbable, "ChargeCard"},
			},
		},
		{
			name:  "go-dapr115-no-ids",
			about: "Go on Dapr ≤1.15: no ids, no origins; joined by the ChargeCard-retry timer",
			build: goRetry("ChargeCard", "", catalyst.OriginNone, "ChargeCard-retry", "*errors.errorString", msg503),
			invs:  []wantInv{{"ChargeCard", 2, LinkInferred, OutcomeCompleted}},
			count: 1,
			findings: []wantFinding{
				{FindingDuplicateSideEffect, SeverityHigh, ConfidenceProbable, "ChargeCard"},
			},
		},
		{
			name:  "dapr115-sleep-new-address",
			about: "Dapr ≤1.15, no ids: SendEmail times out, the workflow sleeps, then sends to another address",
			build: sleepThenSend(`{"to":"dana@example.com"}`, `{"to":"dana.backup@example.com"}`),
			invs: []wantInv{
				{"SendEmail", 1, LinkFirst, OutcomeFailed},
				{"SendEmail", 1, LinkFirst, OutcomeCompleted},
			},
			count:       2,
			inputsGroup: true,
		},
		{
			name:  "declined-retried",
			about: "a business rejection (card declined) retried by the policy: not a duplicate, a wasted retry",
			build: goRetry("ChargeCard", execA, catalyst.OriginActivityRetry, "ChargeCard-retry", "CardError", msgDeclined),
			invs:  []wantInv{{"ChargeCard", 2, LinkByID, OutcomeCompleted}},
			count: 1,
			findings: []wantFinding{
				{FindingRetriedPermanentFailure, SeverityMedium, ConfidenceObserved, "ChargeCard"},
			},
		},
		{
			name:  "nonretriable-retried",
			about: "a failure marked non-retriable, retried anyway",
			build: func() *catalyst.History {
				b := newHB("OrderWorkflow")
				b.turn().start("e1")
				s1 := b.sched("ValidateOrder", execA, `{"orderId":"A-1"}`)
				b.wait(time.Second).turn().failNonRetriable(s1, execA, "OrderError", "order total mismatch")
				t := b.timer(time.Second, "", catalyst.OriginActivityRetry, execA)
				b.turn().fire(t)
				s2 := b.sched("ValidateOrder", execA, `{"orderId":"A-1"}`)
				b.wait(time.Second).turn().failNonRetriable(s2, execA, "OrderError", "order total mismatch")
				b.complete(catalyst.StatusFailed)
				return b.history()
			},
			invs:  []wantInv{{"ValidateOrder", 2, LinkByID, OutcomeFailed}},
			count: 1,
			findings: []wantFinding{
				{FindingRetriedPermanentFailure, SeverityMedium, ConfidenceObserved, "ValidateOrder"},
			},
		},
		{
			name:  "shared-retry-policy",
			about: "one 5 s ×2 policy retries a 422 rejection of ValidateAddress and a 503 of ChargeCard",
			build: sharedPolicy,
			invs: []wantInv{
				{"ValidateAddress", 3, LinkByID, OutcomeFailed},
				{"ChargeCard", 3, LinkByID, OutcomeCompleted},
			},
			count: 2,
			findings: []wantFinding{
				{FindingDuplicateSideEffect, SeverityHigh, ConfidenceProbable, "ChargeCard"},
				{FindingRetriedPermanentFailure, SeverityMedium, ConfidenceObserved, "ValidateAddress"},
				{FindingSharedRetryPolicy, SeverityLow, ConfidenceProbable, "ValidateAddress"},
			},
		},
		{
			name:  "terminated-mid-charge",
			about: "the run was terminated while ChargeCard had no outcome",
			build: func() *catalyst.History {
				b := newHB("OrderWorkflow")
				b.turn().start("e1")
				b.sched("ChargeCard", execA, `{"orderId":"A-1"}`)
				b.wait(2 * time.Minute).turn().terminate()
				return b.history()
			},
			invs:  []wantInv{{"ChargeCard", 1, LinkFirst, OutcomeUnknown}},
			count: 1,
			findings: []wantFinding{
				{FindingUnknownOutcome, SeverityMedium, ConfidenceObserved, "ChargeCard"},
			},
		},
		{
			name:  "running-overdue",
			about: "a running run whose SendEmail has had no outcome for two hours while other events arrived",
			build: func() *catalyst.History {
				b := newHB("WelcomeWorkflow")
				b.turn().start("e1")
				b.sched("SendEmail", execA, `{"to":"x@example.com"}`)
				b.wait(2 * time.Hour).turn()
				b.add(catalyst.Event{Type: catalyst.EventEventRaised, ID: -1, Name: "ping",
					Payload: catalyst.PresentPayload(`{}`)})
				b.run.Status = catalyst.StatusRunning
				return b.history()
			},
			invs:  []wantInv{{"SendEmail", 1, LinkFirst, OutcomePending}},
			count: 1,
			findings: []wantFinding{
				{FindingUnknownOutcome, SeverityMedium, ConfidencePossible, "SendEmail"},
			},
		},
		{
			name:  "running-recent",
			about: "a running run's activity scheduled just before the history ends, read with no clock: unknown, low",
			build: func() *catalyst.History {
				b := newHB("WelcomeWorkflow")
				b.turn().start("e1")
				b.sched("SendEmail", execA, `{"to":"x@example.com"}`)
				b.run.Status = catalyst.StatusRunning
				return b.history()
			},
			invs:  []wantInv{{"SendEmail", 1, LinkFirst, OutcomePending}},
			count: 1,
			findings: []wantFinding{
				{FindingUnknownOutcome, SeverityLow, ConfidencePossible, "SendEmail"},
			},
		},
		{
			name:  "stalled-payload",
			about: "Dapr stalled the run: payload size over 95% of the 4 MiB gRPC limit",
			build: func() *catalyst.History {
				b := newHB("ReportWorkflow")
				b.turn().start("e1")
				s := b.sched("GetLedger", execA, `{"month":"2026-08"}`)
				b.wait(time.Second).turn().done(s, execA, `{"rows":[]}`)
				b.add(catalyst.Event{Type: catalyst.EventExecutionStalled, ID: -1, Detail: &catalyst.EventDetail{
					StallReason:      "PAYLOAD_SIZE_EXCEEDED",
					StallDescription: "Workflow payload size 4012345 exceeds 95% of max gRPC body size 4194304 bytes"}})
				b.run.Status = catalyst.StatusStalled
				return b.history()
			},
			invs:  []wantInv{{"GetLedger", 1, LinkFirst, OutcomeCompleted}},
			count: 1,
			findings: []wantFinding{
				{FindingLargePayload, SeverityMedium, ConfidenceObserved, "ReportWorkflow"},
			},
		},
		{
			name:  "large-output",
			about: "a read returns a 100 KiB document",
			build: largePayload("GetStatement", 100<<10),
			invs:  []wantInv{{"GetStatement", 1, LinkFirst, OutcomeCompleted}},
			count: 1,
			findings: []wantFinding{
				{FindingLargePayload, SeverityLow, ConfidenceObserved, "GetStatement"},
			},
		},
		{
			name:  "huge-output",
			about: "a read returns 3.5 MiB, near the 4 MiB limit",
			build: largePayload("GetStatement", 3<<20+512<<10),
			invs:  []wantInv{{"GetStatement", 1, LinkFirst, OutcomeCompleted}},
			count: 1,
			findings: []wantFinding{
				{FindingLargePayload, SeverityMedium, ConfidenceObserved, "GetStatement"},
			},
		},
		{
			name:  "fanout-50-clean",
			about: "fifty parallel SendEmail calls, each its own invocation, all completed",
			build: fanOut(50, 0, true),
			invs:  []wantInv{{"SendEmail", 1, LinkFirst, OutcomeCompleted}},
			count: 50,
		},
		{
			name:  "fanout-50-legacy-retries",
			about: "fifty parallel send_sms calls with no ids; three time out and are retried by unnamed timers",
			build: fanOut(50, 3, false),
			invs: []wantInv{
				{"send_sms", 2, LinkInferred, OutcomeCompleted},
				{"send_sms", 2, LinkInferred, OutcomeCompleted},
				{"send_sms", 2, LinkInferred, OutcomeCompleted},
				{"send_sms", 1, LinkFirst, OutcomeCompleted},
			},
			count: 50,
			findings: []wantFinding{
				{FindingDuplicateSideEffect, SeverityHigh, ConfidenceProbable, "send_sms"},
				{FindingDuplicateSideEffect, SeverityHigh, ConfidenceProbable, "send_sms"},
				{FindingDuplicateSideEffect, SeverityHigh, ConfidenceProbable, "send_sms"},
			},
		},
		{
			name:  "fanout-dotnet-retries",
			about: "ten parallel .NET ChargeCard calls; three time out in one turn and retry in one turn",
			build: fanOutDotnet,
			invs: []wantInv{
				{"ChargeCard", 2, LinkByOrigin, OutcomeCompleted},
				{"ChargeCard", 2, LinkByOrigin, OutcomeCompleted},
				{"ChargeCard", 2, LinkByOrigin, OutcomeCompleted},
				{"ChargeCard", 1, LinkFirst, OutcomeCompleted},
			},
			count: 10,
			findings: []wantFinding{
				{FindingDuplicateSideEffect, SeverityHigh, ConfidenceProbable, "ChargeCard"},
				{FindingDuplicateSideEffect, SeverityHigh, ConfidenceProbable, "ChargeCard"},
				{FindingDuplicateSideEffect, SeverityHigh, ConfidenceProbable, "ChargeCard"},
			},
		},
		{
			name:  "readonly-timeout-retry",
			about: "a read retried after a timeout is not a duplicate side effect",
			build: goRetry("GetExchangeRate", execA, catalyst.OriginActivityRetry, "GetExchangeRate-retry", "*url.Error", msgDeadline),
			invs:  []wantInv{{"GetExchangeRate", 2, LinkByID, OutcomeCompleted}},
			count: 1,
		},
		{
			name:  "idempotent-delete-retry",
			about: "a delete retried after a timeout is already idempotent",
			build: goRetry("DeleteSession", execA, catalyst.OriginActivityRetry, "DeleteSession-retry", "*url.Error", msgDeadline),
			invs:  []wantInv{{"DeleteSession", 2, LinkByID, OutcomeCompleted}},
			count: 1,
		},
		{
			name:  "safe-429-retry",
			about: "a 429 never reached the provider: retrying it duplicates nothing",
			build: goRetry("ChargeCard", execA, catalyst.OriginActivityRetry, "ChargeCard-retry", "*errors.errorString",
				"stripe: 429 Too Many Requests"),
			invs:  []wantInv{{"ChargeCard", 2, LinkByID, OutcomeCompleted}},
			count: 1,
		},
		{
			name:  "unclassified-retry",
			about: "an error twice does not recognise, then a retry: a possible duplicate",
			build: goRetry("ChargeCard", execA, catalyst.OriginActivityRetry, "ChargeCard-retry", "*errors.errorString",
				"something went wrong"),
			invs:  []wantInv{{"ChargeCard", 2, LinkByID, OutcomeCompleted}},
			count: 1,
			findings: []wantFinding{
				{FindingDuplicateSideEffect, SeverityHigh, ConfidencePossible, "ChargeCard"},
			},
		},
		{
			name:  "duplicate-completion",
			about: "Dapr <1.18 redelivery: two completions for one scheduled task, with different charge ids",
			build: func() *catalyst.History {
				b := newHB("OrderWorkflow")
				b.turn().start("e1")
				s := b.sched("ChargeCard", execA, `{"orderId":"A-1"}`)
				b.wait(40*time.Second).turn().done(s, execA, `{"charge_id":"ch_1"}`)
				b.wait(time.Second).turn().done(s, execA, `{"charge_id":"ch_2"}`).complete(catalyst.StatusCompleted)
				return b.history()
			},
			invs:  []wantInv{{"ChargeCard", 1, LinkFirst, OutcomeCompleted}},
			count: 1,
			findings: []wantFinding{
				{FindingDuplicateSideEffect, SeverityHigh, ConfidenceObserved, "ChargeCard"},
			},
		},
		{
			name:  "late-completion-after-retry",
			about: "attempt 1 timed out and was retried; attempt 2 completed, then attempt 1's completion arrived too",
			build: func() *catalyst.History {
				b := newHB("OrderWorkflow")
				b.turn().start("e1")
				s1 := b.sched("CreateShipment", execA, `{"orderId":"A-1"}`)
				b.wait(30*time.Second).turn().fail(s1, execA, "*url.Error", msgDeadline)
				t := b.timer(5*time.Second, "CreateShipment-retry", catalyst.OriginActivityRetry, execA)
				b.turn().fire(t)
				s2 := b.sched("CreateShipment", execA, `{"orderId":"A-1"}`)
				b.wait(time.Second).turn().done(s2, execA, `{"shipment_id":"shp_2"}`)
				b.wait(time.Second).turn().done(s1, execA, `{"shipment_id":"shp_1"}`).complete(catalyst.StatusCompleted)
				return b.history()
			},
			invs:  []wantInv{{"CreateShipment", 2, LinkByID, OutcomeCompleted}},
			count: 1,
			findings: []wantFinding{
				{FindingDuplicateSideEffect, SeverityHigh, ConfidenceObserved, "CreateShipment"},
			},
		},
		{
			name:  "redelivered-failed-then-completed",
			about: "Dapr <1.18 redelivery: one scheduled task records a timeout failure and then a completion",
			build: func() *catalyst.History {
				b := newHB("OrderWorkflow")
				b.turn().start("e1")
				s := b.sched("ChargeCard", execA, `{"orderId":"A-1"}`)
				b.wait(30*time.Second).turn().fail(s, execA, "*url.Error", msgDeadline)
				b.wait(time.Second).turn().done(s, execA, `{"charge_id":"ch_1"}`).complete(catalyst.StatusFailed)
				return b.history()
			},
			invs:  []wantInv{{"ChargeCard", 1, LinkFirst, OutcomeFailed}},
			count: 1,
			findings: []wantFinding{
				{FindingDuplicateSideEffect, SeverityHigh, ConfidenceProbable, "ChargeCard"},
			},
		},
		{
			name:  "continue-as-new-generations",
			about: "two continue-as-new generations in one file: eventIds restart at 0 and must not join",
			build: func() *catalyst.History {
				b := newHB("BatchMonitor")
				b.turn().start("gen-a")
				s := b.sched("PublishBatch", "", `{"batch":1}`)
				b.wait(time.Second).turn().done(s, "", `{}`)
				b.wait(time.Second).turn().start("gen-b")
				s = b.sched("PublishBatch", "", `{"batch":2}`)
				b.wait(time.Second).turn().done(s, "", `{}`).complete(catalyst.StatusCompleted)
				return b.history()
			},
			invs: []wantInv{
				{"PublishBatch", 1, LinkFirst, OutcomeCompleted},
				{"PublishBatch", 1, LinkFirst, OutcomeCompleted},
			},
			count: 2,
		},
		{
			name:  "hostile-names",
			about: "escape sequences and bidi controls in names, ids and errors: grouping does not care",
			build: pythonRetry503("charge_card\x1b]0;pwned\x07\u202e", "\x1b[2J503 Service Unavailable\r\u202erefunded"),
			invs:  []wantInv{{"charge_card\x1b]0;pwned\x07\u202e", 3, LinkByID, OutcomeCompleted}},
			count: 1,
			findings: []wantFinding{
				{FindingDuplicateSideEffect, SeverityHigh, ConfidenceProbable, "charge_card\x1b]0;pwned\x07\u202e"},
			},
		},
		{
			name:  "external-event-timeout-in-failure-turn",
			about: "a failure with no retry, and an external-event timeout timer in the same turn: no retry link",
			build: func() *catalyst.History {
				b := newHB("ApprovalWorkflow")
				b.turn().start("e1")
				s := b.sched("NotifyApprover", execA, `{"id":7}`)
				b.wait(time.Second).turn().fail(s, execA, "*errors.errorString", "smtp: 550 mailbox unavailable")
				t := b.timer(24*time.Hour, "approval", catalyst.OriginExternalEvent, "approval")
				_ = t
				b.wait(time.Minute).turn()
				b.add(catalyst.Event{Type: catalyst.EventEventRaised, ID: -1, Name: "approval",
					Payload: catalyst.PresentPayload(`{"approved":true}`)})
				b.complete(catalyst.StatusCompleted)
				return b.history()
			},
			invs:  []wantInv{{"NotifyApprover", 1, LinkFirst, OutcomeFailed}},
			count: 1,
		},
		{
			name:  "user-timer-after-failure-pre118",
			about: "no origins: an unnamed user timer after an unretried failure, then a different activity",
			build: func() *catalyst.History {
				b := newHB("CleanupWorkflow")
				b.turn().start("")
				s := b.sched("ReserveSlot", "", `{"slot":3}`)
				b.wait(time.Second).turn().fail(s, "", "ValueError", "slot 3 is invalid")
				t := b.timer(time.Minute, "", catalyst.OriginNone, "")
				b.turn().fire(t)
				s2 := b.sched("ReleaseHold", "", `{"slot":3}`)
				b.wait(time.Second).turn().done(s2, "", `{}`).complete(catalyst.StatusCompleted)
				return b.history()
			},
			invs: []wantInv{
				{"ReserveSlot", 1, LinkFirst, OutcomeFailed},
				{"ReleaseHold", 1, LinkFirst, OutcomeCompleted},
			},
			count: 2,
		},
		{
			name:  "clean-order-workflow",
			about: "a clean run of five activities: nothing at medium or above",
			build: func() *catalyst.History {
				b := newHB("OrderWorkflow")
				b.turn().start("e1")
				for i, name := range []string{"ValidateOrder", "ReserveStock", "ChargeCard", "ShipOrder", "SendReceipt"} {
					x := "00000000-0000-4000-8000-00000000000" + strconv.Itoa(i)
					s := b.sched(name, x, `{"orderId":"A-1"}`)
					b.wait(300*time.Millisecond).turn().done(s, x, `{"ok":true}`)
				}
				b.complete(catalyst.StatusCompleted)
				return b.history()
			},
			invs:  []wantInv{{"ValidateOrder", 1, LinkFirst, OutcomeCompleted}},
			count: 5,
		},
	}
}

// pythonRetry503 is example B: two failures then success, one id.
func pythonRetry503(name, msg string) func() *catalyst.History {
	return func() *catalyst.History {
		b := newHB("order_workflow")
		b.turn().start("c1d2e3f4")
		in := `{"order_id":"A-7731","amount_cents":4999}`
		s := b.sched(name, execA, in)
		b.wait(770*time.Millisecond).turn().fail(s, execA, "ConnectionError", msg)
		t := b.timer(5*time.Second, "", catalyst.OriginActivityRetry, execA)
		b.turn().fire(t)
		s = b.sched(name, execA, in)
		b.wait(580*time.Millisecond).turn().fail(s, execA, "ConnectionError", msg)
		t = b.timer(10*time.Second, "", catalyst.OriginActivityRetry, execA)
		b.turn().fire(t)
		s = b.sched(name, execA, in)
		b.wait(400*time.Millisecond).turn().done(s, execA, `{"charge_id":"ch_3PqZ"}`).complete(catalyst.StatusCompleted)
		return b.history()
	}
}

// sleepThenSend: Dapr ≤1.15 (no ids, no origins): SendEmail with input
// first times out; the workflow sleeps on an unnamed timer created in the
// turn of the failure, then calls SendEmail with input second.
func sleepThenSend(first, second string) func() *catalyst.History {
	return func() *catalyst.History {
		b := newHB("WelcomeWorkflow")
		b.turn().start("")
		s := b.sched("SendEmail", "", first)
		b.wait(10*time.Second).turn().fail(s, "", "*url.Error", msgDeadline)
		t := b.timer(time.Minute, "", catalyst.OriginNone, "")
		b.turn().fire(t)
		s = b.sched("SendEmail", "", second)
		b.wait(time.Second).turn().done(s, "", `"msg_2"`).complete(catalyst.StatusCompleted)
		return b.history()
	}
}

// goRetry: one failure, one retry timer (named and/or with origin), success.
func goRetry(name, exec string, origin catalyst.TimerOrigin, timerName, typ, msg string) func() *catalyst.History {
	return func() *catalyst.History {
		b := newHB("OrderWorkflow")
		b.turn().start("e1")
		in := `{"orderId":"A-7731"}`
		s := b.sched(name, exec, in)
		b.wait(10*time.Second).turn().fail(s, exec, typ, msg)
		originID := ""
		if origin == catalyst.OriginActivityRetry {
			originID = exec
		}
		t := b.timer(2*time.Second, timerName, origin, originID)
		b.turn().fire(t)
		s = b.sched(name, exec, in)
		b.wait(time.Second).turn().done(s, exec, `{"ok":true}`).complete(catalyst.StatusCompleted)
		return b.history()
	}
}

// raceScenario is example C: name raced a 30 s timer; the timer won; the
// workflow called name again. late: the first call completes late; ended:
// the run completes.
func raceScenario(name string, late, ended bool) func() *catalyst.History {
	return func() *catalyst.History {
		b := newHB("quote_workflow")
		b.turn().start("e0a1b2c3")
		s1 := b.sched(name, execB, `{"sku":"X-1"}`)
		t := b.timer(30*time.Second, "", catalyst.OriginCreateTimer, "")
		b.turn().fire(t)
		s2 := b.sched(name, execC, `{"sku":"X-1"}`)
		if late {
			b.wait(10*time.Second).turn().done(s1, execB, `{"price":17.5,"quote_id":"q_1"}`)
		}
		b.wait(time.Second).turn().done(s2, execC, `{"price":17.9,"quote_id":"q_2"}`)
		if ended {
			b.complete(catalyst.StatusCompleted)
		} else {
			b.run.Status = catalyst.StatusRunning
		}
		return b.history()
	}
}

// childRetry is example D. retryParent: the retry carries
// retryParentInstanceInfo; originMatches: the timer's origin names the first
// child; reuse: every attempt reuses the first instance id.
func childRetry(retryParent, originMatches, reuse bool) func() *catalyst.History {
	return func() *catalyst.History {
		b := newHB("OrderWorkflow")
		b.turn().start("9f8e7d6c")
		first := "order-1001:0000"
		c1 := b.child("ShipOrder", first, "")
		b.wait(1500*time.Millisecond).turn().childFail(c1, "carrier API unavailable")
		originID := first
		if !originMatches {
			originID = "5f0c1d2e-dotnet-origin-guid"
		}
		timerName := ""
		if retryParent {
			timerName = "ShipOrder-retry"
		}
		t := b.timer(2*time.Second, timerName, catalyst.OriginChildWorkflowRetry, originID)
		b.turn().fire(t)
		second, parent := "order-1001:0002", ""
		if reuse {
			second = first
		}
		if retryParent {
			parent = first
		}
		c2 := b.child("ShipOrder", second, parent)
		b.wait(2 * time.Second).turn().childDone(c2).complete(catalyst.StatusCompleted)
		return b.history()
	}
}

// sharedPolicy: one policy (5 s, ×2) for a permanent and a transient failure.
func sharedPolicy() *catalyst.History {
	b := newHB("CheckoutWorkflow")
	b.turn().start("e1")
	in := `{"orderId":"A-1"}`
	v := b.sched("ValidateAddress", execA, in)
	b.wait(200*time.Millisecond).turn().fail(v, execA, "HTTPError", "422 Unprocessable Entity: address invalid")
	t := b.timer(5*time.Second, "", catalyst.OriginActivityRetry, execA)
	b.turn().fire(t)
	v = b.sched("ValidateAddress", execA, in)
	b.wait(200*time.Millisecond).turn().fail(v, execA, "HTTPError", "422 Unprocessable Entity: address invalid")
	t = b.timer(10*time.Second, "", catalyst.OriginActivityRetry, execA)
	b.turn().fire(t)
	v = b.sched("ValidateAddress", execA, in)
	b.wait(200*time.Millisecond).turn().fail(v, execA, "HTTPError", "422 Unprocessable Entity: address invalid")
	c := b.sched("ChargeCard", execB, in)
	b.wait(30*time.Second).turn().fail(c, execB, "ConnectionError", msg503)
	t = b.timer(5*time.Second, "", catalyst.OriginActivityRetry, execB)
	b.turn().fire(t)
	c = b.sched("ChargeCard", execB, in)
	b.wait(30*time.Second).turn().fail(c, execB, "ConnectionError", msg503)
	t = b.timer(10*time.Second, "", catalyst.OriginActivityRetry, execB)
	b.turn().fire(t)
	c = b.sched("ChargeCard", execB, in)
	b.wait(time.Second).turn().done(c, execB, `{"charge_id":"ch_1"}`).complete(catalyst.StatusCompleted)
	return b.history()
}

func largePayload(name string, size int) func() *catalyst.History {
	return func() *catalyst.History {
		b := newHB("ReportWorkflow")
		b.turn().start("e1")
		s := b.sched(name, execA, `{"account":"acc_1"}`)
		doc := `{"lines":"` + strings.Repeat("x", size) + `"}`
		b.wait(time.Second).turn().done(s, execA, doc).complete(catalyst.StatusCompleted)
		return b.history()
	}
}

// fanOut schedules n parallel calls in one turn; the first retried of them
// fail with a timeout in one turn and are retried (each retry timer in that
// turn, fired in one later turn). withIDs: Go-style ids; otherwise old
// Python (no ids, unnamed timers, reused eventIds).
func fanOut(n, retried int, withIDs bool) func() *catalyst.History {
	return func() *catalyst.History {
		name := "send_sms"
		if withIDs {
			name = "SendEmail"
		}
		b := newHB("broadcast")
		b.turn().start("e1")
		ids := make([]int32, n)
		execs := make([]string, n)
		for i := range ids {
			if withIDs {
				execs[i] = "00000000-0000-4000-8000-" + strconv.Itoa(100000000000+i)
			}
			ids[i] = b.sched(name, execs[i], `{"to":"+1555010`+strconv.Itoa(i)+`"}`)
		}
		b.wait(30 * time.Second).turn()
		timers := make([]int32, retried)
		for i := 0; i < retried; i++ {
			b.fail(ids[i], execs[i], "ReadTimeout", msgReadTO)
		}
		for i := 0; i < retried; i++ {
			timers[i] = b.timer(2*time.Second, "", catalyst.OriginNone, "")
		}
		if retried > 0 {
			b.turn()
			for _, t := range timers {
				b.fire(t)
			}
			for i := 0; i < retried; i++ {
				b.schedAs(ids[i], name, execs[i], `{"to":"+1555010`+strconv.Itoa(i)+`"}`)
			}
		}
		for i := range ids {
			b.wait(10*time.Millisecond).turn().done(ids[i], execs[i], `{"sid":"SM`+strconv.Itoa(i)+`"}`)
		}
		b.complete(catalyst.StatusCompleted)
		return b.history()
	}
}

// fanOutDotnet: ten .NET calls; three time out in one turn, their timers
// (origin = each first id) fire in one turn and the retries get new ids.
func fanOutDotnet() *catalyst.History {
	b := newHB("BatchCharge")
	b.turn().start("e1")
	const n, retried = 10, 3
	ids := make([]int32, n)
	execs := make([]string, n)
	for i := range ids {
		execs[i] = "aaaaaaaa-0000-4000-8000-" + strconv.Itoa(100000000000+i)
		ids[i] = b.sched("ChargeCard", execs[i], `{"orderId":"A-`+strconv.Itoa(i)+`"}`)
	}
	b.wait(30 * time.Second).turn()
	timers := make([]int32, retried)
	for i := 0; i < retried; i++ {
		b.fail(ids[i], execs[i], "System.Threading.Tasks.TaskCanceledException", msgCanceled)
	}
	for i := 0; i < retried; i++ {
		timers[i] = b.timer(5*time.Second, "", catalyst.OriginActivityRetry, execs[i])
	}
	b.turn()
	for _, t := range timers {
		b.fire(t)
	}
	retryIDs := make([]int32, retried)
	retryExecs := make([]string, retried)
	for i := 0; i < retried; i++ {
		retryExecs[i] = "bbbbbbbb-0000-4000-8000-" + strconv.Itoa(100000000000+i)
		retryIDs[i] = b.sched("ChargeCard", retryExecs[i], `{"orderId":"A-`+strconv.Itoa(i)+`"}`)
	}
	for i := 0; i < retried; i++ {
		b.wait(10*time.Millisecond).turn().done(retryIDs[i], retryExecs[i], `{"chargeId":"ch_r`+strconv.Itoa(i)+`"}`)
	}
	for i := retried; i < n; i++ {
		b.wait(10*time.Millisecond).turn().done(ids[i], execs[i], `{"chargeId":"ch_`+strconv.Itoa(i)+`"}`)
	}
	b.complete(catalyst.StatusCompleted)
	return b.history()
}
