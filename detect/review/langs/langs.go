// Package langs assembles the review front-ends this build has: Go
// always, Python when the build has cgo. C# is not reviewed (README says
// why).
package langs

import (
	"github.com/twice-cli/twice/detect/review"
	"github.com/twice-cli/twice/detect/review/golang"
	"github.com/twice-cli/twice/detect/review/python"
)

// CSharpReason says why C# source is not reviewed.
const CSharpReason = "twice does not review C# yet"

// Options returns review options with every front-end this build has, and
// the languages it cannot review with why.
func Options() review.Options {
	opts := review.Options{
		Frontends:   []review.Frontend{golang.Frontend{}},
		Unavailable: map[review.Lang]string{review.LangCSharp: CSharpReason},
	}
	if ok, why := python.Available(); ok {
		opts.Frontends = append(opts.Frontends, python.Frontend{})
	} else {
		opts.Unavailable[review.LangPython] = why
	}
	return opts
}
