package cli

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/twice-cli/twice/catalyst/safetext"
	"github.com/twice-cli/twice/cmd/twice/internal/report"
)

// activityNames are the activity (and child-workflow) names of the runs a
// command read, by their lower-case form (detect matches --side-effect
// and --read-only case-insensitively), to warn about a name given to those
// flags that matches none: a typo would otherwise change nothing, quietly.
type activityNames struct {
	seen  map[string]string // lower-case → as the history spells it
	empty bool              // no run was read
}

func newActivityNames() *activityNames {
	return &activityNames{seen: make(map[string]string), empty: true}
}

// add records the names of one analysed run.
func (n *activityNames) add(a report.Analysis) {
	n.empty = false
	if a = a.Resolve(); a.Report == nil {
		return
	}
	for i := range a.Report.Invocations {
		name := a.Report.Invocations[i].Name
		n.seen[strings.ToLower(name)] = name
	}
}

// classifiedNames are the activity names given to --side-effect and
// --read-only.
type classifiedNames struct {
	SideEffect, ReadOnly []string
}

// warnUnmatched says, on w (standard error), which names given to
// --side-effect or --read-only match no activity of the runs read, and
// what the activities are. Nothing when no run was read.
func (n *activityNames) warnUnmatched(w io.Writer, given classifiedNames) {
	if n.empty {
		return
	}
	for _, flag := range []struct {
		name  string
		names []string
	}{{"--side-effect", given.SideEffect}, {"--read-only", given.ReadOnly}} {
		for _, name := range flag.names {
			if _, ok := n.seen[strings.ToLower(name)]; ok {
				continue
			}
			fmt.Fprintf(w, "twice: %s %s matches no activity in the runs read%s\n", flag.name, quote(name), n.known())
		}
	}
}

// known lists the activities read, for a warning: " (their activities:
// ChargeCard, SendReceipt)", the first eight.
func (n *activityNames) known() string {
	if len(n.seen) == 0 {
		return " (they have no activities)"
	}
	names := make([]string, 0, len(n.seen))
	for _, v := range n.seen {
		names = append(names, safetext.Line(v))
	}
	slices.Sort(names)
	more := ""
	if len(names) > 8 {
		more = fmt.Sprintf(", and %d more", len(names)-8)
		names = names[:8]
	}
	return " (their activities: " + strings.Join(names, ", ") + more + ")"
}
