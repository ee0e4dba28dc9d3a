package detect

import "github.com/twice-cli/twice/catalyst"

// FindingUnknownOutcome: an attempt's outcome is unknown.
const FindingUnknownOutcome FindingID = "unknown-outcome"

var unknownOutcomeCheck = Check{
	ID:       FindingUnknownOutcome,
	Title:    "an attempt whose outcome is unknown",
	Short:    "outcome?",
	Severity: SeverityMedium,
	Doc: "An attempt with no outcome in a run that ended or stalled, or still without one long after it " +
		"was scheduled (--overdue-after, 15 minutes by default): its outcome is unknown, never failed and " +
		"never fine. Low for reads and idempotent writes, and where the history does not say when it was read.",
	invocation: (*detector).unknownOutcome,
}

// unknownOutcome flags an invocation whose last attempt has no outcome in a
// run that ended or stalled, or that is still running long after the
// attempt was scheduled, or whose history does not say when it was read.
//
// The confidence is about the outcome being unknown, not about a side
// effect: when the run ended or stalled, the history itself shows that the
// attempt never recorded an outcome (observed); while the run is running,
// the attempt may simply still be in flight (possible).
func (d *detector) unknownOutcome(k int) {
	inv := &d.b.invs[k]
	a := &inv.Attempts[len(inv.Attempts)-1]
	conf := ConfidenceObserved
	sev := SeverityMedium
	var fact Fact
	untied := false
	advice := "Reconcile with the outside world (the provider's records, an intent record keyed on the idempotency " +
		"key) before running it again; do not resolve an unknown outcome by guessing."
	switch {
	case (a.Outcome == OutcomeUnknown || a.Outcome == OutcomePending) && d.untied(k, a):
		// The history records outcomes that may be this call's, without
		// saying which call each closes: that the outcome is unknown is
		// twice's reading of a format that drops ids, not an observation.
		conf, untied = ConfidencePossible, true
		state := d.stateText()
		if a.Outcome == OutcomePending {
			state = "is still running"
		}
		fact = Words(attemptLabel(a) + " has no outcome the history ties to it, and the run " + state)
		advice = "See how each call ended where the ids are kept: the child runs themselves, or this run's history " +
			"read from Catalyst or as protojson (twice show RUN --app APP). Until then, do not resolve an unknown " +
			"outcome by guessing."
		if inv.Kind != KindChildWorkflow {
			advice = "See how each call ended where the ids are kept: this run's history read from Catalyst or as " +
				"protojson (twice show RUN --app APP). Until then, do not resolve an unknown outcome by guessing."
		}
	case a.Outcome == OutcomeUnknown:
		fact = Words(attemptLabel(a) + " has no recorded outcome and the run " + d.stateText())
	case a.Outcome == OutcomePending:
		now, known := d.now()
		wait := now.Sub(a.Start)
		conf = ConfidencePossible
		switch {
		case wait > d.opts.OverdueAfter:
			fact = d.ln.attempt(a.Number).str(" has had no outcome for ").span(a.Start, now).str(" while the run is still running").fact()
		case !known:
			// A plain file (no capture time) read with no clock: silence
			// would pass for "fine", and the seed says unknown is unknown.
			sev = SeverityLow
			fact = Words(attemptLabel(a) + " has no outcome by the end of this history; it does not say when it was " +
				"captured, so whether the attempt is still running cannot be told")
			advice = "Read the run live, or save it with twice record (which keeps the capture time), to see whether " +
				"it is still running; if it never finishes, reconcile with the outside world before running it " +
				"again, and do not resolve an unknown outcome by guessing."
		default:
			return
		}
	default:
		return
	}
	if inv.Class == ClassReadOnly || inv.Class == ClassIdempotent {
		sev = SeverityLow
	}
	subject := subjectOf(inv.Name)
	if inv.Kind == KindChildWorkflow {
		subject = "the child workflow's work"
	}
	explanation := "The outcome of " + quoteName(inv.Name) + " is unknown: it may have run, partly run, or not run " +
		"at all, and " + subject + " may or may not have happened. The history does not say it failed, and it " +
		"does not say it is fine."
	if untied {
		explanation = "The outcome of " + quoteName(inv.Name) + " is unknown: the history records an outcome " +
			"without a scheduled id that may be this call's, but not which call it closes, so the call may have " +
			"completed, failed, or not finished, and " + subject + " may or may not have happened."
	}
	d.add(Finding{
		ID:              FindingUnknownOutcome,
		Severity:        sev,
		Confidence:      conf,
		Activity:        inv.Name,
		Invocation:      inv.Key,
		InvocationIndex: k,
		Attempts:        []int{a.Number},
		Evidence:        []Evidence{d.evidenceOf(a.Scheduled, fact)},
		Explanation:     explanation,
		Advice:          advice,
	}, a.Scheduled, k, -1)
}

// now is the instant a running run's pending attempts are judged against:
// Options.Now, else the latest instant the history itself vouches for (its
// last event, the run's last update, or when a saved history was captured).
// known is false when that instant may be long before the history was read:
// no Options.Now, no capture time, and not a live read (a plain file or
// stdin: a Dapr CLI dump, raw protojson).
func (d *detector) now() (now catalyst.Stamp, known bool) {
	if !d.opts.Now.IsZero() {
		return catalyst.StampOf(d.opts.Now), true
	}
	ref := max(d.s.latest, catalyst.StampOf(d.h.Run.UpdatedAt))
	prov := &d.h.Run.Provenance
	if rec := prov.Recorded; rec != nil && !rec.CapturedAt.IsZero() {
		return max(ref, catalyst.StampOf(rec.CapturedAt)), true
	}
	return ref, prov.Recorded == nil && prov.Surface == catalyst.SurfaceCatalystMCP
}

func (d *detector) stateText() string {
	switch d.s.state {
	case stateStalled:
		return "stalled"
	case stateEnded:
		return "ended (" + clip(string(d.h.Run.Status.Normalized()), 30) + ")"
	}
	return "has an unrecognised status (" + clip(string(d.h.Run.Status), 30) + ")"
}
