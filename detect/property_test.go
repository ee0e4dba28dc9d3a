package detect

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/safetext/hostiletest"
)

// summary is what must not change between two views of one history: each
// invocation's kind, name, attempt count, link rule and outcome, and each
// finding's id, severity, confidence, activity and invocation position.
func summary(r *Report) string { return summaryOf(r, false) }

// summaryOf is summary; lossy leaves out what the Dapr CLI cannot show for
// child workflows (it prints neither their instance ids nor their failure
// details): their failure classes and which rule linked their attempts.
func summaryOf(r *Report, lossy bool) string {
	var b strings.Builder
	for i := range r.Invocations {
		inv := &r.Invocations[i]
		hide := lossy && inv.Kind == KindChildWorkflow
		link := inv.LinkRule.String()
		if hide && inv.LinkRule != LinkFirst {
			link = "linked"
		}
		fmt.Fprintf(&b, "inv %s %q x%d %s %s %s\n", inv.Kind, inv.Name, len(inv.Attempts), link,
			inv.Outcome, inv.Class)
		for _, a := range inv.Attempts {
			class, link := a.FailureClass.String(), a.Link.String()
			if hide {
				class = "-"
				if a.Link != LinkFirst {
					link = "linked"
				}
			}
			fmt.Fprintf(&b, "  %d %s %s %s\n", a.Number, link, a.Outcome, class)
		}
	}
	for _, f := range r.Findings {
		fmt.Fprintf(&b, "finding %s %s %s %q inv=%d attempts=%v\n", f.ID, f.Severity, f.Confidence, f.Activity,
			f.InvocationIndex, f.Attempts)
	}
	return b.String()
}

func TestAnalyzeIsDeterministic(t *testing.T) {
	for _, sc := range scenarios() {
		h := sc.build()
		first := Analyze(h, Options{})
		for i := 0; i < 5; i++ {
			if again := Analyze(h, Options{}); !reflect.DeepEqual(first, again) {
				t.Fatalf("%s: two runs differ", sc.name)
			}
		}
	}
}

func TestOverridesOrderDoesNotMatter(t *testing.T) {
	names := []string{"ChargeCard", "GetExchangeRate", "SendEmail", "ValidateAddress", "DeleteSession"}
	classes := []ActivityClass{ClassReadOnly, ClassSideEffect, ClassIdempotent, ClassUnknown, ClassSideEffect}
	h := sharedPolicy()
	var want *Report
	for trial := 0; trial < 10; trial++ {
		o := make(map[string]ActivityClass)
		for _, i := range rand.Perm(len(names)) {
			o[names[i]] = classes[i]
		}
		r := Analyze(h, Options{Overrides: o})
		if want == nil {
			want = r
		} else if !reflect.DeepEqual(want, r) {
			t.Fatal("the report depends on the overrides' insertion order")
		}
	}
}

// renameIDs replaces every task execution id, child instance id and origin
// id with another (a bijection), leaving the history's structure alone.
func renameIDs(h *catalyst.History, seed uint64) *catalyst.History {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	names := make(map[string]string)
	rename := func(s string) string {
		if s == "" {
			return ""
		}
		if n, ok := names[s]; ok {
			return n
		}
		n := fmt.Sprintf("id-%016x", rng.Uint64())
		names[s] = n
		return n
	}
	out := catalyst.NewHistory(h.Run)
	out.Format, out.Lossy = h.Format, h.Lossy
	for _, e := range h.All() {
		c := *e
		if c.Type != catalyst.EventExecutionStarted {
			c.ExecutionID = rename(c.ExecutionID)
			c.InstanceID = rename(c.InstanceID)
		}
		if c.Origin == catalyst.OriginActivityRetry || c.Origin == catalyst.OriginChildWorkflowRetry {
			c.OriginID = rename(c.OriginID)
		}
		if c.Detail != nil && c.Detail.RetryParentInstanceID != "" {
			d := *c.Detail
			d.RetryParentInstanceID = rename(d.RetryParentInstanceID)
			c.Detail = &d
		}
		out.Append(c)
	}
	return out
}

