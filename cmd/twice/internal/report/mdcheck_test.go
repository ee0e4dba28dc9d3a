package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/detect"
	"github.com/twice-cli/twice/detect/review"
	"github.com/twice-cli/twice/tui/format"
)

// mdCheck is our own reader of the Markdown twice writes, enough to see
// what GitHub would make of it: raw HTML (a tag or an autolink), a link
// or image, and the text each code span shows. A backslash before ASCII
// punctuation escapes it, outside code spans only; inside a table row,
// "\|" is the table's escape and shows as "|" even in a code span.
type mdCheck struct {
	html, links []string
	spans       []string
}

func checkMarkdown(doc string) mdCheck {
	var c mdCheck
	for _, line := range strings.Split(doc, "\n") {
		table := strings.HasPrefix(line, "|")
		for i := 0; i < len(line); i++ {
			ch := line[i]
			switch {
			case ch == '\\' && i+1 < len(line) && strings.IndexByte("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", line[i+1]) >= 0:
				i++
			case ch == '`':
				n := 1
				for i+n < len(line) && line[i+n] == '`' {
					n++
				}
				end := -1
				for j := i + n; j < len(line); {
					if line[j] != '`' {
						j++
						continue
					}
					m := 1
					for j+m < len(line) && line[j+m] == '`' {
						m++
					}
					if m == n {
						end = j
						break
					}
					j += m
				}
				if end < 0 {
					i += n - 1
					continue
				}
				s := line[i+n : end]
				if len(s) >= 2 && s[0] == ' ' && s[len(s)-1] == ' ' && strings.Trim(s, " ") != "" {
					s = s[1 : len(s)-1]
				}
				if table {
					s = strings.ReplaceAll(s, `\|`, "|")
				}
				c.spans = append(c.spans, s)
				i = end + n - 1
			case ch == '<' && i+1 < len(line) && (isASCIILetter(line[i+1]) || strings.IndexByte("/!?", line[i+1]) >= 0):
				c.html = append(c.html, line[i:min(len(line), i+30)])
			case ch == ']' && i+1 < len(line) && line[i+1] == '(':
				c.links = append(c.links, line[max(0, i-20):min(len(line), i+30)])
			}
		}
	}
	return c
}

func isASCIILetter(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }

// hostileMarkdown are names a repository or a history can hold that
// GitHub would render as HTML, links or images, or that break a code span.
var hostileMarkdown = []string{
	"<script>alert(1)</script>",
	"<img src=x onerror=alert(1)>",
	"[click](javascript:alert(1))",
	"![x](https://evil.example/p.png)",
	"a|b` *c* _d_ \\e",
}

// TestEveryMarkdownWriterEscapes (issue 26, item 5): review -o markdown
// wrote activity names, messages and paths raw (<script> and javascript:
// links rendered on GitHub); every writer now uses the one escaper, and a
// path in a code span shows as itself, with no backslash escapes.
func TestEveryMarkdownWriterEscapes(t *testing.T) {
	path := "svc/my_file`x|y.py"
	rep := &review.Report{Roots: []string{"svc"}, Files: map[review.Lang]int{review.LangPython: 1}, Lines: map[review.Lang]int{}}
	for i, name := range hostileMarkdown {
		l := review.Location{File: path, Line: i + 1, Col: 1}
		h := review.Hazard{Rule: review.RuleUnkeyedSideEffect, Severity: detect.SeverityHigh, Activity: name, Location: l, Message: name, Excerpt: name}
		rep.Hazards = append(rep.Hazards, h)
		rep.Activities = append(rep.Activities, review.Activity{Name: name, Location: l, Hazards: []review.Hazard{h},
			Guards: []review.Guard{{Location: l, What: name, Excerpt: name}}})
	}
	rep.Skipped = []review.Skipped{{File: path, Reason: hostileMarkdown[0]}}
	var b bytes.Buffer
	if err := WriteReviewMarkdown(&b, rep, ReviewOptions{}); err != nil {
		t.Fatal(err)
	}
	ev := &review.CodeEvidence{Note: hostileMarkdown[1], Refusal: &review.CodeHazard{Location: review.Location{File: path, Line: 1, Col: 1}, Excerpt: hostileMarkdown[2]},
		Hazards: []review.CodeHazard{{Rule: string(review.RuleUnkeyedSideEffect), Location: review.Location{File: path, Line: 2, Col: 1}, Message: hostileMarkdown[3]}}}
	finding := &detect.Finding{ID: "F001", Activity: hostileMarkdown[0], Explanation: hostileMarkdown[1], Advice: hostileMarkdown[2]}
	docs := map[string]string{
		"review -o markdown": b.String(),
		"a finding (show -o markdown, y)": string(format.AppendFindingTicket(nil, &catalyst.Run{ID: hostileMarkdown[3], Workflow: hostileMarkdown[0]}, "", finding, ev, nil,
			detect.InputKey{Field: hostileMarkdown[1], Value: hostileMarkdown[2]})),
	}
	for name, doc := range docs {
		c := checkMarkdown(doc)
		if len(c.html) > 0 || len(c.links) > 0 {
			t.Errorf("%s: raw HTML %q, links %q in:\n%s", name, c.html, c.links, doc)
		}
		found := false
		for _, s := range c.spans {
			if strings.HasPrefix(s, "svc/") {
				if !strings.HasPrefix(s, path) {
					t.Errorf("%s: a code span shows %q, want the path as itself (%q…)", name, s, path)
				}
				found = true
			}
		}
		if !found {
			t.Errorf("%s: no code span shows the path; spans %q\n%s", name, c.spans, doc)
		}
	}
}
