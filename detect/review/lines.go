package review

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

// LineIndex maps byte offsets in a file to positions.
type LineIndex struct {
	src    []byte
	starts []int // byte offset of each line's start
}

// NewLineIndex indexes src's lines.
func NewLineIndex(src []byte) *LineIndex {
	starts := make([]int, 1, bytes.Count(src, []byte{'\n'})+1)
	for i, b := range src {
		if b == '\n' {
			starts = append(starts, i+1)
		}
	}
	return &LineIndex{src: src, starts: starts}
}

// Lines is the number of lines.
func (x *LineIndex) Lines() int {
	n := len(x.starts)
	if n > 0 && x.starts[n-1] == len(x.src) {
		n-- // a final newline starts no line
	}
	return n
}

// Pos returns the position of a byte offset.
func (x *LineIndex) Pos(off int) Pos {
	if off < 0 {
		return Pos{}
	}
	if off > len(x.src) {
		off = len(x.src)
	}
	lo, hi := 0, len(x.starts)
	for hi-lo > 1 {
		m := (lo + hi) / 2
		if x.starts[m] <= off {
			lo = m
		} else {
			hi = m
		}
	}
	return Pos{Line: lo + 1, Col: utf8.RuneCount(x.src[x.starts[lo]:off]) + 1}
}

// PosAt returns the position of a line (0-based) and a byte column
// (0-based), as tree-sitter gives them.
func (x *LineIndex) PosAt(row, byteCol int) Pos {
	if row < 0 || row >= len(x.starts) {
		return Pos{}
	}
	start := x.starts[row]
	end := min(start+byteCol, len(x.src))
	return Pos{Line: row + 1, Col: utf8.RuneCount(x.src[start:end]) + 1}
}

// maxExcerpt caps an excerpt's length in bytes.
const maxExcerpt = 240

// LineText returns line n (1-based) of src, trimmed of surrounding space
// and cut to a few hundred bytes.
func LineText(src []byte, n int) string {
	if n < 1 {
		return ""
	}
	for i := 1; i < n; i++ {
		j := bytes.IndexByte(src, '\n')
		if j < 0 {
			return ""
		}
		src = src[j+1:]
	}
	if j := bytes.IndexByte(src, '\n'); j >= 0 {
		src = src[:j]
	}
	return Clip(strings.TrimSpace(string(src)))
}

// Clip cuts s to the excerpt limit on a rune boundary, marking the cut.
func Clip(s string) string {
	if len(s) <= maxExcerpt {
		return s
	}
	cut := maxExcerpt
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
