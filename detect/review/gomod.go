package review

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// goModules maps a folder, as the review shows paths, to the import path
// of the Go package in it: a module's root folder to its module path.
// A repository may hold several modules (go.mod files below the root, a
// go.work), and the review may start inside one: every package's imports
// resolve against its own module.
type goModules map[string]string

// modulePath reads a go.mod's module line ("" when it has none).
func modulePath(src []byte) string {
	for _, line := range strings.Split(string(src), "\n") {
		line = strings.TrimSpace(line)
		if rest, ok := strings.CutPrefix(line, "module"); ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t') {
			if i := strings.Index(rest, "//"); i >= 0 {
				rest = rest[:i]
			}
			return strings.Trim(strings.TrimSpace(rest), `"`+"`")
		}
	}
	return ""
}

// read records the module a go.mod met while walking declares.
func (m goModules) read(fsys fs.FS, p string) {
	var src []byte
	var err error
	if fsys != nil {
		src, err = fs.ReadFile(fsys, p)
	} else {
		src, err = os.ReadFile(p)
	}
	if err != nil {
		return
	}
	if mp := modulePath(src); mp != "" {
		m[path.Dir(filepath.ToSlash(p))] = mp
	}
}

// maxModuleClimb bounds the search for a go.mod above a root.
const maxModuleClimb = 32

// above records the module a root lies in when its go.mod is above it
// (twice review ./services/payments in a module rooted higher up).
func (m goModules) above(root string, isDir bool) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return
	}
	dir := abs
	if !isDir {
		dir = filepath.Dir(abs)
	}
	rootDisp := filepath.ToSlash(root)
	if !isDir {
		rootDisp = path.Dir(rootDisp)
	}
	for i := 0; i < maxModuleClimb; i++ {
		if src, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil {
			mp := modulePath(src)
			if mp == "" {
				return
			}
			start := abs
			if !isDir {
				start = filepath.Dir(abs)
			}
			rel, err := filepath.Rel(dir, start)
			if err != nil {
				return
			}
			if rel != "." {
				mp += "/" + filepath.ToSlash(rel)
			}
			if _, ok := m[rootDisp]; !ok {
				m[rootDisp] = mp
			}
			return
		}
		up := filepath.Dir(dir)
		if up == dir {
			return
		}
		dir = up
	}
}

// importPaths sets every Go file's Package to its import path, when a
// module holds it.
func (m goModules) importPaths(files []*File) {
	if len(m) == 0 {
		return
	}
	for _, f := range files {
		if f.Lang != LangGo {
			continue
		}
		dir := path.Dir(f.Path)
		best, prefix := "", ""
		found := false
		for d, mp := range m {
			rest, ok := within(dir, d)
			if ok && (!found || len(d) > len(best)) {
				best, found = d, true
				prefix = mp
				if rest != "" {
					prefix += "/" + rest
				}
			}
		}
		if found {
			f.Package = prefix
		}
	}
}

// within reports whether folder dir is d or below it, and the rest of
// the path below d.
func within(dir, d string) (string, bool) {
	switch {
	case dir == d:
		return "", true
	case d == ".":
		if path.IsAbs(dir) || dir == ".." || strings.HasPrefix(dir, "../") {
			return "", false
		}
		return dir, true
	case strings.HasPrefix(dir, d+"/"):
		return dir[len(d)+1:], true
	case d == "/":
		return strings.TrimPrefix(dir, "/"), path.IsAbs(dir)
	}
	return "", false
}
