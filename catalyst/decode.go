package catalyst

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/twice-cli/twice/catalyst/jsonscan"
	"github.com/twice-cli/twice/catalyst/safetext"
)

// DecodeOptions tunes Decode and DecodeValue.
type DecodeOptions struct {
	// Provenance is recorded on the decoded history's Run.Provenance.
	Provenance Provenance
	// MaxEvents caps the number of events; a history with more is an error
	// wrapping ErrTooManyEvents. 0 means no cap.
	MaxEvents int
}

// ErrEmpty is returned for input that holds nothing but whitespace.
var ErrEmpty = errors.New("the input is empty: it holds no JSON at all " +
	"(check that the history was saved or piped completely)")

// ErrTooManyEvents is wrapped by the error for a history longer than
// DecodeOptions.MaxEvents.
var ErrTooManyEvents = errors.New("too many events")

// readableFormats names what twice reads, for FormatError.
const readableFormats = "twice reads Dapr GetInstanceHistory protojson ({\"events\":[…]}), " +
	"Catalyst flattened events (snake_case, a list or {\"history\":[…]}), " +
	"`dapr workflow history -o json` output, an MCP tool result or JSON-RPC response " +
	"wrapping one of those, and twice saved histories (twice fixture files)"

// FormatError reports input that is none of the formats twice reads.
type FormatError struct {
	// What describes what was found ("a JSON object with keys \"a\", \"b\"").
	// It is already sanitized.
	What string
	// Found is the input's first bytes, sanitized with safetext.Line.
	Found string
	// Hint, when set, says what to do instead.
	Hint string
}

func (e *FormatError) Error() string {
	var b strings.Builder
	b.WriteString("not a workflow history twice can read: found ")
	b.WriteString(e.What)
	if e.Found != "" {
		b.WriteString(", beginning `")
		b.WriteString(e.Found)
		b.WriteString("`")
	}
	b.WriteString("; ")
	b.WriteString(readableFormats)
	if e.Hint != "" {
		b.WriteString(". ")
		b.WriteString(e.Hint)
	}
	return b.String()
}

// DecodeError reports a history that is not what its format requires: a
// known field of the wrong type or repeated, an event without a type, a
// cut-off document, trailing data. Err, when set, is the underlying
// *jsonscan.SyntaxError, *jsonscan.ReadError or ErrTooManyEvents.
type DecodeError struct {
	// Format is the format being decoded.
	Format Format
	// Event is the index of the event being decoded, or -1.
	Event int
	// Offset is the byte offset where the problem was found.
	Offset int64
	// Msg says what was wrong (when Err is nil, or to add to it).
	Msg string
	// Err is the underlying error, if any.
	Err error
}

