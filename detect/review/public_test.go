package review_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/twice-cli/twice/detect/review"
	"github.com/twice-cli/twice/detect/review/langs"
)

// TestPublicCorpus scores the review on public repositories labelled by
// hand (testdata/public: the references and labels, never the code). It
// runs only when TWICE_PUBLIC_CORPUS names a folder holding the
// checkouts; .ci/review-score is its front door. It asserts that the
// labels are well formed and that every labelled repository was
// reviewed; the numbers are the report.
// TestPublicLabelsWellFormed checks the references and labels whether or
// not checkouts are at hand: columns, full commits, known rules and
// verdicts, a reason on every row, every labelled repository listed.
func TestPublicLabelsWellFormed(t *testing.T) {
	repos, labels := loadPublicLabels(t)
	n := 0
	for _, ls := range labels {
		n += len(ls)
	}
	t.Logf("%d repositories, %d label rows", len(repos), n)
}

func TestPublicCorpus(t *testing.T) {
	root := os.Getenv("TWICE_PUBLIC_CORPUS")
	if root == "" {
		t.Skip("TWICE_PUBLIC_CORPUS is not set: no checkouts to score (see testdata/public/README.md)")
	}
	repos, labels := loadPublicLabels(t)
	if len(repos) == 0 {
		t.Fatal("testdata/public holds no repos*.tsv rows")
	}
	var sc publicScore
	sc.init()
	for _, r := range repos {
		dir := filepath.Join(root, r.dir)
		if _, err := os.Stat(dir); err != nil {
			t.Errorf("%s (%s): no checkout at %s", r.repo, r.commit, dir)
			continue
		}
		if head, err := exec.Command("git", "-C", dir, "rev-parse", "HEAD").Output(); err == nil {
			if h := strings.TrimSpace(string(head)); h != r.commit {
				t.Errorf("%s: checked out at %s, labelled at %s: its numbers are not comparable", r.repo, h, r.commit)
			}
		}
		rep, err := review.Review(context.Background(), []string{dir}, langs.Options())
		if err != nil {
			t.Errorf("%s: %v", r.repo, err)
			continue
		}
		sc.add(t, r, dir, rep, labels[r.dir])
	}
	t.Log("\n" + sc.table())
	if out := os.Getenv("TWICE_PUBLIC_SCORE_DETAIL"); out != "" {
		if err := os.WriteFile(out, []byte(sc.detail.String()), 0o644); err != nil {
			t.Error(err)
		}
	} else {
		t.Log("\n" + sc.detail.String())
	}
}

type publicRepo struct {
	dir, repo, commit string
	exclude           []string
}

type publicLabel struct {
	path    string
	line    int
	name    string
	rule    string
	verdict string
	where   string
	why     string
}

// defKey identifies a definition: its file and registered name.
type defKey struct{ path, name string }

