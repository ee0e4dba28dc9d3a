package runview

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/twice-cli/twice/catalyst/regfile"
	"github.com/twice-cli/twice/detect"
	"github.com/twice-cli/twice/detect/review"
	"github.com/twice-cli/twice/tui/format"
	"github.com/twice-cli/twice/tui/table"
)

// CodeSource is the workflow and activity source joined to the runs the
// view shows (twice show --source): what twice review found in it, and
// where its files are read from. With one, every run view has a Code tab.
type CodeSource struct {
	// Review is the review of the source.
	Review *review.Report
	// Files holds the reviewed files when they are not on disk (the
	// bundled demo services), by the paths the review names them with;
	// nil reads the operating system's files.
	Files fs.FS
}

// Embedded reports whether the files are bundled in twice rather than on
// disk: an editor can open only a copy of them.
func (s *CodeSource) Embedded() bool { return s != nil && s.Files != nil }

// ReadFile reads a reviewed file by the path the review names it with, up
// to the size twice reviews; only a regular file (a name swapped for a
// named pipe or a device since the review is refused, never read).
func (s *CodeSource) ReadFile(name string) ([]byte, error) {
	var f io.ReadCloser
	var err error
	if s.Files != nil {
		f, err = s.Files.Open(name)
	} else {
		f, err = regfile.Open(filepath.FromSlash(name))
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, review.DefaultMaxFileBytes+1))
	if err == nil && len(b) > review.DefaultMaxFileBytes {
		err = fmt.Errorf("larger than %d bytes", review.DefaultMaxFileBytes)
	}
	return b, err
}

// codeKind is what a row of the Code tab shows.
type codeKind uint8

const (
	// codeHazard: a review hazard of the activity.
	codeHazard codeKind = iota
	// codeRefusal: a write that refuses its own duplicate.
	codeRefusal
	// codeClean: an activity defined in the source with neither.
	codeClean
	// codeNotFound: an activity the run called that the source does not
	// define.
	codeNotFound
)

// codeRow is one row of the Code tab. Its texts are the review's, raw: they
// are sanitized where they are shown.
type codeRow struct {
	kind codeKind
	// activity is the activity's position in Code.Activities; item the
	// hazard's or refusal's position in the review's activity (-1 for
	// none).
	activity int32
	item     int32
	severity detect.Severity
	// rule is the rule id (a hazard) or what the row is ("refusing write",
	// "no hazard", "not found").
	rule    string
	message string
	loc     review.Location
	// excerpt is the reviewed line; context the lines around it as the
	// file holds them now.
	excerpt string
	context excerptLines
}

// excerptLines are the lines around a row's line, read from its file once
// (off the UI goroutine), sanitized and with tabs expanded.
type excerptLines struct {
	// first is the number of lines[0]; mark the index of the row's line
	// (-1 when the lines are not shown).
	first int
	mark  int
	lines []string
	// note says why the lines are not shown ("" when they are).
	note string
}

// Lines of context the detail pane shows before and after a row's line.
const (
	contextBefore = 3
	contextAfter  = 3
)

// excerptWidth caps a context line: a minified file's line is not worth
// wrapping into the detail pane.
const excerptWidth = 200

// codeIndex is the Code tab's rows, built once per analysis.
type codeIndex struct {
	src *CodeSource
	// names and acts are, per Code.Activities entry, the activity's name and
	// the review's activity (nil where the source does not define it).
	names []string
	acts  []*review.Activity
	// listed holds the names, for the Findings tab's code rows.
	listed map[string]struct{}
	// findings are, per activity, the first of its findings with code
	// evidence (most severe first, at most maxFindingsOn), and findingCount
	// how many it has: a long run has thousands on one activity.
	findings     [][]int32
	findingCount []int
	rows         []codeRow
	terms        *table.Terms
	flags        []uint8
	// loc is each row's LOCATION cell: the file under prefix, the folder
	// every row's file is in, and the line.
	loc    []string
	prefix string
	// worst is the first row with the most severe hazard (-1 for none):
	// the tab opens on it.
	worst int32
	// Widths the RULE, ACTIVITY and LOCATION cells want.
	ruleWidth, nameWidth, locWidth int
}

