package review

import (
	"regexp"
	"strconv"
	"strings"
)

// Reads are reads. A POST or a Dapr service invocation to a handler the
// reviewed tree defines does what that handler does: a handler that only
// searches, quotes or calculates is a read, one that writes is followed
// as a helper. The routes are found once per review: Python decorators
// (FastAPI's @app.post, Flask's @app.route(methods=[…]), dapr-ext-grpc's
// @app.method), ASP.NET attributes ([HttpPost("…")]) and minimal APIs
// (app.MapPost), and the Go routers' registrations (http.HandleFunc,
// gorilla/mux, chi's r.Post, gin's r.POST).

// route is one handler and the path it serves.
type route struct {
	segs    []string
	handler *Func
}

// routeIndex is the tree's routes.
type routeIndex struct {
	routes []route
}

// registrars are the calls that register a handler for a path (its first
// argument) with the handler as an argument after it.
var registrars = map[string]bool{
	"MapPost": true, "MapGet": true, "MapPut": true, "MapDelete": true, "MapPatch": true, "MapMethods": true,
	"HandleFunc": true, "Handle": true,
	"Post": true, "Get": true, "Put": true, "Delete": true, "Patch": true, "Method": true,
	"POST": true, "GET": true, "PUT": true, "DELETE": true, "PATCH": true, "Any": true,
	"add_url_rule": true, "add_api_route": true,
}

// routeDecorators are the Python decorators and C# attributes that name
// a handler's path.
var routeDecorators = map[string]bool{
	"post": true, "get": true, "put": true, "delete": true, "patch": true, "route": true, "api_route": true, "method": true,
	"HttpPost": true, "HttpGet": true, "HttpPut": true, "HttpDelete": true, "HttpPatch": true, "Route": true,
}

var quoted = regexp.MustCompile(`"([^"]*)"`)

// routeTable builds the tree's route index on first use and keeps it for the review.
func (ix *index) routeTable() *routeIndex {
	if ix.routeIdx != nil {
		return ix.routeIdx
	}
	ri := &routeIndex{}
	ix.routeIdx = ri
	for _, f := range ix.files {
		for _, fn := range f.Funcs {
			for _, d := range fn.Decorators {
				if p, ok := decoratorPath(d); ok {
					ri.add(p, fn)
				}
			}
			ri.registrations(ix, f, fn.Body)
		}
		ri.registrations(ix, f, f.Globals)
	}
	return ri
}

func (ri *routeIndex) add(path string, fn *Func) {
	if segs := pathSegments(path); len(segs) > 0 && fn != nil {
		ri.routes = append(ri.routes, route{segs: segs, handler: fn})
	}
}

// decoratorPath is the path a route decorator or attribute names.
func decoratorPath(d *Expr) (string, bool) {
	name := d.Name
	if d.Kind == ExprCall {
		if !routeDecorators[name] {
			return "", false
		}
		if a := d.Arg(0); a != nil && a.Kind == ExprString {
			return a.Str, true
		}
		for _, kw := range []string{"path", "rule", "name"} {
			if a := d.Keyword(kw); a != nil && a.Kind == ExprString {
				return a.Str, true
			}
		}
		return "", false
	}
	if !routeDecorators[name] {
		return "", false
	}
	if m := quoted.FindStringSubmatch(d.Text); m != nil {
		return m[1], true
	}
	return "", false
}

// registrations finds handler registrations in a list of statements.
func (ri *routeIndex) registrations(ix *index, f *File, list []*Stmt) {
	Walk(list, func(s *Stmt) bool {
		for _, e := range s.StmtExprs() {
			for _, c := range e.Calls() {
				if !registrars[c.Name] || len(c.Args) < 2 {
					continue
				}
				p := c.Arg(0)
				if p == nil || p.Kind != ExprString {
					continue
				}
				h := c.Args[len(c.Args)-1]
				ri.add(p.Str, handlerFunc(ix, f, h, p.Str))
			}
		}
		return true
	})
}

