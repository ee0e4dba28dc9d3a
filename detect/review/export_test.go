package review

import "fmt"

// RowNames lists every library row by a name the tests print: the
// library, the row's place in it, and what it recognises.
func RowNames() []string {
	var out []string
	k := knowledge()
	for li := range k.libs {
		for ri := range k.libs[li].rows {
			out = append(out, rowName(&k.libs[li].rows[ri]))
		}
	}
	return out
}

func rowName(r *api) string {
	what := r.ref
	if len(r.methods) > 0 {
		what += r.methods[0]
		if len(r.methods) > 1 {
			what += "…"
		}
	}
	lang := string(r.lang)
	if lang == "" {
		lang = "any"
	}
	return fmt.Sprintf("%s #%d (%s %s)", r.lib.name, r.order, lang, what)
}

// RowsUsed names the rows that answered a question in a review.
func RowsUsed(rep *Report) []string {
	var out []string
	for r := range rep.rowsUsed {
		out = append(out, rowName(r))
	}
	return out
}
