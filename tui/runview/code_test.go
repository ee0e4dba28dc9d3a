package runview

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/twice-cli/twice/detect/review"
)

// TestContextOf: the lines around a reviewed line, its own marked and the
// shared indentation left out; a file that changed since the review, is
// gone or is shorter says so rather than showing other lines as the
// hazard's.
func TestContextOf(t *testing.T) {
	src := []byte("package p\n\nfunc F() {\n\tif x {\n\t\tkey := uuid.New()\n\t\tsend(key)\n\t}\n}\n")
	c := contextOf(src, nil, 5, "key := uuid.New()", false)
	want := []string{"", "func F() {", "    if x {", "        key := uuid.New()", "        send(key)", "    }", "}"}
	if c.note != "" || c.first != 2 || c.mark != 3 || !slices.Equal(c.lines, want) {
		t.Errorf("context of line 5 = first %d, mark %d, %q, note %q; want first 2, mark 3, %q", c.first, c.mark, c.lines, c.note, want)
	}
	// Indented code loses only the indentation every line shares.
	deep := []byte("\t\ta()\n\t\t\tb()\n\t\tc()\n")
	if c := contextOf(deep, nil, 2, "b()", false); !slices.Equal(c.lines, []string{"a()", "    b()", "c()"}) {
		t.Errorf("dedented context = %q", c.lines)
	}
	// Line 1 has no lines before it; the last line none after it (the
	// final newline starts no line).
	if c := contextOf(src, nil, 8, "}", false); c.mark != 3 || len(c.lines) != 4 || c.lines[3] != "}" {
		t.Errorf("context of the last line = mark %d, %q", c.mark, c.lines)
	}
	for _, tc := range []struct {
		name string
		src  []byte
		err  error
		line int
		want string
	}{
		{"changed", src, nil, 5, "the file changed since twice reviewed it: line 5 no longer reads as it did"},
		{"gone", nil, fs.ErrNotExist, 5, "the file is not there any more"},
		{"unreadable", nil, errors.New("permission denied"), 5, "the file cannot be read: permission denied"},
		{"shorter", src, nil, 40, "the file has fewer than 40 lines now"},
	} {
		excerpt := "key := uuid.NewString()"
		if tc.name == "shorter" {
			excerpt = ""
		}
		c := contextOf(tc.src, tc.err, tc.line, excerpt, tc.name == "shorter")
		if c.note != tc.want || c.mark != -1 || c.lines != nil {
			t.Errorf("%s: note %q, mark %d, %d lines; want %q and no lines", tc.name, c.note, c.mark, len(c.lines), tc.want)
		}
	}
	// Hostile text in a source line is shown escaped.
	if c := contextOf([]byte("x := \"\x1b[31mred\"\n"), nil, 1, "", true); strings.ContainsRune(c.lines[0], 0x1b) {
		t.Errorf("an escape sequence in the source reached the excerpt: %q", c.lines[0])
	}
}

// TestCommonFolder: the LOCATION column leaves out the folder every row's
// file is in, and only that.
func TestCommonFolder(t *testing.T) {
	rows := func(files ...string) []codeRow {
		var out []codeRow
		for _, f := range files {
			out = append(out, codeRow{loc: review.Location{File: f, Line: 1}})
		}
		return out
	}
	for _, c := range []struct {
		files []string
		want  string
	}{
		{[]string{"demo/services/payment-timeout/checkout.py", "demo/services/payment-timeout/checkout.py"}, "demo/services/payment-timeout/"},
		{[]string{"svc/payments/charge.go", "svc/orders/place.go", ""}, "svc/"},
		{[]string{"svc/payments/charge.go", "svcx/a.go"}, ""},
		{[]string{"charge.go", "svc/a.go"}, ""},
		{[]string{"", ""}, ""},
		{[]string{"/abs/a/x.go", "/abs/b/y.go"}, "/abs/"},
	} {
		if got := commonFolder(rows(c.files...)); got != c.want {
			t.Errorf("commonFolder(%q) = %q, want %q", c.files, got, c.want)
		}
	}
}

// TestCodeSourceReadFile reads a file from disk or from an embedded tree,
// and refuses one larger than twice reviews.
func TestCodeSourceReadFile(t *testing.T) {
	embedded := &CodeSource{Files: fstest.MapFS{"svc/a.go": {Data: []byte("package a\n")}}}
	if b, err := embedded.ReadFile("svc/a.go"); err != nil || string(b) != "package a\n" || !embedded.Embedded() {
		t.Errorf("embedded read: %q, %v", b, err)
	}
	dir := t.TempDir()
	big := filepath.Join(dir, "big.go")
	if err := os.WriteFile(big, make([]byte, review.DefaultMaxFileBytes+1), 0o600); err != nil {
		t.Fatal(err)
	}
	disk := &CodeSource{}
	if _, err := disk.ReadFile(filepath.ToSlash(big)); err == nil || disk.Embedded() {
		t.Errorf("a file larger than twice reviews was read (%v)", err)
	}
	if _, err := disk.ReadFile(filepath.ToSlash(filepath.Join(dir, "none.go"))); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing file: %v", err)
	}
}
