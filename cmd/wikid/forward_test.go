package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// localCommands are the commands that open the wiki, or the repository,
// in their own process even while a daemon runs, each with its reason.
var localCommands = map[string]string{
	"serve":  "it serves the wiki: through the daemon unless --no-daemon, which asks for a wiki of its own",
	"daemon": "it is the daemon, the process that holds the wiki the others' commands run in",
	"init":   "it makes the repository, for which no daemon runs yet",
}

// wikiOpeners are the functions that open the wiki or its repository in
// the calling process: openWiki calls the daemon's wiki instead when the
// command runs in the daemon, but only forward sends it there.
var wikiOpeners = []string{"openWikiWith", "gitstore.Open"}

// TestForward_EveryCommandThatOpensTheWiki: every command whose Run can
// reach a function that opens the wiki (read from this package's source:
// a call graph by name, which errs towards reaching too much) runs in the
// daemon, as daemonCommands says, or is one of localCommands with its
// reason; a command run in its own process could not open the search
// index a daemon holds, and would answer LOCKED. Each daemon command and
// each local command exists and opens the wiki.
func TestForward_EveryCommandThatOpensTheWiki(t *testing.T) {
	graph := callGraph(t)
	for name, c := range commands(env{}) {
		typ := reflect.TypeOf(c).Elem().Name()
		path := pathTo(graph, typ+".Run", wikiOpeners)
		opens := path != ""
		_, local := localCommands[name]
		switch {
		case opens && !daemonCommands[name] && !local:
			t.Errorf("wikid %s opens the wiki (%s) but does not run in the daemon: add it to daemonCommands, "+
				"or to localCommands with the reason it must run in its own process", name, path)
		case opens && daemonCommands[name] && local:
			t.Errorf("wikid %s is both a daemon command and a local one", name)
		case !opens && (daemonCommands[name] || local):
			t.Errorf("wikid %s is listed as opening the wiki, but its Run reaches none of %v", name, wikiOpeners)
		}
	}
	all := commands(env{})
	for name := range daemonCommands {
		if all[name] == nil {
			t.Errorf("daemonCommands names %q, which is no command", name)
		}
	}
	for name := range localCommands {
		if all[name] == nil {
			t.Errorf("localCommands names %q, which is no command", name)
		}
	}
}

// callGraph reads the package's non-test files and returns, for each of
// its functions ("name") and methods ("Type.name"), what its body refers
// to: the package's functions it names, every method of the package with
// a name it selects (whatever the receiver), and the functions of other
// packages it selects ("pkg.Name").
func callGraph(t *testing.T) map[string][]string {
	t.Helper()
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, e.Name(), nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	funcs := map[string]bool{}
	methods := map[string][]string{} // method name → "Type.name"
	for _, f := range files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok {
				if key := funcKey(fd); fd.Recv == nil {
					funcs[key] = true
				} else {
					methods[fd.Name.Name] = append(methods[fd.Name.Name], key)
				}
			}
		}
	}
	graph := map[string][]string{}
	for _, f := range files {
		imports := map[string]bool{}
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			name := p[strings.LastIndex(p, "/")+1:]
			if im.Name != nil {
				name = im.Name.Name
			}
			imports[name] = true
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			key := funcKey(fd)
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.SelectorExpr:
					if x, ok := n.X.(*ast.Ident); ok && imports[x.Name] {
						graph[key] = append(graph[key], x.Name+"."+n.Sel.Name)
						return false
					}
					graph[key] = append(graph[key], methods[n.Sel.Name]...)
				case *ast.Ident:
					if funcs[n.Name] {
						graph[key] = append(graph[key], n.Name)
					}
				}
				return true
			})
		}
	}
	return graph
}

// funcKey names a function declaration as callGraph does.
func funcKey(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	typ := fd.Recv.List[0].Type
	if star, ok := typ.(*ast.StarExpr); ok {
		typ = star.X
	}
	if id, ok := typ.(*ast.Ident); ok {
		return id.Name + "." + fd.Name.Name
	}
	return fd.Name.Name
}

// pathTo returns the shortest path in graph from from to one of targets,
// as "a → b → c", or "" when there is none.
func pathTo(graph map[string][]string, from string, targets []string) string {
	prev := map[string]string{from: ""}
	queue := []string{from}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		if slices.Contains(targets, n) {
			path := []string{n}
			for p := prev[n]; p != ""; p = prev[p] {
				path = append(path, p)
			}
			slices.Reverse(path)
			return strings.Join(path, " → ")
		}
		for _, m := range graph[n] {
			if _, seen := prev[m]; !seen {
				prev[m] = n
				queue = append(queue, m)
			}
		}
	}
	return ""
}
