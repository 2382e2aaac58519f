package web

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestWords words every reference the core may write.
func TestWords(t *testing.T) {
	if missing := words.Missing(); len(missing) > 0 {
		t.Errorf("the pages have no words for %v", missing)
	}
}

// TestPackage_NoSideDoors reads the package's own source: the pages reach
// the repository through wiki.Wiki only. No Store(), no git command, no
// note parsed again, no diff text taken apart again, no hidden interface
// asserted.
func TestPackage_NoSideDoors(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			switch p, _ := strconv.Unquote(imp.Path.Value); p {
			case "os/exec", "github.com/wikid/wikid/internal/note", "github.com/wikid/wikid/internal/gitstore",
				"github.com/wikid/wikid/internal/textdiff":
				t.Errorf("%s imports %s", fset.Position(imp.Pos()), p)
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.SelectorExpr:
				if n.Sel.Name == "Store" {
					t.Errorf("%s: .Store", fset.Position(n.Pos()))
				}
			case *ast.TypeAssertExpr:
				if _, ok := n.Type.(*ast.InterfaceType); ok {
					t.Errorf("%s: a type assertion to a hidden interface", fset.Position(n.Pos()))
				}
			case *ast.BasicLit:
				if n.Kind == token.STRING && strings.Contains(n.Value, "diff --git") {
					t.Errorf("%s: reads a unified diff's text", fset.Position(n.Pos()))
				}
			}
			return true
		})
	}
}
