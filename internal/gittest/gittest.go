// Package gittest drives the real git CLI for tests: it creates repositories
// in temporary directories and checks them with git itself. Every command
// runs with a hermetic environment, so tests do not depend on the user's or
// the machine's git configuration.
package gittest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Env is the environment every git command here runs with.
func Env() []string {
	env := []string{
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL=" + os.DevNull,
		"GIT_AUTHOR_NAME=Test Author",
		"GIT_AUTHOR_EMAIL=author@example.com",
		"GIT_COMMITTER_NAME=Test Committer",
		"GIT_COMMITTER_EMAIL=committer@example.com",
		"GIT_TERMINAL_PROMPT=0",
		"LC_ALL=C",
	}
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "GIT_") || strings.HasPrefix(kv, "LC_ALL=") {
			continue
		}
		env = append(env, kv)
	}
	return env
}

// Git runs git in dir and returns its standard output. It fails the test if
// git exits non-zero.
func Git(tb testing.TB, dir string, args ...string) string {
	tb.Helper()
	out, err := TryGit(dir, args...)
	if err != nil {
		tb.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

// TryGit runs git in dir and returns its combined output and error.
func TryGit(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = Env()
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// Init creates a non-bare repository with branch main in a new temporary
// directory and returns its path. The branch is unborn.
func Init(tb testing.TB) string {
	tb.Helper()
	dir := tb.TempDir()
	Git(tb, dir, "init", "-q", "-b", "main")
	return dir
}

// InitBare creates a bare repository with branch main and returns its path.
func InitBare(tb testing.TB) string {
	tb.Helper()
	dir := tb.TempDir()
	Git(tb, dir, "init", "-q", "--bare", "-b", "main")
	return dir
}

// WriteFiles writes files (path → content) under dir, creating folders.
func WriteFiles(tb testing.TB, dir string, files map[string]string) {
	tb.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
}

// Commit writes files under dir, stages everything and commits it with the
// git CLI. It returns the new commit id.
func Commit(tb testing.TB, dir, message string, files map[string]string) string {
	tb.Helper()
	WriteFiles(tb, dir, files)
	Git(tb, dir, "add", "-A")
	Git(tb, dir, "commit", "-q", "--allow-empty", "-m", message)
	return strings.TrimSpace(Git(tb, dir, "rev-parse", "HEAD"))
}

// Fsck fails the test unless `git fsck --strict` is clean.
func Fsck(tb testing.TB, dir string) {
	tb.Helper()
	Git(tb, dir, "fsck", "--strict", "--no-progress")
}

// Status returns `git status --porcelain` of a checkout.
func Status(tb testing.TB, dir string) string {
	tb.Helper()
	return Git(tb, dir, "status", "--porcelain")
}

// CopyRepo returns a new checkout holding a copy of the folder src (such
// as a wiki under fixtures/) in one commit.
func CopyRepo(tb testing.TB, src string) string {
	tb.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(src, p)
		files[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		tb.Fatal(err)
	}
	dir := Init(tb)
	Commit(tb, dir, "seed", files)
	return dir
}
