package runview

import (
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
		"  " + s.Label.Render("run") + " " + format.Line(run.ID) +
		"  " + s.Label.Render("app") + " " + format.Line(run.AppID) +
		"  " + s.Tone(tone).Render(mark)

	created, updated := runTimes(m.d.h)
	now := m.c.Now()
	var b strings.Builder
	b.WriteString(s.Label.Render("started") + " " + format.Instant(created, m.c.TimeFormat, now))
	if run.Status.IsEnded() {
		b.WriteString(" · " + s.Label.Render("ended") + " " + format.Instant(updated, m.c.TimeFormat, now))
		if !created.IsZero() && !updated.IsZero() {
			b.WriteString(" · " + s.Label.Render("took") + " " + format.Duration(updated.Sub(created)))
		}
	} else if !updated.IsZero() {
		b.WriteString(" · " + s.Label.Render("updated") + " " + format.Instant(updated, m.c.TimeFormat, now))
	}
	b.WriteString(" · " + format.Plural(m.d.h.Len(), "event"))
	b.WriteString(" · " + s.Label.Render("data sharing") + " " + m.d.ds.LevelText())
	if m.d.h.Lossy {
		b.WriteString(" · lossy source (" + m.d.h.Format.Description() + ")")
	}
	if m.following {
		b.WriteString(" · " + s.New.Render("following"))
	}

	var third string
	if m.d.hasLink {
		third = s.Label.Render("console") + " " + s.Link.Render(m.d.link)
	} else {
		third = s.Label.Render("no console link:") + " app " + format.Line(run.AppID) + ", run " + format.Line(run.ID)
	}
	return []string{format.Pad(first, w), format.Pad(b.String(), w), format.Pad(third, w)}
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
	return "app " + format.Line(run.AppID) + ", run " + format.Line(run.ID)
}

// linkLines are the detail pane's closing lines: the console link, or the
// plain ids when there is none, and what to do about withheld payloads.
func (d *viewData) linkLines(withheld bool) []string {
	var out []string
	if withheld {
		out = append(out, "", "payloads withheld at "+levelName(d.ds)+": open the run in the console to see them")
	}
	if d.hasLink {
		out = append(out, d.c.Styles.Label.Render("console")+" "+d.c.Styles.Link.Render(d.link))
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
