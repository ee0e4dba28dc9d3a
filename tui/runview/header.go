package runview

import (
	"strconv"
	"strings"
	"time"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/safetext"
	"github.com/twice-cli/twice/tui/format"
)

// header renders the run's header: what it is and its status; for a run
// that failed, was terminated or stalled, why; when and how long, its size
// and source, the data-sharing level; and where to see it in the console.
func (m *Model) header() []string {
	w := m.width
	s := m.c.Styles
	if m.absent != nil {
		return m.absentHeader()
	}
	if m.d.h == nil {
		title := "run"
		if m.loading != "" {
			title += " " + m.loading
		}
		return []string{format.Pad(s.Title.Render(format.Fit(title, w)), w), format.Pad("", w), format.Pad("", w)}
	}
	run := &m.d.h.Run
	mark, tone := format.StatusMark(run.Status)
	// The status is never cut: the workflow's name gives way first.
	ids := "  " + s.Label.Render("run") + " " + idOrUnknown(run.ID) + "  " + s.Label.Render("app") + " " + format.Line(run.AppID)
	status := "  " + s.Tone(tone).Render(mark)
	name := format.Fit(format.Line(run.Workflow), max(w-format.Width(ids)-format.Width(status), min(w/3, 12)))
	first := s.Title.Render(name) + format.Fit(ids, max(w-format.Width(name)-format.Width(status), 0)) + status
	lines := []string{format.Pad(format.Fit(first, w), w)}
	if why := format.RunWhy(m.d.h); why != "" {
		lines = append(lines, format.Pad(s.Tone(tone).Render(format.Fit("why: "+why, w)), w))
	}
	lines = append(lines, format.Pad(m.factsLine(w), w))
	if m.d.hasLink {
		lines = append(lines, format.Pad(m.linkLine(w), w))
	} else {
		lines = append(lines, format.Pad(format.Fit(s.Label.Render("no console link:")+" "+plainIDs(run), w), w))
	}
	return lines
}

// absentHeader names a run shown as absent (a child not in its parent's
// file): its workflow, id and app, and its link when there is one.
func (m *Model) absentHeader() []string {
	w, s, run := m.width, m.c.Styles, m.absent
	first := s.Title.Render(format.Fit(format.Line(run.Workflow), max(w/3, 12))) +
		"  " + s.Label.Render("run") + " " + idOrUnknown(run.ID) +
		"  " + s.Label.Render("app") + " " + format.Line(run.AppID) + "  " + s.Label.Render("child of") + " " + format.Line(run.ParentID)
	third := s.Label.Render("no console link:") + " " + plainIDs(run)
	if link, ok := catalyst.ConsoleLink(m.c.Console, *run); ok {
		third = s.Label.Render("console") + " " + s.Link.Render(link)
	}
	return []string{format.Pad(format.Fit(first, w), w), format.Pad(s.Error.Render(format.Fit("not in this file", w)), w),
		format.Pad(format.Fit(third, w), w)}
}

// factsLine is the header's facts: how long the run took (or has run), its
// size, a lossy source, when it started and ended, and the data-sharing
// level. What does not fit the width is left out, least needed first — the
// long data-sharing phrase before the duration — rather than cut in the
// middle.
func (m *Model) factsLine(w int) string {
	s := m.c.Styles
	run := &m.d.h.Run
	created, updated := runTimes(m.d.h)
	now := m.c.Now()
	type fact struct {
		text string
		keep int // higher is kept longer
		// short, when set, is kept down to shortKeep once text is not.
		short     string
		shortKeep int
	}
	var facts []fact
	if run.Status.IsEnded() {
		if !created.IsZero() && !updated.IsZero() {
			facts = append(facts, fact{text: s.Label.Render("took") + " " + m.d.spans().Duration(updated.Sub(created)), keep: 7})
		}
	} else if !created.IsZero() && !updated.IsZero() {
		// A running run has run at least until it was read: now for a
		// live one, its capture for a saved one (catalyst.Run.RanUntil).
		until, atLeast := run.RanUntil(now)
		if until.Before(updated) {
			until = updated
		}
		text := s.Label.Render("running") + " " + m.d.spans().Duration(until.Sub(created)) + " so far"
		if atLeast {
			text = s.Label.Render("running") + " ≥" + m.d.spans().Duration(until.Sub(created)) + " when saved"
		}
		facts = append(facts, fact{text: text, keep: 7})
	}
	facts = append(facts, fact{text: format.Plural(m.d.h.Len(), "event"), keep: 6})
	if m.d.h.Lossy {
		// Its times are whole seconds: the spans on screen ("~30s") say
		// so, and this says why, once.
		lossy := fact{text: "lossy source (" + m.d.h.Format.Description() + ")", keep: 5}
		if m.d.spans().Coarse() {
			lossy = fact{text: "lossy source (" + m.d.h.Format.Description() + "; whole-second times, spans ±1s)", keep: 4,
				short: "lossy source (whole-second times)", shortKeep: 5}
		}
		facts = append(facts, lossy)
	}
	facts = append(facts, fact{text: s.Label.Render("started") + " " + format.Instant(created, m.c.TimeFormat, now), keep: 4})
	if run.Status.IsEnded() {
		facts = append(facts, fact{text: s.Label.Render("ended") + " " + format.Instant(updated, m.c.TimeFormat, now), keep: 2})
	} else if !updated.IsZero() {
		facts = append(facts, fact{text: s.Label.Render("updated") + " " + format.Instant(updated, m.c.TimeFormat, now), keep: 3})
	}
	// The long phrase ("none (no data-sharing filter on this source)")
	// goes first; the level's name stays longer than when the run ended.
	facts = append(facts, fact{text: s.Label.Render("data sharing") + " " + m.d.ds.LevelText(), keep: 1,
		short: s.Label.Render("data sharing") + " " + levelShort(m.d.ds), shortKeep: 3})
	if run.RerunOf != "" {
		// The history before the fork is the source run's: say whose.
		facts = append(facts, fact{text: s.Label.Render("rerun of") + " " + format.Line(run.RerunOf) +
			" " + s.Label.Render("from eventId") + " " + strconv.Itoa(int(run.RerunFrom)), keep: 8})
	}
	if x := run.ForeignStart(); x != "" {
		// Its start names another run and nothing marks a rerun: say so,
		// and that the fork is not known.
		facts = append(facts, fact{text: s.Error.Render("starts as run "+format.Line(x)) +
			" (unmarked rerun of it, or the wrong run's history; fork event unknown)", keep: 6,
			short: s.Error.Render("starts as run " + format.Line(x)), shortKeep: 8})
	}
	if m.following {
		// The status line says so too: the first to go.
		facts = append(facts, fact{text: s.New.Render("following"), keep: 0})
	}
	if rec := run.Provenance.Recorded; rec != nil && rec.Truncated {
		// Never shown as complete: kept longest.
		facts = append(facts, fact{text: s.Error.Render("TRUNCATED recording: the history is partial"), keep: 9})
	}
	const sep = " · "
	for floor := 0; ; floor++ {
		var parts []string
		for _, f := range facts {
			switch {
			case f.keep >= floor:
				parts = append(parts, f.text)
			case f.short != "" && f.shortKeep >= floor:
				parts = append(parts, f.short)
			}
		}
		line := strings.Join(parts, sep)
		if format.Width(line) <= w || len(parts) <= 1 {
			return format.Fit(line, w)
		}
	}
}

