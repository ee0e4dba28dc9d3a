package review

import (
	"fmt"
	"strings"

	"github.com/twice-cli/twice/detect"
)

// Join says what the code review says about a history report: every
// activity the run called, found in the source or not, and, for each
// finding about an activity, what its code changes. It reads rep without
// changing it: the findings' severities, confidences and order are the
// history's. It returns nil when either is nil.
func Join(rep *detect.Report, code *Report) *Joined {
	if rep == nil || code == nil {
		return nil
	}
	j := &Joined{Activities: []CodeActivity{}, Findings: make([]*CodeEvidence, len(rep.Findings))}
	byName := map[string]int{}
	for _, inv := range rep.Invocations {
		if inv.Kind != detect.KindActivity {
			continue
		}
		if _, ok := byName[inv.Name]; ok {
			continue
		}
		byName[inv.Name] = len(j.Activities)
		j.Activities = append(j.Activities, codeActivity(inv.Name, code))
	}
	for i := range rep.Findings {
		f := &rep.Findings[i]
		if f.Activity == "" {
			continue
		}
		var ev *CodeEvidence
		if f.ID == detect.FindingChildWorkflowRetried {
			ev = childEvidence(f, code)
		} else if ca, ok := findCode(rep, j, byName, f.Activity, code); ok {
			ev = evidence(f, ca)
		} else {
			continue
		}
		if !ev.Found && len(code.Unavailable) > 0 {
			// The definition may be in the files this build could not read.
			ev.Note += "; this build did not review the " + unreviewed(code) + " files given, which may define it"
		}
		j.Findings[i] = ev
	}
	return j
}

// unreviewed names the languages a review left out ("Python and C#").
func unreviewed(code *Report) string {
	var names []string
	for _, l := range Langs() {
		if _, ok := code.Unavailable[l]; ok {
			names = append(names, l.Title())
		}
	}
	return strings.Join(names, " and ")
}

func findCode(rep *detect.Report, j *Joined, byName map[string]int, name string, code *Report) (CodeActivity, bool) {
	if i, ok := byName[name]; ok {
		return j.Activities[i], true
	}
	// A finding about a child workflow or a run-wide one naming an
	// activity the run did not call as an activity.
	for _, inv := range rep.Invocations {
		if inv.Name == name && inv.Kind == detect.KindActivity {
			return codeActivity(name, code), true
		}
	}
	return CodeActivity{}, false
}

// codeActivity describes one activity from the review.
func codeActivity(name string, code *Report) CodeActivity {
	ca := CodeActivity{Name: name}
	a := code.Activity(name)
	if a == nil || a.Unresolved {
		return ca
	}
	ca.Found, ca.Definition = true, a.Location
	for _, h := range a.Hazards {
		ca.Hazards = append(ca.Hazards, CodeHazard{Rule: string(h.Rule), Severity: h.Severity,
			Location: h.Location, Excerpt: h.Excerpt, Message: h.Message})
	}
	for _, g := range a.Guards {
		ca.Refusals = append(ca.Refusals, CodeHazard{Location: g.Location, Excerpt: g.Excerpt, Message: g.What})
	}
	for _, k := range a.Keys {
		ca.Keys = append(ca.Keys, CodeHazard{Location: k.Location, Excerpt: k.Excerpt, Message: k.What})
	}
	return ca
}

// bears lists the review rules that speak to each history finding.
var bears = map[detect.FindingID][]RuleID{
	detect.FindingDuplicateSideEffect:     {RuleKeyGeneratedInBody, RulePerAttemptKey, RuleUnkeyedSideEffect, RuleCheckThenAct, RuleRetryInBody},
	detect.FindingTimeoutRace:             {RuleKeyGeneratedInBody, RulePerAttemptKey, RuleUnkeyedSideEffect, RuleCheckThenAct},
	detect.FindingUnknownOutcome:          {RuleKeyGeneratedInBody, RulePerAttemptKey, RuleUnkeyedSideEffect, RuleCheckThenAct},
	detect.FindingRetriedPermanentFailure: {RuleRetriedRejection, RuleSharedRetryPolicy},
	detect.FindingSharedRetryPolicy:       {RuleSharedRetryPolicy, RuleRetriedRejection},
	detect.FindingChildWorkflowRetried:    {RulePerAttemptKey},
	detect.FindingLargePayload:            {RuleLargePayload},
}

