package secret

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"strings"
	"testing"
)

const tok = "cat_TESTTOKEN_123/x+y"

// windows returns every 8-character window of s.
func windows(s string) []string {
	var out []string
	for i := 0; i+MinCut <= len(s); i++ {
		out = append(out, s[i:i+MinCut])
	}
	return out
}

// leaks reports a window of tok found in s.
func leaks(s string) (string, bool) {
	for _, w := range windows(tok) {
		if strings.Contains(s, w) {
			return w, true
		}
	}
	return "", false
}

// uEscapeAll escapes every character as \uXXXX.
func uEscapeAll(s string) string {
	var b strings.Builder
	for _, r := range s {
		fmt.Fprintf(&b, `\u%04X`, r)
	}
	return b.String()
}

func TestRedactsEveryForm(t *testing.T) {
	r := New(tok)
	forms := map[string]string{
		"as is":                    "error: token " + tok + " rejected",
		"slash escaped":            "{\"m\":\"" + strings.ReplaceAll(tok, "/", `\/`) + "\"}",
		"every char \\u":           "{\"m\":\"" + uEscapeAll(tok) + "\"}",
		"mixed \\u, lower hex":     "x" + `\u0063` + tok[1:5] + `\u005f`[0:0] + tok[5:] + "y",
		"double escaped (payload)": `{"input":"{\"k\":\"` + strings.ReplaceAll(uEscapeAll(tok[:3]), `\`, `\\`) + tok[3:] + `\"}"}`,
		"url encoded":              "https://h/x?t=" + url.QueryEscape(tok) + "&a=1",
		"url encoded every byte":   "t=" + strings.ToLower(pctAll(tok)),
		"base64":                   "b64 " + base64.StdEncoding.EncodeToString([]byte(tok)),
		"base64 raw url":           "b64 " + base64.RawURLEncoding.EncodeToString([]byte(tok)),
		"base64 Bearer":            "Authorization: " + base64.StdEncoding.EncodeToString([]byte("Bearer "+tok)),
		"base64 user:token":        "Basic " + base64.StdEncoding.EncodeToString([]byte("u:"+tok)),
		"base64 ab:token (align)":  "Basic " + base64.StdEncoding.EncodeToString([]byte("ab:"+tok)),
		"cut at the end":           "body: ... " + tok[:10],
		"cut at the start":         tok[len(tok)-9:] + " and the rest",
		"after a lone backslash":   `dir C:\` + tok + "0",
		"after an escape":          `{"m":"\t` + tok + `"}`,
	}
	for name, in := range forms {
		got := r.String(in)
		if w, bad := leaks(got); bad {
			t.Errorf("%s: %q still holds %q", name, got, w)
		}
		if !strings.Contains(got, Mask) {
			t.Errorf("%s: %q has no mask", name, got)
		}
		if !r.Contains(in) {
			t.Errorf("%s: Contains is false", name)
		}
		if b := r.Bytes([]byte(in)); string(b) != got {
			t.Errorf("%s: Bytes %q, String %q", name, b, got)
		}
	}
}

func pctAll(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		fmt.Fprintf(&b, "%%%02X", s[i])
	}
	return b.String()
}

// TestRedactedJSONStaysJSON: a document whose strings hold the secret in
// any JSON form still parses after redaction, with the secret gone.
func TestRedactedJSONStaysJSON(t *testing.T) {
	r := New(tok)
	inner, _ := json.Marshal(map[string]string{"k": tok, "n": "\n" + tok})
	doc, _ := json.Marshal(map[string]any{"a": tok, "payload": string(inner),
		"u": json.RawMessage(`"` + uEscapeAll(tok) + `"`), "nl": "\n" + tok,
		"b": base64.StdEncoding.EncodeToString([]byte("\n" + tok))})
	out := r.Bytes(doc)
	var v map[string]any
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatalf("redacted JSON does not parse: %v\n%s", err, out)
	}
	var p map[string]any
	if err := json.Unmarshal([]byte(v["payload"].(string)), &p); err != nil {
		t.Fatalf("redacted payload does not parse: %v", err)
	}
	if w, bad := leaks(string(out) + v["payload"].(string) + v["u"].(string)); bad {
		t.Errorf("leaks %q: %s", w, out)
	}
}

func TestNothingToRedact(t *testing.T) {
	var nilR *Redactor
	in := []byte("nothing \\ secret % here")
	if got := nilR.Bytes(in); &got[0] != &in[0] {
		t.Error("a nil Redactor copied")
	}
	r := New(tok)
	if got := r.Bytes(in); &got[0] != &in[0] {
		t.Error("Bytes copied a text without the secret")
	}
	// An 8-character prefix at the end is a cut secret; a shorter part
	// in the middle is not the secret.
	if got := r.String("x cat_TEST"); got != "x "+Mask {
		t.Errorf("a cut prefix stayed: %q", got)
	}
	if got := r.String("a cat_TES b"); got != "a cat_TES b" {
		t.Errorf("a 7-character part mid-text was redacted: %q", got)
	}
	if !New().Empty() || !New("  ").Empty() {
		t.Error("an empty secret was kept")
	}
}

func TestErrorKeepsItsChain(t *testing.T) {
	r := New(tok)
	err := fmt.Errorf("reading %s: %w", tok, fs.ErrNotExist)
	got := r.Error(err)
	if strings.Contains(got.Error(), tok) || !errors.Is(got, fs.ErrNotExist) {
		t.Errorf("Error() = %q, Is = %v", got, errors.Is(got, fs.ErrNotExist))
	}
	plain := errors.New("fine")
	if r.Error(plain) != plain {
		t.Error("an error without the secret was wrapped")
	}
}

// TestWriterAcrossWrites: a secret split across writes at every byte, in
// several forms, never reaches the underlying writer; whole lines pass at
// once.
func TestWriterAcrossWrites(t *testing.T) {
	r := New(tok)
	for _, text := range []string{
		"line one\nthe token " + tok + " and more\n",
		`{"m":"` + uEscapeAll(tok) + `"}`,
		"x " + base64.StdEncoding.EncodeToString([]byte("Bearer "+tok)) + " y",
		"ends with " + tok,
		"ends cut " + tok[:9],
		`after a lone backslash \` + tok + "0",
	} {
		for cut := 0; cut <= len(text); cut++ {
			var out bytes.Buffer
			w := r.Writer(&out)
			_, _ = w.Write([]byte(text[:cut]))
			_, _ = w.Write([]byte(text[cut:]))
			if err := w.Flush(); err != nil {
				t.Fatal(err)
			}
			if wnd, bad := leaks(out.String()); bad {
				t.Fatalf("cut at %d of %q: %q holds %q", cut, text, out.String(), wnd)
			}
		}
	}
	var out bytes.Buffer
	w := r.Writer(&out)
	_, _ = w.Write([]byte("a whole line\n"))
	if out.String() != "a whole line\n" {
		t.Errorf("a whole line was held back: %q", out.String())
	}
	var plain bytes.Buffer
	w = New().Writer(&plain)
	_, _ = w.Write([]byte("cat_ no secret"))
	if plain.String() != "cat_ no secret" {
		t.Errorf("an empty redactor held back %q", plain.String())
	}
}

// TestAddWhileWriting: a secret learned after a writer was made is
// redacted from then on.
func TestAddWhileWriting(t *testing.T) {
	r := New()
	var out bytes.Buffer
	w := r.Writer(&out)
	r.Add(tok)
	_, _ = w.Write([]byte("late " + tok + "\n"))
	if strings.Contains(out.String(), tok) {
		t.Errorf("%q", out.String())
	}
}

func FuzzRedactedNeverLeaks(f *testing.F) {
	f.Add("pre", "post", 0)
	f.Add(`\"`, `\u0020`, 3)
	f.Fuzz(func(t *testing.T, pre, post string, form int) {
		var enc string
		switch form % 4 {
		case 0:
			enc = tok
		case 1:
			enc = uEscapeAll(tok)
		case 2:
			enc = url.QueryEscape(tok)
		default:
			enc = base64.StdEncoding.EncodeToString([]byte(pre + tok))
		}
		got := New(tok).String(pre + enc + post)
		if strings.Contains(got, tok) {
			t.Errorf("%q", got)
		}
	})
}

// BenchmarkRedactLongAnswer redacts a list answer as the live client does
// when it arrives: rows of JSON inside a JSON string, a backslash every few
// bytes. Finding each candidate's next start from scratch made this
// quadratic (20,000 rows took 5.7 s, 40,000 rows 30 s); it is linear now.
// Also a run of a million backslashes, a hostile server's cheapest try.
func BenchmarkRedactLongAnswer(b *testing.B) {
	row := `{\"instanceId\":\"run-00001\",\"workflowName\":\"CheckoutWorkflow\",\"status\":\"COMPLETED\"},`
	for _, c := range []struct {
		name string
		text string
	}{
		{"rows-20k", strings.Repeat(row, 20000)},
		{"rows-200k", strings.Repeat(row, 200000)},
		{"backslashes-1M", strings.Repeat(`\`, 1<<20) + tok},
	} {
		b.Run(c.name, func(b *testing.B) {
			r := New(tok)
			b.SetBytes(int64(len(c.text)))
			for b.Loop() {
				if out := r.String(c.text); strings.Contains(out, tok) {
					b.Fatal("the token is still there")
				}
			}
		})
	}
}