// levelShort is the data-sharing level in a word or two: "metadata",
// "full (inferred)", "none", "not reported".
func levelShort(ds catalyst.DataSharing) string {
	switch {
	case !ds.Filtered && ds.Level == catalyst.LevelUnknown:
		return "none"
	case ds.Level == catalyst.LevelUnknown:
		return "not reported"
	case ds.Inferred:
		return safetext.Line(string(ds.Level)) + " (inferred)"
	}
	return safetext.Line(string(ds.Level))
}

// linkLine is the header's third line: the console link in full, without
// its label when only that fits, or cut and pointing to the keys that copy
// and open it (a cut link cannot be followed).
func (m *Model) linkLine(w int) string {
	s := m.c.Styles
	link := m.d.link
	switch {
	case format.Width("console "+link) <= w:
		return s.Label.Render("console") + " " + s.Link.Render(link)
	case format.Width(link) <= w:
		return s.Link.Render(link)
	}
	hint := " (Y copies, o opens)"
	return s.Link.Render(format.Fit(link, max(w-format.Width(hint), 10))) + hint
}

// runTimes returns the run's start and last-update times, from the run when
// the source reported them, else from the first and last events.
func runTimes(h *catalyst.History) (created, updated time.Time) {
	created, updated = h.Run.CreatedAt, h.Run.UpdatedAt
	if n := h.Len(); n > 0 {
		if created.IsZero() {
			created = h.At(0).Timestamp.Time()
		}
		if updated.IsZero() {
			updated = h.At(n - 1).Timestamp.Time()
		}
	}
	return created, updated
}

// plainIDs names the run by its ids, for when there is no console link.
func plainIDs(run *catalyst.Run) string {
	return "app " + idOrUnknown(run.AppID) + ", run " + idOrUnknown(run.ID)
}

// idOrUnknown is an id for the screen, or says that the history does not
// name it (the Dapr CLI's JSON, for one, prints no instance id).
func idOrUnknown(id string) string {
	if id == "" {
		return "(not in this history)"
	}
	return format.Line(id)
}

// linkLines are the detail pane's closing lines: the console link, or the
// plain ids when there is none, and what to do about withheld payloads.
// The link has a line of its own, unindented, so that a narrow pane wraps
// it without putting spaces inside it.
func (d *viewData) linkLines(withheld bool) []string {
	out := []string{""}
	if withheld {
		out = append(out, "payloads withheld at "+levelName(d.ds)+": open the run in the console to see them")
	}
	if d.hasLink {
		out = append(out, d.c.Styles.Label.Render("console (o opens, Y copies):"), d.c.Styles.Link.Render(d.link))
	} else {
		out = append(out, d.c.Styles.Label.Render("no console link:")+" "+plainIDs(&d.h.Run))
	}
	return out
}

// levelName is the data-sharing level's name, or "an unreported level".
func levelName(ds catalyst.DataSharing) string {
	if ds.Level == catalyst.LevelUnknown {
		return "the data-sharing level (not reported; Catalyst's default is metadata)"
	}
	return safetext.Line(string(ds.Level))
}