func TestRenamedIDsGiveTheSameReport(t *testing.T) {
	for _, sc := range scenarios() {
		h := sc.build()
		want := summary(Analyze(h, Options{}))
		for seed := uint64(1); seed <= 3; seed++ {
			if got := summary(Analyze(renameIDs(h, seed), Options{})); got != want {
				t.Errorf("%s: renaming ids changed the report:\n%s\nwant:\n%s", sc.name, got, want)
			}
		}
	}
}

// cliView returns h as the Dapr CLI's JSON presents it (dapr-cli-json.md):
// inbox events stamped just before their turn's workflowStarted (as the
// engine stamps them), rows sorted by the CLI's comparator, timestamps cut
// to whole seconds, child instance ids and child failure details and
// outcome ids dropped, stack traces dropped, payloads cut to 120 runes.
func cliView(h *catalyst.History) *catalyst.History {
	events := make([]catalyst.Event, 0, h.Len())
	for _, e := range h.All() {
		events = append(events, *e)
	}
	restampInbox(events)
	sort.SliceStable(events, func(i, j int) bool {
		a, b := &events[i], &events[j]
		if a.ID > 0 && b.ID > 0 {
			return a.ID < b.ID
		}
		if a.Timestamp != b.Timestamp {
			return a.Timestamp < b.Timestamp
		}
		return a.ID < b.ID
	})
	out := catalyst.NewHistory(h.Run)
	out.Format, out.Traits = catalyst.FormatDaprCLI, catalyst.DaprCLITraits()
	for _, e := range events {
		e.Timestamp = catalyst.StampOf(e.Timestamp.Time().Truncate(time.Second))
		if !e.FireAt.IsNever() {
			e.FireAt = catalyst.StampOf(e.FireAt.Time().Truncate(time.Second))
		}
		switch e.Type {
		case catalyst.EventChildWorkflowCreated:
			e.InstanceID = ""
			e.Detail = nil
		case catalyst.EventChildWorkflowFailed:
			e.Failure, e.ScheduledID = nil, 0
		}
		if e.Failure != nil {
			f := *e.Failure
			f.StackTrace, f.Inner = "", nil
			e.Failure = &f
		}
		if t := e.Payload.Text(); e.Payload.Has() && len([]rune(t)) > 120 {
			e.Payload = catalyst.PresentPayload(string([]rune(t)[:120]) + "…")
		}
		out.Append(e)
	}
	return out
}

// restampInbox gives each turn's inbox events timestamps just before the
// turn's workflowStarted, keeping their order, as the engine records them.
func restampInbox(events []catalyst.Event) {
	for i := 0; i < len(events); i++ {
		if events[i].Type != catalyst.EventWorkflowStarted {
			continue
		}
		j := i + 1
		for j < len(events) && !events[j].Type.IsNumbered() && events[j].Type != catalyst.EventWorkflowStarted {
			j++
		}
		for k := i + 1; k < j; k++ {
			events[k].Timestamp = events[i].Timestamp - catalyst.Stamp(time.Duration(j-k)*time.Millisecond)
		}
		i = j - 1
	}
}

// metadataView returns h as Catalyst serves it at the metadata level: no
// payloads, withheld.
func metadataView(h *catalyst.History) *catalyst.History {
	out := catalyst.NewHistory(h.Run)
	out.Format = catalyst.FormatCatalyst
	for _, e := range h.All() {
		c := *e
		c.Payload = catalyst.AbsentPayload(catalyst.PayloadNone)
		out.Append(c)
	}
	out.Run.Input, out.Run.Output = catalyst.Payload{}, catalyst.Payload{}
	out.ApplyDataSharing(catalyst.DataSharing{Filtered: true, Level: catalyst.LevelMetadata})
	return out
}

// dropPayloadFindings removes what a view without full payloads cannot
// show: large-payload findings from payload sizes (a stall still shows).
func dropPayloadFindings(r *Report) *Report {
	c := *r
	c.Findings = nil
	for _, f := range r.Findings {
		if f.ID == FindingLargePayload && f.InvocationIndex >= 0 {
			continue
		}
		c.Findings = append(c.Findings, f)
	}
	return &c
}

