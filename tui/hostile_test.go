package tui

import (
	"bytes"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/safetext"
	"github.com/twice-cli/twice/catalyst/safetext/hostiletest"
	"github.com/twice-cli/twice/fixtures"
	"github.com/twice-cli/twice/tui/internal/tuitest"
	"github.com/twice-cli/twice/tui/runlist"
)

// sgrSeq matches the select-graphic-rendition sequences styles emit; any
// other escape sequence in a frame came from history text.
var sgrSeq = regexp.MustCompile("\x1b\\[[0-9;:]*m")

// decodedHostile reads the hostile documents of a sample through the real
// loader (every format twice reads, a saved history included; only the
// named ones when names are given).
func decodedHostile(t *testing.T, value string, names ...string) map[string]*catalyst.History {
	t.Helper()
	out := map[string]*catalyst.History{}
	for _, d := range hostiletest.Documents(value) {
		if len(names) > 0 && !slices.Contains(names, d.Name) {
			continue
		}
		h, err := fixtures.Read(bytes.NewReader(d.Bytes), d.Name, fixtures.OpenOptions{})
		if err != nil {
			t.Fatalf("%s: %v", d.Name, err)
		}
		out[d.Name] = h
	}
	return out
}

// checkHostileFrame checks one frame: exactly h lines, each exactly w
// columns wide; under NoTTY no escape byte at all; under other profiles
// nothing but SGR sequences; and no raw control, bidi, zero-width or
// invalid character.
func checkHostileFrame(t *testing.T, what string, m *Model, w, h int, profile colorprofile.Profile) {
	t.Helper()
	out := m.View().Content
	if profile != colorprofile.NoTTY {
		out = sgrSeq.ReplaceAllString(out, "")
	}
	if v, bad := hostiletest.FindUnsafe(out, false); bad {
		lo, hi := max(0, v.Offset-40), min(len(out), v.Offset+40)
		t.Fatalf("%s: raw %U at byte %d: %q", what, v.Rune, v.Offset, out[lo:hi])
	}
	lines := strings.Split(out, "\n")
	if len(lines) != h {
		t.Errorf("%s: %d lines, want %d", what, len(lines), h)
	}
	for i, l := range lines {
		if got := ansi.StringWidth(l); got != w {
			t.Errorf("%s: line %d is %d columns wide, want exactly %d: %q", what, i, got, w, l)
			return
		}
	}
}

// clipboardMsgType is the type of the message an OSC 52 copy sends.
var clipboardMsgType = reflect.TypeOf(tea.SetClipboard("x")())

// clipboardWrites runs cmd (and the commands it batches) and returns the
// text of every clipboard write among their messages.
func clipboardWrites(cmd tea.Cmd) []string {
	if cmd == nil {
		return nil
	}
	var out []string
	switch msg := cmd().(type) {
	case tea.BatchMsg:
		for _, c := range msg {
			out = append(out, clipboardWrites(c)...)
		}
	default:
		if reflect.TypeOf(msg) == clipboardMsgType {
			out = append(out, reflect.ValueOf(msg).String())
		}
	}
	return out
}

// TestHostileHistoriesInTheTUI opens histories of every format with each
// hostile sample planted in every field (decoded by the real loader), and
// walks every tab, the expanded invocation, the event details of the
// failure, the findings and the help, at four sizes and in three colour
// profiles: every frame is exactly the window's size, carries no escape
// sequence but the styles' own, and no raw control, bidi, zero-width or
// invalid character; the planted text is shown, escaped, in place.
func TestHostileHistoriesInTheTUI(t *testing.T) {
	samples := append(hostiletest.Corpus(!testing.Short()), hostiletest.Sample{Name: "joined", Value: hostiletest.Joined()})
	// One pass over every screen: the invocations, one expanded, the
	// events, the failure's details scrolled, the last event, the findings
	// with one's evidence, and the help.
	steps := [][]string{nil, {"enter", "j"}, {"tab"}, {"tab"}, {"j", "j"}, {"j", "j"}, {"J", "J", "J"}, {"G"}, {"tab"}, {"j"}, {"?"}}
	for _, s := range samples {
		var only []string
		if len(s.Value) >= 1<<20 {
			only = []string{"catalyst"}
		}
		for format, h := range decodedHostile(t, s.Value, only...) {
			// Every sample in monochrome at two sizes; all of them joined
			// also in colour, very wide and very small; the 1 MiB line
			// (25 MB documents, slow to lay out) once.
			profiles := []colorprofile.Profile{colorprofile.NoTTY}
			sizes := [][2]int{{80, 24}, {120, 40}}
			walk := steps
			switch {
			case s.Name == "joined":
				profiles = append(profiles, colorprofile.ASCII, colorprofile.TrueColor)
				sizes = append(sizes, [2]int{200, 50}, [2]int{40, 12})
			case len(s.Value) >= 1<<20:
				// Every key lays out 1 MiB again (most of a second, ten
				// under -race): the first screen and the events tab, whose
				// detail pane shows the 1 MiB workflow name and input.
				sizes, walk = sizes[1:], [][]string{nil, {"tab", "tab"}}
			}
			for _, profile := range profiles {
				for _, size := range sizes {
					m := start(t, Options{History: h, Profile: profile}, size[0], size[1])
					var walked []string
					for _, step := range walk {
						m = keys(t, m, step...)
						walked = append(walked, step...)
						what := s.Name + " in " + format + " " + profile.String() + " " + sizeName(size) + " after " + strings.Join(walked, ",")
						checkHostileFrame(t, what, m, size[0], size[1], profile)
					}
				}
			}
			// The activity's name is shown escaped where the events are listed.
			if len(s.Value) < 1<<10 {
				m := keys(t, start(t, Options{History: h}, 200, 50), "tab", "tab")
				name := safetext.Line(h.At(2).Name)
				if h.At(2).Type != catalyst.EventTaskScheduled {
					name = safetext.Line(h.At(3).Name)
				}
				if want := name[:min(len(name), 16)]; !strings.Contains(plain(m), want) {
					t.Errorf("%s in %s: the activity name is not shown escaped (%q):\n%s", s.Name, format, want, plain(m))
				}
			}
		}
	}
}

