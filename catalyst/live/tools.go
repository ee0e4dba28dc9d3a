package live

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/safetext"
)

// argKey is one of the values twice passes to a tool, independent of the
// name the tool's input schema gives it.
type argKey int

const (
	argProject argKey = iota
	argApp
	argRun
	argStatus
	argWorkflow
	argSince
	argUntil
	argLimit
	argPageToken
	argKeyCount
)

// What each value is, for people: names the flag that sets it.
func (k argKey) String() string {
	switch k {
	case argProject:
		return "the project (--project)"
	case argApp:
		return "the app id (--app)"
	case argRun:
		return "the run id"
	case argStatus:
		return "the status filter (--status)"
	case argWorkflow:
		return "the workflow name filter (--workflow)"
	case argSince:
		return "the start of the time window (--since)"
	case argUntil:
		return "the end of the time window (--until)"
	case argLimit:
		return "the page size"
	case argPageToken:
		return "the page token"
	}
	return "an argument"
}

// candidates lists the property names a tool may give a value, in order of
// preference. Matching ignores case, '_' and '-'.
func (k argKey) candidates() []string {
	switch k {
	case argProject:
		return []string{"projectId", "project", "projectName"}
	case argApp:
		return []string{"appId", "app", "appIds", "appName", "appIdentity"}
	case argRun:
		return []string{"instanceId", "runId", "workflowRunId", "workflowInstanceId", "executionId", "id"}
	case argStatus:
		return []string{"status", "runtimeStatus", "statuses", "runtimeStatuses"}
	case argWorkflow:
		return []string{"workflowName", "workflow", "workflowNames", "name"}
	case argSince:
		return []string{"startTimeFrom", "startAfter", "startedAfter", "startTime", "since", "createdAfter", "createdFrom", "from", "startTimeStart"}
	case argUntil:
		return []string{"startTimeTo", "startBefore", "startedBefore", "until", "createdBefore", "createdTo", "to", "startTimeEnd"}
	case argLimit:
		return []string{"pageSize", "limit", "maxResults", "perPage", "top", "size"}
	case argPageToken:
		return []string{"pageToken", "continuationToken", "cursor", "nextPageToken", "continueToken", "next", "token", "page"}
	}
	return nil
}

// normName folds a property name for matching: lower case, no '_', '-',
// '[' or ']' ("status[]" matches "status").
func normName(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '_' || c == '-' || c == '[' || c == ']' || c == ' ':
			continue
		case 'A' <= c && c <= 'Z':
			c += 'a' - 'A'
		}
		b.WriteByte(c)
	}
	return b.String()
}

// toolInfo is a tool as tools/list declared it: its name, its input
// properties and which of them are required.
type toolInfo struct {
	name     string
	props    map[string]propInfo
	required []string
	// names lists the declared properties, sorted.
	names []string
}

// propInfo is what twice reads of one declared property.
type propInfo struct {
	typ     string // "string", "integer", "number", "array", "boolean", "object" or ""
	itemTyp string // for arrays
	enum    []string
}

type wireSchema struct {
	Properties map[string]wireProp `json:"properties"`
	Required   []string            `json:"required"`
}

type wireProp struct {
	Type  jsontext.Value `json:"type"`
	Enum  []any          `json:"enum"`
	Items *wireProp      `json:"items"`
}

// schemaType reads a JSON-schema "type", which may be a string or a list
// (["string","null"]): the first non-null type.
func schemaType(raw jsontext.Value) string {
	var s string
	if unmarshal(raw, &s) == nil {
		return s
	}
	var list []string
	if unmarshal(raw, &list) == nil {
		for _, t := range list {
			if t != "null" {
				return t
			}
		}
	}
	return ""
}

// parseToolSchema reads a tool's input schema; an unreadable schema gives a
// tool with no declared properties.
func parseToolSchema(name string, raw jsontext.Value) *toolInfo {
	t := &toolInfo{name: name, props: map[string]propInfo{}}
	var ws wireSchema
	if unmarshal(raw, &ws) != nil {
		return t
	}
	for pname, p := range ws.Properties {
		pi := propInfo{typ: schemaType(p.Type)}
		if p.Items != nil {
			pi.itemTyp = schemaType(p.Items.Type)
			if len(p.Enum) == 0 {
				p.Enum = p.Items.Enum
			}
		}
		for _, e := range p.Enum {
			if s, ok := e.(string); ok {
				pi.enum = append(pi.enum, s)
			}
		}
		t.props[pname] = pi
		t.names = append(t.names, pname)
	}
	sort.Strings(t.names)
	t.required = ws.Required
	return t
}

// property returns the declared property that takes value k.
func (t *toolInfo) property(k argKey) (string, bool) {
	for _, cand := range k.candidates() {
		want := normName(cand)
		for _, name := range t.names {
			if normName(name) == want {
				return name, true
			}
		}
	}
	return "", false
}

// declared lists the declared properties for an error message.
func (t *toolInfo) declared() string {
	if len(t.names) == 0 {
		return "none"
	}
	names := make([]string, len(t.names))
	for i, n := range t.names {
		names[i] = safetext.Line(excerpt(n, 64))
	}
	return strings.Join(names, ", ")
}

