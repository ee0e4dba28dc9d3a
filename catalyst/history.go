package catalyst

import (
	"iter"
	"strings"
	"time"
)

// Format is the wire format a history was decoded from.
type Format string

// Formats twice reads. The fixture format wraps one of the others.
const (
	FormatProtoJSON Format = "protojson"
	FormatCatalyst  Format = "catalyst"
	FormatDaprCLI   Format = "dapr-cli"
	FormatFixture   Format = "twice-fixture"
)

// formatInfo is what twice says of a format besides decoding it.
type formatInfo struct {
	format Format
	// description names it for people; noun in a sentence about what it
	// leaves out ("": "this history's format").
	description, noun string
	// wire is set for a history's own format, one a saved history may
	// wrap (every format but the saved history).
	wire bool
}

// formats are the formats twice reads, in the order it lists them.
// Adding one is its line here and its decoding (docs/architecture.md,
// "Adding an input format").
var formats = [...]formatInfo{
	{FormatProtoJSON, "Dapr GetInstanceHistory protojson", "", true},
	{FormatCatalyst, "Catalyst flattened events", "", true},
	{FormatDaprCLI, "dapr workflow history -o json", "the Dapr CLI's JSON", true},
	{FormatFixture, "twice saved history", "", false},
}

// info returns what twice says of f (false: not a format it reads).
func (f Format) info() (formatInfo, bool) {
	for _, x := range formats {
		if x.format == f {
			return x, true
		}
	}
	return formatInfo{}, false
}

// Noun names the format in a sentence about what it leaves out ("the
// Dapr CLI's JSON does not print it"): "this history's format" for a
// format with no shorter name.
func (f Format) Noun() string {
	if x, _ := f.info(); x.noun != "" {
		return x.noun
	}
	return "this history's format"
}

// Description names the format for people.
func (f Format) Description() string {
	if x, ok := f.info(); ok {
		return x.description
	}
	return string(f)
}

// Wire reports whether f is a history's own format, one a saved history
// may wrap: every format twice reads but the saved history itself.
func (f Format) Wire() bool {
	x, _ := f.info()
	return x.wire
}

// WireFormats are the formats a saved history may wrap, in the order
// twice lists them.
func WireFormats() []Format {
	var out []Format
	for _, x := range formats {
		if x.wire {
			out = append(out, x.format)
		}
	}
	return out
}

// Traits are what a history's source can and cannot say, as its decoder
// knows it: detect and the renderers ask them, never which format a
// history came in, so a new format with the same quirks needs nothing
// new downstream. The zero value is a source that keeps what the engine
// recorded, in the engine's order.
type Traits struct {
	// Lossy is set for sources that drop facts the engine recorded (the
	// Dapr CLI's JSON: whole-second timestamps, no stack traces, no child
	// instance ids).
	Lossy bool
	// Reordered is set when the source re-sorted the events, so they are
	// not in the engine's append order: the Dapr CLI sorts them by eventId
	// where two rows both have one, else by time, so a turn's inbox events
	// come before its workflowStarted and a retry is found by its eventId,
	// not its place.
	Reordered bool
	// TimeResolution is the finest step the source's printed timestamps
	// carry: time.Second for the Dapr CLI's JSON, which prints whole
	// seconds (it truncates), so a span between two of its printed times
	// is known only to within a second either way; 0 when the stamps are
	// as the engine recorded them. Where the decoder rebuilt finer times
	// from the CLI's elapsed column, History.Span says how well each span
	// is known; every span is measured and shown through it
	// (tui/format.Spans), every instant as printed (History.Printed).
	TimeResolution time.Duration
	// PayloadCut is how many characters of an input, an output or an
	// event's payload the source keeps before it cuts the rest and ends
	// the text with "…" (the Dapr CLI: 120); RunOutputCut the same for the
	// run's own output (160). 0: never cut.
	PayloadCut, RunOutputCut int
}

// DaprCLITraits are the traits of `dapr workflow history -o json`'s rows
// (dapr/cli v1.18.0, pkg/workflow/history.go and dclient/dclient.go): whole
// seconds, re-sorted, payloads cut at 120 characters and the run's output
// at 160, no stack traces, no child instance ids.
func DaprCLITraits() Traits {
	return Traits{Lossy: true, Reordered: true, TimeResolution: time.Second, PayloadCut: 120, RunOutputCut: 160}
}

