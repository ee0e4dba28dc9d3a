package hostiletest

import (
	"testing"

	"github.com/twice-cli/twice/catalyst/safetext"
)

func TestEverySampleIsUnsafeRawAndSafeSanitized(t *testing.T) {
	for _, s := range Corpus(true) {
		raw := s.Value
		_, unsafe := FindUnsafe(raw, false)
		if s.Name == "tview markup" || s.Name == "1 MiB line" {
			if unsafe {
				t.Errorf("%s: plain text flagged", s.Name)
			}
		} else if !unsafe {
			t.Errorf("%s: raw sample not flagged", s.Name)
		}
		if v, bad := FindUnsafe(safetext.Line(raw), false); bad {
			t.Errorf("%s: sanitized output still holds %U at %d", s.Name, v.Rune, v.Offset)
		}
		if v, bad := FindUnsafe(safetext.Block(raw), true); bad {
			t.Errorf("%s: sanitized block still holds %U at %d", s.Name, v.Rune, v.Offset)
		}
	}
	if _, bad := FindUnsafe(safetext.Line(Joined()), false); bad {
		t.Error("joined corpus not clean after sanitizing")
	}
}
