package tui

import (
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/safetext/hostiletest"
	"github.com/twice-cli/twice/fixtures"
	"github.com/twice-cli/twice/tui/format"
	"github.com/twice-cli/twice/tui/internal/tuitest"
)

// scene is one screen to render: the options, the keys pressed after the
// first frame, and whether Init's commands run (false shows the loading
// state).
type scene struct {
	name   string
	opts   func() Options
	keys   []string
	noInit bool
}

func listSource() *tuitest.Source {
	failed := tuitest.Charge()
	failed.Run.ID, failed.Run.Status = "charge-7800", "FAILED"
	failed.Run.Workflow = "RefundWorkflowWithAVeryLongNameThatDoesNotFitInItsColumn"
	failed.Run.CreatedAt = failed.Run.CreatedAt.Add(-3600e9)
	running := tuitest.ChargeRunning(0)
	running.Run.ID = "charge-7790"
	demo := tuitest.Checkout()
	demo.Run.CreatedAt = demo.Run.CreatedAt.Add(-30 * 24 * 3600e9)
	demo.Run.Provenance = catalyst.Provenance{Surface: catalyst.SurfaceDemo, Location: "demo:checkout",
		Recorded: &catalyst.Recording{Description: "ChargeCard's first attempt timed out after 30 s waiting for " +
			"the payment gateway, and the retry succeeded: the first charge may have gone through too, a probable " +
			"duplicate charge. Recorded at the metadata data-sharing level, so every payload is withheld."}}
	return tuitest.NewSource().Add(tuitest.Charge(), failed, tuitest.Empty(), running, demo)
}

func history(h func() *catalyst.History) func() Options {
	return func() Options { return Options{History: h()} }
}

// scenes are every screen and tab of the inspector, with the histories that
// matter: withheld payloads, a long stack trace, hostile strings, an empty
// history.
func scenes() []scene {
	charge := history(tuitest.Charge)
	hostile := history(tuitest.Hostile)
	return []scene{
		{name: "runlist", opts: func() Options {
			return Options{Source: listSource(), Banner: "no Catalyst credentials — showing the bundled demo histories"}
		}},
		{name: "runlist-failed-only", opts: func() Options { return Options{Source: listSource()} }, keys: []string{"f"}},
		{name: "runlist-filter-typing", opts: func() Options { return Options{Source: listSource()} }, keys: []string{"/", "e", "m", "p"}},
		{name: "runlist-partial", opts: func() Options {
			src := listSource()
			src.Runs.Partial, src.Runs.Reason = true, "stopped after 50 pages"
			return Options{Source: src}
		}},
		{name: "runlist-error", opts: func() Options {
			src := listSource()
			src.ListErr = errors.New("401 Unauthorized")
			return Options{Source: src, Hint: func(error) string { return "not authenticated: run twice doctor" }}
		}},
		{name: "runlist-error-long", opts: func() Options {
			src := listSource()
			src.ListErr = errors.New(refusalText)
			return Options{Source: src}
		}},
		{name: "runlist-analysis-error", opts: func() Options {
			src := listSource()
			src.FailNext("charge-7800", errors.New("429 Too Many Requests"))
			return Options{Source: src}
		}, keys: []string{"j", "j", "j"}},
		{name: "runlist-loading", opts: func() Options { return Options{Source: listSource()} }, noInit: true},
		{name: "help-runlist", opts: func() Options { return Options{Source: listSource()} }, keys: []string{"?"}},

		{name: "invocations", opts: charge},
		{name: "invocations-expanded", opts: charge, keys: []string{"enter", "j"}},
		{name: "invocations-flagged-only", opts: charge, keys: []string{"!"}},
		{name: "invocations-no-detail", opts: charge, keys: []string{"p"}},
		{name: "events", opts: charge, keys: []string{"tab", "tab"}},
		{name: "events-failure", opts: charge, keys: []string{"tab", "tab", "j", "j", "j"}},
		{name: "events-withheld-input", opts: charge, keys: []string{"tab", "tab", "j", "j"}},
		{name: "events-filter", opts: charge, keys: []string{"tab", "tab", "/", "c", "h", "a", "r", "g", "e", "enter"}},
		{name: "findings", opts: charge, keys: []string{"tab", "tab", "tab"}},
		{name: "findings-evidence", opts: charge, keys: []string{"tab", "tab", "tab", "j"}},
		{name: "help-run", opts: charge, keys: []string{"?"}},

		{name: "long-trace", opts: history(tuitest.LongTrace), keys: []string{"tab", "tab", "j", "j", "j", "J", "J", "J", "J", "J", "J"}},
		{name: "payloads", opts: history(tuitest.FullPayloads), keys: []string{"tab", "tab", "j", "j"}},
		{name: "payloads-invocation", opts: history(tuitest.FullPayloads), keys: []string{"enter", "j", "j"}},

		{name: "hostile-invocations", opts: hostile},
		{name: "hostile-events", opts: hostile, keys: []string{"tab", "tab", "j", "j", "j"}},
		{name: "hostile-unknown-event", opts: hostile, keys: []string{"tab", "tab", "G"}},
		{name: "hostile-findings", opts: hostile, keys: []string{"tab", "tab", "tab"}},

		{name: "empty", opts: history(tuitest.Empty)},
		{name: "empty-events", opts: history(tuitest.Empty), keys: []string{"tab", "tab"}},
		{name: "empty-findings", opts: history(tuitest.Empty), keys: []string{"tab", "tab", "tab"}},
		{name: "no-activity", opts: history(tuitest.NoActivity)},
		{name: "no-findings-withheld", opts: history(tuitest.NoActivity), keys: []string{"tab", "tab", "tab"}},

		{name: "run-loading", opts: func() Options {
			return Options{Source: listSource(), Open: &catalyst.RunRef{ID: "charge-7731", AppID: "payments"}}
		}, noInit: true},
		{name: "run-analyzing", opts: charge, noInit: true},
		{name: "run-error", opts: func() Options {
			src := listSource()
			src.FailNext("charge-7731", errors.New("429 Too Many Requests"))
			return Options{Source: src, Open: &catalyst.RunRef{ID: "charge-7731", AppID: "payments"}}
		}},
		{name: "run-error-long", opts: func() Options {
			src := listSource()
			src.FailNext("charge-7731", errors.New(refusalText))
			return Options{Source: src, Open: &catalyst.RunRef{ID: "charge-7731", AppID: "payments"}}
		}},
	}
}

