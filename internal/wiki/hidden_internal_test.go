package wiki

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestPackage_NoHiddenInterfaces reads the package's own source: what
// the core asks of its store is on the Store interface (GitDir,
// Unwritable, Blocked, ...), never found by asserting an interface the
// adapter happens to satisfy.
func TestPackage_NoHiddenInterfaces(t *testing.T) {
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
			if a, ok := n.(*ast.TypeAssertExpr); ok {
				if sel, ok := a.X.(*ast.SelectorExpr); ok && sel.Sel.Name == "store" {
					t.Errorf("%s: a type assertion on the store", fset.Position(a.Pos()))
				}
				if _, ok := a.Type.(*ast.InterfaceType); ok {
					t.Errorf("%s: a type assertion to a hidden interface", fset.Position(a.Pos()))
				}
			}
			return true
		})
	}
}
