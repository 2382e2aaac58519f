package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/wiki"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

func TestCheckCommand_Run(t *testing.T) {
	ctx := context.Background()
	t.Run("fixture", func(t *testing.T) {
		dir := fixtureCheckout(t, "basic")
		e, stdout, _ := testEnv("", nil)
		err := (&checkCommand{env: e}).Run(ctx, []string{"--repo", dir})
		if err != exitError(1) {
			t.Fatalf("exit %v, want status 1", err)
		}
		for _, w := range []string{
			"Broken links:\n  journal/2024/2024-01-16\n    line 11  Project Gamma: no such note\n    line 12  people/dave: no such note\n",
			"    line 14  diagram.png: no such file\n",
			"\nMalformed frontmatter:\n  archive/yaml-anchors: line 2: anchors (&defaults) are not allowed\n",
			"  journal/2024/2024-03-10: line 2: ",
			"\nOrphans (no other note links to them):\n  archive/bom\n",
			"  archive/old-project\n",
			"\n8 broken links in 3 notes, 2 malformed frontmatter, 18 orphans, 2 ambiguous links (list them with --ambiguous)\n",
		} {
			if !strings.Contains(stdout.String(), w) {
				t.Errorf("output lacks %q:\n%s", w, stdout)
			}
		}
	})
	t.Run("obsidian vault", func(t *testing.T) {
		// the .obsidian/ folder turns Obsidian's resolution on
		dir := fixtureCheckout(t, "obsidian")
		e, stdout, _ := testEnv("", nil)
		if err := (&checkCommand{env: e}).Run(ctx, []string{"--repo", dir}); err != exitError(1) {
			t.Fatalf("exit %v, want status 1", err)
		}
		for _, w := range []string{
			"  Home\n    line 10  Plan#^no-such-block: no block ^no-such-block in Projects/Alpha/Plan\n",
			"    line 12  Alpha Plan: no such note\n",
			"    line 13  Roadmap: no such note\n",
			"    line 15  Ada: no such note\n",
			"    line 22  missing.png: no such file\n",
			"    line 23  Nowhere#Intro: no such note\n",
			"6 broken links in 1 note, 0 malformed frontmatter, 1 orphan, 4 ambiguous links (list them with --ambiguous)\n",
		} {
			if !strings.Contains(stdout.String(), w) {
				t.Errorf("output lacks %q:\n%s", w, stdout)
			}
		}
		// links.resolve: wiki in the environment resolves titles and aliases
		e, stdout, _ = testEnv("", map[string]string{"WIKID_LINKS_RESOLVE": "wiki"})
		if err := (&checkCommand{env: e}).Run(ctx, []string{"--repo", dir}); err != exitError(1) {
			t.Fatalf("exit %v, want status 1", err)
		}
		if !strings.Contains(stdout.String(), "3 broken links in ") || strings.Contains(stdout.String(), "Roadmap") {
			t.Errorf("wiki resolution:\n%s", stdout)
		}
	})
	t.Run("ignored .obsidian folder", func(t *testing.T) {
		dir := gittest.Init(t)
		gittest.Commit(t, dir, "seed", map[string]string{".gitignore": ".obsidian/\n", "a.md": "[[Alias]] [[b]]\n",
			"sub/b.md": "---\naliases: [Alias]\n---\n[[a]]\n"})
		run := func() string {
			e, stdout, _ := testEnv("", nil)
			_ = (&checkCommand{env: e}).Run(ctx, []string{"--repo", filepath.Join(dir, "sub")})
			return stdout.String()
		}
		// A clone of a vault that keeps .obsidian/ out of git is a vault
		// all the same: links resolve as Obsidian resolves them.
		if got := run(); !strings.HasPrefix(got, "Broken links:\n  a\n    line 1  Alias: no such note\n\n1 broken link in 1 note, ") {
			t.Errorf("without .obsidian/, ignored by .gitignore: %q", got)
		}
		if err := os.Mkdir(filepath.Join(dir, ".obsidian"), 0o755); err != nil {
			t.Fatal(err)
		}
		if got := run(); !strings.HasPrefix(got, "Broken links:\n  a\n    line 1  Alias: no such note\n\n1 broken link in 1 note, ") {
			t.Errorf("with an .obsidian/ folder on disk: %q", got)
		}
		other := gittest.Init(t)
		gittest.Commit(t, other, "seed", map[string]string{".gitignore": "node_modules/\n.obsidian-notes/\n", "a.md": "[[Alias]]\n",
			"b.md": "---\naliases: [Alias]\n---\n[[a]]\n"})
		e, stdout, _ := testEnv("", nil)
		_ = (&checkCommand{env: e}).Run(ctx, []string{"--repo", other})
		if got := stdout.String(); got != "0 broken links, 0 malformed frontmatter, 0 orphans\n" {
			t.Errorf("a repository that is no vault: %q", got)
		}
	})
	t.Run("clean", func(t *testing.T) {
		dir := gittest.Init(t)
		gittest.Commit(t, dir, "seed", map[string]string{"a.md": "# Top\n\n[[b]]\n", "b.md": "[[a#Top]]\n"})
		e, stdout, _ := testEnv("", nil)
		if err := (&checkCommand{env: e}).Run(ctx, []string{"--repo", dir}); err != nil {
			t.Fatalf("clean wiki: %v\n%s", err, stdout)
		}
		if got := stdout.String(); got != "0 broken links, 0 malformed frontmatter, 0 orphans\n" {
			t.Errorf("output %q", got)
		}
	})
	t.Run("sections", func(t *testing.T) {
		dir := gittest.Init(t)
		gittest.Commit(t, dir, "seed", map[string]string{".obsidian/app.json": "{}\n",
			"a.md": "[[gone]]\n\n[[x]] [[b]]\n[[x#Nothing]]\n", "b.md": "[[a]]\n[[missing.png]]\n[[x]]\n",
			"a/x.md": "[[b]]\n", "bb/x.md": "[[b]]\n", "ccc/x.md": "[[b]]\n", "dddd/x.md": "[[b]]\n", "eeeee/x.md": "[[b]]\n"})
		run := func(args ...string) string {
			t.Helper()
			e, stdout, _ := testEnv("", nil)
			if err := (&checkCommand{env: e}).Run(ctx, append(args, "--repo", dir)); err != exitError(1) {
				t.Fatalf("%v: exit %v, want status 1", args, err)
			}
			return stdout.String()
		}
		broken := "Broken links:\n" +
			"  a\n    line 1  gone: no such note\n    line 4  x#Nothing: no such heading in a/x\n" +
			"  b\n    line 2  missing.png: no such file\n"
		orphans := "\nOrphans (no other note links to them):\n  bb/x\n  ccc/x\n  dddd/x\n  eeeee/x\n"
		mode := "Links resolve as Obsidian resolves them: [[name]] by file name (links.resolve: obsidian).\n"
		if got, want := run(), broken+orphans+"\n3 broken links in 2 notes, 0 malformed frontmatter, 4 orphans, "+
			"3 ambiguous links (list them with --ambiguous)\n"+mode; got != want {
			t.Errorf("got\n%s\nwant\n%s", got, want)
		}
		ambiguous := "\nAmbiguous links (the note each resolves to, then the others):\n" +
			"  a\n    line 3  x -> a/x (also bb/x, ccc/x, dddd/x and 1 more)\n    line 4  x -> a/x (also bb/x, ccc/x, dddd/x and 1 more)\n" +
			"  b\n    line 3  x -> a/x (also bb/x, ccc/x, dddd/x and 1 more)\n"
		if got, want := run("--ambiguous"), broken+orphans+ambiguous+"\n3 broken links in 2 notes, 0 malformed frontmatter, 4 orphans, "+
			"3 ambiguous links\n"+mode; got != want {
			t.Errorf("--ambiguous: got\n%s\nwant\n%s", got, want)
		}
	})
	t.Run("strict orphans", func(t *testing.T) {
		dir := gittest.Init(t)
		gittest.Commit(t, dir, "seed", map[string]string{"a.md": "[[b]]\n", "b.md": "# B\n"})
		e, stdout, _ := testEnv("", nil)
		if err := (&checkCommand{env: e}).Run(ctx, []string{"--repo", dir}); err != nil || !strings.Contains(stdout.String(), "Orphans (no other note links to them):\n  a\n") {
			t.Errorf("an orphan fails without --strict: %v\n%s", err, stdout)
		}
		e, stdout, _ = testEnv("", nil)
		if err := (&checkCommand{env: e}).Run(ctx, []string{"--repo", dir, "--strict", "--json"}); err != exitError(1) {
			t.Errorf("an orphan with --strict: %v", err)
		}
		var res struct {
			Orphans []struct{ Path string } `json:"orphans"`
		}
		if err := json.Unmarshal(stdout.Bytes(), &res); err != nil || len(res.Orphans) != 1 || res.Orphans[0].Path != "a" {
			t.Errorf("json %s: %v", stdout, err)
		}
	})
}