func (e *DecodeError) Error() string {
	var b strings.Builder
	if e.Format != "" {
		b.WriteString(e.Format.Description())
	} else {
		b.WriteString("history")
	}
	if e.Event >= 0 {
		b.WriteString(", event ")
		b.WriteString(strconv.Itoa(e.Event))
	}
	if e.Msg != "" {
		b.WriteString(" (byte ")
		b.WriteString(strconv.FormatInt(e.Offset, 10))
		b.WriteString("): ")
		b.WriteString(e.Msg)
		if e.Err != nil {
			b.WriteString(": ")
		}
	} else {
		b.WriteString(": ")
	}
	if e.Err != nil {
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

// Unwrap returns the underlying error.
func (e *DecodeError) Unwrap() error { return e.Err }

// Decode reads one history document of any wire format, chosen by content
// (protojson, Catalyst flattened, Dapr CLI JSON, or an MCP tool result /
// JSON-RPC response wrapping one of them), and checks that nothing follows
// it. It never returns a partial history: on error the history is nil.
func Decode(r io.Reader, opts DecodeOptions) (*History, error) {
	return DecodeAll(jsonscan.New(r), opts)
}

// DecodeAll is Decode for the document sc reads, from its position: a
// scanner of a file (jsonscan.NewReaderAt) lets a long list of events be
// decoded on two cores, with the same result.
func DecodeAll(sc *jsonscan.Scanner, opts DecodeOptions) (*History, error) {
	h, err := DecodeValue(sc, opts)
	if err != nil {
		return nil, err
	}
	if err := sc.End(); err != nil {
		return nil, &DecodeError{Format: h.Format, Event: -1, Err: err}
	}
	return h, nil
}

// DecodeValue decodes the JSON value at the scanner's position, leaving the
// scanner just after it (the fixture loader uses this to hash exactly the
// history's bytes while they are read, and to check what follows).
func DecodeValue(sc *jsonscan.Scanner, opts DecodeOptions) (*History, error) {
	d := newDecoder(sc, opts)
	d.top = true
	d.bulk = &bulk{}
	defer d.bulk.stop()
	h, err := d.document(allowMCP | allowJSONRPC)
	if err != nil {
		return nil, err
	}
	return h, nil
}

// decodeBytes decodes a whole document held in memory.
func decodeBytes(b []byte, opts DecodeOptions, allow wrappers) (*History, error) {
	sc := jsonscan.NewBytes(b)
	d := newDecoder(sc, opts)
	d.bulk = &bulk{}
	defer d.bulk.stop()
	h, err := d.document(allow)
	if err != nil {
		return nil, err
	}
	if err := sc.End(); err != nil {
		return nil, &DecodeError{Format: h.Format, Event: -1, Err: err}
	}
	return h, nil
}

// decoder is the state of one decode.
type decoder struct {
	sc     *jsonscan.Scanner
	opts   DecodeOptions
	h      *History
	format Format
	// event is the index of the event being decoded, or -1.
	event int
	strs  *interner
	rt    routers
	// types caches LookupEventType for the type names of flat events and
	// CLI rows.
	types map[string]EventType
	// keep holds a copy of a key that must outlive the next scanner call.
	keep []byte
	cli  cliScratch
	// stamps parses timestamps, remembering the last date.
	stamps stampParser
	run    runFacts
	// bulk speeds up a long decode (nil: plain allocation).
	bulk *bulk
	// top is set for the decoder of the whole input (not of a document
	// inside it, nor the second half of a split): only it may split.
	top bool
	// splitMin is the shortest rest of the input worth splitting
	// (splitMinBytes; tests lower it), and splits counts the splits taken.
	splitMin int64
	splits   int
}

// runFacts is what the envelope reported about the run and what the events
// say about it, merged into Run when the history is complete.
type runFacts struct {
	status   Status // reported by the envelope
	level    Level
	levelSet bool
	derived  Status // from the last status-bearing event
	// openTermination is the time of an executionTerminated recorded while
	// the run was suspended that no executionCompleted has followed yet.
	openTermination Stamp
	first, last     Stamp
	createdAt       Stamp // the executionStarted's timestamp
	// createdEv and openTermEv are the positions, plus one, of the events
	// whose times createdAt and openTermination are (0: none), so that
	// rebuilt times replace them (finish).
	createdEv, openTermEv int32
	createdRep            time.Time // reported by the envelope
	updatedRep            time.Time // reported by the envelope
	// startID is the instance id the first executionStarted names;
	// startApp the app its router names (the target, else the source);
	// actionApp the source of the first router on an event the workflow
	// itself appended (its actions). See finish.
	startID, startApp, actionApp string
	// rerunOf and rerunFrom: the last event carrying
	// rerunParentInstanceInfo.
	rerunOf   string
	rerunFrom int32
	// cli116 marks rows only the Dapr CLI v1.16 writes.
	cli116 bool
}

func newDecoder(sc *jsonscan.Scanner, opts DecodeOptions) *decoder {
	return &decoder{sc: sc, opts: opts, h: &History{}, event: -1, strs: newInterner(), splitMin: splitMinBytes}
}

// errorf returns a DecodeError at the scanner's position.
func (d *decoder) errorf(format string, args ...any) error {
	return &DecodeError{Format: d.format, Event: d.event, Offset: d.sc.Offset(), Msg: fmt.Sprintf(format, args...)}
}

// fail wraps a scanner error with the format and event being decoded; nil
// stays nil.
func (d *decoder) fail(err error) error {
	if err == nil {
		return nil
	}
	var de *DecodeError
	if errors.As(err, &de) {
		return err
	}
	var ve *jsonscan.ValueError
	if errors.As(err, &ve) {
		return &DecodeError{Format: d.format, Event: d.event, Offset: ve.Offset, Msg: ve.Msg}
	}
	return &DecodeError{Format: d.format, Event: d.event, Err: err}
}

// otherKind handles the error of reading a known field: a null is consumed
// and reported as null (an absent field, as protojson reads it); a value of
// another kind is an error naming the field; anything else (malformed or
// cut-off JSON) is wrapped as it is.
func (d *decoder) otherKind(err error, field, want string) (null bool, _ error) {
	var ve *jsonscan.ValueError
	if !errors.As(err, &ve) || want == "a number" && (ve.Kind == '-' || isDigitByte(ve.Kind)) {
		// Malformed JSON, or a number out of range (already consumed).
		return false, d.fail(err)
	}
	if ve.Kind == 'n' {
		return true, d.fail(d.sc.Null())
	}
	return false, &DecodeError{Format: d.format, Event: d.event, Offset: ve.Offset,
		Msg: fmt.Sprintf("%q is %s, want %s", field, jsonscan.KindName(ve.Kind), want)}
}

// kindError is the error for a known field whose value (not yet consumed)
// is of the wrong kind.
func (d *decoder) kindError(field, want string) error {
	k, err := d.sc.PeekKind()
	if err != nil {
		return d.fail(err)
	}
	if jsonscan.KindName(k) == "" {
		// Not a value at all: let the scanner say what is wrong.
		return d.fail(d.sc.SkipValue())
	}
	return d.errorf("%q is %s, want %s", field, jsonscan.KindName(k), want)
}

// beginObject opens a known field's object; null reads as absent.
func (d *decoder) beginObject(field string) (present bool, err error) {
	err = d.sc.BeginObject()
	if err == nil {
		return true, nil
	}
	_, err = d.otherKind(err, field, "an object")
	return false, err
}

// duplicate is the error for a known key given twice in one object.
func (d *decoder) duplicate(key []byte) error {
	return d.errorf("%s appears twice in one object", quoteShort(key))
}

// isNull consumes a null if one is next.
func (d *decoder) isNull() (bool, error) {
	k, err := d.sc.PeekKind()
	if err != nil || k != 'n' {
		return false, d.fail(err)
	}
	return true, d.fail(d.sc.Null())
}

// skipUnknown skips a value, counting it as an unknown field.
func (d *decoder) skipUnknown() error {
	d.h.UnknownFields++
	return d.fail(d.sc.SkipValue())
}

// bytesOf reads a string field; present is false for null. The slice is
// valid until the next scanner call.
func (d *decoder) bytesOf(field string) (b []byte, present bool, err error) {
	b, null, err := d.sc.StringValueOrNull()
	if err == nil {
		return b, !null, nil
	}
	_, err = d.otherKind(err, field, "a string")
	return nil, false, err
}

// internOf reads a string field that is likely to repeat (names, ids).
func (d *decoder) internOf(field string) (string, error) {
	b, _, err := d.bytesOf(field)
	if err != nil {
		return "", err
	}
	return d.strs.str(b), nil
}

// stringOf reads a string field that rarely repeats (messages, traces).
func (d *decoder) stringOf(field string) (string, error) {
	b, _, err := d.bytesOf(field)
	if err != nil || len(b) == 0 {
		return "", err
	}
	return d.strs.arena.str(b), nil
}

// int32Of reads an integer field: a number, or (as protojson allows) a
// string holding one. null reads as 0.
func (d *decoder) int32Of(field string) (int32, error) {
	v, err := d.sc.Int32()
	if err == nil {
		return v, nil
	}
	var ve *jsonscan.ValueError
	if errors.As(err, &ve) && ve.Kind == '"' {
		b, err := d.sc.StringValue()
		if err != nil {
			return 0, d.fail(err)
		}
		n, ok := jsonscan.ParseInt(b)
		if !ok || n != int64(int32(n)) {
			return 0, &DecodeError{Format: d.format, Event: d.event, Offset: ve.Offset,
				Msg: fmt.Sprintf("%q is the string %s, want a 32-bit integer", field, quoteShort(b))}
		}
		return int32(n), nil
	}
	_, err = d.otherKind(err, field, "a number")
	return 0, err
}

func isDigitByte(c byte) bool { return '0' <= c && c <= '9' }

// boolOf reads a boolean field; null reads as false.
func (d *decoder) boolOf(field string) (bool, error) {
	v, err := d.sc.Bool()
	if err == nil {
		return v, nil
	}
	_, err = d.otherKind(err, field, "true or false")
	return false, err
}

// stampOf reads an RFC 3339 timestamp field; null reads as absent.
func (d *decoder) stampOf(field string) (Stamp, error) {
	b, present, err := d.bytesOf(field)
	if err != nil || !present {
		return 0, err
	}
	st, ok := d.stamps.parse(b)
	if !ok {
		return 0, d.errorf("%q is %s, which is not an RFC 3339 time", field, quoteShort(b))
	}
	if st.OutOfRange() {
		d.h.outOfRange = append(d.h.outOfRange, StampText{Event: d.event, Field: field, Text: string(b)})
	}
	return st, nil
}

// timeOf is stampOf for run metadata kept as time.Time: an instant a Stamp
// cannot hold is kept as it is (a time.Time holds it), and noted as the
// run's.
func (d *decoder) timeOf(field string) (time.Time, error) {
	st, err := d.stampOf(field)
	if err != nil || st == 0 {
		return time.Time{}, err
	}
	if st.OutOfRange() {
		last := &d.h.outOfRange[len(d.h.outOfRange)-1]
		last.Event = -1
		if t, err := time.Parse(time.RFC3339Nano, last.Text); err == nil {
			return t.UTC(), nil
		}
	}
	return st.Time(), nil
}

// quotedPayloadOf reads a payload that protojson writes as a JSON string
// (kept in wire form); null is an absent payload.
func (d *decoder) quotedPayloadOf(field string) (Payload, error) {
	lit, err := d.sc.String()
	if err == nil {
		return QuotedPayload(d.strs.arena.str(lit)), nil
	}
	_, err = d.otherKind(err, field, "a string")
	return Payload{}, err
}

// anyPayloadOf reads a payload that may be a JSON string (kept in wire
// form) or any other JSON value (kept as its raw text); null is absent.
func (d *decoder) anyPayloadOf() (Payload, error) {
	k, err := d.sc.PeekKind()
	if err != nil {
		return Payload{}, d.fail(err)
	}
	switch k {
	case '"':
		lit, err := d.sc.String()
		if err != nil {
			return Payload{}, d.fail(err)
		}
		return QuotedPayload(d.strs.arena.str(lit)), nil
	case 'n':
		return Payload{}, d.fail(d.sc.Null())
	}
	raw, err := d.sc.RawValue()
	if err != nil {
		return Payload{}, d.fail(err)
	}
	return PresentPayload(d.strs.arena.str(raw)), nil
}

// statusOf reads an enum field that protojson writes as its name or, for a
// value it does not know, its number.
func (d *decoder) statusOf(field string, names func(int64) string) (string, error) {
	k, err := d.sc.PeekKind()
	if err != nil {
		return "", d.fail(err)
	}
	if k == '-' || isDigitByte(k) {
		n, err := d.sc.Int64()
		if err != nil {
			return "", d.fail(err)
		}
		return names(n), nil
	}
	return d.internOf(field)
}

// quoteShort quotes at most the first 64 bytes of b, sanitized, for an
// error message.
func quoteShort(b []byte) string {
	s := string(b)
	if len(s) > 64 {
		s = s[:64] + "…"
	}
	return strconv.Quote(safetext.Line(s))
}

// nextEvent starts the next event, enforcing MaxEvents.
func (d *decoder) nextEvent() (*Event, error) {
	d.event = d.h.Len()
	if d.opts.MaxEvents > 0 && d.event >= d.opts.MaxEvents {
		return nil, &DecodeError{Format: d.format, Event: -1, Offset: d.sc.Offset(),
			Msg: fmt.Sprintf("the history has more than %d events, the most this command reads", d.opts.MaxEvents),
			Err: ErrTooManyEvents}
	}
	return d.h.appendZero(d.bulk), nil
}

// appendZero adds a zero event at the end and returns it: Append without
// copying an Event in (chunk memory is already zero). New chunks come from
// b.
func (h *History) appendZero(b *bulk) *Event {
	last := len(h.chunks) - 1
	if last < 0 || len(h.chunks[last]) == cap(h.chunks[last]) {
		h.chunks = append(h.chunks, b.chunk(len(h.chunks)))
		last++
	}
	c := h.chunks[last]
	c = c[:len(c)+1]
	h.chunks[last] = c
	e := &c[len(c)-1]
	e.Index = int32(h.n)
	h.n++
	return e
}

// detail returns e's Detail, allocating it on first use.
func detail(e *Event) *EventDetail {
	if e.Detail == nil {
		e.Detail = &EventDetail{}
	}
	return e.Detail
}

// noteEvent folds a decoded event into the run facts.
func (d *decoder) noteEvent(e *Event) {
	if ts := e.Timestamp; ts != 0 && ts != StampNever {
		if d.run.first == 0 || ts < d.run.first {
			d.run.first = ts
		}
		if ts > d.run.last {
			d.run.last = ts
		}
	}
	run := &d.h.Run
	if e.Router != nil && d.run.actionApp == "" && !e.Type.isInbound() {
		// The applier stamps every action with the workflow's own app as
		// the router's source; a result that arrives names its sender.
		d.run.actionApp = e.Router.Source
	}
	if e.Detail != nil && e.Detail.RerunParentInstanceID != "" {
		// The last marker is the newest rerun's: a rerun of a rerun copies
		// its source's marked event before its own (dapr/dapr v1.17.0
		// orchestrator/fork/fork.go: handleFound's event joins the inbox
		// last).
		d.run.rerunOf, d.run.rerunFrom = e.Detail.RerunParentInstanceID, e.ID
	}
	switch e.Type {
	case EventExecutionStarted:
		if d.run.startID == "" {
			d.run.startID = e.InstanceID
		}
		if e.Router != nil && d.run.startApp == "" {
			// A child's start carries its parent's router: the source is
			// the parent's app, the target (when it names one) the
			// child's own.
			d.run.startApp = e.Router.Source
			if e.Router.Target != "" {
				d.run.startApp = e.Router.Target
			}
		}
		if run.Workflow == "" {
			run.Workflow = e.Name
		}
		if e.ExecutionID != "" {
			run.ExecutionID = e.ExecutionID
		}
		if d.run.createdAt == 0 {
			d.run.createdAt, d.run.createdEv = e.Timestamp, e.Index+1
		}
		if run.Input.State == PayloadNone || run.Input.State == PayloadNoneOrEmpty {
			run.Input = e.Payload
		}
		if e.Detail != nil && run.ParentID == "" {
			run.ParentID = e.Detail.ParentInstanceID
		}
	case EventExecutionCompleted:
		d.run.openTermination, d.run.openTermEv = 0, 0
		if e.Detail != nil && e.Detail.WorkflowStatus != "" {
			d.run.derived = e.Detail.WorkflowStatus
		}
		if outputFills(run.Output, e.Payload) {
			run.Output = e.Payload
		}
		if e.Failure != nil && e.Failure.Message != "" {
			run.FailureMessage = e.Failure.Message
		}
	case EventExecutionTerminated:
		if d.run.derived.Is(StatusSuspended) {
			// The engine records the request but completes nothing while
			// the run is suspended (durabletask-go v0.12.1): the run stays
			// suspended unless a completion follows.
			if d.run.openTermination == 0 {
				d.run.openTermination, d.run.openTermEv = e.Timestamp, e.Index+1
			}
			break
		}
		d.run.derived = StatusTerminated
	case EventExecutionSuspended:
		d.run.derived = StatusSuspended
	case EventExecutionResumed:
		d.run.derived = StatusRunning
	case EventExecutionStalled:
		d.run.derived = StatusStalled
	}
}

// outputFills reports whether a later executionCompleted's output p
// replaces the run's output so far: any output the event states does, and
// "none or empty" only where nothing is known yet.
func outputFills(have, p Payload) bool {
	switch p.State {
	case PayloadNone:
		return false
	case PayloadNoneOrEmpty:
		return have.State == PayloadNone
	}
	return true
}

// fromCLI records whether the events are the Dapr CLI's rows, and so
// their traits (DaprCLITraits): the CLI prints each row's time truncated
// to the second (pkg/workflow/history.go, Timestamp.Truncate(time.Second))
// and fireAt in RFC 3339 without fraction, cuts payloads (trim(…, 120),
// trim(…, 160)) and sorts the rows (dclient.go).
func (d *decoder) fromCLI(cli bool) {
	d.h.Traits = Traits{}
	if cli {
		d.h.Traits = DaprCLITraits()
	}
}

// rebuildTimes rebuilds the Dapr CLI rows' times from their elapsed
// values (rebuild.go), and the run's times with them.
func (d *decoder) rebuildTimes() {
	h := d.h
	if !d.cli.rows {
		return
	}
	first, last := h.rebuildFromElapsed(d.cli.execs)
	d.cli.rows, d.cli.execs = false, nil
	if h.clock == nil {
		return
	}
	d.run.first, d.run.last = first, last
	if i := d.run.createdEv; i > 0 {
		d.run.createdAt = h.At(int(i - 1)).Timestamp
	}
	if i := d.run.openTermEv; i > 0 {
		d.run.openTermination = h.At(int(i - 1)).Timestamp
	}
}

// finish completes the history: run times and status, provenance, and what
// it reports about data sharing (Catalyst's filter applies when filtered).
func (d *decoder) finish(filtered bool) *History {
	h := d.h
	h.Format = d.format
	run := &h.Run
	run.RerunOf, run.RerunFrom = d.run.rerunOf, d.run.rerunFrom
	run.StartID = d.run.startID
	if run.ID == "" && d.run.rerunOf == "" {
		// A rerun's executionStarted is a copy of the source run's: its
		// instance id is not this run's. Unmarked (Dapr 1.16), it is taken,
		// and ReadAs may still name the run the history was read as.
		run.ID, run.idFromStart = d.run.startID, d.run.startID != ""
	}
	if run.AppID == "" {
		run.AppID = d.run.startApp
		if run.AppID == "" {
			run.AppID = d.run.actionApp
		}
	}
	d.rebuildTimes()
	if d.run.cli116 {
		// The Dapr CLI v1.16 prints no payload on SubOrch* rows.
		for _, e := range h.All() {
			if (e.Type == EventChildWorkflowCreated || e.Type == EventChildWorkflowCompleted) &&
				e.Payload.State == PayloadNoneOrEmpty {
				e.Payload = AbsentPayload(PayloadNotInFormat)
			}
		}
	}
	switch {
	case !d.run.createdRep.IsZero():
		run.CreatedAt = d.run.createdRep
	case d.run.createdAt != 0:
		run.CreatedAt = d.run.createdAt.Time()
	case d.run.first != 0:
		run.CreatedAt = d.run.first.Time()
	}
	switch {
	case !d.run.updatedRep.IsZero():
		run.UpdatedAt = d.run.updatedRep
	case d.run.last != 0:
		run.UpdatedAt = d.run.last.Time()
	}
	run.res = h.TimeResolution
	if sp := h.SpanTimes(run.CreatedAt, run.UpdatedAt); sp.Rebuilt() {
		run.tookErr = sp.Err
	}
	run.HistoryStatus = d.run.derived
	if t := d.run.openTermination; t != 0 && t != StampNever {
		run.UnfinishedTermination = t.Time()
	}
	switch {
	case d.run.status != "":
		run.Status = d.run.status
	case d.run.derived != "":
		run.Status = d.run.derived
	default:
		run.Status = StatusRunning
	}
	run.Provenance = d.opts.Provenance
	if filtered || d.run.levelSet {
		// Recorded, not applied: the source settles the level
		// (History.SettleDataSharing).
		run.DataSharing = DataSharing{Filtered: true, Level: d.run.level}
	}
	d.event = -1
	return h
}
