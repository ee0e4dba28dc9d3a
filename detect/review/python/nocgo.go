//go:build !cgo

package python

import (
	"errors"

	"github.com/twice-cli/twice/detect/review"
)

// Available reports whether this build can parse Python, and why not.
func Available() (bool, string) {
	return false, "this twice was built without cgo (CGO_ENABLED=0), and its Python parser (tree-sitter) needs it: install a C compiler and build again"
}

// Parse fails: this build has no Python parser.
func (Frontend) Parse(name string, src []byte) (*review.File, error) {
	_, why := Available()
	return nil, errors.New(why)
}
