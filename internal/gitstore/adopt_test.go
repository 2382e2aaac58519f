package gitstore

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/wiki"
)

func TestStore_AdoptCheckout(t *testing.T) {
	ctx := context.Background()
	t.Run("a folder of files", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "vault")
		files := map[string]string{
			"a.md":                     "# A\n",
			"folder/b.md":              "# B\n",
			"folder/deep/pic.png":      "\x89PNG\x00",
			".obsidian/app.json":       "{}\n",
			".obsidian/workspace.json": "{}\n",
			"script.sh":                "#!/bin/sh\n",
			".gitignore":               ".obsidian/workspace.json\nbuild/\n",
			"build/out.md":             "ignored\n",
			"folder/.gitignore":        "*.tmp\n",
			"folder/x.tmp":             "ignored\n",
			"nested/.git/HEAD":         "ref: refs/heads/main\n",
			"nested/inner.md":          "# nested repo\n",
		}
		gittest.WriteFiles(t, dir, files)
		if err := os.Chmod(filepath.Join(dir, "script.sh"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink("a.md", filepath.Join(dir, "link.md")); err != nil {
			t.Fatal(err)
		}
		if err := Init(ctx, dir, false); err != nil {
			t.Fatal(err)
		}
		s := openStore(t, dir)
		req := request("", "init: wiki", nil)
		ad, err := s.AdoptCheckout(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		want := ".gitignore .obsidian/app.json a.md folder/.gitignore folder/b.md folder/deep/pic.png script.sh"
		if got := strings.Join(ad.Paths, " "); got != want {
			t.Errorf("paths %s\nwant  %s", got, want)
		}
		if got := strings.Join(ad.Skipped, ", "); got != "link.md (a symlink), nested (a git repository of its own)" {
			t.Errorf("skipped %s", got)
		}
		if got := strings.Join(strings.Fields(gittest.Git(t, dir, "ls-files")), " "); got != want {
			t.Errorf("git ls-files %s\nwant %s", got, want)
		}
		if got := rev(t, dir, "HEAD"); got != ad.Commit {
			t.Errorf("HEAD %s, want %s", got, ad.Commit)
		}
		if got := gittest.Git(t, dir, "ls-files", "-s", "script.sh"); !strings.HasPrefix(got, "100755 ") {
			t.Errorf("script.sh: %s", got)
		}
		if got := gittest.Git(t, dir, "status", "--porcelain", "--ignored"); got != "?? link.md\n?? nested/\n!! .obsidian/workspace.json\n!! build/\n!! folder/x.tmp\n" {
			t.Errorf("git status --porcelain --ignored:\n%s", got)
		}
		// Only the index changed: the files keep their bytes.
		checkDisk(t, dir, map[string]string{"a.md": "# A\n", "folder/deep/pic.png": "\x89PNG\x00"})
		gittest.Fsck(t, dir)
		// The next commit goes on top, as any other.
		mustCommit(t, s, request(ad.Commit, "edit", map[string]string{"a.md": "# A\n\nmore\n"}))
		if got := gittest.Git(t, dir, "status", "--porcelain"); got != "?? link.md\n?? nested/\n" {
			t.Errorf("git status after a commit:\n%s", got)
		}
	})
	t.Run("refused", func(t *testing.T) {
		dir := seeded(t, map[string]string{"a.md": "# A\n"})
		gittest.WriteFiles(t, dir, map[string]string{"b.md": "# B\n"})
		s := openStore(t, dir)
		head := rev(t, dir, "HEAD")
		if _, err := s.AdoptCheckout(ctx, request("", "init", nil)); !errors.Is(err, wiki.ErrHeadMoved) {
			t.Errorf("a branch with commits: %v, want ErrHeadMoved", err)
		}
		if _, err := s.AdoptCheckout(ctx, request(head, "init", nil)); err == nil {
			t.Error("a request with a parent was accepted")
		}
		if got := rev(t, dir, "HEAD"); got != head {
			t.Errorf("HEAD moved to %s", got)
		}
		bare := gittest.InitBare(t)
		if _, err := openStore(t, bare).AdoptCheckout(ctx, request("", "init", nil)); err == nil {
			t.Error("a bare repository was accepted")
		}
	})
}
