package format

import "github.com/twice-cli/twice/detect/review"

// LangName is a reviewed language's name as people write it ("Go",
// "Python", "C#"), for the review's text and the view's Code tab.
func LangName(l review.Lang) string {
	switch l {
	case review.LangGo:
		return "Go"
	case review.LangPython:
		return "Python"
	case review.LangCSharp:
		return "C#"
	}
	return safeLine(string(l))
}
