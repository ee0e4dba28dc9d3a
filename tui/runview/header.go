package runview

import (
	"strconv"
	"strings"
	"time"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/safetext"
	"github.com/twice-cli/twice/tui/format"
)

// header renders the run's three header lines: what it is, when and at
// which data-sharing level, and where to see it in the console.
func (m *Model) header() []string {
	w := m.width
	s := m.c.Styles
	if m.d.h == nil {
		title := "run"
		if m.loading != "" {
			title += " " + m.loading
		}
		return []string{format.Pad(s.Title.Render(format.Fit(title, w)), w), format.Pad("", w), format.Pad("", w)}
	}
	run := &m.d.h.Run
	mark, tone := format.StatusMark(run.Status)
	first := s.Title.Render(format.Fit(format.Line(run.Workflow), max(w/3, 12))) +
		"  " + s.Label.Render("run") + " " + idOrUnknown(run.ID) +
		"  " + s.Label.Render("app") + " " + format.Line(run.AppID) +
		"  " + s.Tone(tone).Render(mark)

	second := m.factsLine(w)

	var third string
	if m.d.hasLink {
		third = m.linkLine(w)
	} else {
		third = s.Label.Render("no console link:") + " " + plainIDs(run)
	}
	return []string{format.Pad(first, w), format.Pad(second, w), format.Pad(third, w)}
}

// factsLine is the header's second line: when the run started and ended
// (or was last updated), how long it took, its size, the data-sharing
// level, a lossy source and follow mode. What does not fit the width is
// left out, least useful first, rather than cut in the middle.
func (m *Model) factsLine(w int) string {
	s := m.c.Styles
	run := &m.d.h.Run
	created, updated := runTimes(m.d.h)
	now := m.c.Now()
	type fact struct {
		text string
		keep int // higher is kept longer
	}
	facts := []fact{{s.Label.Render("started") + " " + format.Instant(created, m.c.TimeFormat, now), 5}}
	if run.Status.IsEnded() {
		facts = append(facts, fact{s.Label.Render("ended") + " " + format.Instant(updated, m.c.TimeFormat, now), 1})
		if !created.IsZero() && !updated.IsZero() {
			facts = append(facts, fact{s.Label.Render("took") + " " + format.Duration(updated.Sub(created)), 3})
		}
	} else if !updated.IsZero() {
		facts = append(facts, fact{s.Label.Render("updated") + " " + format.Instant(updated, m.c.TimeFormat, now), 3})
	}
	facts = append(facts, fact{format.Plural(m.d.h.Len(), "event"), 2})
	facts = append(facts, fact{s.Label.Render("data sharing") + " " + m.d.ds.LevelText(), 6})
	if m.d.h.Lossy {
		facts = append(facts, fact{"lossy source (" + m.d.h.Format.Description() + ")", 4})
	}
	if run.RerunOf != "" {
		// The history before the fork is the source run's: say whose.
		facts = append(facts, fact{s.Label.Render("rerun of") + " " + format.Line(run.RerunOf) +
			" " + s.Label.Render("from eventId") + " " + strconv.Itoa(int(run.RerunFrom)), 7})
	}
	if m.following {
		// The status line says so too: the first to go.
		facts = append(facts, fact{s.New.Render("following"), 0})
	}
	if rec := run.Provenance.Recorded; rec != nil && rec.Truncated {
		// Never shown as complete: kept longest.
		facts = append(facts, fact{s.Error.Render("TRUNCATED recording: the history is partial"), 8})
	}
	const sep = " · "
	for floor := 0; ; floor++ {
		var parts []string
		for _, f := range facts {
			if f.keep >= floor {
				parts = append(parts, f.text)
			}
		}
		line := strings.Join(parts, sep)
		if format.Width(line) <= w || len(parts) <= 1 {
			return line
		}
	}
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