// handlerFunc is the function a registration names: a lambda written in
// place, or a function of the tree.
func handlerFunc(ix *index, f *File, h *Expr, path string) *Func {
	switch h.Kind {
	case ExprFunc:
		return &Func{Name: "the " + path + " handler", Short: path, Pos: h.Pos, Body: h.Body, File: f}
	case ExprIdent, ExprAttr:
		ref := h.Ref
		if ref == "" {
			ref = h.Name
			if h.Kind == ExprAttr {
				ref = h.Text
			}
		}
		return ix.resolve(f, ref)
	}
	return nil
}

// pathSegments splits a path or URL into its lower-case segments, the
// scheme, host and query dropped.
func pathSegments(p string) []string {
	if i := strings.Index(p, "://"); i >= 0 {
		p = p[i+3:]
		if j := strings.IndexByte(p, '/'); j >= 0 {
			p = p[j:]
		} else {
			p = ""
		}
	}
	if i := strings.IndexAny(p, "?#"); i >= 0 {
		p = p[:i]
	}
	var out []string
	for _, s := range strings.Split(p, "/") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, strings.ToLower(s))
		}
	}
	return out
}

// isParamSeg reports whether a route segment is a parameter ({id},
// <int:id>, :id) that matches any segment.
func isParamSeg(s string) bool {
	return strings.HasPrefix(s, "{") || strings.HasPrefix(s, "<") || strings.HasPrefix(s, ":") || s == "*"
}

// handlers are the tree's handlers whose path the called path ends
// with (a URL's path, or a service invocation's method name).
func (ri *routeIndex) handlers(path string) []*Func {
	segs := pathSegments(path)
	if len(segs) == 0 {
		return nil
	}
	var out []*Func
	for _, r := range ri.routes {
		if len(r.segs) > len(segs) {
			continue
		}
		tail := segs[len(segs)-len(r.segs):]
		ok := true
		for i, s := range r.segs {
			if s != tail[i] && !isParamSeg(s) {
				ok = false
				break
			}
		}
		if ok {
			out = append(out, r.handler)
		}
	}
	return out
}

// toHandler follows a POST or a service invocation into the tree's
// handlers for its path, and reports whether it did (the call then does
// what they do, and is no write of its own). A service invocation whose
// handler the tree does not hold is code twice cannot see, not a write.
func (w *walker) toHandler(eff effect, call *Expr, f *frame) bool {
	path := eff.invokePath
	if path == "" {
		if eff.kind != effPost || eff.row == nil || !eff.row.url.set {
			return false
		}
		u, ok := w.urlValue(eff.row.url.of(call), f, 0)
		if !ok || !ownURL(u) {
			return false
		}
		path = u
	}
	hs := nearest(w.ix.routeTable().handlers(path), f.file.Path)
	if len(hs) == 0 {
		if eff.kind == effPost && (eff.invokePath != "" || internalURL(path)) {
			w.noteOpaque(f, call, eff.what+" (its handler is not in the reviewed tree)")
			return true
		}
		return false
	}
	for _, h := range hs {
		if f.depth < maxDepth {
			w.follow(h, call, f)
		} else {
			w.noteOpaque(f, call, h.Name+" (deeper than "+strconv.Itoa(maxDepth)+" helper levels)")
		}
	}
	return true
}

// ownURL reports whether a URL may reach an app of the tree: a path
// with no host, or a host that is the sidecar or a service name
// (localhost, 127.0.0.1, a name with no dot), not a provider's domain.
func ownURL(u string) bool {
	i := strings.Index(u, "://")
	if i < 0 {
		return true
	}
	host := u[i+3:]
	if j := strings.IndexAny(host, "/?#"); j >= 0 {
		host = host[:j]
	}
	host, _, _ = strings.Cut(host, ":")
	return host == "" || host == "localhost" || strings.HasPrefix(host, "127.") || !strings.Contains(host, ".") ||
		strings.HasSuffix(host, ".svc.cluster.local") || strings.HasSuffix(host, ".svc") || strings.HasSuffix(host, ".internal")
}

