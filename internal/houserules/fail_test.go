package houserules

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestChecks_fail builds a small module that breaks each rule once and
// checks that each check names its breach, and that the module fixed
// passes: a rule that cannot fail guards nothing.
func TestChecks_fail(t *testing.T) {
	long := strings.Repeat("// filler\n", 12)
	files := map[string]string{
		"go.mod":          "module example.com/m\n\ngo 1.22\n",
		"ARCHITECTURE.md": "- `core` — the core.\n- `front` — a front end.\n- `gone` — a package that is no more.\n",
		"core/core.go":    "// Package core is the core.\npackage core\n\nimport _ \"example.com/m/front\"\n",
		"front/front.go": "// Package front is a front end.\npackage front\n\nimport (\n\t_ \"os/exec\"\n\t_ \"github.com/heavy/dep\"\n)\n\n" +
			"func f(x any) { _ = x.(interface{ Store() }); _ = \"diff --git\" }\n" + long,
		"stray/stray.go": "package stray\n",
	}
	root := t.TempDir()
	for name, text := range files {
		full := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(full), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(text), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	tr, err := load(root)
	if err != nil {
		t.Fatal(err)
	}
	r := rules{
		rooms:       map[string]room{"core": {0, []string{"front"}}, "front": {1, nil}},
		owners:      map[string]string{"github.com/heavy/": "core"},
		exec:        map[string]string{},
		big:         map[string]string{},
		doors:       map[string][]door{"front": {{hidden: true, why: "hidden"}, {literal: "diff --git", why: "diff text"}}},
		maxPkgLines: 10,
		maxFileLine: 15,
		exceptions: []exception{
			{rule: ruleOwner, pkg: "core", what: "github.com/heavy/", why: "excuses nothing"},
			{rule: ruleMap, pkg: "x", what: "x"},
		},
	}
	want := map[string][]string{
		"Imports":    {"core (floor 0) imports front, a floor up (1)", "stray has no room"},
		"Owners":     {"front imports github.com/heavy/dep, which core alone imports"},
		"Exec":       {"front imports os/exec"},
		"Bounds":     {"front has 21 non-test lines, over 10", "front/front.go has 21 lines, over 15"},
		"Docs":       {"stray has no package comment"},
		"Map":        {"stray has no line in ARCHITECTURE.md", "ARCHITECTURE.md names gone, which is no package"},
		"SideDoors":  {"hidden", "diff text"},
		"Exceptions": {"excuses nothing any more", "gives no reason"},
	}
	for _, c := range checks {
		got := strings.Join(c.run(tr, r), "\n")
		for _, w := range want[c.name] {
			if !strings.Contains(got, w) {
				t.Errorf("%s: no breach %q in:\n%s", c.name, w, got)
			}
		}
	}

	// Fixed, the module passes every check.
	for name, text := range map[string]string{
		"core/core.go":    "// Package core is the core.\npackage core\n",
		"front/front.go":  "// Package front is a front end.\npackage front\n\nimport _ \"example.com/m/core\"\n",
		"stray/stray.go":  "// Package stray is mapped now.\npackage stray\n",
		"ARCHITECTURE.md": "- `core` — the core.\n- `front`, `stray` — front ends.\n",
	} {
		if err := os.WriteFile(filepath.Join(root, filepath.FromSlash(name)), []byte(text), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	if tr, err = load(root); err != nil {
		t.Fatal(err)
	}
	r.rooms = map[string]room{"core": {0, nil}, "front": {1, []string{"core"}}, "stray": {1, nil}}
	r.exceptions = nil
	for _, c := range checks {
		if bad := c.run(tr, r); len(bad) > 0 {
			t.Errorf("%s, fixed: %v", c.name, bad)
		}
	}
}
