// Package report renders twice's non-interactive output: the text a person
// reads in a terminal or a pipe, the JSON and JSONL documents scripts read
// (docs/json-output.md), and a Markdown report to
// paste into an incident ticket.
//
// Every string that came from a history passes through catalyst/safetext on
// its way out: Line for text and Markdown, AppendJSON for JSON. The JSON
// encoder is hand-written (append-style, no reflection) because a
// million-event history produces a document of about 200 MB.
package report

import (
	"time"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/detect"
	"github.com/twice-cli/twice/detect/review"
	"github.com/twice-cli/twice/tui/format"
)

// Analysis is one run's history and what detect found in it.
type Analysis struct {
	// History is the decoded history; its Run carries the header facts.
	History *catalyst.History
	// Report is detect's analysis; nil when none was made (the output then
	// says so instead of printing empty sections).
	Report *detect.Report
	// Code is what the reviewed source says about the report (review.Join,
	// twice show/scan --source); nil when no source was given.
	Code *review.Joined

	// pending, when set, is a report still being computed (see Pending).
	pending *pendingReport
}

// pendingReport is a report computed in its own goroutine.
type pendingReport struct {
	done   chan struct{}
	report *detect.Report
	code   *review.Joined
}

// Pending returns an Analysis of h whose report analyze computes in its own
// goroutine, so that a writer with other work to do first overlaps with it:
// the JSON writer writes every event while detect runs on the other core.
// Call Resolve (writers do) to wait for the report.
func Pending(h *catalyst.History, analyze func(*catalyst.History) (*detect.Report, *review.Joined)) Analysis {
	p := &pendingReport{done: make(chan struct{})}
	go func() {
		defer close(p.done)
		p.report, p.code = analyze(h)
	}()
	return Analysis{History: h, pending: p}
}

// Resolve waits for a pending report and returns the analysis with its
// Report and Code set; an analysis that was not pending is returned as it
// is.
func (a Analysis) Resolve() Analysis {
	if a.pending != nil {
		<-a.pending.done
		a.Report, a.Code, a.pending = a.pending.report, a.pending.code, nil
	}
	return a
}

// pendingDone returns a channel closed once a pending report is ready, or
// nil when the analysis is not pending.
func (a Analysis) pendingDone() <-chan struct{} {
	if a.pending == nil {
		return nil
	}
	return a.pending.done
}

// Options configure every renderer.
type Options struct {
	// Now is the current time, for relative times and ages.
	Now func() time.Time
	// TimeFormat chooses relative or ISO times in text and Markdown.
	TimeFormat format.TimeFormat
	// Styles colours text output (zero value: plain).
	Styles Styles
	// Console is the Catalyst console base URL for run links ("" means
	// catalyst.DefaultConsole).
	Console string
	// Events includes the event table in text output (show does; scan
	// prints findings and invocations only).
	Events bool
}

// now returns the options' current time, or the wall clock.
func (o *Options) now() time.Time {
	if o.Now == nil {
		return time.Now()
	}
	return o.Now()
}

// Link returns the run's console link, or ok false when there is none (the
// ids are then printed as plain text).
func (a Analysis) Link(console string) (string, bool) {
	return catalyst.ConsoleLink(console, a.History.Run)
}

// Worst returns the worst severity among the run's findings.
func (a Analysis) Worst() detect.Severity {
	a = a.Resolve()
	worst := detect.SeverityNone
	if a.Report == nil {
		return worst
	}
	for _, f := range a.Report.Findings {
		worst = max(worst, f.Severity)
	}
	return worst
}

// CountAtLeast counts the findings at or above min.
func (a Analysis) CountAtLeast(min detect.Severity) int {
	a = a.Resolve()
	if a.Report == nil {
		return 0
	}
	n := 0
	for _, f := range a.Report.Findings {
		if f.Severity >= min {
			n++
		}
	}
	return n
}

// withheldCount counts the history's withheld event payloads.
func withheldCount(h *catalyst.History) int {
	n := 0
	for _, e := range h.All() {
		if e.Payload.State == catalyst.PayloadWithheld {
			n++
		}
	}
	return n
}

// severityCounts returns the number of findings per severity, indexed by
// detect.Severity.
func severityCounts(r *detect.Report) [detect.SeverityHigh + 1]int {
	var c [detect.SeverityHigh + 1]int
	if r == nil {
		return c
	}
	for _, f := range r.Findings {
		if f.Severity >= 0 && f.Severity <= detect.SeverityHigh {
			c[f.Severity]++
		}
	}
	return c
}
