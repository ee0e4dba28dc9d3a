package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/catalysttest"
	"github.com/twice-cli/twice/catalyst/safetext"
	"github.com/twice-cli/twice/catalyst/safetext/hostiletest"
)

// hostileRun is the part of a run in -o json output that carries planted
// text.
type hostileRun struct {
	Source struct {
		Endpoint string `json:"endpoint"`
		Recorded *struct {
			Description string `json:"description"`
		} `json:"recorded"`
	} `json:"source"`
	Run struct {
		ID       string `json:"id"`
		AppID    string `json:"app_id"`
		Workflow string `json:"workflow"`
		Status   string `json:"status"`
		Project  *struct {
			Name string `json:"name"`
		} `json:"project"`
	} `json:"run"`
	Events []struct {
		Type            string `json:"type"`
		Name            string `json:"name"`
		TaskExecutionID string `json:"task_execution_id"`
		Origin          *struct {
			ID string `json:"id"`
		} `json:"origin"`
		Failure *struct {
			Type       string `json:"type"`
			Message    string `json:"message"`
			StackTrace string `json:"stack_trace"`
		} `json:"failure"`
		Payload *struct {
			State string  `json:"state"`
			Value *string `json:"value"`
		} `json:"payload"`
		Router *struct {
			Source string `json:"source"`
		} `json:"router"`
	} `json:"events"`
	Link        string `json:"link"`
	Invocations []struct {
		Name string `json:"name"`
		Key  string `json:"key"`
	} `json:"invocations"`
}

// plantedInJSON collects, per planted field, every value a run of -o json
// output holds in it.
func plantedInJSON(r hostileRun) map[hostiletest.Field][]string {
	got := map[hostiletest.Field][]string{}
	add := func(f hostiletest.Field, v string) { got[f] = append(got[f], v) }
	add(hostiletest.FieldRunID, r.Run.ID)
	add(hostiletest.FieldAppID, r.Run.AppID)
	add(hostiletest.FieldWorkflow, r.Run.Workflow)
	add(hostiletest.FieldStatus, r.Run.Status)
	if r.Run.Project != nil {
		add(hostiletest.FieldProject, r.Run.Project.Name)
	}
	add(hostiletest.FieldEndpoint, r.Source.Endpoint)
	if r.Source.Recorded != nil {
		add(hostiletest.FieldDescription, r.Source.Recorded.Description)
	}
	value := func(i int) string {
		if p := r.Events[i].Payload; p != nil && p.Value != nil {
			return *p.Value
		}
		return "<no value>"
	}
	for i, e := range r.Events {
		if e.Router != nil {
			add(hostiletest.FieldAppID, e.Router.Source)
		}
		switch e.Type {
		case "ExecutionStarted":
			add(hostiletest.FieldWorkflow, e.Name)
			add(hostiletest.FieldInput, value(i))
		case "TaskScheduled":
			add(hostiletest.FieldActivity, e.Name)
			add(hostiletest.FieldExecutionID, e.TaskExecutionID)
			add(hostiletest.FieldInput, value(i))
		case "TaskFailed":
			add(hostiletest.FieldExecutionID, e.TaskExecutionID)
			if e.Failure != nil {
				add(hostiletest.FieldErrorType, e.Failure.Type)
				add(hostiletest.FieldError, e.Failure.Message)
				add(hostiletest.FieldStack, e.Failure.StackTrace)
			}
		case "TimerCreated":
			if e.Origin != nil {
				add(hostiletest.FieldExecutionID, e.Origin.ID)
			}
		case "TaskCompleted", "ExecutionCompleted":
			add(hostiletest.FieldOutput, value(i))
		}
	}
	for _, inv := range r.Invocations {
		add(hostiletest.FieldActivity, inv.Name)
		add(hostiletest.FieldExecutionID, inv.Key)
	}
	return got
}

// mdEscaped is safe text as the Markdown report escapes it.
func mdEscaped(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if strings.IndexByte("\\`*_[]<>|!~&#$", s[i]) >= 0 {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// checkEventColumns checks that hostile text does not shift the columns of
// the text report's events table: in every row, the first five columns
// start at the display column their headings start at.
func checkEventColumns(t *testing.T, what, out string) {
	t.Helper()
	lines := strings.Split(out, "\n")
	head := -1
	for i, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "#   TYPE") || strings.HasPrefix(strings.TrimSpace(l), "#  TYPE") {
			head = i
		}
	}
	if head < 0 {
		t.Errorf("%s: no events table", what)
		return
	}
	starts := func(l string) []int {
		var cols []int
		spaces := 2
		for i, r := range l {
			if r != ' ' {
				if spaces >= 2 {
					cols = append(cols, ansi.StringWidth(l[:i]))
				}
				spaces = 0
				continue
			}
			spaces++
		}
		return cols
	}
	want := starts(lines[head])
	for _, l := range lines[head+1:] {
		if strings.TrimSpace(l) == "" {
			break
		}
		got := starts(l)
		for c := 0; c < 5 && c < len(want); c++ {
			if c >= len(got) || got[c] != want[c] {
				t.Errorf("%s: column %d of row %.60q starts at %v, heading at %v", what, c, l, got, want)
				break
			}
		}
	}
}

