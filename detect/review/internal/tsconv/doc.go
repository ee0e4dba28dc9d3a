// Package tsconv holds what twice review's tree-sitter front-ends
// (Python, C#) share: parsing a file with a grammar, and reading a node's
// text, position and named children. It needs cgo; without it the
// package is empty and the front-ends say they cannot parse.
package tsconv
