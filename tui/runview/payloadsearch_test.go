package runview

import (
	"slices"
	"strings"
	"testing"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/tui/internal/tuitest"
)

// TestFilterFindsACustomer: the first thing typed in "customer X was
// charged twice" is X. An invocation matches on its attempts' inputs and
// outputs, a finding on its invocation's, the event on its own payload;
// each tab's count follows, and the detail says where it matched (issue
// 23, item 1: /dana found nothing outside Events).
func TestFilterFindsACustomer(t *testing.T) {
	h := tuitest.FullPayloads() // ChargeCard's input holds A-7731, its output ch_3PqR7731
	x := analyzed(h)
	charge := -1
	for i, inv := range x.Report.Invocations {
		if inv.Name == "ChargeCard" {
			charge = i
		}
	}
	if charge < 0 || len(x.Report.Findings) == 0 || x.Report.Findings[0].InvocationIndex != charge {
		t.Fatalf("the fixture changed: %+v", x.Report.Invocations)
	}
	for _, c := range []struct {
		query      string
		invFields  []string
		findFields []string
	}{
		{"a-7731", []string{"attempt 1's input", "attempt 2's input"}, []string{"ChargeCard attempt 1's input", "ChargeCard attempt 2's input"}},
		{"CH_3pqr", []string{"attempt 2's output"}, []string{"ChargeCard attempt 2's output"}},
	} {
		q := searchForm(c.query)
		inv := x.invTerms.Prepare(q)
		inv.Extra = invocationExtra(x, q)
		if !inv.Match(charge) {
			t.Errorf("/%s does not keep ChargeCard", c.query)
		}
		if got := invocationMatches(h, x.Report, charge, c.query); !slices.Equal(got, c.invFields) {
			t.Errorf("/%s on ChargeCard matched %q, want %q", c.query, got, c.invFields)
		}
		f := x.findTerms.Prepare(q)
		f.Extra = findingExtra(x, q)
		if !f.Match(0) {
			t.Errorf("/%s does not keep ChargeCard's finding", c.query)
		}
		if got := findingMatches(h, x.Report, 0, c.query); !slices.Equal(got, c.findFields) {
			t.Errorf("/%s on the finding matched %q, want %q", c.query, got, c.findFields)
		}
	}
	// A query no payload holds keeps nothing by payload.
	q := "no-such-customer"
	if extra := invocationExtra(x, q); extra(charge) {
		t.Error("an absent customer kept ChargeCard")
	}
	if hits := x.payloads.hits(x, q); slices.ContainsFunc(hits.events, func(w uint64) bool { return w != 0 }) {
		t.Error("an absent customer hit an event")
	}

	// Through the view: every tab's count follows.
	m := newView(120, 40)
	m.SetHistory(h, x, false)
	press(m, "/", "c", "h", "_", "3", "p", "q", "r", "enter")
	bar := strings.Split(m.View(), "\n")[m.headerHeight()]
	for _, want := range []string{"Invocations 1/", "Findings 1/1", "Events 1/"} {
		if !strings.Contains(bar, want) {
			t.Errorf("the tab bar lacks %q: %s", want, bar)
		}
	}
	if got := strings.Join(m.DetailLines(), "\n"); !strings.Contains(got, "/ch_3pqr matched attempt 2's output") {
		t.Errorf("the detail pane does not say where:\n%s", got)
	}
}

// TestPayloadTextEachEventOnce: the payload text finds each event once
// however often its payload holds the query, never across two payloads,
// and in search form (sanitized, lower-cased; escapes decoded).
func TestPayloadTextEachEventOnce(t *testing.T) {
	h := catalyst.NewHistory(catalyst.Run{ID: "r"},
		catalyst.Event{Type: catalyst.EventTaskScheduled, Name: "A", Payload: catalyst.PresentPayload(`{"to":"dana","cc":"DANA"}`)},
		catalyst.Event{Type: catalyst.EventTaskScheduled, Name: "B", Payload: catalyst.PresentPayload(`xxda`)},
		catalyst.Event{Type: catalyst.EventTaskScheduled, Name: "C", Payload: catalyst.PresentPayload(`na`)},
		catalyst.Event{Type: catalyst.EventTaskScheduled, Name: "D", Payload: catalyst.QuotedPayload(`"{\"to\":\"Zoë\"}"`)},
		catalyst.Event{Type: catalyst.EventTaskScheduled, Name: "E", Payload: catalyst.PresentPayload("tab\there")},
	)
	x := analyzed(h)
	for q, want := range map[string][]int{
		"dana":                  {0},
		"dana\x00":              nil, // never across payloads
		"ana":                   {0},
		"zoë":                   {3},
		`"to":"zo`:              {3},
		"da":                    {0, 1},
		"a":                     {0, 1, 2, 4},
		searchForm("tab\there"): {4},
	} {
		hits := x.payloads.hits(x, q)
		var got []int
		for i := range h.Len() {
			if hits.events.has(i) {
				got = append(got, i)
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("%q: events %v, want %v", q, got, want)
		}
	}
}

// TestLargePayloadTextFiltersInACommand: when the payload text is too
// large to search on the UI goroutine, every list that searches it filters
// in a command (keys stay under 5 ms; BenchmarkUpdateView).
func TestLargePayloadTextFiltersInACommand(t *testing.T) {
	h := tuitest.BigPayloads(60_000)
	x := analyzed(h)
	if x.payloads.size() <= payloadSyncBytes {
		t.Fatalf("payload text of %d bytes: the fixture is too small", x.payloads.size())
	}
	m := newView(120, 40)
	m.SetHistory(h, x, false)
	cmd := m.Update(keyPress("/"))
	run(m, cmd)
	cmd = m.Update(keyPress("c"))
	if cmd == nil {
		t.Fatal("a keystroke over a large payload text filtered on the UI goroutine")
	}
	for _, tb := range m.tabs[:TabFindings+1] {
		if !tb.list().Pending() {
			t.Errorf("the %s tab filtered on the UI goroutine", tb.title())
		}
	}
	run(m, cmd)
	for _, tb := range m.tabs[:TabFindings+1] {
		if tb.list().Pending() {
			t.Errorf("the %s tab's filter did not arrive", tb.title())
		}
	}
}
