package runview

import (
	"strconv"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/twice-cli/twice/tui/common"
	"github.com/twice-cli/twice/tui/list"
)

// The run view's states, for its bindings (common.Scope).
const (
	// inList: the tab's list has the keys.
	inList common.Scope = 1 << iota
	// inDetail: the detail pane has the keys.
	inDetail
	// inInput: the filter line is being typed.
	inInput
	// inSort: the sort menu is open.
	inSort
	// inLoading: there is no history yet (it is loading, or could not be
	// loaded).
	inLoading
	// inAbsent: the run cannot be read from where its parent was.
	inAbsent
)

// onTab is where a tab's keys apply: the list or the detail pane has the
// keys (a tab's binding with no In of its own gets it).
const onTab = inList | inDetail

// Keys returns the run view's keys and its state.
func (m *Model) Keys() common.KeyMap {
	return common.KeyMap{Bindings: m.keys, Scope: m.scope()}
}

// scope is the state the view is in.
func (m *Model) scope() common.Scope {
	switch {
	case m.typing:
		return inInput
	case m.sorting:
		return inSort
	case m.absent != nil:
		return inAbsent
	case m.d.h == nil:
		return inLoading
	case m.focusDetail:
		return inDetail
	}
	return inList
}

// bindKeys lists the view's keys: the current tab's first (each tab's
// bindings apply while it is on screen), then the view's own. The order
// is dispatch's and the key bar's.
func (m *Model) bindKeys() {
	var out []common.Binding
	out = append(out, m.modalBindings()...)
	for i, t := range m.tabs {
		for _, b := range t.bindings() {
			if b.In == 0 {
				b.In = onTab
			}
			when := b.When
			b.When = func() bool { return m.tab == i && (when == nil || when()) }
			out = append(out, b)
		}
	}
	m.keys = append(out, m.viewBindings()...)
}

// modalBindings are the keys of the filter line, the sort menu, and a
// view with no history to show.
func (m *Model) modalBindings() []common.Binding {
	k := &m.c.Keys
	anyKey := func(label, desc string) key.Binding { return key.NewBinding(key.WithHelp(label, desc)) }
	return []common.Binding{
		// The filter line: enter keeps what is typed, esc clears it, any
		// other key edits it (applied as typed).
		{Key: relabel(k.Enter, "keep filter"), In: inInput, Bar: inInput, Do: m.keepFilter},
		{Key: relabel(k.Back, "clear filter"), In: inInput, Bar: inInput, Do: m.clearQuery},
		{Key: anyKey("type", "edit the filter"), In: inInput, Do: m.typeFilter},
		// The sort menu: a column's key sorts by it (again: reversed), any
		// other key closes it.
		{Key: relabel(k.Back, "cancel sort"), In: inSort, Bar: inSort, Do: m.cancelSort},
		{Key: anyKey("a column's key", "sort by it"), In: inSort, Do: m.pickSort},
		// No history: R (the root's) retries, esc goes back.
		{Key: k.Refresh, Group: common.GroupRun, Bar: inLoading, Hint: fixed("R", "retry")},
		{Key: k.Back, Group: common.GroupRunView, In: inLoading | inAbsent, Bar: inLoading | inAbsent, Hint: m.backHint, Do: m.back},
	}
}

