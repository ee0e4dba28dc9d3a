package review

import (
	"strings"
)

// pkg is one Go package or one Python module: the scope in which a bare
// name resolves.
type pkg struct {
	key     string
	lang    Lang
	files   []*File
	funcs   map[string]*Func   // by Name ("F", "T.M")
	byShort map[string][]*Func // methods and functions by their short name
	globals []*Stmt
}

// index resolves names across every parsed file.
type index struct {
	pkgs  map[string]*pkg
	order []*pkg
	// registered maps a function to its registered activity name.
	registered map[*Func]string
	workflows  map[*Func]string
	// files by path, for excerpts.
	files map[string]*File
	// found memoises pkgFor; bySuffix lists packages by the last element
	// of their key.
	found    map[string]*pkg
	bySuffix map[string][]*pkg
	// types lists declared types by language and simple name
	// ("csharp:PaymentGateway"); implementers lists, by language and
	// simple name, the types that name it as a base.
	types        map[string][]declared
	implementers map[string][]declared
	// structural caches a Go interface's implementations.
	structural map[*TypeDecl][]declared
	// httpRetries are the retrying HTTP clients the tree configures.
	httpRetries []HTTPRetry
	// shortAll lists every function by language and short name
	// (byShortName builds it on first use).
	shortAll map[string][]*Func
	// rowsUsed are the library rows that answered a question.
	rowsUsed map[*api]bool
	// routeIdx are the tree's HTTP and service-invocation handlers, found
	// on first use (routes.go).
	routeIdx *routeIndex
}

// declared is a type declaration and the package that holds it.
type declared struct {
	decl *TypeDecl
	pkg  *pkg
}

func pkgKey(f *File) string { return string(f.Lang) + ":" + f.Package }

func newIndex(files []*File) *index {
	ix := &index{pkgs: map[string]*pkg{}, registered: map[*Func]string{}, workflows: map[*Func]string{}, files: map[string]*File{},
		found: map[string]*pkg{}, bySuffix: map[string][]*pkg{}, types: map[string][]declared{}, implementers: map[string][]declared{},
		structural: map[*TypeDecl][]declared{}, rowsUsed: map[*api]bool{}}
	for _, f := range files {
		ix.files[f.Path] = f
		k := pkgKey(f)
		p := ix.pkgs[k]
		if p == nil {
			p = &pkg{key: f.Package, lang: f.Lang, funcs: map[string]*Func{}, byShort: map[string][]*Func{}}
			ix.pkgs[k] = p
			ix.order = append(ix.order, p)
			ix.bySuffix[string(f.Lang)+":"+lastElem(f.Lang, f.Package)] = append(ix.bySuffix[string(f.Lang)+":"+lastElem(f.Lang, f.Package)], p)
		}
		p.files = append(p.files, f)
		p.globals = append(p.globals, f.Globals...)
		ix.httpRetries = append(ix.httpRetries, f.HTTPRetries...)
		for i := range f.Types {
			d := declared{&f.Types[i], p}
			ix.types[string(f.Lang)+":"+d.decl.Name] = append(ix.types[string(f.Lang)+":"+d.decl.Name], d)
			for _, b := range d.decl.Bases {
				k := string(f.Lang) + ":" + simpleName(b)
				ix.implementers[k] = append(ix.implementers[k], d)
			}
		}
		for _, fn := range f.Funcs {
			if _, dup := p.funcs[fn.Name]; !dup {
				p.funcs[fn.Name] = fn
			}
			p.byShort[fn.Short] = append(p.byShort[fn.Short], fn)
		}
	}
	return ix
}

func (ix *index) pkgOf(f *File) *pkg { return ix.pkgs[pkgKey(f)] }