func loadPublicLabels(t *testing.T) ([]publicRepo, map[string][]publicLabel) {
	t.Helper()
	var repos []publicRepo
	labels := map[string][]publicLabel{}
	read := func(glob string, fields int, row func(file string, n int, f []string)) {
		files, _ := filepath.Glob(filepath.Join("testdata", "public", glob))
		sort.Strings(files)
		for _, file := range files {
			fh, err := os.Open(file)
			if err != nil {
				t.Fatal(err)
			}
			sc := bufio.NewScanner(fh)
			sc.Buffer(make([]byte, 1<<20), 1<<20)
			for n := 1; sc.Scan(); n++ {
				line := sc.Text()
				if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
					continue
				}
				f := strings.Split(line, "\t")
				if len(f) != fields {
					t.Errorf("%s:%d: %d columns, want %d", file, n, len(f), fields)
					continue
				}
				row(file, n, f)
			}
			fh.Close()
		}
	}
	read("repos*.tsv", 4, func(file string, n int, f []string) {
		r := publicRepo{dir: f[0], repo: f[1], commit: f[2]}
		if len(r.commit) != 40 {
			t.Errorf("%s:%d: commit %q is not a full hash", file, n, r.commit)
		}
		if f[3] != "-" {
			for _, p := range strings.Split(f[3], ",") {
				r.exclude = append(r.exclude, strings.TrimSuffix(strings.TrimSpace(p), "/")+"/")
			}
		}
		for i, o := range repos {
			if o.dir == r.dir {
				// Two labellers may list one repository (one labels its
				// Python, the other its Go): one review, one commit.
				if o.commit != r.commit {
					t.Errorf("%s:%d: %s is listed at %s and at %s", file, n, r.dir, o.commit, r.commit)
				}
				repos[i].exclude = append(repos[i].exclude, r.exclude...)
				return
			}
		}
		repos = append(repos, r)
	})
	known := map[string]bool{}
	for _, r := range repos {
		known[r.dir] = true
	}
	rules := map[string]bool{"-": true, "guard": true}
	for _, r := range review.Rules() {
		rules[string(r.ID)] = true
	}
	read("labels*.tsv", 8, func(file string, n int, f []string) {
		line, err := strconv.Atoi(f[2])
		if err != nil {
			t.Errorf("%s:%d: line %q is not a number", file, n, f[2])
		}
		l := publicLabel{path: f[1], line: line, name: f[3], rule: f[4], verdict: f[5], where: f[6], why: f[7]}
		switch {
		case !known[f[0]]:
			t.Errorf("%s:%d: %s is in no repos*.tsv", file, n, f[0])
		case !rules[l.rule]:
			t.Errorf("%s:%d: unknown rule %q", file, n, l.rule)
		case l.rule == "-" && l.verdict != "activity" && l.verdict != "workflow" && l.verdict != "not-activity":
			t.Errorf("%s:%d: a definition row's verdict is activity, workflow or not-activity, not %q", file, n, l.verdict)
		case l.rule == "guard" && l.verdict != "guard":
			t.Errorf("%s:%d: a guard row's verdict is guard, not %q", file, n, l.verdict)
		case l.rule != "-" && l.rule != "guard" && l.verdict != "hazard" && l.verdict != "clean":
			t.Errorf("%s:%d: a rule row's verdict is hazard or clean, not %q", file, n, l.verdict)
		case strings.TrimSpace(l.why) == "" || l.why == "-":
			t.Errorf("%s:%d: say why", file, n)
		}
		labels[f[0]] = append(labels[f[0]], l)
	})
	return repos, labels
}

// counts is one line of the score.
type counts struct{ tp, fp, fn int }

type discovery struct{ labelled, reviewed, saidSo, missed int }

type publicScore struct {
	byRule     map[string]*counts
	byLang     map[review.Lang]*counts
	found      map[review.Lang]*discovery
	workflows  map[review.Lang]*discovery
	guards     counts
	excluded   int
	unlabelled int
	detail     strings.Builder
}

func (s *publicScore) init() {
	s.byRule = map[string]*counts{}
	s.byLang = map[review.Lang]*counts{}
	s.found = map[review.Lang]*discovery{}
	s.workflows = map[review.Lang]*discovery{}
}

func (s *publicScore) rule(r string) *counts {
	if s.byRule[r] == nil {
		s.byRule[r] = &counts{}
	}
	return s.byRule[r]
}

func (s *publicScore) lang(l review.Lang) *counts {
	if s.byLang[l] == nil {
		s.byLang[l] = &counts{}
	}
	return s.byLang[l]
}

func disc(m map[review.Lang]*discovery, l review.Lang) *discovery {
	if m[l] == nil {
		m[l] = &discovery{}
	}
	return m[l]
}

