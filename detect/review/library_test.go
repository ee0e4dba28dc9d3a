package review

import (
	"strings"
	"testing"
)

// TestEveryRowHasWords checks the library tables (lib_*.go): every row
// says how it recognises a call and what the call is; a sink says what a
// second run does in its library's words, a guard how it refuses the
// duplicate, a value or id what it is; every library says where its API
// was read.
func TestEveryRowHasWords(t *testing.T) {
	k := knowledge()
	if len(k.libs) == 0 {
		t.Fatal("no libraries")
	}
	for li := range k.libs {
		lib := &k.libs[li]
		if lib.name == "" || lib.source == "" {
			t.Errorf("library %d has no name or source", li)
		}
		for ri := range lib.rows {
			r := &lib.rows[ri]
			name := rowName(r)
			if len(r.methods) == 0 && r.ref == "" && r.decide == nil {
				t.Errorf("%s recognises nothing: no methods, ref or decide", name)
			}
			if r.decide != nil {
				if r.kind != effNone {
					t.Errorf("%s has both a kind and a decide", name)
				}
				if r.twice == "" && r.refuses == "" {
					t.Errorf("%s says neither what a second run does nor how it refuses one", name)
				}
				continue
			}
			q := r.kind.question()
			if q.byRef() && r.ref == "" {
				t.Errorf("%s is asked by name but has no ref", name)
			}
			switch r.kind {
			case effNone:
				t.Errorf("%s has no kind", name)
			case effInsert, effIncrement, effAppend, effPost, effPublish, effEmail:
				if r.what == "" || r.twice == "" {
					t.Errorf("%s is a sink without its words: what %q, twice %q", name, r.what, r.twice)
				}
			case effGuard:
				if r.what == "" || r.refuses == "" {
					t.Errorf("%s is a guard without its words: what %q, refuses %q", name, r.what, r.refuses)
				}
			case effIdempotent, effRead, kindFresh, kindAttemptID, kindWorkflowID, kindInstanceID, kindWholeBody, kindStatusRaise, kindUniqueViolation:
				if r.what == "" {
					t.Errorf("%s says not what it is", name)
				}
			case kindKeySetter:
				if !r.key.set || r.keyName == "" {
					t.Errorf("%s sets a key but names no place", name)
				}
			}
			if strings.Contains(r.what, "{") && !strings.Contains(r.what, "}") {
				t.Errorf("%s: unclosed template %q", name, r.what)
			}
		}
	}
}

// TestRowsOfTheCallsLanguageComeFirst checks the engine's order: a row
// written for the call's language wins over a row for every language,
// and within each, the catalogue's order.
func TestRowsOfTheCallsLanguageComeFirst(t *testing.T) {
	k := newCatalogue([]library{{name: "a", source: "test", rows: []api{
		{methods: []string{"Send"}, kind: effEmail, what: "generic", twice: "x"},
		{lang: LangCSharp, methods: []string{"Send"}, kind: effPublish, what: "csharp", twice: "y"},
		{methods: []string{"Send"}, kind: effPost, what: "later", twice: "z"},
	}}})
	call := &Expr{Kind: ExprCall, Name: "Send", X: &Expr{Kind: ExprAttr, Name: "Send", X: &Expr{Kind: ExprIdent, Name: "bus"}}}
	for _, c := range []struct {
		lang Lang
		want string
	}{{LangCSharp, "csharp"}, {LangGo, "generic"}, {LangPython, "generic"}} {
		r := k.find(qEffect, newLibCall(call, c.lang, nil))
		if r == nil || r.what != c.want {
			t.Errorf("%s: got %v, want the %s row", c.lang, r, c.want)
		}
	}
}

// TestRefPatterns checks how a row's ref matches a qualified name.
func TestRefPatterns(t *testing.T) {
	for _, c := range []struct {
		pattern, ref string
		want         bool
	}{
		{"uuid.uuid4", "uuid.uuid4", true},
		{"uuid.uuid4", "uuid.uuid1", false},
		{"stripe.", "stripe.Customer.create", true},
		{"stripe.", "stripes.x", false},
		{"github.com/gofrs/uuid*", "github.com/gofrs/uuid/v5.NewV4", true},
		{"*MessageResource.Create", "Twilio.Rest.Api.V2010.Account.MessageResource.Create", true},
		{"*MessageResource.Create", "Twilio.MessageResource.CreateAsync", false},
		{"x.", "", false},
	} {
		if got := refMatches(c.pattern, c.ref); got != c.want {
			t.Errorf("refMatches(%q, %q) = %v, want %v", c.pattern, c.ref, got, c.want)
		}
	}
}
