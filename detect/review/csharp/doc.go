// Package csharp is twice review's C# front-end. It parses C# with
// tree-sitter (github.com/tree-sitter/go-tree-sitter, the runtime the
// Python front-end links, and the tree-sitter-c-sharp grammar, through
// cgo) and turns each file into review's language-neutral form,
// recognising Dapr.Workflow: classes deriving WorkflowActivity<TInput,
// TOutput> and Workflow<TInput, TOutput>, RegisterActivity and
// RegisterWorkflow, CallActivityAsync and CallChildWorkflowAsync with
// WorkflowTaskOptions and WorkflowRetryPolicy.
//
// Names resolve through using directives, aliases and static usings, and
// through the declared types of fields, parameters and locals, so
// _http.PostAsync is HttpClient's and _gateway.ChargeAsync is the
// gateway's method in the reviewed tree.
//
// A build without cgo has no C# parser: Available says so and why, and
// twice review counts C# files as not reviewed.
package csharp

import (
	"strings"

	"github.com/twice-cli/twice/detect/review"
)

// Frontend parses C# files.
type Frontend struct{}

// Lang returns review.LangCSharp.
func (Frontend) Lang() review.Lang { return review.LangCSharp }

// Match reports whether the file is C# source twice reviews. Test
// projects (a folder named *.Tests or *.Test) and test files (*Tests.cs,
// *Test.cs) are left out: they call activities directly, never through
// the engine; so is generated code (*.g.cs, *.Designer.cs).
func (Frontend) Match(name string) bool {
	if !strings.HasSuffix(name, ".cs") {
		return false
	}
	base := name[strings.LastIndexByte(name, '/')+1:]
	for _, suf := range []string{"Tests.cs", "Test.cs", ".g.cs", ".Designer.cs", ".designer.cs"} {
		if strings.HasSuffix(base, suf) {
			return false
		}
	}
	for _, dir := range strings.Split(name, "/") {
		if strings.HasSuffix(dir, ".Tests") || strings.HasSuffix(dir, ".Test") || strings.HasSuffix(dir, ".UnitTests") || strings.HasSuffix(dir, ".IntegrationTests") {
			return false
		}
	}
	return true
}
