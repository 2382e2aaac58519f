package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
)

// vault writes a folder of notes as Obsidian leaves it: notes in folders,
// an attachment, the .obsidian settings with the volatile workspace files,
// and the trash.
func vault(tb testing.TB) string {
	tb.Helper()
	dir := filepath.Join(tb.TempDir(), "vault")
	gittest.WriteFiles(tb, dir, map[string]string{
		"Home.md":                           "# Home\n\nSee [[Canvas ideas]] and ![[diagram.png]].\n",
		"projects/Canvas ideas.md":          "---\ntags: [project]\n---\n# Canvas ideas\n\nA canvas of zeppelin airships. Back [[Home]].\n",
		"daily/2024-06-01.md":               "- met Ana about the zeppelin canvas\n",
		"diagram.png":                       "\x89PNG\r\n\x1a\n",
		".obsidian/app.json":                "{}\n",
		".obsidian/plugins/x/data.json":     "{}\n",
		".obsidian/workspace.json":          "{\"active\": 1}\n",
		".obsidian/workspace-mobile.json":   "{}\n",
		".obsidian/cache/x":                 "cache\n",
		".trash/old.md":                     "# Old\n",
		"notes with spaces/Ünïcode note.md": "# Ünïcode\n",
	})
	return dir
}

// initEnv is the environment of the init tests: no git configuration but the
// repository's, so that the author is what the test sets.
func initEnv(vars map[string]string) map[string]string {
	env := map[string]string{"GIT_CONFIG_NOSYSTEM": "1"}
	for k, v := range vars {
		env[k] = v
	}
	return env
}

