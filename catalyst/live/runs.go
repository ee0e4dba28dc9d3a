package live

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"github.com/go-json-experiment/json/jsontext"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/safetext"
)

// ListRuns lists the runs matching q with catalyst_list_workflow_runs,
// following page tokens, newest first. A list cut short (page cap, a
// repeated token, a failed or cancelled later page) comes back with Partial
// set and the reason; a failure on the first page is an error.
func (c *Client) ListRuns(ctx context.Context, q catalyst.RunQuery) (catalyst.RunList, error) {
	limit := q.Limit
	if limit <= 0 {
		limit = DefaultListLimit
	}
	op := describeList(q)
	var local localFilters
	fetch := func(ctx context.Context, token string, want int) (runPage, error) {
		size := min(c.cfg.PageSize, want)
		res, _, err := c.callTool(ctx, op, ToolListRuns, func(t *toolInfo) (map[string]any, error) {
			// A filter the tool takes no argument for is applied to the
			// rows here instead (never dropped, never refused).
			local = localFiltersFor(t, q)
			return t.buildArgs([]argValue{
				{key: argProject, value: q.Project},
				{key: argApp, value: q.AppID},
				{key: argStatus, value: q.Status, optional: true},
				{key: argWorkflow, value: q.Workflow, optional: true},
				{key: argSince, value: timeArg(q.Since), optional: true},
				{key: argUntil, value: timeArg(q.Until), optional: true},
				{key: argLimit, value: size, optional: true},
				{key: argPageToken, value: token},
			})
		})
		if err != nil {
			return runPage{}, err
		}
		doc, err := res.document()
		if err != nil {
			return runPage{}, fmt.Errorf("%s: %w", op, err)
		}
		page, err := parseRunPage(doc)
		if err != nil {
			return runPage{}, fmt.Errorf("%w: %s: %s", ErrBadResponse, op, err)
		}
		return local.apply(c.runsOf(page, q), q), nil
	}
	list, err := paginate(ctx, fetch, limit, c.cfg.MaxPages)
	if err != nil {
		return catalyst.RunList{}, c.redact.Error(err)
	}
	list.Reason = c.redact.String(list.Reason)
	list.FilteredHere = local.notes()
	sort.SliceStable(list.Runs, func(i, j int) bool {
		a, b := list.Runs[i].CreatedAt, list.Runs[j].CreatedAt
		if a.IsZero() != b.IsZero() {
			return b.IsZero()
		}
		return a.After(b)
	})
	return list, nil
}

// describeList says what a list asks for, for errors.
func describeList(q catalyst.RunQuery) string {
	var b strings.Builder
	b.WriteString("listing runs")
	if q.Status != "" {
		b.WriteString(" with status " + safetext.Line(string(q.Status)))
	}
	if q.Workflow != "" {
		b.WriteString(" of workflow " + safetext.Line(q.Workflow))
	}
	if q.AppID != "" {
		b.WriteString(" of app " + safetext.Line(q.AppID))
	}
	if q.Project != "" {
		b.WriteString(" in project " + safetext.Line(q.Project))
	}
	return b.String()
}

