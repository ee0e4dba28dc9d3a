package report

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/owenrumney/go-sarif/v3/pkg/report/v210/sarif"

	"github.com/twice-cli/twice/catalyst/safetext/hostiletest"
	"github.com/twice-cli/twice/detect/review"
	"github.com/twice-cli/twice/detect/review/langs"
)

// corpusDir is detect/review's corpus, reviewed here as a user's tree.
const corpusDir = "../../../../detect/review/testdata/corpus"

func reviewCorpus(t *testing.T) *review.Report {
	t.Helper()
	rep, err := review.Review(context.Background(), []string{corpusDir}, langs.Options())
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Hazards) == 0 {
		t.Fatal("the corpus gave no hazards")
	}
	return rep
}

// TestReviewSARIFValidates checks -o sarif against the SARIF 2.1.0 JSON
// schema that github.com/owenrumney/go-sarif/v3 v3.3.1 embeds
// (pkg/report/v210/sarif/schema.go, the OASIS errata01 schema). That
// library validates its own Report value, so the document must first
// survive the trip through it unchanged: what it validates is then
// exactly what twice wrote.
func TestReviewSARIFValidates(t *testing.T) {
	rep := reviewCorpus(t)
	var buf bytes.Buffer
	if err := WriteReviewSARIF(&buf, rep, ReviewOptions{Version: "0.1.0-test"}); err != nil {
		t.Fatal(err)
	}
	parsed, err := sarif.FromBytes(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if err := parsed.Validate(); err != nil {
		t.Fatalf("twice's SARIF does not validate against the 2.1.0 schema: %v", err)
	}
	var again bytes.Buffer
	if err := json.NewEncoder(&again).Encode(parsed); err != nil {
		t.Fatal(err)
	}
	var ours, theirs any
	if err := json.Unmarshal(buf.Bytes(), &ours); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(again.Bytes(), &theirs); err != nil {
		t.Fatal(err)
	}
	if path, ok := subset(ours, theirs, "$"); !ok {
		t.Fatalf("at %s: "+"the SARIF changed on its way through go-sarif, so its validation would not cover what twice wrote:\nours:   %.600s\ntheirs: %.600s", path, buf.String(), again.String())
	}
	results := parsed.Runs[0].Results
	if len(results) != len(rep.Hazards) {
		t.Fatalf("%d results for %d hazards", len(results), len(rep.Hazards))
	}
	for i, r := range results {
		h := rep.Hazards[i]
		if *r.RuleID != string(h.Rule) || *r.Locations[0].PhysicalLocation.Region.StartLine != h.Line {
			t.Errorf("result %d is %s at line %d, want %s at %d", i, *r.RuleID, *r.Locations[0].PhysicalLocation.Region.StartLine, h.Rule, h.Line)
		}
	}
}

// subset reports whether every value of a is in b unchanged (go-sarif
// adds empty arrays and zero defaults on its way through, and drops
// nothing of a valid log), and where it is not.
func subset(a, b any, path string) (string, bool) {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok {
			return path, false
		}
		for k, v := range x {
			if p, ok := subset(v, y[k], path+"."+k); !ok {
				return p, false
			}
		}
		return "", true
	case []any:
		y, ok := b.([]any)
		if !ok || len(y) != len(x) {
			return path, false
		}
		for i := range x {
			if p, ok := subset(x[i], y[i], fmt.Sprintf("%s[%d]", path, i)); !ok {
				return p, false
			}
		}
		return "", true
	}
	return path, reflect.DeepEqual(a, b)
}