// Row words of the rows that are not a hazard.
const (
	ruleRefusal  = "refusing write"
	ruleClean    = "no hazard"
	ruleNotFound = "not found"
)

// AddCode joins the source's review to the report — the code evidence of
// each finding's activity, and every activity the run called, found or
// not (review.Join, kept as Index.Code) — and indexes the Code tab's
// rows, reading the lines around each from the source files. It runs with
// NewIndex, off the UI goroutine; a nil source adds nothing.
func (x *Index) AddCode(src *CodeSource) {
	if src == nil || src.Review == nil {
		return
	}
	x.Code = review.Join(x.Report, src.Review)
	x.code = newCodeIndex(x, src)
}

func newCodeIndex(x *Index, src *CodeSource) *codeIndex {
	rep, acts := x.Report, x.Code.Activities
	ci := &codeIndex{src: src, names: make([]string, len(acts)), acts: make([]*review.Activity, len(acts)),
		listed: make(map[string]struct{}, len(acts)), worst: -1}
	for i := range acts {
		ca := &acts[i]
		ci.names[i] = ca.Name
		ci.listed[ca.Name] = struct{}{}
		a := src.Review.Activity(ca.Name)
		if !ca.Found || a == nil {
			ci.add(codeRow{kind: codeNotFound, activity: int32(i), item: -1, rule: ruleNotFound,
				message: "not defined in the source given"})
			continue
		}
		ci.acts[i] = a
		for k := range a.Hazards {
			h := &a.Hazards[k]
			ci.add(codeRow{kind: codeHazard, activity: int32(i), item: int32(k), severity: h.Severity,
				rule: string(h.Rule), message: h.Message, loc: h.Location, excerpt: h.Excerpt})
		}
		for k := range a.Guards {
			g := &a.Guards[k]
			ci.add(codeRow{kind: codeRefusal, activity: int32(i), item: int32(k), rule: ruleRefusal,
				message: g.What, loc: g.Location, excerpt: g.Excerpt})
		}
		if len(a.Hazards) == 0 && len(a.Guards) == 0 {
			msg := "no hazard found"
			if n := len(a.Opaque); n > 0 {
				msg += "; " + format.Plural(n, "call") + " twice cannot see"
			}
			ci.add(codeRow{kind: codeClean, activity: int32(i), item: -1, rule: ruleClean, message: msg,
				loc: a.Location})
		}
	}
	ci.findings, ci.findingCount = make([][]int32, len(acts)), make([]int, len(acts))
	byName := make(map[string]int, len(acts))
	for i, n := range ci.names {
		byName[n] = i
	}
	for fi := range rep.Findings {
		f := &rep.Findings[fi]
		i, ok := byName[f.Activity]
		if !ok || x.Code.Finding(fi) == nil {
			continue
		}
		if ci.findingCount[i]++; len(ci.findings[i]) < maxFindingsOn {
			ci.findings[i] = append(ci.findings[i], int32(fi))
		}
	}
	ci.readContext()
	ci.index(x)
	return ci
}

// maxFindingsOn is how many of an activity's findings a Code row's detail
// shows.
const maxFindingsOn = 3

// has reports whether an activity has rows in the Code tab (every
// activity the run called has at least one).
func (ci *codeIndex) has(activity string) bool {
	_, ok := ci.listed[activity]
	return ok
}

func (ci *codeIndex) add(r codeRow) {
	if r.kind == codeHazard && (ci.worst < 0 || r.severity > ci.rows[ci.worst].severity) {
		ci.worst = int32(len(ci.rows))
	}
	ci.rows = append(ci.rows, r)
}

// readContext reads each file the rows name, once, and keeps the lines
// around each row's line. A line that no longer reads as the review saw
// it (the file changed since) is not shown as if it did.
func (ci *codeIndex) readContext() {
	type file struct {
		src []byte
		err error
	}
	files := map[string]*file{}
	for i := range ci.rows {
		r := &ci.rows[i]
		r.context.mark = -1
		if r.loc.File == "" || r.loc.Line <= 0 {
			continue
		}
		f, ok := files[r.loc.File]
		if !ok {
			f = &file{}
			f.src, f.err = ci.src.ReadFile(r.loc.File)
			files[r.loc.File] = f
		}
		r.context = contextOf(f.src, f.err, r.loc.Line, r.excerpt, r.kind == codeClean)
	}
}

