package catalyst

import (
	"context"
	"time"
)

// Source is where runs and their histories come from: the live Catalyst MCP
// server, a folder or list of saved files, or the bundled demos. The TUI and
// the commands read through it and know nothing of the transport.
type Source interface {
	// ListRuns returns the runs matching q, newest first where the source
	// can order them. A list cut short (page cap, cancellation, a refused
	// page) is returned with Partial set, never as if complete.
	ListRuns(ctx context.Context, q RunQuery) (RunList, error)
	// History returns one run's history.
	History(ctx context.Context, ref RunRef) (*History, error)
}

// RunQuery filters a run list. Zero fields do not filter.
type RunQuery struct {
	Project  string
	AppID    string
	Status   Status
	Workflow string
	// Since and Until bound the run's start time.
	Since time.Time
	Until time.Time
	// Limit caps the number of runs (0: the source's default).
	Limit int
}

// RunRef names one run: its id, and the app and project that hold it.
// File-backed sources use Location (a path or "demo:NAME") instead.
type RunRef struct {
	ID       string
	AppID    string
	Project  string
	Location string
}

// RunList is a page of runs and whether it is complete.
type RunList struct {
	Runs []Run
	// Partial is true when the list is known to be incomplete; Reason says
	// why ("stopped after 50 pages", "cancelled").
	Partial bool
	Reason  string
	// Dropped counts the runs a server sent past the query's Limit, left
	// out (Reason says so; what to do about it is the caller's to say: a
	// command's --limit, which the view does not take).
	Dropped int
	// FilteredHere says, one line each, which of the query's filters the
	// source could not pass to the server and twice applied to the rows
	// itself (a list tool that declares no time window, say).
	FilteredHere []string
}
