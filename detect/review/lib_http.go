package review

import (
	"strings"
)

// HTTP clients: Python's requests, httpx and aiohttp; Go's net/http;
// .NET's HttpClient (System.Net.Http and System.Net.Http.Json) and
// RestSharp. A POST repeats at the provider unless the request carries
// the provider's idempotency key (a header or field whose name says
// idempotency or dedup); a PUT or DELETE is idempotent by shape; a GET
// reads. raise_for_status() and EnsureSuccessStatusCode() raise a
// permanent 4xx as they raise a transient 5xx.
func libHTTP() library {
	const post = "repeats it at the provider"
	const refuses = "the provider refuses a repeated idempotency key (an Idempotency-Key header or field)"
	respWords := []string{"resp", "response", "res", "r"}
	return library{
		name:   "HTTP clients",
		source: "psf/requests 2.32 (api.py, models.py: raise_for_status); encode/httpx 0.28; Go net/http (go1.26); dotnet/runtime System.Net.Http HttpClient, System.Net.Http.Json; restsharp/RestSharp 112",
		modules: map[Lang][]string{
			LangPython: {"requests", "httpx", "aiohttp", "urllib", "http"},
			LangGo:     {"github.com/go-resty/"},
		},
		rows: []api{
			// A POST to a path that names a read (…/query, /search,
			// /checkDestination, /calculate-quote) asks, it changes nothing.
			{lang: LangPython, methods: []string{"post"}, hasRecv: true, when: func(c *libCall) bool { return urlReads(arg(0, "url").of(c.Expr), c.values) },
				kind: effRead, what: "POST {url} (a query)", url: arg(0, "url")},
			{lang: LangCSharp, methods: []string{"PostAsync", "PostAsJsonAsync", "PostJsonAsync"}, when: func(c *libCall) bool { return urlReads(c.Arg(0), c.values) },
				kind: effRead, what: "POST {url} (a query)", url: arg(0, "requestUri"), httpClient: true},
			// Python.
			{lang: LangPython, methods: []string{"post"}, hasRecv: true, kind: effPost, what: "POST {url}", url: arg(0, "url"), twice: post, refuses: refuses},
			{lang: LangPython, methods: []string{"request"}, when: func(c *libCall) bool { return hasStringArg(callArgOrKw(c.Expr, 0, "method"), "POST") },
				kind: effPost, what: "POST {url}", url: arg(1, "url"), twice: post, refuses: refuses},
			{lang: LangPython, methods: []string{"put", "delete"}, recv: []string{"requests", "httpx", "session", "client", "http"}, kind: effIdempotent, what: "{M}"},
			{lang: LangPython, methods: []string{"get"}, recv: []string{"requests", "httpx", "session", "client", "http"}, kind: effRead, what: "GET"},
			// Go.
			{lang: LangGo, ref: "net/http.Post", kind: effPost, what: "POST {url}", url: arg(0, ""), twice: post, refuses: refuses},
			{lang: LangGo, ref: "net/http.PostForm", kind: effPost, what: "POST {url}", url: arg(0, ""), twice: post, refuses: refuses},
			{lang: LangGo, methods: []string{"Post", "PostForm"}, hasRecv: true, noRef: true, kind: effPost, what: "POST {url}", url: arg(0, ""), twice: post, refuses: refuses},
			{lang: LangGo, ref: "net/http.NewRequest", when: func(c *libCall) bool { return goMethodPost(c.Arg(0)) }, kind: effPost, what: "POST {url}", url: arg(1, ""), twice: post, refuses: refuses},
			{lang: LangGo, ref: "net/http.NewRequestWithContext", when: func(c *libCall) bool { return goMethodPost(c.Arg(1)) }, kind: effPost, what: "POST {url}", url: arg(2, ""), twice: post, refuses: refuses},
			// .NET.
			{lang: LangCSharp, methods: []string{"HttpRequestMessage"}, newObj: true, decide: httpRequestMessage, twice: post, refuses: refuses},
			{lang: LangCSharp, methods: []string{"RestRequest"}, newObj: true, when: restRequestPost, kind: effPost, what: "POST {url}", url: arg(0, ""), httpClient: true, twice: post, refuses: refuses},
			{lang: LangCSharp, methods: []string{"PostAsync", "PostAsJsonAsync", "PostJsonAsync", "ExecutePostAsync"}, kind: effPost, what: "POST {url}", url: arg(0, "requestUri"), httpClient: true, twice: post, refuses: refuses},
			{lang: LangCSharp, methods: []string{"PutAsync", "PutAsJsonAsync", "DeleteAsync", "PutJsonAsync"}, kind: effIdempotent, what: "{verb}", httpClient: true},
			{lang: LangCSharp, methods: []string{"GetAsync", "GetFromJsonAsync", "GetStringAsync", "GetByteArrayAsync", "GetStreamAsync"}, kind: effRead, what: "GET {url}", url: arg(0, ""), httpClient: true},

			// Raising every error status.
			{methods: []string{"raise_for_status", "EnsureSuccessStatusCode"}, hasRecv: true, kind: kindStatusRaise, what: "{m}()"},

			// Whole response bodies.
			{attr: true, methods: []string{"text", "content", "body"}, recv: respWords, kind: kindWholeBody, what: "the whole response body"},
			{ref: "io.ReadAll", kind: kindWholeBody, what: "the whole response body"},
			{ref: "io/ioutil.ReadAll", kind: kindWholeBody, what: "the whole response body"},
			{methods: []string{"json", "read", "text"}, recv: respWords, when: func(c *libCall) bool { return len(c.Args) == 0 }, kind: kindWholeBody, what: "the whole response body"},
			{methods: []string{"ReadAsStringAsync", "ReadAsByteArrayAsync", "GetStringAsync", "GetByteArrayAsync"}, kind: kindWholeBody, what: "the whole response body"},
			{lang: LangCSharp, methods: []string{"ReadFromJsonAsync", "GetFromJsonAsync"}, kind: kindWholeBody, what: "the whole response document"},

			// Plumbing, not effects.
			{methods: []string{"raise_for_status", "json", "Do", "Header", "WithContext", "CreateClient", "EnsureSuccessStatusCode", "ReadFromJsonAsync",
				"ReadAsStringAsync", "ReadAsByteArrayAsync", "ReadAsStreamAsync"}, kind: kindNeutral},
		},
	}
}

