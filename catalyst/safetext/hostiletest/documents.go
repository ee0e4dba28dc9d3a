package hostiletest

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// Field names a place in a history where a document plants a hostile
// string.
type Field string

// The fields Documents plants a hostile string in.
const (
	FieldRunID       Field = "run id"
	FieldAppID       Field = "app id"
	FieldProject     Field = "project"
	FieldStatus      Field = "run status"
	FieldWorkflow    Field = "workflow name"
	FieldActivity    Field = "activity name"
	FieldExecutionID Field = "task execution id"
	FieldErrorType   Field = "error type"
	FieldError       Field = "error message"
	FieldStack       Field = "stack trace"
	FieldInput       Field = "input payload"
	FieldOutput      Field = "output payload (JSON)"
	FieldDescription Field = "recording description"
	FieldEndpoint    Field = "recording endpoint"
)

// Document is one history document, in one of the formats twice reads,
// with a hostile string planted in its fields.
type Document struct {
	// Name names the document's format: "protojson", "catalyst",
	// "dapr-cli", "mcp-result" (a Catalyst MCP tool result wrapping the
	// catalyst document) or "fixture" (a twice saved history wrapping the
	// dapr-cli document).
	Name string
	// Bytes is the document. JSON strings escape only what JSON requires
	// (quote, backslash, C0 controls); DEL, C1, bidi characters and invalid
	// UTF-8 are written raw, as a hostile application's history would hold
	// them.
	Bytes []byte
	// Planted is the text each field holds, exactly as the application
	// wrote it (the fixture's envelope strings become valid UTF-8 on
	// decoding, as encoding/json makes them). Fields the format cannot
	// carry are absent.
	Planted map[Field]string
}

// plainExec is the workflow's execution id, left plain in every document.
const plainExec = "c1d2e3f4-5a6b-4c7d-8e9f-0a1b2c3d7731"

// Documents returns the charge history in every format twice reads
// (ChargeCard fails, is retried after a backoff timer whose origin names
// its execution id, and completes; then the workflow completes), with value planted in every field each format has:
// run and app ids, the workflow and activity names, the task execution id,
// the error type and message, the stack trace, the input payload (as raw
// text) and the output payload (as a JSON document holding value, escaped
// as JSON). Each field holds value behind its own prefix ("Wf", "Act", …)
// so tests can tell the fields apart.
func Documents(value string) []Document {
	p := map[Field]string{
		FieldRunID:       "run-" + value,
		FieldAppID:       "app-" + value,
		FieldProject:     "prj-" + value,
		FieldStatus:      "COMPLETED" + value,
		FieldWorkflow:    "Wf" + value,
		FieldActivity:    "Act" + value,
		FieldExecutionID: "exec-" + value,
		FieldErrorType:   "Err" + value,
		FieldError:       "msg" + value,
		FieldStack:       "stack" + value + "\n\tat charge.go:12\n" + value,
		FieldInput:       "in" + value,
		FieldOutput:      `{"note":` + Quote(value) + `}`,
		FieldDescription: "desc" + value,
		FieldEndpoint:    "mcp.example" + value,
	}
	only := func(fields ...Field) map[Field]string {
		m := make(map[Field]string, len(fields))
		for _, f := range fields {
			m[f] = p[f]
		}
		return m
	}
	proto := protoJSON(p)
	flat := catalystFlat(p)
	cli := daprCLI(p)
	return []Document{
		{Name: "protojson", Bytes: proto, Planted: only(FieldRunID, FieldAppID, FieldWorkflow, FieldActivity,
			FieldExecutionID, FieldErrorType, FieldError, FieldStack, FieldInput, FieldOutput)},
		{Name: "catalyst", Bytes: flat, Planted: only(FieldRunID, FieldAppID, FieldProject, FieldStatus, FieldWorkflow,
			FieldActivity, FieldExecutionID, FieldErrorType, FieldError, FieldStack, FieldInput, FieldOutput)},
		{Name: "dapr-cli", Bytes: cli, Planted: only(FieldAppID, FieldWorkflow, FieldActivity, FieldExecutionID,
			FieldErrorType, FieldError, FieldInput, FieldOutput)},
		{Name: "mcp-result", Bytes: mcpResult(flat), Planted: only(FieldRunID, FieldAppID, FieldProject, FieldStatus,
			FieldWorkflow, FieldActivity, FieldExecutionID, FieldErrorType, FieldError, FieldStack, FieldInput, FieldOutput)},
		{Name: "fixture", Bytes: fixture(cli, p), Planted: only(FieldRunID, FieldAppID, FieldProject, FieldWorkflow,
			FieldActivity, FieldExecutionID, FieldErrorType, FieldError, FieldInput, FieldOutput, FieldDescription, FieldEndpoint)},
	}
}

