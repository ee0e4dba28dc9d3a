// Package live reads workflow runs and their histories from Diagrid
// Catalyst's MCP server, the one surface that applies the organization's
// data-sharing level. Client implements catalyst.Source.
//
// # Protocol
//
// The client speaks MCP's streamable HTTP transport itself, over resty: each
// message is a JSON-RPC 2.0 POST to the endpoint (default
// https://mcp.cloud.r1.diagrid.io/mcp) with Accept: application/json,
// text/event-stream. A session is initialize (protocolVersion 2025-06-18,
// clientInfo "twice" and its version), the notifications/initialized
// notification, then tools/list once (following nextCursor); after that
// every tools/call carries MCP-Protocol-Version (the version the server
// chose) and Mcp-Session-Id when the server gave one. A JSON answer or an
// event stream are both read; in a stream, the data: lines of each event
// are one message, and the response whose id matches is taken, ignoring
// notifications and server requests. A 404 to a request that carried a
// session id means the server forgot the session: the client opens a new
// one, once.
//
// # Tools and their arguments
//
// Two tools are called, matched by name or by suffix (clients may prefix
// tool names): catalyst_list_workflow_runs and catalyst_get_workflow_run.
// Their argument names are not published, so the client reads each tool's
// inputSchema and maps its values onto the declared properties, comparing
// names without case, '_', '-' or brackets:
//
//	project       projectId, project, projectName (ProjectId and project_id match too)
//	app id        appId, app, appIds, appName, appIdentity
//	run id        instanceId, runId, workflowRunId, workflowInstanceId, executionId, id
//	status        status, runtimeStatus, statuses, runtimeStatuses (spelled as the enum spells it)
//	workflow      workflowName, workflow, workflowNames, name
//	since         startTimeFrom, startAfter, startedAfter, startTime, since, createdAfter, createdFrom, from
//	until         startTimeTo, startBefore, startedBefore, until, createdBefore, createdTo, to
//	page size     pageSize, limit, maxResults, perPage, top, size
//	page token    pageToken, continuationToken, cursor, nextPageToken, continueToken, next, token, page
//
// Values take the declared type (a number or a string, wrapped in a list for
// an array); times are RFC 3339. A value the user gave with no matching
// property, or a required property with no value, is an error naming the
// tool and the properties it declares, before the tool is called. The page
// size is dropped silently when undeclared.
//
// # Results
//
// A tool's document is its structuredContent, else its first text content
// holding a JSON object or array. A run list is a JSON array of rows, or an
// object holding them under items, runs, workflowRuns, workflowExecutions,
// executions, instances, results or data (an object under data is looked
// into once); the next page's token is under nextPageToken,
// continuationToken, next, nextToken, nextCursor, cursor, continue or
// pageToken, at the top or inside metadata, pagination, page or paging. A
// row's fields are read by the same folded names: instanceID (or runId, id,
// …), appId, workflowName, runtimeStatus (or status), createdAt (or
// startTime, startedAt), lastUpdatedAt (or updatedAt, endTime), as RFC 3339
// or Unix seconds or milliseconds. A row without a run id is left out and
// the list marked partial. List payloads are not requested, so they are
// PayloadNotRequested unless a row carries them.
//
// A history document is handed to catalyst.Decode as it came; Fetch returns
// those exact bytes for twice record. The run's id, app and project are
// filled from what was asked for when the history does not say; a history
// of another run than the one asked for is an error.
//
// # Data-sharing level
//
// Config.Level, when the user knows it, is applied as given. Otherwise the
// level is inferred from the history (catalyst.History.InferLevel, as files
// and recordings do) and marked Inferred: full when any payload is present,
// metadata when events carry payloads and not one is present; else it is
// unknown, and absent payloads are marked withheld with "level not
// reported". No response is known to name the level.
//
// # Refusals
//
// Catalyst refuses with {"error":{"kind","message","retryable"}} — as an
// HTTP error body, a JSON-RPC error's data or message, a tool result marked
// isError, or a result holding only that object — or names the kind in plain
// text. Each becomes a *RefusalError with the kind (NOT_AUTHENTICATED,
// NO_ORG, NO_ORGANIZATION, ORG_MISMATCH with both organizations read from
// its message, ORG_UNAVAILABLE, CATALYST_NOT_ENABLED, denied, no-policy,
// unfilterable, DATA_SHARING_RESTRICTED; NO_WORKFLOW_STORE for
// FAILED_PRECONDITION or an unsupported workflow API; FORBIDDEN, NOT_FOUND
// and TOOL_ERROR for HTTP 403, 404 and other tool errors) and what was
// asked for. A refusal marked retryable is retried once, unless it is a
// data-sharing refusal, which never is. NOT_AUTHENTICATED and HTTP 401
// satisfy errors.Is(err, ErrNotAuthenticated).
//
// # Credentials
//
// TokenSources looks, in order, at the CATALYST_TOKEN environment variable
// (through the lookup the command line passes), a token file (refused when
// group or others may read or write it) and a token command (argv without a
// shell unless configured, killed after a timeout, its trimmed standard
// output the token). There is no way to pass the token itself. With no
// token, every call fails with ErrNotAuthenticated before any request, as
// does CheckCredential, which resolves the token and sends nothing. The
// bearer token and x-diagrid-orgid are added by the transport, per request,
// only for the endpoint's exact host over https (plain http only to a
// loopback address); a redirect to another host or from https to http is
// refused. Errors, the debug log and the doctor report never hold the
// token: server text is cleaned of it, cut, and sanitized with safetext.
//
// # Resilience
//
// Every request has a deadline (Config.RequestTimeout, default 30 s) and the
// caller's context bounds the whole operation (the command line's
// --timeout); cancelling it aborts a request or a backoff at once. The
// default transport waits at most RequestTimeout for response headers and
// keeps up to 16 idle connections per host; Config.OnStatus sees every
// answer's status (the fleet scan lowers its concurrency on 429). Connection errors, timeouts, truncated
// bodies and HTTP 429, 502, 503 and 504 are retried (Config.MaxAttempts,
// default 4) after a capped exponential backoff with jitter, or after
// Retry-After (seconds or an HTTP date) when longer; a Retry-After beyond
// Config.RetryAfterCap (default 60 s) fails at once with a RateLimitError
// saying when to retry. Other statuses, malformed answers, refused
// redirects, certificate errors and bodies over Config.MaxBodyBytes
// (default 64 MiB) are never retried. Every tool is read-only, so repeating
// a POST whose answer was lost changes nothing on the server. Pagination
// remembers every token, stops on a repeated one and after Config.MaxPages
// pages (default 50), and returns what it read marked Partial with the
// reason; so does a later page that fails or is cancelled.
package live