// TestHostileIDsMakeNoTitleLinkOrCopy: a run id or app id that is not a
// plain id never reaches the window title, an OSC 52 clipboard write or a
// console link (opened, copied or shown); a plain one does.
func TestHostileIDsMakeNoTitleLinkOrCopy(t *testing.T) {
	samples := append(hostiletest.Corpus(false), hostiletest.Sample{Name: "joined", Value: hostiletest.Joined()},
		hostiletest.Sample{Name: "257-byte id", Value: strings.Repeat("a", 253)})
	for _, s := range samples {
		for format, h := range decodedHostile(t, s.Value) {
			what := s.Name + " in " + format
			var opened []string
			m := start(t, Options{History: h, OpenURL: func(u string) error { opened = append(opened, u); return nil }}, 120, 40)
			idOK, linkOK := catalyst.IsPlainID(h.Run.ID), false
			if _, ok := catalyst.ConsoleLink("", h.Run); ok {
				linkOK = true
			}
			title := m.View().WindowTitle
			if title != "twice" && (!idOK || title != "twice · "+h.Run.ID) {
				t.Errorf("%s: window title %.80q", what, title)
			}
			if strings.ContainsAny(title, "\x1b\x07\u009c") {
				t.Errorf("%s: window title holds control characters: %q", what, title)
			}
			// y copies the selected invocation's key: only when it is a
			// plain id with nothing the screen would escape.
			text, _ := m.top().copyTarget()
			keyOK := text != "" && catalyst.IsPlainID(text) && safetext.IsSafe(text)
			_, cmd := m.Update(keyMsg("y"))
			if got := clipboardWrites(cmd); keyOK != (len(got) == 1) || keyOK && got[0] != text {
				t.Errorf("%s: y copied %.80q (the key %.40q plain: %v)", what, got, text, keyOK)
			}
			// With the invocation's key copied or refused, the run id: on a
			// run list it is what y copies.
			list := &listScreen{Model: runlist.New(m.c)}
			list.SetRuns(catalyst.RunList{Runs: []catalyst.Run{h.Run}})
			if got, _ := list.copyTarget(); got != h.Run.ID && (got != "" || safetext.IsSafe(h.Run.ID)) {
				t.Errorf("%s: the run list copies %q", what, got)
			}
			if copySafe(h.Run.ID) != (idOK && safetext.IsSafe(h.Run.ID)) {
				t.Errorf("%s: copySafe(run id) = %v (plain: %v)", what, copySafe(h.Run.ID), idOK)
			}
			_, cmd = m.Update(keyMsg("Y"))
			if got := clipboardWrites(cmd); linkOK != (len(got) == 1) {
				t.Errorf("%s: Y copied %.80q (link possible: %v)", what, got, linkOK)
			}
			next, cmd := m.Update(keyMsg("o"))
			if st := drive(t, next.(*Model), cmd).status; linkOK == st.err {
				t.Errorf("%s: o: status %+v (link possible: %v)", what, st, linkOK)
			}
			if linkOK != (len(opened) == 1) {
				t.Errorf("%s: o opened %.80q (link possible: %v)", what, opened, linkOK)
			}
			for _, profile := range []colorprofile.Profile{colorprofile.TrueColor, colorprofile.ASCII} {
				out := keys(t, start(t, Options{History: h, Profile: profile}, 200, 50), "tab", "tab", "j").View().Content
				if strings.Contains(out, "\x1b]") || strings.Contains(out, "\x1bP") {
					t.Errorf("%s (%s): the frame holds an OSC or DCS sequence", what, profile)
				}
			}
		}
	}
}

