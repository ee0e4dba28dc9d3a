package format

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/catalyst/safetext/hostiletest"
	"github.com/twice-cli/twice/detect"
)

func TestDuration(t *testing.T) {
	for _, c := range []struct {
		d    time.Duration
		want string
	}{
		{0, "0s"}, {500, "500ns"}, {1500, "1.5µs"}, {14 * time.Millisecond, "14.0ms"},
		{30 * time.Second, "30.00s"}, {90 * time.Second, "1.5m"}, {2 * time.Hour, "2.0h"},
		{-3 * time.Second, "-3.00s"}, {47*time.Hour + 18*time.Minute, "47.3h"},
		{49*time.Hour + 12*time.Minute, "2.1d"}, {-691 * time.Hour, "-28.8d"},
	} {
		if got := Duration(c.d); got != c.want {
			t.Errorf("Duration(%v) = %q, want %q", c.d, got, c.want)
		}
	}
}

func TestOffset(t *testing.T) {
	for _, c := range []struct {
		d    time.Duration
		want string
	}{
		{0, "+0s"}, {30*time.Second + 520*time.Millisecond, "+30.52s"}, {-27 * time.Millisecond, "-27.0ms"},
		{90 * time.Second, "+1.5m"}, {50 * time.Hour, "+2.1d"},
	} {
		if got := Offset(c.d); got != c.want {
			t.Errorf("Offset(%v) = %q, want %q", c.d, got, c.want)
		}
	}
}

func TestInstant(t *testing.T) {
	now := time.Date(2026, 8, 20, 11, 20, 0, 0, time.UTC)
	for _, c := range []struct {
		t    time.Time
		f    TimeFormat
		want string
	}{
		{time.Time{}, Relative, "-"},
		{now.Add(-2 * time.Hour), Relative, "2.0h ago"},
		{now.Add(5 * time.Minute), Relative, "in 5.0m"},
		{now.Add(-100 * time.Millisecond), Relative, "just now"},
		{now.Add(-2 * time.Hour), ISO, "2026-08-20T09:20:00Z"},
		{now.In(time.FixedZone("X", 3600)), ISO, "2026-08-20T11:20:00Z"},
	} {
		if got := Instant(c.t, c.f, now); got != c.want {
			t.Errorf("Instant(%v, %d) = %q, want %q", c.t, c.f, got, c.want)
		}
	}
	if got := Exact(now.Add(1500 * time.Microsecond)); got != "2026-08-20T11:20:00.001Z" {
		t.Errorf("Exact = %q", got)
	}
	for in, want := range map[string]TimeFormat{"iso": ISO, "relative": Relative} {
		if got, ok := ParseTimeFormat(in); !ok || got != want || got.String() != in {
			t.Errorf("ParseTimeFormat(%q) = %v, %v", in, got, ok)
		}
	}
	for _, bad := range []string{"", "ISO", "utc"} {
		if _, ok := ParseTimeFormat(bad); ok {
			t.Errorf("ParseTimeFormat(%q) accepted", bad)
		}
	}
	if got := When(now.Add(-2*time.Hour), ISO, now); got != "2026-08-20T09:20:00.000Z" {
		t.Errorf("When(ISO) = %q: documents show milliseconds", got)
	}
	if got := When(now.Add(-2*time.Hour), Relative, now); got != "2.0h ago" {
		t.Errorf("When(Relative) = %q", got)
	}
	if ExactStamp(catalyst.StampNever) != "never" || ExactStamp(0) != "-" {
		t.Errorf("ExactStamp: never %q, zero %q", ExactStamp(catalyst.StampNever), ExactStamp(0))
	}
}

