package review

import "strings"

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
			// Python's dict lookups: input.get("order_id") on the activity's
			// input, a parameter, a literal or a decoded document reads no
			// store (a store's get is a read: cache.get(key)).
			{lang: LangPython, methods: []string{"get", "keys", "items", "values"}, hasRecv: true, when: func(c *libCall) bool { return dictValue(c, c.recv, 0) }, kind: kindNeutral},
		},
	}
}

// dictValue reports whether a Python .get's receiver is a dict the body
// holds in memory rather than a store: a literal, a decoded document, a
// lookup in one, or any value not named as a client or store (Python
// code reads its inputs, options and documents with .get; a store's get
// is written on a client: cache.get, self.repo.get).
func dictValue(c *libCall, e *Expr, depth int) bool {
	if e == nil || depth > 4 {
		return false
	}
	switch e.Kind {
	case ExprComposite:
		return true
	case ExprIndex:
		return dictValue(c, e.X, depth+1)
	case ExprCall:
		switch e.Name {
		case "get", "dict", "loads", "json", "model_dump", "to_dict", "asdict", "copy", "setdefault":
			return true
		}
		return false
	case ExprIdent:
		if c.values != nil {
			// A helper's parameter holds the caller's argument; the same
			// name passed along is the parameter itself.
			if v := c.values(e.Name); v != nil && !(v.Kind == ExprIdent && v.Name == e.Name) && v != e {
				if v.Kind == ExprCall && v.Name != "" && !dictValue(c, v, depth+1) {
					return !storeName(v.Name) && !storeName(e.Name) && v.Ref == ""
				}
				return dictValue(c, v, depth+1) || !storeName(e.Name)
			}
		}
		return !storeName(e.Name)
	case ExprAttr:
		return !storeName(e.Name) && !storeName(rootName(e))
	}
	return false
}

// storeName reports whether a name says a client, store or connection.
func storeName(name string) bool {
	n := strings.ToLower(name)
	for _, w := range []string{"client", "store", "repo", "cache", "db", "session", "conn", "redis", "table", "collection", "api", "service", "kv", "bucket", "queue", "dao", "memcache"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}
