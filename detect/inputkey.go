package detect

import (
	"bytes"
	"cmp"
	"strings"
	"unicode/utf8"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/jsonscan"
)

// InputKey is what tells one invocation apart from the other invocations
// of its name (a fan-out's twenty SendInvoiceEmail calls): a field of its
// input ("invoiceId" = "INV-1042"), or, where its input cannot tell (the
// input is withheld, redacted, not JSON, lacks the field, or every input is
// the same), its task execution id. Value is history text: sanitize it
// before it reaches a terminal.
type InputKey struct {
	// Field is the input field's path, its object keys joined by dots
	// ("invoiceId", "customer.id"); "" when the whole input is one value
	// (a JSON string or number), or when ByID.
	Field string
	// Value is the field's value as the input holds it: a string's
	// contents, unescaped; a number's or a boolean's literal. ByID: the
	// invocation's task execution id (a child workflow's instance id),
	// or, grouped without ids, its Invocation.Key.
	Value string
	// ByID says the input could not tell the invocation apart, and Value
	// is its id.
	ByID bool
}

// IsZero reports whether k is the zero InputKey: the invocation is the only
// one of its name, so its name tells it apart.
func (k InputKey) IsZero() bool { return k == InputKey{} }

// String is the key as "field=value", the value alone when the whole input
// is the value, or the id; "" for the zero key. Raw history text.
func (k InputKey) String() string {
	if k.Field == "" {
		return k.Value
	}
	return k.Field + "=" + k.Value
}

// Bounds of what InvocationKeys reads: the leaves of an input up to
// keyDepth objects deep; values longer than keyValueMax bytes (a body, a
// description) are never a key; the field is chosen from the first
// keySample inputs of a name.
const (
	keyDepth    = 3
	keyValueMax = 96
	keySample   = 256
)

// InvocationKeys returns, for each invocation of r (in r.Invocations'
// order), the input field that tells it apart from the other invocations of
// its name; an invocation that is the only one of its name gets the zero
// InputKey. h is the history r was made from.
//
// The field is chosen once per name, from the scalar fields (up to three
// objects deep, arrays not entered) of the inputs of the names' first
// attempts: the one with the most distinct values; a tie goes to the field
// whose name reads as an identifier ("invoiceId", "order_no", "email"),
// then to the shorter path, then to the first in byte order. A field no two
// inputs hold with different values is never chosen. An invocation whose
// input does not hold the chosen field, or whose name has none, falls back
// to its id (ByID). The answer depends only on h and r, so two runs of
// one workflow get the same field for a name when their inputs have the
// same shape (twice diff aligns same-name invocations by it). Linear in the
// bytes of the inputs; it allocates a string per key.
func InvocationKeys(h *catalyst.History, r *Report) []InputKey {
	if r == nil || len(r.Invocations) == 0 {
		return nil
	}
	out := make([]InputKey, len(r.Invocations))
	// The names called more than once, each with the inputs seen of it
	// so far; read in history order (the events are near one another).
	type name struct {
		n      int
		fields map[string]*fieldSeen
		read   int
		field  string
		ok     bool
	}
	names := make(map[string]*name)
	for i := range r.Invocations {
		n := names[r.Invocations[i].Name]
		if n == nil {
			n = &name{}
			names[r.Invocations[i].Name] = n
		}
		n.n++
	}
	var k keyReader
	for i := range r.Invocations {
		if n := names[r.Invocations[i].Name]; n.n > 1 && n.read < keySample {
			if n.fields == nil {
				n.fields = make(map[string]*fieldSeen)
			}
			if k.sample(inputOf(h, &r.Invocations[i]), n.fields) {
				n.read++
			}
		}
	}
	for _, n := range names {
		if n.n > 1 {
			n.field, n.ok = pickField(n.fields)
		}
	}
	for i := range r.Invocations {
		inv := &r.Invocations[i]
		n := names[inv.Name]
		if n.n < 2 {
			continue
		}
		if n.ok {
			if v, found := k.value(inputOf(h, inv), n.field); found {
				out[i] = InputKey{Field: n.field, Value: v}
				continue
			}
		}
		out[i] = InputKey{Value: idOf(inv), ByID: true}
	}
	return out
}

