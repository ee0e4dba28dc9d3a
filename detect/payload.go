package detect

import (
	"encoding/json"
	"sort"
	"strings"
)

// idFields returns the id-like fields of an output: object keys named "id"
// or ending in _id / -id / Id / ID (and uuid, guid, reference), up to three
// levels deep, keyed by their dotted path; or, for an output that is one
// id-like string (a JSON string, or the bare text the Dapr CLI prints), that
// value under the path "result".
func idFields(text string) map[string]string {
	text = strings.TrimSpace(text)
	var v any
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil || dec.More() {
		if isIDValue(text) {
			return map[string]string{"result": text}
		}
		return nil
	}
	out := make(map[string]string)
	collectIDs(v, "", 0, out)
	return out
}

func collectIDs(v any, path string, depth int, out map[string]string) {
	switch x := v.(type) {
	case string:
		if path == "" && isIDValue(x) {
			out["result"] = x
		}
	case map[string]any:
		if depth >= 3 {
			return
		}
		for k, val := range x {
			p := k
			if path != "" {
				p = path + "." + k
			}
			switch y := val.(type) {
			case string:
				if isIDKey(k) && y != "" {
					out[p] = y
				}
			case json.Number:
				if isIDKey(k) {
					out[p] = y.String()
				}
			case map[string]any:
				collectIDs(y, p, depth+1, out)
			}
		}
	}
}

// isIDKey reports whether an object key names an identifier.
func isIDKey(k string) bool {
	lower := strings.ToLower(k)
	switch lower {
	case "id", "uuid", "guid", "reference", "ref":
		return true
	}
	return len(k) > 2 && (strings.HasSuffix(lower, "_id") || strings.HasSuffix(lower, "-id") ||
		strings.HasSuffix(k, "Id") || strings.HasSuffix(k, "ID"))
}

// isIDValue reports whether a bare string reads as an identifier
// ("ch_3PqZ", "msg_01J9Z7QK", "1Z999"): short, no spaces, and holding a
// digit or a separator.
func isIDValue(s string) bool {
	if len(s) < 3 || len(s) > 128 {
		return false
	}
	mark := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c <= ' ' || c == '"' || c == '{' || c == '[' || c >= 0x7f:
			return false
		case isDigit(c) || c == '_' || c == '-':
			mark = true
		}
	}
	return mark
}

// differingID finds an id-like field two outputs share whose values differ.
func differingID(a, b string) (field, va, vb string, ok bool) {
	fa, fb := idFields(a), idFields(b)
	for _, k := range sortedKeys(fa) {
		if y, found := fb[k]; found && y != fa[k] {
			return k, fa[k], y, true
		}
	}
	return "", "", "", false
}

// sharedID finds an id-like field every output holds with the same value.
func sharedID(texts []string) (field, value string, ok bool) {
	if len(texts) == 0 {
		return "", "", false
	}
	all := make([]map[string]string, len(texts))
	for i, t := range texts {
		all[i] = idFields(t)
	}
outer:
	for _, k := range sortedKeys(all[0]) {
		for _, m := range all[1:] {
			if m[k] != all[0][k] {
				continue outer
			}
		}
		return k, all[0][k], true
	}
	return "", "", false
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
