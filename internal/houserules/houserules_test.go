package houserules

import (
	"os"
	"testing"
)

// TestHouse checks the repository against the house rules of
// rules_test.go, each rule a subtest that lists every breach.
func TestHouse(t *testing.T) {
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	root, err := moduleRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := load(root)
	if err != nil {
		t.Fatal(err)
	}
	r := house()
	for _, c := range checks {
		t.Run(c.name, func(t *testing.T) {
			for _, b := range c.run(tr, r) {
				t.Error(b)
			}
		})
	}
}

// checks are the rules, by name.
var checks = []struct {
	name string
	run  func(*tree, rules) []string
}{
	{"Imports", checkImports},
	{"Owners", checkOwners},
	{"Exec", checkExec},
	{"Bounds", checkBounds},
	{"Docs", checkDocs},
	{"Map", checkMap},
	{"SideDoors", checkDoors},
	{"Exceptions", checkExceptions},
}