// contextOf returns the lines around line n of src. want is the line the
// review saw there (unchecked when any is set: a definition's line is not
// kept by the review).
func contextOf(src []byte, err error, n int, want string, any bool) excerptLines {
	out := excerptLines{mark: -1}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		out.note = "the file is not there any more"
		return out
	case err != nil:
		out.note = "the file cannot be read: " + err.Error()
		return out
	}
	if !any && review.LineText(src, n) != want {
		out.note = "the file changed since twice reviewed it: line " + strconv.Itoa(n) + " no longer reads as it did"
		return out
	}
	lines := bytes.Split(src, []byte{'\n'})
	if last := len(lines) - 1; last >= 0 && len(lines[last]) == 0 {
		lines = lines[:last] // a final newline starts no line
	}
	if n > len(lines) {
		out.note = "the file has fewer than " + strconv.Itoa(n) + " lines now"
		return out
	}
	from, to := max(n-contextBefore, 1), min(n+contextAfter, len(lines))
	out.first, out.mark = from, n-from
	for i := from; i <= to; i++ {
		out.lines = append(out.lines, format.ExpandTabs(strings.TrimRight(string(lines[i-1]), "\r")))
	}
	// The indentation every line shares is left out: the pane is narrow.
	indent := -1
	for _, l := range out.lines {
		if body := strings.TrimLeft(l, " "); body != "" && (indent < 0 || len(l)-len(body) < indent) {
			indent = len(l) - len(body)
		}
	}
	for i, l := range out.lines {
		if len(l) >= indent && indent > 0 {
			l = l[indent:]
		}
		out.lines[i] = format.Clip(l, excerptWidth)
	}
	return out
}

// index builds the rows' search terms, filter flags, LOCATION cells and
// the widths the columns want.
func (ci *codeIndex) index(x *Index) {
	rep := x.Report
	// An activity's rows carry the flags of its invocations: ! keeps the
	// code of the activities with findings, f of those that failed, r of
	// those retried.
	byName := map[string]uint8{}
	for ii := range rep.Invocations {
		inv := &rep.Invocations[ii]
		if inv.Kind == detect.KindActivity {
			byName[inv.Name] |= x.invFlags[ii] & filterFlags
		}
	}
	ci.prefix = commonFolder(ci.rows)
	terms := table.NewTermsBuilder(4, len(ci.rows))
	ci.flags = make([]uint8, len(ci.rows))
	ci.loc = make([]string, len(ci.rows))
	names := map[string]bool{}
	for i := range ci.rows {
		r := &ci.rows[i]
		name := ci.names[r.activity]
		ci.flags[i] = byName[name]
		at := locText(r.loc)
		ci.loc[i] = format.Line(strings.TrimPrefix(at, ci.prefix))
		if r.loc.File == "" {
			ci.loc[i] = "-"
		}
		terms.Add([]string{r.rule, name, at, r.message}, r.excerpt)
		ci.ruleWidth = max(ci.ruleWidth, format.Width(r.rule))
		ci.locWidth = max(ci.locWidth, min(format.Width(ci.loc[i]), maxNameWant))
		if !names[name] {
			names[name] = true
			ci.nameWidth = max(ci.nameWidth, min(format.Width(format.Line(name)), maxNameWant))
		}
	}
	ci.terms = terms.Terms()
}

// locText is a place in a file: "file:line" ("" for none).
func locText(l review.Location) string {
	if l.File == "" {
		return ""
	}
	if l.Line <= 0 {
		return l.File
	}
	return l.File + ":" + strconv.Itoa(l.Line)
}

// commonFolder is the folder (ending in "/") every row's file is in, ""
// when they share none: the LOCATION column leaves it out, and the detail
// pane names the whole path.
func commonFolder(rows []codeRow) string {
	prefix, first := "", true
	for i := range rows {
		f := rows[i].loc.File
		if f == "" {
			continue
		}
		dir := f[:strings.LastIndexByte(f, '/')+1]
		if first {
			prefix, first = dir, false
			continue
		}
		for !strings.HasPrefix(dir, prefix) {
			cut := strings.LastIndexByte(strings.TrimSuffix(prefix, "/"), '/')
			prefix = prefix[:cut+1]
		}
	}
	return prefix
}