// TestHostileHistoriesOfEveryFormat plants each hostile sample (and all of
// them joined, and the 1 MiB line) in every field of a history in each
// format twice reads — Dapr protojson, Catalyst flattened events, Dapr CLI
// JSON, a Catalyst MCP tool result and a twice saved history — and reads
// it through the real decoders with show and scan in every output format:
//
//   - text and Markdown carry no ESC, no C0 but newline, no C1, no bidi or
//     zero-width character, and no invalid UTF-8; each planted string is
//     shown escaped in place, and the events table's columns do not move;
//   - JSON escapes the same characters, and every planted string comes back
//     from it exactly (invalid UTF-8 as U+FFFD);
//   - a run whose ids are not plain ids gets no console link.
func TestHostileHistoriesOfEveryFormat(t *testing.T) {
	samples := append(hostiletest.Corpus(!testing.Short()), hostiletest.Sample{Name: "joined", Value: hostiletest.Joined()})
	for _, s := range samples {
		commands := [][]string{
			{"show", "-o", "text"}, {"show", "-o", "markdown"}, {"show", "-o", "json"}, {"show", "-o", "jsonl"},
			{"scan", "-o", "text"}, {"scan", "-o", "markdown"}, {"scan", "-o", "json"},
		}
		if len(s.Value) >= 1<<20 {
			// The 1 MiB line makes 25 MB documents: two commands, two formats.
			commands = [][]string{{"show", "-o", "text"}, {"show", "-o", "json"}}
		}
		for _, doc := range hostiletest.Documents(s.Value) {
			if len(s.Value) >= 1<<20 && doc.Name != "catalyst" && doc.Name != "fixture" {
				continue // the 1 MiB line: the Catalyst decoder, and the fixture over the CLI's
			}
			what := s.Name + " in " + doc.Name
			file := writeFile(t, doc.Name+".json", string(doc.Bytes))
			for _, args := range commands {
				cmd := what + ": twice " + strings.Join(args, " ")
				r := newHarness(t).run(append(args, file)...)
				if r.code != ExitOK {
					t.Fatalf("%s: exit %d: %.500s", cmd, r.code, r.errOut)
				}
				for name, out := range map[string]string{"stdout": r.out, "stderr": r.errOut} {
					if v, bad := hostiletest.FindUnsafe(out, false); bad {
						lo, hi := max(0, v.Offset-40), min(len(out), v.Offset+40)
						t.Errorf("%s: %s carries raw %U at %d: %q", cmd, name, v.Rune, v.Offset, out[lo:hi])
					}
				}
				switch args[2] {
				case "text":
					if len(s.Value) < 1<<10 {
						for _, f := range []hostiletest.Field{hostiletest.FieldActivity, hostiletest.FieldExecutionID} {
							if shown := safetext.Line(doc.Planted[f]); !strings.Contains(r.out, shown) {
								t.Errorf("%s: the %s is not shown escaped in place (%q)", cmd, f, shown)
							}
						}
					}
					if args[0] == "show" {
						checkEventColumns(t, cmd, r.out)
					}
				case "markdown":
					if shown := mdEscaped(safetext.Line(doc.Planted[hostiletest.FieldActivity])); len(s.Value) < 1<<10 && !strings.Contains(r.out, shown) {
						t.Errorf("%s: the activity name is not shown escaped in place (%q)", cmd, shown)
					}
				case "json", "jsonl":
					checkHostileJSON(t, cmd, r.out, doc)
				}
			}
		}
	}
}

