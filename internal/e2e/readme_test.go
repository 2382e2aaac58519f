package e2e_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/embed/embedtest"
	"github.com/wikid/wikid/internal/mcpserver"
	"github.com/wikid/wikid/internal/profiles/table"
)

// TestREADME_Tools checks the tool table of the README against the server:
// every tool it lists is served, and its line starts with the tool's
// title, so the README cannot name a tool that does not exist or describe
// one under an old name; and every tool of tools/list is in the table.
func TestREADME_Tools(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(b), "\n## Tools\n")
	if !ok {
		t.Fatal("the README has no Tools section")
	}
	section, _, _ = strings.Cut(section, "\n#") // up to the next heading
	// A wiki with semantic search serves every tool.
	srv := embedtest.Start()
	defer srv.Close()
	w := openSemanticWiki(t, fixtureRepo(t), srv.URL, 0)
	s := newSession(t, connectHTTP(t, serveHTTP(t, w, mcpserver.Options{}, mcpserver.HTTPOptions{}), nil, ""))
	row := regexp.MustCompile("(?m)^\\| `([a-z_]+)` \\| (.+) \\|$")
	listed := map[string]bool{}
	for _, m := range row.FindAllStringSubmatch(section, -1) {
		name, what := m[1], m[2]
		listed[name] = true
		tl, ok := s.Tools[name]
		switch {
		case !ok:
			t.Errorf("the README lists %s, which the server does not serve", name)
		case !strings.HasPrefix(what, tl.Title):
			t.Errorf("the README describes %s as %q; want it to start with its title %q", name, what, tl.Title)
		}
	}
	if len(listed) == 0 {
		t.Fatal("no tool rows found in the README's Tools section")
	}
	for name, tl := range s.Tools {
		if !listed[name] {
			t.Errorf("the README does not list %s: add the row | `%s` | %s … |", name, name, tl.Title)
		}
	}
}

// TestREADME_Profiles checks the profile table of the README against the
// servers: every tool of every profile but wikid's is in it, under its
// profile, and it names no tool a profile lacks.
func TestREADME_Profiles(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile("(?m)^\\| ([a-z-]+) \\| `([a-z_]+)` \\| .+ \\|$")
	listed := map[string]map[string]bool{}
	for _, m := range row.FindAllStringSubmatch(string(b), -1) {
		if listed[m[1]] == nil {
			listed[m[1]] = map[string]bool{}
		}
		listed[m[1]][m[2]] = true
	}
	for _, p := range table.Profiles().Names() {
		if p == mcpserver.ProfileWikid {
			continue
		}
		tools := table.Profiles().ToolNames(p)
		for _, name := range tools {
			if !listed[p][name] {
				t.Errorf("the README's profile table lacks %s's %s", p, name)
			}
		}
		if len(listed[p]) != len(tools) {
			t.Errorf("the README lists %d tools for %s, which serves %d", len(listed[p]), p, len(tools))
		}
	}
}