func (s *publicScore) add(t *testing.T, r publicRepo, dir string, rep *review.Report, labels []publicLabel) {
	rel := func(p string) string {
		p = filepath.ToSlash(p)
		d := filepath.ToSlash(dir)
		return strings.TrimPrefix(strings.TrimPrefix(p, d), "/")
	}
	excluded := func(p string) bool {
		for _, x := range r.exclude {
			if strings.HasPrefix(p+"/", x) || strings.HasPrefix(p, x) {
				return true
			}
		}
		return false
	}
	kind := map[defKey]string{}
	hazard := map[defKey]map[string]publicLabel{}
	guard := map[defKey]bool{}
	for _, l := range labels {
		k := defKey{l.path, l.name}
		switch {
		case l.rule == "-":
			kind[k] = l.verdict
		case l.rule == "guard":
			guard[k] = true
		case l.verdict == "hazard":
			if hazard[k] == nil {
				hazard[k] = map[string]publicLabel{}
			}
			hazard[k][l.rule] = l
		}
	}
	// key maps a reported definition to its label: the same file and
	// name, or a labelled name pattern (a name the code builds at run
	// time, labelled with * for the part it computes) that the reported
	// name fits, where twice writes the computed part as <…> or {…}.
	byPath := map[string][]string{}
	for k := range kind {
		if strings.Contains(k.name, "*") {
			byPath[k.path] = append(byPath[k.path], k.name)
		}
	}
	key := func(p, name string) defKey {
		k := defKey{p, name}
		if _, ok := kind[k]; ok {
			return k
		}
		for _, pat := range byPath[p] {
			if namePatternFits(pat, name) {
				return defKey{p, pat}
			}
		}
		return k
	}
	// Reported activities and workflows, by definition.
	reviewed := map[defKey]bool{}
	saidSo := map[string]bool{}
	for _, a := range rep.Activities {
		p := rel(a.File)
		if a.Unresolved {
			saidSo[a.Name] = true
			continue
		}
		reviewed[key(p, a.Name)] = true
	}
	for _, w := range rep.Workflows {
		reviewed[key(rel(w.File), w.Name)] = true
	}
	for _, u := range rep.Unresolved {
		saidSo[u.Name] = true
	}
	var lines []string
	say := func(format string, a ...any) { lines = append(lines, fmt.Sprintf(format, a...)) }
	defer func() {
		sort.Strings(lines)
		fmt.Fprintf(&s.detail, "## %s @ %s\n", r.repo, r.commit[:12])
		for _, l := range lines {
			s.detail.WriteString(l)
		}
	}()
	for k, v := range kind {
		if v != "activity" && v != "workflow" {
			continue
		}
		lang := review.LangOfFile(k.path)
		d := disc(s.found, lang)
		if v == "workflow" {
			d = disc(s.workflows, lang)
		}
		d.labelled++
		switch {
		case reviewed[k]:
			d.reviewed++
		case saidSo[k.name]:
			d.saidSo++
			say("not reviewed, said so: %s %s %s\n", v, k.name, k.path)
		default:
			d.missed++
			say("MISSED SILENTLY: %s %s %s\n", v, k.name, k.path)
		}
	}
	// Hazards: one (definition, rule) pair counts once.
	got := map[defKey]map[string]review.Hazard{}
	defOf := map[string][]string{} // activity name → its reported definitions
	for _, a := range rep.Activities {
		defOf[a.Name] = append(defOf[a.Name], rel(a.File))
	}
	for _, h := range rep.Hazards {
		paths := defOf[h.Activity]
		p := rel(h.File)
		// The hazard's activity: the definition in the hazard's file, else
		// the only one by that name.
		def := ""
		for _, d := range paths {
			if d == p {
				def = d
			}
		}
		if def == "" {
			// A call-site hazard (an orchestrator rule) or one in a helper:
			// the definition nearest the hazard's file, so that sample
			// projects sharing class names are told apart.
			best := -1
			for _, d := range paths {
				if n := commonDirs(d, p); n > best {
					def, best = d, n
				}
			}
		}
		k := key(def, h.Activity)
		if excluded(def) || excluded(p) {
			s.excluded++
			continue
		}
		if got[k] == nil {
			got[k] = map[string]review.Hazard{}
		}
		if _, dup := got[k][string(h.Rule)]; !dup {
			got[k][string(h.Rule)] = h
		}
	}
	for k, rs := range got {
		lang := review.LangOfFile(k.path)
		for rule, h := range rs {
			if _, ok := hazard[k][rule]; ok {
				s.rule(rule).tp++
				s.lang(lang).tp++
				continue
			}
			s.rule(rule).fp++
			s.lang(lang).fp++
			why := "labelled not a hazard"
			if kind[k] == "" {
				why = "activity not labelled"
				s.unlabelled++
			}
			say("FALSE POSITIVE %s %s (%s:%d) [%s]: %s\n", rule, k.name, rel(h.File), h.Line, why, h.Message)
		}
	}
	for k, rs := range hazard {
		if excluded(k.path) {
			continue
		}
		lang := review.LangOfFile(k.path)
		for rule, l := range rs {
			if _, ok := got[k][rule]; ok {
				continue
			}
			s.rule(rule).fn++
			s.lang(lang).fn++
			say("MISSED %s %s (%s): %s\n", rule, k.name, l.where, l.why)
		}
	}
	for _, a := range rep.Activities {
		p := rel(a.File)
		if excluded(p) {
			continue
		}
		for _, g := range a.Guards {
			if guard[key(p, a.Name)] {
				s.guards.tp++
				continue
			}
			s.guards.fp++
			say("FALSE GUARD %s (%s:%d): %s\n", a.Name, rel(g.File), g.Line, g.What)
		}
	}
	for k := range guard {
		found := false
		for _, a := range rep.Activities {
			if key(rel(a.File), a.Name) == k && len(a.Guards) > 0 {
				found = true
			}
		}
		if !found {
			s.guards.fn++
		}
	}
	_ = t
}

