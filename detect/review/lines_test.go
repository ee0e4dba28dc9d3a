package review

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// naivePos is what a position was before the index kept marks: the runes
// from the line's start, counted each time.
func naivePos(src []byte, off int) Pos {
	line := bytes.Count(src[:off], []byte{'\n'})
	start := bytes.LastIndexByte(src[:off], '\n') + 1
	return Pos{Line: line + 1, Col: utf8.RuneCount(src[start:off]) + 1}
}

// TestLineIndexMatchesCounting: on lines long and short, with multi-byte
// runes and invalid UTF-8 cut at every alignment, Pos and PosAt give what
// counting from the line's start gives.
func TestLineIndexMatchesCounting(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 3))
	pieces := []string{"a", "é", "日本", "🙂", "\xff", "\xe6\x97", "\x80", "\n", "x = [1, 2]", "\t"}
	for trial := range 20 {
		var b strings.Builder
		n := 200 + rng.IntN(3000)
		for b.Len() < n {
			p := pieces[rng.IntN(len(pieces))]
			if p == "\n" && trial%3 == 0 {
				continue // some files are one long line
			}
			b.WriteString(p)
		}
		src := []byte(b.String())
		x := NewLineIndex(src)
		for off := 0; off <= len(src); off++ {
			want := naivePos(src, off)
			if got := x.Pos(off); got != want {
				t.Fatalf("trial %d: Pos(%d) = %+v, want %+v", trial, off, got, want)
			}
			start := bytes.LastIndexByte(src[:off], '\n') + 1
			if got := x.PosAt(want.Line-1, off-start); got != want {
				t.Fatalf("trial %d: PosAt(%d, %d) = %+v, want %+v", trial, want.Line-1, off-start, got, want)
			}
		}
	}
}

// TestLineIndexIsLinear (issue 26, item 3): the columns of every 8th
// byte of a 4 MB line cost a small multiple of counting the line's runes
// once. Before, each column was counted from the line's start (hours for
// this line), so the test stops at a deadline of a thousand such counts.
func TestLineIndexIsLinear(t *testing.T) {
	src := bytes.Repeat([]byte("é, 12"), 4_000_000/6)
	start := time.Now()
	utf8.RuneCount(src)
	deadline := 1000*time.Since(start) + 5*time.Second
	start = time.Now()
	x := NewLineIndex(src)
	for off := 0; off < len(src); off += 8 {
		x.PosAt(0, off)
		if off%512 == 0 && time.Since(start) > deadline {
			t.Fatalf("the columns of a 4 MB line took over %v (at byte %d): counted from the line's start", deadline, off)
		}
	}
	t.Logf("the columns of a 4 MB line: %v (deadline %v)", time.Since(start), deadline)
}

// TestClipBytesIsClip: ClipBytes cuts as Clip does, at every length
// around the limit and through multi-byte runes.
func TestClipBytesIsClip(t *testing.T) {
	for n := maxExcerpt - 8; n < maxExcerpt+8; n++ {
		for _, fill := range []string{"a", "é", "日", "🙂", "\xff"} {
			s := strings.Repeat(fill, n)[:n]
			if got, want := ClipBytes([]byte(s)), Clip(s); got != want {
				t.Fatalf("ClipBytes(%d × %q) = %q, want %q", n, fill, got, want)
			}
		}
	}
}
