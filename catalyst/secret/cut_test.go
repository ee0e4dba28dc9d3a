package secret

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"html"
	"strings"
	"testing"
)

// longTok is a token as long as Catalyst's, so a 20-character prefix is a
// part of it, not all of it.
const longTok = "cat_live_7Hq2ZmXw9Rt4Lp0Bn6Vc3Ks8Yd1Fg5Je"

// htmlAll writes every character as a numeric HTML entity, decimal or hex.
func htmlAll(s string, hexForm bool) string {
	var b strings.Builder
	for _, r := range s {
		if hexForm {
			fmt.Fprintf(&b, "&#x%X;", r)
		} else {
			fmt.Fprintf(&b, "&#%d;", r)
		}
	}
	return b.String()
}

// TestCutTokenWhateverFollows (issue 26, item 7): a token cut at the end of
// a text and followed by a newline or a full stop (or a quote, a bracket,
// an ellipsis, a JSON escape) was shown — its first 12 or 20 characters —
// because a cut counted only at the text's very end. Also the forms a
// server may use that README did not list: hex, HTML entities, and a
// 20-character prefix in the middle of a text whatever follows it.
func TestCutTokenWhateverFollows(t *testing.T) {
	r := New(longTok)
	forms := map[string]string{}
	for _, n := range []int{8, 12, 20} {
		for name, after := range map[string]string{"newline": "\n", "full stop": ".", "full stop, newline": ".\n",
			"ellipsis": "…", "three dots": "...", "quote": `"`, "bracket": ")", "JSON \\n": `\n"}`, "CRLF": "\r\n", "space, more": " and more"} {
			forms[fmt.Sprintf("first %d then %s", n, name)] = "error: token " + longTok[:n] + after
		}
		forms[fmt.Sprintf("last %d after a newline", n)] = "line\n" + longTok[len(longTok)-n:] + " was cut"
		forms[fmt.Sprintf("last %d after a quote", n)] = `{"m":"` + longTok[len(longTok)-n:] + `"}`
	}
	forms["20-character prefix mid-text"] = "a " + longTok[:20] + "Zq more"
	forms["20-character suffix mid-text"] = "a 9Z" + longTok[len(longTok)-20:] + "q more"
	forms["hex"] = "key " + hex.EncodeToString([]byte(longTok)) + " end"
	forms["HEX"] = "key " + strings.ToUpper(hex.EncodeToString([]byte(longTok))) + " end"
	forms["HTML decimal entities"] = "<p>" + htmlAll(longTok, false) + "</p>"
	forms["HTML hex entities"] = "<p>" + htmlAll(longTok, true) + "</p>"
	forms["HTML escaped, + and / as entities"] = "<p>" + html.EscapeString(longTok[:10]) + "&#43;&#x2F;" + longTok[10:] + "</p>"
	leak := func(s string) (string, bool) {
		for i := 0; i+MinCut <= len(longTok); i++ {
			if w := longTok[i : i+MinCut]; strings.Contains(s, w) {
				return w, true
			}
		}
		for _, enc := range []string{hex.EncodeToString([]byte(longTok[:MinCut])), htmlAll(longTok[:4], false), htmlAll(longTok[:4], true)} {
			if strings.Contains(strings.ToLower(s), strings.ToLower(enc)) {
				return enc, true
			}
		}
		return "", false
	}
	for name, in := range forms {
		got := r.String(in)
		if w, bad := leak(got); bad {
			t.Errorf("%s: %q still holds %q", name, got, w)
		}
		// Through a Writer too (standard error, the debug log): a line
		// written whole, and written a byte at a time.
		for _, step := range []int{len(in), 1} {
			var out bytes.Buffer
			w := r.Writer(&out)
			for i := 0; i < len(in); i += step {
				_, _ = w.Write([]byte(in[i:min(len(in), i+step)]))
			}
			_ = w.Flush()
			if wnd, bad := leak(out.String()); bad {
				t.Errorf("%s through a Writer (%d-byte writes): %q still holds %q", name, step, out.String(), wnd)
			}
		}
	}
	// What is not the token stays: a 7-character part, an 8-character
	// prefix running on into other letters or digits, other hex.
	for _, in := range []string{"a " + longTok[:7] + ".", "id " + longTok[:8] + "x1 ok", "deadbeef cafe", "&amp; &#65;"} {
		if got := r.String(in); got != in {
			t.Errorf("%q was redacted to %q", in, got)
		}
	}
}
