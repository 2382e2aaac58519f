package houserules

import (
	"bufio"
	"bytes"
	"fmt"
	"go/ast"
	"go/token"
	"regexp"
	"slices"
	"strings"
)

// rules holds what the checks read: the tables of rules_test.go, or a
// test's own.
type rules struct {
	rooms       map[string]room
	owners      map[string]string
	exec        map[string]string
	big         map[string]string
	doors       map[string][]door
	exceptions  []exception
	maxPkgLines int
	maxFileLine int
}

// house returns the rules of rules_test.go.
func house() rules {
	return rules{rooms: rooms, owners: owners, exec: execAllowed, big: bigPackages, doors: sideDoors,
		exceptions: exceptions, maxPkgLines: maxPackageLines, maxFileLine: maxFileLines}
}

// excepted reports whether an exception lets pkg break rule for what.
func (r rules) excepted(rule, pkg, what string) bool {
	for _, e := range r.exceptions {
		if e.rule != rule || e.pkg != pkg {
			continue
		}
		if e.what == what || strings.HasSuffix(e.what, "/") && strings.HasPrefix(what, e.what) {
			return true
		}
	}
	return false
}

// under reports whether package p is dir or a package beneath it.
func under(p, dir string) bool { return p == dir || strings.HasPrefix(p, dir+"/") }

// checkImports reports each package without a room, and each import of
// ours that its room does not list or that goes up a floor.
func checkImports(t *tree, r rules) []string {
	var bad []string
	for _, p := range t.sorted() {
		if len(p.code()) == 0 {
			continue
		}
		rm, ok := r.rooms[p.path]
		if !ok {
			bad = append(bad, fmt.Sprintf("%s has no room in the house: give it a floor and its imports in internal/houserules/rules_test.go, and its line in ARCHITECTURE.md", p.path))
			continue
		}
		imps := t.imports(p)
		for _, imp := range sortedKeys(imps) {
			dep, ours := t.ours(imp)
			if !ours || r.excepted(ruleImports, p.path, dep) {
				continue
			}
			to, known := r.rooms[dep]
			switch {
			case !slices.Contains(rm.imports, dep):
				bad = append(bad, fmt.Sprintf("%s: %s (floor %d) may not import %s", imps[imp], p.path, rm.floor, dep))
			case known && to.floor > rm.floor:
				bad = append(bad, fmt.Sprintf("%s: %s (floor %d) imports %s, a floor up (%d)", imps[imp], p.path, rm.floor, dep, to.floor))
			}
		}
	}
	return bad
}

// checkOwners reports each import of a heavy dependency from outside its
// owner.
func checkOwners(t *tree, r rules) []string {
	var bad []string
	for _, p := range t.sorted() {
		imps := t.imports(p)
		for _, imp := range sortedKeys(imps) {
			for prefix, owner := range r.owners {
				if strings.HasPrefix(imp, prefix) && !under(p.path, owner) && !r.excepted(ruleOwner, p.path, imp) {
					bad = append(bad, fmt.Sprintf("%s: %s imports %s, which %s alone imports", imps[imp], p.path, imp, owner))
				}
			}
		}
	}
	return bad
}

// checkExec reports os/exec imported where no program need be run.
func checkExec(t *tree, r rules) []string {
	var bad []string
	for _, p := range t.sorted() {
		if pos, ok := t.imports(p)["os/exec"]; ok {
			if _, allowed := r.exec[p.path]; !allowed {
				bad = append(bad, fmt.Sprintf("%s: %s imports os/exec, which only packages that run another program may", pos, p.path))
			}
		}
	}
	return bad
}

// checkBounds reports a package over its bound of non-test lines and a Go
// file over its bound of lines.
func checkBounds(t *tree, r rules) []string {
	var bad []string
	for _, p := range t.sorted() {
		if _, big := r.big[p.path]; !big {
			if n := p.codeLines(); n > r.maxPkgLines {
				bad = append(bad, fmt.Sprintf("%s has %d non-test lines, over %d: split it along a seam you can name", p.path, n, r.maxPkgLines))
			}
		}
		for _, f := range p.files {
			if f.lines > r.maxFileLine {
				bad = append(bad, fmt.Sprintf("%s has %d lines, over %d", f.name, f.lines, r.maxFileLine))
			}
		}
	}
	return bad
}

