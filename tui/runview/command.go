package runview

import (
	"errors"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/twice-cli/twice/tui/list"
)

// Command runs the command line's commands the run view has besides its
// keys (common.Commander): "tab NAME|N" shows a tab, "sort COLUMN" sorts
// the tab by a column (named by its heading or its sort key; again:
// reversed, as s does), "filter TEXT" sets the filter ("filter" alone
// clears it).
func (m *Model) Command(verb, arg string) (tea.Cmd, bool, error) {
	switch strings.ToLower(verb) {
	case "tab":
		i, err := m.tabNamed(arg)
		if err != nil {
			return nil, true, err
		}
		return m.SetTab(i), true, nil
	case "sort":
		if m.d.h == nil {
			return nil, true, errors.New("nothing to sort yet: the run is loading")
		}
		t := m.tabs[m.tab]
		cols := t.source().Columns
		c, err := list.ColumnNamed(cols, arg)
		if err != nil {
			return nil, true, err
		}
		t.list().PickSort(c, cols)
		return t.list().Resort(t.source()), true, nil
	case "filter":
		f := m.filter
		f.Query = arg
		m.typing = false
		return m.setFilter(f), true, nil
	}
	return nil, false, nil
}

// tabNamed finds a tab by its number (1: the first) or the start of its
// title.
func (m *Model) tabNamed(arg string) (int, error) {
	arg = strings.TrimSpace(arg)
	if n, err := strconv.Atoi(arg); err == nil && n >= 1 && n <= len(m.tabs) {
		return n - 1, nil
	}
	names := make([]string, len(m.tabs))
	for i, t := range m.tabs {
		names[i] = strings.ToLower(t.title())
		if arg != "" && strings.HasPrefix(names[i], strings.ToLower(arg)) {
			return i, nil
		}
	}
	return 0, errors.New("no tab " + strconv.Quote(arg) + ": :tab takes " + strings.Join(names, ", ") + " or 1-" + strconv.Itoa(len(m.tabs)))
}

// Filter returns the filter the tabs show.
func (m *Model) Filter() list.Filter { return m.filter }

// SortState returns the current tab's sort, and SortColumns the columns
// it sorts by.
func (m *Model) SortState() list.Sort { return m.tabs[m.tab].list().SortState() }

// SortColumns returns the columns the current tab sorts by.
func (m *Model) SortColumns() []list.Column { return m.tabs[m.tab].source().Columns }