// chunkBits sets the events per storage chunk (1<<chunkBits). Chunks keep a
// million-event history from being copied, and its memory doubled, as it grows.
const chunkBits = 12

// History is a run and its events in the engine's append order. Events are
// stored in fixed-size chunks; reach them with Len, At and All.
type History struct {
	// Run is the run the events belong to.
	Run Run
	// Format is the wire format the events were decoded from (the inner
	// format for a fixture). Ask Traits what the format can say, not
	// which format it is.
	Format Format
	// Traits are what the source can and cannot say; the decoder sets
	// them.
	Traits
	// UnknownFields counts fields the decoder did not recognise and skipped.
	UnknownFields int
	// clock is what the decoder kept of the times it rebuilt from a finer
	// record than the printed ones (Span, RebuiltSpans); nil when none.
	clock *spanClock
	// outOfRange are the timestamps a Stamp cannot hold, as given.
	outOfRange []StampText

	chunks [][]Event
	n      int
}

// StampText is a timestamp of a history outside what a Stamp holds (before
// 1678, after 2261), kept as the source gave it: its Stamp is StampBefore
// or StampAfter, and spans to it are out of range.
type StampText struct {
	// Event is the event's position, or -1 for the run's own fields.
	Event int
	// Field is the field's name as the source wrote it ("timestamp",
	// "fireAt", "lastUpdatedAt").
	Field string
	// Text is the timestamp as given.
	Text string
}

// OutOfRange returns the history's timestamps a Stamp cannot hold, as
// given, in the order they were read.
func (h *History) OutOfRange() []StampText { return h.outOfRange }

// TimestampText returns event ev's timestamp as given when it is out of
// range (a Stamp cannot hold it).
func (h *History) TimestampText(ev int) (string, bool) {
	for _, n := range h.outOfRange {
		if n.Event == ev && !strings.Contains(strings.ToLower(n.Field), "fire") {
			return n.Text, true
		}
	}
	return "", false
}

// NewHistory returns a history of run holding events, in order; each event's
// Index is set to its position.
func NewHistory(run Run, events ...Event) *History {
	h := &History{Run: run}
	for _, e := range events {
		h.Append(e)
	}
	return h
}

// Len returns the number of events.
func (h *History) Len() int { return h.n }

// At returns the event at position i (0 ≤ i < Len). The pointer stays valid
// for the history's lifetime.
func (h *History) At(i int) *Event {
	return &h.chunks[i>>chunkBits][i&(1<<chunkBits-1)]
}

// All iterates the events in order with their positions.
func (h *History) All() iter.Seq2[int, *Event] {
	return func(yield func(int, *Event) bool) {
		i := 0
		for _, c := range h.chunks {
			for j := range c {
				if !yield(i, &c[j]) {
					return
				}
				i++
			}
		}
	}
}

// Append adds an event at the end, setting its Index, and returns a pointer
// to the stored copy.
func (h *History) Append(e Event) *Event {
	last := len(h.chunks) - 1
	if last < 0 || len(h.chunks[last]) == cap(h.chunks[last]) {
		h.chunks = append(h.chunks, make([]Event, 0, 1<<chunkBits))
		last++
	}
	e.Index = int32(h.n)
	h.chunks[last] = append(h.chunks[last], e)
	h.n++
	return &h.chunks[last][len(h.chunks[last])-1]
}

// RerunFork returns the position of the first event the newest rerun
// issued anew (the one whose eventId is Run.RerunFrom, the last to carry
// rerunParentInstanceInfo), or -1 when the history is not a marked rerun's.
func (h *History) RerunFork() int {
	if h.Run.RerunOf == "" {
		return -1
	}
	for i := h.Len() - 1; i >= 0; i-- {
		if e := h.At(i); e.Detail != nil && e.Detail.RerunParentInstanceID != "" {
			return i
		}
	}
	return -1
}

// Withheld lists, in history order, every payload that is withheld.
func (h *History) Withheld() []*Event {
	var out []*Event
	for _, e := range h.All() {
		if e.Payload.State == PayloadWithheld {
			out = append(out, e)
		}
	}
	return out
}
