package format

import "github.com/twice-cli/twice/detect/review"

// LangName is a reviewed language's name as people write it ("Go",
// "Python", "C#"; review.Lang.Title), made safe to print, for the review's
// text and the view's Code tab.
func LangName(l review.Lang) string { return safeLine(l.Title()) }