// checkHostileJSON decodes -o json or -o jsonl output and compares every
// planted string with what was planted.
func checkHostileJSON(t *testing.T, cmd, out string, doc hostiletest.Document) {
	t.Helper()
	var runs []hostileRun
	if strings.HasPrefix(out, `{"runs"`) {
		var d struct {
			Runs []hostileRun `json:"runs"`
		}
		if err := json.Unmarshal([]byte(out), &d); err != nil {
			t.Fatalf("%s: %v", cmd, err)
		}
		runs = d.Runs
	} else {
		for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
			var r hostileRun
			if err := json.Unmarshal([]byte(l), &r); err != nil {
				t.Fatalf("%s: line %.80q: %v", cmd, l, err)
			}
			runs = append(runs, r)
		}
	}
	if len(runs) != 1 {
		t.Fatalf("%s: %d runs", cmd, len(runs))
	}
	got := plantedInJSON(runs[0])
	for field, planted := range doc.Planted {
		want := string([]rune(planted)) // invalid UTF-8 becomes U+FFFD per byte
		if field == hostiletest.FieldStatus {
			continue // run.status is the reported status, normalised in status_normalized; checked below
		}
		if len(got[field]) == 0 {
			t.Errorf("%s: no %s in the JSON", cmd, field)
		}
		for _, v := range got[field] {
			if v != want {
				t.Errorf("%s: the %s came back as %.80q, want %.80q", cmd, field, v, want)
				break
			}
		}
	}
	if planted, ok := doc.Planted[hostiletest.FieldStatus]; ok && runs[0].Run.Status != string([]rune(planted)) {
		t.Errorf("%s: run.status came back as %.80q", cmd, runs[0].Run.Status)
	}
	plain := catalyst.IsPlainID(runs[0].Run.ID) && catalyst.IsPlainID(runs[0].Run.AppID)
	if link := runs[0].Link; (link != "") != plain {
		t.Errorf("%s: link %.120q for run %.60q of app %.60q", cmd, link, runs[0].Run.ID, runs[0].Run.AppID)
	}
}

// TestHostileArgumentsInErrors: a hostile run id, app, project, file name or
// flag value, and a live source's error quoting them, reach standard error
// only escaped.
func TestHostileArgumentsInErrors(t *testing.T) {
	for _, s := range append(hostiletest.Corpus(false), hostiletest.Sample{Name: "joined", Value: hostiletest.Joined()}) {
		h := newHarness(t)
		h.live.errs["run"+s.Value] = fmt.Errorf("catalyst: run %s of app %s not found (server said %q)", "run"+s.Value, s.Value, s.Value)
		h.live.listErr = errors.New("listing failed: " + s.Value)
		for _, args := range [][]string{
			{"show", "run" + s.Value, "--app", s.Value, "--project", s.Value},
			{"scan", "run" + s.Value, "--app", s.Value, "-o", "json"},
			{"record", "run" + s.Value, "--app", s.Value, "-o", t.TempDir() + "/x.json"},
			{"runs", "--project", s.Value},
			{"scan", "--project", s.Value, "--status", s.Value},
			{"show", s.Value + ".json"},
			{"show", "-o", s.Value, "demo:" + s.Value},
			{"show", "demo:" + s.Value},
			{"--color", s.Value, "demo", "list"},
			{"scan", "--since", s.Value, "--project", "p"},
		} {
			r := h.run(args...)
			if r.code == ExitOK {
				t.Errorf("%s: twice %q succeeded", s.Name, args)
			}
			if r.errOut == "" {
				t.Errorf("%s: twice %q printed no error", s.Name, args)
			}
			for name, out := range map[string]string{"stdout": r.out, "stderr": r.errOut} {
				if v, bad := hostiletest.FindUnsafe(out, false); bad {
					t.Errorf("%s: twice %q: %s carries raw %U: %.300q", s.Name, args, name, v.Rune, out)
				}
			}
		}
	}
}

