// Package review reviews workflow and activity source code for what makes
// an activity unsafe to run twice, without running it: an idempotency key
// made inside the body, a side effect with no key or conditional write,
// check-then-act, a retry loop inside the body, one retry policy for
// activities that fail differently, a rejection retried, a whole response
// returned as output (Rules lists them, with their severity, why and fix).
//
// Review reads files and folders through the Frontends of Options (one
// per language, each turning a file into the language-neutral form of
// ir.go; detect/review/langs assembles those a build has: Go always,
// Python and C# with cgo). The rules read only that form. What a
// library's call does to the outside world is data, one table per library
// (lib_*.go, listed in libraries.go), read by one engine (library.go).
//
// Join ties a review to a history's findings (detect.Report): what the
// code of each flagged activity says, as a Joined, which lives here so
// that detect's model knows nothing of static review.
//
// docs/analysis.md describes the review; docs/architecture.md has the
// recipes for adding a library, an API and a language.
package review