func TestTheSameHistoryInOtherFormatsGivesTheSameReport(t *testing.T) {
	for _, sc := range scenarios() {
		h := sc.build()
		full := Analyze(h, Options{})
		want := summary(dropPayloadFindings(full))
		t.Run(sc.name+"/dapr-cli", func(t *testing.T) {
			v := cliView(h)
			r := Analyze(v, Options{})
			checkInvariants(t, v, r)
			want := summaryOf(dropPayloadFindings(full), true)
			if got := summaryOf(dropPayloadFindings(r), true); got != want {
				t.Errorf("CLI view:\n%s\nengine order:\n%s\n%s", got, want, describe(r))
			}
		})
		t.Run(sc.name+"/catalyst-metadata", func(t *testing.T) {
			if sc.inputsGroup {
				t.Skip("the grouping rests on inputs this view withholds (TestOrderLinksNeedTheSameInput)")
			}
			v := metadataView(h)
			r := Analyze(v, Options{})
			checkInvariants(t, v, r)
			if got := summary(dropPayloadFindings(r)); got != want {
				t.Errorf("metadata view:\n%s\nfull:\n%s", got, want)
			}
		})
	}
}

// shuffleKeys re-encodes a JSON document with every object's keys in a
// random order (values unchanged, numbers kept as written).
func shuffleKeys(t *testing.T, doc []byte, rng *rand.Rand) []byte {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	var write func(v any)
	write = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			rng.Shuffle(len(keys), func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
			b.WriteByte('{')
			for i, k := range keys {
				if i > 0 {
					b.WriteByte(',')
				}
				b.WriteString(jsonString(k))
				b.WriteByte(':')
				write(x[k])
			}
			b.WriteByte('}')
		case []any:
			b.WriteByte('[')
			for i, e := range x {
				if i > 0 {
					b.WriteByte(',')
				}
				write(e)
			}
			b.WriteByte(']')
		case string:
			b.WriteString(jsonString(x))
		case json.Number:
			b.WriteString(x.String())
		case bool:
			b.WriteString(strconv.FormatBool(x))
		case nil:
			b.WriteString("null")
		default:
			t.Fatalf("unexpected JSON value %T", v)
		}
	}
	write(v)
	return b.Bytes()
}

func TestShuffledKeysGiveTheSameReport(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for _, c := range corpusCases() {
		doc, err := os.ReadFile(filepath.Join("testdata", "corpus", c.file()))
		if err != nil {
			t.Fatal(err)
		}
		want := summary(Analyze(decodeCorpusFile(t, c.file()), Options{}))
		for trial := 0; trial < 2; trial++ {
			h, err := catalyst.Decode(bytes.NewReader(shuffleKeys(t, doc, rng)), catalyst.DecodeOptions{})
			if err != nil {
				t.Fatalf("%s shuffled: %v", c.file(), err)
			}
			if got := summary(Analyze(h, Options{})); got != want {
				t.Errorf("%s: shuffling keys changed the report:\n%s\nwant:\n%s", c.file(), got, want)
			}
		}
	}
}

func TestHostileStringsDoNotChangeGrouping(t *testing.T) {
	want := summary(Analyze(pythonRetry503("charge_card", msg503)(), Options{}))
	for _, s := range hostiletest.Corpus(false) {
		h := pythonRetry503("charge_card", s.Value+" "+msg503)()
		r := Analyze(h, Options{})
		if got := summary(r); got != want {
			t.Errorf("%s in the error changed the report:\n%s\nwant:\n%s", s.Name, got, want)
		}
		checkInvariants(t, h, r)

		h = pythonRetry503("charge_card"+s.Value, msg503)()
		r = Analyze(h, Options{})
		if len(r.Invocations) != 1 || len(r.Invocations[0].Attempts) != 3 ||
			r.Invocations[0].LinkRule != LinkByID || len(r.Findings) != 1 {
			t.Errorf("%s in the name changed the grouping:\n%s", s.Name, describe(r))
		}
		checkInvariants(t, h, r)
		for _, f := range r.Findings {
			for _, text := range append([]string{f.Explanation, f.Advice}, factsOf(f)...) {
				if v, bad := hostiletest.FindUnsafe(text, false); bad {
					t.Errorf("%s: finding text holds %U at %d: %q", s.Name, v.Rune, v.Offset, text)
				}
			}
		}
	}
}