// viewBindings are the view's own keys, after the tab's.
func (m *Model) viewBindings() []common.Binding {
	k := &m.c.Keys
	move := func(b key.Binding, bar common.Scope) common.Binding {
		return common.Binding{Key: b, Group: common.GroupMove, In: onTab, Bar: bar, Do: m.move}
	}
	return []common.Binding{
		{Key: k.NextTab, Group: common.GroupRunView, In: onTab, Bar: inList, Do: m.nextTab(1)},
		{Key: k.PrevTab, Group: common.GroupRunView, In: onTab, Do: m.nextTab(-1)},
		{Key: k.PickTab, Group: common.GroupRunView, In: onTab, Do: m.pickTab},
		{Key: k.Filter, Group: common.GroupFilter, In: onTab, Bar: inList, Do: m.startFilter},
		{Key: k.Sort, Group: common.GroupRunView, In: onTab, Bar: inList, Do: m.openSort},
		{Key: k.FocusDetail, Group: common.GroupDetail, In: onTab, Bar: inList, Do: m.focusOnDetail},
		{Key: k.FocusList, Group: common.GroupDetail, In: onTab, Bar: inDetail, Do: m.focusOnList},
		move(k.Up, 0), move(k.Down, 0), move(k.Top, 0), move(k.Bottom, 0),
		move(k.PageDown, inDetail), move(k.PageUp, inDetail),
		{Key: k.Detail, Group: common.GroupDetail, In: onTab, Bar: onTab, Do: m.cycleDetail},
		{Key: k.Grow, Group: common.GroupDetail, In: onTab, Bar: inDetail, Do: m.growDetail(1)},
		{Key: k.Shrink, Group: common.GroupDetail, In: onTab, Bar: inDetail, Do: m.growDetail(-1)},
		// The run keys, which the root handles: y copies what is selected,
		// Y the run's link, o opens it in the console, F follows it.
		{Key: k.CopyID, Group: common.GroupRun, Bar: inAbsent | onTab},
		{Key: k.CopyLink, Group: common.GroupRun, Bar: inAbsent},
		{Key: k.Failed, Group: common.GroupFilter, In: onTab, Bar: inList, Do: m.toggle(list.Failed)},
		{Key: k.Retried, Group: common.GroupFilter, In: onTab, Do: m.toggle(list.Retried)},
		{Key: k.Flagged, Group: common.GroupFilter, In: onTab, Bar: inList, Do: m.toggle(list.Flagged)},
		{Key: k.Open, Group: common.GroupRun, Bar: inAbsent | inList},
		{Key: k.Follow, Group: common.GroupRun},
		{Key: k.Back, Group: common.GroupRunView, In: onTab, Bar: inList, Hint: m.backHelp, Lead: m.jumped, Do: m.escape},
		{Key: k.DetailDown, Group: common.GroupDetail, In: onTab, Do: m.scrollDetail(1)},
		{Key: k.DetailUp, Group: common.GroupDetail, In: onTab, Do: m.scrollDetail(-1)},
	}
}

// relabel is b with the help's words desc.
func relabel(b key.Binding, desc string) key.Binding {
	b.SetHelp(b.Help().Key, desc)
	return b
}

// fixed is a hint that always says label desc.
func fixed(label, desc string) func() key.Help {
	return func() key.Help { return key.Help{Key: label, Desc: desc} }
}

// backHint is what the key bar says of esc with no history on screen.
func (m *Model) backHint() key.Help {
	if m.absent != nil {
		return key.Help{Key: "esc", Desc: "back to the parent"}
	}
	return key.Help{Key: "esc", Desc: "back"}
}

// back asks the root to close the view.
func (m *Model) back(tea.KeyPressMsg) tea.Cmd {
	return func() tea.Msg { return common.BackMsg{} }
}

// keepFilter closes the filter line, keeping what was typed.
func (m *Model) keepFilter(tea.KeyPressMsg) tea.Cmd {
	m.typing = false
	return nil
}

// clearQuery closes the filter line and clears its query.
func (m *Model) clearQuery(tea.KeyPressMsg) tea.Cmd {
	m.typing = false
	f := m.filter
	f.Query = ""
	return m.setFilter(f)
}

// typeFilter edits the query, applied as it is typed.
func (m *Model) typeFilter(msg tea.KeyPressMsg) tea.Cmd {
	if m.input.Update(msg) {
		f := m.filter
		f.Query = m.input.Value()
		return m.setFilter(f)
	}
	return nil
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
	t := m.tabs[m.tab]
	cols := t.source().Columns
	for i, c := range cols {
		if msg.Text == c.Key {
			t.list().PickSort(i, cols)
			return t.list().Resort(t.source())
		}
	}
	return nil
}

