package houserules

import (
	"bufio"
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// tree is the Go code of a module as the rules see it: its packages by
// their path relative to the module's root ("internal/wiki", "grammar",
// "." for the root).
type tree struct {
	module string // the module path, from go.mod
	root   string
	fset   *token.FileSet
	pkgs   map[string]*pkg
	// arch is the text of ARCHITECTURE.md, nil when the file is missing.
	arch []byte
}

// pkg is one folder of Go files.
type pkg struct {
	path  string
	files []*file
}

// file is one Go file: its lines, and its syntax when it is not a test.
type file struct {
	name  string // relative to the module root, with slashes
	lines int
	test  bool
	ast   *ast.File // nil for a test file
}

// code returns the package's non-test files.
func (p *pkg) code() []*file {
	var out []*file
	for _, f := range p.files {
		if !f.test {
			out = append(out, f)
		}
	}
	return out
}

// codeLines returns the package's non-test lines.
func (p *pkg) codeLines() int {
	n := 0
	for _, f := range p.code() {
		n += f.lines
	}
	return n
}

// imports returns the package's non-test imports, each with the first
// place it appears.
func (t *tree) imports(p *pkg) map[string]token.Position {
	out := map[string]token.Position{}
	for _, f := range p.code() {
		for _, imp := range f.ast.Imports {
			path, err := strconv.Unquote(imp.Path.Value)
			if err != nil {
				continue
			}
			if _, ok := out[path]; !ok {
				out[path] = t.fset.Position(imp.Pos())
			}
		}
	}
	return out
}

// ours returns the module-relative path of an import of the module, and
// false for any other import.
func (t *tree) ours(imp string) (string, bool) {
	if imp == t.module {
		return ".", true
	}
	rel, ok := strings.CutPrefix(imp, t.module+"/")
	return rel, ok
}

// moduleRoot returns the folder holding go.mod, from dir up.
func moduleRoot(dir string) (string, error) {
	for d := dir; ; {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d, nil
		}
		up := filepath.Dir(d)
		if up == d {
			return "", fmt.Errorf("no go.mod above %s", dir)
		}
		d = up
	}
}

// load reads every Go file under root, but those in testdata, vendor,
// node_modules and folders whose name starts with "." or "_", as the go
// command skips them.
func load(root string) (*tree, error) {
	mod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return nil, fmt.Errorf("read go.mod: %w", err)
	}
	t := &tree{root: root, fset: token.NewFileSet(), pkgs: map[string]*pkg{}}
	sc := bufio.NewScanner(bytes.NewReader(mod))
	for sc.Scan() {
		if m, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "module "); ok {
			t.module = strings.Trim(strings.TrimSpace(m), `"`)
		}
	}
	if t.module == "" {
		return nil, fmt.Errorf("go.mod names no module")
	}
	if b, err := os.ReadFile(filepath.Join(root, "ARCHITECTURE.md")); err == nil {
		t.arch = b
	}
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (name == "testdata" || name == "vendor" || name == "node_modules" ||
				strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") {
			return nil
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		f := &file{name: rel, lines: bytes.Count(src, []byte("\n")), test: strings.HasSuffix(name, "_test.go")}
		if len(src) > 0 && src[len(src)-1] != '\n' {
			f.lines++
		}
		if !f.test {
			if f.ast, err = parser.ParseFile(t.fset, rel, src, parser.ParseComments|parser.SkipObjectResolution); err != nil {
				return err
			}
		}
		dir := filepath.ToSlash(filepath.Dir(rel))
		p := t.pkgs[dir]
		if p == nil {
			p = &pkg{path: dir}
			t.pkgs[dir] = p
		}
		p.files = append(p.files, f)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", root, err)
	}
	return t, nil
}

// sorted returns the tree's packages sorted by path.
func (t *tree) sorted() []*pkg {
	out := make([]*pkg, 0, len(t.pkgs))
	for _, p := range t.pkgs {
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].path < out[j].path })
	return out
}
