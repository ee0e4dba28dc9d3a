package detect

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/twice-cli/twice/catalyst"
)

// FindingDuplicateSideEffect: an activity's side effect may have happened
// more than once.
const FindingDuplicateSideEffect FindingID = "duplicate-side-effect"

var duplicateCheck = Check{
	ID:       FindingDuplicateSideEffect,
	Title:    "a side effect that may have happened more than once",
	Short:    "duplicate",
	Severity: SeverityHigh,
	Doc: "An activity whose side effect may have happened more than once: an attempt failed ambiguously " +
		"(a timeout, a reset, a 502, 503 or 504: the request may have reached the provider) or left no " +
		"outcome, and a later attempt ran; or the history records two completions for one call, and then " +
		"it is observed, not probable. High when the activity's name reads as a side effect (charge, send, " +
		"create, ...), medium when the name says nothing; reads and idempotent writes are not flagged.",
	invocation: func(d *detector, k int) {
		if d.b.invs[k].Kind == KindActivity {
			d.duplicate(k)
		}
	},
}

// duplicate flags an invocation whose side effect may have happened more
// than once.
func (d *detector) duplicate(k int) {
	inv := &d.b.invs[k]
	sev := severityFor(inv.Class)
	if sev == SeverityNone {
		return
	}
	// What raised the finding: an attempt's ambiguous failure, missing
	// outcome, unrecognised failure, or a second failed outcome.
	const (
		trigAmbiguous = iota + 1
		trigNoOutcome
		trigUnclassified
		trigExtraFailure
		trigUntied
	)
	var completions []int // positions of completion events
	conf := Confidence("")
	trigger, trigNum, trigFact := 0, 0, ""
	raise := func(c Confidence, what, number int, fact string) {
		if confidenceRank(c) > confidenceRank(conf) {
			conf, trigger, trigNum, trigFact = c, what, number, fact
		}
	}
	n := len(inv.Attempts)
	for i := range inv.Attempts {
		a := &inv.Attempts[i]
		if a.Outcome == OutcomeCompleted {
			completions = append(completions, a.OutcomeEvent)
		}
		// A second outcome for one attempt: it executed twice. A failure
		// among its outcomes counts by its class.
		for _, x := range a.ExtraOutcomes {
			e := d.h.At(x)
			if e.Type == catalyst.EventTaskCompleted {
				completions = append(completions, x)
				if a.Outcome == OutcomeFailed {
					d.raiseForFailure(raise, a.FailureClass, trigExtraFailure, a.Number, failureText(a.Failure))
				}
				continue
			}
			d.raiseForFailure(raise, d.fc.class(e.Failure), trigExtraFailure, a.Number, failureText(e.Failure))
		}
		if i == n-1 {
			break
		}
		switch {
		case a.Outcome == OutcomeFailed && a.FailureClass == FailureAmbiguous:
			raise(ConfidenceProbable, trigAmbiguous, a.Number, failureText(a.Failure))
		case a.Outcome == OutcomeUnknown && d.untied(k, a):
			// An outcome the history records may be this attempt's.
			raise(ConfidencePossible, trigUntied, a.Number, "")
		case a.Outcome == OutcomePending || a.Outcome == OutcomeUnknown:
			raise(ConfidenceProbable, trigNoOutcome, a.Number, "")
		case a.Outcome == OutcomeFailed && a.FailureClass == FailureUnclassified:
			raise(ConfidencePossible, trigUnclassified, a.Number, failureText(a.Failure))
		}
	}
	if len(completions) >= 2 {
		conf = ConfidenceObserved
	}
	if conf == "" {
		return
	}
	nt := d.textOf(inv.Name)
	inputFacts, inputsDiffer := d.compareInputs(k)
	differ := inputsDiffer && inv.LinkRule == LinkInferred
	if differ {
		conf = ConfidencePossible
	}
	ev := d.attemptEvidence(k, inv, nt.subject, conf == ConfidenceObserved)
	ev = append(ev, inputFacts...)
	ev = append(ev, d.compareOutputs(k, completions)...)

	key := explanationKey{id: FindingDuplicateSideEffect, conf: conf, name: inv.Name, fact: trigFact,
		trigger: trigger, number: trigNum, completions: len(completions), differ: differ}
	expl, ok := d.explanations[key]
	if !ok {
		l := &d.ln
		if len(completions) >= 2 {
			l.str("The history shows this call executing more than once: it records ").num(len(completions)).
				str(" completions for this one call. Activities run at least once, never exactly once; unless ").
				str(nt.subject).str(" is keyed on a value stable across retries and the write is conditional on " +
				"that key, it happened twice.")
		} else {
			if trigger == trigExtraFailure {
				l.str("Attempt ").num(trigNum).str(" of ").str(nt.quoted)
			} else {
				l.str("The engine ran ").str(nt.quoted).str(" again after attempt ").num(trigNum)
			}
			switch trigger {
			case trigAmbiguous:
				l.str(" failed ambiguously (").str(trigFact).str("), so ").str(nt.subject).
					str(" may have committed before the failure reached the history.")
			case trigNoOutcome:
				l.str(" left no recorded outcome, so ").str(nt.subject).str(" may have committed.")
			case trigUntied:
				l.str(" has no outcome the history ties to it (an outcome without a scheduled id may be its own), so ").
					str(nt.subject).str(" may have committed.")
			case trigUnclassified:
				l.str(" failed with an error twice does not recognise (").str(trigFact).str("); if it came after ").
					str(nt.subject).str(" committed, it ran twice.")
			case trigExtraFailure:
				l.str(" recorded two outcomes for one scheduled task, one a failure (").str(trigFact).
					str("): if the run that failed had committed ").str(nt.subject).
					str(" before it failed, it happened twice.")
			}
			l.str(" Nothing inside the activity can tell: its inputs are identical by design, so only the " +
				"outside world can refuse the duplicate.")
		}
		if differ {
			l.str(" The attempts were linked by order and their inputs differ, so they may be separate calls.")
		}
		expl = l.done()
		if d.explanations == nil {
			d.explanations = make(map[explanationKey]string)
		}
		d.explanations[key] = expl
	}
	d.add(Finding{
		ID:              FindingDuplicateSideEffect,
		Severity:        sev,
		Confidence:      conf,
		Activity:        inv.Name,
		Invocation:      inv.Key,
		InvocationIndex: k,
		Attempts:        allNumbers(inv),
		Evidence:        ev,
		Explanation:     expl,
		Advice:          keyAdvice(d.ln.str(nt.hazard).str("; "), inv, nt.subject).str(".").done(),
	}, inv.Attempts[0].Scheduled, k, -1)
}