func timeArg(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

// runPage is one page of a run list: its runs and the token of the next
// page ("" on the last).
type runPage struct {
	runs    []catalyst.Run
	next    string
	skipped int // rows without a run id
}

// paginate follows page tokens until the last page, the limit, a repeated
// token (every token seen is remembered, so cycles stop too) or maxPages.
// An error on the first page is returned; a later failure, a repeated
// token, the page cap and cancellation give a partial list with the reason.
func paginate(ctx context.Context, fetch func(ctx context.Context, token string, want int) (runPage, error), limit, maxPages int) (catalyst.RunList, error) {
	var list catalyst.RunList
	seen := map[string]bool{}
	token := ""
	skipped, repeated, dropped := 0, 0, 0
	// Runs are listed once each: a run on two pages (the server's pages
	// shifted while they were read) is kept where it first appeared.
	listed := map[[2]string]bool{}
	for pageNo := 1; ; pageNo++ {
		p, err := fetch(ctx, token, limit-len(list.Runs))
		if err != nil {
			if pageNo == 1 {
				return catalyst.RunList{}, err
			}
			list.Partial = true
			if ctx.Err() != nil {
				list.Reason = fmt.Sprintf("%s after %s", stopped(ctx), pluralPages(pageNo-1))
			} else {
				list.Reason = fmt.Sprintf("page %d failed: %v", pageNo, err)
			}
			break
		}
		for _, r := range p.runs {
			k := [2]string{r.AppID, r.ID}
			if listed[k] {
				repeated++
				continue
			}
			listed[k] = true
			list.Runs = append(list.Runs, r)
		}
		skipped += p.skipped
		if len(list.Runs) >= limit {
			dropped = len(list.Runs) - limit
			list.Runs = list.Runs[:limit]
			break
		}
		if p.next == "" {
			break
		}
		if seen[p.next] {
			list.Partial = true
			list.Reason = fmt.Sprintf("the server repeated a page token after %d pages, so the list stopped there and may be incomplete", pageNo)
			break
		}
		if pageNo >= maxPages {
			list.Partial = true
			if len(list.Runs) == 0 {
				list.Reason = fmt.Sprintf("stopped at the page cap (%d pages) with no runs on the pages read, though the server kept offering another page; "+
					"whether any run matches is not known: narrow the query (--since, --status, --app)", pageNo)
			} else {
				list.Reason = fmt.Sprintf("stopped at the page cap (%d pages); the server offers more pages: narrow the query (--since, --status, --app)", pageNo)
			}
			break
		}
		seen[p.next] = true
		token = p.next
	}
	note := func(text string) {
		list.Partial = true
		if list.Reason != "" {
			text = list.Reason + "; " + text
		}
		list.Reason = text
	}
	if skipped > 0 {
		note(fmt.Sprintf("%d rows had no run id and were left out", skipped))
	}
	if dropped > 0 {
		note(fmt.Sprintf("the server sent %d more runs than the limit of %d, which were left out", dropped, limit))
		list.Dropped = dropped
	}
	if repeated > 0 {
		note(fmt.Sprintf("the server listed %d runs on more than one page (each is listed once); its pages shifted while twice read them, so runs may be missing", repeated))
	}
	return list, nil
}

// pluralPages is "1 page" or "n pages".
func pluralPages(n int) string {
	if n == 1 {
		return "1 page"
	}
	return fmt.Sprintf("%d pages", n)
}

// stopped says why a done context stopped a list: "cancelled", or the
// deadline with its cause ("the time allowed ran out (the command's
// --timeout of 10m0s …)").
func stopped(ctx context.Context) string {
	cause := context.Cause(ctx)
	if !errors.Is(cause, context.DeadlineExceeded) {
		return "cancelled"
	}
	if cause == context.DeadlineExceeded {
		return "the time allowed ran out"
	}
	return "the time allowed ran out (" + cause.Error() + ")"
}

// wirePage is a page as found in a tool result: the rows and the next token.
type wirePage struct {
	rows []map[string]jsontext.Value // keys folded by normName
	next string
}

// rowsKeys lists the (folded) keys a run list result may hold its rows under.
func rowsKeys() []string {
	return []string{"items", "runs", "workflowruns", "workflowexecutions", "executions", "instances", "results", "data"}
}

// tokenKeys lists the (folded) keys a next-page token may be under.
func tokenKeys() []string {
	return []string{"nextpagetoken", "continuationtoken", "next", "nexttoken", "nextcursor", "cursor", "continue", "pagetoken"}
}

// parseRunPage finds the rows and the next token in a list result: a JSON
// array of rows, or an object with the rows under items, runs,
// workflowRuns, data, … and the token under nextPageToken,
// continuationToken, next, … (also inside a "metadata", "pagination" or
// "page" object, or next to the rows in a "data" object).
func parseRunPage(doc []byte) (wirePage, error) {
	doc = bytes.TrimSpace(doc)
	if len(doc) == 0 {
		return wirePage{}, errors.New("the list result is empty")
	}
	if doc[0] == '[' {
		rows, err := decodeRows(doc)
		return wirePage{rows: rows}, err
	}
	obj, err := foldedObject(doc)
	if err != nil {
		return wirePage{}, fmt.Errorf("the list result is not a JSON object or array: %v", err)
	}
	return pageOf(obj, 0)
}

func pageOf(obj map[string]jsontext.Value, depth int) (wirePage, error) {
	var p wirePage
	p.next = findToken(obj)
	for _, k := range rowsKeys() {
		raw, ok := obj[k]
		if !ok {
			continue
		}
		raw = bytes.TrimSpace(raw)
		switch {
		case len(raw) > 0 && raw[0] == '[':
			rows, err := decodeRows(raw)
			if err != nil {
				return wirePage{}, err
			}
			p.rows = rows
			return p, nil
		case len(raw) > 0 && raw[0] == '{' && depth == 0:
			inner, err := foldedObject(raw)
			if err == nil {
				ip, err := pageOf(inner, 1)
				if err == nil {
					if ip.next == "" {
						ip.next = p.next
					}
					return ip, nil
				}
			}
		case bytes.Equal(raw, []byte("null")):
			return p, nil // no rows
		}
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, safetext.Line(excerpt(k, 40)))
	}
	sort.Strings(keys)
	return wirePage{}, fmt.Errorf("the list result holds no array of runs (its keys: %s)", strings.Join(keys, ", "))
}

