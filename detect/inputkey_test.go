package detect

import (
	"strconv"
	"testing"

	"github.com/twice-cli/twice/catalyst"
)

// TestInvocationKeys: the input field that tells a name's invocations
// apart, per invocation, with the fallback to the id where an input cannot.
func TestInvocationKeys(t *testing.T) {
	// in is an input; "" schedules none, withheld one withheld.
	const withheld = "\x00withheld"
	tests := []struct {
		name   string
		inputs []string // one SendInvoiceEmail invocation each
		other  string   // input of one LoadAccount invocation, scheduled first
		want   []string // InputKey.String() per SendInvoiceEmail invocation; "id" for ByID
	}{
		{
			name: "the identifier wins a tie with another field as distinct",
			inputs: []string{`{"to":"dana@example.com","invoiceNumber":"INV-1042","subject":"Your invoice"}`,
				`{"to":"lee@example.com","invoiceNumber":"INV-1043","subject":"Your invoice"}`},
			want: []string{"invoiceNumber=INV-1042", "invoiceNumber=INV-1043"},
		},
		{
			name: "the field with the most distinct values wins",
			inputs: []string{`{"customerId":"cus_1","invoice":"INV-1","amount":5}`,
				`{"customerId":"cus_1","invoice":"INV-2","amount":5}`,
				`{"customerId":"cus_2","invoice":"INV-3","amount":5}`},
			want: []string{"invoice=INV-1", "invoice=INV-2", "invoice=INV-3"},
		},
		{
			name:   "a nested field, by its path",
			inputs: []string{`{"order":{"id":"o-1","items":[1,2]},"note":"x"}`, `{"order":{"id":"o-2","items":[1]},"note":"x"}`},
			want:   []string{"order.id=o-1", "order.id=o-2"},
		},
		{
			name:   "a number is its literal",
			inputs: []string{`{"invoice":1042,"retry":true}`, `{"invoice":1043,"retry":true}`},
			want:   []string{"invoice=1042", "invoice=1043"},
		},
		{
			name:   "a whole-string input is the key",
			inputs: []string{`"INV-1042"`, `"INV-1043"`},
			want:   []string{"INV-1042", "INV-1043"},
		},
		{
			name:   "a JSON document sent as a JSON string is read as the document",
			inputs: []string{`"{\"invoice\":\"INV-1\"}"`, `"{\"invoice\":\"INV-2\"}"`},
			want:   []string{"invoice=INV-1", "invoice=INV-2"},
		},
		{
			name:   "a withheld input falls back to the execution id",
			inputs: []string{`{"invoice":"INV-1"}`, withheld, `{"invoice":"INV-3"}`},
			want:   []string{"invoice=INV-1", "id", "invoice=INV-3"},
		},
		{
			name:   "an input without the field falls back to the id",
			inputs: []string{`{"invoice":"INV-1"}`, `{"invoice":"INV-2"}`, `{"other":"x"}`},
			want:   []string{"invoice=INV-1", "invoice=INV-2", "id"},
		},
		{
			name:   "identical inputs cannot tell them apart: the ids do",
			inputs: []string{`{"batch":"b-1"}`, `{"batch":"b-1"}`},
			want:   []string{"id", "id"},
		},
		{
			name:   "every input withheld: the ids",
			inputs: []string{withheld, withheld},
			want:   []string{"id", "id"},
		},
		{
			name: "a long text is never the key",
			inputs: []string{`{"body":"` + long('a') + `","to":"x@example.com"}`,
				`{"body":"` + long('b') + `","to":"y@example.com"}`},
			want: []string{"to=x@example.com", "to=y@example.com"},
		},
		{
			name:   "malformed JSON keeps the fields read before the error",
			inputs: []string{`{"invoice":"INV-1",`, `{"invoice":"INV-2"}`},
			want:   []string{"invoice=INV-1", "invoice=INV-2"},
		},
		{
			name:   "hostile text is returned as the input holds it (the presenter sanitizes)",
			inputs: []string{`{"invoice":"INV-1\u001b[2J"}`, `{"invoice":"INV-2"}`},
			want:   []string{"invoice=INV-1\x1b[2J", "invoice=INV-2"},
		},
		{
			name:   "a name called once has no key",
			inputs: []string{`{"invoice":"INV-1"}`},
			want:   []string{""},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := newHB("InvoiceWorkflow")
			b.start("wf-exec").turn()
			first := b.sched("LoadAccount", "load-exec", tt.other)
			b.turn().done(first, "load-exec", "")
			for i, in := range tt.inputs {
				exec := "exec-" + strconv.Itoa(i)
				id := b.action()
				e := catalyst.Event{Type: catalyst.EventTaskScheduled, ID: id, Name: "SendInvoiceEmail", ExecutionID: exec,
					Payload: payload(in)}
				if in == withheld {
					e.Payload = catalyst.AbsentPayload(catalyst.PayloadWithheld)
				}
				b.add(e)
				b.turn().done(id, exec, "")
			}
			h := b.history()
			r := Analyze(h, Options{})
			keys := InvocationKeys(h, r)
			if len(keys) != len(r.Invocations) {
				t.Fatalf("%d keys for %d invocations", len(keys), len(r.Invocations))
			}
			if !keys[0].IsZero() {
				t.Errorf("LoadAccount, called once: key %+v, want none", keys[0])
			}
			for i, want := range tt.want {
				got := keys[i+1]
				if one := InvocationKey(h, r, i+1); one != got {
					t.Errorf("InvocationKey(%d) = %+v, InvocationKeys gave %+v", i+1, one, got)
				}
				if want == "id" {
					if !got.ByID || got.Value != "exec-"+strconv.Itoa(i) || got.Field != "" {
						t.Errorf("invocation %d: key %+v, want its execution id exec-%d", i, got, i)
					}
					continue
				}
				if got.ByID || got.String() != want {
					t.Errorf("invocation %d: key %q (byID %v), want %q", i, got.String(), got.ByID, want)
				}
			}
		})
	}
}