func TestFitPadWrap(t *testing.T) {
	for _, s := range []string{"plain text here", "漢字漢字漢字漢字", "\x1b[1mbold text here\x1b[m", "ChargeCard\\u202e"} {
		for _, w := range []int{1, 5, 8, 40} {
			if got := Width(Fit(s, w)); got > w {
				t.Errorf("Fit(%q, %d) is %d wide", s, w, got)
			}
			if got := Width(Pad(s, w)); got != w {
				t.Errorf("Pad(%q, %d) is %d wide", s, w, got)
			}
			if got := Width(PadLeft(s, w)); got != w {
				t.Errorf("PadLeft(%q, %d) is %d wide", s, w, got)
			}
			for _, l := range Wrap(s, w) {
				if Width(l) > w {
					t.Errorf("Wrap(%q, %d) has a line %d wide", s, w, Width(l))
				}
			}
		}
	}
	if got := Fit("abcdef", 4); got != "abc…" {
		t.Errorf("Fit cut = %q", got)
	}
	if got := Fit("\x1b[1mabcdef\x1b[m", 4); ansi.Strip(got) != "abc…" || !strings.HasPrefix(got, "\x1b[1m") {
		t.Errorf("Fit split the style: %q", got)
	}
	if got := PadLeft("7", 3); got != "  7" {
		t.Errorf("PadLeft = %q", got)
	}
	if got := strings.Join(Wrap("aaaa bbbb cccc", 9), "|"); got != "aaaa bbbb|cccc" {
		t.Errorf("Wrap = %q", got)
	}
	if got := TruncateLeft("abcdef", 3); got != "…def" {
		t.Errorf("TruncateLeft = %q", got)
	}
	if got := ExpandTabs("a\tb\n\tc"); got != "a   b\n    c" {
		t.Errorf("ExpandTabs = %q", got)
	}
}

// TestClip: the one cut of raw text: sanitized, then n columns and "…";
// a huge text is read only as far as its first few hundred bytes.
func TestClip(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"abcdef", 3, "abc…"},
		{"exactly", 7, "exactly"},
		{"", 5, ""},
		{"a\x1b[2Jb", 40, `a\x1b[2Jb`},
		{"漢字漢字", 4, "漢字…"},
		{strings.Repeat("x", 1<<20), 5, "xxxxx…"},
	} {
		if got := Clip(c.in, c.n); got != c.want {
			t.Errorf("Clip(%.20q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
	// A text of zero-width marks cut short still says it was cut.
	if got := Clip("x"+strings.Repeat("\u0301", 1<<12), 5); !strings.HasSuffix(got, "…") {
		t.Errorf("a cut text must end in …: %q", got[len(got)-8:])
	}
}

func TestCountPlural(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 1000001: "1,000,001", -5: "-5"} {
		if got := Count(n); got != want {
			t.Errorf("Count(%d) = %q, want %q", n, got, want)
		}
	}
	if Plural(1, "event") != "1 event" || Plural(1500, "event") != "1,500 events" {
		t.Error("Plural")
	}
}

func TestPayloads(t *testing.T) {
	meta := catalyst.DataSharing{Filtered: true, Level: catalyst.LevelMetadata}
	for _, c := range []struct {
		name string
		p    catalyst.Payload
		d    catalyst.DataSharing
		want []string
	}{
		{"json is indented", catalyst.PresentPayload(`{"a":1,"b":[2]}`), meta, []string{"{", `  "a": 1,`, `  "b": [`, "    2", "  ]", "}"}},
		{"other text as is", catalyst.PresentPayload("ch_1\tx"), meta, []string{"ch_1    x"}},
		{"invalid json as is", catalyst.PresentPayload(`{"a":`), meta, []string{`{"a":`}},
		{"a json string's lines", catalyst.PresentPayload(`"line one\nline two"`), meta, []string{"line one", "line two"}},
		{"withheld names the level", catalyst.AbsentPayload(catalyst.PayloadWithheld), meta,
			[]string{"‹withheld: not shared at this organization's data-sharing level (metadata)›"}},
		{"withheld, level unknown", catalyst.AbsentPayload(catalyst.PayloadWithheld), catalyst.DataSharing{Filtered: true},
			[]string{"‹withheld: not shared at this organization's data-sharing level (level not reported; Catalyst's default is metadata)›"}},
		{"empty is not withheld", catalyst.PresentPayload(""), meta, []string{"‹empty›"}},
		{"redacted", catalyst.AbsentPayload(catalyst.PayloadRedacted), meta, []string{"‹redacted when saved›"}},
		{"none", catalyst.AbsentPayload(catalyst.PayloadNone), catalyst.DataSharing{}, []string{"‹none›"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := PayloadBlock(c.p, c.d)
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("PayloadBlock = %q, want %q", got, c.want)
			}
		})
	}
	big := strings.Repeat("x", PayloadShowBytes+10)
	lines := TextBlock(big)
	if last := lines[len(lines)-1]; last != "… shown 16,384 of 16,394 bytes" {
		t.Errorf("a large payload ends with %q", last)
	}
	if got := PayloadLine(catalyst.PresentPayload(strings.Repeat("y", 500)), meta, 10); got != "yyyyyyyyyy…" {
		t.Errorf("PayloadLine = %q: 10 columns, then …", got)
	}
	if got := PayloadLine(catalyst.AbsentPayload(catalyst.PayloadWithheld), meta, 10); !strings.Contains(got, "(metadata)") {
		t.Errorf("PayloadLine of a withheld payload = %q", got)
	}
}

