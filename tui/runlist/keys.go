package runlist

import (
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/safetext"
	"github.com/twice-cli/twice/tui/common"
	"github.com/twice-cli/twice/tui/format"
	"github.com/twice-cli/twice/tui/list"
)

// The run list's states, for its bindings (common.Scope).
const (
	// inList: the list has the keys.
	inList common.Scope = 1 << iota
	// inError: the list could not be read and shows why.
	inError
	// inInput: the filter line is being typed.
	inInput
	// inSort: the sort menu is open.
	inSort
)

// Keys returns the run list's keys and its state.
func (m *Model) Keys() common.KeyMap {
	return common.KeyMap{Bindings: m.keys, Scope: m.scope()}
}

// scope is the state the list is in.
func (m *Model) scope() common.Scope {
	switch {
	case m.typing:
		return inInput
	case m.sorting:
		return inSort
	case m.err != "" && !m.listed:
		return inError
	}
	return inList
}

// bindings are the run list's keys, in the order of dispatch and of the
// key bar.
func (m *Model) bindings() []common.Binding {
	k := &m.c.Keys
	as := func(b key.Binding, label, desc string) key.Binding {
		b.SetHelp(label, desc)
		return b
	}
	anyKey := func(label, desc string) key.Binding { return key.NewBinding(key.WithHelp(label, desc)) }
	shown := inList | inError
	move := func(b key.Binding) common.Binding {
		return common.Binding{Key: b, Group: common.GroupMove, In: shown, Do: m.move}
	}
	return []common.Binding{
		// The filter line: enter keeps what is typed, esc clears it, any
		// other key edits it.
		{Key: as(k.Enter, "enter", "keep filter"), In: inInput, Bar: inInput, Do: m.keepFilter},
		{Key: as(k.Back, "esc", "clear filter"), In: inInput, Bar: inInput, Do: m.clearQuery},
		{Key: anyKey("type", "edit the filter"), In: inInput, Do: m.typeFilter},
		// The sort menu: a column's key sorts by it, any other closes it.
		{Key: as(k.Back, "esc", "cancel sort"), In: inSort, Bar: inSort, Do: m.cancelSort},
		{Key: anyKey("a column's key", "sort by it"), In: inSort, Do: m.pickSort},

		move(k.Up), move(k.Down), move(k.Top), move(k.Bottom), move(k.PageDown), move(k.PageUp),
		{Key: as(k.Enter, "enter", "open run"), Group: common.GroupRunList, In: shown, Bar: inList, Do: m.open},
		{Key: k.Filter, Group: common.GroupFilter, In: shown, Bar: inList, Do: m.startFilter},
		{Key: k.Failed, Group: common.GroupFilter, In: shown, Bar: inList, Do: m.toggle(list.Failed)},
		{Key: k.Retried, Group: common.GroupFilter, In: shown, Do: m.toggle(list.Retried)},
		{Key: k.Flagged, Group: common.GroupFilter, In: shown, Bar: inList, Do: m.toggle(list.Flagged)},
		{Key: as(k.Back, "esc", "clear filter"), Group: common.GroupRunList, In: shown, Do: m.clearFilter},
		{Key: k.Sort, Group: common.GroupRunList, In: shown, Bar: inList, Do: m.openSort},
		// m marks a run, d compares it with the selected one: the key bar
		// shows d once a run is marked.
		{Key: k.Mark, Group: common.GroupRunList, In: inList, Do: m.mark},
		{Key: k.Diff, Group: common.GroupRunList, In: inList, Bar: inList, Hint: m.diffHint, Do: m.diff},
		// The run keys, which the root handles: R lists the runs again
		// (retries, when the list failed), y copies the selected run's
		// id, o opens it in the console, Y copies its link.
		{Key: k.Refresh, Group: common.GroupRunList, In: shown, Bar: shown, Hint: m.refreshHint},
		{Key: k.CopyID, Group: common.GroupRun, In: shown, Bar: inList},
		{Key: k.Open, Group: common.GroupRun, In: shown, Bar: inList},
		{Key: k.CopyLink, Group: common.GroupRun, In: shown},
	}
}

// mark marks the selected run to compare with another (d), or unmarks it.
func (m *Model) mark(tea.KeyPressMsg) tea.Cmd {
	run, ok := m.Selected()
	if !ok {
		return nil
	}
	text := "marked run " + safetext.Line(run.ID) + ": select another run and press d to compare them"
	if m.marked != nil && Key(*m.marked) == Key(run) {
		m.marked, text = nil, "unmarked run "+safetext.Line(run.ID)
	} else {
		m.marked = &run
		// The marked id is two columns wider (markedGlyph).
		if w := min(format.Width(safetext.Line(run.ID))+2, maxWant); w > m.want.id {
			m.want.id = w
			m.layout()
		}
	}
	return func() tea.Msg { return common.StatusMsg{Text: text} }
}