// refusalText is a refusal as the live client words it: long, with what to
// do next at its end.
const refusalText = "catalyst refused listing runs of project default at mcp.cloud.r1.diagrid.io: NOT_AUTHENTICATED (HTTP 401): " +
	"the bearer token has expired. The credential is missing, expired or for another environment (the token came from " +
	"environment variable CATALYST_TOKEN): provide a current token through CATALYST_TOKEN, token_file or token_command; " +
	"twice doctor shows what is used"

// demo opens a bundled demo history with the clock two hours after the
// run's last update (the demos were recorded on other days).
func demo(name string) func() Options {
	return func() Options {
		h, err := fixtures.OpenDemo(name, fixtures.OpenOptions{})
		if err != nil {
			panic(err)
		}
		at := h.Run.UpdatedAt.Add(2 * time.Hour)
		return Options{History: h, Now: func() time.Time { return at }}
	}
}

// bigPayload is demo:email-503 with SendEmail's input (event 5) replaced
// by a JSON object of 33,000-odd bytes whose body holds \n and a link
// wider than any pane, as a reviewer's email-big.json did.
func bigPayload() Options {
	o := demo("email-503")()
	var b strings.Builder
	b.WriteString(`{"to":"dana@example.com","subject":"Welcome to Acme, Dana!",` +
		`"body":"Hi Dana,\nWelcome to Acme. Your team plan is ready.\nSee ` +
		`https://acme.example/onboarding/teams/u-20931/getting-started?utm_source=welcome-email&utm_medium=email&utm_campaign=onboarding-2026-team-plan ` +
		`for the next steps.\n","items":[`)
	for i := range 400 {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"sku":"SKU-` + strconv.Itoa(1000+i) + `","qty":4,"note":"line item\nwith some description"}`)
	}
	b.WriteString(`]}`)
	o.History.At(5).Payload = catalyst.PresentPayload(b.String())
	return o
}

// triageScenes are the screens issue 17 is about, on the bundled demos: the
// Timeline (whole, zoomed, with overlapping attempts), a failed run's
// header, a filtered view naming the field that matched, a zoomed and a
// focused detail pane, a child run that is not in the file, and the run
// list with its preview.
func triageScenes() []scene {
	timeout := demo("payment-timeout")
	return []scene{
		{name: "timeline", opts: timeout, keys: []string{"tab"}},
		{name: "timeline-zoomed", opts: timeout, keys: []string{"tab", "+", "+", ">"}},
		{name: "timeline-overlap", opts: demo("dotnet-retry"), keys: []string{"tab"}},
		{name: "timeline-open", opts: demo("worker-crash"), keys: []string{"tab"}},
		{name: "failed-header", opts: demo("card-declined")},
		{name: "filtered-events", opts: timeout, keys: []string{"tab", "tab", "/", "C", "h", "a", "r", "g", "e", "C", "a", "r", "d", "enter", "j", "j"}},
		{name: "filtered-invocations", opts: timeout, keys: []string{"/", "r", "e", "a", "d", " ", "t", "i", "m", "e", "d", "enter"}},
		{name: "filtered-findings", opts: timeout, keys: []string{"/", "R", "e", "a", "d", "T", "i", "m", "e", "o", "u", "t", "enter", "tab", "tab", "tab"}},
		{name: "sorted", opts: timeout, keys: []string{"s", "d"}},
		{name: "detail-zoomed", opts: timeout, keys: []string{"p", "p"}},
		{name: "payload-json", opts: bigPayload, keys: []string{"tab", "tab", "j", "j", "j", "j", "j", "p", "p"}},
		{name: "payload-cut", opts: bigPayload, keys: []string{"tab", "tab", "j", "j", "j", "j", "j", "p", "p", "l", "G"}},
		{name: "detail-focused", opts: timeout, keys: []string{"l", "ctrl+d"}},
		{name: "payload", opts: demo("clean-run"), keys: []string{"tab", "tab", "j", "j", "p", "p"}},
		{name: "child-not-in-file", opts: demo("child-retried"), keys: []string{"j", "enter"}},
		{name: "runlist-preview", opts: func() Options { return Options{Source: listSource(), SourceName: "the test source"} }},
	}
}

// TestGoldenTriage renders the triage scenes at 80×24, 120×40 and 200×60,
// in monochrome, against testdata/TestGoldenTriage/*.golden.
func TestGoldenTriage(t *testing.T) {
	for _, sc := range triageScenes() {
		for _, size := range [][2]int{{80, 24}, {120, 40}, {200, 60}} {
			t.Run(sc.name+"_"+sizeName(size), func(t *testing.T) {
				m := render(t, sc, size[0], size[1], colorprofile.ASCII)
				out := ansi.Strip(m.View().Content)
				checkFrame(t, out, size[0], size[1])
				golden.RequireEqual(t, out)
			})
		}
	}
}

// layoutScenes are the screens whose layout depends most on the size: the
// run list, and a run whose flagged invocation is not the first, in each
// tab. TestGoldenSizes renders them at every size a user is likely to have.
func layoutScenes() []scene {
	checkout := history(tuitest.Checkout)
	return []scene{
		{name: "runlist", opts: func() Options { return Options{Source: listSource()} }},
		{name: "checkout", opts: checkout},
		{name: "checkout-expanded", opts: checkout, keys: []string{"enter", "j"}},
		{name: "checkout-events", opts: checkout, keys: []string{"tab", "tab", "j", "j", "j", "j", "j", "j"}},
		{name: "checkout-findings", opts: checkout, keys: []string{"tab", "tab", "tab"}},
		{name: "checkout-help", opts: checkout, keys: []string{"?"}},
	}
}

// TestGoldenSizes renders the layout scenes at 80×24, 100×30 (the widest
// with the detail pane below the list), 120×40 and 200×50, in monochrome,
// against testdata/TestGoldenSizes/*.golden.
func TestGoldenSizes(t *testing.T) {
	for _, sc := range layoutScenes() {
		for _, size := range [][2]int{{80, 24}, {100, 30}, {120, 40}, {200, 50}} {
			t.Run(sc.name+"_"+sizeName(size), func(t *testing.T) {
				m := render(t, sc, size[0], size[1], colorprofile.ASCII)
				out := ansi.Strip(m.View().Content)
				checkFrame(t, out, size[0], size[1])
				golden.RequireEqual(t, out)
			})
		}
	}
}

// render builds a scene at a size with the given profile and returns the
// model.
func render(t *testing.T, sc scene, w, h int, profile colorprofile.Profile) *Model {
	t.Helper()
	opts := sc.opts()
	opts.Profile = profile
	var m *Model
	if sc.noInit {
		m = New(testOptions(opts))
		m = send(t, m, tea.WindowSizeMsg{Width: w, Height: h})
		m.Init() // sets the loading state; its commands are not run
	} else {
		m = start(t, opts, w, h)
	}
	return keys(t, m, sc.keys...)
}

// TestGolden renders every scene at 80×24 and 120×40 in monochrome and
// compares the text with testdata/TestGolden/*.golden (go test -update
// rewrites them).
func TestGolden(t *testing.T) {
	for _, sc := range scenes() {
		for _, size := range [][2]int{{80, 24}, {120, 40}} {
			t.Run(sc.name+"_"+sizeName(size), func(t *testing.T) {
				m := render(t, sc, size[0], size[1], colorprofile.ASCII)
				out := m.View().Content
				checkFrame(t, ansi.Strip(out), size[0], size[1])
				golden.RequireEqual(t, ansi.Strip(out))
			})
		}
	}
}

// TestNoRawHostileText renders every scene with the NoTTY profile, which
// emits no escape sequence of its own, so any control, bidi or zero-width
// character in the output came from the history: there must be none.
func TestNoRawHostileText(t *testing.T) {
	for _, sc := range scenes() {
		for _, size := range [][2]int{{80, 24}, {120, 40}} {
			t.Run(sc.name+"_"+sizeName(size), func(t *testing.T) {
				m := render(t, sc, size[0], size[1], colorprofile.NoTTY)
				out := m.View().Content
				if v, bad := hostiletest.FindUnsafe(out, false); bad {
					t.Fatalf("unsafe character %U at byte %d in view:\n%s", v.Rune, v.Offset, out)
				}
				for _, l := range m.run.DetailLines() {
					if v, bad := hostiletest.FindUnsafe(l, false); bad {
						t.Fatalf("unsafe character %U in detail line %q", v.Rune, l)
					}
				}
				if title := m.View().WindowTitle; !catalyst.IsPlainID(strings.ReplaceAll(title, " ", "")) {
					t.Fatalf("window title %q is not built from plain ids", title)
				}
			})
		}
	}
}

// TestColourIsNeverTheOnlySignal renders the flagged invocation in colour and
// in monochrome: the flag's glyph and word are in both, and monochrome marks
// the selection with reverse video and no colour.
func TestColourIsNeverTheOnlySignal(t *testing.T) {
	// The flagged row is not selected (j), so it is drawn in its colours.
	sc := scene{name: "invocations", opts: history(tuitest.Charge), keys: []string{"j"}}
	colour := render(t, sc, 120, 40, colorprofile.TrueColor).View().Content
	mono := render(t, sc, 120, 40, colorprofile.ASCII).View().Content
	for _, out := range []string{colour, mono} {
		if !strings.Contains(ansi.Strip(out), "▲ HIGH duplicate?") {
			t.Errorf("the flag is not shown as glyph and word:\n%s", ansi.Strip(out))
		}
	}
	if !strings.Contains(colour, "\x1b[31") && !strings.Contains(colour, "\x1b[1;31") {
		t.Errorf("the colour profile shows no red for a high finding")
	}
	if strings.Contains(mono, "\x1b[3") || strings.Contains(mono, "38;") {
		t.Errorf("monochrome output sets a foreground colour: %q", mono)
	}
	if !strings.Contains(mono, "\x1b[7m") {
		t.Errorf("monochrome output does not mark the selection with reverse video")
	}
}

// checkFrame asserts the frame is exactly h lines of at most w columns.
func checkFrame(t *testing.T, out string, w, h int) {
	t.Helper()
	lines := strings.Split(out, "\n")
	if len(lines) != h {
		t.Errorf("frame has %d lines, want %d", len(lines), h)
	}
	for i, l := range lines {
		if got := ansi.StringWidth(l); got > w {
			t.Errorf("line %d is %d columns wide, more than %d: %q", i, got, w, l)
		}
	}
}

func sizeName(s [2]int) string { return strconv.Itoa(s[0]) + "x" + strconv.Itoa(s[1]) }

// TestPayloadCutsCountThePayload: one payload has one size wherever the
// detail pane cuts it — the formatted input and the event's JSON both say
// "shown N of M bytes" with M the payload's own length (a 33,778-byte
// payload was said to be 47,402 bytes in one and 18,683 in the other).
func TestPayloadCutsCountThePayload(t *testing.T) {
	o := bigPayload()
	size := len(o.History.At(5).Payload.Text())
	m := render(t, scene{opts: func() Options { return o }, keys: []string{"tab", "tab", "j", "j", "j", "j", "j"}}, 120, 40, colorprofile.ASCII)
	d := ansi.Strip(strings.Join(m.run.DetailLines(), "\n"))
	total := " of " + format.Count(size) + " bytes"
	if n := strings.Count(d, total); n != 2 {
		t.Errorf("%d cuts say %q, want 2 (the input, the JSON):\n%s", n, total, d)
	}
	if n := strings.Count(d, " bytes"); n != 2 {
		t.Errorf("%d cuts said in all, want 2", n)
	}
}
