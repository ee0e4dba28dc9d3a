package detect

import (
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/safetext"
)

// Facts, explanations and advice quote history text (names, error
// messages, ids). They are built with clip, which cuts the text short and
// passes it through safetext.Line, so a finding's text is one printable line
// whatever the history held. Renderers sanitize again; that changes nothing.

// clip returns s cut to at most n runes (with "…" when cut) and made safe
// for one line.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) > n {
		cut := 0
		for i := range s {
			if n == 0 {
				cut = i
				break
			}
			n--
		}
		s = s[:cut] + "…"
	}
	return safetext.Line(s)
}

// quoteName returns an activity name for a sentence.
func quoteName(name string) string {
	if name == "" {
		return "(unnamed)"
	}
	return clip(name, 80)
}

// failureText is the failure's message (or type) for a fact, one line.
func failureText(f *catalyst.Failure) string {
	if f == nil {
		return "no details recorded"
	}
	msg := f.Message
	if msg == "" {
		msg = f.Type
	}
	if msg == "" {
		return "no details recorded"
	}
	return clip(msg, 160)
}

// subjectOf names, for a sentence, what the activity's side effect is: "the
// charge", "the email", ... or "the side effect".
func subjectOf(name string) string {
	for _, w := range SplitWords(name) {
		switch w {
		case "charge", "capture", "debit", "bill":
			return "the charge"
		case "pay", "payment", "payout", "purchase", "buy":
			return "the payment"
		case "refund":
			return "the refund"
		case "transfer", "withdraw", "deposit", "settle":
			return "the transfer"
		case "email", "mail":
			return "the email"
		case "sms", "text":
			return "the SMS"
		case "send", "message", "transmit", "deliver":
			return "the message"
		case "notify", "notification", "alert", "page":
			return "the notification"
		case "publish", "emit", "produce", "broadcast", "enqueue", "dispatch", "push":
			return "the published message"
		case "invoice":
			return "the invoice"
		case "order", "place":
			return "the order"
		case "ship", "fulfill", "fulfil":
			return "the shipment"
		case "book", "reserve":
			return "the reservation"
		case "increment", "incr", "decrement", "deduct", "credit", "topup":
			return "the balance change"
		case "insert", "create", "register", "add", "record", "provision", "signup":
			return "the new record"
		case "append", "write", "upload":
			return "the write"
		}
	}
	return "the side effect"
}

// hazardAdvice is the seed's hazard-table fix for what the activity's name
// says it does.
func hazardAdvice(name string) string {
	for _, w := range SplitWords(name) {
		switch w {
		case "charge", "capture", "debit", "bill", "pay", "payment", "payout", "purchase",
			"buy", "refund", "transfer", "withdraw", "deposit", "settle", "invoice", "credit":
			return "Send the provider's idempotency key header"
		case "email", "mail", "sms", "text", "send", "message", "notify", "notification",
			"alert", "page", "deliver", "transmit":
			return "Record a dedupe key in the same transaction as the send, or use a provider-side key"
		case "publish", "emit", "produce", "broadcast", "enqueue", "dispatch", "push":
			return "Give the message a deterministic id, and make the consumer idempotent too"
		case "increment", "incr", "decrement", "deduct", "topup":
			return "Replace the increment with an idempotent set, or record contributing event ids and sum"
		case "append", "upload":
			return "Write to a key derived from the idempotency key instead of appending"
		case "insert", "create", "register", "add", "record", "provision", "signup", "order",
			"place", "book", "reserve", "ship", "fulfill", "fulfil", "write":
			return "Add a unique constraint on the natural key, then upsert or insert-ignore"
		}
	}
	return "Make the write conditional on a key that is stable across retries"
}

// keyAdvice says which key to use for an invocation, from what its task
// execution ids show: one id shared by every attempt is a stable key; ids
// that change per attempt (.NET) are not; no ids leaves a natural key.
func keyAdvice(l *line, inv *Invocation, subject string) *line {
	first := ""
	shared, perAttempt := true, false
	for i := range inv.Attempts {
		x := inv.Attempts[i].ExecutionID
		switch {
		case i == 0:
			first = x
		case x != first:
			shared = false
			if x != "" && first != "" {
				perAttempt = true
			}
		}
	}
	switch {
	case first != "" && shared:
		return l.str("key ").str(subject).str(" on task_execution_id ").id(first).
			str(" — stable across these attempts")
	case perAttempt:
		return l.str("task_execution_id changes per attempt here (").id(first).str(" then ").
			id(inv.Attempts[1].ExecutionID).
			str("), so it is not a stable key: use a natural key from the input, or the first attempt's id the retry timers carry")
	}
	return l.str("this history records no task_execution_id: key ").str(subject).
		str(" on a natural key from the input (an order id)")
}

