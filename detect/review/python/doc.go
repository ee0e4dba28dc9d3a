// Package python is twice review's Python front-end. It parses Python
// with tree-sitter (github.com/tree-sitter/go-tree-sitter and the
// tree-sitter-python grammar, through cgo) and turns each file into
// review's language-neutral form, recognising dapr-ext-workflow
// (@wfr.activity(name=…), register_activity, call_activity(…,
// retry_policy=…), RetryPolicy) and durabletask-python (add_activity,
// add_named_activity).
//
// A build without cgo has no Python parser: Available says so and why,
// and twice review counts Python files as not reviewed.
package python

import "github.com/twice-cli/twice/detect/review"

// Frontend parses Python files.
type Frontend struct{}

// Lang returns review.LangPython.
func (Frontend) Lang() review.Lang { return review.LangPython }

// Match reports whether the file is Python source twice reviews (tests
// are left out: they call activities directly, never through the engine).
func (Frontend) Match(name string) bool {
	if len(name) < 3 || name[len(name)-3:] != ".py" {
		return false
	}
	base := name
	for i := len(name) - 1; i >= 0; i-- {
		if name[i] == '/' {
			base = name[i+1:]
			break
		}
	}
	return !(len(base) > 5 && base[:5] == "test_") && !(len(base) > 8 && base[len(base)-8:] == "_test.py") && base != "conftest.py"
}
