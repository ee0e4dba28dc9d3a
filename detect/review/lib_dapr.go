package review

// The Dapr SDKs (python-sdk with dapr-ext-workflow, go-sdk, dotnet-sdk):
// pub/sub, state and the workflow contexts' ids. A publish with no
// deterministic id publishes a duplicate; a state save to a key is a
// whole value to a key (idempotent), conditional with an etag or
// first-write concurrency; a state read, changed and saved back to its
// key is a read-modify-write (counter.go).
func libDapr() library {
	const dup = "publishes a duplicate"
	const etag = "the store refuses a save whose etag no longer matches, or a second first write"
	conditional := func(c *libCall) bool { return stateConditional(c.Expr) }
	return library{
		name: "Dapr",
		source: "dapr/python-sdk v1.16 (dapr/clients/grpc/client.py: save_state, get_state, publish_event; ext/dapr-ext-workflow workflow_activity_context.py), " +
			"dapr/go-sdk v1.13 (client/state.go: SaveState, SaveStateWithETag; workflow/activity_context.go), dapr/dotnet-sdk v1.18.5 (DaprClient: SaveStateAsync, TrySaveStateAsync; WorkflowActivityContext.TaskExecutionKey)",
		modules: map[Lang][]string{
			LangPython: {"dapr", "durabletask"},
			LangGo:     {"github.com/dapr/"},
			LangCSharp: {"Dapr"},
		},
		rows: []api{
			// .NET.
			{lang: LangCSharp, methods: []string{"PublishEventAsync", "BulkPublishEventAsync", "PublishByteEventAsync"}, kind: effPublish, what: "publish ({m})", twice: dup,
				refuses: "the subscriber drops a repeated CloudEvent id"},
			{lang: LangCSharp, methods: []string{"TrySaveStateAsync"}, kind: effGuard, what: "state save with an etag ({m})", refuses: etag, key: arg(1, "key")},
			{lang: LangCSharp, methods: []string{"TrySaveAsync", "TrySaveByteStateAsync"}, kind: effGuard, what: "state save with an etag ({m})", refuses: etag},
			{lang: LangCSharp, methods: []string{"SaveStateAsync"}, when: conditional, kind: effGuard, what: "state save with an etag or first-write concurrency ({m})", refuses: etag, key: arg(1, "key")},
			{lang: LangCSharp, methods: []string{"SaveBulkStateAsync", "ExecuteStateTransactionAsync", "SaveByteStateAsync"}, when: conditional,
				kind: effGuard, what: "state save with an etag or first-write concurrency ({m})", refuses: etag},
			{lang: LangCSharp, methods: []string{"SaveStateAsync"}, kind: effIdempotent, what: "state save ({m})", key: arg(1, "key"), store: arg(0, "storeName"), value: arg(2, "value")},
			{lang: LangCSharp, methods: []string{"SaveBulkStateAsync", "ExecuteStateTransactionAsync", "SaveByteStateAsync"}, kind: effIdempotent, what: "state save ({m})"},
			{lang: LangCSharp, methods: []string{"DeleteStateAsync", "TryDeleteStateAsync"}, kind: effIdempotent, what: "{m}"},
			{lang: LangCSharp, methods: []string{"GetStateAsync", "GetStateAndETagAsync"}, kind: effRead, what: "{m}", key: arg(1, "key"), store: arg(0, "storeName")},
			{lang: LangCSharp, methods: []string{"GetBulkStateAsync", "GetStateEntryAsync", "GetByteStateAsync"}, kind: effRead, what: "{m}"},
			{lang: LangCSharp, attr: true, methods: []string{"TaskExecutionKey"}, kind: kindAttemptID,
				what: "the task execution id, which the .NET SDK makes anew for every retry (each attempt is scheduled as a new task)"},
			// Python and Go.
			{methods: []string{"publish_event", "PublishEvent", "PublishEventfromCustomContent", "PublishEvents", "publish_events"}, kind: effPublish, what: "publish ({m})", twice: dup,
				refuses: "the subscriber drops a repeated CloudEvent id"},
			{methods: []string{"SaveStateWithETag"}, kind: effGuard, what: "state save with an etag or first-write concurrency ({m})", refuses: etag, key: arg(2, "")},
			{methods: []string{"save_state"}, when: conditional, kind: effGuard, what: "state save with an etag or first-write concurrency ({m})", refuses: etag, key: arg(1, "key")},
			{methods: []string{"SaveState"}, when: conditional, kind: effGuard, what: "state save with an etag or first-write concurrency ({m})", refuses: etag, key: arg(2, "")},
			{methods: []string{"SaveBulkState", "save_bulk_state"}, when: conditional, kind: effGuard, what: "state save with an etag or first-write concurrency ({m})", refuses: etag},
			{methods: []string{"save_state"}, kind: effIdempotent, what: "state save ({m})", key: arg(1, "key"), store: arg(0, "store_name"), value: arg(2, "value")},
			{methods: []string{"SaveState"}, kind: effIdempotent, what: "state save ({m})", key: arg(2, ""), store: arg(1, ""), value: arg(3, "")},
			{methods: []string{"save_bulk_state", "SaveBulkState", "execute_state_transaction", "ExecuteStateTransaction"}, kind: effIdempotent, what: "state save ({m})"},
			{methods: []string{"get_state"}, kind: effRead, what: "{m}", key: arg(1, "key"), store: arg(0, "store_name")},
			{methods: []string{"GetState"}, kind: effRead, what: "{m}", key: arg(2, ""), store: arg(1, "")},
			{methods: []string{"GetBulkState", "get_bulk_state"}, kind: effRead, what: "{m}"},

			// The activity context's ids (on the activity's context
			// parameter): the per-attempt scheduling id, and the calling
			// workflow's instance id.
			{methods: []string{"GetTaskID"}, kind: kindAttemptID, what: "the per-attempt scheduling id"},
			{attr: true, methods: []string{"task_id", "TaskId", "TaskID"}, kind: kindAttemptID, what: "the per-attempt scheduling id"},
			{attr: true, methods: []string{"workflow_id", "orchestration_id", "InstanceId", "WorkflowId"}, kind: kindWorkflowID, what: "the calling workflow's instance id"},
			// A workflow context's own instance id.
			{attr: true, methods: []string{"instance_id", "InstanceId", "ID", "InstanceID"}, kind: kindInstanceID, what: "the workflow's own instance id"},

			{methods: []string{"GetInput", "get_input", "GetTaskID", "GetTaskExecutionID", "get_inner_context", "Context", "GetTraceContext", "get_propagated_history"}, kind: kindNeutral},
		},
	}
}