// namePatternFits reports whether a reported name fits a labelled name
// pattern: * in the pattern stands for a part the code computes at run
// time, which the reported name may spell out or write as <…> or {…}.
func namePatternFits(pattern, name string) bool {
	var b strings.Builder
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c == '<' || c == '{' {
			end := byte('>')
			if c == '{' {
				end = '}'
			}
			if j := strings.IndexByte(name[i:], end); j > 0 {
				b.WriteString("x")
				i += j
				continue
			}
		}
		b.WriteByte(c)
	}
	ok, err := path.Match(pattern, b.String())
	return err == nil && ok
}

// commonDirs counts the leading folders two slash paths share.
func commonDirs(a, b string) int {
	as, bs := strings.Split(path.Dir(a), "/"), strings.Split(path.Dir(b), "/")
	n := 0
	for n < len(as) && n < len(bs) && as[n] == bs[n] {
		n++
	}
	return n
}

func (s *publicScore) table() string {
	var b strings.Builder
	langs := []review.Lang{review.LangGo, review.LangPython, review.LangCSharp}
	fmt.Fprintf(&b, "%-26s %8s %8s %8s %8s %9s\n", "discovery", "labelled", "reviewed", "said so", "missed", "reviewed%")
	var ta, tw discovery
	for _, l := range langs {
		for _, kind := range []string{"activities", "workflows"} {
			m := s.found
			tot := &ta
			if kind == "workflows" {
				m, tot = s.workflows, &tw
			}
			d := m[l]
			if d == nil {
				continue
			}
			tot.labelled += d.labelled
			tot.reviewed += d.reviewed
			tot.saidSo += d.saidSo
			tot.missed += d.missed
			fmt.Fprintf(&b, "%-26s %8d %8d %8d %8d %9.2f\n", l.Title()+" "+kind, d.labelled, d.reviewed, d.saidSo, d.missed, ratio(d.reviewed, d.labelled))
		}
	}
	fmt.Fprintf(&b, "%-26s %8d %8d %8d %8d %9.2f\n", "all activities", ta.labelled, ta.reviewed, ta.saidSo, ta.missed, ratio(ta.reviewed, ta.labelled))
	fmt.Fprintf(&b, "%-26s %8d %8d %8d %8d %9.2f\n\n", "all workflows", tw.labelled, tw.reviewed, tw.saidSo, tw.missed, ratio(tw.reviewed, tw.labelled))
	line := func(name string, c counts) {
		fmt.Fprintf(&b, "%-26s %4d %4d %4d %9.2f %6.2f\n", name, c.tp, c.fp, c.fn, ratio(c.tp, c.tp+c.fp), ratio(c.tp, c.tp+c.fn))
	}
	fmt.Fprintf(&b, "%-26s %4s %4s %4s %9s %6s\n", "hazards", "tp", "fp", "fn", "precision", "recall")
	var rules []string
	for r := range s.byRule {
		rules = append(rules, r)
	}
	sort.Strings(rules)
	var total counts
	for _, r := range rules {
		c := s.byRule[r]
		total.tp, total.fp, total.fn = total.tp+c.tp, total.fp+c.fp, total.fn+c.fn
		line(r, *c)
	}
	for _, l := range langs {
		if c := s.byLang[l]; c != nil {
			line("("+l.Title()+")", *c)
		}
	}
	line("all hazards", total)
	line("guards claimed", s.guards)
	fmt.Fprintf(&b, "\nhazards under excluded paths (not scored): %d; false positives on activities nobody labelled: %d\n", s.excluded, s.unlabelled)
	return b.String()
}

func TestNamePatternFits(t *testing.T) {
	for _, c := range []struct {
		pattern, name string
		want          bool
	}{
		{"dapr.agents.*.call_llm", "dapr.agents.weather.call_llm", true},
		{"dapr.agents.*.call_llm", "dapr.agents.<agent>.call_llm", true},
		{"dapr.agents.*.call_llm", "dapr.agents.{self.name}.call_llm", true},
		{"dapr.agents.*.call_llm", "dapr.agents.weather.run_tool", false},
		{"charge", "charge", true},
	} {
		if got := namePatternFits(c.pattern, c.name); got != c.want {
			t.Errorf("namePatternFits(%q, %q) = %v, want %v", c.pattern, c.name, got, c.want)
		}
	}
}