// InvocationKey is InvocationKeys' answer for r's invocation i alone
// (reading only the inputs of its name's invocations); the zero InputKey
// when i is out of range.
func InvocationKey(h *catalyst.History, r *Report, i int) InputKey {
	if r == nil || i < 0 || i >= len(r.Invocations) {
		return InputKey{}
	}
	name := r.Invocations[i].Name
	var g []int32
	for j := range r.Invocations {
		if r.Invocations[j].Name == name {
			g = append(g, int32(j))
		}
	}
	if len(g) < 2 {
		return InputKey{}
	}
	var k keyReader
	fields := make(map[string]*fieldSeen)
	read := 0
	for _, j := range g {
		if read < keySample && k.sample(inputOf(h, &r.Invocations[j]), fields) {
			read++
		}
	}
	inv := &r.Invocations[i]
	if field, ok := pickField(fields); ok {
		if v, found := k.value(inputOf(h, inv), field); found {
			return InputKey{Field: field, Value: v}
		}
	}
	return InputKey{Value: idOf(inv), ByID: true}
}

// inputOf is an invocation's input: its first attempt's scheduling
// event's payload (the zero Payload when it has none).
func inputOf(h *catalyst.History, inv *Invocation) catalyst.Payload {
	if len(inv.Attempts) == 0 {
		return catalyst.Payload{}
	}
	at := inv.Attempts[0].Scheduled
	if at < 0 || at >= h.Len() {
		return catalyst.Payload{}
	}
	return h.At(at).Payload
}

// idOf is the id an invocation falls back to: its key, unless the key is
// twice's own ("event:…", grouped without ids) and an attempt has an id.
func idOf(inv *Invocation) string {
	if !strings.HasPrefix(inv.Key, "event:") || len(inv.Attempts) == 0 {
		return inv.Key
	}
	if a := &inv.Attempts[0]; a.ExecutionID != "" {
		return a.ExecutionID
	} else if a.InstanceID != "" {
		return a.InstanceID
	}
	return inv.Key
}

// keyReader reads the leaves of inputs, reusing its buffers.
type keyReader struct {
	text []byte // the input's text
	path []byte // the path of the leaf being read
	doc  []byte // a JSON document read from a JSON string
	sc   jsonscan.Scanner
}

// scan returns k's scanner over b.
func (k *keyReader) scan(b []byte) *jsonscan.Scanner {
	k.sc.ResetBytes(b)
	return &k.sc
}

// fieldSeen is what the sampled inputs of a name hold in one field: its
// distinct values, and whether its name reads as an identifier.
type fieldSeen struct {
	values map[string]struct{}
	id     bool
}

// sample adds the fields of input p to fields; false when p holds none.
func (k *keyReader) sample(p catalyst.Payload, fields map[string]*fieldSeen) bool {
	held := false
	k.leaves(p, func(path, value []byte) bool {
		held = true
		s := fields[string(path)]
		if s == nil {
			s = &fieldSeen{values: make(map[string]struct{}), id: idLike(lastSegment(string(path)))}
			fields[string(path)] = s
		}
		s.values[string(value)] = struct{}{}
		return true
	})
	return held
}

// pickField chooses the field that tells a name's invocations apart from
// what their sampled inputs hold (InvocationKeys says how); false when no
// field does.
func pickField(fields map[string]*fieldSeen) (string, bool) {
	var best string
	var bestSeen *fieldSeen
	for path, s := range fields {
		if len(s.values) < 2 {
			continue
		}
		if bestSeen == nil {
			best, bestSeen = path, s
			continue
		}
		c := cmp.Compare(len(s.values), len(bestSeen.values))
		if c == 0 && s.id != bestSeen.id {
			c = 1
			if !s.id {
				c = -1
			}
		}
		if c == 0 {
			c = cmp.Or(cmp.Compare(len(best), len(path)), strings.Compare(best, path))
		}
		if c > 0 {
			best, bestSeen = path, s
		}
	}
	return best, bestSeen != nil
}