// TestReviewSARIFRequired checks, on twice's own bytes, the properties the
// SARIF 2.1.0 schema requires that go-sarif might fill in with a default
// on its way through: sarifLog.version and runs; run.tool; tool.driver;
// toolComponent.name; reportingDescriptor.id; result.message.text;
// region.startLine >= 1 and startColumn >= 1; artifactLocation.uri.
func TestReviewSARIFRequired(t *testing.T) {
	rep := reviewCorpus(t)
	var buf bytes.Buffer
	if err := WriteReviewSARIF(&buf, rep, ReviewOptions{}); err != nil {
		t.Fatal(err)
	}
	var log struct {
		Version *string `json:"version"`
		Runs    []struct {
			Tool *struct {
				Driver *struct {
					Name  *string `json:"name"`
					Rules []struct {
						ID *string `json:"id"`
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Results []struct {
				Message *struct {
					Text *string `json:"text"`
				} `json:"message"`
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct {
							URI *string `json:"uri"`
						} `json:"artifactLocation"`
						Region struct {
							StartLine   int `json:"startLine"`
							StartColumn int `json:"startColumn"`
						} `json:"region"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(buf.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	if log.Version == nil || *log.Version != "2.1.0" || len(log.Runs) != 1 {
		t.Fatal("sarifLog needs version 2.1.0 and one run")
	}
	run := log.Runs[0]
	if run.Tool == nil || run.Tool.Driver == nil || run.Tool.Driver.Name == nil || *run.Tool.Driver.Name == "" {
		t.Fatal("run.tool.driver.name is required")
	}
	for _, r := range run.Tool.Driver.Rules {
		if r.ID == nil || *r.ID == "" {
			t.Error("reportingDescriptor.id is required")
		}
	}
	for i, r := range run.Results {
		if r.Message == nil || r.Message.Text == nil || *r.Message.Text == "" {
			t.Errorf("result %d: message.text is required", i)
		}
		for _, l := range r.Locations {
			pl := l.PhysicalLocation
			if pl.ArtifactLocation.URI == nil || *pl.ArtifactLocation.URI == "" || pl.Region.StartLine < 1 || pl.Region.StartColumn < 1 {
				t.Errorf("result %d: a location needs a uri and a region from 1:1", i)
			}
		}
	}
}

// TestReviewWritersSanitize plants hostile text in every string of a
// review and checks no writer lets a control character through.
func TestReviewWritersSanitize(t *testing.T) {
	rep := reviewCorpus(t)
	bad := hostiletest.Joined()
	for i := range rep.Hazards {
		rep.Hazards[i].Excerpt += bad
		rep.Hazards[i].Message += bad
		rep.Hazards[i].Activity += bad
	}
	for i := range rep.Activities {
		rep.Activities[i].Name += bad
	}
	writers := map[string]func(*bytes.Buffer) error{
		"text":     func(b *bytes.Buffer) error { return WriteReviewText(b, rep, ReviewOptions{}) },
		"markdown": func(b *bytes.Buffer) error { return WriteReviewMarkdown(b, rep, ReviewOptions{}) },
		"json":     func(b *bytes.Buffer) error { return WriteReviewJSON(b, rep, ReviewOptions{}) },
		"sarif":    func(b *bytes.Buffer) error { return WriteReviewSARIF(b, rep, ReviewOptions{}) },
	}
	for name, write := range writers {
		var b bytes.Buffer
		if err := write(&b); err != nil {
			t.Fatal(name, err)
		}
		for _, r := range b.String() {
			if r == 0x1b || r == 0x07 || (r < 0x20 && r != '\n' && r != '\t') || (r >= 0x80 && r < 0xa0) {
				t.Errorf("%s output holds control character %U", name, r)
				break
			}
		}
		if name == "json" || name == "sarif" {
			var v any
			if err := json.Unmarshal(b.Bytes(), &v); err != nil {
				t.Errorf("%s output is not JSON: %v", name, err)
			}
		}
	}
}

// TestReviewTextNamesEverything checks the text output names each
// hazard's rule, activity, place, why and fix.
func TestReviewTextNamesEverything(t *testing.T) {
	rep := reviewCorpus(t)
	var b bytes.Buffer
	if err := WriteReviewText(&b, rep, ReviewOptions{}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, h := range rep.Hazards {
		for _, want := range []string{string(h.Rule), loc(h.Location), h.Message} {
			if !strings.Contains(out, want) {
				t.Errorf("text output lacks %q", want)
			}
		}
	}
	for _, want := range []string{"why:", "fix:", "Activities"} {
		if !strings.Contains(out, want) {
			t.Errorf("text output lacks %q", want)
		}
	}
}

// TestReviewTextWorstFirst checks that the text and the Markdown list the
// hazards most severe first under the summary that counts them ("3 high,
// 4 medium"), each severity in the review's order, and that JSON keeps
// the review's order.
func TestReviewTextWorstFirst(t *testing.T) {
	rep := reviewCorpus(t)
	sevs := map[string]bool{}
	for _, h := range rep.Hazards {
		sevs[h.Severity.String()] = true
	}
	if len(sevs) < 2 {
		t.Fatalf("the corpus has hazards of %d severities; the order cannot be checked", len(sevs))
	}
	want := worstFirst(rep.Hazards)
	for i := 1; i < len(want); i++ {
		if want[i].Severity > want[i-1].Severity {
			t.Fatalf("hazard %d (%s) after a less severe one", i, want[i].Severity)
		}
	}
	for name, write := range map[string]func(*bytes.Buffer) error{
		"text":     func(b *bytes.Buffer) error { return WriteReviewText(b, rep, ReviewOptions{}) },
		"markdown": func(b *bytes.Buffer) error { return WriteReviewMarkdown(b, rep, ReviewOptions{}) },
	} {
		var b bytes.Buffer
		if err := write(&b); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		at := 0
		for i, h := range want {
			// Each hazard's location, in order: a hazard is found after the
			// one before it.
			where := loc(h.Location)
			j := strings.Index(out[at:], where)
			if j < 0 {
				t.Fatalf("%s: hazard %d (%s %s at %s) is not after hazard %d", name, i, h.Severity, h.Rule, where, i-1)
			}
			at += j + len(where)
		}
	}
}

// TestReviewSaysWhichBuild checks that a review of files with
// conditional compilation says, in text and JSON, which build's code it
// reviewed.
func TestReviewSaysWhichBuild(t *testing.T) {
	rep := &review.Report{Builds: []review.BuildNote{{File: "src/Costs.cs", Build: "Release"}, {File: "src/Mail.cs", Build: "Release"}}}
	var text, js bytes.Buffer
	if err := WriteReviewText(&text, rep, ReviewOptions{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "reviewed as a Release build compiles them") || !strings.Contains(text.String(), "2 files") {
		t.Errorf("text does not say which build: %s", text.String())
	}
	if err := WriteReviewJSON(&js, rep, ReviewOptions{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(js.String(), `"builds":[{"file":"src/Costs.cs","build":"Release"}`) {
		t.Errorf("JSON does not list the builds: %s", js.String())
	}
}

// discoveryCase is a detect/review discovery case with a name a workflow
// calls that no file defines and a run-time registration.
const discoveryCase = "../../../../detect/review/testdata/discovery/d06_py_runtime_discovery"

// TestReviewSARIFPathsFromRoot: every artifact URI is relative to the
// reviewed root, with uriBaseId %SRCROOT% (declared in
// originalUriBaseIds), whether the root was given relative to the
// shell's folder or absolute; the unresolved names are notifications
// with a location.
func TestReviewSARIFPathsFromRoot(t *testing.T) {
	abs, err := filepath.Abs(corpusDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, root := range []string{corpusDir, abs, discoveryCase} {
		rep, err := review.Review(context.Background(), []string{root}, langs.Options())
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := WriteReviewSARIF(&buf, rep, ReviewOptions{SrcRootURI: "file:///src/"}); err != nil {
			t.Fatal(err)
		}
		parsed, err := sarif.FromBytes(buf.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		if err := parsed.Validate(); err != nil {
			t.Fatalf("%s: does not validate: %v", root, err)
		}
		run := parsed.Runs[0]
		if b, ok := run.OriginalUriBaseIds["%SRCROOT%"]; !ok || b.URI == nil || *b.URI != "file:///src/" {
			t.Fatalf("%s: originalUriBaseIds has no %%SRCROOT%%: %v", root, run.OriginalUriBaseIds)
		}
		check := func(what string, al *sarif.ArtifactLocation) {
			if al == nil || al.URI == nil || al.URIBaseID == nil || *al.URIBaseID != "%SRCROOT%" {
				t.Fatalf("%s: %s: no uri relative to %%SRCROOT%%", root, what)
			}
			u := *al.URI
			if strings.HasPrefix(u, "file:") || strings.HasPrefix(u, "/") || strings.HasPrefix(u, "..") || strings.Contains(u, "testdata") {
				t.Fatalf("%s: %s: uri %q is not relative to the reviewed root", root, what, u)
			}
		}
		for _, r := range run.Results {
			check("result", r.Locations[0].PhysicalLocation.ArtifactLocation)
		}
		notes := 0
		for _, inv := range run.Invocations {
			for _, n := range inv.ToolExecutionNotifications {
				if len(n.Locations) > 0 {
					notes++
					check("notification", n.Locations[0].PhysicalLocation.ArtifactLocation)
					if n.Level != "warning" {
						t.Errorf("%s: an unresolved name is a warning", root)
					}
				}
			}
		}
		if notes != len(rep.Unresolved) {
			t.Fatalf("%s: %d notifications with a location for %d unresolved", root, notes, len(rep.Unresolved))
		}
		if root == discoveryCase && notes == 0 {
			t.Fatal("the discovery case has unresolved names")
		}
	}
}

// TestReviewUnresolvedWritten: the names twice did not review are in the
// summary line's count, in a text section before the hazards, in JSON's
// review.unresolved (name, location, reason) and in Markdown.
func TestReviewUnresolvedWritten(t *testing.T) {
	rep, err := review.Review(context.Background(), []string{discoveryCase}, langs.Options())
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Unresolved) == 0 {
		t.Fatal("no unresolved names in the case")
	}
	var text bytes.Buffer
	if err := WriteReviewText(&text, rep, ReviewOptions{}); err != nil {
		t.Fatal(err)
	}
	out := text.String()
	first, _, _ := strings.Cut(out, "\n")
	if !strings.Contains(first, fmt.Sprintf("%d not reviewed", len(rep.Unresolved))) {
		t.Errorf("summary line has no unreviewed count: %q", first)
	}
	sec := strings.Index(out, "Not reviewed")
	if sec < 0 || (len(rep.Hazards) > 0 && strings.Index(out, string(rep.Hazards[0].Rule)) < sec) {
		t.Errorf("no Not reviewed section before the hazards:\n%s", out)
	}
	for _, u := range rep.Unresolved {
		if !strings.Contains(out, u.Name) || !strings.Contains(out, u.Reason) {
			t.Errorf("text does not list %s (%s)", u.Name, u.Reason)
		}
	}
	var js bytes.Buffer
	if err := WriteReviewJSON(&js, rep, ReviewOptions{}); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Review struct {
			Unresolved []struct {
				Name     string `json:"name"`
				Reason   string `json:"reason"`
				Location struct {
					File string `json:"file"`
					Line int    `json:"line"`
				} `json:"location"`
			} `json:"unresolved"`
			Activities []struct {
				Name       string `json:"name"`
				Discovered string `json:"discovered"`
			} `json:"activities"`
		} `json:"review"`
	}
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Review.Unresolved) != len(rep.Unresolved) {
		t.Fatalf("JSON lists %d unresolved, want %d", len(doc.Review.Unresolved), len(rep.Unresolved))
	}
	for _, u := range doc.Review.Unresolved {
		if u.Name == "" || u.Reason == "" || u.Location.File == "" || u.Location.Line < 1 {
			t.Errorf("JSON unresolved entry lacks name, reason or location: %+v", u)
		}
	}
	inferred := false
	for _, a := range doc.Review.Activities {
		inferred = inferred || a.Discovered == review.DiscoveredInferred
	}
	if !inferred {
		t.Error("JSON does not mark the inferred activity discovered: inferred")
	}
	var md bytes.Buffer
	if err := WriteReviewMarkdown(&md, rep, ReviewOptions{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "### Not reviewed") {
		t.Error("Markdown has no Not reviewed section")
	}
}
