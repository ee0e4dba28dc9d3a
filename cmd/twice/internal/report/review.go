package report

import (
	"cmp"
	"fmt"
	"io"
	"net/url"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/twice-cli/twice/catalyst/safetext"
	"github.com/twice-cli/twice/detect"
	"github.com/twice-cli/twice/detect/review"
	"github.com/twice-cli/twice/tui/format"
)

// ReviewOptions configure the review writers.
type ReviewOptions struct {
	// Styles colours text output (zero value: plain).
	Styles Styles
	// Version is twice's version, for SARIF's tool.driver.version.
	Version string
	// SrcRootURI is the reviewed root folder (ReviewBase) as an absolute
	// file URI ending in "/", for SARIF's originalUriBaseIds; "" leaves
	// %SRCROOT% for the consumer to supply (code scanning uses the
	// checkout).
	SrcRootURI string
}

// ReviewBase is the folder a review's paths are shown relative to in
// SARIF: the root given, a file root's folder, or several roots' common
// folder ("." when they share none).
func ReviewBase(roots []string) string {
	base := ""
	for i, r := range roots {
		d := path.Clean(strings.ReplaceAll(r, "\\", "/"))
		if review.LangOfFile(d) != "" {
			d = path.Dir(d)
		}
		if i == 0 {
			base = d
			continue
		}
		for base != d && !strings.HasPrefix(d, strings.TrimSuffix(base, "/")+"/") {
			up := path.Dir(base)
			if up == base {
				break
			}
			base = up
		}
		if base != d && !strings.HasPrefix(d, strings.TrimSuffix(base, "/")+"/") {
			return "."
		}
	}
	if base == "" {
		return "."
	}
	return base
}

// relToBase is a reviewed path relative to the review's base folder
// (ok false when it is not under it).
func relToBase(base, p string) (string, bool) {
	p = path.Clean(p)
	switch {
	case base == ".":
		if path.IsAbs(p) || p == ".." || strings.HasPrefix(p, "../") {
			return "", false
		}
		return p, true
	case base == "/":
		return strings.TrimPrefix(p, "/"), path.IsAbs(p)
	case strings.HasPrefix(p, base+"/"):
		return p[len(base)+1:], true
	}
	return "", false
}

// reviewSummary is the first line of every review output.
func reviewSummary(r *review.Report) string {
	var langs []string
	files, lines := 0, 0
	for _, l := range sortedLangs(r.Files) {
		langs = append(langs, fmt.Sprintf("%d %s", r.Files[l], format.LangName(l)))
		files += r.Files[l]
		lines += r.Lines[l]
	}
	what := "no source files"
	if files > 0 {
		what = fmt.Sprintf("%s (%s), %s lines", plural(files, "file"), strings.Join(langs, ", "), format.Count(lines))
	}
	counts := map[detect.Severity]int{}
	for _, h := range r.Hazards {
		counts[h.Severity]++
	}
	var sev []string
	for s := detect.SeverityHigh; s >= detect.SeverityLow; s-- {
		if counts[s] > 0 {
			sev = append(sev, fmt.Sprintf("%d %s", counts[s], s))
		}
	}
	hz := plural(len(r.Hazards), "hazard")
	if len(sev) > 0 {
		hz += " (" + strings.Join(sev, ", ") + ")"
	}
	found := fmt.Sprintf("%s, %s", count(len(r.Activities), "activity"), plural(len(r.Workflows), "workflow"))
	if n := len(r.Unresolved); n > 0 {
		found += fmt.Sprintf(", %d not reviewed", n)
	}
	return fmt.Sprintf("%s; %s; %s", what, found, hz)
}

// kindWord names a definition kind.
func kindWord(k review.DefKind) string {
	if k == review.KindWorkflow {
		return "workflow"
	}
	return "activity"
}

// count is plural for words ending in y ("1 activity", "3 activities").
func count(n int, word string) string {
	if n != 1 && strings.HasSuffix(word, "y") {
		return format.Count(n) + " " + word[:len(word)-1] + "ies"
	}
	return plural(n, word)
}