// Marked returns the run marked to compare, if any.
func (m *Model) Marked() (catalyst.Run, bool) {
	if m.marked == nil {
		return catalyst.Run{}, false
	}
	return *m.marked, true
}

// diff asks the root to compare the marked run with the selected one.
func (m *Model) diff(tea.KeyPressMsg) tea.Cmd {
	run, ok := m.Selected()
	var text string
	switch {
	case !ok:
		return nil
	case m.marked == nil:
		text = "mark a run with m first, then press d on another to compare them"
	case Key(*m.marked) == Key(run):
		text = "this is the marked run: select another run and press d to compare them"
	default:
		a := *m.marked
		return func() tea.Msg { return DiffMsg{A: a, B: run} }
	}
	return func() tea.Msg { return common.StatusMsg{Text: text, Err: true} }
}

// diffHint shows d on the key bar once a run is marked.
func (m *Model) diffHint() key.Help {
	if m.marked == nil {
		return key.Help{}
	}
	return key.Help{Key: "d", Desc: "diff with marked"}
}

// refreshHint is what the key bar says of R: "retry" when the list could
// not be read.
func (m *Model) refreshHint() key.Help {
	if m.err != "" && !m.listed {
		return key.Help{Key: "R", Desc: "retry"}
	}
	return m.c.Keys.Refresh.Help()
}

// move moves the cursor.
func (m *Model) move(msg tea.KeyPressMsg) tea.Cmd {
	m.list.Table().Update(msg, &m.c.Keys)
	return nil
}

// open asks the root to open the selected run.
func (m *Model) open(tea.KeyPressMsg) tea.Cmd {
	if run, ok := m.Selected(); ok {
		return func() tea.Msg { return OpenMsg{Run: run} }
	}
	return nil
}

// startFilter opens the filter line on the query.
func (m *Model) startFilter(tea.KeyPressMsg) tea.Cmd {
	m.typing = true
	m.input.SetValue(m.filter.Query)
	return nil
}

// keepFilter closes the filter line, keeping the query.
func (m *Model) keepFilter(tea.KeyPressMsg) tea.Cmd {
	m.typing = false
	return nil
}

// clearQuery closes the filter line and clears the query.
func (m *Model) clearQuery(tea.KeyPressMsg) tea.Cmd {
	m.typing = false
	m.filter.Query = ""
	return m.apply()
}

// typeFilter edits the query, applied as it is typed.
func (m *Model) typeFilter(msg tea.KeyPressMsg) tea.Cmd {
	if m.input.Update(msg) {
		m.filter.Query = m.input.Value()
		return m.apply()
	}
	return nil
}

// toggle returns the handler that flips a filter toggle.
func (m *Model) toggle(t list.Flags) func(tea.KeyPressMsg) tea.Cmd {
	return func(tea.KeyPressMsg) tea.Cmd {
		m.filter = m.filter.Toggle(t)
		return m.apply()
	}
}

// clearFilter clears the query and the toggles.
func (m *Model) clearFilter(tea.KeyPressMsg) tea.Cmd {
	m.filter = list.Filter{}
	return m.apply()
}

// openSort opens the sort menu.
func (m *Model) openSort(tea.KeyPressMsg) tea.Cmd {
	m.sorting = true
	return nil
}

// cancelSort closes the sort menu.
func (m *Model) cancelSort(tea.KeyPressMsg) tea.Cmd {
	m.sorting = false
	return nil
}

// pickSort applies the sort menu's choice: a column's key sorts by it
// (again: reversed); the menu closes.
func (m *Model) pickSort(msg tea.KeyPressMsg) tea.Cmd {
	m.sorting = false
	cols := m.sorts(nil, time.Time{})
	for i, c := range cols {
		if msg.Text == c.Key {
			m.list.PickSort(i, cols)
			return m.apply()
		}
	}
	return nil
}

// Command runs the command line's commands the run list has besides its
// keys (common.Commander): "sort COLUMN" (again: reversed, as s does) and
// "filter TEXT" ("filter" alone clears the query).
func (m *Model) Command(verb, arg string) (tea.Cmd, bool, error) {
	switch strings.ToLower(verb) {
	case "sort":
		cols := m.sorts(nil, time.Time{})
		c, err := list.ColumnNamed(cols, arg)
		if err != nil {
			return nil, true, err
		}
		m.list.PickSort(c, cols)
		return m.apply(), true, nil
	case "filter":
		m.typing = false
		m.filter.Query = arg
		return m.apply(), true, nil
	}
	return nil, false, nil
}
