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
			"journal/2024/2024-01-16:11: broken link Project Gamma: no such note\n",
			"journal/2024/2024-01-16:14: broken link diagram.png: no such file\n",
			"archive/yaml-anchors:",
			"journal/2024/2024-03-10:",
			"archive/old-project: orphan (note): no other note links to it\n",
			"8 broken links, 2 malformed frontmatters, ",
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
			"Home:10: broken link Plan#^no-such-block: no block ^no-such-block in Projects/Alpha/Plan\n",
			"Home:12: broken link Alpha Plan: no such note\n",
			"Home:13: broken link Roadmap: no such note\n",
			"Home:15: broken link Ada: no such note\n",
			"Home:22: broken link missing.png: no such file\n",
			"Home:23: broken link Nowhere#Intro: no such note\n",
			"Home:16: link Meeting names 2 notes, resolves to Projects/Beta/Meeting (also Projects/Alpha/Meeting)\n",
			"Archive/Old Notes:3: link Index names 2 notes, resolves to Index (also Archive/Index)\n",
			"6 broken links, 0 malformed frontmatters, 1 orphan, 4 ambiguous links\n",
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
		if !strings.Contains(stdout.String(), "3 broken links, ") || strings.Contains(stdout.String(), "Roadmap") {
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
		if got := run(); got != "0 broken links, 0 malformed frontmatters, 0 orphans\n" {
			t.Errorf("without .obsidian/: %q", got)
		}
		if err := os.Mkdir(filepath.Join(dir, ".obsidian"), 0o755); err != nil {
			t.Fatal(err)
		}
		if got := run(); !strings.HasPrefix(got, "a:1: broken link Alias: no such note\n1 broken link, ") {
			t.Errorf("with an .obsidian/ folder on disk: %q", got)
		}
	})
	t.Run("clean", func(t *testing.T) {
		dir := gittest.Init(t)
		gittest.Commit(t, dir, "seed", map[string]string{"a.md": "# Top\n\n[[b]]\n", "b.md": "[[a#Top]]\n"})
		e, stdout, _ := testEnv("", nil)
		if err := (&checkCommand{env: e}).Run(ctx, []string{"--repo", dir}); err != nil {
			t.Fatalf("clean wiki: %v\n%s", err, stdout)
		}
		if got := stdout.String(); got != "0 broken links, 0 malformed frontmatters, 0 orphans\n" {
			t.Errorf("output %q", got)
		}
	})
	t.Run("strict orphans", func(t *testing.T) {
		dir := gittest.Init(t)
		gittest.Commit(t, dir, "seed", map[string]string{"a.md": "[[b]]\n", "b.md": "# B\n"})
		e, stdout, _ := testEnv("", nil)
		if err := (&checkCommand{env: e}).Run(ctx, []string{"--repo", dir}); err != nil || !strings.Contains(stdout.String(), "a: orphan (note)") {
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
			for _, args := range [][]string{{"--json"}, {"--json", "--strict"}} {
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