// resolve finds the function a reference names, seen from file from: a
// local name, "?.Method" (a method value of unknown type: the package's
// only method of that name), or a name qualified by an import path or
// module.
func (ix *index) resolve(from *File, ref string) *Func {
	if ref == "" {
		return nil
	}
	p := ix.pkgOf(from)
	if m, ok := strings.CutPrefix(ref, "?."); ok {
		if p == nil {
			return nil
		}
		return only(p.byShort[m], true)
	}
	if p != nil {
		if fn := p.funcs[ref]; fn != nil {
			return fn
		}
	}
	// Qualified: split at the last '.' (Go "path/pkg.F"; Python
	// "pkg.mod.f", possibly "pkg.mod.Class.f").
	for cut := strings.LastIndexByte(ref, '.'); cut > 0; cut = strings.LastIndexByte(ref[:cut], '.') {
		mod, name := ref[:cut], ref[cut+1:]
		if q := ix.pkgFrom(from, mod); q != nil {
			if fn := q.funcs[name]; fn != nil {
				return fn
			}
		}
	}
	// C#: "Type.Method", the type in any namespace the file can see.
	if from.Lang == LangCSharp {
		if cut := strings.LastIndexByte(ref, '.'); cut > 0 {
			return ix.method(from, ref[:cut], ref[cut+1:])
		}
	}
	return nil
}

// simpleName is a type name without its namespace or generic arguments.
func simpleName(t string) string {
	if i := strings.IndexByte(t, '<'); i >= 0 {
		t = t[:i]
	}
	if i := strings.LastIndexByte(t, '.'); i >= 0 {
		t = t[i+1:]
	}
	return t
}

// maxBaseDepth bounds the walk up base classes and into implementations.
const maxBaseDepth = 4

// method finds the body of a type's method, seen from a file: the type
// (a simple or namespace-qualified name) is looked up among the tree's
// declarations, preferring the one the file can see; a method it does not
// declare is looked for in its base classes, and a method of an interface
// in its one implementation in the tree (two or more: nil, as the call
// could reach either).
func (ix *index) method(from *File, typ, name string) *Func {
	return ix.methodDepth(from, typ, name, 0)
}

func (ix *index) methodDepth(from *File, typ, name string, depth int) *Func {
	if depth > maxBaseDepth || typ == "" {
		return nil
	}
	simple := simpleName(typ)
	d, ok := ix.typeSeenFrom(from, simple, typeNamespace(typ))
	if !ok {
		return nil
	}
	fn := d.pkg.funcs[simple+"."+name]
	if fn != nil && !isStub(fn) {
		return fn
	}
	// An interface, an abstract method or a stub (Python's ABC: pass, ...,
	// raise NotImplementedError): the one implementation in the tree.
	if d.decl.Interface || d.decl.Abstract || fn != nil {
		var found *Func
		impls := ix.implementers[string(from.Lang)+":"+simple]
		if from.Lang == LangGo {
			impls = ix.implementsGo(d.decl)
		}
		var keyOf, key string // impl.decl.Name+"."+name, built once per type name
		for _, impl := range impls {
			if impl.decl.Interface || impl.decl.Abstract {
				continue
			}
			if key == "" || impl.decl.Name != keyOf {
				keyOf, key = impl.decl.Name, impl.decl.Name+"."+name
			}
			m := impl.pkg.funcs[key]
			if m == nil {
				m = ix.methodDepth(impl.pkg.files[0], impl.decl.Name, name, depth+1)
			}
			if m == nil || m == found || m == fn {
				continue
			}
			if found != nil {
				return nil // two implementations: either could run
			}
			found = m
		}
		if found != nil || d.decl.Interface {
			return found
		}
		if fn != nil {
			return fn
		}
	}
	for _, b := range d.decl.Bases {
		if fn := ix.methodDepth(from, b, name, depth+1); fn != nil {
			return fn
		}
	}
	return nil
}

// isStub reports whether a method's body does nothing but mark it for a
// subclass to implement: empty (pass), ..., raise NotImplementedError.
func isStub(fn *Func) bool {
	switch len(fn.Body) {
	case 0:
		return fn.File.Lang == LangPython
	case 1:
		s := fn.Body[0]
		switch {
		case s.Kind == StmtRaise && s.X != nil && (s.X.Name == "NotImplementedError" || s.X.Name == "NotImplementedException"):
			return true
		case s.Kind == StmtExpr && s.X != nil && s.X.Text == "...":
			return true
		}
	}
	return false
}