func evidence(f *detect.Finding, ca CodeActivity) *CodeEvidence {
	ev := &CodeEvidence{Found: ca.Found, Definition: ca.Definition}
	if !ca.Found {
		ev.Note = fmt.Sprintf("the source given does not define %s: twice could not check its code", f.Activity)
		return ev
	}
	by := map[RuleID][]CodeHazard{}
	for _, h := range ca.Hazards {
		by[RuleID(h.Rule)] = append(by[RuleID(h.Rule)], h)
	}
	for _, r := range bears[f.ID] {
		ev.Hazards = append(ev.Hazards, by[r]...)
	}
	at := func(h CodeHazard) string { return fmt.Sprintf("%s:%d", h.File, h.Line) }
	switch f.ID {
	case detect.FindingDuplicateSideEffect, detect.FindingTimeoutRace, detect.FindingUnknownOutcome:
		switch {
		case len(by[RuleKeyGeneratedInBody]) > 0:
			h := by[RuleKeyGeneratedInBody][0]
			ev.Verdict = VerdictLikelyDuplicate
			ev.Note = fmt.Sprintf("likely a real duplicate: %s makes its key inside the body (%s), so the retry carried a new key and nothing downstream could refuse it", f.Activity, at(h))
		case len(by[RulePerAttemptKey]) > 0:
			h := by[RulePerAttemptKey][0]
			ev.Verdict = VerdictLikelyDuplicate
			ev.Note = fmt.Sprintf("likely a real duplicate: %s derives its key from a per-attempt id (%s), so the retry carried a new key", f.Activity, at(h))
		case len(by[RuleUnkeyedSideEffect]) > 0 || len(by[RuleCheckThenAct]) > 0:
			hs := append(by[RuleUnkeyedSideEffect], by[RuleCheckThenAct]...)
			ev.Verdict = VerdictUnprotected
			ev.Note = fmt.Sprintf("nothing in %s refuses the repeat: %s (%s)", f.Activity, hs[0].Message, at(hs[0]))
		case len(ca.Refusals) > 0:
			r := ca.Refusals[0]
			ev.Refusal = &r
			ev.Verdict = VerdictRefused
			ev.Note = fmt.Sprintf("probably refused downstream: %s's write is conditional on a key from its input (%s, %s), so the second attempt was most likely refused; lower confidence of harm", f.Activity, r.Message, at(r))
		case len(ca.Keys) > 0:
			// A key whose source twice cannot see is no reassurance: the
			// finding stands as the history says.
			k := ca.Keys[0]
			ev.Note = fmt.Sprintf("twice cannot say whether the repeat was refused: in %s, %s (%s); check that the key is the same on every retry of one invocation and differs between invocations", f.Activity, k.Message, at(k))
		default:
			ev.Note = fmt.Sprintf("twice found no side effect it recognises in %s (defined at %s:%d); check the calls it cannot see", f.Activity, ca.Definition.File, ca.Definition.Line)
		}
	default:
		if len(ev.Hazards) > 0 {
			h := ev.Hazards[0]
			ev.Verdict = VerdictConfirmed
			ev.Note = fmt.Sprintf("the code shows why: %s (%s)", h.Message, at(h))
		}
	}
	return ev
}

// childEvidence is the code evidence of a retried child workflow: where
// the workflow is defined, and any key derived from its own instance id
// (per-attempt-key hazards raised at its call sites).
func childEvidence(f *detect.Finding, code *Report) *CodeEvidence {
	ev := &CodeEvidence{}
	for _, w := range code.Workflows {
		if w.Name == f.Activity && w.File != "" {
			ev.Found, ev.Definition = true, w.Location
			break
		}
	}
	if !ev.Found {
		ev.Note = fmt.Sprintf("the source given does not define the workflow %s: twice could not check its code", f.Activity)
		return ev
	}
	for _, h := range code.Hazards {
		if h.Rule == RulePerAttemptKey && h.Workflow == f.Activity {
			ev.Hazards = append(ev.Hazards, CodeHazard{Rule: string(h.Rule), Severity: h.Severity,
				Location: h.Location, Excerpt: h.Excerpt, Message: h.Message})
		}
	}
	if len(ev.Hazards) > 0 {
		h := ev.Hazards[0]
		ev.Verdict = VerdictLikelyDuplicate
		ev.Note = fmt.Sprintf("likely a real duplicate: %s keys its work on its own instance id (%s:%d), which the retried instance does not share", f.Activity, h.File, h.Line)
	}
	return ev
}
