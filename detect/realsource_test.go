package detect

// The real-source suite: histories built from the engine's own types
// (realsource_scenarios_test.go), written as each real source writes them —
// protojson with every marshal option (google.golang.org/protobuf
// encoding/protojson, as Dapr's GetInstanceHistory serves it), the Dapr
// CLI's rows at v1.18.0 (realsource_cli_test.go, live) and at v1.16.4 and
// v1.17.0 with durabletask-go v0.10.1, v0.11.0 and v0.12.1 protojson
// (testdata/realsource, generated once by testdata/realsource/gen) — then
// decoded and analysed. Each case checks every event's type, ids, times,
// payload state and failure chain against the source event, and each
// scenario's run facts and invocations.

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dapr/durabletask-go/api/protos"
	"google.golang.org/protobuf/encoding/protodelim"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/twice-cli/twice/catalyst"
)

var updateRealSource = flag.Bool("update-realsource", false,
	"rewrite testdata/realsource/scenarios/*.binpb, the input of testdata/realsource/gen")

// rsCLINow stands for the moment the CLI ran (its first row's "Age:").
var rsCLINow = time.Date(2026, 8, 21, 9, 0, 0, 0, time.UTC)

// rsSource is one way a real source writes a history.
type rsSource struct {
	name string
	// cli is the Dapr CLI's minor version (16, 17, 18), 0 for protojson.
	cli int
	// dtgo is the minor version of the durabletask-go whose types wrote
	// it (10, 11, 12, 14): a field that version does not know is not there.
	dtgo int
	// write returns the history's bytes; file, when set, names the
	// committed file instead.
	write func(sc rsScenario) []byte
	file  string
}

// rsProtoOptions are every protojson marshal option, one at a time and all
// at once.
func rsProtoOptions() map[string]protojson.MarshalOptions {
	return map[string]protojson.MarshalOptions{
		"protojson":                     {},
		"protojson-indent":              {Multiline: true, Indent: "  "},
		"protojson-emit-unpopulated":    {EmitUnpopulated: true},
		"protojson-emit-default-values": {EmitDefaultValues: true},
		"protojson-enum-numbers":        {UseEnumNumbers: true},
		"protojson-proto-names":         {UseProtoNames: true},
		"protojson-all": {Multiline: true, Indent: "\t", EmitUnpopulated: true, UseEnumNumbers: true,
			UseProtoNames: true, AllowPartial: true},
	}
}

func rsSources() []rsSource {
	var out []rsSource
	for name, o := range rsProtoOptions() {
		out = append(out, rsSource{name: name + " (durabletask-go v0.14.0)", dtgo: 14, write: func(sc rsScenario) []byte {
			b, err := o.Marshal(&protos.GetInstanceHistoryResponse{Events: sc.events})
			if err != nil {
				panic(err)
			}
			return b
		}})
	}
	out = append(out, rsSource{name: "dapr-cli-v1.18.0 (live, durabletask-go v0.14.0)", cli: 18, dtgo: 14, write: func(sc rsScenario) []byte {
		return rsCLI118(sc.events, "default", sc.app, rsCLINow)
	}})
	for _, v := range []struct {
		dir       string
		cli, dtgo int
	}{{"dapr-cli-v1.16.4", 16, 10}, {"dapr-cli-v1.17.0", 17, 11},
		{"protojson-durabletask-go-v0.10.1", 0, 10}, {"protojson-durabletask-go-v0.11.0", 0, 11},
		{"protojson-durabletask-go-v0.12.1", 0, 12}} {
		out = append(out, rsSource{name: v.dir, cli: v.cli, dtgo: v.dtgo, file: v.dir})
	}
	return out
}

// rsDir is where the generated histories are.
const rsDir = "testdata/realsource"