// implementsGo lists the Go types of the tree whose methods include
// every method of an interface (Go's implementation is structural).
func (ix *index) implementsGo(iface *TypeDecl) []declared {
	if out, ok := ix.structural[iface]; ok {
		return out
	}
	var out []declared
	if len(iface.Methods) > 0 {
		for _, p := range ix.order {
			if p.lang != LangGo {
				continue
			}
			for _, f := range p.files {
				for i := range f.Types {
					t := &f.Types[i]
					if t.Interface {
						continue
					}
					all := true
					for _, m := range iface.Methods {
						if p.funcs[t.Name+"."+m] == nil {
							all = false
							break
						}
					}
					if all {
						out = append(out, declared{t, p})
					}
				}
			}
		}
	}
	ix.structural[iface] = out
	return out
}

// fieldType is the declared type of a type's field or property, looked up
// in the type and the types it embeds or derives from ("" when the tree
// does not declare it).
func (ix *index) fieldType(from *File, typ, field string) string {
	return ix.fieldTypeDepth(from, typ, field, 0)
}

func (ix *index) fieldTypeDepth(from *File, typ, field string, depth int) string {
	if depth > maxBaseDepth || typ == "" {
		return ""
	}
	d, ok := ix.typeSeenFrom(from, simpleName(typ), typeNamespace(typ))
	if !ok {
		return ""
	}
	if t, ok := d.decl.Fields[field]; ok {
		return qualifyIn(d.pkg.files[0], t)
	}
	for _, b := range d.decl.Bases {
		if t := ix.fieldTypeDepth(d.pkg.files[0], b, field, depth+1); t != "" {
			return t
		}
	}
	return ""
}

// qualifyIn qualifies a Go type written in a file (billing.Client)
// with the import path its package name stands for.
func qualifyIn(f *File, t string) string {
	if f.Lang != LangGo {
		return t
	}
	if pk, name, ok := strings.Cut(t, "."); ok {
		if path, ok := f.Imports[pk]; ok {
			return path + "." + name
		}
	}
	return t
}

// typeNamespace is the namespace or import path a qualified type name
// carries ("" for a simple name).
func typeNamespace(t string) string {
	if i := strings.IndexByte(t, '<'); i >= 0 {
		t = t[:i]
	}
	if i := strings.LastIndexByte(t, '.'); i >= 0 {
		return t[:i]
	}
	return ""
}

// typeSeenFrom picks the declaration of a simple type name a file sees: in
// the namespace the name is qualified with, the file's own, one it imports,
// an enclosing one, else the only one in the tree.
func (ix *index) typeSeenFrom(from *File, simple, ns string) (declared, bool) {
	ns = strings.TrimLeft(ns, ".") // a Python relative import
	cands := ix.types[string(from.Lang)+":"+simple]
	if len(cands) == 0 {
		return declared{}, false
	}
	best, score := declared{}, -1
	for _, d := range cands {
		if from.Lang == LangGo && ns != "" && d.pkg.key != ns && !endsWithPart(ns, '/', d.pkg.key) {
			continue // a Go type qualified with another package's path
		}
		s := 0
		switch k := d.pkg.key; {
		case ns != "" && (k == ns || endsWithPart(k, '.', ns) || endsWithPart(ns, '.', k) || endsWithPart(ns, '/', k)):
			s = 5
		case k == from.Package:
			s = 4
		case contains(from.OpenImports, k):
			s = 3
		case len(from.Package) > len(k) && from.Package[len(k)] == '.' && strings.HasPrefix(from.Package, k):
			s = 2
		case len(cands) == 1:
			s = 1
		}
		if s > score {
			best, score = d, s
		}
	}
	if score <= 0 {
		return declared{}, false
	}
	return best, true
}

