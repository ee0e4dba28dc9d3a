// Package rundiff compares two analysed runs of a workflow: it aligns
// their invocations (the same activity or child workflow, then the input
// value that tells same-name invocations apart, then order), says how each
// pair was aligned and what only one run has, and lists what differs,
// worst first: findings one run has and the other does not, attempts and
// their failures, outcomes, the retry schedule, durations (as each history
// measures them), inputs and outputs both runs share, the run's status and
// why it ended, and the timers and events only one run has.
//
// It is pure, like detect: it reads two histories and their reports and
// returns a Diff. It does no I/O and imports no UI. Every text it takes
// from a history is made safe for one line (catalyst/safetext) before it
// goes into a Fact; names (Pair.Name) are kept raw, for renderers to pass
// through the sanitizer.
package rundiff

import (
	"cmp"
	"slices"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/detect"
)

// Run is one side of a comparison: a history and what detect found in it.
type Run struct {
	History *catalyst.History
	Report  *detect.Report
}

// Side names one side of a comparison.
type Side int8

// Sides. A is the run compared against (the one that went fine, the
// source of a rerun); B the run in question.
const (
	SideA Side = 1
	SideB Side = 2
)

// String returns "A" or "B".
func (s Side) String() string {
	if s == SideB {
		return "B"
	}
	return "A"
}

// Options configure Compare.
type Options struct {
	// Keys returns, for each invocation of r (in Report.Invocations
	// order), the value of the input field that tells it apart from the
	// other invocations of its name (the KEY the run view shows), or ""
	// where there is none. nil: invocations of one name are aligned by id,
	// then by order.
	Keys func(h *catalyst.History, r *detect.Report) []string
	// Why says why a run ended as it did, one safe line ("" when it
	// completed): tui/format.RunWhy. nil: the run's failure message.
	Why func(h *catalyst.History) string
}

// Alignment says how a pair of invocations was aligned.
type Alignment int8

// Alignments, in the order Compare tries them.
const (
	// AlignedByName: the only invocation of its name in each run.
	AlignedByName Alignment = 1
	// AlignedByID: the same invocation id in both runs (a rerun keeps the
	// task execution ids of the events it copied).
	AlignedByID Alignment = 2
	// AlignedByKey: the same value of the input field that tells
	// same-name invocations apart (Options.Keys).
	AlignedByKey Alignment = 3
	// AlignedByOrder: the n-th of the invocations of its name left in
	// each run once the others were aligned.
	AlignedByOrder Alignment = 4
	// OnlyInA and OnlyInB: no invocation of the other run was left to
	// align it with.
	OnlyInA Alignment = 5
	OnlyInB Alignment = 6
)

// String returns the alignment as twice's JSON writes it: "by-name",
// "by-id", "by-key", "by-order", "only-in-a" or "only-in-b".
func (a Alignment) String() string {
	switch a {
	case AlignedByName:
		return "by-name"
	case AlignedByID:
		return "by-id"
	case AlignedByKey:
		return "by-key"
	case AlignedByOrder:
		return "by-order"
	case OnlyInA:
		return "only-in-a"
	case OnlyInB:
		return "only-in-b"
	}
	return ""
}

// Words says how a pair was aligned, for people.
func (a Alignment) Words() string {
	switch a {
	case AlignedByName:
		return "the only call of its name in each run"
	case AlignedByID:
		return "the same invocation id"
	case AlignedByKey:
		return "the same key"
	case AlignedByOrder:
		return "by order among the calls of its name"
	case OnlyInA:
		return "only in A"
	case OnlyInB:
		return "only in B"
	}
	return ""
}

// Diff is what differs between two runs.
type Diff struct {
	A, B Run
	// Run lists what differs in the runs themselves (status, why it
	// ended, duration, the timers and events only one has), worst first.
	Run []Change
	// Pairs are the aligned invocations: those with differences first,
	// worst first, then the unchanged in A's order; an invocation only one
	// run has is a pair with the other side -1.
	Pairs []Pair
	// Findings are the findings one run has and the other does not, most
	// severe first.
	Findings []FindingChange
}

// Pair is an invocation of A aligned with one of B.
type Pair struct {
	// A and B are positions in each run's Report.Invocations; -1 for the
	// side that has none (Aligned is OnlyInA or OnlyInB).
	A, B int
	// Name is the activity or child-workflow name, raw (sanitize to show).
	Name string
	Kind detect.Kind
	// Key is the value of the distinguishing input field both share, when
	// Aligned is AlignedByKey (raw).
	Key     string
	Aligned Alignment
	// Changes are what differs, worst first; none for an unchanged pair.
	Changes []Change
}

// Changed reports whether the pair differs at all (an invocation only one
// run has does).
func (p *Pair) Changed() bool { return len(p.Changes) > 0 }

// Worst is the kind of the pair's worst change, 0 when it has none.
func (p *Pair) Worst() ChangeKind {
	if len(p.Changes) == 0 {
		return 0
	}
	return p.Changes[0].Kind
}

// FindingChange is a finding one run has and the other does not.
type FindingChange struct {
	// Side is the run that has it; Index its position in that run's
	// Report.Findings.
	Side  Side
	Index int
	// Pair is the position in Diff.Pairs of the invocation it concerns,
	// -1 for a run-wide finding.
	Pair int
}

// Finding returns the finding c names in d.
func (d *Diff) Finding(c FindingChange) *detect.Finding {
	r := d.A.Report
	if c.Side == SideB {
		r = d.B.Report
	}
	return &r.Findings[c.Index]
}

// Changed reports whether the runs differ in anything Compare looks at.
func (d *Diff) Changed() bool {
	if len(d.Run) > 0 || len(d.Findings) > 0 {
		return true
	}
	for i := range d.Pairs {
		if d.Pairs[i].Changed() {
			return true
		}
	}
	return false
}

// NewFindings returns the findings B has that A does not, at min severity
// or above: what a CI gate on a rerun fails on.
func (d *Diff) NewFindings(min detect.Severity) []FindingChange {
	var out []FindingChange
	for _, c := range d.Findings {
		if c.Side == SideB && d.Finding(c).Severity >= min {
			out = append(out, c)
		}
	}
	return out
}

// Compare aligns the invocations of a and b and lists what differs. Both
// runs must have a report.
func Compare(a, b Run, opts Options) *Diff {
	d := &Diff{A: a, B: b}
	pairs := align(a, b, opts)
	c := comparer{a: a, b: b, opts: opts}
	c.pairs(pairs)
	// Worst first; the unchanged keep A's order (then B's for B's own).
	// Sorted by position: a Pair is too large to move about.
	order := make([]int32, len(pairs))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(i, j int32) int {
		x, y := &pairs[i], &pairs[j]
		if cx, cy := x.Changed(), y.Changed(); cx != cy {
			if cx {
				return -1
			}
			return 1
		}
		if x.Changed() {
			if k := cmp.Compare(rankOf(x.Changes[0]), rankOf(y.Changes[0])); k != 0 {
				return k
			}
		}
		return cmp.Compare(i, j) // align made them in A's order, then B's
	})
	sorted := make([]Pair, len(pairs))
	for k, i := range order {
		sorted[k] = pairs[i]
	}
	pairs = sorted
	d.Pairs = pairs
	d.Findings = findingChanges(a, b, pairs)
	d.Run = c.run()
	return d
}