// internalURL reports whether a URL names an app of the same system
// rather than a provider: the Dapr sidecar's service invocation
// (/v1.0/invoke/…/method/…), an /internal/ API, or a host that is
// localhost or a bare service name.
func internalURL(u string) bool {
	l := strings.ToLower(u)
	if strings.Contains(l, "/v1.0/invoke/") || strings.Contains(l, "/internal/") {
		return true
	}
	return strings.Contains(l, "://") && ownURL(l)
}

// urlValue is what a URL argument holds as far as the code says: a
// literal, a variable's value (a helper's parameter is the caller's
// argument), an interpolation whose base is a variable, a configuration
// read's default (os.environ.get("BASE", "http://svc:3000")), a helper's
// returned value, a concatenation. ok is false when nothing is known.
func (w *walker) urlValue(e *Expr, f *frame, depth int) (string, bool) {
	if e == nil || f == nil || depth > 6 {
		return "", false
	}
	switch e.Kind {
	case ExprString:
		if len(e.Args) > 0 && e.Args[0].Pos.IsValid() && (e.Pos.Line == e.Args[0].Pos.Line && e.Args[0].Pos.Col <= e.Pos.Col+3) {
			// f"{base}/path": the base's URL, then the literal parts.
			if base, ok := w.urlValue(e.Args[0], f, depth+1); ok {
				return strings.TrimRight(base, "/") + e.Str, true
			}
		}
		return e.Str, true
	case ExprIdent:
		if v := f.values[e.Name]; v != nil && v != e {
			if isParam(f.fn, e.Name) && f.caller != nil {
				return w.urlValue(v, f.caller, depth+1)
			}
			if !(v.Kind == ExprIdent && v.Name == e.Name) {
				return w.urlValue(v, f, depth+1)
			}
		}
		if v := w.ix.pkgOf(f.file).global(e.Name); v != nil && v != e {
			return w.urlValue(v, f, depth+1)
		}
	case ExprBinary:
		if e.Op == "+" {
			a, okA := w.urlValue(e.Arg(0), f, depth+1)
			b, _ := w.urlValue(e.Arg(1), f, depth+1)
			return a + b, okA
		}
	case ExprCall:
		switch e.Name {
		case "get", "getenv", "GetEnvironmentVariable", "Getenv", "LookupEnv":
			if d := e.Arg(1); d != nil {
				return w.urlValue(d, f, depth+1)
			}
			if d := e.Keyword("default"); d != nil {
				return w.urlValue(d, f, depth+1)
			}
			return "", false
		case "rstrip", "strip", "TrimEnd", "TrimRight", "TrimSuffix", "format":
			if r := e.Receiver(); r != nil {
				return w.urlValue(r, f, depth+1)
			}
		}
		if fn := w.helper(e, f); fn != nil {
			var ret *Expr
			Walk(fn.Body, func(s *Stmt) bool {
				if s.Kind == StmtReturn && len(s.Rhs) == 1 && ret == nil {
					ret = s.Rhs[0]
				}
				return ret == nil
			})
			if ret != nil {
				return w.urlValue(ret, &frame{fn: fn, file: fn.File, values: map[string]*Expr{}}, depth+1)
			}
		}
	}
	return "", false
}

// maxHandlers is how many handlers one call is followed into: those
// nearest the caller when the tree serves the path in several places
// (copies of a service, versions of a sample).
const maxHandlers = 2

// nearest keeps the handlers whose files share the most leading folders
// with the caller's, at most maxHandlers of them.
func nearest(hs []*Func, from string) []*Func {
	if len(hs) <= maxHandlers {
		return hs
	}
	best := -1
	var out []*Func
	for _, h := range hs {
		n := sharedDirs(h.File.Path, from)
		switch {
		case n > best:
			best, out = n, []*Func{h}
		case n == best && len(out) < maxHandlers:
			out = append(out, h)
		}
	}
	return out
}
