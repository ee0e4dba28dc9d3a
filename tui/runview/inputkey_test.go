package runview

import (
	"testing"

	"github.com/twice-cli/twice/catalyst/safetext/hostiletest"
	"github.com/twice-cli/twice/detect"
	"github.com/twice-cli/twice/tui/format"
)

// TestInputKeyTextIsSanitized: a key's field and value are history text;
// the INPUT cell, a title's key and a Timeline label carry none of the
// hostile corpus raw.
func TestInputKeyTextIsSanitized(t *testing.T) {
	inv := &detect.Invocation{Name: "SendInvoiceEmail", Kind: detect.KindActivity}
	for _, s := range hostiletest.Corpus(false) {
		for _, k := range []detect.InputKey{{Field: "invoice" + s.Value, Value: "INV-1" + s.Value}, {Value: s.Value + "-id", ByID: true}} {
			for what, text := range map[string]string{
				"cell": inputCell(inv, k), "title": keyText(inv, k), "label": label(inv.Name+s.Value, k, 30),
			} {
				if v, bad := hostiletest.FindUnsafe(text, false); bad {
					t.Errorf("%s, %s: %v reached the screen raw: %q", s.Name, what, v, text)
				}
			}
		}
	}
}

// TestLabelKeepsTheKey: a label cuts the name before the key, and the key
// keeps at least half the width.
func TestLabelKeepsTheKey(t *testing.T) {
	k := detect.InputKey{Field: "invoiceNumber", Value: "INV-1042"}
	tests := []struct {
		w    int
		want string
	}{
		{30, "SendInvoiceEmail INV-1042"},
		{22, "SendInvoiceE… INV-1042"},
		{12, "Send… INV-1…"},
	}
	for _, tt := range tests {
		if got := label("SendInvoiceEmail", k, tt.w); got != tt.want || format.Width(got) > tt.w {
			t.Errorf("label(w %d) = %q, want %q", tt.w, got, tt.want)
		}
	}
	if got := label("SendInvoiceEmail", detect.InputKey{Value: "8a4f2c71-3b9e-4d05", ByID: true}, 30); got != "SendInvoiceEmail 8a4f2c71…" {
		t.Errorf("an id is cut to its first group: %q", got)
	}
	if got := label("LoadAccount", detect.InputKey{}, 30); got != "LoadAccount" {
		t.Errorf("no key: %q", got)
	}
}

// TestKeyOfAnIDlessInvocation: grouped without ids, an invocation's key is
// twice's own ("event:3"); it is shown as the eventId it is.
func TestKeyOfAnIDlessInvocation(t *testing.T) {
	inv := &detect.Invocation{Name: "SendEmail", Kind: detect.KindActivity, Key: "event:3"}
	k := detect.InputKey{Value: "event:3", ByID: true}
	if got := inputCell(inv, k); got != "eventId 3" {
		t.Errorf("cell %q", got)
	}
	if got := keyText(inv, k); got != "eventId 3" {
		t.Errorf("title %q", got)
	}
	if got := label("SendEmail", k, 30); got != "SendEmail #3" {
		t.Errorf("label %q", got)
	}
}