// findToken reads the next-page token at the top of obj or in its
// metadata, pagination or page object.
func findToken(obj map[string]jsontext.Value) string {
	for _, k := range tokenKeys() {
		if t := scalarString(obj[k]); t != "" {
			return t
		}
	}
	for _, holder := range []string{"metadata", "pagination", "page", "paging"} {
		if raw, ok := obj[holder]; ok {
			if inner, err := foldedObject(raw); err == nil {
				for _, k := range tokenKeys() {
					if t := scalarString(inner[k]); t != "" {
						return t
					}
				}
			}
		}
	}
	return ""
}

func decodeRows(raw []byte) ([]map[string]jsontext.Value, error) {
	var items []jsontext.Value
	if err := unmarshal(raw, &items); err != nil {
		return nil, fmt.Errorf("the runs array is malformed: %v", err)
	}
	rows := make([]map[string]jsontext.Value, 0, len(items))
	for i, it := range items {
		row, err := foldedObject(it)
		if err != nil {
			return nil, fmt.Errorf("run %d of the page is not a JSON object", i+1)
		}
		rows = append(rows, row)
	}
	return rows, nil
}

// foldedObject decodes a JSON object with its keys folded by normName. When
// two keys fold alike, the first one wins.
func foldedObject(raw []byte) (map[string]jsontext.Value, error) {
	var m map[string]jsontext.Value
	if err := unmarshal(raw, &m); err != nil {
		return nil, err
	}
	if m == nil {
		return nil, errors.New("null")
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make(map[string]jsontext.Value, len(m))
	for _, k := range keys {
		f := normName(k)
		if _, dup := out[f]; !dup {
			out[f] = m[k]
		}
	}
	return out, nil
}

// scalarString reads a JSON string, or a number as its text; anything else
// is "".
func scalarString(raw jsontext.Value) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return ""
	}
	switch raw[0] {
	case '"':
		var s string
		if unmarshal(raw, &s) == nil {
			return s
		}
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return string(raw)
	}
	return ""
}

func first(row map[string]jsontext.Value, keys ...string) string {
	for _, k := range keys {
		if s := scalarString(row[k]); s != "" {
			return s
		}
	}
	return ""
}

// parseWireTime reads an RFC 3339 time, or Unix seconds or milliseconds.
func parseWireTime(s string) time.Time {
	if s == "" {
		return time.Time{}
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t.UTC()
	}
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		if n > 1e12 {
			return time.UnixMilli(n).UTC()
		}
		return time.Unix(n, 0).UTC()
	}
	return time.Time{}
}