// TestInvocationKeysSameFieldAcrossRuns: two runs of one workflow whose
// inputs have the same shape get the same field for a name (twice diff
// aligns by it), whatever their order.
func TestInvocationKeysSameFieldAcrossRuns(t *testing.T) {
	run := func(invoices ...string) []InputKey {
		b := newHB("InvoiceWorkflow")
		b.start("wf-exec").turn()
		for i, inv := range invoices {
			exec := "exec-" + strconv.Itoa(i)
			id := b.sched("SendInvoiceEmail", exec, `{"to":"a@example.com","invoiceId":"`+inv+`","cc":"`+inv+`@x"}`)
			b.turn().done(id, exec, "")
		}
		h := b.history()
		return InvocationKeys(h, Analyze(h, Options{}))
	}
	a, b := run("INV-1", "INV-2", "INV-3"), run("INV-3", "INV-1")
	if a[0].Field != "invoiceId" || b[0].Field != a[0].Field {
		t.Errorf("fields %q and %q, want invoiceId in both", a[0].Field, b[0].Field)
	}
}

func long(c byte) string {
	b := make([]byte, keyValueMax+1)
	for i := range b {
		b[i] = c
	}
	return string(b)
}

// BenchmarkInvocationKeys: a fan-out of 250,000 invocations of 100 names,
// each input a 110-byte JSON object (the 1M-event history's invocations).
func BenchmarkInvocationKeys(b *testing.B) {
	hb := newHB("BatchWorkflow")
	hb.start("wf").turn()
	for k := range 250000 {
		exec := "exec-" + strconv.Itoa(k)
		c := strconv.Itoa(100000 + k%50000)
		id := hb.sched("Step"+strconv.Itoa(k%100), exec, `{"customerId":"cus_`+c+`","invoice":"INV-2026-`+strconv.Itoa(k)+
			`","email":"customer`+c+`@example.com","amountCents":4999}`)
		hb.done(id, exec, "")
	}
	h := hb.history()
	r := Analyze(h, Options{})
	b.ResetTimer()
	for b.Loop() {
		InvocationKeys(h, r)
	}
}