func TestHostileTextIsEscaped(t *testing.T) {
	bad := hostiletest.Joined()
	outs := append([]string{PayloadLine(catalyst.PresentPayload(bad), catalyst.DataSharing{}, 1000), Line(bad)},
		PayloadBlock(catalyst.PresentPayload(bad+"\n\t"+bad), catalyst.DataSharing{})...)
	outs = append(outs, TextBlock(bad)...)
	mark, _ := StatusMark(catalyst.Status(bad))
	mark2, _ := OutcomeMark(detect.Outcome(120))
	outs = append(outs, mark, mark2)
	for _, o := range outs {
		if v, ok := hostiletest.FindUnsafe(o, false); ok {
			t.Errorf("unsafe %U in %q", v.Rune, o)
		}
	}
}

func TestMarks(t *testing.T) {
	if SeverityMark(detect.SeverityHigh) != "▲ HIGH" || SeverityMark(detect.SeverityMedium) != "◆ MEDIUM" ||
		SeverityMark(detect.SeverityLow) != "● LOW" || SeverityMark(detect.SeverityNone) != "· NONE" {
		t.Error("SeverityMark")
	}
	if FindingWord(detect.FindingDuplicateSideEffect, detect.ConfidenceProbable) != "duplicate?" ||
		FindingWord(detect.FindingDuplicateSideEffect, detect.ConfidenceObserved) != "duplicate" {
		t.Error("a duplicate's word must say whether it was observed")
	}
	words := map[string]detect.FindingID{}
	for _, c := range detect.Checks() {
		w := FindingWord(c.ID, detect.ConfidenceObserved)
		if w == "" || w == string(c.ID) {
			t.Errorf("no short word for %s", c.ID)
		}
		if other, ok := words[w]; ok {
			t.Errorf("%s and %s share the flag word %q", c.ID, other, w)
		}
		words[w] = c.ID
	}
	for _, c := range []struct {
		s    catalyst.Status
		want string
	}{{"ORCHESTRATION_STATUS_FAILED", "✗ failed"}, {"COMPLETED", "✓ completed"}, {"running", "▷ running"}, {"", "? unknown"}, {"weird", "? weird"}} {
		if got, _ := StatusMark(c.s); got != c.want {
			t.Errorf("StatusMark(%q) = %q, want %q", c.s, got, c.want)
		}
	}
	if got, _ := OutcomeMark(detect.OutcomeUnknown); got != "? unknown" {
		t.Errorf("an unknown outcome is shown as %q", got)
	}
}

func TestCapLine(t *testing.T) {
	if got := CapLine("short"); got != "short" {
		t.Errorf("short text changed: %q", got)
	}
	long := strings.Repeat("é", LineShowBytes) // 2 bytes each
	got := CapLine(long)
	if !utf8.ValidString(got) {
		t.Fatal("cut inside a character")
	}
	if !strings.Contains(got, " … shown ") || len(got) > LineShowBytes+64 {
		t.Errorf("CapLine = …%q (%d bytes)", got[len(got)-40:], len(got))
	}
}

func TestFitCutsAHugePlainLineQuickly(t *testing.T) {
	huge := strings.Repeat("A", 1<<20)
	if got := Fit(huge, 10); got != "AAAAAAAAA…" {
		t.Errorf("Fit = %q", got)
	}
	zeroWidth := "x" + strings.Repeat("\u0301", 1<<16) // combining marks
	if got := Fit(zeroWidth, 5); !strings.HasSuffix(got, "…") {
		t.Errorf("a cut string must end in …: %q", got[len(got)-8:])
	}
	styled := "\x1b[1m" + huge + "\x1b[0m"
	if got := CapTail(styled, 100); got != styled {
		t.Error("CapTail cut a styled line's closing sequence")
	}
	if got := CapTail("\x1b[1mlabel:\x1b[0m "+huge, 100); !strings.HasSuffix(got, " bytes") || len(got) > 200 {
		t.Errorf("CapTail left a plain tail whole: %d bytes", len(got))
	}
}