// TestHostileRunList lists runs whose ids, apps, workflows and statuses
// hold hostile text, in a list cut short for a hostile reason: every frame
// is exactly the window's size and clean, and the list says it is partial.
func TestHostileRunList(t *testing.T) {
	src := tuitest.NewSource()
	for _, s := range append(hostiletest.Corpus(false), hostiletest.Sample{Name: "joined", Value: hostiletest.Joined()}) {
		for _, h := range decodedHostile(t, s.Value) {
			if h.Run.ID == "" {
				continue
			}
			src.Add(h)
		}
	}
	src.Runs.Partial, src.Runs.Reason = true, "stopped after 50 pages"+hostiletest.Joined()
	for _, profile := range []colorprofile.Profile{colorprofile.NoTTY, colorprofile.ASCII} {
		for _, size := range [][2]int{{80, 24}, {120, 40}, {200, 50}} {
			for _, walk := range [][]string{nil, {"j", "j", "j"}, {"G"}, {"/", "r", "u", "n"}, {"?"}} {
				what := "run list " + profile.String() + " " + sizeName(size) + " after " + strings.Join(walk, ",")
				m := keys(t, start(t, Options{Source: src, Profile: profile}, size[0], size[1]), walk...)
				checkHostileFrame(t, what, m, size[0], size[1], profile)
				if walk == nil && !strings.Contains(strings.ToLower(plain(m)), "partial") {
					t.Errorf("%s: a partial list is not labelled partial:\n%s", what, plain(m))
				}
			}
		}
	}
}

// TestAbsentPayloadsAreNeverShownEmpty walks every event of histories whose
// payloads are all absent — none, withheld, redacted, not requested — in
// the events tab with its detail pane, and every invocation: no frame calls
// a payload empty. Truly empty payloads are the control.
func TestAbsentPayloadsAreNeverShownEmpty(t *testing.T) {
	for _, st := range []catalyst.PayloadState{catalyst.PayloadNone, catalyst.PayloadWithheld, catalyst.PayloadRedacted,
		catalyst.PayloadNotRequested, catalyst.PayloadEmpty} {
		for format, h := range decodedHostile(t, "x") {
			for _, e := range h.All() {
				if e.Type.PayloadField() != "" {
					e.Payload = catalyst.AbsentPayload(st)
				}
			}
			h.Run.Input, h.Run.Output = catalyst.AbsentPayload(st), catalyst.AbsentPayload(st)
			if st == catalyst.PayloadWithheld {
				h.Run.DataSharing = catalyst.DataSharing{Filtered: true, Level: catalyst.LevelMetadata}
			}
			what := st.String() + " payloads from " + format
			sawEmpty := false
			for _, walk := range [][]string{{"enter"}, {"enter", "j"}, {"enter", "j", "j"}, {"tab", "tab"}} {
				m := keys(t, start(t, Options{History: h}, 160, 60), walk...)
				for i := 0; i <= h.Len(); i++ {
					frame := strings.ToLower(plain(m))
					if strings.Contains(frame, "empty") {
						if st != catalyst.PayloadEmpty {
							t.Fatalf("%s after %v and %d×j: a payload is called empty:\n%s", what, walk, i, plain(m))
						}
						sawEmpty = true
					}
					if walk[0] != "tab" {
						break
					}
					m = keys(t, m, "j")
				}
			}
			if st == catalyst.PayloadEmpty && !sawEmpty {
				t.Errorf("%s: no frame says empty", what)
			}
		}
	}
}

// TestATruncatedRecordingSaysSo: the run view of a saved history its
// recorder marked truncated says, at every size, that it is partial.
func TestATruncatedRecordingSaysSo(t *testing.T) {
	for _, d := range hostiletest.Documents("x") {
		if d.Name != "fixture" {
			continue
		}
		doc := bytes.Replace(d.Bytes, []byte(`"truncated":false`), []byte(`"truncated":true`), 1)
		h, err := fixtures.Read(bytes.NewReader(doc), "partial.json", fixtures.OpenOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for _, size := range [][2]int{{60, 20}, {80, 24}, {120, 40}} {
			for _, walk := range [][]string{nil, {"tab"}, {"tab", "tab"}, {"tab", "tab", "tab"}} {
				m := keys(t, start(t, Options{History: h}, size[0], size[1]), walk...)
				if !strings.Contains(plain(m), "TRUNCATED") {
					t.Errorf("%s after %v: the view does not say the recording is truncated:\n%s", sizeName(size), walk, plain(m))
				}
			}
		}
	}
}
