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
}

// declared is a type declaration and the package that holds it.
type declared struct {
	decl *TypeDecl
	pkg  *pkg
}

func pkgKey(f *File) string { return string(f.Lang) + ":" + f.Package }

func newIndex(files []*File) *index {
	ix := &index{pkgs: map[string]*pkg{}, registered: map[*Func]string{}, workflows: map[*Func]string{}, files: map[string]*File{},
		found: map[string]*pkg{}, bySuffix: map[string][]*pkg{}, types: map[string][]declared{}, implementers: map[string][]declared{}}
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
		if q := ix.pkgFor(from.Lang, mod); q != nil {
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
	ns := ""
	if i := strings.LastIndexByte(typ, '.'); i >= 0 && !strings.Contains(typ[:i], "<") {
		ns = typ[:i]
	}
	d, ok := ix.typeSeenFrom(from, simple, ns)
	if !ok {
		return nil
	}
	if fn := d.pkg.funcs[simple+"."+name]; fn != nil {
		return fn
	}
	if d.decl.Interface {
		var found *Func
		for _, impl := range ix.implementers[string(from.Lang)+":"+simple] {
			if impl.decl.Interface || impl.decl.Abstract {
				continue
			}
			fn := impl.pkg.funcs[impl.decl.Name+"."+name]
			if fn == nil {
				fn = ix.methodDepth(impl.pkg.files[0], impl.decl.Name, name, depth+1)
			}
			if fn == nil || fn == found {
				continue
			}
			if found != nil {
				return nil // two implementations: either could run
			}
			found = fn
		}
		return found
	}
	for _, b := range d.decl.Bases {
		if fn := ix.methodDepth(from, b, name, depth+1); fn != nil {
			return fn
		}
	}
	return nil
}

// typeSeenFrom picks the declaration of a simple type name a file sees: in
// the namespace the name is qualified with, the file's own, one it imports,
// an enclosing one, else the only one in the tree.
func (ix *index) typeSeenFrom(from *File, simple, ns string) (declared, bool) {
	cands := ix.types[string(from.Lang)+":"+simple]
	if len(cands) == 0 {
		return declared{}, false
	}
	best, score := declared{}, -1
	for _, d := range cands {
		s := 0
		switch k := d.pkg.key; {
		case ns != "" && (k == ns || strings.HasSuffix(k, "."+ns)):
			s = 5
		case k == from.Package:
			s = 4
		case contains(from.OpenImports, k):
			s = 3
		case strings.HasPrefix(from.Package, k+"."):
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
