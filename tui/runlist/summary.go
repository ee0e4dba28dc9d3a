package runlist

import (
	"cmp"
	"slices"
	"strings"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/safetext"
	"github.com/twice-cli/twice/detect"
)

// Summary is what the background analysis found in one run, for its
// findings column, its preview, the filter and the retried/flagged
// toggles.
type Summary struct {
	// Err says why the run could not be analyzed ("" when it was).
	Err string
	// Worst is the worst severity found; Findings how many findings.
	Worst    detect.Severity
	Findings int
	// Top is the worst finding (the first of the most severe): its id,
	// confidence and activity ("" id: none).
	Top Finding
	// All are the run's findings, most severe first, for the preview and
	// the filter (finding ids and activity names).
	All []Finding
	// Retried is set when an invocation has more than one attempt.
	Retried bool
}

// Finding is one finding of a listed run, in words.
type Finding struct {
	ID         detect.FindingID
	Severity   detect.Severity
	Confidence detect.Confidence
	Activity   string
}

// Summarize reduces a report to a row summary.
func Summarize(rep *detect.Report) Summary {
	var s Summary
	for i := range rep.Findings {
		f := &rep.Findings[i]
		s.Findings++
		s.All = append(s.All, Finding{ID: f.ID, Severity: f.Severity, Confidence: f.Confidence, Activity: f.Activity})
	}
	slices.SortStableFunc(s.All, func(a, b Finding) int { return cmp.Compare(b.Severity, a.Severity) })
	if len(s.All) > 0 {
		s.Top, s.Worst = s.All[0], s.All[0].Severity
	}
	for i := range rep.Invocations {
		if len(rep.Invocations[i].Attempts) > 1 {
			s.Retried = true
			break
		}
	}
	return s
}

// searchText is what the filter matches in a summary: finding ids and
// activity names.
func (s Summary) searchText() string {
	var b strings.Builder
	for _, f := range s.All {
		b.WriteString(string(f.ID))
		b.WriteByte(0)
		b.WriteString(strings.ToLower(safetext.Line(f.Activity)))
		b.WriteByte(0)
	}
	return b.String()
}

// Key identifies a run in a list: its app, id and, for file-backed sources,
// where it was read from.
func Key(run catalyst.Run) string {
	return run.AppID + "\x00" + run.ID + "\x00" + run.Provenance.Location
}

// RefOf returns the reference the source needs to fetch a run's history.
func RefOf(run catalyst.Run) catalyst.RunRef {
	project := run.Project.Name
	if project == "" {
		project = run.Project.UID
	}
	return catalyst.RunRef{ID: run.ID, AppID: run.AppID, Project: project, Location: run.Provenance.Location}
}
