package catalyst

import (
	"bytes"
	"strings"
	"testing"

	"github.com/twice-cli/twice/catalyst/safetext/hostiletest"
)

// FuzzPlantedStrings plants an arbitrary string in every field of a
// history in each wire format (protojson, Catalyst flattened, the Dapr
// CLI's rows, a Catalyst MCP tool result) and decodes it: the document
// always decodes, to all of its events, and every field holds exactly what
// was planted — except, in the CLI's rows, a string holding ';', which the
// CLI writes unescaped between its "key=value" pairs and so cannot always
// be told apart from the next pair. Seeds: the hostile corpus.
func FuzzPlantedStrings(f *testing.F) {
	for _, s := range hostiletest.Corpus(false) {
		f.Add(s.Value)
	}
	f.Add(hostiletest.Joined())
	f.Add("")
	f.Add(`"quoted" \ back\slash`)
	f.Add(";errorMsg=x;nonRetriable=true;tags=a;result=b")
	f.Fuzz(func(t *testing.T, value string) {
		for _, doc := range hostiletest.Documents(value) {
			if doc.Name == "fixture" {
				continue
			}
			h, err := Decode(bytes.NewReader(doc.Bytes), DecodeOptions{})
			if err != nil {
				t.Fatalf("%s: %v", doc.Name, err)
			}
			if h.Len() != 12 {
				t.Fatalf("%s: %d events, want 12", doc.Name, h.Len())
			}
			if doc.Name == "dapr-cli" && strings.Contains(value, ";") {
				continue
			}
			got := plantedIn(h)
			for field, want := range doc.Planted {
				if len(got[field]) == 0 {
					t.Fatalf("%s: no %s", doc.Name, field)
				}
				for _, v := range got[field] {
					if v != want {
						t.Fatalf("%s: the %s is %.80q, want %.80q", doc.Name, field, v, want)
					}
				}
			}
		}
	})
}