func TestInitCommand_Run(t *testing.T) {
	ctx := context.Background()
	t.Run("a folder of notes", func(t *testing.T) {
		dir := vault(t)
		e, stdout, stderr := testEnv("", initEnv(map[string]string{"GIT_AUTHOR_NAME": "Ana", "GIT_AUTHOR_EMAIL": "ana@example.com"}))
		if err := (&initCommand{env: e}).Run(ctx, []string{dir}); err != nil {
			t.Fatalf("%v\n%s", err, stderr)
		}
		want := []string{
			".gitignore", ".obsidian/app.json", ".obsidian/plugins/x/data.json", ".wikid.yaml",
			"Home.md", "daily/2024-06-01.md", "diagram.png", "notes with spaces/Ünïcode note.md", "projects/Canvas ideas.md",
		}
		if got := gitLines(t, dir, "-c", "core.quotepath=false", "ls-files"); strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("git ls-files:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		if got := gittest.Status(t, dir); got != "" {
			t.Errorf("git status --porcelain after init:\n%s", got)
		}
		gittest.Fsck(t, dir)
		if got := gittest.Git(t, dir, "log", "--format=%an <%ae>|%s"); got != "Ana <ana@example.com>|init: wiki\n" {
			t.Errorf("git log: %q", got)
		}
		ignore, _ := os.ReadFile(filepath.Join(dir, ".gitignore"))
		for _, l := range vaultIgnores {
			if !strings.Contains(string(ignore), "\n"+l+"\n") {
				t.Errorf(".gitignore lacks %s:\n%s", l, ignore)
			}
		}
		if _, err := os.Stat(filepath.Join(dir, "README.md")); err == nil {
			t.Error("init added a README note to a folder of notes")
		}
		for _, w := range []string{"4 notes, 9 files in all, authored by Ana <ana@example.com>", "wikid serve --repo "} {
			if !strings.Contains(stdout.String(), w) {
				t.Errorf("output lacks %q:\n%s", w, stdout)
			}
		}
		// The notes are there for every command.
		if out := runOK(t, dir, "", "read", "projects/Canvas ideas"); !strings.Contains(out, "A canvas of zeppelin airships") {
			t.Errorf("read:\n%s", out)
		}
		if out := runOK(t, dir, "", "search", "zeppelin"); !strings.HasPrefix(out, "Found 2 notes (showing 2):\n") {
			t.Errorf("search zeppelin:\n%s", out)
		}
		if out := runOK(t, dir, "", "search", "--limit", "1", "Ünïcode"); !strings.Contains(out, "notes with spaces/Ünïcode note") {
			t.Errorf("search Ünïcode:\n%s", out)
		}
		runOK(t, dir, "", "edit", "Home", "--op", "append", "--content", "more")
		if got := gittest.Status(t, dir); got != "" {
			t.Errorf("git status --porcelain after an edit:\n%s", got)
		}
	})
	t.Run("an existing .gitignore and .wikid.yaml are kept", func(t *testing.T) {
		dir := vault(t)
		gittest.WriteFiles(t, dir, map[string]string{
			".gitignore":   "private/\n.trash/",
			".wikid.yaml":  "timezone: Europe/Berlin\n",
			"private/x.md": "# secret\n",
		})
		e, _, stderr := testEnv("", initEnv(nil))
		if err := (&initCommand{env: e}).Run(ctx, []string{dir}); err != nil {
			t.Fatalf("%v\n%s", err, stderr)
		}
		ignore := gittest.Git(t, dir, "show", "HEAD:.gitignore")
		if !strings.HasPrefix(ignore, "private/\n.trash/\n# ") || strings.Count(ignore, ".trash/") != 1 || !strings.Contains(ignore, ".obsidian/workspace.json\n") {
			t.Errorf(".gitignore:\n%s", ignore)
		}
		if got := gittest.Git(t, dir, "show", "HEAD:.wikid.yaml"); got != "timezone: Europe/Berlin\n" {
			t.Errorf(".wikid.yaml: %q", got)
		}
		if out := gittest.Git(t, dir, "ls-files", "private"); out != "" {
			t.Errorf("ignored files committed: %s", out)
		}
		if got := gittest.Status(t, dir); got != "" {
			t.Errorf("git status --porcelain:\n%s", got)
		}
		if !strings.Contains(stderr.String(), "git names nobody") {
			t.Errorf("no word about the missing identity:\n%s", stderr)
		}
	})
	t.Run("a git repository without commits", func(t *testing.T) {
		dir := vault(t)
		gittest.Git(t, dir, "init", "-q", "-b", "trunk")
		e, _, stderr := testEnv("", initEnv(nil))
		if err := (&initCommand{env: e}).Run(ctx, []string{dir}); err != nil {
			t.Fatalf("%v\n%s", err, stderr)
		}
		if got := len(gitLines(t, dir, "ls-files")); got != 9 {
			t.Errorf("%d files committed, want 9", got)
		}
		if got := gittest.Git(t, dir, "rev-parse", "--abbrev-ref", "HEAD"); got != "trunk\n" {
			t.Errorf("branch %q", got)
		}
	})
	t.Run("a repository with commits is refused", func(t *testing.T) {
		dir := gittest.Init(t)
		head := gittest.Commit(t, dir, "seed", map[string]string{"a.md": "# A\n"})
		gittest.WriteFiles(t, dir, map[string]string{"b.md": "# B\n"})
		e, _, _ := testEnv("", initEnv(nil))
		err := (&initCommand{env: e}).Run(ctx, []string{dir})
		if err == nil || !strings.Contains(err.Error(), "already has commits: serve it as it is") {
			t.Errorf("error %v", err)
		}
		if got := strings.TrimSpace(gittest.Git(t, dir, "rev-parse", "HEAD")); got != head {
			t.Errorf("HEAD moved")
		}
		if _, err := os.Stat(filepath.Join(dir, ".git")); err != nil {
			t.Errorf("the repository is gone: %v", err)
		}
		if got := gittest.Status(t, dir); got != "?? b.md\n" {
			t.Errorf("git status: %q", got)
		}
	})
	t.Run("an empty folder passes its own check", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "new")
		e, _, stderr := testEnv("", initEnv(map[string]string{"GIT_AUTHOR_NAME": "Ana", "GIT_AUTHOR_EMAIL": "ana@example.com"}))
		if err := (&initCommand{env: e}).Run(ctx, []string{dir}); err != nil {
			t.Fatalf("%v\n%s", err, stderr)
		}
		if got := strings.Join(gitLines(t, dir, "ls-files"), " "); got != ".wikid.yaml README.md" {
			t.Errorf("git ls-files: %s", got)
		}
		if out, err := runIn(t, dir, "", "check"); err != nil || !strings.Contains(out, "0 broken links, 0 malformed frontmatter") {
			t.Errorf("check after init: %v\n%s", err, out)
		}
	})
}
