package gitstore

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	gitconfig "github.com/go-git/go-git/v5/plumbing/format/config"

	"github.com/wikid/wikid/internal/gitstore/gitformat"
)

// layout is where the parts of a repository live.
type layout struct {
	gitDir    string // HEAD, index, logs/HEAD: per worktree
	commonDir string // objects, refs, packed-refs, config: shared by worktrees
	workTree  string // "" for a bare repository
}

// discover finds the repository containing path the way git does: at each
// level from path up, a ".git" folder or file, else the folder itself being
// a git directory.
func discover(path string) (layout, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return layout{}, fmt.Errorf("resolve %q: %w", path, err)
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return layout{}, fmt.Errorf("open repository: %w", err)
	}
	if !fi.IsDir() {
		abs = filepath.Dir(abs)
	}
	for dir := abs; ; dir = filepath.Dir(dir) {
		l, ok, err := probe(dir)
		if err != nil || ok {
			return l, err
		}
		if filepath.Dir(dir) == dir {
			return layout{}, fmt.Errorf("open repository: %w at or above %q", ErrNoRepository, abs)
		}
	}
}

// probe looks for a repository at dir itself.
func probe(dir string) (layout, bool, error) {
	dotgit := filepath.Join(dir, ".git")
	fi, err := os.Lstat(dotgit)
	switch {
	case err == nil && fi.IsDir():
		l, err := withCommonDir(layout{gitDir: dotgit, workTree: dir})
		return l, true, err
	case err == nil && fi.Mode().IsRegular():
		gitDir, err := readGitFile(dotgit)
		if err != nil {
			return layout{}, true, err
		}
		l, err := withCommonDir(layout{gitDir: gitDir, workTree: dir})
		return l, true, err
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return layout{}, true, fmt.Errorf("open repository: %w", err)
	}
	if !isGitDir(dir) {
		return layout{}, false, nil
	}
	l := layout{gitDir: dir}
	if filepath.Base(dir) == ".git" {
		l.workTree = filepath.Dir(dir) // opened from inside a checkout's .git
	}
	l, err = withCommonDir(l)
	return l, true, err
}

// readGitFile reads a ".git" file ("gitdir: <path>"), as used by linked
// worktrees and submodules.
func readGitFile(name string) (string, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return "", fmt.Errorf("read %s: %w", name, err)
	}
	line, _, _ := strings.Cut(string(b), "\n")
	target, ok := strings.CutPrefix(strings.TrimSpace(line), "gitdir:")
	target = strings.TrimSpace(target)
	if !ok || target == "" {
		return "", fmt.Errorf("read %s: not a \"gitdir: <path>\" file", name)
	}
	if !filepath.IsAbs(target) {
		target = filepath.Join(filepath.Dir(name), target)
	}
	if !isGitDir(target) {
		return "", fmt.Errorf("read %s: %s is not a git directory", name, target)
	}
	return filepath.Clean(target), nil
}

// isGitDir reports whether dir looks like a git directory.
func isGitDir(dir string) bool {
	if fi, err := os.Stat(filepath.Join(dir, "HEAD")); err != nil || !fi.Mode().IsRegular() {
		return false
	}
	if _, err := os.Stat(filepath.Join(dir, "commondir")); err == nil {
		return true
	}
	for _, sub := range []string{"objects", "refs"} {
		if fi, err := os.Stat(filepath.Join(dir, sub)); err != nil || !fi.IsDir() {
			return false
		}
	}
	return true
}

// withCommonDir fills in the common directory of a linked worktree.
func withCommonDir(l layout) (layout, error) {
	l.commonDir = l.gitDir
	b, err := os.ReadFile(filepath.Join(l.gitDir, "commondir"))
	if errors.Is(err, fs.ErrNotExist) {
		return l, nil
	}
	if err != nil {
		return l, fmt.Errorf("read commondir: %w", err)
	}
	dir := strings.TrimSpace(string(b))
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(l.gitDir, dir)
	}
	l.commonDir = filepath.Clean(dir)
	return l, nil
}

// repoConfig is what the store needs from the repository's config.
type repoConfig struct {
	bare      bool
	logAll    bool // core.logAllRefUpdates: create reflogs for branches and HEAD
	fileMode  bool // core.fileMode: the executable bit counts
	workTree  string
	hasConfig bool
}

// readConfig reads the repository config and refuses formats the store
// cannot write.
func readConfig(l layout) (repoConfig, error) {
	name := filepath.Join(l.commonDir, "config")
	b, err := os.ReadFile(name)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return repoConfig{}, fmt.Errorf("read config: %w", err)
	}
	cfg := gitconfig.New()
	if err := gitconfig.NewDecoder(bytes.NewReader(b)).Decode(cfg); err != nil {
		return repoConfig{}, fmt.Errorf("parse %s: %w", name, err)
	}
	core := cfg.Section("core")
	ext := cfg.Section("extensions")
	if v := core.Option("repositoryformatversion"); v != "" && v != "0" && v != "1" {
		return repoConfig{}, fmt.Errorf("open repository: unsupported repository format version %s", v)
	}
	if f := strings.ToLower(ext.Option("objectformat")); f != "" && f != "sha1" {
		return repoConfig{}, fmt.Errorf("open repository: object format %s is not supported, only sha1", f)
	}
	if f := strings.ToLower(ext.Option("refstorage")); f != "" && f != "files" {
		return repoConfig{}, fmt.Errorf("open repository: ref storage %s is not supported, only files", f)
	}
	rc := repoConfig{hasConfig: len(b) > 0, fileMode: true}
	rc.bare = gitformat.ParseBool(core.Option("bare"), l.workTree == "")
	rc.logAll = gitformat.ParseBool(core.Option("logallrefupdates"), !rc.bare) ||
		strings.EqualFold(core.Option("logallrefupdates"), "always")
	rc.fileMode = gitformat.ParseBool(core.Option("filemode"), true)
	if wt := core.Option("worktree"); wt != "" {
		if !filepath.IsAbs(wt) {
			wt = filepath.Join(l.gitDir, wt)
		}
		rc.workTree = filepath.Clean(wt)
	}
	return rc, nil
}
