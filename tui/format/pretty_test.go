package format

import (
	"strings"
	"testing"

	"github.com/twice-cli/twice/catalyst"
)

// TestPayloadBlockJSONStrings: a JSON payload is pretty-printed with a
// string's \n shown as line breaks, continuing two columns under its key
// (the issue: "JSON pretty-printed, \n as line breaks"); other escapes stay
// JSON, and a \n escaped as text (\\n) is not a break.
func TestPayloadBlockJSONStrings(t *testing.T) {
	p := catalyst.PresentPayload(`{"to":"dana@example.com","body":"Hi Dana,\nSee the page.\r\nBye \"D\"\n","raw":"a\\nb","n":[1,{}],"e":[]}`)
	want := []string{
		"{",
		`  "to": "dana@example.com",`,
		`  "body": "Hi Dana,`,
		`    See the page.`,
		`    Bye \"D\"`,
		`    ",`,
		`  "raw": "a\\nb",`,
		`  "n": [`,
		`    1,`,
		`    {}`,
		`  ],`,
		`  "e": []`,
		"}",
	}
	if got := PayloadBlock(p, catalyst.DataSharing{}); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("PayloadBlock =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// A payload that is one JSON string shows its text, escapes decoded.
	p = catalyst.PresentPayload(`"\ttab caf\u00e9 \ud83d\ude00\nnext \"q\""`)
	if got := strings.Join(PayloadBlock(p, catalyst.DataSharing{}), "|"); got != "    tab café 😀|next \"q\"" {
		t.Errorf("a JSON string payload shows as %q", got)
	}
}

// TestPayloadBlockCutCountsThePayload: "shown N of M bytes" counts the
// payload's own bytes (M its size as the source gave it, N the bytes
// shown), not the pretty-printed text's; the cut ends at a member's end
// when one is near, never mid-token.
func TestPayloadBlockCutCountsThePayload(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"items":[`)
	for i := range 2000 {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"sku":"SKU-0001","qty":4,"note":"line item\nwith some description"}`)
	}
	b.WriteString(`]}`)
	text := b.String()
	lines := PayloadBlock(catalyst.PresentPayload(text), catalyst.DataSharing{})
	last := lines[len(lines)-1]
	var shown int
	for _, c := range []string{"… shown ", " of " + Count(len(text)) + " bytes"} {
		if !strings.Contains(last, c) {
			t.Fatalf("the cut says %q, want the payload's %d bytes", last, len(text))
		}
	}
	shownText := strings.TrimSuffix(strings.TrimPrefix(last, "… shown "), " of "+Count(len(text))+" bytes")
	for _, r := range strings.ReplaceAll(shownText, ",", "") {
		shown = shown*10 + int(r-'0')
	}
	if shown > PayloadShowBytes || shown < PayloadShowBytes-cutSlack {
		t.Errorf("shown %d bytes, want up to %d and near it", shown, PayloadShowBytes)
	}
	// What is shown is the payload's first shown bytes: they end at a
	// member's end.
	if !strings.HasSuffix(text[:shown], ",") {
		t.Errorf("the cut lands mid-member: %q", text[shown-20:shown])
	}
	if before := lines[len(lines)-2]; !strings.HasSuffix(before, ",") {
		t.Errorf("the last line shown is %q, want a member's end", before)
	}
}