// runsOf converts a page's rows into runs. Payloads of a list are not
// requested, so an absent one is PayloadNotRequested.
func (c *Client) runsOf(p wirePage, q catalyst.RunQuery) runPage {
	out := runPage{next: p.next}
	// A row reports no level and has no payloads to infer one from.
	ds := catalyst.ResolveDataSharing(catalyst.DataSharing{}, catalyst.LevelSources{Filtered: true, Configured: c.cfg.Level}, nil)
	for _, row := range p.rows {
		id := first(row, "instanceid", "runid", "workflowinstanceid", "id", "instance")
		if id == "" {
			out.skipped++
			continue
		}
		run := catalyst.Run{
			ID:             id,
			AppID:          first(row, "appid", "app", "appname"),
			Workflow:       first(row, "workflowname", "workflow", "name"),
			Status:         catalyst.Status(first(row, "runtimestatus", "status", "workflowstatus")),
			CreatedAt:      parseWireTime(first(row, "createdat", "starttime", "startedat", "createdtime", "created", "createtime")),
			UpdatedAt:      parseWireTime(first(row, "lastupdatedat", "updatedat", "lastupdatedtime", "lastupdated", "endtime", "completedat")),
			ExecutionID:    first(row, "executionid"),
			FailureMessage: first(row, "failuremessage", "errormessage", "failuredetailserrormessage"),
			ParentID:       first(row, "parentinstanceid", "parentid"),
			Project:        catalyst.Project{Name: first(row, "projectid", "project", "projectname")},
			DataSharing:    ds,
			Input:          rowPayload(row, "input"),
			Output:         rowPayload(row, "output", "result"),
			CustomStatus:   rowPayload(row, "customstatus"),
			Provenance:     catalyst.Provenance{Surface: catalyst.SurfaceCatalystMCP, Endpoint: c.host},
		}
		if run.AppID == "" {
			run.AppID = q.AppID
		}
		if run.Project.Name == "" {
			run.Project.Name = q.Project
		}
		out.runs = append(out.runs, run)
	}
	return out
}

// rowPayload reads a payload of a list row: a JSON string is its text, any
// other JSON value its JSON; absent or null means it was not requested.
func rowPayload(row map[string]jsontext.Value, keys ...string) catalyst.Payload {
	for _, k := range keys {
		raw := bytes.TrimSpace(row[k])
		if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
			continue
		}
		if raw[0] == '"' {
			return catalyst.QuotedPayload(string(raw))
		}
		return catalyst.PresentPayload(string(raw))
	}
	return catalyst.AbsentPayload(catalyst.PayloadNotRequested)
}

// localFilters are the query's filters the list tool declares no argument
// for, which twice applies to the rows it returns; left counts the rows
// left out for lacking the field a filter reads.
type localFilters struct {
	window, status, workflow bool
	left                     int
}

func localFiltersFor(t *toolInfo, q catalyst.RunQuery) localFilters {
	lacks := func(k argKey) bool { _, ok := t.property(k); return !ok }
	return localFilters{
		window:   !q.Since.IsZero() && lacks(argSince) || !q.Until.IsZero() && lacks(argUntil),
		status:   q.Status != "" && lacks(argStatus),
		workflow: q.Workflow != "" && lacks(argWorkflow),
	}
}

// apply keeps the rows that pass the filters twice applies itself.
func (l *localFilters) apply(p runPage, q catalyst.RunQuery) runPage {
	if !l.window && !l.status && !l.workflow {
		return p
	}
	kept := p.runs[:0]
	for _, r := range p.runs {
		switch {
		case l.window && r.CreatedAt.IsZero():
			l.left++
			continue
		case l.window && (!q.Since.IsZero() && r.CreatedAt.Before(q.Since) || !q.Until.IsZero() && !r.CreatedAt.Before(q.Until)):
			continue
		case l.status && !r.Status.Is(q.Status):
			continue
		case l.workflow && r.Workflow != q.Workflow:
			continue
		}
		kept = append(kept, r)
	}
	p.runs = kept
	return p
}

// notes says what twice filtered itself, for standard error.
func (l *localFilters) notes() []string {
	var out []string
	say := func(what, field string) {
		out = append(out, "the server's list tool takes no "+what+" argument: twice listed every run and kept "+
			"those whose "+field+" matches itself")
	}
	if l.window {
		say("start-time", "createdAt")
	}
	if l.status {
		say("status", "status")
	}
	if l.workflow {
		say("workflow-name", "workflow name")
	}
	if l.left > 0 {
		out = append(out, strconv.Itoa(l.left)+" runs without a createdAt were left out: their start is not known")
	}
	return out
}
