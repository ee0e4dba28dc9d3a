//go:build !cgo

package csharp

import (
	"errors"

	"github.com/twice-cli/twice/detect/review"
)

// Available reports whether this build can parse C#, and why not.
func Available() (bool, string) {
	return false, "this twice was built without cgo (CGO_ENABLED=0), and its C# parser (tree-sitter) needs it: install a C compiler and build again"
}

// Parse fails: this build has no C# parser.
func (Frontend) Parse(name string, src []byte) (*review.File, error) {
	_, why := Available()
	return nil, errors.New(why)
}