func sortedLangs[V any](m map[review.Lang]V) []review.Lang {
	out := make([]review.Lang, 0, len(m))
	for l := range m {
		out = append(out, l)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// worstFirst returns the hazards most severe first, each severity in the
// review's order (by file and line): what a reader of the text and the
// Markdown meets under the "3 high, 4 medium" summary. JSON and SARIF keep
// the review's order; their readers sort.
func worstFirst(hs []review.Hazard) []review.Hazard {
	out := slices.Clone(hs)
	slices.SortStableFunc(out, func(a, b review.Hazard) int { return cmp.Compare(b.Severity, a.Severity) })
	return out
}

// buildLine says which build configuration's code was reviewed in the
// files that compile differently per configuration.
func buildLine(bs []review.BuildNote) string {
	files := "1 file"
	if len(bs) > 1 {
		files = fmt.Sprintf("%d files", len(bs))
	}
	return "reviewed as a " + bs[0].Build + " build compiles them (#if DEBUG branches left out): " + files + " with conditional compilation, first " + bs[0].File
}

func loc(l review.Location) string {
	return fmt.Sprintf("%s:%d:%d", l.File, l.Line, l.Col)
}

// WriteReviewText writes a review for a terminal or a log.
func WriteReviewText(w io.Writer, r *review.Report, o ReviewOptions) error {
	st := o.Styles
	var b strings.Builder
	b.WriteString(st.Heading("twice review") + ": " + safetext.Line(reviewSummary(r)) + "\n")
	for _, l := range sortedLangs(r.Unavailable) {
		b.WriteString("not reviewed: " + safetext.Line(r.Unavailable[l]) + "\n")
	}
	if n := len(r.Builds); n > 0 {
		b.WriteString(safetext.Line(buildLine(r.Builds)) + "\n")
	}
	if len(r.Unresolved) > 0 {
		b.WriteString("\n" + st.Heading("Not reviewed") + " (called or registered, but twice found no body to review)\n")
		for _, u := range r.Unresolved {
			fmt.Fprintf(&b, "  %s %s  %s  %s\n", kindWord(u.Kind), safetext.Line(u.Name), safetext.Line(loc(u.Location)), safetext.Line(u.Reason))
		}
	}
	for _, h := range worstFirst(r.Hazards) {
		b.WriteString("\n")
		who := h.Activity
		if h.Workflow != "" {
			if who == "" {
				who = "workflow " + h.Workflow
			} else {
				who = h.Activity + " (called from " + h.Workflow + ")"
			}
		}
		fmt.Fprintf(&b, "%s  %s  %s\n", st.Severity(h.Severity), h.Rule, safetext.Line(who))
		fmt.Fprintf(&b, "  %s  %s\n", safetext.Line(loc(h.Location)), safetext.Line(h.Excerpt))
		fmt.Fprintf(&b, "  %s\n", safetext.Line(h.Message))
		for _, v := range h.Via {
			fmt.Fprintf(&b, "  via %s\n", safetext.Line(v))
		}
		if rule, ok := review.RuleByID(h.Rule); ok {
			fmt.Fprintf(&b, "  %s %s\n", st.Faint("why:"), rule.Why)
			fmt.Fprintf(&b, "  %s %s\n", st.Faint("fix:"), rule.Fix)
		}
	}
	if len(r.Activities) > 0 {
		b.WriteString("\n" + st.Heading("Activities") + "\n")
		for _, a := range r.Activities {
			if a.Unresolved {
				fmt.Fprintf(&b, "  %s  registered at %s, but twice did not find %s in the reviewed source\n",
					safetext.Line(a.Name), safetext.Line(loc(a.Registered)), safetext.Line(a.Func))
				continue
			}
			inferred := ""
			if a.Discovered == review.DiscoveredInferred {
				inferred = "  (inferred: no registration twice could read names it)"
			}
			fmt.Fprintf(&b, "  %s  %s  %s%s\n", safetext.Line(a.Name), safetext.Line(loc(a.Location)), plural(len(a.Hazards), "hazard"), inferred)
			for _, g := range a.Guards {
				fmt.Fprintf(&b, "    refuses a duplicate: %s  %s\n", safetext.Line(loc(g.Location)), safetext.Line(g.What))
			}
			for _, k := range a.Keys {
				fmt.Fprintf(&b, "    key twice cannot vouch for: %s  %s\n", safetext.Line(loc(k.Location)), safetext.Line(k.What))
			}
			for _, op := range a.Opaque {
				fmt.Fprintf(&b, "    calls code twice cannot see: %s at %s\n", safetext.Line(op.Target), safetext.Line(loc(op.Location)))
			}
		}
	}
	for _, s := range r.Skipped {
		fmt.Fprintf(&b, "skipped %s: %s\n", safetext.Line(s.File), safetext.Line(s.Reason))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteReviewMarkdown writes a review to paste into a ticket or a pull
// request.
func WriteReviewMarkdown(w io.Writer, r *review.Report, o ReviewOptions) error {
	var b strings.Builder
	b.WriteString("## twice review\n\n" + format.Markdown(reviewSummary(r)) + "\n\n")
	for _, l := range sortedLangs(r.Unavailable) {
		b.WriteString("> Not reviewed: " + format.Markdown(r.Unavailable[l]) + "\n\n")
	}
	if len(r.Unresolved) > 0 {
		b.WriteString("### Not reviewed\n\n| kind | name | where | why |\n|---|---|---|---|\n")
		for _, u := range r.Unresolved {
			fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", kindWord(u.Kind), format.Markdown(u.Name), format.MarkdownCodeCell(loc(u.Location)), format.Markdown(u.Reason))
		}
		b.WriteString("\n")
	}
	if len(r.Hazards) > 0 {
		hazards := worstFirst(r.Hazards)
		b.WriteString("| severity | rule | activity | where | what |\n|---|---|---|---|---|\n")
		for _, h := range hazards {
			who := h.Activity
			if h.Workflow != "" && who == "" {
				who = "workflow " + h.Workflow
			}
			fmt.Fprintf(&b, "| %s | `%s` | %s | %s | %s |\n", SeverityMark(h.Severity), h.Rule, format.Markdown(who), format.MarkdownCodeCell(loc(h.Location)), format.Markdown(h.Message))
		}
		seen := map[review.RuleID]bool{}
		b.WriteString("\n### What to do\n\n")
		for _, h := range hazards {
			if seen[h.Rule] {
				continue
			}
			seen[h.Rule] = true
			rule, _ := review.RuleByID(h.Rule)
			fmt.Fprintf(&b, "- **`%s`** — %s %s\n", rule.ID, rule.Why, rule.Fix)
		}
	}
	if len(r.Activities) > 0 {
		b.WriteString("\n### Activities\n\n| activity | defined at | hazards | refuses a duplicate at |\n|---|---|---|---|\n")
		for _, a := range r.Activities {
			where := format.MarkdownCodeCell(loc(a.Location))
			if a.Unresolved {
				where = "not found (registered at " + format.MarkdownCodeCell(loc(a.Registered)) + ")"
			}
			var guards []string
			for _, g := range a.Guards {
				guards = append(guards, format.MarkdownCodeCell(loc(g.Location))+" "+format.Markdown(g.What))
			}
			fmt.Fprintf(&b, "| %s | %s | %d | %s |\n", format.Markdown(a.Name), where, len(a.Hazards), strings.Join(guards, "; "))
		}
	}
	for _, s := range r.Skipped {
		fmt.Fprintf(&b, "\n- skipped %s: %s", format.MarkdownCode(s.File), format.Markdown(s.Reason))
	}
	b.WriteString("\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteReviewJSON writes a review as one JSON document:
// {"review": {…}, "rules": […]}.
func WriteReviewJSON(w io.Writer, r *review.Report, _ ReviewOptions) error {
	e := newJSONEnc(w)
	e.beginObject()
	e.key("review")
	e.beginObject()
	e.key("roots")
	e.beginArray()
	for _, root := range r.Roots {
		e.str(root)
	}
	e.endArray()
	e.key("files")
	langCounts(e, r.Files)
	e.key("lines")
	langCounts(e, r.Lines)
	e.key("activities")
	e.beginArray()
	for _, a := range r.Activities {
		e.beginObject()
		e.strField("name", a.Name)
		e.strField("func", a.Func)
		e.nameField("lang", string(a.Lang))
		if !a.Unresolved {
			e.key("location")
			jsonLoc(e, a.Location)
		}
		e.key("registered")
		jsonLoc(e, a.Registered)
		e.boolField("not_found", a.Unresolved)
		if a.Discovered != "" {
			e.nameField("discovered", a.Discovered)
		}
		e.key("hazards")
		jsonHazards(e, a.Hazards)
		e.key("guards")
		e.beginArray()
		for _, g := range a.Guards {
			e.beginObject()
			e.key("location")
			jsonLoc(e, g.Location)
			e.strField("excerpt", g.Excerpt)
			e.strField("what", g.What)
			e.endObject()
		}
		e.endArray()
		e.key("keys")
		e.beginArray()
		for _, k := range a.Keys {
			e.beginObject()
			e.key("location")
			jsonLoc(e, k.Location)
			e.strField("excerpt", k.Excerpt)
			e.strField("what", k.What)
			e.boolField("source_unseen", k.Unseen)
			e.endObject()
		}
		e.endArray()
		e.key("opaque_calls")
		e.beginArray()
		for _, op := range a.Opaque {
			e.beginObject()
			e.key("location")
			jsonLoc(e, op.Location)
			e.strField("call", op.Call)
			e.strField("target", op.Target)
			e.endObject()
		}
		e.endArray()
		e.endObject()
	}
	e.endArray()
	e.key("workflows")
	e.beginArray()
	for _, wf := range r.Workflows {
		e.beginObject()
		e.strField("name", wf.Name)
		e.strField("func", wf.Func)
		e.nameField("lang", string(wf.Lang))
		if wf.File != "" {
			e.key("location")
			jsonLoc(e, wf.Location)
		}
		if wf.Discovered != "" {
			e.nameField("discovered", wf.Discovered)
		}
		e.endObject()
	}
	e.endArray()
	e.key("unresolved")
	e.beginArray()
	for _, u := range r.Unresolved {
		e.beginObject()
		e.strField("name", u.Name)
		e.nameField("kind", kindWord(u.Kind))
		e.key("location")
		jsonLoc(e, u.Location)
		e.strField("reason", u.Reason)
		e.endObject()
	}
	e.endArray()
	e.key("hazards")
	jsonHazards(e, r.Hazards)
	e.key("skipped")
	e.beginArray()
	for _, s := range r.Skipped {
		e.beginObject()
		e.strField("file", s.File)
		e.strField("reason", s.Reason)
		e.endObject()
	}
	e.endArray()
	if len(r.Builds) > 0 {
		e.key("builds")
		e.beginArray()
		for _, bn := range r.Builds {
			e.beginObject()
			e.strField("file", bn.File)
			e.strField("build", bn.Build)
			e.endObject()
		}
		e.endArray()
	}
	if len(r.Unavailable) > 0 {
		e.key("not_reviewed")
		e.beginObject()
		for _, l := range sortedLangs(r.Unavailable) {
			e.strField(string(l), r.Unavailable[l])
		}
		e.endObject()
	}
	e.endObject()
	e.key("rules")
	e.beginArray()
	for _, rule := range review.Rules() {
		e.beginObject()
		e.nameField("id", string(rule.ID))
		e.strField("name", rule.Name)
		e.nameField("severity", rule.Severity.String())
		e.strField("why", rule.Why)
		e.strField("fix", rule.Fix)
		e.endObject()
	}
	e.endArray()
	e.endObject()
	e.buf = append(e.buf, '\n')
	return e.flush()
}

func langCounts(e *jsonEnc, m map[review.Lang]int) {
	e.beginObject()
	for _, l := range sortedLangs(m) {
		e.intField(string(l), int64(m[l]))
	}
	e.endObject()
}

func jsonLoc(e *jsonEnc, l review.Location) {
	e.beginObject()
	e.strField("file", l.File)
	e.intField("line", int64(l.Line))
	e.intField("column", int64(l.Col))
	e.endObject()
}

func jsonHazards(e *jsonEnc, hs []review.Hazard) {
	e.beginArray()
	for _, h := range hs {
		rule, _ := review.RuleByID(h.Rule)
		e.beginObject()
		e.nameField("rule", string(h.Rule))
		e.nameField("severity", h.Severity.String())
		e.strField("activity", h.Activity)
		e.strField("workflow", h.Workflow)
		e.key("location")
		jsonLoc(e, h.Location)
		e.strField("excerpt", h.Excerpt)
		e.strField("message", h.Message)
		if len(h.Via) > 0 {
			e.key("via")
			e.beginArray()
			for _, v := range h.Via {
				e.str(v)
			}
			e.endArray()
		}
		e.strField("why", rule.Why)
		e.strField("fix", rule.Fix)
		e.endObject()
	}
	e.endArray()
}

// sarifLevel maps a severity to a SARIF result level.
func sarifLevel(s detect.Severity) string {
	switch s {
	case detect.SeverityHigh:
		return "error"
	case detect.SeverityMedium:
		return "warning"
	}
	return "note"
}

// sarifSrcRoot is the uriBaseId of every artifact location: the
// reviewed root.
const sarifSrcRoot = "%SRCROOT%"

// sarifArtifact writes an artifactLocation: the path relative to the
// reviewed root, with uriBaseId %SRCROOT% (never an absolute file URI or
// a path relative to the shell's folder, so code scanning places it); a
// path outside the root (not expected) keeps a file URI.
func sarifArtifact(e *jsonEnc, base, p string) {
	e.key("artifactLocation")
	e.beginObject()
	if rel, ok := relToBase(base, p); ok {
		e.strField("uri", (&url.URL{Path: rel}).String())
		e.strField("uriBaseId", sarifSrcRoot)
	} else {
		e.strField("uri", (&url.URL{Scheme: "file", Path: path.Clean(p)}).String())
	}
	e.endObject()
}

// sarifRegion writes a region from a location.
func sarifRegion(e *jsonEnc, l review.Location, snippet string) {
	e.key("region")
	e.beginObject()
	e.intField("startLine", int64(max(l.Line, 1)))
	e.intField("startColumn", int64(max(l.Col, 1)))
	if snippet != "" {
		sarifText(e, "snippet", snippet)
	}
	e.endObject()
}

// SARIFSchema is the schema URI written in SARIF output.
const SARIFSchema = "https://json.schemastore.org/sarif-2.1.0.json"

// WriteReviewSARIF writes a review as a SARIF 2.1.0 log, for GitHub code
// scanning and editors.
func WriteReviewSARIF(w io.Writer, r *review.Report, o ReviewOptions) error {
	base := ReviewBase(r.Roots)
	rules := review.Rules()
	index := map[review.RuleID]int{}
	for i, rule := range rules {
		index[rule.ID] = i
	}
	e := newJSONEnc(w)
	e.beginObject()
	e.strField("$schema", SARIFSchema)
	e.strField("version", "2.1.0")
	e.key("runs")
	e.beginArray()
	e.beginObject()
	e.key("tool")
	e.beginObject()
	e.key("driver")
	e.beginObject()
	e.strField("name", "twice")
	e.strField("language", "en-US")
	e.strField("informationUri", "https://github.com/twice-cli/twice")
	if o.Version != "" {
		e.strField("version", o.Version)
	}
	e.key("rules")
	e.beginArray()
	for _, rule := range rules {
		e.beginObject()
		e.nameField("id", string(rule.ID))
		e.strField("name", sarifRuleName(rule.ID))
		sarifText(e, "shortDescription", rule.Name)
		sarifText(e, "fullDescription", rule.Why)
		sarifText(e, "help", rule.Fix)
		e.key("defaultConfiguration")
		e.beginObject()
		e.strField("level", sarifLevel(rule.Severity))
		e.endObject()
		e.key("properties")
		e.beginObject()
		e.key("tags")
		e.beginArray()
		e.str("idempotency")
		e.str("dapr-workflow")
		e.endArray()
		e.endObject()
		e.endObject()
	}
	e.endArray()
	e.endObject()
	e.endObject()
	e.key("originalUriBaseIds")
	e.beginObject()
	e.key(sarifSrcRoot)
	e.beginObject()
	if o.SrcRootURI != "" {
		e.strField("uri", o.SrcRootURI)
	}
	sarifText(e, "description", "the folder twice review was given")
	e.endObject()
	e.endObject()
	e.strField("language", "en-US")
	e.strField("columnKind", "unicodeCodePoints")
	e.key("newlineSequences")
	e.beginArray()
	e.str("\r\n")
	e.str("\n")
	e.endArray()
	e.key("results")
	e.beginArray()
	for _, h := range r.Hazards {
		rule := rules[index[h.Rule]]
		e.beginObject()
		e.nameField("ruleId", string(h.Rule))
		e.intField("ruleIndex", int64(index[h.Rule]))
		e.strField("level", sarifLevel(h.Severity))
		msg := h.Message
		if h.Activity != "" {
			msg = h.Activity + ": " + msg
		}
		sarifText(e, "message", msg+". "+rule.Fix)
		e.key("locations")
		e.beginArray()
		e.beginObject()
		e.key("physicalLocation")
		e.beginObject()
		sarifArtifact(e, base, h.File)
		sarifRegion(e, h.Location, h.Excerpt)
		e.endObject()
		if h.Activity != "" || h.Workflow != "" {
			e.key("logicalLocations")
			e.beginArray()
			e.beginObject()
			name := h.Activity
			if name == "" {
				name = h.Workflow
			}
			e.strField("name", name)
			e.strField("kind", "function")
			e.endObject()
			e.endArray()
		}
		e.endObject()
		e.endArray()
		e.key("properties")
		e.beginObject()
		e.strField("severity", h.Severity.String())
		e.strField("activity", h.Activity)
		e.strField("workflow", h.Workflow)
		e.endObject()
		e.endObject()
	}
	e.endArray()
	e.key("invocations")
	e.beginArray()
	e.beginObject()
	e.boolField("executionSuccessful", true)
	if len(r.Unavailable) > 0 || len(r.Skipped) > 0 || len(r.Unresolved) > 0 {
		e.key("toolExecutionNotifications")
		e.beginArray()
		for _, u := range r.Unresolved {
			e.beginObject()
			sarifText(e, "message", fmt.Sprintf("%s %s not reviewed: %s", kindWord(u.Kind), u.Name, u.Reason))
			e.strField("level", "warning")
			e.key("locations")
			e.beginArray()
			e.beginObject()
			e.key("physicalLocation")
			e.beginObject()
			sarifArtifact(e, base, u.File)
			sarifRegion(e, u.Location, "")
			e.endObject()
			e.endObject()
			e.endArray()
			e.endObject()
		}
		for _, l := range sortedLangs(r.Unavailable) {
			e.beginObject()
			sarifText(e, "message", "not reviewed: "+r.Unavailable[l])
			e.strField("level", "warning")
			e.endObject()
		}
		for _, s := range r.Skipped {
			e.beginObject()
			sarifText(e, "message", "skipped "+s.File+": "+s.Reason)
			e.strField("level", "warning")
			e.endObject()
		}
		e.endArray()
	}
	e.endObject()
	e.endArray()
	e.endObject()
	e.endArray()
	e.endObject()
	e.buf = append(e.buf, '\n')
	return e.flush()
}

func sarifText(e *jsonEnc, key, text string) {
	e.key(key)
	e.beginObject()
	e.strField("text", text)
	e.endObject()
}

// sarifRuleName is a rule's SARIF name: its id in PascalCase.
func sarifRuleName(id review.RuleID) string {
	var b strings.Builder
	for _, p := range strings.Split(string(id), "-") {
		if p != "" {
			b.WriteString(strings.ToUpper(p[:1]) + p[1:])
		}
	}
	return b.String()
}
