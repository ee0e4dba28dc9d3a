package runview

import (
	"strings"

	"github.com/twice-cli/twice/detect"
	"github.com/twice-cli/twice/tui/format"
)

// What tells a fan-out's invocations apart (detect.InvocationKeys): the
// Invocations tab's INPUT column, the Timeline's labels and the findings'
// titles show it, so twenty rows of SendInvoiceEmail read as twenty
// invoices. All of it is history text, through the sanitizer.

// inputKey is invocation ii's key; the zero key when its name is called
// once, or the index has none.
func (x *Index) inputKey(ii int) detect.InputKey {
	if x == nil || ii < 0 || ii >= len(x.inputKeys) {
		return detect.InputKey{}
	}
	return x.inputKeys[ii]
}

// idShown is how much of an id a label keeps: a UUID's first group.
const idShown = 8

// inputCell is the INPUT cell of an invocation: the value that tells it
// apart ("INV-1042": the field is in the detail pane's title, and a cut
// keeps the value), "exec 8a4f2c71…" (the id it falls back to), or "" for a
// name called once.
func inputCell(inv *detect.Invocation, k detect.InputKey) string {
	switch {
	case k.IsZero():
		return ""
	case k.ByID:
		if n, ok := strings.CutPrefix(k.Value, "event:"); ok {
			// Grouped without ids: the eventId of its first attempt.
			return "eventId " + format.Line(n)
		}
		return idWord(inv) + " " + keyWord(k)
	}
	return format.Line(k.Value)
}

// keyText is the key in a title: "invoiceId=INV-1042", the whole value
// when the input is one, "exec 8a4f2c71-…" (the whole id it falls back
// to), or "" for a name called once.
func keyText(inv *detect.Invocation, k detect.InputKey) string {
	switch {
	case k.IsZero():
		return ""
	case k.ByID && strings.HasPrefix(k.Value, "event:"):
		return inputCell(inv, k)
	case k.ByID:
		return idWord(inv) + " " + format.Line(k.Value)
	}
	return format.Line(k.String())
}

// idWord names the id an invocation falls back to.
func idWord(inv *detect.Invocation) string {
	if inv.Kind == detect.KindChildWorkflow {
		return "inst"
	}
	return "exec"
}

// keyWord is the key as a label adds it: the value alone ("INV-1042"),
// an id cut to its first group ("8a4f2c71…"); "" for the zero key.
func keyWord(k detect.InputKey) string {
	if k.IsZero() {
		return ""
	}
	if n, ok := strings.CutPrefix(k.Value, "event:"); ok && k.ByID {
		return "#" + format.Line(n)
	}
	v := format.Line(k.Value)
	if k.ByID && format.Width(v) > idShown+1 {
		return format.Fit(v, idShown+1)
	}
	return v
}

// label is an invocation's name with the key that tells it apart, fitted
// to w columns: the name is cut before the key, which keeps at least half
// ("SendInvoiceEmail INV-1042", "SendInvoiceE… INV-1042").
func label(name string, k detect.InputKey, w int) string {
	name = format.Line(name)
	word := keyWord(k)
	if word == "" {
		return format.Fit(name, w)
	}
	kw := min(format.Width(word), max(w/2, w-format.Width(name)-1))
	nw := w - kw - 1
	if nw < 1 {
		return format.Fit(word, w)
	}
	return format.Fit(name, nw) + " " + format.Fit(word, kw)
}

// keySuffix is what a finding's title adds after its activity: " ·
// invoiceId=INV-1042" (or the id: " · exec 8a4f2c71-…"); "" when the
// finding's invocation is the only one of its name, or it has none.
func (x *Index) keySuffix(f *detect.Finding) string {
	if x == nil || f.InvocationIndex < 0 || f.InvocationIndex >= len(x.Report.Invocations) {
		return ""
	}
	k := x.inputKey(f.InvocationIndex)
	if k.IsZero() {
		return ""
	}
	return " · " + keyText(&x.Report.Invocations[f.InvocationIndex], k)
}

// activityLabel is a finding's ACTIVITY cell: the activity, and the key of
// its invocation when the name is called more than once.
func (x *Index) activityLabel(f *detect.Finding, w int) string {
	return label(f.Activity, x.inputKey(f.InvocationIndex), w)
}
