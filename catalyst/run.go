package catalyst

import (
	"strings"
	"time"

	"github.com/twice-cli/twice/catalyst/safetext"
)

// Status is a run's runtime status exactly as the source reported it
// ("failed", "FAILED", "ORCHESTRATION_STATUS_FAILED", or a value twice does
// not know). Compare statuses with Is or Normalized, never with ==.
type Status string

// The statuses twice knows, in their normalised (lower-case Catalyst) form.
const (
	StatusRunning        Status = "running"
	StatusCompleted      Status = "completed"
	StatusFailed         Status = "failed"
	StatusTerminated     Status = "terminated"
	StatusSuspended      Status = "suspended"
	StatusCanceled       Status = "canceled"
	StatusStalled        Status = "stalled"
	StatusPending        Status = "pending"
	StatusContinuedAsNew Status = "continued-as-new"
)

// Normalized returns the status in Catalyst's lower-case vocabulary
// (running, completed, failed, terminated, suspended, canceled, stalled,
// pending, continued-as-new), accepting Dapr's ORCHESTRATION_STATUS_* and
// upper-case names and "cancelled". An unknown status is returned lower-cased
// and otherwise verbatim; the empty status stays empty.
func (s Status) Normalized() Status {
	v := strings.ToLower(strings.TrimSpace(string(s)))
	v = strings.TrimPrefix(v, "orchestration_status_")
	v = strings.TrimPrefix(v, "workflow_status_")
	v = strings.TrimPrefix(v, "runtime_status_")
	switch v {
	case "cancelled":
		return StatusCanceled
	case "continued_as_new", "continuedasnew", "continued-as-new":
		return StatusContinuedAsNew
	}
	return Status(v)
}

// Is reports whether two statuses mean the same, ignoring case and spelling.
func (s Status) Is(other Status) bool { return s.Normalized() == other.Normalized() }

// IsKnown reports whether the status is one twice knows.
func (s Status) IsKnown() bool {
	switch s.Normalized() {
	case StatusRunning, StatusCompleted, StatusFailed, StatusTerminated, StatusSuspended,
		StatusCanceled, StatusStalled, StatusPending, StatusContinuedAsNew:
		return true
	}
	return false
}

// IsEnded reports whether the run has ended and will record no more events:
// completed, failed, terminated, canceled or continued-as-new.
func (s Status) IsEnded() bool {
	switch s.Normalized() {
	case StatusCompleted, StatusFailed, StatusTerminated, StatusCanceled, StatusContinuedAsNew:
		return true
	}
	return false
}

// Project identifies a Catalyst project by name (the name-like id, such as
// "default") and/or numeric uid. Either may be empty when unknown.
type Project struct {
	Name string
	UID  string
}

// Surface is where a history was read from.
type Surface string

// Surfaces twice reads from.
const (
	SurfaceFile        Surface = "file"
	SurfaceStdin       Surface = "stdin"
	SurfaceDemo        Surface = "demo"
	SurfaceCatalystMCP Surface = "catalyst-mcp"
)

// Provenance says where a history came from: attribution for every value
// twice shows.
type Provenance struct {
	// Surface is where twice read it.
	Surface Surface
	// Location is the file path or demo name, for file-like surfaces.
	Location string
	// Endpoint is the Catalyst endpoint's host (never a URL with
	// credentials), for live reads and files recorded from them.
	Endpoint string
	// Recorded is set when the history was read from a twice fixture.
	Recorded *Recording
}

// Live reports whether the history was read from Catalyst just now (not
// from a file recorded from it): its pending attempts are judged against
// the clock, not against the history's own last instant.
func (p Provenance) Live() bool {
	return p.Surface == SurfaceCatalystMCP && p.Recorded == nil
}

// Saved reports whether the history was read from a saved history (a file,
// standard input or a bundled demo) rather than from a live source. A saved
// run's clock stopped when it was saved: how long it has been running is
// measured to when it was saved where the file records that, else to its
// last recorded time, never to now (Run.RanUntil), and there is nothing to
// follow.
func (p Provenance) Saved() bool {
	switch p.Surface {
	case SurfaceFile, SurfaceStdin, SurfaceDemo:
		return true
	}
	return false
}

// Recording describes a twice fixture a history was read from.
type Recording struct {
	// Surface is where the recorded history originally came from.
	Surface Surface
	// Producer is the program and version that saved it ("twice 0.1.0").
	Producer string
	// CapturedAt is when it was saved.
	CapturedAt time.Time
	// Truncated is true when the recorded history was known to be partial.
	Truncated bool
	// Description says what the fixture demonstrates (bundled demos).
	Description string
	// Unverified, when set, says which of the recording's facts (its
	// data-sharing level, format, source) its checksum does not cover: a
	// file saved by an older twice. "" means all of them are verified.
	Unverified string
}

