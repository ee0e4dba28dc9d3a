package csharp

import (
	"strings"
	"testing"
)

// TestReleaseKeepsWhatAReleaseBuildCompiles checks the preprocessor pass:
// the branches a Release build takes stay, the others and the directives
// are blanked, and every line keeps its place.
func TestReleaseKeepsWhatAReleaseBuildCompiles(t *testing.T) {
	for _, c := range []struct {
		name, src, want string
		conditional     bool
	}{
		{"no directives", "a\nb\n", "a\nb\n", false},
		{"if DEBUG else", "x\n#if DEBUG\ndebug\n#else\nrelease\n#endif\ny\n", "x\n\n\n\nrelease\n\ny\n", true},
		{"no space, parenthesised, or", "#if(DEBUG || INTTEST)\nmock\n#endif\nreal\n", "\n\n\nreal\n", true},
		{"not DEBUG", "#if !DEBUG\nrelease\n#endif\n", "\nrelease\n\n", true},
		{"elif", "#if DEBUG\na\n#elif TRACE\nb\n#else\nc\n#endif\n", "\n\n\nb\n\n\n\n", true},
		{"nested in a skipped branch", "#if DEBUG\n#if TRACE\na\n#else\nb\n#endif\n#endif\nc\n", "\n\n\n\n\n\n\nc\n", true},
		{"define", "#define MOCK\n#if MOCK\nm\n#endif\n", "\n\nm\n\n", true},
		{"region kept", "#region x\na\n#endregion\n", "#region x\na\n#endregion\n", false},
		{"crlf", "#if DEBUG\r\na\r\n#endif\r\nb\r\n", "\r\n\r\n\r\nb\r\n", true},
	} {
		got, cond := Release([]byte(c.src))
		if string(got) != c.want || cond != c.conditional {
			t.Errorf("%s: got %q (%v), want %q (%v)", c.name, got, cond, c.want, c.conditional)
		}
		if strings.Count(string(got), "\n") != strings.Count(c.src, "\n") {
			t.Errorf("%s: lines moved", c.name)
		}
	}
}