// goMethodPost reports whether a Go method argument is POST.
func goMethodPost(method *Expr) bool {
	return method != nil && ((method.Kind == ExprString && strings.EqualFold(method.Str, "POST")) || method.Ref == "net/http.MethodPost")
}

// restRequestPost reports whether new RestRequest(…) names Method.Post.
func restRequestPost(c *libCall) bool {
	for _, a := range append(append([]*Expr(nil), c.Args...), c.Keyword("Method")) {
		if mentionsMethod(a, "Post") {
			return true
		}
	}
	return false
}

// httpRequestMessage classifies new HttpRequestMessage(method, url) by
// its method.
func httpRequestMessage(c *libCall, e *effect) bool {
	method := c.Arg(0)
	if method == nil {
		method = c.Keyword("Method")
	}
	url := c.Arg(1)
	if url == nil {
		url = c.Keyword("RequestUri")
	}
	e.http = true
	switch {
	case mentionsMethod(method, "Post"):
		e.kind, e.what = effPost, "POST "+urlText(url, nil)
	case mentionsMethod(method, "Put"), mentionsMethod(method, "Delete"):
		e.kind, e.what = effIdempotent, strings.ToUpper(method.Name)
	case mentionsMethod(method, "Get"):
		e.kind, e.what = effRead, "GET "+urlText(url, nil)
	default:
		return false
	}
	return true
}

// mentionsMethod reports whether an expression names an HTTP method:
// HttpMethod.Post, Method.Post, "POST".
func mentionsMethod(e *Expr, method string) bool {
	if e == nil {
		return false
	}
	switch e.Kind {
	case ExprAttr, ExprIdent:
		return e.Name == method || e.Name == strings.ToUpper(method)
	case ExprString:
		return strings.EqualFold(e.Str, method)
	}
	return false
}

// readSegments are the first words of a URL path's last segment that
// name a read: a POST there sends a query, not a change.
var readSegments = map[string]bool{
	"query": true, "search": true, "find": true, "lookup": true, "calculate": true, "quote": true, "estimate": true,
	"preview": true, "validate": true, "check": true, "count": true, "list": true, "get": true, "fetch": true,
	"retrieve": true, "read": true, "price": true, "rates": true, "convert": true, "translate": true, "completions": true,
	"embeddings": true, "predict": true, "classify": true, "verify": true, "resolve": true,
}

// urlReads reports whether a URL argument's path ends in a segment that
// names a read (resolving a variable to the string it holds).
func urlReads(u *Expr, values func(string) *Expr) bool {
	if u != nil && u.Kind == ExprIdent && values != nil {
		if v := values(u.Name); v != nil {
			u = v
		}
	}
	if u == nil || u.Kind != ExprString {
		return false
	}
	path := u.Str
	if i := strings.IndexAny(path, "?#"); i >= 0 {
		path = path[:i]
	}
	path = strings.TrimRight(path, "/")
	seg := path[strings.LastIndexByte(path, '/')+1:]
	seg = strings.TrimLeft(seg, "_:")
	ws := methodWords(seg)
	return len(ws) > 0 && readSegments[ws[0]]
}
