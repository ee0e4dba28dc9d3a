package review

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/twice-cli/twice/catalyst/regfile"
)

// Frontend turns one language's files into the language-neutral form.
type Frontend interface {
	// Lang is the language it reads.
	Lang() Lang
	// Match reports whether a file name is one it reviews.
	Match(name string) bool
	// Parse parses one file; name is its path with forward slashes.
	Parse(name string, src []byte) (*File, error)
}

// Options configure a review.
type Options struct {
	// Frontends are the parsers available in this build.
	Frontends []Frontend
	// Unavailable names the languages this build cannot parse, with why:
	// their files are counted as not reviewed, never silently skipped.
	Unavailable map[Lang]string
	// Workers is how many files are parsed at once (0: one per CPU).
	Workers int
	// MaxFileBytes skips larger files, saying so (0: 4 MiB).
	MaxFileBytes int64
	// FS, when set, is where the roots are read from (the bundled demo
	// services); nil reads the operating system's files.
	FS fs.FS
}

// DefaultMaxFileBytes is the largest source file reviewed by default.
const DefaultMaxFileBytes = 4 << 20

// LangOfFile returns the language a file name's extension says, or "".
func LangOfFile(name string) Lang {
	ext := strings.ToLower(path.Ext(name))
	for _, l := range languages {
		if l.ext == ext {
			return l.lang
		}
	}
	return ""
}

// skipDir reports whether a directory met while walking is left out:
// hidden directories, vendored and installed dependencies, caches.
func skipDir(name string) bool {
	switch name {
	case "vendor", "node_modules", "__pycache__", "site-packages", "venv", "env", "bin", "obj", "testdata":
		return true
	}
	return strings.HasPrefix(name, ".") && name != "." && name != ".."
}

type sourceFile struct {
	path    string // as opened
	display string // forward slashes, as shown
	fe      Frontend
	lang    Lang
}

// Review parses every source file under roots (files or directories) and
// reviews every activity and orchestrator it finds. A root that does not
// exist is an error; a file that does not parse is listed in
// Report.Skipped.
func Review(ctx context.Context, roots []string, opts Options) (*Report, error) {
	if len(roots) == 0 {
		return nil, errors.New("no source path given")
	}
	maxBytes := opts.MaxFileBytes
	if maxBytes <= 0 {
		maxBytes = DefaultMaxFileBytes
	}
	rep := &Report{Roots: roots, Files: map[Lang]int{}, Lines: map[Lang]int{}}
	var files []sourceFile
	notReviewed := map[Lang]int{}
	// Go modules (go.mod) in and above the roots: each Go package is
	// known by its import path, resolved against its own module.
	mods := goModules{}
	for _, root := range roots {
		var st fs.FileInfo
		var err error
		if opts.FS != nil {
			st, err = fs.Stat(opts.FS, root)
		} else {
			st, err = os.Stat(root)
		}
		if err != nil {
			return nil, fmt.Errorf("source %s: %w", root, err)
		}
		add := func(p string) {
			disp := filepath.ToSlash(p)
			for _, fe := range opts.Frontends {
				if fe.Match(disp) {
					files = append(files, sourceFile{path: p, display: disp, fe: fe, lang: fe.Lang()})
					return
				}
			}
			if l := LangOfFile(disp); l != "" {
				if _, ok := opts.Unavailable[l]; ok {
					notReviewed[l]++
				}
			}
		}
		if opts.FS == nil {
			mods.above(root, st.IsDir())
		}
		if !st.IsDir() {
			add(root)
			continue
		}
		walk := filepath.WalkDir
		if opts.FS != nil {
			walk = func(root string, fn fs.WalkDirFunc) error { return fs.WalkDir(opts.FS, root, fn) }
		}
		// A root that is a link to a folder is followed (the user named
		// it); links inside the tree are not. WalkDir does not follow its
		// root, but does through a trailing separator.
		from := root
		if opts.FS == nil {
			if lst, lerr := os.Lstat(root); lerr == nil && lst.Mode()&fs.ModeSymlink != 0 {
				from = root + string(filepath.Separator)
			}
		}
		err = walk(from, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				rep.Skipped = append(rep.Skipped, Skipped{File: filepath.ToSlash(p), Reason: err.Error()})
				if d != nil && d.IsDir() {
					return fs.SkipDir
				}
				return nil
			}
			if d.IsDir() {
				if p != from && skipDir(d.Name()) {
					return fs.SkipDir
				}
				return nil
			}
			if d.Type().IsRegular() {
				if d.Name() == "go.mod" {
					mods.read(opts.FS, p)
				}
				add(p)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	for l, n := range notReviewed {
		if rep.Unavailable == nil {
			rep.Unavailable = map[Lang]string{}
		}
		rep.Unavailable[l] = fmt.Sprintf("%d %s file(s) not reviewed: %s", n, l.Title(), opts.Unavailable[l])
	}
	parsed, skipped, err := parseAll(ctx, files, opts.Workers, maxBytes, opts.FS)
	if err != nil {
		return nil, err
	}
	rep.Skipped = append(rep.Skipped, skipped...)
	mods.importPaths(parsed)
	for _, f := range parsed {
		rep.Files[f.Lang]++
		rep.Lines[f.Lang] += f.Lines
		if f.Build != "" {
			rep.Builds = append(rep.Builds, BuildNote{File: f.Path, Build: f.Build})
		}
	}
	if err := analyze(ctx, rep, parsed); err != nil {
		return nil, err
	}
	return rep, nil
}

// parseAll reads and parses files on every core, keeping their order.
func parseAll(ctx context.Context, files []sourceFile, workers int, maxBytes int64, fsys fs.FS) ([]*File, []Skipped, error) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	out := make([]*File, len(files))
	errs := make([]string, len(files))
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				if ctx.Err() != nil {
					continue // stopped: the files handed out are not read
				}
				sf := files[i]
				src, err := readCapped(fsys, sf.path, maxBytes)
				if err != nil {
					errs[i] = err.Error()
					continue
				}
				f, err := parseOne(sf.fe, sf.display, src)
				var deep *TooDeepError
				switch {
				case errors.As(err, &deep):
					errs[i] = deep.Error()
					continue
				case err != nil:
					errs[i] = "does not parse: " + firstLine(err.Error())
					continue
				}
				out[i] = f
			}
		}()
	}
	var cerr error
	for i := range files {
		if cerr = ctx.Err(); cerr != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	if cerr != nil {
		return nil, nil, cerr
	}
	var parsed []*File
	var skipped []Skipped
	for i, f := range out {
		if f != nil {
			parsed = append(parsed, f)
		} else if errs[i] != "" {
			skipped = append(skipped, Skipped{File: files[i].display, Reason: errs[i]})
		}
	}
	return parsed, skipped, nil
}