// TestHostileLiveRuns serves runs with each hostile sample planted in every
// field from the in-process Catalyst stand-in (at the full data-sharing
// level, so payloads come through) and reads them with the real live
// client: the run list, a project scan and show, in every output format.
// Nothing unsafe reaches the terminal, and JSON gives back what was
// planted.
func TestHostileLiveRuns(t *testing.T) {
	srv := catalysttest.New(catalysttest.Options{Level: catalyst.LevelFull, Runs: []catalysttest.Run{}})
	defer srv.Close()
	type planted struct {
		run    catalysttest.Run
		fields map[hostiletest.Field]string
	}
	var runs []planted
	for _, s := range append(hostiletest.Corpus(false), hostiletest.Sample{Name: "joined", Value: hostiletest.Joined()}) {
		for _, d := range hostiletest.Documents(s.Value) {
			if d.Name != "catalyst" {
				continue
			}
			r, err := catalysttest.RunFromDoc(d.Bytes)
			if err != nil {
				t.Fatalf("%s: %v", s.Name, err)
			}
			r.Project = "default"
			srv.AddRun(r)
			runs = append(runs, planted{r, d.Planted})
		}
	}
	check := func(args []string, r result) {
		t.Helper()
		for name, out := range map[string]string{"stdout": r.out, "stderr": r.errOut} {
			if v, bad := hostiletest.FindUnsafe(out, false); bad {
				t.Errorf("twice %.80q: %s carries raw %U: %.200q", args, name, v.Rune, out[max(0, v.Offset-60):])
			}
		}
	}
	for _, args := range [][]string{
		{"runs", "--project", "default"}, {"runs", "--project", "default", "-o", "json"},
		{"scan", "--project", "default", "--since", "3650d"}, {"scan", "--project", "default", "--since", "3650d", "-o", "markdown"},
		{"scan", "--project", "default", "--since", "3650d", "-o", "json"},
	} {
		r := liveRun(t, srv, nil, io.Discard, args...)
		if r.code != ExitOK {
			t.Fatalf("twice %q: exit %d: %.500s", args, r.code, r.errOut)
		}
		check(args, r)
		if args[len(args)-1] != "json" || args[0] != "scan" {
			continue
		}
		var doc struct {
			Runs []hostileRun `json:"runs"`
		}
		if err := json.Unmarshal([]byte(r.out), &doc); err != nil {
			t.Fatal(err)
		}
		if len(doc.Runs) != len(runs) {
			t.Errorf("the project scan read %d of %d runs", len(doc.Runs), len(runs))
		}
		for _, got := range doc.Runs {
			for _, p := range runs {
				if string([]rune(p.fields[hostiletest.FieldRunID])) != got.Run.ID {
					continue
				}
				vals := plantedInJSON(got)
				for _, f := range []hostiletest.Field{hostiletest.FieldAppID, hostiletest.FieldWorkflow, hostiletest.FieldActivity,
					hostiletest.FieldExecutionID, hostiletest.FieldError, hostiletest.FieldStack} {
					for _, v := range vals[f] {
						if want := string([]rune(p.fields[f])); v != want {
							t.Errorf("run %.40q: the %s came back as %.80q, want %.80q", got.Run.ID, f, v, want)
							break
						}
					}
				}
			}
		}
	}
	for _, p := range runs {
		if strings.ContainsAny(p.run.ID, "\x00/\\") {
			continue // not a run id a shell can pass, or read as a path
		}
		for _, o := range []string{"text", "json", "markdown"} {
			args := []string{"show", p.run.ID, "--app", p.run.AppID, "--project", "default", "-o", o}
			r := liveRun(t, srv, nil, io.Discard, args...)
			if r.code != ExitOK {
				t.Errorf("twice show %.60q: exit %d: %.300s", p.run.ID, r.code, r.errOut)
			}
			check(args, r)
		}
	}
}

// TestPartialListsAreLabelledEverywhere: a run list the live client had to
// cut short (a server whose page tokens cycle, or repeat, or whose pages
// stay empty) is called partial, with the reason, in every output that
// shows it: runs as text and JSON, and a project scan as text, Markdown,
// JSON and JSONL — never passed off as complete.
func TestPartialListsAreLabelledEverywhere(t *testing.T) {
	for _, paging := range []catalysttest.Paging{catalysttest.PagingCycle, catalysttest.PagingRepeat, catalysttest.PagingEmptyForever} {
		srv := catalysttest.New(catalysttest.Options{Paging: paging, PageSize: 1})
		for _, args := range [][]string{
			{"runs", "--project", "default"},
			{"runs", "--project", "default", "-o", "json"},
			{"scan", "--project", "default", "--since", "3650d"},
			{"scan", "--project", "default", "--since", "3650d", "-o", "markdown"},
			{"scan", "--project", "default", "--since", "3650d", "-o", "json"},
			{"scan", "--project", "default", "--since", "3650d", "-o", "jsonl"},
		} {
			r := liveRun(t, srv, nil, io.Discard, args...)
			what := fmt.Sprintf("paging %d: twice %s", paging, strings.Join(args, " "))
			if r.code != ExitOK {
				t.Errorf("%s: exit %d: %s", what, r.code, r.errOut)
				continue
			}
			switch o := args[len(args)-1]; o {
			case "json", "jsonl":
				var doc struct {
					Partial *bool  `json:"partial"`
					Reason  string `json:"reason"`
					Summary *struct {
						Partial       bool   `json:"partial"`
						PartialReason string `json:"partial_reason"`
					} `json:"summary"`
				}
				last := strings.TrimSpace(r.out)
				if o == "jsonl" {
					last = last[strings.LastIndexByte(last, '\n')+1:]
				}
				if err := json.Unmarshal([]byte(last), &doc); err != nil {
					t.Fatalf("%s: %v", what, err)
				}
				switch {
				case args[0] == "runs" && (doc.Partial == nil || !*doc.Partial || doc.Reason == ""):
					t.Errorf("%s: not marked partial: %.300s", what, r.out)
				case args[0] == "scan" && (doc.Summary == nil || !doc.Summary.Partial || doc.Summary.PartialReason == ""):
					t.Errorf("%s: the summary is not marked partial: %.300s", what, last)
				}
			default:
				if !strings.Contains(strings.ToLower(r.out), "partial") {
					t.Errorf("%s: standard output does not say the list is partial:\n%s", what, r.out)
				}
			}
			if !strings.Contains(r.errOut, "partial") {
				t.Errorf("%s: standard error does not say the list is partial: %q", what, r.errOut)
			}
		}
		srv.Close()
	}
}