// raiseForFailure raises a duplicate's confidence for a failure among an
// attempt's several outcomes: ambiguous is probable, unrecognised possible;
// a safe or permanent failure did not commit.
func (d *detector) raiseForFailure(raise func(Confidence, int, int, string), class FailureClass,
	trigger, number int, fact string) {
	switch class {
	case FailureAmbiguous:
		raise(ConfidenceProbable, trigger, number, fact)
	case FailureUnclassified:
		raise(ConfidencePossible, trigger, number, fact)
	}
}

func confidenceRank(c Confidence) int {
	switch c {
	case ConfidenceObserved:
		return 3
	case ConfidenceProbable:
		return 2
	case ConfidencePossible:
		return 1
	}
	return 0
}

// compareInputs compares the attempts' inputs when they are visible: the
// same input confirms one logical call. When they are not, it records the
// skipped check.
func (d *detector) compareInputs(k int) (facts []Evidence, differ bool) {
	inv := &d.b.invs[k]
	if len(inv.Attempts) < 2 {
		return nil, false
	}
	first := d.h.At(inv.Attempts[0].Scheduled).Payload
	cut := false
	for i := range inv.Attempts {
		p := d.h.At(inv.Attempts[i].Scheduled).Payload
		cut = cut || d.cutInput(p)
		if !visible(p) {
			d.inputSkips++
			d.skip("identical inputs", inv.Key, withheldReason("the attempts' inputs are", p.State,
				d.h.Run.DataSharing)+"; the grouping rests on ids, timers and order alone", p.State)
			return nil, false
		}
		if i > 0 && !sameText(p, first) {
			a := &inv.Attempts[i]
			return []Evidence{d.evidence(a.Scheduled, "attempt "+strconv.Itoa(a.Number)+
				"'s input differs from attempt 1's")}, true
		}
	}
	if len(inv.Attempts) == 2 {
		d.ln.str("both attempts' inputs are identical")
	} else {
		d.ln.str("the inputs of all ").num(len(inv.Attempts)).str(" attempts are identical")
	}
	if cut {
		// Equal up to the cut says nothing of the rest.
		d.ln.str(" as far as ").str(d.h.Format.Noun()).str(" prints them (it cuts them at ").num(d.h.PayloadCut).
			str(" characters): whether they are identical beyond that is not known")
		return []Evidence{d.evidence(inv.Attempts[0].Scheduled, d.ln.done())}, false
	}
	return []Evidence{d.evidence(inv.Attempts[0].Scheduled, d.ln.str(": one logical call").done())}, false
}

// cutInput reports whether p is an input the source cut: one that cuts
// payloads (catalyst.Traits.PayloadCut, the Dapr CLI's rows) ends a cut one
// with "…" after that many characters.
func (d *detector) cutInput(p catalyst.Payload) bool {
	if d.h.PayloadCut <= 0 || p.State != catalyst.PayloadPresent {
		return false
	}
	text := p.Text()
	return strings.HasSuffix(text, "…") && utf8.RuneCountInString(text) == d.h.PayloadCut+1
}

// sameText reports whether two payloads hold the same text, comparing
// their wire forms first: equal literals need no unquoting.
func sameText(a, b catalyst.Payload) bool {
	if la, ok := a.WireLiteral(); ok {
		if lb, ok := b.WireLiteral(); ok && la == lb {
			return true
		}
	}
	return a.Text() == b.Text()
}

// compareOutputs compares the outputs of two or more completions of one call
// by their id-like fields.
func (d *detector) compareOutputs(k int, completions []int) []Evidence {
	if len(completions) < 2 {
		return nil
	}
	inv := &d.b.invs[k]
	var texts []string
	for _, pos := range completions {
		p := d.h.At(pos).Payload
		if !visible(p) {
			d.skip("distinct outputs", inv.Key, withheldReason("the completions' outputs are", p.State,
				d.h.Run.DataSharing)+"; whether both calls produced a result (two charge ids) cannot be checked here", p.State)
			return nil
		}
		texts = append(texts, p.Text())
	}
	for j := 1; j < len(texts); j++ {
		if field, a, b, ok := differingID(texts[0], texts[j]); ok {
			return []Evidence{d.evidence(completions[j], "the completions returned different "+clip(field, 40)+
				" values ("+clip(a, 40)+" and "+clip(b, 40)+"): two distinct results, so it happened twice")}
		}
	}
	if field, v, ok := sharedID(texts); ok {
		return []Evidence{d.evidence(completions[1], "every completion returned the same "+clip(field, 40)+
			" ("+clip(v, 40)+"): the provider may have deduplicated the second call")}
	}
	return nil
}
