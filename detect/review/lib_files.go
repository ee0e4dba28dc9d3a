package review

import "strings"

// Files and blobs: Python's open() and aiofiles in append mode, Go's
// os.OpenFile with O_APPEND, .NET's File.Append* and StreamWriter with
// append: true, Azure Storage's append blobs. A second run appends the
// content again.
func libFiles() library {
	const dup = "duplicates the content"
	return library{
		name:   "Files and append blobs",
		source: "Python io.open (mode \"a\"), Tinche/aiofiles; Go os.OpenFile (os.O_APPEND); dotnet/runtime System.IO.File.AppendAllText, StreamWriter(path, append); Azure/azure-sdk-for-python and -net azure-storage-blob AppendBlobClient.append_block / AppendBlockAsync",
		modules: map[Lang][]string{
			LangPython: {"pathlib", "io", "csv"},
		},
		rows: []api{
			// .NET.
			{lang: LangCSharp, ref: "System.IO.File.Append*", kind: effAppend, what: "File.{m}", twice: dup},
			{lang: LangCSharp, methods: []string{"StreamWriter"}, newObj: true, when: func(c *libCall) bool { return isTrue(c.Keyword("append")) || isTrue(c.Arg(1)) },
				kind: effAppend, what: "new StreamWriter(…, append: true)", twice: dup},
			{lang: LangCSharp, methods: []string{"AppendBlockAsync"}, kind: effAppend, what: "{m}", twice: dup},
			{lang: LangCSharp, methods: []string{"AppendAsync"}, recv: []string{"blob"}, kind: effAppend, what: "{m}", twice: dup},
			// Python.
			{lang: LangPython, methods: []string{"open"}, when: func(c *libCall) bool {
				return (c.recv == nil || c.ref == "aiofiles.open") && isAppendMode(callArgOrKw(c.Expr, 1, "mode"))
			}, kind: effAppend, what: "open(…, \"a\")", twice: dup},
			{lang: LangPython, methods: []string{"open"}, hasRecv: true, when: func(c *libCall) bool { return isAppendMode(callArgOrKw(c.Expr, 0, "mode")) },
				kind: effAppend, what: "open(\"a\")", twice: dup},
			// Go.
			{ref: "os.OpenFile", when: func(c *libCall) bool { return mentions(c.Arg(1), "os.O_APPEND") }, kind: effAppend, what: "os.OpenFile(…, os.O_APPEND…)", twice: dup},
			// Azure Storage append blobs.
			{methods: []string{"append_block", "AppendBlock", "append_blob_from_text", "AppendBlockFromURL"}, kind: effAppend, what: "{m}", twice: dup},

			{methods: []string{"write", "Write", "close", "Close"}, kind: kindNeutral},
		},
	}
}

func isAppendMode(e *Expr) bool {
	return e != nil && e.Kind == ExprString && strings.HasPrefix(e.Str, "a")
}
