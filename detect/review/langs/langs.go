// Package langs assembles the review front-ends this build has: Go
// always; Python and C# when the build has cgo (their parsers are
// tree-sitter grammars, in C).
package langs

import (
	"github.com/twice-cli/twice/detect/review"
	"github.com/twice-cli/twice/detect/review/csharp"
	"github.com/twice-cli/twice/detect/review/golang"
	"github.com/twice-cli/twice/detect/review/python"
)

// Options returns review options with every front-end this build has, and
// the languages it cannot review with why.
func Options() review.Options {
	opts := review.Options{
		Frontends:   []review.Frontend{golang.Frontend{}},
		Unavailable: map[review.Lang]string{},
	}
	if ok, why := python.Available(); ok {
		opts.Frontends = append(opts.Frontends, python.Frontend{})
	} else {
		opts.Unavailable[review.LangPython] = why
	}
	if ok, why := csharp.Available(); ok {
		opts.Frontends = append(opts.Frontends, csharp.Frontend{})
	} else {
		opts.Unavailable[review.LangCSharp] = why
	}
	return opts
}
