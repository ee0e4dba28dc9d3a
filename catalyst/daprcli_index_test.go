package catalyst

import (
	"bytes"
	"testing"
)

// TestIndexStringMatchesBytes: the attrs separators are found where
// bytes.Index and bytes.LastIndex find them.
func TestIndexStringMatchesBytes(t *testing.T) {
	hays := []string{"", ";", "a;b=", ";output=", "x;output=1;output=2", ";o;ou;out;output", "output=;output",
		";;output=;output=", "input={\"a\":\";output=\"};output=x"}
	for _, hay := range hays {
		for _, sep := range []string{";output=", ";o", ";", "=;"} {
			b := []byte(hay)
			if got, want := indexString(b, sep), bytes.Index(b, []byte(sep)); got != want {
				t.Errorf("indexString(%q, %q) = %d, want %d", hay, sep, got, want)
			}
			if got, want := lastIndexString(b, sep), bytes.LastIndex(b, []byte(sep)); got != want {
				t.Errorf("lastIndexString(%q, %q) = %d, want %d", hay, sep, got, want)
			}
		}
	}
}
