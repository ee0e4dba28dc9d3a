package detect

import "slices"

// FindingID is a finding's stable id; it appears in JSON output.
type FindingID string

// A Check is one finding of the catalogue, as golang.org/x/tools'
// analysis.Analyzer is one analysis: the finding's id, its names, its
// default severity and what it means, and the check that raises it.
// Analyze runs every check of the catalogue in turn; the command line's
// help, the README's table of findings and the tests read the same list.
//
// Adding a finding is one file in this package, holding its FindingID,
// its Check and the check itself (duplicate.go is the model), its line in
// catalogue below, its row in the README (TestReadmeListsEveryFinding
// prints it), and a corpus case that raises it (TestCorpusRaisesEveryFinding).
type Check struct {
	// ID is the finding's stable id.
	ID FindingID
	// Title says in a few words what the finding flags, for a list of
	// findings ("a side effect that may have happened more than once").
	Title string
	// Short names the finding in a word or two where its id is too long
	// (the view's flag column: "timeout race").
	Short string
	// Severity is the finding's default severity: what it has unless
	// what the activity's name says or the history shows changes it (Doc
	// says when).
	Severity Severity
	// Doc says when the finding is raised and when its severity differs
	// from the default, in a few plain sentences (no markup): the README's
	// table shows it.
	Doc string

	// invocation raises the finding for invocation k (nil: the finding is
	// not about one invocation). The driver calls it once per invocation,
	// in invocation order, on several goroutines for a long history (each
	// with a detector of its own), and never for a call with nothing to
	// find: one attempt, completed once, no payload over the threshold.
	invocation func(d *detector, k int)
	// run raises the finding over the whole run (nil: none), after every
	// invocation is grouped, possibly while the invocation checks run: it
	// reads the invocations, never the findings.
	run func(d *detector)
}

// catalogue is every finding, in the order Analyze raises them (a tie in
// severity and history position keeps this order). It is never changed:
// Checks hands out copies.
var catalogue = [...]*Check{
	&duplicateCheck,      // duplicate.go
	&childRetriedCheck,   // childretried.go
	&permanentCheck,      // permanent.go
	&unknownOutcomeCheck, // unknownoutcome.go
	&largePayloadCheck,   // largepayload.go
	&timeoutRaceCheck,    // timeoutrace.go
	&sharedPolicyCheck,   // sharedpolicy.go
}

// Checks returns the findings catalogue, in the order Analyze runs it.
func Checks() []Check {
	out := make([]Check, len(catalogue))
	for i, c := range catalogue {
		out[i] = *c
	}
	return out
}

// CheckOf returns the catalogue's entry for id; ok is false for an id
// twice does not raise.
func CheckOf(id FindingID) (c Check, ok bool) {
	i := slices.IndexFunc(catalogue[:], func(c *Check) bool { return c.ID == id })
	if i < 0 {
		return Check{}, false
	}
	return *catalogue[i], true
}
