package main

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/wiki"
)

// TestOpenWiki_linkModeFollowsCommits: a wiki that has run since before
// a commit made the repository an Obsidian vault, or made it no longer one,
// resolves links in the mode of its HEAD, as a wiki opened afresh would.
func TestOpenWiki_linkModeFollowsCommits(t *testing.T) {
	ctx := context.Background()
	dir := gittest.Init(t)
	gittest.Commit(t, dir, "seed", map[string]string{"a.md": "[[Alias]] [[b]]\n", "sub/b.md": "---\naliases: [Alias]\n---\n[[a]]\n"})
	e, _, _ := testEnv("", nil)
	w, release, err := openWiki(ctx, e, dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	check := func(step string, want wiki.LinkResolution) {
		t.Helper()
		res, err := w.Check(ctx, "")
		if err != nil {
			t.Fatal(err)
		}
		broken := 0
		if want == wiki.ResolveObsidian {
			broken = 1 // [[Alias]]: Obsidian never resolves an alias
		}
		if got := w.LinkResolution(); got != want || len(res.BrokenLinks) != broken {
			t.Errorf("%s: links resolve as %s with %d broken links %v, want %s with %d", step, got, len(res.BrokenLinks), res.BrokenLinks, want, broken)
		}
		st, err := w.Status(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if st.Links != want {
			t.Errorf("%s: status says links resolve as %s, want %s", step, st.Links, want)
		}
	}
	check("no vault", wiki.ResolveWiki)
	gittest.Commit(t, dir, "ignore .obsidian", map[string]string{".gitignore": "# Obsidian\n.obsidian/\n"})
	check("a .gitignore that leaves .obsidian out", wiki.ResolveObsidian)
	gittest.Commit(t, dir, "ignore node_modules", map[string]string{".gitignore": "node_modules/\n"})
	check("a .gitignore that names no .obsidian", wiki.ResolveWiki)
	gittest.Commit(t, dir, "vault", map[string]string{".obsidian/app.json": "{}\n", ".obsidian/core-plugins.json": "[]\n"})
	check(".obsidian committed", wiki.ResolveObsidian)
	gittest.Git(t, dir, "rm", "-q", ".obsidian/app.json")
	gittest.Git(t, dir, "commit", "-q", "-m", "one file less")
	check("one file of .obsidian removed", wiki.ResolveObsidian)
	gittest.Git(t, dir, "rm", "-q", "-r", ".obsidian")
	gittest.Git(t, dir, "commit", "-q", "-m", "no vault")
	check(".obsidian removed", wiki.ResolveWiki)
	if err := os.Mkdir(filepath.Join(dir, ".obsidian"), 0o755); err != nil {
		t.Fatal(err)
	}
	gittest.Commit(t, dir, "a note", map[string]string{"c.md": "# C\n", ".gitignore": "node_modules/\n.obsidian/\n"})
	check("an .obsidian folder in the checkout, left out of git", wiki.ResolveObsidian)
	gittest.Commit(t, dir, "no ignore", map[string]string{".gitignore": "node_modules/\n"})
	check("an .obsidian folder in the checkout, not committed", wiki.ResolveObsidian)
}
