package report

import (
	"io"
	"strconv"
	"strings"

	"github.com/twice-cli/twice/catalyst"
)

// WriteRunListText writes a run list as a table: run id, workflow, app,
// status, created, updated; then whether the list is partial.
func WriteRunListText(w io.Writer, q catalyst.RunQuery, list catalyst.RunList, opts Options) error {
	t := newTextWriter(w, opts)
	t.println(opts.Styles.Heading("Runs: "+strconv.Itoa(len(list.Runs))), " (", queryText(q, opts.TimeFormat, t.now), ")")
	if len(list.Runs) > 0 {
		titles := []string{"RUN ID", "WORKFLOW", "APP", "STATUS", "CREATED", "UPDATED"}
		rows := make([][]string, len(list.Runs))
		widths := make([]int, len(titles))
		for i, t := range titles {
			widths[i] = len(t)
		}
		for i := range list.Runs {
			r := &list.Runs[i]
			rows[i] = []string{fit(line(r.ID), maxNameWidth), fit(line(r.Workflow), maxNameWidth),
				fit(line(r.AppID), maxNameWidth), line(string(r.Status.Normalized())),
				t.instant(r.CreatedAt), t.instant(r.UpdatedAt)}
			for j, c := range rows[i] {
				widths[j] = max(widths[j], width(c))
			}
		}
		t.buf = append(t.buf, "  "...)
		for i, title := range titles {
			t.buf = pad(t.buf, title, widths[i]+2)
		}
		t.buf = trimRight(t.buf)
		t.endLine()
		for _, row := range rows {
			t.buf = append(t.buf, "  "...)
			for i, c := range row {
				t.buf = pad(t.buf, c, widths[i]+2)
			}
			t.buf = trimRight(t.buf)
			t.endLine()
		}
	}
	if list.Partial {
		t.println()
		reason := line(list.Reason)
		if strings.Contains(reason, "--since") {
			t.println("The list is partial: ", reason, ".") // the reason says what to do
		} else {
			t.println("The list is partial: ", reason, ". Narrow the filter (--since, --status, --app) to see every run.")
		}
	}
	return t.flush()
}

// WriteRunListJSON writes a run list as {"runs":[run…],"partial":…}; each
// run is the "run" object of the scan output, plus its console link.
func WriteRunListJSON(w io.Writer, list catalyst.RunList, opts Options) error {
	e := newJSONEnc(w)
	e.beginObject()
	e.key("runs")
	e.beginArray()
	for i := range list.Runs {
		r := &list.Runs[i]
		e.beginObject()
		writeRunInfoMembers(e, r)
		if link, ok := catalyst.ConsoleLink(opts.Console, *r); ok {
			e.strField("link", link)
		}
		e.endObject()
	}
	e.endArray()
	e.key("partial")
	e.bool(list.Partial)
	e.strField("reason", list.Reason)
	e.endObject()
	e.buf = append(e.buf, '\n')
	return e.flush()
}