// nextTab returns the handler that moves by step tabs.
func (m *Model) nextTab(step int) func(tea.KeyPressMsg) tea.Cmd {
	return func(tea.KeyPressMsg) tea.Cmd { return m.SetTab(m.tab + step) }
}

// pickTab switches to the tab a number key names (1: the first); a
// number past the last tab says so.
func (m *Model) pickTab(msg tea.KeyPressMsg) tea.Cmd {
	n := int(msg.Text[0] - '1')
	if n < 0 || n >= len(m.tabs) {
		return m.say("no tab " + msg.Text + ": this run has " + strconv.Itoa(len(m.tabs)) + " tabs")
	}
	return m.SetTab(n)
}

// say asks the root to show text on its status line, as an error.
func (m *Model) say(text string) tea.Cmd {
	return func() tea.Msg { return common.StatusMsg{Text: text, Err: true} }
}

// startFilter opens the filter line on the query.
func (m *Model) startFilter(tea.KeyPressMsg) tea.Cmd {
	m.typing = true
	m.input.SetValue(m.filter.Query)
	return nil
}

// toggle returns the handler that flips one of the filter's toggles.
func (m *Model) toggle(t list.Flags) func(tea.KeyPressMsg) tea.Cmd {
	return func(tea.KeyPressMsg) tea.Cmd { return m.setFilter(m.filter.Toggle(t)) }
}

// focusOnDetail gives the detail pane the keys, when it is shown.
func (m *Model) focusOnDetail(tea.KeyPressMsg) tea.Cmd {
	m.setFocus(m.fitted.dw > 0)
	return nil
}

// focusOnList gives the list the keys (a full-screen detail pane returns
// to its normal size).
func (m *Model) focusOnList(tea.KeyPressMsg) tea.Cmd {
	if m.detailSize == detailFull {
		m.resizeDetail(detailNormal, false)
	}
	m.setFocus(false)
	return nil
}

// move moves the focused part: the detail pane's scroll, or the list's
// cursor.
func (m *Model) move(msg tea.KeyPressMsg) tea.Cmd {
	if m.focusDetail {
		m.detail.Navigate(msg, &m.c.Keys)
		return nil
	}
	m.tabs[m.tab].list().Table().Update(msg, &m.c.Keys)
	return nil
}

// cycleDetail steps the detail pane through its sizes (p).
func (m *Model) cycleDetail(tea.KeyPressMsg) tea.Cmd {
	m.resizeDetail((m.detailSize+1)%(detailFull+1), true)
	return nil
}

// growDetail returns the handler that makes the detail pane a size larger
// (step 1) or smaller (-1).
func (m *Model) growDetail(step int) func(tea.KeyPressMsg) tea.Cmd {
	return func(tea.KeyPressMsg) tea.Cmd {
		m.resizeDetail(min(max(m.detailSize+step, detailHidden), detailFull), false)
		return nil
	}
}

// scrollDetail returns the handler that scrolls the detail pane by step
// lines, whichever part has the keys.
func (m *Model) scrollDetail(step int) func(tea.KeyPressMsg) tea.Cmd {
	return func(tea.KeyPressMsg) tea.Cmd {
		if step > 0 {
			m.detail.ScrollDown(step)
		} else {
			m.detail.ScrollUp(-step)
		}
		return nil
	}
}

// escape goes back one step: the focus to the list, then to where the
// last jump was made from (its tab, line, filter and zoom), then the
// filter cleared, then a full-screen detail pane to its size, then back to
// the screen below.
func (m *Model) escape(tea.KeyPressMsg) tea.Cmd {
	switch {
	case m.focusDetail && m.detailSize != detailFull:
		m.setFocus(false)
	case len(m.places) > 0:
		return m.goBack()
	case m.filter.Active():
		return m.setFilter(list.Filter{})
	case m.detailSize == detailFull:
		back := m.excerptOpen
		m.resizeDetail(detailNormal, false)
		if back {
			// enter showed the row in full: esc goes back to the list.
			m.setFocus(false)
		}
	default:
		return func() tea.Msg { return common.BackMsg{} }
	}
	return nil
}