// Run is one workflow run (instance) and what is known about it.
type Run struct {
	// ID is the run's instance id.
	ID string
	// AppID is the app identity that hosts the workflow.
	AppID string
	// Workflow is the workflow name.
	Workflow string
	// Status is the runtime status as reported (or derived from the
	// history's last status event when no source reported one).
	Status Status
	// HistoryStatus is the status the history's own events imply (its last
	// executionCompleted's, or a suspend, resume, termination or stall
	// after it), "" when none does. Status is what the source reported
	// when it reported one; the two may differ, and then both are said.
	HistoryStatus Status
	// UnfinishedTermination is when the history records a termination
	// request (executionTerminated) made while the run was suspended that
	// no completion followed (zero: none). durabletask-go v0.12.1 does not
	// complete a suspended run it is asked to terminate: the run stays
	// suspended (Dapr 1.18.0 reports it SUSPENDED), so such a run is not
	// said to be terminated.
	UnfinishedTermination time.Time
	// CreatedAt and UpdatedAt are the run's first and last recorded times.
	CreatedAt time.Time
	UpdatedAt time.Time
	// ExecutionID is the current continue-as-new generation's execution id.
	ExecutionID string
	// Project is the Catalyst project, when known.
	Project Project
	// DataSharing is the data-sharing level that applied to the history.
	DataSharing DataSharing
	// Input, Output and CustomStatus are the run's own payloads.
	Input        Payload
	Output       Payload
	CustomStatus Payload
	// FailureMessage is the run's failure, when it failed.
	FailureMessage string
	// ParentID is the parent run, for a child workflow.
	ParentID string
	// RerunOf is the run this one was rerun from (Dapr 1.16+ workflow
	// rerun), and RerunFrom the eventId of the first event the rerun
	// issued anew: the history before it is a copy of RerunOf's, its
	// executionStarted included, so that event's instance id is RerunOf's,
	// not this run's.
	RerunOf   string
	RerunFrom int32
	// StartID is the instance id the history's first executionStarted
	// names ("" when it has none). It is ID, except in a rerun's history,
	// whose start is a copy of its source run's: marked (RerunOf) from
	// Dapr 1.17, unmarked before (ForeignStart).
	StartID string
	// Provenance says where this run was read from.
	Provenance Provenance

	// idFromStart says ID was taken from the executionStarted alone: no
	// metadata next to the events named the run (ReadAs).
	idFromStart bool
	// res is the step of the run's times as its source printed them
	// (History.TimeResolution); tookErr, when the decoder rebuilt the
	// span from CreatedAt to UpdatedAt from a finer record, its error
	// (Span).
	res, tookErr time.Duration
}

// Span is the span from the run's start to until (its UpdatedAt, or the
// instant it ran until: RanUntil), as its history measured it
// (History.Span): exact from the engine's own times; from the Dapr CLI's
// rows, rebuilt to UpdatedAt where the decoder rebuilt both ends, and
// otherwise measured between printed times, ±1 s. A run no history
// measured (a listed run) has exact times.
func (r *Run) Span(until time.Time) Span {
	d := until.Sub(r.CreatedAt)
	if r.res <= 0 {
		return Span{D: d}
	}
	last := until.Equal(r.UpdatedAt)
	if last && r.tookErr > 0 {
		return Span{D: d, Err: r.tookErr}
	}
	// Between printed times (a clock reading, or a capture, is exact).
	if last {
		until = until.Truncate(r.res)
	}
	return Span{D: until.Sub(r.CreatedAt.Truncate(r.res)), Err: r.res, Step: r.res}
}

// RanUntil is the instant to which a run is known to have run: an ended
// run's last update; a live run's now; a saved run's the moment it was
// captured (a saved history that records it), or its last update when that
// is later or the capture time is not known. atLeast is set for a saved run
// that had not ended: it ran at least that long, and may have run on. A run
// still running when it was saved 6 h after its last event has run for at
// least those 6 h more.
func (r *Run) RanUntil(now time.Time) (until time.Time, atLeast bool) {
	switch {
	case r.Status.IsEnded():
		return r.UpdatedAt, false
	case r.Provenance.Saved():
		until = r.UpdatedAt
		if rec := r.Provenance.Recorded; rec != nil && rec.CapturedAt.After(until) {
			until = rec.CapturedAt
		}
		return until, true
	}
	return now, false
}

// ForeignStart returns the run the history's executionStarted names when
// that is not this run and no rerun marker explains it, else "". The
// history was read as run ID but begins as another run's. twice cannot
// tell why: most likely ID is a rerun of that run made by Dapr 1.16, whose
// rerun copies the source's executionStarted as-is and marks none of its
// events (dapr/dapr v1.16.x pkg/actors/targets/workflow/orchestrator/fork;
// durabletask-go v0.9/v0.10 have no rerunParentInstanceInfo), or the
// server answered with another run's history. Nor can it tell from which
// event such a rerun started: RerunFrom stays unset.
func (r *Run) ForeignStart() string {
	if r.RerunOf != "" || r.StartID == "" || r.ID == "" || r.StartID == r.ID {
		return ""
	}
	return r.StartID
}

// OtherRunError says a history read as one run is clearly another's: the
// metadata next to its events names another run (ID), or it is a rerun of
// the very run it was read as (RerunOf), so the rerun's history, not the
// run's.
type OtherRunError struct {
	// ID is the run the history names; RerunOf is set when the history is
	// a rerun of ID (the run it was read as).
	ID      string
	RerunOf bool
}

// Error says whose history it is, the id escaped for a terminal.
func (e *OtherRunError) Error() string {
	id := safetext.Line(e.ID)
	if e.RerunOf {
		return "the history is a rerun of " + id + ", not " + id + " itself"
	}
	return "the history names run " + id
}

// ReadAs names the run as id, the run the history was read as (a live
// read's argument, a recording's run id, --run given with a file), and
// returns an *OtherRunError when the history is clearly another run's. A
// history whose only claim to a run id is its executionStarted is read as
// id even when that names another run: a rerun made by Dapr 1.16 carries
// its source run's start and no rerun marker, and refusing it would lock
// the user out of a run the server does hold. ForeignStart then names the
// run its start names. An empty id changes nothing.
func (r *Run) ReadAs(id string) error {
	switch {
	case id == "":
	case r.RerunOf == id:
		// A run is never its own rerun: Dapr makes the rerun under a new
		// id while the source still exists.
		return &OtherRunError{ID: id, RerunOf: true}
	case r.ID == "" || r.ID == id || r.idFromStart:
		r.ID, r.idFromStart = id, false
	default:
		return &OtherRunError{ID: r.ID}
	}
	return nil
}