// checkDocs reports a package whose code has no package comment.
func checkDocs(t *tree, _ rules) []string {
	var bad []string
	for _, p := range t.sorted() {
		code := p.code()
		if len(code) == 0 {
			continue
		}
		documented := false
		for _, f := range code {
			if f.ast.Doc != nil && strings.TrimSpace(f.ast.Doc.Text()) != "" {
				documented = true
			}
		}
		if !documented {
			bad = append(bad, fmt.Sprintf("%s has no package comment", p.path))
		}
	}
	return bad
}

// mapEntry matches a package's line in ARCHITECTURE.md: a list item that
// starts with package paths in backquotes, then a dash.
var mapEntry = regexp.MustCompile("^- ((?:`[^`]+`(?:, )?)+) — ")

// mapped returns the packages ARCHITECTURE.md gives a line.
func mapped(arch []byte) map[string]bool {
	out := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(arch))
	for sc.Scan() {
		m := mapEntry.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		for _, name := range strings.Split(m[1], ", ") {
			out[strings.Trim(name, "`")] = true
		}
	}
	return out
}

// checkMap reports a package without its line in ARCHITECTURE.md, and a
// line naming a package that is not in the tree.
func checkMap(t *tree, r rules) []string {
	if t.arch == nil {
		return []string{"ARCHITECTURE.md is missing at the repository's root"}
	}
	lines := mapped(t.arch)
	var bad []string
	for _, p := range t.sorted() {
		if !lines[p.path] {
			bad = append(bad, fmt.Sprintf("%s has no line in ARCHITECTURE.md", p.path))
		}
	}
	for _, name := range sortedKeys(lines) {
		if t.pkgs[name] == nil && !r.excepted(ruleMap, name, name) {
			bad = append(bad, fmt.Sprintf("ARCHITECTURE.md names %s, which is no package", name))
		}
	}
	return bad
}

// checkDoors reports the side doors of sideDoors.
func checkDoors(t *tree, r rules) []string {
	var bad []string
	for _, p := range t.sorted() {
		doors := r.doors[p.path]
		for _, f := range p.code() {
			ast.Inspect(f.ast, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.SelectorExpr:
					for _, d := range doors {
						if d.selector != "" && n.Sel.Name == d.selector {
							bad = append(bad, fmt.Sprintf("%s: .%s %s", t.fset.Position(n.Pos()), d.selector, d.why))
						}
					}
				case *ast.BasicLit:
					for _, d := range doors {
						if d.literal != "" && n.Kind == token.STRING && strings.Contains(n.Value, d.literal) {
							bad = append(bad, fmt.Sprintf("%s: %q %s", t.fset.Position(n.Pos()), d.literal, d.why))
						}
					}
				case *ast.TypeAssertExpr:
					for _, d := range doors {
						if _, ok := n.Type.(*ast.InterfaceType); ok && d.hidden {
							bad = append(bad, fmt.Sprintf("%s: %s", t.fset.Position(n.Pos()), d.why))
						}
						if sel, ok := n.X.(*ast.SelectorExpr); ok && d.assertOn != "" && sel.Sel.Name == d.assertOn {
							bad = append(bad, fmt.Sprintf("%s: %s", t.fset.Position(n.Pos()), d.why))
						}
					}
				}
				return true
			})
		}
	}
	return bad
}

// checkExceptions reports more than five exceptions, one without a reason,
// and one that excuses nothing any more.
func checkExceptions(t *tree, r rules) []string {
	var bad []string
	if len(r.exceptions) > 5 {
		bad = append(bad, fmt.Sprintf("%d exceptions: the table holds five at most; fix the code instead", len(r.exceptions)))
	}
	for _, e := range r.exceptions {
		if strings.TrimSpace(e.why) == "" {
			bad = append(bad, fmt.Sprintf("the exception of %s for %s %s gives no reason", e.pkg, e.rule, e.what))
		}
		strict := r
		strict.exceptions = slices.DeleteFunc(slices.Clone(r.exceptions), func(x exception) bool { return x == e })
		var before, after int
		switch e.rule {
		case ruleImports:
			before, after = len(checkImports(t, r)), len(checkImports(t, strict))
		case ruleOwner:
			before, after = len(checkOwners(t, r)), len(checkOwners(t, strict))
		case ruleMap:
			before, after = len(checkMap(t, r)), len(checkMap(t, strict))
		default:
			bad = append(bad, fmt.Sprintf("the exception of %s names no rule: %q", e.pkg, e.rule))
			continue
		}
		if before == after {
			bad = append(bad, fmt.Sprintf("the exception of %s for %s %s excuses nothing any more: remove it", e.pkg, e.rule, e.what))
		}
	}
	return bad
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
