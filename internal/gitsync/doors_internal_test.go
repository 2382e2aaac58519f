package gitsync

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestPackage_NoSideDoors reads the package's own source: sync reaches
// the repository through wiki.Wiki, never round it through its Store,
// asserts no hidden interface of it, and never finds its syncer through
// the wiki: the program makes it and hands it to what syncs.
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
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.SelectorExpr:
				switch n.Sel.Name {
				case "Store":
					t.Errorf("%s: .Store", fset.Position(n.Pos()))
				case "SyncReporter":
					t.Errorf("%s: finds the syncer through the wiki", fset.Position(n.Pos()))
				}
			case *ast.TypeAssertExpr:
				if _, ok := n.Type.(*ast.InterfaceType); ok {
					t.Errorf("%s: a type assertion to a hidden interface", fset.Position(n.Pos()))
				}
			}
			return true
		})
	}
}