// line builds one line of text in a reusable buffer: a finding's facts are
// built with one allocation each. A fact's one measure (span, size) is kept
// as a value with its place in the words (fact), never worded here: the
// presenter words it. h is the history, which measures the spans
// (catalyst.History.Span: how well its source knows each).
type line struct {
	b []byte
	h *catalyst.History
	// The measure written, if any: its kind, value and place in b; for a
	// span, how well it is known.
	kind     MeasureKind
	value    int64
	at       int32
	err, res time.Duration
}

func (l *line) str(s string) *line { l.b = append(l.b, s...); return l }

func (l *line) num(n int) *line { l.b = strconv.AppendInt(l.b, int64(n), 10); return l }

// span states the span from one of the history's instants to another, as
// the history measures it.
func (l *line) span(from, to catalyst.Stamp) *line { return l.spanOf(l.h.Span(from, to)) }

// spanOf states a span the history measured.
func (l *line) spanOf(sp catalyst.Span) *line {
	if l.kind == MeasureNone {
		l.err, l.res = sp.Err, sp.Step
	}
	return l.measure(MeasureSpan, int64(sp.D))
}

// size states a size in bytes.
func (l *line) size(n int) *line { return l.measure(MeasureSize, int64(n)) }

// measure states the line's measure here. A fact states one: a second
// one, which no check writes, is written as Go writes it rather than lost.
func (l *line) measure(k MeasureKind, v int64) *line {
	if l.kind != MeasureNone {
		if k == MeasureSpan {
			return l.str(time.Duration(v).String())
		}
		return l.num(int(v)).str(" bytes")
	}
	l.kind, l.value, l.at = k, v, int32(len(l.b))
	return l
}

// id writes an id abbreviated to its first eight characters ("8a4f2c71…";
// WholeIDs gives it back whole).
func (l *line) id(id string) *line {
	short, _ := abbreviated(id)
	return l.str(short)
}

// WholeIDs returns text with every id the findings' wording abbreviates
// (its first eight characters and "…", as line.id writes it) written whole,
// when exactly one of ids begins so: a copy for a ticket carries whole ids,
// which a screen cuts for width. An abbreviation that two ids share, or
// none, is left as it is.
func WholeIDs(text string, ids []string) string {
	if !strings.Contains(text, "…") {
		return text
	}
	whole := make(map[string]string, len(ids))
	for _, id := range ids {
		short, ok := abbreviated(id)
		if !ok || safetext.Line(id) != id {
			continue // not cut, or not text a copy may carry as it is
		}
		if prev, seen := whole[short]; seen && prev != id {
			whole[short] = "" // ambiguous
			continue
		}
		whole[short] = id
	}
	var b strings.Builder
	rest := text
	for {
		i := strings.Index(rest, "…")
		if i < 0 {
			b.WriteString(rest)
			return b.String()
		}
		end := i + len("…")
		// The eight characters before the ellipsis, on a character
		// boundary, form the abbreviation.
		start, n := i, 0
		for start > 0 && n < 8 {
			_, size := utf8.DecodeLastRuneInString(rest[:start])
			start -= size
			n++
		}
		before, _ := utf8.DecodeLastRuneInString(rest[:start])
		if id := whole[rest[start:end]]; n == 8 && id != "" && (start == 0 || !isIDRune(before)) {
			b.WriteString(rest[:start])
			b.WriteString(id)
		} else {
			b.WriteString(rest[:end])
		}
		rest = rest[end:]
	}
}

// WholeIDs returns the fact with WholeIDs applied to its words, its
// measure kept at its place between them.
func (f Fact) WholeIDs(ids []string) Fact {
	before, after := f.Parts()
	b := WholeIDs(before, ids)
	f.Text = b + WholeIDs(after, ids)
	if f.Kind != MeasureNone {
		f.At = int32(len(b))
	}
	return f
}

// abbreviated is id as line.id writes it (sanitized, its first eight
// characters and "…"), and whether it is cut at all.
func abbreviated(id string) (string, bool) {
	n := 0
	for i := range id {
		if n == 8 {
			return safetext.Line(id[:i]) + "…", true
		}
		n++
	}
	return safetext.Line(id), false
}

// isIDRune reports whether r may be part of an id (so an abbreviation
// preceded by one is the end of a longer word, not an id).
func isIDRune(r rune) bool {
	return r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
}

