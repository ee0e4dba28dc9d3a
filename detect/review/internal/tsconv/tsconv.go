//go:build cgo

package tsconv

import (
	"errors"
	"unsafe"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/twice-cli/twice/detect/review"
)

// Parse parses src with a grammar (a binding's Language()); the caller
// closes the tree.
func Parse(language unsafe.Pointer, src []byte) (*sitter.Tree, error) {
	p := sitter.NewParser()
	defer p.Close()
	if err := p.SetLanguage(sitter.NewLanguage(language)); err != nil {
		return nil, err
	}
	tree := p.Parse(src, nil)
	if tree == nil {
		return nil, errors.New("the parser gave no tree")
	}
	return tree, nil
}

// Source is a parsed file's bytes and line index.
type Source struct {
	Src []byte
	Idx *review.LineIndex
}

// NewSource indexes a file's lines.
func NewSource(src []byte) Source { return Source{Src: src, Idx: review.NewLineIndex(src)} }

// Text is a node's source text ("" for nil).
func (s Source) Text(n *sitter.Node) string {
	if n == nil {
		return ""
	}
	return string(s.Src[n.StartByte():n.EndByte()])
}

// Excerpt is a node's text cut to an excerpt (review.Clip), copying only
// what it keeps.
func (s Source) Excerpt(n *sitter.Node) string {
	if n == nil {
		return ""
	}
	return review.ClipBytes(s.Src[n.StartByte():n.EndByte()])
}

// Pos is where a node starts (the zero Pos for nil).
func (s Source) Pos(n *sitter.Node) review.Pos {
	if n == nil {
		return review.Pos{}
	}
	p := n.StartPosition()
	return s.Idx.PosAt(int(p.Row), int(p.Column))
}

// Named returns a node's named children, comments left out. tree-sitter
// finds the i-th child by walking from the first, so past a few children
// they are read with a cursor, once each: a list of 100,000 items costs
// 100,000 steps, not five billion.
func Named(n *sitter.Node) []*sitter.Node {
	if n == nil {
		return nil
	}
	k := n.NamedChildCount()
	out := make([]*sitter.Node, 0, k)
	if k <= cursorPast {
		for i := uint(0); i < k; i++ {
			if ch := n.NamedChild(i); ch != nil && ch.Kind() != "comment" {
				out = append(out, ch)
			}
		}
		return out
	}
	cur := n.Walk()
	defer cur.Close()
	for ok := cur.GotoFirstChild(); ok; ok = cur.GotoNextSibling() {
		if ch := cur.Node(); ch.IsNamed() && ch.Kind() != "comment" {
			out = append(out, ch)
		}
	}
	return out
}

// cursorPast is the child count past which Named reads with a cursor.
const cursorPast = 8

// Unescape decodes the common escape sequences of a string literal.
func Unescape(s string) string {
	switch s {
	case `\n`:
		return "\n"
	case `\t`:
		return "\t"
	case `\"`:
		return `"`
	case `\'`:
		return "'"
	case `\\`:
		return `\`
	}
	return s
}
