package review

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

// LineIndex maps byte offsets in a file to positions. A column counts
// runes from the line's start; on a long line it counts from the nearest
// mark instead (the rune count at every markEvery bytes, kept when the
// index is built), so a position costs at most markEvery bytes of
// counting whatever the line's length: a review stays linear in bytes on
// a file that is one 4 MB line.
type LineIndex struct {
	src    []byte
	starts []int // byte offset of each line's start
	// marks holds, for each line longer than markEvery bytes, where
	// decoding its runes from its start crosses each multiple of
	// markEvery bytes, and how many runes lie before that.
	marks map[int][]runeMark
}

// markEvery is the spacing of a long line's marks, in bytes.
const markEvery = 64

// runeMark is a rune boundary on a line: its byte offset in the file and
// the runes between the line's start and it.
type runeMark struct {
	off, runes int
}

// NewLineIndex indexes src's lines.
func NewLineIndex(src []byte) *LineIndex {
	starts := make([]int, 1, bytes.Count(src, []byte{'\n'})+1)
	for i, b := range src {
		if b == '\n' {
			starts = append(starts, i+1)
		}
	}
	x := &LineIndex{src: src, starts: starts}
	for row, start := range starts {
		end := len(src)
		if row+1 < len(starts) {
			end = starts[row+1]
		}
		if end-start > markEvery {
			if x.marks == nil {
				x.marks = map[int][]runeMark{}
			}
			x.marks[row] = lineMarks(src, start, end)
		}
	}
	return x
}

// lineMarks decodes the line src[start:end] as utf8.RuneCount would and
// records the first rune boundary at or past each multiple of markEvery
// bytes from its start.
func lineMarks(src []byte, start, end int) []runeMark {
	marks := make([]runeMark, 0, (end-start)/markEvery+1)
	marks = append(marks, runeMark{off: start})
	next, runes := start+markEvery, 0
	for i := start; i < end; {
		if i >= next {
			marks = append(marks, runeMark{off: i, runes: runes})
			next += markEvery
			continue
		}
		if src[i] < utf8.RuneSelf {
			i++
		} else {
			_, n := utf8.DecodeRune(src[i:end])
			i += n
		}
		runes++
	}
	return marks
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
	return Pos{Line: lo + 1, Col: x.column(lo, off) + 1}
}

// PosAt returns the position of a line (0-based) and a byte column
// (0-based), as tree-sitter gives them.
func (x *LineIndex) PosAt(row, byteCol int) Pos {
	if row < 0 || row >= len(x.starts) {
		return Pos{}
	}
	start := x.starts[row]
	end := min(start+max(byteCol, 0), len(x.src))
	return Pos{Line: row + 1, Col: x.column(row, end) + 1}
}

// column counts the runes of line row before the byte offset off (which
// is on that line): utf8.RuneCount(src[lineStart:off]), from the nearest
// mark at or before off.
func (x *LineIndex) column(row, off int) int {
	from, runes := x.starts[row], 0
	if marks := x.marks[row]; len(marks) > 0 {
		k := min((off-from)/markEvery, len(marks)-1)
		for k > 0 && marks[k].off > off {
			k--
		}
		from, runes = marks[k].off, marks[k].runes
	}
	return runes + utf8.RuneCount(x.src[from:off])
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

// ClipBytes is Clip(string(b)), copying no more of b than the excerpt
// keeps: an expression's text is taken at every level of a nested
// expression, and copying each whole would cost the square of its size.
func ClipBytes(b []byte) string {
	if len(b) <= maxExcerpt {
		return string(b)
	}
	cut := maxExcerpt
	for cut > 0 && !utf8.RuneStart(b[cut]) {
		cut--
	}
	return string(b[:cut]) + "…"
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
