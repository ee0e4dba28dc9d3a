package catalyst

import "testing"

// TestProvenanceSavedAndLive: a history read from a file, standard input or
// a bundled demo is saved (its clock stopped when it was saved); one read
// from Catalyst just now is live; a file recorded from Catalyst is saved,
// not live; a provenance that names no surface is neither.
func TestProvenanceSavedAndLive(t *testing.T) {
	for _, c := range []struct {
		name        string
		p           Provenance
		saved, live bool
	}{
		{"file", Provenance{Surface: SurfaceFile, Location: "incident.json"}, true, false},
		{"stdin", Provenance{Surface: SurfaceStdin}, true, false},
		{"demo", Provenance{Surface: SurfaceDemo, Location: "demo:ship"}, true, false},
		{"live", Provenance{Surface: SurfaceCatalystMCP, Endpoint: "mcp.cloud.r1.diagrid.io"}, false, true},
		{"recorded from catalyst", Provenance{Surface: SurfaceFile, Recorded: &Recording{Surface: SurfaceCatalystMCP}}, true, false},
		{"none", Provenance{}, false, false},
	} {
		if got := c.p.Saved(); got != c.saved {
			t.Errorf("%s: Saved() = %v, want %v", c.name, got, c.saved)
		}
		if got := c.p.Live(); got != c.live {
			t.Errorf("%s: Live() = %v, want %v", c.name, got, c.live)
		}
	}
}
