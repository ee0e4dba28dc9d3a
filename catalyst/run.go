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

// Level is an organization's data-sharing level: what Catalyst's MCP server
// lets through. Catalyst has two, metadata (the default) and full; any other
// value a source reports is kept verbatim.
type Level string

// Known data-sharing levels.
const (
	LevelUnknown  Level = ""
	LevelMetadata Level = "metadata"
	LevelFull     Level = "full"
)

// DataSharing is what is known about the data-sharing level that applied to
// a history.
type DataSharing struct {
	// Filtered is true when a data-sharing filter applies to the source
	// (Catalyst, and files recorded from it). Only then does an absent
	// payload mean withheld.
	Filtered bool
	// Level is the level, or LevelUnknown when the source did not report it.
	Level Level
	// Inferred is true when twice inferred the level (payloads were
	// missing) rather than being told it.
	Inferred bool
}

// Withholds reports whether absent payloads are withheld: a filter applies
// and the level is not full.
func (d DataSharing) Withholds() bool {
	return d.Filtered && !strings.EqualFold(string(d.Level), string(LevelFull))
}

// LevelText describes the level for people: "metadata", "metadata
// (inferred: payloads are missing)", "full (inferred: payloads are
// present)", or "not reported (Catalyst's default is metadata)".
func (d DataSharing) LevelText() string {
	switch {
	case !d.Filtered && d.Level == LevelUnknown:
		return "none (no data-sharing filter on this source)"
	case d.Level == LevelUnknown:
		return "not reported (Catalyst's default is metadata)"
	case d.Inferred && d.Withholds():
		return d.levelName() + " (inferred: payloads are missing)"
	case d.Inferred:
		return d.levelName() + " (inferred: payloads are present)"
	}
	return d.levelName()
}

// levelName is the level as reported, made safe to print: a source may
// report any string.
func (d DataSharing) levelName() string { return safetext.Line(string(d.Level)) }

// PayloadText describes a payload that has no text to show, in the words
// every renderer uses. For a present payload it returns "".
func (d DataSharing) PayloadText(p Payload) string {
	switch p.State {
	case PayloadPresent:
		return ""
	case PayloadEmpty:
		return "empty"
	case PayloadWithheld:
		return d.WithheldText()
	case PayloadRedacted:
		return "redacted when saved"
	case PayloadNotRequested:
		return "not requested"
	case PayloadNotInFormat:
		return NotInFormatText
	case PayloadNoneOrEmpty:
		return NoneOrEmptyText
	}
	return "none"
}

// NotInFormatText is how every renderer describes a payload the history's
// format never carries.
const NotInFormatText = "not in this format (the source does not print it; it may have had one)"

// NoneOrEmptyText is how every renderer describes a payload the history's
// format leaves out both when none was given and when it was empty.
const NoneOrEmptyText = "none or empty (the source prints neither)"

// WithheldText is the mark of a withheld payload: it names the level, or says
// the level was not reported and that metadata is Catalyst's default.
func (d DataSharing) WithheldText() string {
	if d.Level == LevelUnknown {
		return "withheld: not shared at this organization's data-sharing level " +
			"(level not reported; Catalyst's default is metadata)"
	}
	if d.Inferred {
		return "withheld: not shared at this organization's data-sharing level (" +
			d.levelName() + ", inferred)"
	}
	return "withheld: not shared at this organization's data-sharing level (" + d.levelName() + ")"
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
// measured to its last recorded time, never to now, and there is nothing to
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
	// Provenance says where this run was read from.
	Provenance Provenance
}