// endsWithPart reports whether s ends with sep followed by part
// (strings.HasSuffix(s, sep+part) without building the string: this runs
// for every declaration of a type's name at every lookup).
func endsWithPart(s string, sep byte, part string) bool {
	return len(s) > len(part) && s[len(s)-len(part)-1] == sep && strings.HasSuffix(s, part)
}

func only(fns []*Func, methodsOnly bool) *Func {
	var found *Func
	for _, fn := range fns {
		if methodsOnly && fn.Recv == "" {
			continue
		}
		if found != nil {
			return nil
		}
		found = fn
	}
	return found
}

// pkgFor finds the package a qualified module names: an exact key, else
// the longest key it ends with (a Go import path ends with the package's
// directory; a Python module name, relative, ends with the module's).
func (ix *index) pkgFor(lang Lang, mod string) *pkg {
	k := string(lang) + ":" + mod
	if p := ix.pkgs[k]; p != nil {
		return p
	}
	if p, ok := ix.found[k]; ok {
		return p
	}
	p := ix.searchPkg(lang, mod)
	ix.found[k] = p
	return p
}

// lastElem is a package key's last path or module element.
func lastElem(lang Lang, key string) string {
	sep := byte('/')
	if lang != LangGo {
		sep = '.'
	}
	if i := strings.LastIndexByte(key, sep); i >= 0 {
		return key[i+1:]
	}
	return key
}

// pkgFrom is pkgFor seen from a file: when several packages of the tree
// end with the module name (two services, each with src/models.py), the
// one nearest the importing file (the longest shared prefix) wins.
func (ix *index) pkgFrom(from *File, mod string) *pkg {
	if from.Lang == LangGo {
		return ix.pkgFor(from.Lang, mod)
	}
	if p := ix.pkgs[string(from.Lang)+":"+mod]; p != nil {
		return p
	}
	k := string(from.Lang) + ":" + from.Package + "\x00" + mod
	if p, ok := ix.found[k]; ok {
		return p
	}
	trimmed := strings.TrimLeft(mod, ".")
	var best *pkg
	bestShared := -1
	for _, p := range ix.bySuffix[string(from.Lang)+":"+lastElem(from.Lang, trimmed)] {
		if p.key == "" || p.key == "." {
			continue
		}
		if p.key == trimmed || strings.HasSuffix(trimmed, "."+p.key) || strings.HasSuffix(p.key, "."+trimmed) {
			shared := sharedPrefix(p.key, from.Package)
			if shared > bestShared || (shared == bestShared && len(p.key) > len(best.key)) {
				best, bestShared = p, shared
			}
		}
	}
	ix.found[k] = best
	return best
}

// sharedPrefix counts the leading dotted elements two module names share.
func sharedPrefix(a, b string) int {
	as, bs := strings.Split(a, "."), strings.Split(b, ".")
	n := 0
	for n < len(as) && n < len(bs) && as[n] == bs[n] {
		n++
	}
	return n
}

func (ix *index) searchPkg(lang Lang, mod string) *pkg {
	mod = strings.TrimLeft(mod, ".")
	sep := "/"
	if lang != LangGo {
		sep = "."
	}
	var best *pkg
	// A package matches when one key ends with the other: they share the
	// last element.
	for _, p := range ix.bySuffix[string(lang)+":"+lastElem(lang, mod)] {
		if p.key == "" || p.key == "." {
			continue
		}
		if p.key == mod || strings.HasSuffix(mod, sep+p.key) || strings.HasSuffix(p.key, sep+mod) {
			if best == nil || len(p.key) > len(best.key) {
				best = p
			}
		}
	}
	return best
}

// global returns the value assigned to a package-level name, or nil.
func (p *pkg) global(name string) *Expr {
	if p == nil {
		return nil
	}
	for _, s := range p.globals {
		for i, l := range s.Lhs {
			if l.Kind == ExprIdent && l.Name == name && i < len(s.Rhs) {
				return s.Rhs[i]
			}
		}
	}
	return nil
}
