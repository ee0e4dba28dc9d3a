package jsonscan

import (
	"encoding/json"
	"testing"
)

// TestAppendUnescaped: JSON's escapes decode as encoding/json decodes them,
// from a string or from bytes alike, with the same length UnescapedLen
// counts; what is not a JSON escape is kept as it is.
func TestAppendUnescaped(t *testing.T) {
	valid := []string{``, `abc`, `\"\\\/\b\f\n\r\t`, `\u0041\u00e9\u20ac`, `\ud83d\ude00`, `a\u0000b`, `\ud83d`, `\ude00x`, `\ud83d\u0041`}
	for _, body := range valid {
		var want string
		if err := json.Unmarshal([]byte(`"`+body+`"`), &want); err != nil {
			t.Fatal(err)
		}
		for _, got := range []string{string(AppendUnescaped(nil, body)), string(AppendUnescaped(nil, []byte(body))), string(AppendUnquoted(nil, []byte(`"`+body+`"`)))} {
			if got != want {
				t.Errorf("unescaped %q = %q, want %q", body, got, want)
			}
		}
		if n := UnescapedLen(body); n != len(want) {
			t.Errorf("UnescapedLen(%q) = %d, want %d", body, n, len(want))
		}
	}
	for body, want := range map[string]string{`\x`: `\x`, `a\`: `a\`, `\u12`: `\u12`, `\uzzzz`: `\uzzzz`, "\xff\\n": "\xff\n"} {
		if got := string(AppendUnescaped(nil, body)); got != want {
			t.Errorf("unescaped %q = %q, want %q", body, got, want)
		}
		if n := UnescapedLen(body); n != len(want) {
			t.Errorf("UnescapedLen(%q) = %d, want %d", body, n, len(want))
		}
	}
}