// Quote returns s as a JSON string literal that escapes only what JSON
// requires: '"', '\\' and the C0 controls. Everything else, invalid UTF-8
// included, is copied raw.
func Quote(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c < 0x20:
			const hexDigits = "0123456789abcdef"
			b.WriteString(`\u00`)
			b.WriteByte(hexDigits[c>>4])
			b.WriteByte(hexDigits[c&0xf])
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// lines joins JSON lines into an array or object body.
func lines(ls ...string) string { return strings.Join(ls, ",\n ") }

func protoJSON(p map[Field]string) []byte {
	q := func(f Field) string { return Quote(p[f]) }
	router := `"router":{"sourceAppID":` + q(FieldAppID) + `}`
	exec := `"taskExecutionId":` + q(FieldExecutionID)
	return []byte(`{"events":[
 ` + lines(
		`{"eventId":-1,"timestamp":"2026-08-20T09:14:03.201Z","workflowStarted":{}}`,
		`{"eventId":-1,"timestamp":"2026-08-20T09:14:03.187Z","executionStarted":{"name":`+q(FieldWorkflow)+
			`,"input":`+q(FieldInput)+`,"workflowInstance":{"instanceId":`+q(FieldRunID)+`,"executionId":"`+plainExec+`"}},`+router+`}`,
		`{"eventId":0,"timestamp":"2026-08-20T09:14:03.240Z","taskScheduled":{"name":`+q(FieldActivity)+`,"input":`+q(FieldInput)+`,`+exec+`},`+router+`}`,
		`{"eventId":-1,"timestamp":"2026-08-20T09:14:04.010Z","workflowStarted":{}}`,
		`{"eventId":-1,"timestamp":"2026-08-20T09:14:03.998Z","taskFailed":{"taskScheduledId":0,"failureDetails":{"errorType":`+q(FieldErrorType)+
			`,"errorMessage":`+q(FieldError)+`,"stackTrace":`+q(FieldStack)+`},`+exec+`},`+router+`}`,
		`{"eventId":1,"timestamp":"2026-08-20T09:14:04.031Z","timerCreated":{"fireAt":"2026-08-20T09:14:09.010Z","activityRetry":{`+exec+`}}}`,
		`{"eventId":-1,"timestamp":"2026-08-20T09:14:09.052Z","workflowStarted":{}}`,
		`{"eventId":-1,"timestamp":"2026-08-20T09:14:09.041Z","timerFired":{"fireAt":"2026-08-20T09:14:09.010Z","timerId":1}}`,
		`{"eventId":2,"timestamp":"2026-08-20T09:14:09.070Z","taskScheduled":{"name":`+q(FieldActivity)+`,"input":`+q(FieldInput)+`,`+exec+`},`+router+`}`,
		`{"eventId":-1,"timestamp":"2026-08-20T09:14:09.655Z","workflowStarted":{}}`,
		`{"eventId":-1,"timestamp":"2026-08-20T09:14:09.640Z","taskCompleted":{"taskScheduledId":2,"result":`+q(FieldOutput)+`,`+exec+`},`+router+`}`,
		`{"eventId":3,"timestamp":"2026-08-20T09:14:09.671Z","executionCompleted":{"workflowStatus":"ORCHESTRATION_STATUS_COMPLETED","result":`+q(FieldOutput)+`},`+router+`}`,
	) + `
]}
`)
}

func catalystFlat(p map[Field]string) []byte {
	q := func(f Field) string { return Quote(p[f]) }
	exec := `"task_execution_id":` + q(FieldExecutionID)
	router := `"router_source_app_id":` + q(FieldAppID)
	return []byte(`{"instanceID":` + q(FieldRunID) + `,"workflowName":` + q(FieldWorkflow) + `,"runtimeStatus":` + q(FieldStatus) +
		`,"createdAt":"2026-08-20T09:14:03Z","lastUpdatedAt":"2026-08-20T09:14:10Z","appId":` + q(FieldAppID) +
		`,"projectId":` + q(FieldProject) + `,"history":[
 ` + lines(
		`{"event_id":-1,"event_type":"WorkflowStarted","timestamp":"2026-08-20T09:14:03.201Z"}`,
		`{"event_id":-1,"event_type":"ExecutionStarted","timestamp":"2026-08-20T09:14:03.187Z","name":`+q(FieldWorkflow)+
			`,"input":`+q(FieldInput)+`,"workflow_instance_instance_id":`+q(FieldRunID)+`,"workflow_instance_execution_id":"`+plainExec+`"}`,
		`{"event_id":0,"event_type":"TaskScheduled","timestamp":"2026-08-20T09:14:03.240Z","name":`+q(FieldActivity)+`,"input":`+q(FieldInput)+`,`+exec+`,`+router+`}`,
		`{"event_id":-1,"event_type":"WorkflowStarted","timestamp":"2026-08-20T09:14:04.010Z"}`,
		`{"event_id":-1,"event_type":"TaskFailed","timestamp":"2026-08-20T09:14:03.998Z","task_scheduled_id":0,`+exec+
			`,"failure_details_error_type":`+q(FieldErrorType)+`,"failure_details_error_message":`+q(FieldError)+
			`,"failure_details_stack_trace":`+q(FieldStack)+`,`+router+`}`,
		`{"event_id":1,"event_type":"TimerCreated","timestamp":"2026-08-20T09:14:04.031Z","fire_at":"2026-08-20T09:14:09.010Z","origin__activity_retry_task_execution_id":`+q(FieldExecutionID)+`}`,
		`{"event_id":-1,"event_type":"WorkflowStarted","timestamp":"2026-08-20T09:14:09.052Z"}`,
		`{"event_id":-1,"event_type":"TimerFired","timestamp":"2026-08-20T09:14:09.041Z","fire_at":"2026-08-20T09:14:09.010Z","timer_id":1}`,
		`{"event_id":2,"event_type":"TaskScheduled","timestamp":"2026-08-20T09:14:09.070Z","name":`+q(FieldActivity)+`,"input":`+q(FieldInput)+`,`+exec+`,`+router+`}`,
		`{"event_id":-1,"event_type":"WorkflowStarted","timestamp":"2026-08-20T09:14:09.655Z"}`,
		`{"event_id":-1,"event_type":"TaskCompleted","timestamp":"2026-08-20T09:14:09.640Z","task_scheduled_id":2,`+exec+`,"output":`+q(FieldOutput)+`,`+router+`}`,
		`{"event_id":3,"event_type":"ExecutionCompleted","timestamp":"2026-08-20T09:14:09.671Z","workflow_status":"ORCHESTRATION_STATUS_COMPLETED","output":`+q(FieldOutput)+`}`,
	) + `
]}
`)
}

// daprCLI writes the rows `dapr workflow history -o json` prints (v1.18).
// The CLI prints no run id and no stack traces; its attrs are "k=v" pairs
// joined by ';', so the planted values sit where free text may hold ';'.
func daprCLI(p map[Field]string) []byte {
	q := func(f Field) string { return Quote(p[f]) }
	attrs := func(pairs ...string) string { return `,"attrs":` + Quote(strings.Join(pairs, ";")) }
	row := func(play int, typ, rest string) string {
		return `{"namespace":"default","appID":` + q(FieldAppID) + `,"play":` + string(rune('0'+play)) + `,"type":"` + typ + `"` + rest + `}`
	}
	exec := `,"executionId":` + q(FieldExecutionID)
	return []byte(`[
 ` + lines(
		row(0, "ExecutionStarted", `,"name":`+q(FieldWorkflow)+`,"timestamp":"2026-08-20T09:14:03Z","elapsed":"Age:2.1h","status":"RUNNING","details":"workflowStart","executionId":"`+plainExec+`"`+attrs("input="+p[FieldInput])),
		row(1, "WorkflowStarted", `,"name":null,"timestamp":"2026-08-20T09:14:03Z","elapsed":"14.4ms","status":"RUNNING","details":"replay"`),
		row(1, "TaskScheduled", `,"name":`+q(FieldActivity)+`,"eventId":0,"timestamp":"2026-08-20T09:14:03Z","elapsed":"38.3ms","status":"RUNNING","details":null`+exec+attrs("input="+p[FieldInput])),
		row(1, "TaskFailed", `,"name":null,"timestamp":"2026-08-20T09:14:03Z","elapsed":"758.6ms","status":"FAILED","details":null`+exec+
			attrs("scheduledId=0", "errorType="+p[FieldErrorType], "errorMsg="+p[FieldError])),
		row(2, "WorkflowStarted", `,"name":null,"timestamp":"2026-08-20T09:14:04Z","elapsed":"11.8ms","status":"RUNNING","details":"replay"`),
		row(2, "TimerCreated", `,"name":null,"eventId":1,"timestamp":"2026-08-20T09:14:04Z","elapsed":"20.5ms","status":"RUNNING","details":null`+
			attrs("fireAt=2026-08-20T09:14:09Z", "origin=activityRetry", "taskExecId="+p[FieldExecutionID])),
		row(2, "TimerFired", `,"name":null,"timestamp":"2026-08-20T09:14:09Z","elapsed":"5.01s","status":"RUNNING","details":null`+attrs("timerId=1", "fireAt=2026-08-20T09:14:09Z")),
		row(3, "WorkflowStarted", `,"name":null,"timestamp":"2026-08-20T09:14:09Z","elapsed":"11.0ms","status":"RUNNING","details":"replay"`),
		row(3, "TaskScheduled", `,"name":`+q(FieldActivity)+`,"eventId":2,"timestamp":"2026-08-20T09:14:09Z","elapsed":"18.5ms","status":"RUNNING","details":null`+exec+attrs("input="+p[FieldInput])),
		row(3, "TaskCompleted", `,"name":null,"timestamp":"2026-08-20T09:14:09Z","elapsed":"401.1ms","status":"RUNNING","details":"eventId=2"`+exec+attrs("scheduledId=2", "output="+p[FieldOutput])),
		row(4, "WorkflowStarted", `,"name":null,"timestamp":"2026-08-20T09:14:09Z","elapsed":"14.4ms","status":"RUNNING","details":"replay"`),
		row(4, "ExecutionCompleted", `,"name":null,"eventId":3,"timestamp":"2026-08-20T09:14:09Z","elapsed":"14.4ms","status":"COMPLETED","details":"execDuration=6s"`+attrs("output="+p[FieldOutput])),
	) + `
]`)
}

// mcpResult wraps a document as the text of a Catalyst MCP tool result.
func mcpResult(doc []byte) []byte {
	return []byte(`{"content":[{"type":"text","text":` + Quote(string(doc)) + `}],"isError":false}`)
}

// fixture wraps history as a twice saved history (schema_version 1) whose
// envelope names the run, app, project, endpoint and description.
func fixture(history []byte, p map[Field]string) []byte {
	sum := sha256.Sum256(history)
	q := func(f Field) string { return Quote(p[f]) }
	return []byte(`{"schema_version":1,"producer":{"name":"twice","version":"0.1.0"},"captured_at":"2026-12-02T10:00:00Z",` +
		`"description":` + q(FieldDescription) + `,` +
		`"source":{"surface":"dapr-cli","endpoint":` + q(FieldEndpoint) + `,"project":` + q(FieldProject) +
		`,"app_id":` + q(FieldAppID) + `,"run_id":` + q(FieldRunID) + `},` +
		`"data_sharing_level":"","redactions":[],"truncated":false,"format":"dapr-cli",` +
		`"sha256":"` + hex.EncodeToString(sum[:]) + `","history":` + string(history) + "}\n")
}