// parseOne parses one file; a front-end that fails on it (a panic in a
// grammar's converter) skips that file, saying so, instead of stopping
// the review.
func parseOne(fe Frontend, name string, src []byte) (f *File, err error) {
	defer func() {
		if r := recover(); r != nil {
			f, err = nil, fmt.Errorf("twice's %s front-end failed on this file (%v): please report it", fe.Lang().Title(), r)
		}
	}()
	f, err = fe.Parse(name, src)
	if err == nil {
		// Every walk over the neutral form is recursive: a form nested
		// past MaxNesting is refused here, whatever made it.
		err = CheckNesting(f)
	}
	if err != nil {
		return nil, err
	}
	return f, nil
}

// readCapped reads one source file: only a regular file (a named pipe, a
// device or a link to one is refused before a byte is read), through a
// reader that stops at the cap whatever the file's size said.
func readCapped(fsys fs.FS, p string, maxBytes int64) ([]byte, error) {
	var b []byte
	var err error
	if fsys == nil {
		b, err = regfile.ReadFile(p, maxBytes)
	} else {
		b, err = readFSCapped(fsys, p, maxBytes)
	}
	var tooLarge *regfile.TooLargeError
	var notRegular *regfile.NotRegularError
	switch {
	case errors.As(err, &tooLarge):
		return nil, fmt.Errorf("larger than %d bytes: not reviewed", maxBytes)
	case errors.As(err, &notRegular):
		return nil, fmt.Errorf("%s, not a regular file: not read", regfile.Kind(notRegular.Mode))
	case err != nil:
		return nil, err
	}
	if bytes.IndexByte(b, 0) >= 0 {
		return nil, errors.New("holds NUL bytes: not source text")
	}
	return b, nil
}

// readFSCapped is readCapped for a file system given as an fs.FS.
func readFSCapped(fsys fs.FS, p string, maxBytes int64) ([]byte, error) {
	f, err := fsys.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, &regfile.NotRegularError{Path: p, Mode: st.Mode().Type()}
	}
	return regfile.ReadAll(f, p, maxBytes)
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// sortReport puts everything in a stable order.
func sortReport(rep *Report) {
	sort.SliceStable(rep.Activities, func(i, j int) bool {
		a, b := rep.Activities[i], rep.Activities[j]
		if a.Name != b.Name {
			return a.Name < b.Name
		}
		return lessLoc(a.Location, b.Location)
	})
	sort.SliceStable(rep.Workflows, func(i, j int) bool {
		a, b := rep.Workflows[i], rep.Workflows[j]
		if a.Name != b.Name {
			return a.Name < b.Name
		}
		return lessLoc(a.Location, b.Location)
	})
	sort.SliceStable(rep.Hazards, func(i, j int) bool { return lessHazard(rep.Hazards[i], rep.Hazards[j]) })
	for i := range rep.Activities {
		hs := rep.Activities[i].Hazards
		sort.SliceStable(hs, func(i, j int) bool { return lessHazard(hs[i], hs[j]) })
	}
	sort.SliceStable(rep.Skipped, func(i, j int) bool { return rep.Skipped[i].File < rep.Skipped[j].File })
}

func lessLoc(a, b Location) bool {
	if a.File != b.File {
		return a.File < b.File
	}
	if a.Line != b.Line {
		return a.Line < b.Line
	}
	return a.Col < b.Col
}

func lessHazard(a, b Hazard) bool {
	if a.Location != b.Location {
		return lessLoc(a.Location, b.Location)
	}
	if a.Rule != b.Rule {
		return a.Rule < b.Rule
	}
	return a.Activity < b.Activity
}
