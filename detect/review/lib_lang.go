package review

// The languages' own: in-memory collections, strings, encoding, errors,
// synchronisation, and the standard and common libraries whose calls have
// no effect the review must see. A call into a module no library lists is
// code twice cannot see (Activity.Opaque).
func libLang() library {
	return library{
		name:   "Languages and standard libraries",
		source: "Python's built-in types and standard library; Go's standard library (every import path without a dot is known); .NET's System and Microsoft namespaces",
		modules: map[Lang][]string{
			LangPython: {"json", "os", "sys", "re", "math", "hashlib", "hmac", "base64", "typing", "dataclasses", "decimal", "enum", "functools",
				"itertools", "collections", "ssl", "socket", "string", "textwrap", "copy", "pydantic", "jinja2", "azure"},
			LangGo:     {"github.com/pkg/errors", "golang.org/x/"},
			LangCSharp: {"System", "Microsoft", "Azure", "Newtonsoft"},
		},
		rows: []api{
			{methods: []string{
				// Python's lists, dicts, sets and strings.
				"append", "extend", "insert", "add", "update", "pop", "remove", "setdefault", "clear", "sort", "copy", "join", "split", "format",
				"encode", "decode", "set", "put", "delete", "send_keys", "cancel",
				// Go's maps, sync, http.Header, url.Values, contexts, errors and encoders.
				"Set", "Add", "Del", "Append", "Store", "Put", "Lock", "Unlock", "Done", "Delete", "Reset", "Cancel",
				"Marshal", "Unmarshal", "Encode", "Decode", "String", "Err", "Unwrap", "New",
				// .NET.
				"Dispose", "DisposeAsync",
			}, kind: kindNeutral},
		},
	}
}
