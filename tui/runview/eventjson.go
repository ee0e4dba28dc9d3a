package runview

import (
	"bytes"
	"encoding/json"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/tui/format"
)

// eventJSONHeading heads the JSON at the end of an event's detail.
const eventJSONHeading = "JSON (as twice show -o json writes it)"

// eventJSON is an event as twice's JSON output writes it (format.JSON):
// the same object `twice show -o json` has in "events", so what the view
// shows and y copies reads as the document does. limit, when above zero,
// cuts each string value to about that many bytes, saying how much was
// left out.
func eventJSON(h *catalyst.History, e *catalyst.Event, limit int) []byte {
	w := format.JSON{MaxString: limit, Resolution: h.TimeResolution, OutOfRange: h.OutOfRange()}
	return w.AppendEvent(nil, e)
}

// eventJSONLines renders an event's JSON indented, for the detail pane:
// every string escaped (inert on a terminal), each string value cut to
// format.PayloadShowBytes, saying how much of the source's bytes it
// shows. The whole is not cut again: a second "shown N of M" would count
// the JSON's bytes, not the payload's.
func eventJSONLines(h *catalyst.History, e *catalyst.Event) []string {
	flat := eventJSON(h, e, format.PayloadShowBytes)
	var out bytes.Buffer
	if err := json.Indent(&out, flat, "", "  "); err != nil {
		// Cannot happen: the writer only writes valid JSON. Show it flat
		// rather than nothing.
		return format.BlockLines(string(flat))
	}
	return format.BlockLines(out.String())
}
