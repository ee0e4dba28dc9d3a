package review

import "github.com/twice-cli/twice/detect"

// Joined is what a code review says about one history's report (Join):
// every activity the run called, as the source defines it or not, and
// what the code changes about each finding. The history's report is not
// changed; its findings are matched here by position.
type Joined struct {
	// Activities lists the run's activities as the source given defines
	// them, in the order they were first called.
	Activities []CodeActivity
	// Findings holds, by position in the report's Findings, what the
	// activity's code says about each finding (nil: nothing, as for a
	// run-wide finding that names no activity).
	Findings []*CodeEvidence
}

// Finding returns the code evidence of the report's i-th finding, or nil
// when there is none (or j is nil: no source was given).
func (j *Joined) Finding(i int) *CodeEvidence {
	if j == nil || i < 0 || i >= len(j.Findings) {
		return nil
	}
	return j.Findings[i]
}

// CodeVerdict is what the activity's code changes about a finding.
type CodeVerdict string

// Code verdicts.
const (
	// VerdictRefused: the write is conditional on a key from the input,
	// so the repeat was probably refused downstream (lower confidence of
	// harm).
	VerdictRefused CodeVerdict = "probably-refused-downstream"
	// VerdictLikelyDuplicate: the key is made inside the body (or from a
	// per-attempt id), so the repeat carried a new key: likely a real
	// duplicate.
	VerdictLikelyDuplicate CodeVerdict = "likely-real-duplicate"
	// VerdictUnprotected: the code has a side effect with no key or
	// conditional write: nothing refuses the repeat.
	VerdictUnprotected CodeVerdict = "nothing-refuses-the-repeat"
	// VerdictConfirmed: the code shows the cause of a non-duplicate
	// finding (the rejection raised, the shared policy, the body
	// returned).
	VerdictConfirmed CodeVerdict = "confirmed-in-code"
)

// CodeEvidence is what twice review found in the source of a finding's
// activity.
type CodeEvidence struct {
	// Found is false when the source given does not define the activity.
	Found bool
	// Definition is where the activity's function is defined.
	Definition Location
	// Hazards are the review hazards of the activity that bear on this
	// finding.
	Hazards []CodeHazard
	// Refusal is the conditional write that refuses a duplicate, if any.
	Refusal *CodeHazard
	// Verdict and Note say what the code changes about the finding.
	Verdict CodeVerdict
	Note    string
}

// CodeHazard is one review hazard (or a refusing write) in an activity's
// source, as the join cites it.
type CodeHazard struct {
	// Rule is the review rule id ("key-generated-in-body"); "" for a
	// refusing write.
	Rule     string
	Severity detect.Severity
	Location
	// Excerpt is the source line (untrusted: renderers sanitize it).
	Excerpt string
	Message string
}

// CodeActivity is one activity of the run, as the source defines it (or
// not).
type CodeActivity struct {
	Name       string
	Found      bool
	Definition Location
	Hazards    []CodeHazard
	Refusals   []CodeHazard
	// Keys are keys twice can vouch for neither way: one whose source it
	// cannot see, or a constant shared by every operation (never a
	// refusal).
	Keys []CodeHazard
}