// argValue is a value twice wants to pass; optional values are dropped
// silently when the tool has no property for them.
type argValue struct {
	key      argKey
	value    any // string, int, or catalyst.Status
	optional bool
}

// buildArgs maps values onto the tool's declared properties, converting
// each to the property's declared type. It fails, naming the tool and its
// declared properties, when a value has no property, or when a required
// property gets no value.
func (t *toolInfo) buildArgs(values []argValue) (map[string]any, error) {
	args := map[string]any{}
	for _, v := range values {
		if isZeroArg(v.value) {
			continue
		}
		name, ok := t.property(v.key)
		if !ok {
			if v.optional {
				continue
			}
			return nil, fmt.Errorf("the server's %s tool declares no argument for %s (it declares: %s); twice cannot pass it",
				safetext.Line(t.name), v.key, t.declared())
		}
		args[name] = t.convert(name, v.value)
	}
	for _, req := range t.required {
		if _, ok := args[req]; !ok {
			what := safetext.Line(excerpt(req, 64))
			for k := argKey(0); k < argKeyCount; k++ {
				if name, ok := t.property(k); ok && name == req {
					what = fmt.Sprintf("%s, %s", what, k)
				}
			}
			return nil, fmt.Errorf("the server's %s tool requires %s, which twice has no value for (it declares: %s)",
				safetext.Line(t.name), what, t.declared())
		}
	}
	return args, nil
}

func isZeroArg(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case string:
		return x == ""
	case catalyst.Status:
		return x == ""
	case int:
		return x == 0
	}
	return false
}

// convert shapes a value for the property's declared type: a number or a
// string, wrapped in a list for an array; a status spelled as the
// property's enum spells it.
func (t *toolInfo) convert(name string, v any) any {
	p := t.props[name]
	typ := p.typ
	if typ == "array" {
		typ = p.itemTyp
	}
	var out any
	switch x := v.(type) {
	case catalyst.Status:
		s := string(x.Normalized())
		for _, e := range p.enum {
			if catalyst.Status(e).Is(x) {
				s = e
				break
			}
		}
		out = s
	case int:
		if typ == "string" {
			out = fmt.Sprint(x)
		} else {
			out = x
		}
	default:
		out = v
	}
	if p.typ == "array" {
		return []any{out}
	}
	return out
}

// toolResult is a successful tools/call result, as catalyst.ParseToolResult
// read it.
type toolResult struct {
	catalyst.ToolResult
	// original is the result as the server sent it, when the answer held
	// the token and this is its redacted copy.
	original *toolResult
}

// toolResult reads a tools/call result; a result marked isError, or whose
// only document is Catalyst's error object, becomes a refusal.
func (c *Client) toolResult(op, tool string, raw jsontext.Value) (*toolResult, error) {
	r, err := catalyst.ParseToolResult(raw)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %s answered %s with an unreadable result (%v)", ErrBadResponse, op, c.host, safetext.Line(tool), err)
	}
	res := &toolResult{ToolResult: *r}
	if res.IsError {
		text := bytes.Join(res.Texts, []byte("\n"))
		if r, ok := parseRefusal(text, true); ok {
			return nil, c.refusal(r, op, tool, 0)
		}
		if r, ok := parseRefusal(res.Structured, true); ok {
			return nil, c.refusal(r, op, tool, 0)
		}
		if len(text) == 0 {
			text = []byte("no message")
		}
		return nil, c.refusal(RefusalError{Kind: KindToolError, Message: string(text)}, op, tool, 0)
	}
	doc, err := res.document()
	if err == nil && isErrorObject(doc) {
		if r, ok := parseRefusal(doc, false); ok {
			return nil, c.refusal(r, op, tool, 0)
		}
	}
	return res, nil
}

// document returns the JSON document a tool returned: its structured
// content, else the first text content holding a JSON object or array.
// The bytes are exactly as sent (the text unescaped from its JSON string).
func (r *toolResult) document() ([]byte, error) {
	if r.Structured != nil {
		return r.Structured, nil
	}
	for _, t := range r.Texts {
		s := bytes.TrimSpace(t)
		if len(s) > 0 && (s[0] == '{' || s[0] == '[') {
			return t, nil
		}
	}
	if len(r.Texts) == 0 {
		return nil, fmt.Errorf("%w: the result has no content", ErrBadResponse)
	}
	return nil, fmt.Errorf("%w: the result holds no JSON document; it starts: %s", ErrBadResponse,
		safetext.Line(excerpt(string(head(bytes.TrimSpace(r.Texts[0]), 1024)), 200)))
}

// isErrorObject reports whether doc is an object holding only "error".
func isErrorObject(doc []byte) bool {
	if len(doc) > 64<<10 {
		return false // an error object is small; do not parse a history twice
	}
	var m map[string]jsontext.Value
	if unmarshal(doc, &m) != nil || len(m) != 1 {
		return false
	}
	_, ok := m["error"]
	return ok
}

// head is at most the first n bytes of b.
func head(b []byte, n int) []byte { return b[:min(len(b), n)] }