// attempt writes "attempt 2". The event it happened at is the evidence's
// own (every evidence line starts with it): a fact never names it again.
func (l *line) attempt(number int) *line {
	return l.str("attempt ").num(number)
}

// done returns the line's words and empties the buffer. It is for text
// that states no measure (explanations, advice, reasons): fact keeps one.
func (l *line) done() string {
	s := string(l.b)
	l.b, l.kind = l.b[:0], MeasureNone
	return s
}

// fact returns the line as a fact, its measure as a value, and empties
// the buffer.
func (l *line) fact() Fact {
	f := Fact{Text: string(l.b)}
	if l.kind != MeasureNone {
		f.Kind, f.Value, f.At = l.kind, l.value, l.at
		if l.kind == MeasureSpan {
			f.Err, f.Resolution = l.err, l.res
		}
	}
	l.b, l.kind = l.b[:0], MeasureNone
	return f
}

// attemptLabel is "attempt 2".
func attemptLabel(a *Attempt) string {
	var l line
	return l.attempt(a.Number).done()
}

// outcomeFact is one line on how an attempt ended, with what it means for
// subject ("the charge").
func outcomeFact(l *line, a *Attempt, subject string, untied bool) (event int, fact Fact) {
	switch a.Outcome {
	case OutcomeCompleted:
		l.attempt(a.Number).str(" completed")
		if d := a.Duration(); d > 0 {
			l.str(" after ").span(a.Start, a.End)
		}
		return a.OutcomeEvent, l.fact()
	case OutcomeFailed:
		l.attempt(a.Number).str(" failed")
		if d := a.Duration(); d > 0 {
			l.str(" after ").span(a.Start, a.End)
		}
		l.str(": ").str(failureText(a.Failure))
		switch a.FailureClass {
		case FailureAmbiguous:
			l.str(" — ").str(subject).str(" may have committed")
		case FailureSafe:
			l.str(" — the request never reached the provider")
		case FailurePermanent:
			l.str(" — a retry cannot succeed")
		}
		return a.OutcomeEvent, l.fact()
	case OutcomePending:
		return a.Scheduled, l.attempt(a.Number).str(" has no outcome yet: the run is still running").fact()
	}
	if untied {
		return a.Scheduled, l.attempt(a.Number).str(" has no outcome the history ties to it — ").
			str(subject).str(" may have committed").fact()
	}
	return a.Scheduled, l.attempt(a.Number).str(" has no recorded outcome — ").str(subject).
		str(" may have committed").fact()
}

// nameText is the text derived from an activity name, made once per name.
type nameText struct {
	quoted  string // the name for a sentence
	subject string // "the charge"
	hazard  string // the hazard table's fix
}

// textOf returns the text derived from name, from the detector's cache.
func (d *detector) textOf(name string) *nameText {
	if t, ok := d.names[name]; ok {
		return t
	}
	t := &nameText{quoted: quoteName(name), subject: subjectOf(name), hazard: hazardAdvice(name)}
	if d.names == nil {
		d.names = make(map[string]*nameText)
	}
	d.names[name] = t
	return t
}

// withheldReason says why a payload cannot be read, naming the data-sharing
// level when that is the cause.
func withheldReason(what string, state catalyst.PayloadState, ds catalyst.DataSharing) string {
	switch state {
	case catalyst.PayloadWithheld:
		return what + " " + ds.WithheldText()
	case catalyst.PayloadRedacted:
		return what + " redacted when the history was saved (--redact-payloads)"
	case catalyst.PayloadNotRequested:
		return what + " not requested from the source"
	case catalyst.PayloadNotInFormat:
		return what + " not in this history's format"
	}
	return what + " unavailable"
}

// visible reports whether a payload's content is known: present, empty,
// absent where no filter applies (none given), or none or empty (nothing
// either way).
func visible(p catalyst.Payload) bool {
	switch p.State {
	case catalyst.PayloadPresent, catalyst.PayloadEmpty, catalyst.PayloadNone, catalyst.PayloadNoneOrEmpty:
		return true
	}
	return false
}

// joinNumbers writes attempt numbers as "1, 2 and 3".
func joinNumbers(ns []int) string {
	var b strings.Builder
	for i, n := range ns {
		switch {
		case i == 0:
		case i == len(ns)-1:
			b.WriteString(" and ")
		default:
			b.WriteString(", ")
		}
		b.WriteString(strconv.Itoa(n))
	}
	return b.String()
}
