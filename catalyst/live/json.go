package live

import (
	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// The client reads and writes JSON with one library, go-json-experiment
// (the design of encoding/json/v2): one pass, and several times faster
// than encoding/json on a large history carried in an answer. A tool's
// result is read by catalyst.ParseToolResult, the parser a file holding
// one goes through.

// unmarshal decodes JSON a server sent into v, leniently, as encoding/json
// would: names match fields without regard to case (nor to '_' and '-'),
// a name given twice keeps its last value, and invalid UTF-8 is replaced;
// anything after the value is an error.
func unmarshal(data []byte, v any) error {
	return jsonv2.Unmarshal(data, v, jsonv2.MatchCaseInsensitiveNames(true),
		jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
}

// marshal encodes a request: a map's keys in sorted order, so the same
// request is always the same bytes.
func marshal(v any) ([]byte, error) {
	return jsonv2.Marshal(v, jsonv2.Deterministic(true))
}
