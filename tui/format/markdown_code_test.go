package format

import "testing"

// TestMarkdownCode: a code span shows its text as itself (no backslash
// escapes), fenced past any backtick run it holds; in a table cell a "|"
// is the table's escape.
func TestMarkdownCode(t *testing.T) {
	for _, tc := range []struct{ in, code, cell string }{
		{"svc/my_file.py:3:1", "`svc/my_file.py:3:1`", "`svc/my_file.py:3:1`"},
		{`a\b*c*<x>`, "`a\\b*c*<x>`", "`a\\b*c*<x>`"},
		{"a`b", "``a`b``", "``a`b``"},
		{"`a``", "``` `a`` ```", "``` `a`` ```"},
		{"a|b", "`a|b`", "`a\\|b`"},
		{" a ", "`  a  `", "`  a  `"},
		{"x\ny\x1b[2J", "`x\\ny\\x1b[2J`", "`x\\ny\\x1b[2J`"}, // the sanitizer's visible form
		{"", "-", "-"},
	} {
		if got := MarkdownCode(tc.in); got != tc.code {
			t.Errorf("MarkdownCode(%q) = %q, want %q", tc.in, got, tc.code)
		}
		if got := MarkdownCodeCell(tc.in); got != tc.cell {
			t.Errorf("MarkdownCodeCell(%q) = %q, want %q", tc.in, got, tc.cell)
		}
	}
}