// value is the value of field in input p; false when p does not hold it.
func (k *keyReader) value(p catalyst.Payload, field string) (string, bool) {
	var v string
	found := false
	k.leaves(p, func(path, value []byte) bool {
		if string(path) == field {
			v, found = string(value), true
			return false
		}
		return true
	})
	return v, found
}

// leaves calls f with each scalar leaf of input p (its path and value,
// valid during the call) until f returns false: an object's scalar
// members up to keyDepth deep, a JSON string or number as a whole (path
// ""), a JSON text inside a JSON string read as JSON, and a short line
// of text that is not JSON as a whole. Values longer than keyValueMax
// bytes are skipped; malformed JSON gives what was read before the error.
func (k *keyReader) leaves(p catalyst.Payload, f func(path, value []byte) bool) {
	if !p.Has() {
		return
	}
	k.text = p.AppendText(k.text[:0])
	text := bytes.TrimSpace(k.text)
	if len(text) == 0 {
		return
	}
	switch text[0] {
	case '{':
		k.path = k.path[:0]
		k.object(k.scan(text), 0, f)
		return
	case '"':
		sc := k.scan(text)
		s, err := sc.StringValue()
		if err != nil || sc.End() != nil {
			break
		}
		inner := bytes.TrimSpace(s)
		if len(inner) > 0 && inner[0] == '{' {
			// A JSON document sent as a JSON string (an SDK that encodes
			// twice): read the document.
			k.doc = append(k.doc[:0], inner...)
			k.path = k.path[:0]
			k.object(k.scan(k.doc), 0, f)
			return
		}
		if keyValue(s) {
			f(nil, s)
		}
		return
	}
	if keyValue(text) && !bytes.ContainsAny(text, "{}[]\n") {
		f(nil, bytes.Trim(text, `"`))
	}
}

// object reads the object at sc, depth objects deep, calling f with each
// scalar member; false when f stopped it or the JSON is malformed.
func (k *keyReader) object(sc *jsonscan.Scanner, depth int, f func(path, value []byte) bool) bool {
	if sc.BeginObject() != nil {
		return false
	}
	base := len(k.path)
	for {
		key, more, err := sc.NextKey()
		if err != nil {
			return false
		}
		if !more {
			return true
		}
		k.path = k.path[:base]
		if base > 0 {
			k.path = append(k.path, '.')
		}
		k.path = append(k.path, key...)
		c, err := sc.PeekKind()
		if err != nil {
			return false
		}
		var v []byte
		switch {
		case c == '"':
			v, err = sc.StringValue()
		case c == '-' || isDigit(c):
			v, err = sc.Number()
		case c == 't' || c == 'f':
			var b bool
			b, err = sc.Bool()
			v = []byte("false")
			if b {
				v = []byte("true")
			}
		case c == '{' && depth+1 < keyDepth:
			if !k.object(sc, depth+1, f) {
				return false
			}
			continue
		default:
			err = sc.SkipValue()
		}
		if err != nil {
			return false
		}
		if v != nil && keyValue(v) && !f(k.path, v) {
			return false
		}
	}
}

// keyValue reports whether v may be a key: not empty, at most keyValueMax
// bytes, one line of valid UTF-8.
func keyValue(v []byte) bool {
	return len(v) > 0 && len(v) <= keyValueMax && bytes.IndexByte(v, '\n') < 0 && utf8.Valid(v)
}

// lastSegment is the last key of a dotted path.
func lastSegment(path string) string {
	return path[strings.LastIndexByte(path, '.')+1:]
}

// idLike reports whether a field's name reads as what tells records apart:
// an identifier (isIDKey), a number, a key, an email address.
func idLike(name string) bool {
	if isIDKey(name) {
		return true
	}
	lower := strings.ToLower(name)
	for _, w := range []string{"number", "key", "email", "code", "sku"} {
		if strings.HasSuffix(lower, w) {
			return true
		}
	}
	return lower == "no" || strings.HasSuffix(lower, "_no") || strings.HasSuffix(name, "No") || strings.HasSuffix(lower, "nr")
}