// TestCheckCommand_JSON holds --json to what it printed before the text
// output was made for people: the MCP tool's structured content.
func TestCheckCommand_JSON(t *testing.T) {
	for _, fixture := range []string{"basic", "obsidian"} {
		t.Run(fixture, func(t *testing.T) {
			dir := fixtureCheckout(t, fixture)
			for _, args := range [][]string{{"--json"}, {"--json", "--strict"}, {"--json", "--ambiguous"}} {
				e, stdout, _ := testEnv("", nil)
				if err := (&checkCommand{env: e}).Run(context.Background(), append(args, "--repo", dir)); err != exitError(1) {
					t.Fatalf("%v: exit %v, want status 1", args, err)
				}
				golden := filepath.Join("testdata", "check-"+fixture+".json")
				if *update {
					if err := os.WriteFile(golden, stdout.Bytes(), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				want, err := os.ReadFile(golden)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(stdout.Bytes(), want) {
					t.Errorf("%v: output differs from %s:\n%s", args, golden, stdout)
				}
			}
		})
	}
}

func TestAlternatives(t *testing.T) {
	tests := []struct {
		others []string
		want   string
	}{
		{[]string{"a"}, "a"},
		{[]string{"a", "b", "c"}, "a, b, c"},
		{[]string{"a", "b", "c", "d"}, "a, b, c and 1 more"},
		{strings.Split("abcdefghijklmnopqrstuvwxyzABCDEFG", ""), "a, b, c and 30 more"},
	}
	for _, tt := range tests {
		if got := alternatives(tt.others); got != tt.want {
			t.Errorf("alternatives(%q) = %q, want %q", tt.others, got, tt.want)
		}
	}
}

func TestByNote(t *testing.T) {
	links := []wiki.BrokenLink{{Path: "b"}, {Path: "a"}, {Path: "b"}}
	got := byNote(links, func(l wiki.BrokenLink) string { return l.Path })
	if len(got) != 2 || len(got[0]) != 2 || got[0][0].Path != "b" || len(got[1]) != 1 || got[1][0].Path != "a" {
		t.Errorf("byNote = %+v, want b's two links, then a's", got)
	}
}