// TestRealSourceScenarioBinaries keeps the generator's input in step with
// the scenarios: each scenario's events, as the engine stores them
// (length-delimited HistoryEvent messages).
func TestRealSourceScenarioBinaries(t *testing.T) {
	var index strings.Builder
	for _, sc := range rsScenarios() {
		index.WriteString(sc.name + "\t" + sc.app + "\n")
		var buf bytes.Buffer
		for _, e := range sc.events {
			if _, err := protodelim.MarshalTo(&buf, e); err != nil {
				t.Fatal(err)
			}
		}
		path := filepath.Join(rsDir, "scenarios", sc.name+".binpb")
		if *updateRealSource {
			if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil || !bytes.Equal(got, buf.Bytes()) {
			t.Errorf("%s differs from the scenario (err %v): run go test ./detect -run TestRealSourceScenarioBinaries "+
				"-update-realsource, then testdata/realsource/gen/generate.sh", path, err)
		}
	}
	path := filepath.Join(rsDir, "scenarios", "index.tsv")
	if *updateRealSource {
		if err := os.WriteFile(path, []byte(index.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if got, err := os.ReadFile(path); err != nil || string(got) != index.String() {
		t.Errorf("%s does not list the scenarios (err %v): rerun with -update-realsource", path, err)
	}
}

// TestRealSources decodes and analyses every scenario from every source.
func TestRealSources(t *testing.T) {
	for _, src := range rsSources() {
		for _, sc := range rsScenarios() {
			t.Run(src.name+"/"+sc.name, func(t *testing.T) {
				var b []byte
				if src.file != "" {
					var err error
					b, err = os.ReadFile(filepath.Join(rsDir, src.file, sc.name+".json"))
					if os.IsNotExist(err) && src.dtgo < 11 && strings.HasPrefix(sc.name, "stalled-") {
						t.Skip("durabletask-go v0.10 has no executionStalled event")
					}
					if err != nil {
						t.Fatal(err)
					}
				} else {
					b = src.write(sc)
				}
				h, err := catalyst.Decode(bytes.NewReader(b), catalyst.DecodeOptions{
					Provenance: catalyst.Provenance{Surface: catalyst.SurfaceFile, Location: sc.name + ".json"}})
				if err != nil {
					t.Fatalf("decode: %v\n%s", err, b)
				}
				if h.UnknownFields != 0 {
					t.Errorf("%d unknown fields", h.UnknownFields)
				}
				rsCheckEvents(t, src, sc, h)
				rsCheckScenario(t, src, sc, h, Analyze(h, Options{}))
			})
		}
	}
}

// rsCheckEvents compares every decoded event with the source event it
// came from.
func rsCheckEvents(t *testing.T, src rsSource, sc rsScenario, h *catalyst.History) {
	t.Helper()
	events := append([]*protos.HistoryEvent(nil), sc.events...)
	if src.cli > 0 {
		rsCLISort(events)
	}
	if h.Len() != len(events) {
		t.Fatalf("%d events, want %d", h.Len(), len(events))
	}
	for i, pe := range events {
		got := *h.At(i)
		if src.cli > 0 {
			// The CLI's rows print whole seconds; the decoder rebuilds
			// what it can from their elapsed column, and the instant is
			// still the printed one (checkRowSpans checks the spans).
			got.Timestamp = h.Printed(got.Timestamp)
		}
		want := rsExpect(src, pe)
		if diff := rsDiff(&got, &want); diff != "" {
			t.Errorf("event %d (%s): %s", i, want.Type, diff)
		}
	}
	if src.cli > 0 {
		exact := make([]time.Time, len(events))
		for i, pe := range events {
			exact[i] = pe.GetTimestamp().AsTime()
		}
		checkRowSpans(t, sc.name, h, exact)
	}
}

// rsExpect is the event the source says pe is: everything, for
// protojson; for the CLI's rows, what its code prints.
func rsExpect(src rsSource, pe *protos.HistoryEvent) catalyst.Event {
	var e catalyst.Event
	e.ID = pe.EventId
	e.Timestamp = catalyst.StampOf(pe.Timestamp.AsTime())
	present := func(v interface{ GetValue() string }, isNil bool) catalyst.Payload {
		if isNil {
			return catalyst.AbsentPayload(catalyst.PayloadNone)
		}
		return catalyst.PresentPayload(v.GetValue())
	}
	failure := func(f *protos.TaskFailureDetails) *catalyst.Failure {
		var chain func(f *protos.TaskFailureDetails) *catalyst.Failure
		chain = func(f *protos.TaskFailureDetails) *catalyst.Failure {
			if f == nil {
				return nil
			}
			return &catalyst.Failure{Type: f.ErrorType, Message: f.ErrorMessage, StackTrace: f.GetStackTrace().GetValue(),
				NonRetriable: f.IsNonRetriable, Inner: chain(f.InnerFailure)}
		}
		return chain(f)
	}
	d := &catalyst.EventDetail{}
	switch t := pe.EventType.(type) {
	case *protos.HistoryEvent_WorkflowStarted:
		e.Type = catalyst.EventWorkflowStarted
	case *protos.HistoryEvent_ExecutionStarted:
		es := t.ExecutionStarted
		e.Type, e.Name, e.Payload = catalyst.EventExecutionStarted, es.Name, present(es.Input, es.Input == nil)
		e.InstanceID, e.ExecutionID = es.GetWorkflowInstance().GetInstanceId(), es.GetWorkflowInstance().GetExecutionId().GetValue()
		d.ParentInstanceID = es.GetParentInstance().GetWorkflowInstance().GetInstanceId()
		d.ParentName = es.GetParentInstance().GetName().GetValue()
	case *protos.HistoryEvent_TaskScheduled:
		ts := t.TaskScheduled
		e.Type, e.Name, e.Payload, e.ExecutionID = catalyst.EventTaskScheduled, ts.Name, present(ts.Input, ts.Input == nil), ts.TaskExecutionId
		d.RerunParentInstanceID = ts.GetRerunParentInstanceInfo().GetInstanceID()
	case *protos.HistoryEvent_TaskCompleted:
		tc := t.TaskCompleted
		e.Type, e.ScheduledID, e.Payload, e.ExecutionID = catalyst.EventTaskCompleted, tc.TaskScheduledId, present(tc.Result, tc.Result == nil), tc.TaskExecutionId
	case *protos.HistoryEvent_TaskFailed:
		tf := t.TaskFailed
		e.Type, e.ScheduledID, e.Failure, e.ExecutionID = catalyst.EventTaskFailed, tf.TaskScheduledId, failure(tf.FailureDetails), tf.TaskExecutionId
	case *protos.HistoryEvent_TimerCreated:
		tc := t.TimerCreated
		e.Type, e.Name, e.FireAt = catalyst.EventTimerCreated, tc.GetName(), catalyst.StampOf(tc.FireAt.AsTime())
		d.RerunParentInstanceID = tc.GetRerunParentInstanceInfo().GetInstanceID()
		switch o := tc.Origin.(type) {
		case *protos.TimerCreatedEvent_CreateTimer:
			e.Origin = catalyst.OriginCreateTimer
		case *protos.TimerCreatedEvent_ExternalEvent:
			e.Origin, e.OriginID = catalyst.OriginExternalEvent, o.ExternalEvent.Name
		case *protos.TimerCreatedEvent_ActivityRetry:
			e.Origin, e.OriginID = catalyst.OriginActivityRetry, o.ActivityRetry.TaskExecutionId
		case *protos.TimerCreatedEvent_ChildWorkflowRetry:
			e.Origin, e.OriginID = catalyst.OriginChildWorkflowRetry, o.ChildWorkflowRetry.InstanceId
		}
	case *protos.HistoryEvent_TimerFired:
		e.Type, e.TimerID, e.FireAt = catalyst.EventTimerFired, t.TimerFired.TimerId, catalyst.StampOf(t.TimerFired.FireAt.AsTime())
	case *protos.HistoryEvent_ChildWorkflowInstanceCreated:
		cc := t.ChildWorkflowInstanceCreated
		e.Type, e.Name, e.InstanceID, e.Payload = catalyst.EventChildWorkflowCreated, cc.Name, cc.InstanceId, present(cc.Input, cc.Input == nil)
		d.RerunParentInstanceID = cc.GetRerunParentInstanceInfo().GetInstanceID()
		d.RetryParentInstanceID = cc.GetRetryParentInstanceInfo().GetInstanceID()
	case *protos.HistoryEvent_ChildWorkflowInstanceCompleted:
		cc := t.ChildWorkflowInstanceCompleted
		e.Type, e.ScheduledID, e.Payload = catalyst.EventChildWorkflowCompleted, cc.TaskScheduledId, present(cc.Result, cc.Result == nil)
	case *protos.HistoryEvent_ChildWorkflowInstanceFailed:
		cf := t.ChildWorkflowInstanceFailed
		e.Type, e.ScheduledID, e.Failure = catalyst.EventChildWorkflowFailed, cf.TaskScheduledId, failure(cf.FailureDetails)
	case *protos.HistoryEvent_ExecutionCompleted:
		ec := t.ExecutionCompleted
		e.Type, e.Payload, e.Failure = catalyst.EventExecutionCompleted, present(ec.Result, ec.Result == nil), failure(ec.FailureDetails)
		d.WorkflowStatus = catalyst.Status(ec.WorkflowStatus.String())
	case *protos.HistoryEvent_ExecutionSuspended:
		e.Type, e.Payload = catalyst.EventExecutionSuspended, present(t.ExecutionSuspended.Input, t.ExecutionSuspended.Input == nil)
	case *protos.HistoryEvent_ExecutionResumed:
		e.Type, e.Payload = catalyst.EventExecutionResumed, present(t.ExecutionResumed.Input, t.ExecutionResumed.Input == nil)
	case *protos.HistoryEvent_ExecutionTerminated:
		e.Type, e.Payload = catalyst.EventExecutionTerminated, present(t.ExecutionTerminated.Input, t.ExecutionTerminated.Input == nil)
	case *protos.HistoryEvent_ContinueAsNew:
		e.Type, e.Payload = catalyst.EventContinueAsNew, present(t.ContinueAsNew.Input, t.ContinueAsNew.Input == nil)
	case *protos.HistoryEvent_ExecutionStalled:
		e.Type = catalyst.EventExecutionStalled
		d.StallReason, d.StallDescription = t.ExecutionStalled.Reason.String(), t.ExecutionStalled.GetDescription()
	case *protos.HistoryEvent_EventRaised:
		e.Type, e.Name, e.Payload = catalyst.EventEventRaised, t.EventRaised.Name, present(t.EventRaised.Input, t.EventRaised.Input == nil)
	default:
		panic(fmt.Sprintf("no expectation for %T", pe.EventType))
	}
	if rt := pe.Router; rt != nil {
		e.Router = &catalyst.Router{Source: rt.SourceAppID, Target: rt.GetTargetAppID()}
	}
	// Fields the version that wrote the history does not know.
	if src.dtgo < 14 {
		d.RetryParentInstanceID = ""
	}
	if src.dtgo < 12 {
		e.Origin, e.OriginID = catalyst.OriginNone, ""
	}
	if src.dtgo < 11 {
		d.RerunParentInstanceID = ""
	}
	if *d != (catalyst.EventDetail{}) {
		e.Detail = d
	}
	if src.cli > 0 {
		rsCLIView(src.cli, pe, &e)
	}
	return e
}

// rsCLIView narrows an expected event to what the Dapr CLI's row of it
// carries (dapr/cli pkg/workflow/history.go at the version's tag).
func rsCLIView(cli int, pe *protos.HistoryEvent, e *catalyst.Event) {
	e.Timestamp = catalyst.StampOf(pe.Timestamp.AsTime().Truncate(time.Second))
	if e.FireAt != 0 {
		e.FireAt = catalyst.StampOf(e.FireAt.Time().Truncate(time.Second))
	}
	// eventId: printed when > 0; 0 is printed for TaskScheduled and
	// TimerCreated; any other numbered event without one is action 0.
	switch {
	case pe.EventId > 0:
	case e.Type.IsNumbered():
		e.ID = 0
	default:
		e.ID = -1
	}
	d := e.Detail
	if d == nil {
		d = &catalyst.EventDetail{}
	}
	// cut is the CLI's trim and addAttr: a payload that is absent, or
	// empty once a JSON string is unquoted, prints nothing, so the rows
	// cannot say which it was.
	cut := func(limit int) {
		if e.Payload.State != catalyst.PayloadPresent {
			e.Payload = catalyst.AbsentPayload(catalyst.PayloadNoneOrEmpty)
			return
		}
		if s := rsTrim(rsStr(e.Payload.Text()), limit); s != "" {
			e.Payload = catalyst.PresentPayload(s)
		} else {
			e.Payload = catalyst.AbsentPayload(catalyst.PayloadNoneOrEmpty)
		}
	}
	notPrinted := catalyst.AbsentPayload(catalyst.PayloadNotInFormat)
	switch e.Type {
	case catalyst.EventExecutionStarted:
		cut(120)
		e.InstanceID = "" // the row names no instance
		d.ParentName = ""
	case catalyst.EventTaskScheduled, catalyst.EventEventRaised:
		cut(120)
	case catalyst.EventTaskCompleted:
		cut(120)
	case catalyst.EventTaskFailed:
		e.Failure.StackTrace, e.Failure.Inner = "", nil
		if len([]rune(e.Failure.Message)) > 160 {
			e.Failure.Message = rsTrim(rsStr(e.Failure.Message), 160)
		}
	case catalyst.EventChildWorkflowCreated:
		e.InstanceID, d.RetryParentInstanceID = "", ""
		if cli == 16 {
			e.Payload = notPrinted
		} else {
			cut(120)
		}
	case catalyst.EventChildWorkflowCompleted:
		if cli == 16 {
			e.Payload, e.ScheduledID = notPrinted, catalyst.NoID
		} else {
			cut(120)
		}
	case catalyst.EventChildWorkflowFailed:
		e.ScheduledID, e.Failure = catalyst.NoID, nil
	case catalyst.EventExecutionCompleted:
		cut(160)
		if e.Failure != nil {
			e.Failure.StackTrace, e.Failure.Inner = "", nil
		}
		d.WorkflowStatus = catalyst.Status(strings.TrimPrefix(string(d.WorkflowStatus), "ORCHESTRATION_STATUS_"))
	case catalyst.EventExecutionSuspended, catalyst.EventExecutionResumed, catalyst.EventExecutionTerminated,
		catalyst.EventContinueAsNew:
		e.Payload = notPrinted
	case catalyst.EventTimerCreated:
		if cli < 18 {
			e.Origin, e.OriginID = catalyst.OriginNone, ""
		}
	}
	if cli == 16 {
		// v1.16 prints no rerun parent, nor a child's parent.
		d.RerunParentInstanceID, d.ParentInstanceID = "", ""
	}
	if *d != (catalyst.EventDetail{}) {
		e.Detail = d
	} else {
		e.Detail = nil
	}
}

// rsDiff lists how got differs from want.
func rsDiff(got, want *catalyst.Event) string {
	var diffs []string
	add := func(field string, g, w any) {
		if g != w {
			diffs = append(diffs, fmt.Sprintf("%s = %v, want %v", field, g, w))
		}
	}
	add("type", got.Type, want.Type)
	add("eventId", got.ID, want.ID)
	add("scheduledId", got.ScheduledID, want.ScheduledID)
	add("timerId", got.TimerID, want.TimerID)
	add("timestamp", got.Timestamp.Time(), want.Timestamp.Time())
	add("fireAt", got.FireAt.Time(), want.FireAt.Time())
	add("name", got.Name, want.Name)
	add("executionId", got.ExecutionID, want.ExecutionID)
	add("instanceId", got.InstanceID, want.InstanceID)
	add("origin", got.Origin, want.Origin)
	add("originId", got.OriginID, want.OriginID)
	add("payload state", got.Payload.State, want.Payload.State)
	add("payload", got.Payload.Text(), want.Payload.Text())
	add("failure", rsFailureText(got.Failure), rsFailureText(want.Failure))
	gr, wr := "", ""
	if got.Router != nil {
		gr = got.Router.Source + "->" + got.Router.Target
	}
	if want.Router != nil {
		wr = want.Router.Source + "->" + want.Router.Target
	}
	add("router", gr, wr)
	gd, wd := catalyst.EventDetail{}, catalyst.EventDetail{}
	if got.Detail != nil {
		gd = *got.Detail
		gd.TypeName, gd.Raw, gd.Version = "", "", ""
	}
	if want.Detail != nil {
		wd = *want.Detail
	}
	if !gd.WorkflowStatus.Is(wd.WorkflowStatus) {
		add("workflowStatus", gd.WorkflowStatus, wd.WorkflowStatus)
	}
	gd.WorkflowStatus, wd.WorkflowStatus = "", ""
	add("detail", fmt.Sprintf("%+v", gd), fmt.Sprintf("%+v", wd))
	return strings.Join(diffs, "; ")
}

func rsFailureText(f *catalyst.Failure) string {
	var parts []string
	for ; f != nil; f = f.Inner {
		parts = append(parts, fmt.Sprintf("{%s|%s|%q|%v}", f.Type, f.Message, f.StackTrace, f.NonRetriable))
	}
	return strings.Join(parts, " caused by ")
}

// rsWantInv is an invocation a scenario must give.
type rsWantInv struct {
	name     string
	link     LinkRule
	outcomes []Outcome
	// paired says how each attempt's outcome was tied to it (0: none).
	paired []LinkRule
}

// rsWantRun is what the run facts must say.
type rsWantRun struct {
	id, app, parent, link string
	rerunOf               string
	rerunFrom             int32
}

// rsCheckScenario checks a scenario's run facts and invocations.
func rsCheckScenario(t *testing.T, src rsSource, sc rsScenario, h *catalyst.History, r *Report) {
	t.Helper()
	cli := src.cli
	run := rsWantRun{id: sc.instance, app: sc.app}
	if cli > 0 {
		run.id = "" // the CLI's rows name no instance
	}
	var invs []rsWantInv
	byID := func(n int) []LinkRule { return rsRepeat(LinkByID, n) }
	switch sc.name {
	case "activity-retry":
		invs = []rsWantInv{{"ChargeCard", LinkByID, []Outcome{OutcomeFailed, OutcomeCompleted}, byID(2)}}
	case "parallel-children":
		switch {
		case cli == 0:
			invs = []rsWantInv{{"ShipA", LinkFirst, []Outcome{OutcomeFailed}, byID(1)},
				{"ShipB", LinkFirst, []Outcome{OutcomeCompleted}, byID(1)}}
		case cli == 16:
			// Neither outcome names its call and both calls are open when
			// each arrives: which is which is unknown.
			invs = []rsWantInv{{"ShipA", LinkFirst, []Outcome{OutcomeUnknown}, []LinkRule{0}},
				{"ShipB", LinkFirst, []Outcome{OutcomeUnknown}, []LinkRule{0}}}
		default:
			invs = []rsWantInv{{"ShipA", LinkInferred, []Outcome{OutcomeFailed}, []LinkRule{LinkInferred}},
				{"ShipB", LinkFirst, []Outcome{OutcomeCompleted}, byID(1)}}
		}
	case "child-retry":
		switch {
		case cli == 0 && src.dtgo >= 14: // retryParentInstanceInfo
			invs = []rsWantInv{{"ShipOrder", LinkByID, []Outcome{OutcomeFailed, OutcomeCompleted}, byID(2)}}
		case cli == 0 && src.dtgo == 12: // the retry timer's origin
			invs = []rsWantInv{{"ShipOrder", LinkByOrigin, []Outcome{OutcomeFailed, OutcomeCompleted}, byID(2)}}
		case cli == 0: // the timer's name alone
			invs = []rsWantInv{{"ShipOrder", LinkInferred, []Outcome{OutcomeFailed, OutcomeCompleted}, byID(2)}}
		case cli == 16:
			invs = []rsWantInv{{"ShipOrder", LinkInferred, []Outcome{OutcomeFailed, OutcomeCompleted}, []LinkRule{LinkInferred, LinkInferred}}}
		default:
			invs = []rsWantInv{{"ShipOrder", LinkInferred, []Outcome{OutcomeFailed, OutcomeCompleted}, []LinkRule{LinkInferred, LinkByID}}}
		}
	case "suspend-resume-terminate":
		invs = []rsWantInv{{"SendWelcomeEmail", LinkFirst, []Outcome{OutcomeUnknown}, []LinkRule{0}}}
	case "continue-as-new":
		invs = []rsWantInv{{"SendReminder", LinkFirst, []Outcome{OutcomeCompleted}, byID(1)}}
	case "rerun":
		invs = []rsWantInv{{"ReserveStock", LinkFirst, []Outcome{OutcomeCompleted}, byID(1)},
			{"ChargeCard", LinkFirst, []Outcome{OutcomeCompleted}, byID(1)}}
		// The history is the source run's up to the fork: its id is not
		// this run's, and a file does not say this run's.
		run.id = ""
		if cli != 16 {
			run.rerunOf, run.rerunFrom = "order-5005", 1
		}
		if src.dtgo < 11 && cli == 0 {
			// durabletask-go v0.10.1 has no rerunParentInstanceInfo: the
			// history reads as the source run's own.
			run.id, run.rerunOf, run.rerunFrom = "order-5005", "", 0
		}
	case "cross-app-child":
		invs = []rsWantInv{{"BookCarrier", LinkFirst, []Outcome{OutcomeCompleted}, byID(1)}}
		if cli != 16 {
			run.parent = "order-6006"
		}
	}
	if run.id != "" && run.app != "" {
		run.link = "https://catalyst.diagrid.io/workflows/" + run.app + "/" + run.id
	}
	got := h.Run
	link, _ := catalyst.ConsoleLink("", got)
	gotRun := rsWantRun{id: got.ID, app: got.AppID, parent: got.ParentID, link: link,
		rerunOf: got.RerunOf, rerunFrom: got.RerunFrom}
	if gotRun != run {
		t.Errorf("run = %+v, want %+v", gotRun, run)
	}
	if len(r.Invocations) != len(invs) {
		t.Fatalf("%d invocations, want %d: %+v", len(r.Invocations), len(invs), r.Invocations)
	}
	for i, w := range invs {
		inv := &r.Invocations[i]
		var outcomes []Outcome
		var paired []LinkRule
		for _, a := range inv.Attempts {
			outcomes = append(outcomes, a.Outcome)
			paired = append(paired, a.OutcomeLink)
			note, noted := r.Note(i, a.Number)
			if a.OutcomeLink == LinkInferred && !noted {
				t.Errorf("%s attempt %d: an outcome tied by inference gives no reason", inv.Name, a.Number)
			}
			if cli == 16 && sc.name == "parallel-children" && (!noted || !note.Untied || !strings.Contains(note.Text, "not known")) {
				t.Errorf("%s attempt %d: an outcome no row ties to it says nothing of why (%q)", inv.Name, a.Number, note.Text)
			}
		}
		if inv.Name != w.name || inv.LinkRule != w.link || fmt.Sprint(outcomes) != fmt.Sprint(w.outcomes) ||
			fmt.Sprint(paired) != fmt.Sprint(w.paired) {
			t.Errorf("invocation %d = %s %s outcomes %v paired %v, want %s %s %v %v",
				i, inv.Name, inv.LinkRule, outcomes, paired, w.name, w.link, w.outcomes, w.paired)
		}
	}
}

func rsRepeat(r LinkRule, n int) []LinkRule {
	out := make([]LinkRule, n)
	for i := range out {
		out[i] = r
	}
	return out
}

// TestRealSourceEmptyPayloads: a payload never given, an empty one and an
// empty JSON string are three facts in protojson, and one in the Dapr
// CLI's rows: its addAttr skips an empty value after trim unquotes a JSON
// string (dapr/cli v1.18.0 pkg/workflow/history.go; the same in v1.16.4
// and v1.17.0). There twice says "none or empty", never "none".
func TestRealSourceEmptyPayloads(t *testing.T) {
	c := newRSClock()
	inputs := []*wrapperspb.StringValue{nil, rsStr(""), rsStr(`""`), rsStr(`"x"`)}
	events := []*protos.HistoryEvent{rsWorkflowStarted(c),
		rsExecutionStarted(c, "EmptyWorkflow", "empty-1", "0c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f", "", "orders")}
	for i, in := range inputs {
		ev := rsTaskScheduled(c, int32(i), "Step", "", fmt.Sprintf("exec-%d", i), "orders")
		ev.GetTaskScheduled().Input = in
		events = append(events, ev)
	}
	rsEngineStamps(events)
	proto, err := protojson.Marshal(&protos.GetInstanceHistoryResponse{Events: events})
	if err != nil {
		t.Fatal(err)
	}
	type want struct {
		state catalyst.PayloadState
		text  string
	}
	for _, tt := range []struct {
		name string
		doc  []byte
		want []want // the run's input, then each TaskScheduled's
	}{
		{"protojson", proto, []want{{catalyst.PayloadNone, ""}, {catalyst.PayloadNone, ""},
			{catalyst.PayloadEmpty, ""}, {catalyst.PayloadPresent, `""`}, {catalyst.PayloadPresent, `"x"`}}},
		{"dapr-cli-v1.18.0", rsCLI118(events, "default", "orders", rsCLINow), []want{
			{catalyst.PayloadNoneOrEmpty, ""}, {catalyst.PayloadNoneOrEmpty, ""}, {catalyst.PayloadNoneOrEmpty, ""},
			{catalyst.PayloadNoneOrEmpty, ""}, {catalyst.PayloadPresent, "x"}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h, err := catalyst.Decode(bytes.NewReader(tt.doc), catalyst.DecodeOptions{})
			if err != nil {
				t.Fatal(err)
			}
			got := []want{{h.Run.Input.State, h.Run.Input.Text()}}
			for _, e := range h.All() {
				if e.Type == catalyst.EventTaskScheduled {
					got = append(got, want{e.Payload.State, e.Payload.Text()})
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("payloads %v, want %v", got, tt.want)
			}
			if text := h.Run.DataSharing.PayloadText(h.Run.Input); tt.name != "protojson" && text == "none" {
				t.Errorf("the run's input reads %q: the rows cannot say it was none", text)
			}
		})
	}
}

// TestRealSourceCutInputs: the Dapr CLI cuts an input at 120 runes and
// adds "…" (dapr/cli v1.18.0 pkg/workflow/history.go trim). Two inputs
// that differ after the cut print alike: twice does not call them
// identical, and says the payload-size check cannot run on such rows.
func TestRealSourceCutInputs(t *testing.T) {
	sc := rsActivityRetry()
	n := 0
	for _, e := range sc.events {
		if ts := e.GetTaskScheduled(); ts != nil {
			n++
			ts.Input = rsStr(`{"note":"` + strings.Repeat("x", 140) + fmt.Sprintf(`-%d"}`, n))
		}
	}
	for _, tt := range []struct {
		name string
		doc  []byte
		// evidence must appear in the duplicate finding; never must not.
		evidence, never string
		skipped         bool
	}{
		{"protojson", rsMarshal(t, sc.events), "attempt 2's input differs from attempt 1's", "identical", false},
		{"dapr-cli-v1.18.0", rsCLI118(sc.events, "default", sc.app, rsCLINow),
			"as far as the Dapr CLI's JSON prints them", "one logical call", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h, err := catalyst.Decode(bytes.NewReader(tt.doc), catalyst.DecodeOptions{})
			if err != nil {
				t.Fatal(err)
			}
			r := Analyze(h, Options{})
			f := findingOf(r, FindingDuplicateSideEffect)
			if f == nil {
				t.Fatalf("no duplicate-side-effect finding: %s", describe(r))
			}
			facts := strings.Join(factsOf(*f), "\n")
			if !strings.Contains(facts, tt.evidence) || strings.Contains(facts, tt.never) {
				t.Errorf("evidence:\n%s\nwant %q, never %q", facts, tt.evidence, tt.never)
			}
			skipped := false
			for _, s := range r.Skipped {
				skipped = skipped || s.Check == "payload size" && strings.Contains(s.Reason, "cuts inputs and outputs at 120")
			}
			if skipped != tt.skipped {
				t.Errorf("payload size skipped for the cut: %v, want %v (%+v)", skipped, tt.skipped, r.Skipped)
			}
		})
	}
}

func rsMarshal(t *testing.T, events []*protos.HistoryEvent) []byte {
	t.Helper()
	b, err := protojson.Marshal(&protos.GetInstanceHistoryResponse{Events: events})
	if err != nil {
		t.Fatal(err)
	}
	return b
}
