package catalyst

import (
	"testing"
	"time"
)

// TestDecoderSetsTimeResolution: the Dapr CLI prints each row's time
// truncated to the second and fireAt in RFC 3339 without a fraction (dapr/cli
// v1.17.0 pkg/workflow/history.go: Timestamp: ts.Truncate(time.Second),
// FireAt.AsTime().Format(time.RFC3339)); the decoder says so on the
// history. protojson and Catalyst's events carry the engine's own times.
func TestDecoderSetsTimeResolution(t *testing.T) {
	for _, tc := range []struct {
		file string
		want time.Duration
	}{
		{"dapr-cli-1.17-charge.json", time.Second},
		{"dapr-cli-1.18-welcome.json", time.Second},
		{"dapr-cli-null.json", time.Second},
		{"protojson-b-retries.json", 0},
		{"catalyst-flat-list.json", 0},
		{"mcp-result-protojson.json", 0},
	} {
		h, err := decodeFile(t, tc.file)
		if err != nil {
			t.Fatalf("%s: %v", tc.file, err)
		}
		if h.TimeResolution != tc.want {
			t.Errorf("%s (%s): TimeResolution %v, want %v", tc.file, h.Format, h.TimeResolution, tc.want)
		}
		// Every trait comes with the format: the CLI's rows have all of
		// the CLI's, the engine's own formats none.
		if wantTraits := (Traits{}); h.Format == FormatDaprCLI && h.Traits != DaprCLITraits() ||
			h.Format != FormatDaprCLI && h.Traits != wantTraits {
			t.Errorf("%s (%s): traits %+v", tc.file, h.Format, h.Traits)
		}
		if tc.want == time.Second {
			// Each row is printed at its whole second, whatever the decoder
			// rebuilt from the rows' elapsed values.
			for i, e := range h.All() {
				if ts := h.Printed(e.Timestamp); !ts.IsZero() && int64(ts)%int64(time.Second) != 0 {
					t.Errorf("%s: event %d printed at %v: not a whole second, the resolution is wrong", tc.file, i, ts.Time())
				}
			}
		}
	}
}
